/* The array through explicit PRELOAD / COMPUTE sequences: WS and OS, bias from the
 * scratchpad and the accumulator, WS weight reuse (COMPUTE_ACCUMULATED), OS accumulation over
 * several computes with a GARBAGE output, OS output shift, results to the scratchpad with
 * ReLU, partial operand sizes, and A/C strides. Expected values follow docs/isa.md. */
#include "bm_ref.h"
#include "bm_test.h"

#define D BY_DIM
static by_elem_t A[D * D], A2[D * D], B[D * D], B2[D * D], Ds[D * D], out[D * D], want[D * D];
static by_acc_t Dacc[D * D], aout[D * D], awant[D * D];

/* sum_k a[i][k] * b[k][j] over the first n rows / m cols / kk reduction elements. */
static int64_t dot(const by_elem_t* a, const by_elem_t* b, int i, int j, int kk) {
  int64_t s = 0;
  for (int k = 0; k < kk; ++k)
    s += (int64_t)a[i * D + k] * b[k * D + j];
  return s;
}

static void load_operands(void) {
  by_config_ld(0, D, 0, 0);
  by_config_ld(1, D * sizeof(by_acc_t), 0, 0);
  by_mvin(0, A, by_sp_addr(0), D, D);
  by_mvin(0, B, by_sp_addr(D), D, D);
  by_mvin(0, Ds, by_sp_addr(2 * D), D, D);
  by_mvin(0, A2, by_sp_addr(3 * D), D, D);
  by_mvin(0, B2, by_sp_addr(4 * D), D, D);
  by_mvin(1, Dacc, by_acc_addr(0, 0, 0), D, D);
}

static void mvout_acc_full(uint32_t row) {
  by_config_st(D * sizeof(by_acc_t), BY_ACT_NONE, 1.0f, 0);
  by_mvout(aout, by_acc_addr(row, 0, 1), D, D);
  by_fence();
}

