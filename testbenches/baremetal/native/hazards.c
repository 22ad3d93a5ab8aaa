/* Read-after-write, write-after-read and write-after-write on local rows, issued without
 * fences (the reservation station must order them: docs/isa.md "Model"), and a DRAM
 * round trip with the fence docs/isa.md requires. Expected values are computed here. */
#include "bm_ref.h"
#include "bm_test.h"

#define D BY_DIM
static by_elem_t X[D * D], Y[D * D], Z[D * D], out[D * D], out2[D * D], want[D * D];
static by_elem_t bounce[D * D];

static int64_t dot(const by_elem_t* a, const by_elem_t* b, int i, int j) {
  int64_t s = 0;
  for (int k = 0; k < D; ++k)
    s += (int64_t)a[i * D + k] * b[k * D + j];
  return s;
}

int main(void) {
  bm_seed(5006, "hazards");
  by_error_clear();
  /* Small values: products chain through the scratchpad without saturating. */
  bm_fill(X, D * D, -3, 3);
  bm_fill(Y, D * D, -3, 3);
  bm_fill(Z, D * D, -3, 3);
  const int df = BY_HAS_WS ? BY_DATAFLOW_WS : BY_DATAFLOW_OS;
  by_config_ex(df, BY_ACT_NONE, 0, 1, 1);
  by_config_ld(0, D, 0, 0);
  by_config_st(D, BY_ACT_NONE, 1.0f, 0);

  /* RAW: P = X*Y written to scratchpad rows 3D.., then used at once as A of P*Z. WAR: the mvin
   * of Z over Y's rows must wait for the first compute to read Y. WAW: two mvins to one row
   * range, the mvout sees the second. */
  by_mvin(0, X, by_sp_addr(0), D, D);
  by_mvin(0, Y, by_sp_addr(D), D, D);
  if (df == BY_DATAFLOW_WS) {
    by_preload(by_sp_addr(D), D, D, by_sp_addr(3 * D), D, D);
    by_compute(1, by_sp_addr(0), D, D, BY_GARBAGE_ADDR, D, D);
  } else {
    by_preload(BY_GARBAGE_ADDR, D, D, by_sp_addr(3 * D), D, D);
    by_compute(1, by_sp_addr(0), D, D, by_sp_addr(D), D, D);
  }
  by_mvin(0, Z, by_sp_addr(D), D, D); /* WAR on Y's rows */
  if (df == BY_DATAFLOW_WS) {
    by_preload(by_sp_addr(D), D, D, by_sp_addr(4 * D), D, D);
    by_compute(1, by_sp_addr(3 * D), D, D, BY_GARBAGE_ADDR, D, D);
  } else {
    by_preload(BY_GARBAGE_ADDR, D, D, by_sp_addr(4 * D), D, D);
    by_compute(1, by_sp_addr(3 * D), D, D, by_sp_addr(D), D, D);
  }
  by_mvout(out, by_sp_addr(4 * D), D, D); /* RAW on the second result */
  by_mvin(0, X, by_sp_addr(5 * D), D, D);
  by_mvin(0, Z, by_sp_addr(5 * D), D, D); /* WAW */
  by_mvout(out2, by_sp_addr(5 * D), D, D);
  by_fence();

  by_elem_t P[D * D];
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j)
      P[i * D + j] = (by_elem_t)ref_sat(dot(X, Y, i, j), BY_INPUT_WIDTH);
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j)
      want[i * D + j] = (by_elem_t)ref_sat(dot(P, Z, i, j), BY_INPUT_WIDTH);
  bm_compare("raw_war_chain", out, want, D * D);
  bm_compare("waw", out2, Z, D * D);

  /* DRAM: mvout, fence, mvin of the same bytes, mvout elsewhere. */
  by_mvout(bounce, by_sp_addr(0), D, D);
  by_fence();
  by_mvin(0, bounce, by_sp_addr(6 * D), D, D);
  by_mvout(out, by_sp_addr(6 * D), D, D);
  by_fence();
  bm_compare("dram_round_trip", out, X, D * D);
  bm_expect_no_hw_error("hazards");
  return bm_finish("hazards");
}
