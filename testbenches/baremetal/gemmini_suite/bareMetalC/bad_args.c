// Does not compile: gemmini_config_ex with an argument count no Gemmini version had.
#include "include/gemmini_testutils.h"

int main() {
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION);
  return 0;
}
