/* TensorDash through the driver (docs/tensordash.md, docs/driver.md "TensorDash"): by_matmul in
 * the OS dataflow with A sparse and B dense, then B sparse and A dense, at three sparsities,
 * each with A scheduled, B scheduled and TensorDash off; every result raw (c_full) against
 * bm_ref.h. On the SoC (BY_HAL_TIMED) also the performance counters of each run:
 *  - off: no MAC skipped, every compute beat a dense one (MACS = COMPUTE_BEATS x DIM^2 x lanes);
 *  - on: MACS + MACS_SKIPPED equals the dense run's MACS (the same reduction steps), and with one
 *    PE row per scheduler MACS counts exactly the scheduled operand's non-zeros, once per PE
 *    column of every block pass (computed here from the data);
 *  - on a 90%-sparse scheduled operand, fewer compute beats than off.
 * Without TensorDash hardware the program checks that B scheduling is refused and that the
 * other modes give the same results. */
#include "bm_ref.h"
#include "bm_test.h"

#define NI 16 /* C is NI x NJ, A NI x NK */
#define NJ 8
#define NK 160

static by_elem_t A[NI * NK], B[NK * NJ];
static by_acc_t C[NI * NJ];
static int64_t want[NI * NJ];
static by_elem_t workspace[NK * NJ * BY_LANES + BY_LANES * NJ * BY_LANES];

typedef struct {
  uint64_t macs, skipped, beats, cycles;
} counts_t;

/* Zeros with probability `zeros` (in 1/1000), else a non-zero element. */
static by_elem_t sparse_elem(unsigned zeros) {
  if (bm_rand() % 1000 < zeros)
    return 0;
  by_elem_t v = (by_elem_t)(bm_rand() % 255 - 127);
  return v ? v : 1;
}

static size_t nonzeros(const by_elem_t* x, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; ++i)
    c += x[i] != 0;
  return c;
}

static counts_t run(const char* name, int mode) {
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = NI, m.J = NJ, m.K = NK;
  m.A = A, m.lda = NK, m.B = B, m.ldb = NJ, m.C = C, m.ldc = NJ, m.c_full = 1;
  m.dataflow = BY_DATAFLOW_OS;
  m.tensordash = mode;
  m.workspace = workspace, m.workspace_bytes = sizeof workspace;
  for (size_t i = 0; i < NI * NJ; ++i)
    C[i] = 0x5a5a5a5a;
  by_matmul_plan_t plan;
  BM_OK(by_matmul_plan(&m, &plan));
  ref_matmul(NI, NJ, NK, A, NK, 0, B, NJ, 0, 0, 0, 0, plan.k_chunk, want);
  by_fence();
  by_perf_reset();
  const uint64_t t0 = by_cycles();
  BM_OK(by_matmul(&m));
  counts_t c = {by_perf_read(BY_REG_MACS_LO), by_perf_read(BY_REG_MACS_SKIPPED_LO),
                by_perf_read(BY_REG_COMPUTE_BEATS_LO), by_cycles() - t0};
  size_t bad = 0;
  for (size_t i = 0; i < NI * NJ; ++i)
    if (C[i] != (by_acc_t)want[i] && bad++ < 4)
      printf("  %s: C[%lu] = %ld, want %ld\n", name, (unsigned long)i, (long)C[i], (long)want[i]);
  BM_CHECK(bad == 0, "%s: %lu elements wrong", name, (unsigned long)bad);
  printf("%s: %llu cycles, %llu compute beats, %llu MACs issued, %llu skipped\n", name,
         (unsigned long long)c.cycles, (unsigned long long)c.beats, (unsigned long long)c.macs,
         (unsigned long long)c.skipped);
  return c;
}

