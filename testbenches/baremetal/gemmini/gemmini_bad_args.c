// Must not compile (test bm_gemmini_bad_args_tiny): argument counts that no Gemmini version
// used stop the build with a message naming the forms, not with an undefined symbol.
#include "include/gemmini.h"

void bad_counts(void) {
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION);
  gemmini_extended_config_st(16, RELU);
  gemmini_loop_ws(1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, false, false, false, false, false,
                  NO_ACTIVATION, 0);
}
