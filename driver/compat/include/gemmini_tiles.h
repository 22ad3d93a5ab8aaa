/* Gemmini's explicitly tiled kernels, tile-level functions and CPU references (included by
 * gemmini_kernels.h), written from Gemmini's documented behaviour on Brickyard's driver:
 *  - the CPU references (conv_cpu, conv_cpu_without_pool, scale_and_sat) compute Brickyard's
 *    arithmetic (docs/arithmetic.md), which is Gemmini's wherever no partial sum overflows;
 *  - the tiled kernels with explicit tiles (tiled_matmul_outer, tiled_conv, tiled_conv_dw,
 *    tiled_resadd) run the driver's kernels with those tiles forced where they map onto the
 *    driver's (a tiling never changes a result; a tile the driver cannot hold is replaced by its
 *    own);
 *  - the tile-level functions (sp_tiled_*) issue that one tile's commands, taking the CONFIG
 *    state the caller set as Gemmini's tiled kernels do (see each).
 * What Brickyard lacks stops the program with a message (by_gemmini_unsupported). */
#ifndef BRICKYARD_GEMMINI_TILES_H
#define BRICKYARD_GEMMINI_TILES_H

#include "gemmini_kernels.h"

/* ---- Helpers: argument-count dispatch for the functions Gemmini has had in two forms ----- */
#define BY_GEMMINI_NARGS(...)                                                                      \
  BY_GEMMINI_NARGS_(__VA_ARGS__, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45,   \
                    44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,    \
                    25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, \
                    4, 3, 2, 1, ~)
#define BY_GEMMINI_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,   \
                          _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30,    \
                          _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44,    \
                          _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58,    \
                          _59, _60, N, ...)                                                        \
  N
#define BY_GEMMINI_CAT(a, b) BY_GEMMINI_CAT_(a, b)
#define BY_GEMMINI_CAT_(a, b) a##b

/* ---- Scratchpad / accumulator budgets of a tiling (as Gemmini's tilers compute them) ------ */
static inline size_t tiled_matmul_total_spad_rows(size_t I, size_t J, size_t K) {
  return (I * K + K * J) * DIM; /* A's I x K tiles and B's K x J tiles, DIM rows each */
}
static inline size_t tiled_matmul_total_acc_rows(size_t I, size_t J) {
  return I * J * DIM;
}
/* Rows a conv tile needs: the accumulator's (acc) or the scratchpad's (input + weights). */
static inline int tiled_conv_total_spad_rows(bool acc, int stride, int input_dilation,
                                             int kernel_dilation, bool downsample,
                                             bool trans_weight_0132, bool trans_input_3120,
                                             int batches, int porows, int pocols, int ochs,
                                             int krows, int kcols, int kchs, int pool_size,
                                             int pool_stride) {
  const int blocks_of = DIM; /* channels per scratchpad row */
  const int orows = porows * pool_stride + pool_size - 1;
  const int ocols = pocols * pool_stride + pool_size - 1;
  const int krows_span = (krows - 1) * kernel_dilation + 1;
  const int kcols_span = (kcols - 1) * kernel_dilation + 1;
  const int irows_dil = orows * stride + krows_span - 1;
  const int icols_dil = ocols * stride + kcols_span - 1;
  const int irows = (irows_dil + input_dilation - 1) / input_dilation;
  const int icols = (icols_dil + input_dilation - 1) / input_dilation;
  const int ich_blocks = (kchs + blocks_of - 1) / blocks_of;
  const int och_blocks = (ochs + blocks_of - 1) / blocks_of;
  const int batch_blocks = (batches + blocks_of - 1) / blocks_of;
  const int pixels = (irows >> downsample) * (icols >> downsample);
  const int in_rows =
      trans_input_3120 ? batch_blocks * kchs * pixels : ich_blocks * batches * pixels;
  const int w_rows =
      trans_weight_0132 ? ich_blocks * kcols * krows * ochs : och_blocks * kcols * krows * kchs;
  return acc ? och_blocks * batches * orows * ocols : in_rows + w_rows;
}

/* ---- CPU references --------------------------------------------------------------------- */

