/* The driver's matmul at equal peak MACs (docs/BENCHMARKS.md "Vector PEs at equal peak MACs"):
 * by_matmul of MM x MM x MM int8 on the SoC, in WS and OS, with B lane-packed once beforehand
 * (by_pack_b, b_packed: what a compiler would lay out; the identity with one lane), and in WS
 * also with by_matmul packing a plain B into the workspace on every call. Each result is
 * checked against the CPU fallback. Prints the tiling, the ideal cycles (MACs / peak MACs per
 * cycle) and, on the SoC (BY_HAL_TIMED), the measured cycles and utilization. Built for
 * configs/lanes4.yaml (4x4 PEs of 4 lanes) and testbenches/configs/dense8.yaml (8x8 PEs of one
 * lane), both 64 MACs/cycle. */
#include "bench_util.h"
#include "brickyard/brickyard.h"

#include <stdio.h>

#ifndef MM
#define MM 256
#endif
#define PACKED_ROWS ((MM + BY_LANES - 1) / BY_LANES)

static by_elem_t A[MM * MM], B[MM * MM], Bp[PACKED_ROWS * MM * BY_LANES];
static by_elem_t C[MM * MM], Cref[MM * MM];
static by_elem_t workspace[PACKED_ROWS * MM * BY_LANES];

/* One timed by_matmul; returns 1 if it succeeded and matches the reference. */
static int run(const char* name, int dataflow, int packed) {
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = m.J = m.K = MM;
  m.A = A;
  m.lda = MM;
  m.B = packed ? Bp : B;
  m.ldb = packed ? by_packed_b_cols(MM) : MM;
  m.b_packed = packed;
  m.C = C;
  m.ldc = MM;
  m.scale = 1.0f / 1024;
  m.dataflow = dataflow;
  m.workspace = workspace;
  m.workspace_bytes = sizeof workspace;
  by_matmul_plan_t plan;
  if (by_matmul_plan(&m, &plan) != BY_OK) {
    printf("%s: no plan\n", name);
    return 0;
  }
  for (size_t i = 0; i < MM * MM; ++i)
    C[i] = 0;
  const uint64_t t0 = by_cycles();
  const by_status_t s = by_matmul(&m);
  const uint64_t t1 = by_cycles();
  const uint64_t macs = (uint64_t)MM * MM * MM, ideal = macs / BY_PEAK_MACS_PER_CYCLE;
  printf("%s: %s, tiles %lux%lux%lu blocks (K blocks of %d), %llu MACs, ideal %llu cycles", name,
         plan.dataflow == BY_DATAFLOW_WS ? "WS" : "OS", (unsigned long)plan.tile_i,
         (unsigned long)plan.tile_j, (unsigned long)plan.tile_k, BY_DIM * BY_LANES,
         (unsigned long long)macs, (unsigned long long)ideal);
#if BY_HAL_TIMED
  printf(", measured %llu cycles, utilization %.1f%%", (unsigned long long)(t1 - t0),
         100.0 * (double)ideal / (double)(t1 - t0));
#else
  (void)t0;
  (void)t1;
#endif
  const int ok = s == BY_OK && bench_same(C, Cref, MM * MM);
  printf("%s\n", ok ? "" : " -- WRONG RESULT");
  return ok;
}

int main(void) {
  for (size_t i = 0; i < MM * MM; ++i) {
    A[i] = bench_next();
    B[i] = bench_next();
  }
  printf("config %s: %dx%d PEs, %d lane(s), %d MACs/cycle; matmul %dx%dx%d\n", BY_CONFIG_NAME,
         BY_DIM, BY_DIM, BY_LANES, BY_PEAK_MACS_PER_CYCLE, MM, MM, MM);
  /* The reference: |sum| <= MM * 128 * 128 stays inside the spatial output width, so WS and
   * OS give the same result. */
  by_matmul_t r;
  by_matmul_init(&r);
  r.I = r.J = r.K = MM;
  r.A = A;
  r.lda = MM;
  r.B = B;
  r.ldb = MM;
  r.C = Cref;
  r.ldc = MM;
  r.scale = 1.0f / 1024;
  r.workspace = workspace;
  r.workspace_bytes = sizeof workspace;
  r.on_cpu = 1;
  int ok = by_matmul(&r) == BY_OK;
  /* Packed once, as a compiler lays out weights (not timed). */
  ok &= by_pack_b(MM, MM, B, MM, 0, Bp, by_packed_b_cols(MM)) == BY_OK;
  if (BY_HAS_WS)
    ok &= run("WS, B packed once", BY_DATAFLOW_WS, 1);
  if (BY_HAS_OS)
    ok &= run("OS, B packed once", BY_DATAFLOW_OS, 1);
  if (BY_HAS_WS && BY_LANES != 1)
    ok &= run("WS, by_matmul packs B", BY_DATAFLOW_WS, 0);
  printf("results %s the CPU reference\n", ok ? "match" : "DO NOT match");
  return ok ? 0 : 1;
}
