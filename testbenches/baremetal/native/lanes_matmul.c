/* by_matmul with lane-packed B (vector PEs, docs/isa.md "Vector PEs"; docs/driver.md): by_pack_b
 * against the packing formula (zero lanes, short K, transposed source, row padding left alone);
 * C = A x B from a B packed once (b_packed) and from a plain B the driver packs into the
 * workspace (also stored transposed, with A transposed), in WS and OS, with partial blocks in
 * I, J and K, K not a multiple of the lanes, several C and K tiles, bias, scale, ReLU, full
 * output and OS saturation; against bm_ref.h with the reduction chunk docs/isa.md gives (one
 * pass of DIM x lanes in WS, the K tile in OS) and the CPU fallback from a packed B. Refusals
 * issue nothing. With one lane the packed matrix is B itself and every case still runs. */
#include "bm_ref.h"
#include "bm_test.h"

#define L BY_LANES
#define KB (BY_DIM * BY_LANES) /* reduction elements of one array pass */
#define MAX_I 40
#define MAX_J 30
#define MAX_K 650
#define PACKED_ROWS ((MAX_K + L - 1) / L)
#define PAD 3 /* extra elements per packed row (ldp > J*L) */

static by_elem_t A[MAX_I * MAX_K], B[MAX_K * MAX_J], Bt[MAX_J * MAX_K];
static by_elem_t Bp[PACKED_ROWS * (MAX_J * L + PAD)];
static by_elem_t C[MAX_I * MAX_J], want[MAX_I * MAX_J];
static by_acc_t Cacc[MAX_I * MAX_J], want_acc[MAX_I * MAX_J], D[MAX_I * MAX_J];
static int64_t Dref[MAX_I * MAX_J], ref[MAX_I * MAX_J];
static by_elem_t workspace[MAX_I * MAX_K + PACKED_ROWS * MAX_J * L];

/* Packs B (K x J, ld J) into Bp with ldp = J*L + PAD and checks every element against the
 * formula of docs/isa.md, the padding untouched. */
static void pack_and_check(const char* name, size_t K, size_t J, int from_transposed) {
  const size_t ldp = J * L + PAD, rows = (K + L - 1) / L;
  for (size_t i = 0; i < rows * ldp; ++i)
    Bp[i] = 0x5a;
  BM_CHECK(by_packed_b_rows(K) == rows && by_packed_b_cols(J) == J * L, "%s: packed sizes", name);
  if (from_transposed)
    BM_OK(by_pack_b(K, J, Bt, K, 1, Bp, ldp));
  else
    BM_OK(by_pack_b(K, J, B, J, 0, Bp, ldp));
  size_t bad = 0;
  for (size_t t = 0; t < rows; ++t)
    for (size_t e = 0; e < ldp; ++e) {
      const size_t j = e / L, l = e % L, k = t * L + l;
      const by_elem_t expect = e >= J * L ? 0x5a : (k < K ? B[k * J + j] : 0);
      if (Bp[t * ldp + e] != expect && bad++ < 5)
        printf("  %s: packed[%lu][%lu] = %d, want %d\n", name, (unsigned long)t, (unsigned long)e,
               Bp[t * ldp + e], expect);
    }
  BM_CHECK(bad == 0, "%s: %lu packed elements wrong", name, (unsigned long)bad);
}

typedef struct {
  const char* name;
  size_t I, J, K;
  int dataflow;
  int b_mode; /* 0: b_packed (by_pack_b), 1: plain B packed by by_matmul, 2: B stored transposed */
  int at;     /* A stored transposed */
  int bias, relu, full;
  float scale;
  size_t ti, tj, tk;
  int extreme; /* all operands 127: OS chunks saturate */
  int on_cpu;
} case_t;

