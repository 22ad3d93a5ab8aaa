// Skips itself, as Gemmini's mvin_scale does, when the config has no mvin scaler.
#include "include/gemmini_testutils.h"

#include <stdio.h>
#include <stdlib.h>

int main() {
#ifdef HAS_MVIN_SCALE
  printf("this config has an mvin scaler: nothing here tests it\n");
  exit(1);
#endif
  exit(0);
}
