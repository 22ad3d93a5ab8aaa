// Passes: one DIM x DIM block moved in and out unchanged, as a Gemmini program writes it.
#include "include/gemmini_testutils.h"

#include <stdio.h>
#include <stdlib.h>

int main() {
  static elem_t in[DIM][DIM] row_align(1), out[DIM][DIM] row_align(1);
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      in[i][j] = (elem_t)(i * DIM + j);
  gemmini_flush(0);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvin(in, 0);
  gemmini_mvout(out, 0);
  gemmini_fence();
  if (!is_equal(in, out)) {
    printf("mvin_copy: the block changed\n");
    exit(1);
  }
  exit(0);
}