static void run(const case_t* c) {
  static by_elem_t At[MAX_K * MAX_I];
  if (c->extreme) {
    for (size_t i = 0; i < c->I * c->K; ++i)
      A[i] = BY_ELEM_MAX;
    for (size_t i = 0; i < c->K * c->J; ++i)
      B[i] = BY_ELEM_MAX;
  } else {
    bm_fill(A, c->I * c->K, BY_ELEM_MIN, BY_ELEM_MAX);
    bm_fill(B, c->K * c->J, BY_ELEM_MIN, BY_ELEM_MAX);
  }
  for (size_t k = 0; k < c->K; ++k)
    for (size_t j = 0; j < c->J; ++j)
      Bt[j * c->K + k] = B[k * c->J + j];
  for (size_t i = 0; i < c->I; ++i)
    for (size_t k = 0; k < c->K; ++k)
      At[k * c->I + i] = A[i * c->K + k];

  by_matmul_t m;
  by_matmul_init(&m);
  m.I = c->I;
  m.J = c->J;
  m.K = c->K;
  m.A = c->at ? At : A;
  m.lda = c->at ? c->I : c->K;
  m.a_transposed = c->at;
  if (c->b_mode == 0) {
    pack_and_check(c->name, c->K, c->J, 0);
    m.B = Bp;
    m.ldb = c->J * L + PAD;
    m.b_packed = 1;
  } else {
    m.B = c->b_mode == 2 ? Bt : B;
    m.ldb = c->b_mode == 2 ? c->K : c->J;
    m.b_transposed = c->b_mode == 2;
  }
  if (c->bias) {
    bm_fill_acc(D, c->I * c->J, -50000, 50000);
    for (size_t i = 0; i < c->I * c->J; ++i)
      Dref[i] = D[i];
    m.D = D;
    m.ldd = c->J;
  }
  m.C = c->full ? (void*)Cacc : (void*)C;
  m.ldc = c->J;
  m.c_full = c->full;
  m.activation = c->relu ? BY_ACT_RELU : BY_ACT_NONE;
  m.scale = c->scale;
  m.dataflow = c->dataflow;
  m.tile_i = c->ti;
  m.tile_j = c->tj;
  m.tile_k = c->tk;
  m.on_cpu = c->on_cpu;
  m.workspace = workspace;
  m.workspace_bytes = by_matmul_workspace_bytes(&m);
  BM_CHECK(m.workspace_bytes <= sizeof workspace, "%s: workspace of %lu bytes", c->name,
           (unsigned long)m.workspace_bytes);
  if (L != 1 && c->b_mode != 0)
    BM_CHECK(m.workspace_bytes >= by_packed_b_rows(c->K) * by_packed_b_cols(c->J),
             "%s: workspace without the packed B", c->name);

  by_matmul_plan_t plan;
  const by_status_t ps = by_matmul_plan(&m, &plan);
  if (ps == BY_ERR_UNSUPPORTED) { /* a dataflow the config lacks */
    BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "%s: missing dataflow accepted", c->name);
    printf("%s: dataflow not built, refused\n", c->name);
    return;
  }
  BM_OK(ps);
  /* The reduction chunk of docs/isa.md: one pass (DIM x lanes) in WS, the K tile in OS. */
  const size_t chunk = plan.dataflow == BY_DATAFLOW_WS ? KB : plan.tile_k * KB;
  BM_CHECK(plan.k_chunk == chunk, "%s: k_chunk %lu, want %lu", c->name, (unsigned long)plan.k_chunk,
           (unsigned long)chunk);
  if (c->ti)
    BM_CHECK(plan.tile_i == c->ti && plan.tile_j == c->tj && plan.tile_k == c->tk,
             "%s: forced tiles not taken", c->name);
  printf("%s: %lux%lux%lu %s tiles %lux%lux%lu (K blocks of %d)\n", c->name, (unsigned long)c->I,
         (unsigned long)c->J, (unsigned long)c->K, plan.dataflow == BY_DATAFLOW_WS ? "WS" : "OS",
         (unsigned long)plan.tile_i, (unsigned long)plan.tile_j, (unsigned long)plan.tile_k, KB);
  bm_fill_zero(C, sizeof C);
  bm_fill_zero(Cacc, sizeof Cacc);
  BM_OK(by_matmul(&m));
  ref_matmul(c->I, c->J, c->K, A, c->K, 0, B, c->J, 0, c->bias ? Dref : 0, c->J,
             plan.dataflow == BY_DATAFLOW_WS, chunk, ref);
  const size_t n = c->I * c->J;
  if (c->full) {
    for (size_t i = 0; i < n; ++i)
      want_acc[i] = (by_acc_t)ref[i];
    bm_compare_acc(c->name, Cacc, want_acc, n);
  } else {
    for (size_t i = 0; i < n; ++i)
      want[i] = ref_out(ref[i], c->scale, c->relu);
    bm_compare(c->name, C, want, n);
  }
}

