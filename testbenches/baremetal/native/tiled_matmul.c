/* Tiled matmul (by_matmul) in WS, OS and automatic dataflow, on sizes that are no multiple of
 * DIM, with accumulator and elem_t biases (also repeating), scale, ReLU, full-width output,
 * transposes (through the transposer on LOOP_WS where the hardware has both, else in software),
 * forced small tiles (several C and K tiles, double buffering) and saturating OS accumulations;
 * against bm_ref.h. Also the CPU fallback and argument errors. */
#include "bm_ref.h"
#include "bm_test.h"

#define MAX_I 70
#define MAX_J 66
#define MAX_K 100

static by_elem_t A[MAX_I * MAX_K], B[MAX_K * MAX_J], Celem[MAX_I * MAX_J], want[MAX_I * MAX_J];
static by_acc_t Dacc[MAX_I * MAX_J], Cacc[MAX_I * MAX_J], want_acc[MAX_I * MAX_J];
static by_elem_t Delem[MAX_J];
static int64_t ref[MAX_I * MAX_J], Dref[MAX_I * MAX_J];
static by_elem_t workspace[MAX_I * MAX_K + MAX_K * MAX_J];

typedef struct {
  const char* name;
  size_t I, J, K;
  int dataflow;
  int bias; /* 0 none, 1 acc_t I x J, 2 elem_t repeating row */
  float scale;
  int relu, full, at, bt;
  size_t ti, tj, tk;
  int extreme; /* all operands 127: OS results saturate, WS chunks wrap */
  int on_cpu;
} mm_case_t;

static void run(const mm_case_t* c) {
  if ((c->dataflow == BY_DATAFLOW_WS && !BY_HAS_WS) ||
      (c->dataflow == BY_DATAFLOW_OS && !BY_HAS_OS)) {
    printf("%s: dataflow not built, expecting BY_ERR_UNSUPPORTED\n", c->name);
  }
  const size_t lda = c->at ? c->I : c->K, ldb = c->bt ? c->K : c->J;
  if (c->extreme) {
    for (size_t i = 0; i < c->I * c->K; ++i)
      A[i] = BY_ELEM_MAX;
    for (size_t i = 0; i < c->K * c->J; ++i)
      B[i] = BY_ELEM_MAX;
  } else {
    bm_fill(A, c->I * c->K, BY_ELEM_MIN, BY_ELEM_MAX);
    bm_fill(B, c->K * c->J, BY_ELEM_MIN, BY_ELEM_MAX);
  }
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = c->I;
  m.J = c->J;
  m.K = c->K;
  m.A = A;
  m.lda = lda;
  m.a_transposed = c->at;
  m.B = B;
  m.ldb = ldb;
  m.b_transposed = c->bt;
  if (c->bias == 1) {
    bm_fill_acc(Dacc, c->I * c->J, -100000, 100000);
    for (size_t i = 0; i < c->I * c->J; ++i)
      Dref[i] = Dacc[i];
    m.D = Dacc;
    m.ldd = c->J;
  } else if (c->bias == 2) {
    bm_fill(Delem, c->J, BY_ELEM_MIN, BY_ELEM_MAX);
    for (size_t i = 0; i < c->I; ++i)
      for (size_t j = 0; j < c->J; ++j)
        Dref[i * c->J + j] = Delem[j];
    m.D = Delem;
    m.ldd = c->J;
    m.d_elem = 1;
    m.repeating_bias = 1;
  }
  m.C = c->full ? (void*)Cacc : (void*)Celem;
  m.ldc = c->J;
  m.c_full = c->full;
  m.activation = c->relu ? BY_ACT_RELU : BY_ACT_NONE;
  m.scale = c->scale;
  m.dataflow = c->dataflow;
  m.tile_i = c->ti;
  m.tile_j = c->tj;
  m.tile_k = c->tk;
  m.workspace = workspace;
  m.workspace_bytes = sizeof workspace;
  m.on_cpu = c->on_cpu;

  by_matmul_plan_t plan;
  const by_status_t ps = by_matmul_plan(&m, &plan);
  if (ps == BY_ERR_UNSUPPORTED) {
    BM_CHECK(c->dataflow != BY_DATAFLOW_AUTO, "%s: automatic dataflow unsupported", c->name);
    BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "%s: by_matmul accepted a missing dataflow",
             c->name);
    return;
  }
  BM_OK(ps);
  printf("%s: %lux%lux%lu %s tiles %lux%lux%lu%s%s\n", c->name, (unsigned long)c->I,
         (unsigned long)c->J, (unsigned long)c->K, plan.dataflow == BY_DATAFLOW_WS ? "WS" : "OS",
         (unsigned long)plan.tile_i, (unsigned long)plan.tile_j, (unsigned long)plan.tile_k,
         plan.transpose_a ? ", A through the transposer" : "",
         plan.transposed    ? ", as its transpose"
         : plan.transpose_b ? ", B through the transposer"
                            : "");
  /* One transpose on LOOP_WS with the transposer: the hardware takes it (A first), and then no
   * workspace is needed (none is given, so a software copy could not hide). */
  const int transposer = by_has_loop_ws() && BY_REG_FIELD(HW_FEATURES, TRANSPOSER,
                                                          by_hal_reg_read(BY_REG_HW_FEATURES)) != 0;
  if (transposer && plan.loop && !c->on_cpu && !plan.transposed) {
    BM_CHECK(plan.transpose_a == c->at && plan.transpose_b == (c->bt && !c->at),
             "%s: the transposer was not used", c->name);
    if ((c->at || c->bt) && !(c->at && c->bt)) {
      BM_CHECK(by_matmul_workspace_bytes(&m) == 0, "%s: a workspace for a hardware transpose",
               c->name);
      m.workspace = 0;
      m.workspace_bytes = 0;
    }
  }
  bm_fill_zero(Celem, sizeof Celem);
  bm_fill_zero(Cacc, sizeof Cacc);
  BM_OK(by_matmul(&m));
  ref_matmul(c->I, c->J, c->K, A, lda, c->at, B, ldb, c->bt, c->bias ? Dref : 0, c->J,
             plan.dataflow == BY_DATAFLOW_WS, plan.k_chunk, ref);
  const size_t n = c->I * c->J;
  if (c->full) {
    for (size_t i = 0; i < n; ++i)
      want_acc[i] = (by_acc_t)ref[i];
    bm_compare_acc(c->name, Cacc, want_acc, n);
  } else {
    for (size_t i = 0; i < n; ++i)
      want[i] = ref_out(ref[i], c->scale, c->relu);
    bm_compare(c->name, Celem, want, n);
  }
}

