/* mvin / mvout through the native command API: plain, zero fill (DRAM address 0), DRAM
 * strides, stride 0 (row repeat), several column blocks with the default and a configured
 * block stride, partial rows, the accumulator (acc_t, shrink, accumulate) with scaled, ReLU
 * and full-width mvouts; all three mvin channels. Expected values are computed here. */
#include "bm_ref.h"
#include "bm_test.h"

#define D BY_DIM
#define W (3 * D) /* a DRAM matrix three blocks wide */
static by_elem_t src[D * W], out[D * W], want[D * W];
static by_acc_t asrc[D * D], asrc2[D * D], aout[D * D], awant[D * D];

static void clear_out(void) {
  for (size_t i = 0; i < sizeof out; ++i)
    out[i] = (by_elem_t)0x5a;
}

int main(void) {
  bm_seed(5004, "mvin_mvout");
  by_error_clear();
  bm_fill(src, D * W, BY_ELEM_MIN, BY_ELEM_MAX);
  by_config_st(D, BY_ACT_NONE, 1.0f, 0);

  /* Plain, on each channel: D x D block, DRAM rows W apart (a stride), out rows D apart. */
  for (int ch = 0; ch < 3; ++ch) {
    clear_out();
    by_config_ld(ch, W, 0, 0);
    by_mvin(ch, src + D, by_sp_addr(8 * D), D, D);
    by_mvout(out, by_sp_addr(8 * D), D, D);
    by_fence();
    for (int r = 0; r < D; ++r)
      for (int c = 0; c < D; ++c)
        want[r * D + c] = src[r * W + D + c];
    bm_compare(ch == 0 ? "plain_ch0" : ch == 1 ? "plain_ch1" : "plain_ch2", out, want, D * D);
  }

  /* Zero fill: DRAM address 0 writes zeros without reading DRAM. */
  clear_out();
  by_config_ld(0, W, 0, 0);
  by_mvin(0, 0, by_sp_addr(8 * D), D, D);
  by_mvout(out, by_sp_addr(8 * D), D, D);
  by_fence();
  for (int i = 0; i < D * D; ++i)
    want[i] = 0;
  bm_compare("zeros", out, want, D * D);

  /* Three column blocks with the default block stride (DIM), out with a wide stride. */
  clear_out();
  by_config_st(W, BY_ACT_NONE, 1.0f, 0);
  by_mvin(0, src, by_sp_addr(0), D, W);
  by_mvout(out, by_sp_addr(0), D, W);
  by_fence();
  bm_compare("blocks", out, src, D * W);

  /* A block stride of 2*DIM rows: block b of the mvin lands at row 2*D*b; moved out one block
   * at a time. Rows - 1 of a partial mvin keep what was there. */
  clear_out();
  by_config_ld(1, W, 0, 2 * D);
  by_mvin(1, src, by_sp_addr(16 * D), D, W);
  by_config_st(D, BY_ACT_NONE, 1.0f, 0);
  for (int b = 0; b < 3; ++b)
    by_mvout(out + b * D * D, by_sp_addr(16 * D + 2 * D * b), D, D);
  by_fence();
  for (int b = 0; b < 3; ++b)
    for (int r = 0; r < D; ++r)
      for (int c = 0; c < D; ++c)
        want[b * D * D + r * D + c] = src[r * W + b * D + c];
  bm_compare("block_stride", out, want, 3 * D * D);

  /* Stride 0 repeats one row; a partial-width mvin keeps the rest of each row. */
  clear_out();
  by_config_ld(2, 0, 0, 0);
  by_mvin(0, src, by_sp_addr(40), D, D); /* channel 0 still has stride W */
  by_mvin(2, src + 2 * D, by_sp_addr(40), D, D / 2 ? D / 2 : 1);
  by_mvout(out, by_sp_addr(40), D, D);
  by_fence();
  for (int r = 0; r < D; ++r)
    for (int c = 0; c < D; ++c)
      want[r * D + c] = c < (D / 2 ? D / 2 : 1) ? src[2 * D + c] : src[r * W + c];
  bm_compare("stride0_partial", out, want, D * D);

  /* Accumulator: acc_t rows, accumulate, shrink (elem_t sign-extended), then scaled + ReLU,
   * and full-width mvouts. */
  bm_fill_acc(asrc, D * D, -300000, 300000);
  bm_fill_acc(asrc2, D * D, -300000, 300000);
  by_config_ld(0, D * sizeof(by_acc_t), 0, 0);
  by_config_ld(1, W, 1, 0);
  by_mvin(0, asrc, by_acc_addr(D, 0, 0), D, D);
  by_mvin(0, asrc2, by_acc_addr(D, 1, 0), D, D);
  by_mvin(1, src, by_acc_addr(D, 1, 0), D, D);
  by_config_st(D * sizeof(by_acc_t), BY_ACT_NONE, 1.0f, 0);
  by_mvout(aout, by_acc_addr(D, 0, 1), D, D);
  by_config_st(D, BY_ACT_RELU, 0.01f, 0);
  clear_out();
  by_mvout(out, by_acc_addr(D, 0, 0), D, D);
  by_fence();
  for (int r = 0; r < D; ++r)
    for (int c = 0; c < D; ++c) {
      const int64_t v =
          ref_wrap((int64_t)asrc[r * D + c] + asrc2[r * D + c] + src[r * W + c], BY_ACC_WIDTH);
      awant[r * D + c] = (by_acc_t)v;
      want[r * D + c] = ref_out(v, 0.01f, 1);
    }
  bm_compare_acc("acc_full", aout, awant, D * D);
  bm_compare("acc_scaled_relu", out, want, D * D);

  bm_expect_no_hw_error("mvin_mvout");
  return bm_finish("mvin_mvout");
}
