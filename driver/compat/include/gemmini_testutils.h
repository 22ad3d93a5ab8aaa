/* Gemmini's test utilities (the header Gemmini's bare-metal programs include) for Brickyard:
 * DIM x DIM matrix references, equality checks, printing, cycle reads. Written from Gemmini's
 * documented behaviour. read_cycles() reads the SoC's cycle timer (rdcycle is not simulated
 * there, docs/soc.md); on the host build it returns nanoseconds. rand() stays the C library's.
 */
#ifndef BRICKYARD_GEMMINI_TESTUTILS_H
#define BRICKYARD_GEMMINI_TESTUTILS_H

#include "gemmini.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef BAREMETAL
#undef assert
#define assert(expr)                                                                               \
  if (!(expr)) {                                                                                   \
    printf("Failed assertion: " #expr "\n  " __FILE__ ":%u\n", __LINE__);                          \
    exit(1);                                                                                       \
  }
#endif

static inline uint64_t read_cycles(void) {
  return by_cycles();
}

static inline full_t by_gemmini_dot(elem_t a[DIM][DIM], elem_t b[DIM][DIM], size_t r, size_t c,
                                    bool at, bool bt) {
  full_t s = 0;
  for (size_t k = 0; k < DIM; k++)
    s += (full_t)(at ? a[k][r] : a[r][k]) * (bt ? b[c][k] : b[k][c]);
  return s;
}

#define BY_GEMMINI_MATMUL(name, DT, CT, at, bt)                                                    \
  static inline void name(elem_t A[DIM][DIM], elem_t B[DIM][DIM], DT D[DIM][DIM],                  \
                          CT C[DIM][DIM]) {                                                        \
    for (size_t r = 0; r < DIM; r++)                                                               \
      for (size_t c = 0; c < DIM; c++)                                                             \
        C[r][c] = (CT)(D[r][c] + by_gemmini_dot(A, B, r, c, at, bt));                              \
  }
BY_GEMMINI_MATMUL(matmul, elem_t, full_t, false, false)
BY_GEMMINI_MATMUL(matmul_short, elem_t, elem_t, false, false)
BY_GEMMINI_MATMUL(matmul_full, full_t, full_t, false, false)
BY_GEMMINI_MATMUL(matmul_A_transposed, elem_t, full_t, true, false)
BY_GEMMINI_MATMUL(matmul_short_A_transposed, elem_t, elem_t, true, false)
BY_GEMMINI_MATMUL(matmul_full_A_transposed, full_t, full_t, true, false)
BY_GEMMINI_MATMUL(matmul_B_transposed, elem_t, full_t, false, true)
BY_GEMMINI_MATMUL(matmul_short_B_transposed, elem_t, elem_t, false, true)
BY_GEMMINI_MATMUL(matmul_full_B_transposed, full_t, full_t, false, true)
BY_GEMMINI_MATMUL(matmul_AB_transposed, elem_t, full_t, true, true)
BY_GEMMINI_MATMUL(matmul_short_AB_transposed, elem_t, elem_t, true, true)
BY_GEMMINI_MATMUL(matmul_full_AB_transposed, full_t, full_t, true, true)

static inline void matadd(full_t sum[DIM][DIM], full_t m1[DIM][DIM], full_t m2[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++)
      sum[r][c] = m1[r][c] + m2[r][c];
}

static inline elem_t by_gemmini_clip(full_t x) {
  return (elem_t)(x > elem_t_max ? elem_t_max : (x < elem_t_min ? elem_t_min : x));
}

/* Rounding right shift (ties to even), then saturation to elem_t. */
static inline void matshift(full_t full[DIM][DIM], elem_t out[DIM][DIM], int shift) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++)
      out[r][c] = by_gemmini_clip(ROUNDING_RIGHT_SHIFT(full[r][c], shift));
}

static inline void matscale(full_t full[DIM][DIM], elem_t out[DIM][DIM], acc_scale_t scale) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++)
      out[r][c] = by_gemmini_clip(ACC_SCALE(full[r][c], scale));
}

static inline void matrelu(elem_t in[DIM][DIM], elem_t out[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++)
      out[r][c] = in[r][c] > 0 ? in[r][c] : 0;
}

static inline void transpose(elem_t in[DIM][DIM], elem_t out[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++)
      out[c][r] = in[r][c];
}

static inline void printMatrix(elem_t m[DIM][DIM]) {
  for (size_t i = 0; i < DIM; ++i) {
    for (size_t j = 0; j < DIM; ++j)
      printf("%d ", m[i][j]);
    printf("\n");
  }
}

static inline void printMatrixAcc(acc_t m[DIM][DIM]) {
  for (size_t i = 0; i < DIM; ++i) {
    for (size_t j = 0; j < DIM; ++j)
      printf("%ld ", (long)m[i][j]);
    printf("\n");
  }
}

static inline int is_equal(elem_t x[DIM][DIM], elem_t y[DIM][DIM]) {
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      if (x[i][j] != y[i][j])
        return 0;
  return 1;
}

static inline int is_equal_transposed(elem_t x[DIM][DIM], elem_t y[DIM][DIM]) {
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      if (x[i][j] != y[j][i])
        return 0;
  return 1;
}

/* Element-wise equality of two dim_i x dim_j arrays (a GNU statement expression, as Gemmini's). */
#define MAT_IS_EQUAL(dim_i, dim_j, x, y)                                                           \
  __extension__({                                                                                  \
    int by_result_ = 1;                                                                            \
    for (size_t by_i_ = 0; by_i_ < (size_t)(dim_i) && by_result_; by_i_++)                         \
      for (size_t by_j_ = 0; by_j_ < (size_t)(dim_j); ++by_j_)                                     \
        if ((x)[by_i_][by_j_] != (y)[by_i_][by_j_]) {                                              \
          by_result_ = 0;                                                                          \
          break;                                                                                   \
        }                                                                                          \
    by_result_;                                                                                    \
  })

#endif /* BRICKYARD_GEMMINI_TESTUTILS_H */