int main(void) {
  bm_seed(5001, "tiled_matmul");
  by_error_clear();
  const mm_case_t cases[] = {
      {"ws_small", 13, 9, 21, BY_DATAFLOW_WS, 0, 1.0f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {"os_small", 13, 9, 21, BY_DATAFLOW_OS, 0, 1.0f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {"auto_bias_acc", 17, 23, 30, BY_DATAFLOW_AUTO, 1, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {"ws_bias_repeat_relu", 20, 11, 7, BY_DATAFLOW_WS, 2, 0.5f, 1, 0, 0, 0, 0, 0, 0, 0, 0},
      {"os_bias_repeat_relu", 20, 11, 7, BY_DATAFLOW_OS, 2, 0.5f, 1, 0, 0, 0, 0, 0, 0, 0, 0},
      {"ws_full", 9, 14, 33, BY_DATAFLOW_WS, 1, 1.0f, 0, 1, 0, 0, 0, 0, 0, 0, 0},
      {"os_full", 9, 14, 33, BY_DATAFLOW_OS, 1, 1.0f, 0, 1, 0, 0, 0, 0, 0, 0, 0},
      {"ws_transposes", 15, 10, 19, BY_DATAFLOW_WS, 0, 0.25f, 0, 0, 1, 1, 0, 0, 0, 0, 0},
      {"os_transpose_a", 15, 10, 19, BY_DATAFLOW_OS, 1, 0.25f, 0, 0, 1, 0, 0, 0, 0, 0, 0},
      {"ws_transpose_a_tiles", 30, 27, 25, BY_DATAFLOW_WS, 1, 0.125f, 1, 0, 1, 0, 1, 2, 1, 0, 0},
      {"ws_transpose_b_tiles", 30, 27, 25, BY_DATAFLOW_WS, 2, 0.125f, 0, 1, 0, 1, 2, 1, 2, 0, 0},
      {"auto_transpose_b", 21, 38, 45, BY_DATAFLOW_AUTO, 1, 0.0625f, 0, 0, 0, 1, 0, 0, 0, 0, 0},
      {"ws_tiles_111", 30, 27, 25, BY_DATAFLOW_WS, 1, 0.125f, 1, 0, 0, 0, 1, 1, 1, 0, 0},
      {"os_tiles_212", 30, 27, 25, BY_DATAFLOW_OS, 1, 0.125f, 1, 0, 0, 0, 2, 1, 2, 0, 0},
      {"ws_large", MAX_I, MAX_J, MAX_K, BY_DATAFLOW_WS, 1, 0.03125f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {"os_large", MAX_I, MAX_J, MAX_K, BY_DATAFLOW_OS, 2, 0.03125f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {"ws_extreme", 8, 8, 64, BY_DATAFLOW_WS, 0, 1.0f, 0, 1, 0, 0, 0, 0, 0, 1, 0},
      {"os_extreme", 8, 8, 64, BY_DATAFLOW_OS, 0, 1.0f, 0, 1, 0, 0, 0, 0, 0, 1, 0},
      {"os_extreme_ktiles", 8, 8, 64, BY_DATAFLOW_OS, 0, 1.0f, 0, 1, 0, 0, 1, 1, 2, 1, 0},
      {"cpu_fallback", 17, 23, 30, BY_DATAFLOW_AUTO, 1, 0.0625f, 1, 0, 1, 0, 0, 0, 0, 0, 1},
      /* One row of C with B stored transposed: on the one-lane WS loops the transpose runs
       * (B^T streams as A; forced tiles are the transpose's). */
      {"ws_one_row_transpose_b", 1, 38, 45, BY_DATAFLOW_WS, 2, 0.0625f, 1, 0, 0, 1, 0, 0, 0, 0, 0},
      {"auto_one_row_transpose_b_full", 1, 66, 100, BY_DATAFLOW_AUTO, 1, 1.0f, 0, 1, 0, 1, 0, 0, 0,
       0, 0},
      {"ws_one_row_transpose_b_tiles", 1, 66, 100, BY_DATAFLOW_WS, 1, 0.125f, 0, 0, 0, 1, 2, 1, 2,
       0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run(&cases[i]);

  /* Bad input is refused before anything is issued. */
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = 4;
  m.J = 4;
  m.K = 4;
  m.A = A;
  m.B = B;
  m.C = Celem;
  m.lda = m.ldb = m.ldc = 4;
  m.a_transposed = 1;
  /* (A transpose the transposer takes needs no workspace.) */
  BM_CHECK(by_matmul(&m) == (by_matmul_workspace_bytes(&m) ? BY_ERR_WORKSPACE : BY_OK),
           "transpose without workspace");
  m.a_transposed = 1, m.b_transposed = 1; /* the transposer takes one: B needs a copy */
  BM_CHECK(by_matmul(&m) == BY_ERR_WORKSPACE, "two transposes without workspace accepted");
  m.a_transposed = 0, m.b_transposed = 0;
  /* One row with B stored transposed runs as its transpose where the one-lane WS loops are,
   * with both operands as stored: no workspace. */
  {
    by_matmul_t one = m;
    by_matmul_plan_t plan;
    one.I = 1, one.b_transposed = 1, one.dataflow = BY_HAS_WS ? BY_DATAFLOW_WS : BY_DATAFLOW_AUTO;
    const int transposed = BY_HAS_WS && BY_HAS_LOOP_WS && BY_LANES == 1;
    BM_CHECK(by_matmul_plan(&one, &plan) == BY_OK && plan.transposed == transposed,
             "one row with B transposed: transposed plan where the one-lane WS loops are");
    BM_CHECK(!transposed || by_matmul_workspace_bytes(&one) == 0,
             "a transposed plan needs a workspace");
  }
  m.workspace = workspace; /* vector PEs: by_matmul packs B there */
  m.workspace_bytes = sizeof workspace;
  m.lda = 3;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "lda < K accepted");
  m.lda = 4;
  m.K = 0;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "K = 0 accepted");
  m.K = 4;
  m.tile_i = 100000;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "oversized tile accepted");
  bm_expect_no_hw_error("tiled_matmul");
  return bm_finish("tiled_matmul");
}
