/* The native matmul kernel through LOOP_WS (configs with loops.ws): by_matmul in WS on sizes
 * that are no multiple of DIM, with both bias kinds, scale, ReLU, full-width output and forced
 * small tiles (several C and K tiles: loops that keep C in the accumulator), against bm_ref.h;
 * by_loop_ws issued directly (A already in the scratchpad through a_spad_id); an illegal loop
 * is a counted error (BAD_SIZE, funct LOOP_WS) and the next one runs. On a config without
 * loops.ws it checks that HW_FEATURES says so and skips. */
#include "bm_ref.h"
#include "bm_test.h"

#define MAX_I 64
#define MAX_J 48
#define MAX_K 70
#define K_TILE ((13 + BY_DIM - 1) / BY_DIM) /* the K blocks of the kept-operand cases */

static by_elem_t A[MAX_I * MAX_K], B[MAX_K * MAX_J], Celem[MAX_I * MAX_J], want[MAX_I * MAX_J];
static by_acc_t Dacc[MAX_I * MAX_J], Cacc[MAX_I * MAX_J], want_acc[MAX_I * MAX_J];
static by_elem_t Delem[MAX_J];
static int64_t ref[MAX_I * MAX_J], Dref[MAX_I * MAX_J];

typedef struct {
  const char* name;
  size_t I, J, K;
  int bias; /* 0 none, 1 acc_t I x J, 2 elem_t repeating row */
  float scale;
  int relu, full;
  size_t ti, tj, tk;
  by_matmul_keep_t keep; /* the operand the plan must keep (by_matmul_plan_t's keep); NONE: any */
} loop_case_t;