int main(void) {
  bm_seed(7001, "lanes_matmul");
  by_error_clear();
  printf("DIM %d, lanes %d: K blocks of %d elements\n", BY_DIM, L, KB);

  /* The packing alone: K a multiple of the lanes or not, from B and from B stored transposed. */
  bm_fill(B, 13 * 7, BY_ELEM_MIN, BY_ELEM_MAX);
  for (size_t k = 0; k < 13; ++k)
    for (size_t j = 0; j < 7; ++j)
      Bt[j * 13 + k] = B[k * 7 + j];
  pack_and_check("pack_13x7", 13, 7, 0);
  pack_and_check("pack_13x7_transposed", 13, 7, 1);
  pack_and_check("pack_1x1", 1, 1, 0);
  bm_fill(B, 16 * 5, BY_ELEM_MIN, BY_ELEM_MAX);
  pack_and_check("pack_16x5", 16, 5, 0);

  /* Sizes: I and J not multiples of DIM, K neither of DIM x lanes nor of the lanes (37 = 2 x
   * 16 + 5 on lanes4), forced tiles for several C and K tiles (double buffering). */
  const case_t cases[] = {
      {"ws_packed", 13, 9, 37, BY_DATAFLOW_WS, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0},
      {"os_packed", 13, 9, 37, BY_DATAFLOW_OS, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0},
      {"ws_packed_k3", 6, 5, 3, BY_DATAFLOW_WS, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0},
      {"os_packed_k3", 6, 5, 3, BY_DATAFLOW_OS, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0},
      {"ws_packed_tiles_111", 19, 14, 45, BY_DATAFLOW_WS, 0, 0, 1, 1, 0, 0.125f, 1, 1, 1, 0, 0},
      {"os_packed_tiles_212", 19, 14, 45, BY_DATAFLOW_OS, 0, 0, 1, 0, 0, 0.125f, 2, 1, 2, 0, 0},
      {"ws_packs_b", 17, 11, 50, BY_DATAFLOW_WS, 1, 0, 1, 0, 0, 0.0625f, 0, 0, 0, 0, 0},
      {"os_packs_b_full", 17, 11, 50, BY_DATAFLOW_OS, 1, 0, 1, 0, 1, 1.0f, 0, 0, 0, 0, 0},
      {"ws_transposed", 10, 7, 29, BY_DATAFLOW_WS, 2, 1, 0, 0, 0, 0.25f, 0, 0, 0, 0, 0},
      {"os_transposed_tiles", 10, 7, 29, BY_DATAFLOW_OS, 2, 1, 0, 1, 0, 0.25f, 1, 1, 1, 0, 0},
      {"auto_packed_large", MAX_I, MAX_J, 200, BY_DATAFLOW_AUTO, 0, 0, 1, 0, 0, 0.015625f, 0, 0, 0,
       0, 0},
      /* 127 x 127 x 650 exceeds the 24-bit spatial output: OS saturates per K tile. */
      {"os_extreme", 4, 4, MAX_K, BY_DATAFLOW_OS, 0, 0, 0, 0, 1, 1.0f, 0, 0, 0, 1, 0},
      {"os_extreme_ktiles", 4, 4, MAX_K, BY_DATAFLOW_OS, 0, 0, 0, 0, 1, 1.0f, 1, 1, 8, 1, 0},
      {"ws_extreme", 4, 4, MAX_K, BY_DATAFLOW_WS, 0, 0, 0, 0, 1, 1.0f, 0, 0, 0, 1, 0},
      {"cpu_packed", 13, 9, 37, BY_DATAFLOW_OS, 0, 0, 1, 1, 0, 0.5f, 0, 0, 0, 0, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run(&cases[i]);

  /* Refusals: nothing is issued, so no hardware error either. */
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = m.J = m.K = 8;
  m.A = A;
  m.B = Bp;
  m.C = C;
  m.lda = m.ldc = 8;
  m.ldb = 8 * L;
  m.b_packed = 1;
  m.ldb = 8 * L - 1;
  BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "packed ldb < J x lanes accepted");
  m.b_packed = 0;
  m.ldb = 8;
  if (L != 1)
    BM_CHECK(by_matmul(&m) == BY_ERR_WORKSPACE, "packing without a workspace accepted");
  m.B = Bp;
  m.ldb = 8 * L;
  m.b_packed = 1;
  m.b_transposed = 1;
  if (L != 1) /* one lane: the flag changes nothing */
    BM_CHECK(by_matmul(&m) == BY_ERR_ARG, "b_packed with b_transposed accepted");
  m.b_packed = 0;
  m.b_transposed = 0;
  m.B = B;
  m.ldb = 8;
  m.workspace = workspace;
  m.workspace_bytes = by_matmul_workspace_bytes(&m) - (L != 1);
  if (L != 1)
    BM_CHECK(by_matmul(&m) == BY_ERR_WORKSPACE, "packing into a short workspace accepted");
  by_boveda_matrix_t bm = {8, 8, BY_DIM, 0, 0, 0};
  m.B_boveda = &bm;
  m.B = 0;
  if (L != 1)
    BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "compressed B on vector PEs accepted");
  BM_CHECK(by_pack_b(8, 8, B, 8, 0, Bp, 8 * L - 1) == BY_ERR_ARG, "short ldp accepted");
  BM_CHECK(by_pack_b(8, 8, B, 7, 0, Bp, 8 * L) == BY_ERR_ARG, "short ldb accepted");
  BM_CHECK(by_pack_b(8, 8, B, 7, 1, Bp, 8 * L) == BY_ERR_ARG, "short transposed ldb accepted");
  BM_CHECK(by_pack_b(0, 8, B, 8, 0, Bp, 8 * L) == BY_ERR_ARG, "K = 0 accepted");
  bm_expect_no_hw_error("lanes_matmul");
  return bm_finish("lanes_matmul");
}