/* The counters of one data set: off, A scheduled and B scheduled (SoC, TensorDash only). */
static void check_counts(const counts_t* off, const counts_t* on_a, const counts_t* on_b,
                         int sparse_b, unsigned zeros) {
#if BY_HAL_TIMED && BY_TENSORDASH
  const uint64_t dense = (uint64_t)BY_DIM * BY_DIM * BY_LANES;
  BM_CHECK(off->skipped == 0 && off->macs == off->beats * dense,
           "off: %llu skipped, %llu MACs for %llu beats", (unsigned long long)off->skipped,
           (unsigned long long)off->macs, (unsigned long long)off->beats);
  BM_CHECK(on_a->macs + on_a->skipped == off->macs && on_b->macs + on_b->skipped == off->macs,
           "issued + skipped (%llu + %llu, %llu + %llu) is not the dense work %llu",
           (unsigned long long)on_a->macs, (unsigned long long)on_a->skipped,
           (unsigned long long)on_b->macs, (unsigned long long)on_b->skipped,
           (unsigned long long)off->macs);
#if BY_TD_ROWS_PER_SCHEDULER == 1
  /* Each block pass issues every non-zero of its scheduled block once per PE column. */
  const uint64_t a_issued = (uint64_t)((NJ + BY_DIM - 1) / BY_DIM) * nonzeros(A, NI * NK) * BY_DIM;
  const uint64_t b_issued = (uint64_t)((NI + BY_DIM - 1) / BY_DIM) * nonzeros(B, NK * NJ) * BY_DIM;
  BM_CHECK(on_a->macs == a_issued, "A scheduled: %llu MACs issued, want %llu",
           (unsigned long long)on_a->macs, (unsigned long long)a_issued);
  BM_CHECK(!BY_TENSORDASH_SCHEDULE_B || on_b->macs == b_issued,
           "B scheduled: %llu MACs issued, want %llu", (unsigned long long)on_b->macs,
           (unsigned long long)b_issued);
#endif
  const counts_t* sched = sparse_b ? on_b : on_a;
  /* (without B scheduling, on_b is the dense run) */
  if (zeros >= 900 && (!sparse_b || BY_TENSORDASH_SCHEDULE_B))
    BM_CHECK(sched->beats < off->beats, "%u%% zeros scheduled: %llu beats, off %llu", zeros / 10,
             (unsigned long long)sched->beats, (unsigned long long)off->beats);
#else
  (void)off, (void)on_a, (void)on_b, (void)sparse_b, (void)zeros, (void)nonzeros;
#endif
}

int main(void) {
  bm_seed(71, "td_matmul data");
  static const unsigned sparsity[] = {0, 500, 900};
  for (int sparse_b = 0; sparse_b < 2; ++sparse_b)
    for (int s = 0; s < 3; ++s) {
      const unsigned zeros = sparsity[s];
      for (size_t i = 0; i < NI * NK; ++i)
        A[i] = sparse_elem(sparse_b ? 0 : zeros);
      for (size_t i = 0; i < NK * NJ; ++i)
        B[i] = sparse_elem(sparse_b ? zeros : 0);
      const char* which = sparse_b ? "B" : "A";
      char name[64];
      snprintf(name, sizeof name, "%s %u%% zeros, off", which, zeros / 10);
      const counts_t off = run(name, BY_TD_OFF);
      snprintf(name, sizeof name, "%s %u%% zeros, A scheduled", which, zeros / 10);
      const counts_t on_a = run(name, BY_TD_SCHEDULE_A);
      snprintf(name, sizeof name, "%s %u%% zeros, B scheduled", which, zeros / 10);
      counts_t on_b = off;
      if (BY_TENSORDASH_SCHEDULE_B) {
        on_b = run(name, BY_TD_SCHEDULE_B);
      } else { /* B scheduling needs the hardware (schedule_b): refused, nothing issued */
        by_matmul_t m;
        by_matmul_init(&m);
        m.I = NI, m.J = NJ, m.K = NK, m.A = A, m.lda = NK, m.B = B, m.ldb = NJ, m.C = C, m.ldc = NJ;
        m.tensordash = BY_TD_SCHEDULE_B;
        BM_CHECK(by_matmul(&m) == BY_ERR_UNSUPPORTED, "%s: not refused", name);
      }
      check_counts(&off, &on_a, &on_b, sparse_b, zeros);
    }
  bm_expect_no_hw_error("td_matmul");
  return bm_finish("td_matmul");
}
