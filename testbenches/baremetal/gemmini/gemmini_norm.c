// Gemmini's gemmini_config_norm compiles with its seven arguments and, as Brickyard has no
// normalization unit, stops the program with a message (test bm_gemmini_norm_tiny matches it)
// before any command is issued.
#include "include/gemmini.h"

int main(void) {
  const int stat_id = 1;
  gemmini_config_norm(0, 0, 1, 0, stat_id, 0, 0);
  printf("gemmini_config_norm returned\n");
  return 0;
}