static void run(const loop_case_t* c) {
  bm_fill(A, c->I * c->K, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(B, c->K * c->J, BY_ELEM_MIN, BY_ELEM_MAX);
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = c->I, m.J = c->J, m.K = c->K;
  m.A = A, m.lda = c->K, m.B = B, m.ldb = c->J;
  if (c->bias == 1) {
    bm_fill_acc(Dacc, c->I * c->J, -100000, 100000);
    for (size_t i = 0; i < c->I * c->J; ++i)
      Dref[i] = Dacc[i];
    m.D = Dacc, m.ldd = c->J;
  } else if (c->bias == 2) {
    bm_fill(Delem, c->J, BY_ELEM_MIN, BY_ELEM_MAX);
    for (size_t i = 0; i < c->I * c->J; ++i)
      Dref[i] = Delem[i % c->J];
    m.D = Delem, m.ldd = c->J, m.d_elem = 1, m.repeating_bias = 1;
  }
  m.C = c->full ? (void*)Cacc : (void*)Celem;
  m.ldc = c->J;
  m.c_full = c->full;
  m.activation = c->relu ? BY_ACT_RELU : BY_ACT_NONE;
  m.scale = c->scale;
  m.dataflow = BY_DATAFLOW_WS;
  m.tile_i = c->ti, m.tile_j = c->tj, m.tile_k = c->tk;
  by_matmul_plan_t plan;
  BM_OK(by_matmul_plan(&m, &plan));
  static const char* const kept[] = {"", ", A kept over the column tiles",
                                     ", B kept over the row tiles"};
  printf("%s: %lux%lux%lu tiles %lux%lux%lu through LOOP_WS%s\n", c->name, (unsigned long)c->I,
         (unsigned long)c->J, (unsigned long)c->K, (unsigned long)plan.tile_i,
         (unsigned long)plan.tile_j, (unsigned long)plan.tile_k, kept[plan.keep]);
  BM_CHECK(c->keep == BY_MATMUL_KEEP_NONE || plan.keep == c->keep,
           "%s: the plan keeps %d, expected %d", c->name, (int)plan.keep, (int)c->keep);
  bm_fill_zero(Celem, sizeof Celem);
  bm_fill_zero(Cacc, sizeof Cacc);
  BM_OK(by_matmul(&m));
  ref_matmul(c->I, c->J, c->K, A, c->K, 0, B, c->J, 0, c->bias ? Dref : 0, c->J, 1, plan.k_chunk,
             ref);
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

/* by_loop_ws directly: one DIM x DIM tile of C = A x B with A moved in by a plain MVIN to the
 * first scratchpad half (a_spad_id 1, A = NULL), B from DRAM. */
static void direct(void) {
  const size_t n = BY_DIM;
  bm_fill(A, n * n, -8, 7);
  bm_fill(B, n * n, -8, 7);
  by_config_ex(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 1, 1);
  by_config_ld(0, n * sizeof(by_elem_t), 0, 0);
  by_config_ld(1, n * sizeof(by_elem_t), 0, 0);
  by_config_st((uint32_t)(n * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  by_mvin(0, A, by_sp_addr(0), (uint32_t)n, (uint32_t)n);
  by_loop_ws_t l = {0};
  l.I = l.J = l.K = 1;
  l.B = B;
  l.C = Celem;
  l.a_stride = l.b_stride = l.c_stride = n;
  l.a_spad_id = 1;
  by_loop_ws(&l);
  by_fence();
  ref_matmul(n, n, n, A, n, 0, B, n, 0, 0, n, 1, BY_DIM, ref);
  for (size_t i = 0; i < n * n; ++i)
    want[i] = ref_out(ref[i], 1.0f, 0);
  bm_compare("by_loop_ws with A in the scratchpad", Celem, want, n * n);

  /* An illegal loop (no I tiles) is rejected and counted; the next loop runs. */
  const by_error_t before = by_error();
  l.I = 0;
  by_loop_ws(&l);
  by_fence();
  const by_error_t after = by_error();
  BM_CHECK(after.count == before.count + 1, "illegal loop: %u errors, expected %u",
           (unsigned)after.count, (unsigned)before.count + 1);
  BM_CHECK(after.code == BY_ERROR_BAD_SIZE && after.funct == BY_FUNCT_LOOP_WS,
           "illegal loop: error %u funct %u", (unsigned)after.code, (unsigned)after.funct);
  by_error_clear();
}

int main(void) {
  bm_seed(5016, "loop_matmul");
  const uint32_t features = by_hal_reg_read(BY_REG_HW_FEATURES);
  BM_CHECK(BY_REG_FIELD(HW_FEATURES, LOOP_WS, features) == BY_HAS_LOOP_WS,
           "HW_FEATURES.LOOP_WS is %u, the config says %d",
           (unsigned)BY_REG_FIELD(HW_FEATURES, LOOP_WS, features), BY_HAS_LOOP_WS);
  if (!BY_HAS_LOOP_WS) {
    printf("loop_matmul: no LOOP_WS on this config, skipped\n");
    return bm_finish("loop_matmul");
  }
  by_error_clear();
  const loop_case_t cases[] = {
      {"loop_small", 13, 9, 21, 0, 1.0f, 0, 0, 0, 0, 0, 0},
      {"loop_bias_acc", 17, 23, 30, 1, 0.0625f, 0, 0, 0, 0, 0, 0},
      {"loop_bias_repeat_relu", 20, 11, 7, 2, 0.5f, 1, 0, 0, 0, 0, 0},
      {"loop_full", 9, 14, 33, 1, 1.0f, 0, 1, 0, 0, 0, 0},
      {"loop_tiles_111", 30, 27, 25, 1, 0.125f, 1, 0, 1, 1, 1, 0},
      {"loop_tiles_212", 30, 27, 45, 2, 0.25f, 0, 0, 2, 1, 2, 0},
      /* one K tile, four row tiles of 1 block under two column tiles (the last partial): B moves
       * fewer blocks kept, each column's B in the scratchpad half of its parity over the rows */
      {"loop_keeps_b", 4 * BY_DIM - 3, 2 * BY_DIM - 1, 13, 1, 0.25f, 1, 0, 1, 1, K_TILE,
       BY_MATMUL_KEEP_B},
      /* one K tile, row tiles of 2 blocks (the last partial) over three column tiles of 1: A moves
       * fewer blocks kept, each row's A at the start of the half of its parity */
      {"loop_keeps_a", 2 * BY_DIM + 1, 3 * BY_DIM - 1, 13, 2, 0.5f, 1, 0, 2, 1, K_TILE,
       BY_MATMUL_KEEP_A},
      {"loop_large", 45, 38, MAX_K, 1, 0.03125f, 0, 0, 0, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run(&cases[i]);
  bm_expect_no_hw_error("loop_matmul");
  direct();
  return bm_finish("loop_matmul");
}