int main(void) {
  bm_seed(5005, "matmul_raw");
  by_error_clear();
  bm_fill(A, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(A2, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B2, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(Ds, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill_acc(Dacc, D * D, -1000000, 1000000);
  load_operands();
  const int OW = BY_SPATIAL_OUTPUT_WIDTH;

  if (BY_HAS_WS) {
    /* WS: weights B, bias Ds from the scratchpad, C accumulates onto Dacc (ACC rows 0..). */
    by_config_ex(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 1, 1);
    by_preload(by_sp_addr(D), D, D, by_acc_addr(0, 1, 0), D, D);
    by_compute(1, by_sp_addr(0), D, D, by_sp_addr(2 * D), D, D);
    /* Weight reuse: A2 with the same weights into ACC rows D.. (overwrite), no bias. */
    by_preload(BY_GARBAGE_ADDR, D, D, by_acc_addr(D, 0, 0), D, D);
    by_compute(0, by_sp_addr(3 * D), D, D, BY_GARBAGE_ADDR, D, D);
    mvout_acc_full(0);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j)
        awant[i * D + j] = (by_acc_t)ref_wrap(
            Dacc[i * D + j] + ref_wrap(ref_wrap(Ds[i * D + j], OW) + dot(A, B, i, j, D), OW),
            BY_ACC_WIDTH);
    bm_compare_acc("ws_bias_accumulate", aout, awant, D * D);
    mvout_acc_full(D);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j)
        awant[i * D + j] = (by_acc_t)ref_wrap(dot(A2, B, i, j, D), OW);
    bm_compare_acc("ws_weight_reuse", aout, awant, D * D);

    /* Partial sizes and ReLU into the scratchpad: A rows 0..D-2, K = D-1, C cols D-1. */
    const int r = D > 1 ? D - 1 : 1;
    by_config_ex(BY_DATAFLOW_WS, BY_ACT_RELU, 0, 1, 1);
    by_mvin(0, 0, by_sp_addr(6 * D), D, D); /* zero the destination first */
    by_preload(by_sp_addr(D), r, r, by_sp_addr(6 * D), r, r);
    by_compute(1, by_sp_addr(0), r, r, BY_GARBAGE_ADDR, D, D);
    by_config_st(D, BY_ACT_NONE, 1.0f, 0);
    by_mvout(out, by_sp_addr(6 * D), D, D);
    by_fence();
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) {
        int64_t v = 0;
        if (i < r && j < r) {
          v = ref_wrap(dot(A, B, i, j, r), OW);
          v = ref_sat(v < 0 ? 0 : v, BY_INPUT_WIDTH);
        }
        want[i * D + j] = (by_elem_t)v;
      }
    bm_compare("ws_partial_relu_sp", out, want, D * D);
  }

  if (BY_HAS_OS) {
    /* OS: initial accumulators Ds, A*B, then A2*B2 accumulated; written once at the end. */
    by_config_ex(BY_DATAFLOW_OS, BY_ACT_NONE, 0, 1, 1);
    by_preload(by_sp_addr(2 * D), D, D, BY_GARBAGE_ADDR, D, D);
    by_compute(1, by_sp_addr(0), D, D, by_sp_addr(D), D, D);
    by_preload(BY_GARBAGE_ADDR, D, D, by_acc_addr(2 * D, 0, 0), D, D);
    by_compute(0, by_sp_addr(3 * D), D, D, by_sp_addr(4 * D), D, D);
    mvout_acc_full(2 * D);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j)
        awant[i * D + j] = (by_acc_t)ref_sat(
            ref_wrap(Ds[i * D + j] + dot(A, B, i, j, D) + dot(A2, B2, i, j, D), BY_ACC_WIDTH), OW);
    bm_compare_acc("os_accumulate", aout, awant, D * D);

    /* OS with an output shift (rounding, ties to even) into the scratchpad with ReLU; a
     * following COMPUTE_ACCUMULATED starts from zero after the write. */
    by_config_ex(BY_DATAFLOW_OS, BY_ACT_RELU, 5, 1, 1);
    by_preload(BY_GARBAGE_ADDR, D, D, by_sp_addr(7 * D), D, D);
    by_compute(1, by_sp_addr(0), D, D, by_sp_addr(D), D, D);
    by_preload(BY_GARBAGE_ADDR, D, D, by_acc_addr(3 * D, 0, 0), D, D);
    by_compute(0, by_sp_addr(3 * D), D, D, by_sp_addr(4 * D), D, D);
    by_config_st(D, BY_ACT_NONE, 1.0f, 0);
    by_mvout(out, by_sp_addr(7 * D), D, D);
    mvout_acc_full(3 * D);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) {
        int64_t v = ref_sat(by_rounding_shift(dot(A, B, i, j, D), 5), OW);
        v = ref_sat(v < 0 ? 0 : v, BY_INPUT_WIDTH);
        want[i * D + j] = (by_elem_t)v;
        awant[i * D + j] = (by_acc_t)ref_sat(by_rounding_shift(dot(A2, B2, i, j, D), 5), OW);
      }
    bm_compare("os_shift_relu_sp", out, want, D * D);
    bm_compare_acc("os_restart_after_write", aout, awant, D * D);

    /* A stride 2 (every other scratchpad row of A) and C stride 2 in the accumulator. */
    by_config_ex(BY_DATAFLOW_OS, BY_ACT_NONE, 0, 2, 2);
    by_mvin(0, 0, by_acc_addr(4 * D, 0, 0), D, D);
    by_mvin(0, 0, by_acc_addr(5 * D, 0, 0), D, D);
    const int half = D / 2 ? D / 2 : 1;
    by_preload(BY_GARBAGE_ADDR, D, D, by_acc_addr(4 * D, 0, 0), half, D);
    by_compute(1, by_sp_addr(0), half, D, by_sp_addr(D), D, D);
    mvout_acc_full(4 * D);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j)
        awant[i * D + j] =
            (i % 2 == 0 && i / 2 < half) ? (by_acc_t)ref_sat(dot(A, B, 2 * (i / 2), j, D), OW) : 0;
    bm_compare_acc("os_strides", aout, awant, D * D);
  }
  bm_expect_no_hw_error("matmul_raw");
  return bm_finish("matmul_raw");
}