/* An accumulator value on its way out: scaled (ACC_SCALE), saturated to elem_t, then ReLU. */
static inline elem_t scale_and_sat(acc_t x, int act, acc_scale_t scale, acc_scale_t bert_scale) {
  (void)bert_scale; /* IGELU's: no such activation here */
  by_gemmini_check_act(act, "scale_and_sat");
  return by_cpu_output(x, scale, act);
}

typedef struct {
  int batch_size, in_row_dim, in_col_dim, in_channels, out_channels, out_row_dim, out_col_dim;
  int stride, input_dilation, kernel_dilation, padding, kernel_dim;
  int in_stride, weight_stride, out_stride;
  bool wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132;
  const elem_t* input;
  const elem_t* weights;
  const acc_t* bias;
} by_gemmini_conv_ref_t;

/* One output value before pooling, with Gemmini's layouts (NHWC input or CHWN with
 * trans_input_3120; HWIO weights, WIHO with trans_weight_1203, HWOI with trans_weight_0132;
 * wrot180 flips the kernel; dilations skip taps that fall between dilated input pixels). The
 * sums follow the accelerator's passes: one DIM block of input channels of one tap at a time,
 * wrapped at the spatial output width, added into acc_t (docs/arithmetic.md), exactly as
 * by_cpu_conv: for values that do not overflow, Gemmini's exact sum. */
static inline int64_t by_gemmini_conv_ref_sum(const by_gemmini_conv_ref_t* p, int b, int orow,
                                              int ocol, int och) {
  int64_t acc = p->bias ? p->bias[och] : 0;
  const int kd = p->kernel_dim;
  for (int kr = 0; kr < kd; ++kr) {
    const int r = orow * p->stride + kr * p->kernel_dilation - p->padding;
    if (r % p->input_dilation != 0)
      continue;
    const int irow = r / p->input_dilation;
    for (int kc = 0; kc < kd; ++kc) {
      const int q = ocol * p->stride + kc * p->kernel_dilation - p->padding;
      if (q % p->input_dilation != 0)
        continue;
      const int icol = q / p->input_dilation;
      const bool inside = irow >= 0 && irow < p->in_row_dim && icol >= 0 && icol < p->in_col_dim;
      const int wr = p->wrot180 ? kd - 1 - kr : kr;
      const int wc = p->wrot180 ? kd - 1 - kc : kc;
      for (int cb = 0; cb < p->in_channels; cb += DIM) {
        int64_t s = 0;
        for (int ich = cb; inside && ich < cb + DIM && ich < p->in_channels; ++ich) {
          const size_t pix = ((size_t)irow * (size_t)p->in_col_dim + (size_t)icol);
          const size_t in_at =
              p->trans_input_3120
                  ? ((size_t)ich * (size_t)p->in_row_dim * (size_t)p->in_col_dim + pix) *
                            (size_t)p->batch_size +
                        (size_t)b
                  : ((size_t)b * (size_t)p->in_row_dim * (size_t)p->in_col_dim + pix) *
                            (size_t)p->in_stride +
                        (size_t)ich;
          size_t w_at;
          if (p->trans_weight_1203)
            w_at = (((size_t)ich * (size_t)kd + (size_t)wr) * (size_t)kd + (size_t)wc) *
                       (size_t)p->out_channels +
                   (size_t)och;
          else if (p->trans_weight_0132)
            w_at =
                (((size_t)wr * (size_t)kd + (size_t)wc) * (size_t)p->out_channels + (size_t)och) *
                    (size_t)p->in_channels +
                (size_t)ich;
          else
            w_at = (((size_t)wr * (size_t)kd + (size_t)wc) * (size_t)p->in_channels + (size_t)ich) *
                       (size_t)p->weight_stride +
                   (size_t)och;
          s += (int64_t)p->input[in_at] * p->weights[w_at];
        }
        acc = by_wrap(acc + by_wrap(s, BY_SPATIAL_OUTPUT_WIDTH), BY_ACC_WIDTH);
      }
    }
  }
  return acc;
}

/* Where output pixel (b, r, c) of an rows x cols output goes (NHWC, or HWNC with
 * trans_output_1203). */
