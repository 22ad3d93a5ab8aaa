/* Hardware transposes (docs/isa.md, "Transposes"): A and B stored transposed in each dataflow
 * and combination the transposer takes (WS: A, or B; OS: A, or A and B), full and partial
 * blocks, raw PRELOAD / COMPUTE pairs into the accumulator, against bm_ref.h's matmul of the
 * untransposed operands; WS weight reuse after a transposed flip; the combinations refused.
 * On configs without the transposer (vector PEs, TensorDash) every transpose is refused. */
#include "bm_ref.h"
#include "bm_test.h"

#define D BY_DIM
static by_elem_t A[D * D], B[D * D], At[D * D], Bt[D * D];
static by_acc_t out[D * D], want[D * D];
static int64_t ref[D * D];

/* x^T of an n x n block (row-major, D apart). */
static void transpose_into(const by_elem_t* x, by_elem_t* t) {
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j)
      t[j * D + i] = x[i * D + j];
}

static void load(void) {
  by_config_ld(0, D, 0, 0);
  by_mvin(0, A, by_sp_addr(0), D, D);
  by_mvin(0, B, by_sp_addr(D), D, D);
  by_mvin(0, At, by_sp_addr(2 * D), D, D);
  by_mvin(0, Bt, by_sp_addr(3 * D), D, D);
}

/* C (I x J, accumulator row 0) = A x B with K, A and/or B read from their transposed copies. */
static void run_case(int ws, int a_t, int b_t, int I, int J, int K) {
  by_config_ex_transpose(ws ? BY_DATAFLOW_WS : BY_DATAFLOW_OS, BY_ACT_NONE, 0, a_t, b_t);
  /* A and B stored transposed (K x I, J x K) in the copies; the commands give the logical
   * I x K and K x J, as on Gemmini. */
  const uint32_t a_addr = by_sp_addr(a_t ? 2 * D : 0), b_addr = by_sp_addr(b_t ? 3 * D : D);
  const uint32_t c = by_acc_addr(0, 0, 0);
  if (ws) {
    by_preload(b_addr, K, J, c, I, J);
    by_compute(1, a_addr, I, K, BY_GARBAGE_ADDR, D, D);
  } else {
    by_preload(BY_GARBAGE_ADDR, D, D, c, I, J);
    by_compute(1, a_addr, I, K, b_addr, K, J);
  }
  by_config_st(D * sizeof(by_acc_t), BY_ACT_NONE, 1.0f, 0);
  by_mvout(out, by_acc_addr(0, 0, 1), I, J);
  by_fence();
  ref_matmul((size_t)I, (size_t)J, (size_t)K, A, D, 0, B, D, 0, 0, 0, ws, D, ref);
  for (int i = 0; i < I * J; ++i)
    want[i] = (by_acc_t)ref[i];
  char what[96];
  snprintf(what, sizeof what, "%s A%s B%s %dx%dx%d", ws ? "WS" : "OS", a_t ? "^T" : "",
           b_t ? "^T" : "", I, J, K);
  /* The mvout wrote I rows of J columns, D apart. */
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j)
      out[i * J + j] = out[i * D + j];
  bm_compare_acc(what, out, want, (size_t)(I * J));
}

/* WS: a transposed flip's weights stay for COMPUTE_ACCUMULATED with another A. */
static void weight_reuse(void) {
  by_config_ex_transpose(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 0, 1);
  by_preload(by_sp_addr(3 * D), D, D, by_acc_addr(0, 0, 0), D, D);
  by_compute(1, by_sp_addr(0), D, D, BY_GARBAGE_ADDR, D, D);
  by_preload(BY_GARBAGE_ADDR, D, D, by_acc_addr(D, 0, 0), D, D);
  by_compute(0, by_sp_addr(D), D, D, BY_GARBAGE_ADDR, D, D); /* B as the second A */
  by_config_st(D * sizeof(by_acc_t), BY_ACT_NONE, 1.0f, 0);
  by_mvout(out, by_acc_addr(D, 0, 1), D, D);
  by_fence();
  ref_matmul(D, D, D, B, D, 0, B, D, 0, 0, 0, 1, D, ref);
  for (int i = 0; i < D * D; ++i)
    want[i] = (by_acc_t)ref[i];
  bm_compare_acc("WS B^T weights reused", out, want, D * D);
}

static void expect_refused(int ws, int a_t, int b_t) {
  const uint32_t before = by_error().count;
  by_config_ex_transpose(ws ? BY_DATAFLOW_WS : BY_DATAFLOW_OS, BY_ACT_NONE, 0, a_t, b_t);
  by_fence();
  const by_error_t e = by_error();
  BM_CHECK(e.count == before + 1 && e.code == BY_ERROR_UNSUPPORTED,
           "%s a_t %d b_t %d: want UNSUPPORTED, count %u -> %u", ws ? "WS" : "OS", a_t, b_t,
           (unsigned)before, (unsigned)e.count);
  by_error_clear();
}

int main(void) {
  bm_seed(5031, "transposes");
  by_error_clear();
  bm_fill(A, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  transpose_into(A, At);
  transpose_into(B, Bt);
  load();
  const int p = D > 2 ? D - 1 : D, q = D > 2 ? D - 2 : D; /* partial sizes */
  const uint32_t features = by_hal_reg_read(BY_REG_HW_FEATURES);
  BM_CHECK(BY_REG_FIELD(HW_FEATURES, TRANSPOSER, features) == (BY_LANES == 1 && !BY_TENSORDASH),
           "HW_FEATURES.TRANSPOSER is %u",
           (unsigned)BY_REG_FIELD(HW_FEATURES, TRANSPOSER, features));
  if (BY_LANES == 1 && !BY_TENSORDASH) {
    for (int ws = 0; ws < 2; ++ws) {
      if (ws ? !BY_HAS_WS : !BY_HAS_OS)
        continue;
      /* WS: A or B; OS: A, or A and B (the other combinations feed the transposer twice). */
      const int combos[3][2] = {{1, 0}, {0, 1}, {1, 1}};
      for (int c = 0; c < 3; ++c) {
        const int a_t = combos[c][0], b_t = combos[c][1];
        if (ws ? a_t && b_t : !a_t) {
          expect_refused(ws, a_t, b_t);
          continue;
        }
        run_case(ws, a_t, b_t, D, D, D);
        run_case(ws, a_t, b_t, p, q, D);
        run_case(ws, a_t, b_t, q, D, p);
        run_case(ws, a_t, b_t, D, p, q);
      }
    }
    if (BY_HAS_WS)
      weight_reuse();
  } else {
    expect_refused(BY_HAS_WS, 1, 0);
    expect_refused(BY_HAS_WS, 0, 1);
  }
  BM_CHECK(by_error().code == BY_ERROR_NONE, "an accepted command failed: %s",
           by_error_name(by_error().code));
  return bm_finish("transposes");
}
