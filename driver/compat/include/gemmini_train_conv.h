/* Gemmini's training convolutions in tiled_conv_auto (included by gemmini_kernels.h): rotated
 * (wrot180) and transposed (trans_input_3120, trans_weight_1203, trans_weight_0132,
 * trans_output_1203) operands, input and kernel dilation, negative padding. Backprop runs on
 * them: the input gradient is a convolution of the output gradient with the rotated, channel-
 * swapped weights (wrot180 + trans_weight_1203 or _0132; input dilation for a strided layer),
 * the weight gradient one of the transposed input with the output gradient as its kernel
 * (trans_input_3120 + trans_output_1203, kernel dilation for a strided layer).
 *
 * Brickyard's conv kernel (by_conv) takes plain operands with a dilated kernel, so the others are
 * brought into that form in a malloc'd copy on the host: the weights rotated and reordered to
 * [kr][kc][ich][och]; the input reordered to NHWC, spread out by the input dilation and padded
 * (a negative padding crops it). The accelerator then runs an ordinary convolution with the
 * kernel dilation (the loops and the command path skip the taps between, docs/isa.md "Training
 * convolutions in the loop"); the zeros the input dilation inserts add nothing to any sum, so the
 * result is bit for bit conv_cpu's. The copies cost host time proportional to the operands (not
 * to the MACs); a convolution whose only training form is a kernel dilation needs none. */
#ifndef BRICKYARD_GEMMINI_TRAIN_CONV_H
#define BRICKYARD_GEMMINI_TRAIN_CONV_H

#include "gemmini.h"

typedef struct {
  int batch, in_rows, in_cols, in_ch, out_ch, kernel_dim, stride, input_dilation, kernel_dilation;
  int padding;
  bool wrot180, trans_input_3120, trans_weight_1203, trans_weight_0132;
} by_gemmini_train_conv_t;

static inline void* by_gemmini_train_alloc(size_t elems) {
  void* p = calloc(elems ? elems : 1, sizeof(elem_t));
  if (!p) {
    printf("tiled_conv_auto: no memory for the plain copy of a training convolution's operand\n");
    exit(1);
  }
  return p;
}

/* The weights as [kr][kc][ich][och], rotated by 180 degrees with wrot180. */
static inline elem_t* by_gemmini_train_weights(const by_gemmini_train_conv_t* t, const elem_t* w) {
  const size_t kd = (size_t)t->kernel_dim, ich = (size_t)t->in_ch, och = (size_t)t->out_ch;
  elem_t* out = (elem_t*)by_gemmini_train_alloc(kd * kd * ich * och);
  for (size_t kr = 0; kr < kd; ++kr)
    for (size_t kc = 0; kc < kd; ++kc) {
      const size_t wr = t->wrot180 ? kd - 1 - kr : kr, wc = t->wrot180 ? kd - 1 - kc : kc;
      elem_t* tap = out + (kr * kd + kc) * ich * och;
      for (size_t i = 0; i < ich; ++i)
        for (size_t o = 0; o < och; ++o) {
          size_t at;
          if (t->trans_weight_1203)
            at = ((i * kd + wr) * kd + wc) * och + o;
          else if (t->trans_weight_0132)
            at = ((wr * kd + wc) * och + o) * ich + i;
          else
            at = ((wr * kd + wc) * ich + i) * och + o;
          tap[i * och + o] = w[at];
        }
    }
  return out;
}

/* Rows (or columns) of the plain input for `out` output rows, the padding included (the plain
 * convolution has none). As on Gemmini the caller's output size rules: conv_cpu reads zeros
 * past the input's edges, so the copy is sized for the output, whatever the input's extent. */
static inline int by_gemmini_train_extent(const by_gemmini_train_conv_t* t, int out) {
  return (out - 1) * t->stride + (t->kernel_dim - 1) * t->kernel_dilation + 1;
}

/* The input as NHWC, rows x cols: the dilated image (zeros between the real pixels) shifted by
 * the padding (a negative one crops it), zeros around it. */
static inline elem_t* by_gemmini_train_input(const by_gemmini_train_conv_t* t, const elem_t* in,
                                             int rows, int cols) {
  const int dl = t->input_dilation;
  const size_t ch = (size_t)t->in_ch;
  elem_t* out =
      (elem_t*)by_gemmini_train_alloc((size_t)t->batch * (size_t)rows * (size_t)cols * ch);
  for (int b = 0; b < t->batch; ++b)
    for (int r = 0; r < t->in_rows; ++r)
      for (int c = 0; c < t->in_cols; ++c) {
        const int y = r * dl + t->padding, x = c * dl + t->padding;
        if (y < 0 || y >= rows || x < 0 || x >= cols)
          continue;
        elem_t* px = out + (((size_t)b * (size_t)rows + (size_t)y) * (size_t)cols + (size_t)x) * ch;
        const size_t pix = (size_t)r * (size_t)t->in_cols + (size_t)c;
        for (size_t i = 0; i < ch; ++i)
          px[i] = t->trans_input_3120
                      ? in[(i * (size_t)t->in_rows * (size_t)t->in_cols + pix) * (size_t)t->batch +
                           (size_t)b]
                      : in[((size_t)b * (size_t)t->in_rows * (size_t)t->in_cols + pix) * ch + i];
      }
  return out;
}

/* NHWC output -> HWNC (trans_output_1203). */
static inline void by_gemmini_train_output(const elem_t* nhwc, elem_t* hwnc, int batch, int rows,
                                           int cols, int ch) {
  for (int b = 0; b < batch; ++b)
    for (size_t p = 0; p < (size_t)rows * (size_t)cols; ++p)
      for (int o = 0; o < ch; ++o)
        hwnc[(p * (size_t)batch + (size_t)b) * (size_t)ch + (size_t)o] =
            nhwc[((size_t)b * (size_t)rows * (size_t)cols + p) * (size_t)ch + (size_t)o];
}

#endif /* BRICKYARD_GEMMINI_TRAIN_CONV_H */
