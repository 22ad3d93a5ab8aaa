// Gemmini-style program: one DIM x DIM matmul in WS and OS through the raw gemmini_* macros,
// checked with gemmini_testutils.h's matmul / matshift / matscale references, and a bias
// preloaded from the accumulator (the example of docs/isa.md).
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static elem_t A[DIM][DIM] row_align(1), B[DIM][DIM] row_align(1), D[DIM][DIM] row_align(1);
static elem_t C[DIM][DIM] row_align(1), gold[DIM][DIM];
static full_t gold_full[DIM][DIM];
static acc_t Dacc[DIM][DIM] row_align_acc(1);

static int check(const char* what) {
  if (!is_equal(C, gold)) {
    printf("%s: wrong result\nGot:\n", what);
    printMatrix(C);
    printf("Expected:\n");
    printMatrix(gold);
    return 1;
  }
  return 0;
}

int main() {
  seed_rand(6002, "gemmini_matmul");
  int failures = 0;
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j) {
      A[i][j] = (elem_t)(rand() % 11 - 5);
      B[i][j] = (elem_t)(rand() % 11 - 5);
      D[i][j] = (elem_t)(rand() % 11 - 5);
      Dacc[i][j] = D[i][j];
    }
  gemmini_flush(0);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvin(A, 0);
  gemmini_mvin(B, DIM);
  gemmini_mvin(D, 2 * DIM);

#if BY_HAS_OS
  // OS: D preloaded as the initial accumulators, result shifted by 2 into the scratchpad.
  gemmini_config_ex(OUTPUT_STATIONARY, NO_ACTIVATION, 2);
  gemmini_preload(2 * DIM, 3 * DIM);
  gemmini_compute_preloaded(0, DIM);
  gemmini_mvout(C, 3 * DIM);
  gemmini_fence();
  matmul(A, B, D, gold_full);
  matshift(gold_full, gold, 2);
  failures += check("OS");
#endif

#if BY_HAS_WS
  // WS: weights B; D moved into the accumulator first; C accumulates onto it; scaled out.
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 0);
  gemmini_extended_config_ld(DIM * sizeof(acc_t), MVIN_SCALE_IDENTITY);
  gemmini_mvin(Dacc, (uint32_t)1 << 31);
  gemmini_preload(DIM, ((uint32_t)1 << 31) | ((uint32_t)1 << 30));
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_extended_config_st(DIM * sizeof(elem_t), NO_ACTIVATION, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  gemmini_mvout(C, (uint32_t)1 << 31);
  gemmini_fence();
  matmul(A, B, D, gold_full);
  matscale(gold_full, gold, 0.5f);
  failures += check("WS");
#endif
  printf("gemmini_matmul: %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