static inline size_t by_gemmini_conv_ref_out(const by_gemmini_conv_ref_t* p, int b, int r, int c,
                                             int och, int rows, int cols) {
  if (p->trans_output_1203)
    return (((size_t)r * (size_t)cols + (size_t)c) * (size_t)p->batch_size + (size_t)b) *
               (size_t)p->out_channels +
           (size_t)och;
  return (((size_t)b * (size_t)rows + (size_t)r) * (size_t)cols + (size_t)c) *
             (size_t)p->out_stride +
         (size_t)och;
}

/* conv_cpu with pixel strides; pool_stride 0: no pooling. Pooling takes the maximum over the
 * window of the activated outputs, positions in the pooling padding counting as 0. */
static inline void by_gemmini_conv_cpu(const by_gemmini_conv_ref_t* p, elem_t* output, int act,
                                       acc_scale_t scale, int pool_size, int pool_stride,
                                       int pool_padding) {
  by_gemmini_check_act(act, "conv_cpu");
  if (p->input_dilation < 1 || p->kernel_dilation < 1 || p->stride < 1) {
    printf("conv_cpu: stride and dilations must be at least 1\n");
    exit(1);
  }
  const bool pooling = pool_stride != 0;
  const int prows =
      pooling ? (p->out_row_dim + 2 * pool_padding - pool_size) / pool_stride + 1 : p->out_row_dim;
  const int pcols =
      pooling ? (p->out_col_dim + 2 * pool_padding - pool_size) / pool_stride + 1 : p->out_col_dim;
  for (int b = 0; b < p->batch_size; ++b)
    for (int pr = 0; pr < prows; ++pr)
      for (int pc = 0; pc < pcols; ++pc)
        for (int och = 0; och < p->out_channels; ++och) {
          elem_t v;
          if (!pooling) {
            v = by_cpu_output(by_gemmini_conv_ref_sum(p, b, pr, pc, och), scale, act);
          } else {
            v = elem_t_min;
            for (int wr = 0; wr < pool_size; ++wr)
              for (int wc = 0; wc < pool_size; ++wc) {
                const int r = pr * pool_stride + wr - pool_padding;
                const int c = pc * pool_stride + wc - pool_padding;
                const bool inside = r >= 0 && r < p->out_row_dim && c >= 0 && c < p->out_col_dim;
                const elem_t e =
                    inside ? by_cpu_output(by_gemmini_conv_ref_sum(p, b, r, c, och), scale, act)
                           : 0;
                v = e > v ? e : v;
              }
          }
          output[by_gemmini_conv_ref_out(p, b, pr, pc, och, prows, pcols)] = v;
        }
}

#define BY_GEMMINI_CONV_REF                                                                        \
  by_gemmini_conv_ref_t p = {batch_size,                                                           \
                             in_row_dim,                                                           \
                             in_col_dim,                                                           \
                             in_channels,                                                          \
                             out_channels,                                                         \
                             out_row_dim,                                                          \
                             out_col_dim,                                                          \
                             stride,                                                               \
                             input_dilation,                                                       \
                             kernel_dilation,                                                      \
                             padding,                                                              \
                             kernel_dim,                                                           \
                             in_stride,                                                            \
                             weight_stride,                                                        \
                             out_stride,                                                           \
                             wrot180,                                                              \
                             trans_output_1203,                                                    \
                             trans_input_3120,                                                     \
                             trans_weight_1203,                                                    \
                             trans_weight_0132,                                                    \
                             input,                                                                \
                             weights,                                                              \
                             bias}

/* Gemmini's current conv_cpu / conv_cpu_without_pool take the pixel strides in_stride,
 * weight_stride, out_stride after kernel_dim; its previous version (rectangular images, no
 * strides) does not: both forms are accepted, chosen by the argument count. */
