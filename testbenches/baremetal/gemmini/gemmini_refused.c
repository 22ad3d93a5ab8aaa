// No silent wrong answer: a Gemmini-style program whose command the accelerator refuses stops
// at its next gemmini_fence() with a message naming the command and the reason, and exits 1
// (test bm_gemmini_refused_tiny matches the text and the exit code). Gemmini programs never read
// the error registers, so without the stop it would print a matrix the accelerator never wrote.
#include "include/gemmini.h"
#include "include/gemmini_testutils.h"

int main(void) {
  static elem_t in[DIM][DIM], out[DIM][DIM];
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      in[i][j] = (elem_t)(i * DIM + j);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvin(in, 0);
  gemmini_fence(); /* nothing refused yet: returns */
  printf("first fence passed\n");
  /* A move to rows beyond the scratchpad: LOCAL_RANGE. */
  gemmini_mvin(in, BANK_NUM * BANK_ROWS);
  gemmini_mvout(out, 0);
  gemmini_fence();
  printf("wrong result printed: %d\n", out[0][0]);
  return 0;
}
