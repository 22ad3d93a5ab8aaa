// Gemmini-style program: mvin/mvout of DIM x DIM blocks through gemmini.h, as Gemmini's
// mvin_mvout test does, plus a zero-fill block, a block mvin and an accumulator round trip.
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef BAREMETAL
#include <sys/mman.h>
#endif
#include "include/gemmini_testutils.h"
#include "seed.h"

#define N 4

int main() {
#ifndef BAREMETAL
  if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
    perror("mlockall failed");
    exit(1);
  }
#endif
  seed_rand(6001, "gemmini_mvin_mvout");
  gemmini_flush(0);
  static elem_t In[N][DIM][DIM] row_align(1);
  static elem_t Out[N][DIM][DIM] row_align(1);
  static elem_t Zeros[DIM][DIM];
  static acc_t AccIn[DIM][DIM] row_align_acc(1);
  static acc_t AccOut[DIM][DIM] row_align_acc(1);

  for (size_t n = 0; n < N; ++n)
    for (size_t i = 0; i < DIM; ++i)
      for (size_t j = 0; j < DIM; ++j)
        In[n][i][j] = (elem_t)(rand() % 256 - 128);
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j) {
      Out[0][i][j] = 1;
      AccIn[i][j] = (acc_t)(rand() % 2000001) - 1000000;
    }

  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  for (size_t n = 0; n < N; ++n) {
    gemmini_mvin(In[n], n * DIM);
    gemmini_mvout(Out[n], n * DIM);
  }
  gemmini_fence();
  for (size_t n = 0; n < N; ++n)
    if (!is_equal(In[n], Out[n])) {
      printf("Matrix %u:\n", (unsigned)n);
      printMatrix(In[n]);
      printf("Matrix %u output:\n", (unsigned)n);
      printMatrix(Out[n]);
      exit(1);
    }

  // DRAM address 0 (NULL) fills with zeros.
  gemmini_mvin(NULL, N * DIM);
  gemmini_mvout(Out[0], N * DIM);
  gemmini_fence();
  if (!is_equal(Out[0], Zeros)) {
    printf("zero fill failed\n");
    exit(1);
  }

  // Accumulator round trip at full width (acc_t rows).
  gemmini_extended_config_ld(DIM * sizeof(acc_t), MVIN_SCALE_IDENTITY);
  gemmini_mvin(AccIn, (uint32_t)1 << 31);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(AccOut, ((uint32_t)1 << 31) | ((uint32_t)1 << 29)); // acc | full
  gemmini_fence();
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      if (AccIn[i][j] != AccOut[i][j]) {
        printf("accumulator round trip failed at %u,%u\n", (unsigned)i, (unsigned)j);
        exit(1);
      }
  printf("gemmini_mvin_mvout: PASS\n");
  exit(0);
}