static inline void by_gemmini_conv_cpu_without_pool_strided(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
    int out_row_dim, int out_col_dim, int stride, int input_dilation, int kernel_dilation,
    int padding, int kernel_dim, int in_stride, int weight_stride, int out_stride, bool wrot180,
    bool trans_output_1203, bool trans_input_3120, bool trans_weight_1203, bool trans_weight_0132,
    const elem_t* input, const elem_t* weights, const acc_t* bias, elem_t* output, int act,
    acc_scale_t scale) {
  BY_GEMMINI_CONV_REF;
  by_gemmini_conv_cpu(&p, output, act, scale, 0, 0, 0);
}
static inline void by_gemmini_conv_cpu_strided(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
    int out_row_dim, int out_col_dim, int stride, int input_dilation, int kernel_dilation,
    int padding, int kernel_dim, int in_stride, int weight_stride, int out_stride, bool wrot180,
    bool trans_output_1203, bool trans_input_3120, bool trans_weight_1203, bool trans_weight_0132,
    const elem_t* input, const elem_t* weights, const acc_t* bias, elem_t* output, int act,
    acc_scale_t scale, int pool_size, int pool_stride, int pool_padding) {
  BY_GEMMINI_CONV_REF;
  by_gemmini_conv_cpu(&p, output, act, scale, pool_size, pool_stride, pool_padding);
}
/* The previous form: dense pixels (strides = channel counts). */
#define BY_GEMMINI_CONV_CPU_WP_23(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd, rot, to,    \
                                  ti, tw1, tw2, in, w, bias, out, act, scale)                      \
  by_gemmini_conv_cpu_without_pool_strided(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd,    \
                                           ich, och, och, rot, to, ti, tw1, tw2, in, w, bias, out, \
                                           act, scale)
