// Does not link: resadd_cpu with an argument count no Gemmini version had.
#include "include/gemmini_testutils.h"

int main() {
  resadd_cpu(1, 2, 3);
  return 0;
}
