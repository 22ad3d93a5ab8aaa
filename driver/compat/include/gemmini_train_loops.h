/* Gemmini's training convolutions as LOOP_CONV_WS tiles (included by gemmini_sp_tiles.h):
 * tiled_conv_auto and tiled_conv run wrot180, the transposed layouts (trans_input_3120,
 * trans_weight_1203, trans_weight_0132, trans_output_1203), input and kernel dilation and a
 * negative padding in the loop itself (docs/isa.md, "Training convolutions in the loop") where
 * the hardware has those forms, one sp_tiled_conv per tile, as Gemmini's tiled_conv does: no
 * copies on the host. Elsewhere (no loop, vector PEs, TensorDash for the forms that need the
 * transposer, pooling) gemmini_train_conv.h's plain copies run them.
 *
 * Tiles follow Brickyard's loop layout (loop_conv.cpp): A is batches x irows x icols rows per
 * channel block (trans_input_3120: per block of DIM images, each channel), B krows x kcols x
 * channel blocks x out-channel blocks x DIM rows, together in a scratchpad half; C out-channel
 * blocks x batches x orows x ocols rows in an accumulator half. The tiler starts from the whole
 * convolution and halves the output rows, then the output channels, the input channels, the
 * images, the output columns and the kernel until a tile fits. */
#ifndef BRICKYARD_GEMMINI_TRAIN_LOOPS_H
#define BRICKYARD_GEMMINI_TRAIN_LOOPS_H

#include "gemmini_sp_tiles.h"

typedef struct {
  int batches, porows, pocols, pochs, krows, kcols, kchs;
} by_gemmini_conv_tile_t;

/* Whether LOOP_CONV_WS on this hardware runs these forms (unpooled). One lane only: on vector
 * PEs the loop reads lane-packed weights, which Gemmini's layouts are not (by_conv packs them). */
static inline bool by_gemmini_train_loop_ok(const by_gemmini_train_conv_t* t) {
  return BY_HAS_LOOP_CONV_WS && BY_LANES == 1 && t->input_dilation <= 2 &&
         !((t->trans_weight_0132 || t->trans_input_3120) && BY_TENSORDASH) &&
         !(t->trans_weight_0132 && t->trans_input_3120);
}

/* Whether tile `s` fits the loop's halves. */
static inline bool by_gemmini_train_tile_fits(const by_gemmini_train_conv_t* t,
                                              const by_gemmini_conv_tile_t* s) {
  const long kblock = (long)DIM * BY_LANES;
  const long irows =
      (long)(s->porows - 1) * t->stride + (long)(s->krows - 1) * t->kernel_dilation + 1;
  const long icols =
      (long)(s->pocols - 1) * t->stride + (long)(s->kcols - 1) * t->kernel_dilation + 1;
  const long kch_blocks = (s->kchs + kblock - 1) / kblock, och_blocks = (s->pochs + DIM - 1) / DIM;
  const long a = t->trans_input_3120
                     ? (long)((s->batches + DIM - 1) / DIM) * irows * s->kchs * icols
                     : (long)s->batches * irows * kch_blocks * icols;
  const long b = (long)s->krows * s->kcols * kch_blocks * och_blocks * DIM;
  const long c = och_blocks * s->batches * s->porows * s->pocols;
  return a + b <= (long)BANK_NUM * BANK_ROWS / 2 && c <= (long)ACC_ROWS / 2;
}

/* The largest tile that fits (false: none does, not even one pixel of one kernel tap). */
static inline bool by_gemmini_train_tile(const by_gemmini_train_conv_t* t, int out_rows,
                                         int out_cols, by_gemmini_conv_tile_t* s) {
  const int min_images = t->trans_input_3120 ? DIM : 1;
  *s = (by_gemmini_conv_tile_t){t->batch,      out_rows,      out_cols, t->out_ch,
                                t->kernel_dim, t->kernel_dim, t->in_ch};
  while (!by_gemmini_train_tile_fits(t, s)) {
    if (s->porows > 1)
      s->porows = (s->porows + 1) / 2;
    else if (s->pochs > DIM)
      s->pochs = (s->pochs / 2 + DIM - 1) / DIM * DIM;
    else if (s->kchs > DIM)
      s->kchs = (s->kchs / 2 + DIM - 1) / DIM * DIM;
    else if (s->batches > min_images)
      s->batches = (s->batches / 2 + min_images - 1) / min_images * min_images;
    else if (s->pocols > 1)
      s->pocols = (s->pocols + 1) / 2;
    else if (s->krows > 1)
      s->krows = (s->krows + 1) / 2;
    else if (s->kcols > 1)
      s->kcols = (s->kcols + 1) / 2;
    else
      return false;
  }
  return true;
}

/* The window of `n` outputs from output `o` over kernel taps [k, k + nk) along one axis, in the
 * (dilated) input's coordinates: its first position, and the padding before and after the
 * image. With input dilation 2 a window starting on a zero between two pixels counts that zero
 * as padding (the loop's real positions are those an even number past the padding). */
static inline int by_gemmini_train_window(const by_gemmini_train_conv_t* t, int o, int n, int k,
                                          int nk, int image, int* pad_before, int* pad_after) {
  const int first = o * t->stride + k * t->kernel_dilation - t->padding;
  const int extent = (n - 1) * t->stride + (nk - 1) * t->kernel_dilation + 1;
  const int dilated = (image - 1) * t->input_dilation + 1;
  *pad_before = first < 0 ? -first : 0;
  if (t->input_dilation == 2 && *pad_before == 0 && first % 2 != 0)
    *pad_before = 1;
  if (*pad_before > extent) /* a kernel tile wholly in the padding */
    *pad_before = extent;
  *pad_after = first + extent > dilated ? first + extent - dilated : 0;
  if (*pad_before + *pad_after > extent)
    *pad_after = extent - *pad_before;
  return first;
}