#define BY_GEMMINI_CONV_CPU_WP_26(...) by_gemmini_conv_cpu_without_pool_strided(__VA_ARGS__)
#define conv_cpu_without_pool(...)                                                                 \
  BY_GEMMINI_CAT(BY_GEMMINI_CONV_CPU_WP_, BY_GEMMINI_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define BY_GEMMINI_CONV_CPU_26(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd, rot, to, ti,   \
                               tw1, tw2, in, w, bias, out, act, scale, psz, pst, ppad)             \
  by_gemmini_conv_cpu_strided(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd, ich, och, och,  \
                              rot, to, ti, tw1, tw2, in, w, bias, out, act, scale, psz, pst, ppad)
#define BY_GEMMINI_CONV_CPU_29(...) by_gemmini_conv_cpu_strided(__VA_ARGS__)
#define conv_cpu(...)                                                                              \
  BY_GEMMINI_CAT(BY_GEMMINI_CONV_CPU_, BY_GEMMINI_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* Gemmini's current resadd_cpu (rows `stride` apart, 10 arguments) and its older dense form (9). */
#define BY_GEMMINI_RESADD_CPU_9(I, J, sa, sb, sc, A, B, C, relu)                                   \
  by_gemmini_resadd_cpu(I, J, J, sa, sb, sc, A, B, C, relu)
#define BY_GEMMINI_RESADD_CPU_10(...) by_gemmini_resadd_cpu(__VA_ARGS__)
#define resadd_cpu(...)                                                                            \
  BY_GEMMINI_CAT(BY_GEMMINI_RESADD_CPU_, BY_GEMMINI_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* ---- Tiled kernels with explicit tiles ------------------------------------------------ */

/* tiled_matmul with the tiles and the dataflow (WS / OS) given: by_matmul with them forced. */
static inline void
tiled_matmul_outer(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t* A, const elem_t* B,
                   const void* D, void* C, size_t stride_A, size_t stride_B, size_t stride_D,
                   size_t stride_C, scale_t A_scale_factor, scale_t B_scale_factor,
                   scale_acc_t D_scale_factor, size_t tile_I, size_t tile_J, size_t tile_K, int act,
                   acc_scale_t scale, acc_scale_t bert_scale, bool repeating_bias, bool a_transpose,
                   bool b_transpose, bool full_C, bool low_D, uint8_t weightA, int dataflow) {
  if (dataflow != WS && dataflow != OS) {
    printf("tiled_matmul_outer: dataflow %d is neither WS nor OS\n", dataflow);
    exit(1);
  }
  tiled_matmul(dim_I, dim_J, dim_K, A, B, D, C, stride_A, stride_B, stride_D, stride_C,
               A_scale_factor, B_scale_factor, D_scale_factor, act, scale, bert_scale,
               repeating_bias, tile_I, tile_J, tile_K, a_transpose, b_transpose, full_C, low_D,
               weightA, (enum tiled_matmul_type_t)dataflow);
}

/* tiled_conv: batches images, porows (pooled) output rows, pochs output channels and kchs input
 * channels per tile become the driver's tile_batch, tile_rows, tile_och (in DIM blocks) and
 * tile_k (input-channel blocks through LOOP_CONV_WS, (tap, channel block) pairs on the command
 * path); pocols, krows and kcols have no counterpart (the driver's tiles span the output
 * columns and, through the loop, every tap). A tiling the driver cannot hold is replaced by its
 * own. Pixel strides other than the channel counts run through tiled_conv_stride_auto. */
static inline void
by_gemmini_tiled_conv(int batch_size, int in_row_dim, int in_col_dim, int in_channels,
                      int out_channels, int out_row_dim, int out_col_dim, int stride,
                      int input_dilation, int kernel_dilation, int padding, int kernel_dim,
                      int in_stride, int weight_stride, int out_stride, bool wrot180,
                      bool trans_output_1203, bool trans_input_3120, bool trans_weight_1203,
                      bool trans_weight_0132, int batches, int porows, int pocols, int pochs,
                      int krows, int kcols, int kchs, const elem_t* input, const elem_t* weights,
                      const acc_t* bias, elem_t* output, int act, acc_scale_t scale, int pool_size,
                      int pool_stride, int pool_padding, enum tiled_matmul_type_t tiled_conv_type) {
  (void)pocols;
  if (tiled_conv_type == CPU) {
    if (pool_size == 1 && pool_stride == 1 && pool_padding == 0)
      pool_stride = 0;
    by_gemmini_conv_cpu_strided(batch_size, in_row_dim, in_col_dim, in_channels, out_channels,
                                out_row_dim, out_col_dim, stride, input_dilation, kernel_dilation,
                                padding, kernel_dim, in_stride, weight_stride, out_stride, wrot180,
                                trans_output_1203, trans_input_3120, trans_weight_1203,
                                trans_weight_0132, input, weights, bias, output, act, scale,
                                pool_size, pool_stride, pool_padding);
    return;
  }
  if (in_stride != in_channels || weight_stride != out_channels || out_stride != out_channels ||
      wrot180 || trans_output_1203 || trans_input_3120 || trans_weight_1203 || trans_weight_0132 ||
      input_dilation != 1 || kernel_dilation != 1 || padding < 0) {
    /* Pixel strides and training convolutions: copies in plain form first, tiled by the driver
     * (the tiles were chosen for the operands as given). */
    tiled_conv_stride_auto(batch_size, in_row_dim, in_col_dim, in_channels, out_channels,
                           out_row_dim, out_col_dim, stride, input_dilation, kernel_dilation,
                           padding, kernel_dim, in_stride, weight_stride, out_stride, wrot180,
                           trans_output_1203, trans_input_3120, trans_weight_1203,
                           trans_weight_0132, input, weights, bias, output, act, scale, pool_size,
                           pool_stride, pool_padding, tiled_conv_type);
    return;
  }
  by_gemmini_check_act(act, "tiled_conv");
  by_conv_t c;
  by_gemmini_conv_setup(&c, batch_size, in_row_dim, in_col_dim, in_channels, out_channels, stride,
                        padding, kernel_dim, input, weights, bias, output, act, scale, pool_size,
                        pool_stride, pool_padding);
  const size_t ich_blocks = ((size_t)kchs + DIM - 1) / DIM;
  c.tile_batch = (size_t)batches;
  c.tile_rows = (size_t)porows;
  c.tile_och = ((size_t)pochs + DIM - 1) / DIM;
  c.tile_k = ich_blocks;
  by_conv_plan_t plan;
  if (by_conv_plan(&c, &plan) == BY_OK && plan.path == BY_CONV_COMMANDS) {
    c.tile_k = ich_blocks * (size_t)krows * (size_t)kcols;
    if (by_conv_plan(&c, &plan) != BY_OK)
      c.tile_k = 0;
  }
  if (by_conv_plan(&c, &plan) != BY_OK)
    c.tile_batch = c.tile_rows = c.tile_och = c.tile_k = 0;
  by_gemmini_conv(&c, out_row_dim, out_col_dim, "tiled_conv");
}
/* Gemmini's current tiled_conv (pixel strides after kernel_dim, 37 arguments) and its previous
 * form (34 arguments, dense pixels). */
#define BY_GEMMINI_TILED_CONV_34(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd, rot, to, ti, \
                                 tw1, tw2, nb, por, poc, poch, kr, kc, kch, in, w, bias, out, act, \
                                 scale, psz, pst, ppad, type)                                      \
  by_gemmini_tiled_conv(bs, ir, ic, ich, och, orr, oc, s, idl, kdl, pad, kd, ich, och, och, rot,   \
                        to, ti, tw1, tw2, nb, por, poc, poch, kr, kc, kch, in, w, bias, out, act,  \
                        scale, psz, pst, ppad, type)
#define BY_GEMMINI_TILED_CONV_37(...) by_gemmini_tiled_conv(__VA_ARGS__)
#define tiled_conv(...)                                                                            \
  BY_GEMMINI_CAT(BY_GEMMINI_TILED_CONV_, BY_GEMMINI_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* Depthwise with explicit tiles: batches and porows map onto the driver's tiles (pocols, krows,
 * kcols have no counterpart). */
static inline void tiled_conv_dw(int batch_size, int in_row_dim, int in_col_dim, int channels,
                                 int out_row_dim, int out_col_dim, int stride, int padding,
                                 int kernel_dim, int batches, int porows, int pocols, int krows,
                                 int kcols, const elem_t* input, const elem_t* weights,
                                 const acc_t* bias, elem_t* output, int act, acc_scale_t scale,
                                 int pool_size, int pool_stride, int pool_padding,
                                 enum tiled_matmul_type_t tiled_conv_type) {
  (void)pocols, (void)krows, (void)kcols;
  by_gemmini_conv_dw(batch_size, in_row_dim, in_col_dim, channels, out_row_dim, out_col_dim, stride,
                     padding, kernel_dim, input, weights, bias, output, act, scale, pool_size,
                     pool_stride, pool_padding, tiled_conv_type, (size_t)batches, (size_t)porows,
                     "tiled_conv_dw");
}

/* The residual add with explicit tiles: the driver tiles it itself (the result does not
 * depend on the tiling). Gemmini's current form has A, B and C rows `stride` apart (13
 * arguments), its older one is dense (12). */
static inline void by_gemmini_tiled_resadd(const size_t I, const size_t J, const size_t stride,
                                           const size_t tile_I, const size_t tile_J,
                                           const scale_t A_scale, const scale_t B_scale,
                                           const acc_scale_t C_scale, const elem_t* A,
                                           const elem_t* B, elem_t* C, bool relu,
                                           enum tiled_matmul_type_t matadd_type) {
  if (tile_I == 0 || tile_J == 0) {
    printf("tiled_resadd: zero tile size\n");
    exit(1);
  }
  tiled_resadd_stride_auto(I, J, A_scale, B_scale, C_scale, stride, A, B, C, relu, matadd_type);
}
#define BY_GEMMINI_TILED_RESADD_12(I, J, ti, tj, sa, sb, sc, A, B, C, relu, type)                  \
  by_gemmini_tiled_resadd(I, J, J, ti, tj, sa, sb, sc, A, B, C, relu, type)
#define BY_GEMMINI_TILED_RESADD_13(...) by_gemmini_tiled_resadd(__VA_ARGS__)
#define tiled_resadd(...)                                                                          \
  BY_GEMMINI_CAT(BY_GEMMINI_TILED_RESADD_, BY_GEMMINI_NARGS(__VA_ARGS__))(__VA_ARGS__)

#include "gemmini_sp_tiles.h"

#endif /* BRICKYARD_GEMMINI_TILES_H */
