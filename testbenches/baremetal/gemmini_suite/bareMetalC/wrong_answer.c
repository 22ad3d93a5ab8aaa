// Fails as Gemmini's programs do: matrices, then a line that says what was wrong.
#include "include/gemmini_testutils.h"

#include <stdio.h>
#include <stdlib.h>

int main() {
  printf("1 2 3\n4 5 6\n");
  printf("Wrong (x: 3)\n");
  exit(1);
}