/* The convolution as loops over tiles `s` (Gemmini's argument names and layouts; unpooled). */
static inline void by_gemmini_train_in_loops(const by_gemmini_train_conv_t* t,
                                             const by_gemmini_conv_tile_t* s, int out_rows,
                                             int out_cols, bool trans_output_1203,
                                             const elem_t* input, const elem_t* weights,
                                             const acc_t* bias, elem_t* output, int act,
                                             acc_scale_t scale) {
  const int K = t->kernel_dim, I = t->in_ch, O = t->out_ch, H = t->in_rows, W = t->in_cols;
  for (int b = 0; b < t->batch; b += s->batches)
    for (int r = 0; r < out_rows; r += s->porows)
      for (int c = 0; c < out_cols; c += s->pocols)
        for (int o = 0; o < O; o += s->pochs)
          for (int kr = 0; kr < K; kr += s->krows)
            for (int kc = 0; kc < K; kc += s->kcols)
              for (int i = 0; i < I; i += s->kchs) {
                const int nb = t->batch - b < s->batches ? t->batch - b : s->batches;
                const int nr = out_rows - r < s->porows ? out_rows - r : s->porows;
                const int nc = out_cols - c < s->pocols ? out_cols - c : s->pocols;
                const int no = O - o < s->pochs ? O - o : s->pochs;
                const int nkr = K - kr < s->krows ? K - kr : s->krows;
                const int nkc = K - kc < s->kcols ? K - kc : s->kcols;
                const int ni = I - i < s->kchs ? I - i : s->kchs;
                int upad, dpad, lpad, rpad;
                const int y0 = by_gemmini_train_window(t, r, nr, kr, nkr, H, &upad, &dpad);
                const int x0 = by_gemmini_train_window(t, c, nc, kc, nkc, W, &lpad, &rpad);
                /* The first real pixel of the window, in the image. */
                const size_t y = (size_t)((y0 + upad) / t->input_dilation);
                const size_t x = (size_t)((x0 + lpad) / t->input_dilation);
                const elem_t* in =
                    t->trans_input_3120
                        ? input + (((size_t)i * H + y) * W + x) * (size_t)t->batch + (size_t)b
                        : input + (((size_t)b * H + y) * W + x) * (size_t)I + (size_t)i;
                /* wrot180: the tile's taps of the rotated kernel (the loop rotates within). */
                const size_t wr = (size_t)(t->wrot180 ? K - kr - nkr : kr);
                const size_t wc = (size_t)(t->wrot180 ? K - kc - nkc : kc);
                const elem_t* w =
                    t->trans_weight_1203
                        ? weights + (((size_t)i * K + wr) * K + wc) * (size_t)O + (size_t)o
                    : t->trans_weight_0132
                        ? weights + ((wr * K + wc) * (size_t)O + (size_t)o) * (size_t)I + (size_t)i
                        : weights + ((wr * K + wc) * (size_t)I + (size_t)i) * (size_t)O + (size_t)o;
                const bool first = kr == 0 && kc == 0 && i == 0;
                const bool last = kr + nkr >= K && kc + nkc >= K && i + ni >= I;
                elem_t* out =
                    !last ? NULL
                    : trans_output_1203
                        ? output + (((size_t)r * out_cols + c) * (size_t)t->batch + b) * O + o
                        : output + (((size_t)b * out_rows + r) * out_cols + c) * O + o;
                /* The first input tile starts from the bias (or, without one, zeros: a
                 * non-NULL bias with no_bias, as Gemmini's tiler passes); the others add onto
                 * the accumulator. */
                const acc_t* d = !first ? NULL : bias ? bias + o : (const acc_t*)weights;
                sp_tiled_conv(t->batch, H, W, I, O, out_rows, out_cols, out_rows, out_cols,
                              t->stride, t->padding, K, t->kernel_dilation, I, O, O, 1, 1, 0, nb,
                              nr, nc, no, nkr, nkc, ni, lpad, rpad, upad, dpad, 0, 0, 0, 0, in, w,
                              out, d, act, scale, t->wrot180, trans_output_1203,
                              t->trans_input_3120, t->trans_weight_1203, t->trans_weight_0132,
                              first && !bias, true, false, t->input_dilation == 2, false, 0, 0);
              }
  gemmini_fence();
}

/* tiled_conv_auto's training convolution in the loop (WS, unpooled), or false where the
 * hardware lacks a form or no tile fits (the caller then copies the operands into plain form). */
static inline bool by_gemmini_train_conv_in_loops(const by_gemmini_train_conv_t* t, int out_rows,
                                                  int out_cols, bool trans_output_1203, bool pooled,
                                                  enum tiled_matmul_type_t type,
                                                  const elem_t* input, const elem_t* weights,
                                                  const acc_t* bias, elem_t* output, int act,
                                                  acc_scale_t scale) {
  by_gemmini_conv_tile_t s;
  if (type != WS || pooled || !by_gemmini_train_loop_ok(t) ||
      !by_gemmini_train_tile(t, out_rows, out_cols, &s))
    return false;
  by_gemmini_train_in_loops(t, &s, out_rows, out_cols, trans_output_1203, input, weights, bias,
                            output, act, scale);
  return true;
}

#endif /* BRICKYARD_GEMMINI_TRAIN_LOOPS_H */
