/* Gemmini's tiled kernels and CPU references on Brickyard's kernels (included by gemmini.h).
 * tiled_* with type CPU run the native CPU fallback, which is bit for bit the accelerator's
 * result; matmul_cpu and resadd_cpu are Gemmini's plain references (exact sums). */
#ifndef BRICKYARD_GEMMINI_KERNELS_H
#define BRICKYARD_GEMMINI_KERNELS_H

#include "gemmini.h"
#include "gemmini_train_conv.h"

/* gemmini_train_loops.h (after sp_tiled_conv, at the end of gemmini_sp_tiles.h). */
static inline bool by_gemmini_train_conv_in_loops(const by_gemmini_train_conv_t* t, int out_rows,
                                                  int out_cols, bool trans_output_1203, bool pooled,
                                                  enum tiled_matmul_type_t type,
                                                  const elem_t* input, const elem_t* weights,
                                                  const acc_t* bias, elem_t* output, int act,
                                                  acc_scale_t scale);

static inline void by_gemmini_check(by_status_t s, const char* what) {
  if (s != BY_OK) {
    const by_error_t e = by_error();
    printf("%s failed: %s (hardware error %s)\n", what, by_status_string(s), by_error_name(e.code));
    exit(1);
  }
}

static inline void by_gemmini_check_act(int act, const char* what) {
  if (act != NO_ACTIVATION && act != RELU) {
    printf("%s: activation %d: ", what, act);
    by_gemmini_unsupported("an activation other than NO_ACTIVATION and RELU");
  }
}

/* Mvin scale factors are the identity on Brickyard (no mvin scaling hardware; gemmini_params.h
 * defines MVIN_SCALE as the identity), exactly as on a Gemmini built without mvin scaling. */
static inline void tiled_matmul(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t* A,
                                const elem_t* B, const void* D, void* C, size_t stride_A,
                                size_t stride_B, size_t stride_D, size_t stride_C,
                                scale_t A_scale_factor, scale_t B_scale_factor,
                                scale_acc_t D_scale_factor, int act, acc_scale_t scale,
                                acc_scale_t bert_scale, bool repeating_bias, size_t tile_I,
                                size_t tile_J, size_t tile_K, bool transpose_A, bool transpose_B,
                                bool full_C, bool low_D, uint8_t weightA,
                                enum tiled_matmul_type_t tiled_matmul_type) {
  (void)A_scale_factor, (void)B_scale_factor, (void)D_scale_factor, (void)bert_scale, (void)weightA;
  by_gemmini_check_act(act, "tiled_matmul");
  by_matmul_t m;
  by_matmul_init(&m);
  m.I = dim_I;
  m.J = dim_J;
  m.K = dim_K;
  m.A = A;
  m.lda = stride_A;
  m.a_transposed = transpose_A;
  m.B = B;
  m.ldb = stride_B;
  m.b_transposed = transpose_B;
  m.D = D;
  m.ldd = stride_D;
  m.d_elem = low_D;
  m.repeating_bias = repeating_bias;
  m.C = C;
  m.ldc = stride_C;
  m.c_full = full_C;
  m.activation = act;
  m.scale = scale;
  m.dataflow = tiled_matmul_type == CPU ? BY_DATAFLOW_AUTO : (int)tiled_matmul_type;
  m.on_cpu = tiled_matmul_type == CPU;
  m.tile_i = tile_I;
  m.tile_j = tile_J;
  m.tile_k = tile_K;
  void* ws = 0;
  if (transpose_A || transpose_B) {
    m.workspace_bytes = by_matmul_workspace_bytes(&m);
    m.workspace = ws = malloc(m.workspace_bytes);
    if (!ws) {
      printf("tiled_matmul: no memory for the transpose workspace\n");
      exit(1);
    }
  }
  by_gemmini_check(by_matmul(&m), "tiled_matmul");
  free(ws);
}

/* Tile sizes chosen from the generated parameters (docs/driver.md "Tiling"). */
static inline void tiled_matmul_auto(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t* A,
                                     const elem_t* B, const void* D, void* C, size_t stride_A,
                                     size_t stride_B, size_t stride_D, size_t stride_C,
                                     scale_t A_scale_factor, scale_t B_scale_factor,
                                     scale_acc_t D_scale_factor, int act, acc_scale_t scale,
                                     acc_scale_t bert_scale, bool repeating_bias, bool transpose_A,
                                     bool transpose_B, bool full_C, bool low_D, uint8_t weightA,
                                     enum tiled_matmul_type_t tiled_matmul_type) {
  tiled_matmul(dim_I, dim_J, dim_K, A, B, D, C, stride_A, stride_B, stride_D, stride_C,
               A_scale_factor, B_scale_factor, D_scale_factor, act, scale, bert_scale,
               repeating_bias, 0, 0, 0, transpose_A, transpose_B, full_C, low_D, weightA,
               tiled_matmul_type);
}

/* Gemmini's reference: exact sums, then ACC_SCALE, saturation and ReLU. D is acc_t (or NULL),
 * C elem_t. */
static inline void matmul_cpu(bool transA, bool transB, size_t DIM_I, size_t DIM_J, size_t DIM_K,
                              const elem_t* A, const elem_t* B, const acc_t* D, elem_t* C,
                              size_t stride_A, size_t stride_B, size_t stride_D, size_t stride_C,
                              scale_t A_scale_factor, scale_t B_scale_factor,
                              scale_acc_t D_scale_factor, int act, acc_scale_t scale,
                              acc_scale_t bert_scale, bool repeating_bias) {
  (void)A_scale_factor, (void)B_scale_factor, (void)D_scale_factor, (void)bert_scale;
  by_gemmini_check_act(act, "matmul_cpu");
  for (size_t i = 0; i < DIM_I; ++i)
    for (size_t j = 0; j < DIM_J; ++j) {
      full_t sum = D ? D[(repeating_bias ? 0 : i) * stride_D + j] : 0;
      for (size_t k = 0; k < DIM_K; ++k)
        sum += (full_t)(transA ? A[k * stride_A + i] : A[i * stride_A + k]) *
               (transB ? B[j * stride_B + k] : B[k * stride_B + j]);
      full_t y = ACC_SCALE(sum, scale);
      y = y > elem_t_max ? elem_t_max : (y < elem_t_min ? elem_t_min : y);
      C[i * stride_C + j] = (elem_t)(act == RELU && y < 0 ? 0 : y);
    }
}

static inline void by_gemmini_conv(const by_conv_t* c, int out_row_dim, int out_col_dim,
                                   const char* what) {
  if ((size_t)out_row_dim != by_conv_out_rows(c) || (size_t)out_col_dim != by_conv_out_cols(c)) {
    printf("%s: output %dx%d does not match the input, kernel, stride and padding (%lux%lu)\n",
           what, out_row_dim, out_col_dim, (unsigned long)by_conv_out_rows(c),
           (unsigned long)by_conv_out_cols(c));
    exit(1);
  }
  /* The native driver may need a workspace (vector-PE packing, a thin input's padded copy for
   * the folded loop, depthwise diagonals): Gemmini's calls have none, so it is allocated here. */
  by_conv_t run = *c;
  void* ws = 0;
  if (!run.workspace && !run.on_cpu && (run.workspace_bytes = by_conv_workspace_bytes(&run))) {
    run.workspace = ws = malloc(run.workspace_bytes);
    if (!ws) {
      printf("%s: no memory for the workspace (%lu bytes)\n", what,
             (unsigned long)run.workspace_bytes);
      exit(1);
    }
  }
  by_gemmini_check(by_conv(&run), what);
  free(ws);
}

/* A by_conv_t from Gemmini's convolution arguments (square kernel, one stride and padding;
 * Gemmini's pool_stride 0 means no pooling). */
static inline void by_gemmini_conv_setup(by_conv_t* c, int batch_size, int in_row_dim,
                                         int in_col_dim, int in_channels, int out_channels,
                                         int stride, int padding, int kernel_dim,
                                         const elem_t* input, const elem_t* weights,
                                         const acc_t* bias, elem_t* output, int act,
                                         acc_scale_t scale, int pool_size, int pool_stride,
                                         int pool_padding) {
  by_conv_init(c);
  c->batch = (size_t)batch_size;
  c->in_rows = (size_t)in_row_dim;
  c->in_cols = (size_t)in_col_dim;
  c->in_ch = (size_t)in_channels;
  c->out_ch = (size_t)out_channels;
  c->kernel_rows = c->kernel_cols = (size_t)kernel_dim;
  c->stride = (size_t)stride;
  c->padding = (size_t)padding;
  c->input = input;
  c->weights = weights;
  c->bias = bias;
  c->output = output;
  c->activation = act;
  c->scale = scale;
  if (pool_stride != 0) {
    c->pool_size = (size_t)pool_size;
    c->pool_stride = (size_t)pool_stride;
    c->pool_padding = (size_t)pool_padding;
  }
}

static inline void tiled_conv_auto(int batch_size, int in_row_dim, int in_col_dim, int in_channels,
                                   int out_channels, int out_row_dim, int out_col_dim, int stride,
                                   int input_dilation, int kernel_dilation, int padding,
                                   int kernel_dim, bool wrot180, bool trans_output_1203,
                                   bool trans_input_3120, bool trans_weight_1203,
                                   bool trans_weight_0132, const elem_t* input,
                                   const elem_t* weights, const acc_t* bias, elem_t* output,
                                   int act, acc_scale_t scale, int pool_size, int pool_stride,
                                   int pool_padding, enum tiled_matmul_type_t tiled_conv_type) {
  if (input_dilation < 1 || kernel_dilation < 1) {
    printf("tiled_conv_auto: dilations must be at least 1\n");
    exit(1);
  }
  if (wrot180 || trans_output_1203 || trans_input_3120 || trans_weight_1203 || trans_weight_0132 ||
      input_dilation != 1 || padding < 0) {
    /* A training convolution: in LOOP_CONV_WS tiles where the hardware has its forms
     * (gemmini_train_loops.h), else its operands in plain form (gemmini_train_conv.h), then an
     * ordinary one (with the kernel dilation, which by_conv runs itself). */
    const by_gemmini_train_conv_t t = {
        batch_size, in_row_dim,       in_col_dim,        in_channels,      out_channels,
        kernel_dim, stride,           input_dilation,    kernel_dilation,  padding,
        wrot180,    trans_input_3120, trans_weight_1203, trans_weight_0132};
    by_gemmini_check_act(act, "tiled_conv_auto");
    if (by_gemmini_train_conv_in_loops(&t, out_row_dim, out_col_dim, trans_output_1203,
                                       pool_stride != 0, tiled_conv_type, input, weights, bias,
                                       output, act, scale))
      return;
    const int rows = by_gemmini_train_extent(&t, out_row_dim);
    const int cols = by_gemmini_train_extent(&t, out_col_dim);
    elem_t* in = by_gemmini_train_input(&t, input, rows, cols);
    elem_t* w = by_gemmini_train_weights(&t, weights);
    const int prows =
        pool_stride ? (out_row_dim + 2 * pool_padding - pool_size) / pool_stride + 1 : out_row_dim;
    const int pcols =
        pool_stride ? (out_col_dim + 2 * pool_padding - pool_size) / pool_stride + 1 : out_col_dim;
    elem_t* out = trans_output_1203
                      ? (elem_t*)by_gemmini_train_alloc((size_t)batch_size * (size_t)prows *
                                                        (size_t)pcols * (size_t)out_channels)
                      : output;
    tiled_conv_auto(batch_size, rows, cols, in_channels, out_channels, out_row_dim, out_col_dim,
                    stride, 1, kernel_dilation, 0, kernel_dim, false, false, false, false, false,
                    in, w, bias, out, act, scale, pool_size, pool_stride, pool_padding,
                    tiled_conv_type);
    if (out != output) {
      by_gemmini_train_output(out, output, batch_size, prows, pcols, out_channels);
      free(out);
    }
    free(w);
    free(in);
    return;
  }
  by_gemmini_check_act(act, "tiled_conv_auto");
  by_conv_t c;
  by_gemmini_conv_setup(&c, batch_size, in_row_dim, in_col_dim, in_channels, out_channels, stride,
                        padding, kernel_dim, input, weights, bias, output, act, scale, pool_size,
                        pool_stride, pool_padding);
  c.dilation = (size_t)kernel_dilation;
  c.on_cpu = tiled_conv_type == CPU;
  by_gemmini_conv(&c, out_row_dim, out_col_dim, "tiled_conv_auto");
}

/* Gemmini's tiled_conv_auto with pixel strides (in elements): input pixels in_stride apart
 * (>= in_channels), weight rows weight_stride apart (>= out_channels), output pixels out_stride
 * apart (>= out_channels), e.g. a convolution that reads or writes one slice of a concatenation.
 * The native kernel takes dense tensors: other strides are gathered into (and the output
 * scattered out of) malloc'd dense copies; the elements between out_channels and out_stride are
 * left alone, as on Gemmini. */
static inline void tiled_conv_stride_auto(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
    int out_row_dim, int out_col_dim, int stride, int input_dilation, int kernel_dilation,
    int padding, int kernel_dim, int in_stride, int weight_stride, int out_stride, bool wrot180,
    bool trans_output_1203, bool trans_input_3120, bool trans_weight_1203, bool trans_weight_0132,
    const elem_t* input, const elem_t* weights, const acc_t* bias, elem_t* output, int act,
    acc_scale_t scale, int pool_size, int pool_stride, int pool_padding,
    enum tiled_matmul_type_t tiled_conv_type) {
  if (in_stride < in_channels || weight_stride < out_channels || out_stride < out_channels) {
    printf("tiled_conv_stride_auto: a stride is below its channel count\n");
    exit(1);
  }
  /* The strides gathered here are those of the plain layouts. */
  if ((in_stride != in_channels && trans_input_3120) ||
      (weight_stride != out_channels && (trans_weight_1203 || trans_weight_0132)) ||
      (out_stride != out_channels && trans_output_1203))
    by_gemmini_unsupported("tiled_conv_stride_auto with a pixel stride on a transposed operand");
  const size_t pix_in = (size_t)batch_size * (size_t)in_row_dim * (size_t)in_col_dim;
  const size_t w_rows = (size_t)kernel_dim * (size_t)kernel_dim * (size_t)in_channels;
  const size_t prows =
      pool_stride ? (size_t)((out_row_dim + 2 * pool_padding - pool_size) / pool_stride + 1)
                  : (size_t)out_row_dim;
  const size_t pcols =
      pool_stride ? (size_t)((out_col_dim + 2 * pool_padding - pool_size) / pool_stride + 1)
                  : (size_t)out_col_dim;
  const size_t pix_out = (size_t)batch_size * prows * pcols;
  elem_t* in = (elem_t*)input;
  elem_t* w = (elem_t*)weights;
  elem_t* out = output;
  if (in_stride != in_channels) {
    in = (elem_t*)malloc(pix_in * (size_t)in_channels * sizeof(elem_t));
    for (size_t p = 0; in && p < pix_in; ++p)
      for (int c = 0; c < in_channels; ++c)
        in[p * (size_t)in_channels + (size_t)c] = input[p * (size_t)in_stride + (size_t)c];
  }
  if (weight_stride != out_channels) {
    w = (elem_t*)malloc(w_rows * (size_t)out_channels * sizeof(elem_t));
    for (size_t r = 0; w && r < w_rows; ++r)
      for (int c = 0; c < out_channels; ++c)
        w[r * (size_t)out_channels + (size_t)c] = weights[r * (size_t)weight_stride + (size_t)c];
  }
  if (out_stride != out_channels)
    out = (elem_t*)malloc(pix_out * (size_t)out_channels * sizeof(elem_t));
  if (!in || !w || !out) {
    printf("tiled_conv_stride_auto: no memory for the dense copies\n");
    exit(1);
  }
  tiled_conv_auto(batch_size, in_row_dim, in_col_dim, in_channels, out_channels, out_row_dim,
                  out_col_dim, stride, input_dilation, kernel_dilation, padding, kernel_dim,
                  wrot180, trans_output_1203, trans_input_3120, trans_weight_1203,
                  trans_weight_0132, in, w, bias, out, act, scale, pool_size, pool_stride,
                  pool_padding, tiled_conv_type);
  if (out != output) {
    for (size_t p = 0; p < pix_out; ++p)
      for (int c = 0; c < out_channels; ++c)
        output[p * (size_t)out_stride + (size_t)c] = out[p * (size_t)out_channels + (size_t)c];
    free(out);
  }
  if (w != weights)
    free(w);
  if (in != input)
    free(in);
}

/* A depthwise convolution's workspace (freeing the one it has) for its forced tiles. */
static inline void by_gemmini_dw_workspace(by_conv_t* c, const char* what) {
  free(c->workspace);
  c->workspace_bytes = by_conv_workspace_bytes(c);
  c->workspace = malloc(c->workspace_bytes);
  if (!c->workspace) {
    printf("%s: no memory for the workspace\n", what);
    exit(1);
  }
}

/* Depthwise, Gemmini's signature: square kernel, weights [channels][kernel_dim][kernel_dim].
 * by_gemmini_conv_dw takes forced tiles as well (tiled_conv_dw; 0: automatic). */
static inline void by_gemmini_conv_dw(int batch_size, int in_row_dim, int in_col_dim, int channels,
                                      int out_row_dim, int out_col_dim, int stride, int padding,
                                      int kernel_dim, const elem_t* input, const elem_t* weights,
                                      const acc_t* bias, elem_t* output, int act, acc_scale_t scale,
                                      int pool_size, int pool_stride, int pool_padding,
                                      enum tiled_matmul_type_t tiled_conv_type, size_t tile_batch,
                                      size_t tile_rows, const char* what) {
  by_gemmini_check_act(act, what);
  by_conv_t c;
  by_gemmini_conv_setup(&c, batch_size, in_row_dim, in_col_dim, channels, channels, stride, padding,
                        kernel_dim, input, weights, bias, output, act, scale, pool_size,
                        pool_stride, pool_padding);
  c.depthwise = 1;
  c.on_cpu = tiled_conv_type == CPU;
  c.tile_batch = tile_batch;
  c.tile_rows = tile_rows;
  /* The workspace's layout is the plan's (the loops' depthwise mode: diagonal stripes; else
   * diagonal blocks), so it is sized for the tiles that run. */
  by_gemmini_dw_workspace(&c, what);
  by_conv_plan_t plan;
  if (by_conv_plan(&c, &plan) != BY_OK) { /* a tile that does not fit: the driver's own */
    c.tile_batch = c.tile_rows = 0;
    by_gemmini_dw_workspace(&c, what);
  }
  by_gemmini_conv(&c, out_row_dim, out_col_dim, what);
  free(c.workspace);
}

static inline void tiled_conv_dw_auto(int batch_size, int in_row_dim, int in_col_dim, int channels,
                                      int out_row_dim, int out_col_dim, int stride, int padding,
                                      int kernel_dim, const elem_t* input, const elem_t* weights,
                                      const acc_t* bias, elem_t* output, int act, acc_scale_t scale,
                                      int pool_size, int pool_stride, int pool_padding,
                                      enum tiled_matmul_type_t tiled_conv_type) {
  by_gemmini_conv_dw(batch_size, in_row_dim, in_col_dim, channels, out_row_dim, out_col_dim, stride,
                     padding, kernel_dim, input, weights, bias, output, act, scale, pool_size,
                     pool_stride, pool_padding, tiled_conv_type, 0, 0, "tiled_conv_dw_auto");
}

/* Gemmini's mvin scale of an int8 config (its default gemmini_params.h): x * scale rounded to
 * the nearest, ties to even, saturated to elem_t. Brickyard has no mvin scaler (MVIN_SCALE in
 * gemmini_params.h is the identity), so the residual add applies A_scale / B_scale here. */
static inline elem_t by_gemmini_mvin_scale(elem_t x, scale_t scale) {
  const float product = (float)x * scale; /* in float, as Gemmini's MVIN_SCALE */
  const double y = ROUND_NEAR_EVEN(product);
  return (elem_t)(y > elem_t_max ? elem_t_max : (y < elem_t_min ? elem_t_min : y));
}

/* An I x J operand (rows ld elements apart) scaled by by_gemmini_mvin_scale into a malloc'd
 * dense copy (rows J apart) when the scale is not 1; NULL when it is (used as it is). */
static inline elem_t* by_gemmini_scaled_copy(size_t I, size_t J, const elem_t* x, size_t ld,
                                             scale_t scale) {
  if (scale == (scale_t)MVIN_SCALE_IDENTITY)
    return NULL;
  elem_t* y = (elem_t*)malloc(I * J * sizeof(elem_t));
  if (!y) {
    printf("tiled_resadd: no memory for the scaled operand\n");
    exit(1);
  }
  for (size_t i = 0; i < I; ++i)
    for (size_t j = 0; j < J; ++j)
      y[i * J + j] = by_gemmini_mvin_scale(x[i * ld + j], scale);
  return y;
}

/* Gemmini's current residual add: C = act(clip(ACC_SCALE(A' + B', C_scale))) with A' = A scaled
 * by A_scale, B' = B by B_scale (Gemmini's mvin scale); A, B and C have rows `stride` elements
 * apart. Exactly resadd_cpu. */
static inline void tiled_resadd_stride_auto(const size_t I, const size_t J, const scale_t A_scale,
                                            const scale_t B_scale, const acc_scale_t C_scale,
                                            const size_t stride, const elem_t* A, const elem_t* B,
                                            elem_t* C, bool relu,
                                            enum tiled_matmul_type_t matadd_type) {
  elem_t* a = by_gemmini_scaled_copy(I, J, A, stride, A_scale);
  elem_t* b = by_gemmini_scaled_copy(I, J, B, stride, B_scale);
  by_gemmini_check(by_resadd(I, J, a ? a : A, a ? J : stride, b ? b : B, b ? J : stride, C, stride,
                             C_scale, relu ? RELU : NO_ACTIVATION, matadd_type == CPU),
                   "tiled_resadd");
  free(a);
  free(b);
}

/* The dense form (rows J apart). */
static inline void tiled_resadd_auto(const size_t I, const size_t J, const scale_t A_scale,
                                     const scale_t B_scale, const acc_scale_t C_scale,
                                     const elem_t* A, const elem_t* B, elem_t* C, bool relu,
                                     enum tiled_matmul_type_t matadd_type) {
  tiled_resadd_stride_auto(I, J, A_scale, B_scale, C_scale, J, A, B, C, relu, matadd_type);
}

/* Gemmini's resadd_cpu with rows `stride` apart; resadd_cpu (gemmini_tiles.h) takes its current
 * form (stride third) and its older dense one. */
static inline void by_gemmini_resadd_cpu(const size_t I, const size_t J, const size_t stride,
                                         const scale_t A_scale, const scale_t B_scale,
                                         const acc_scale_t C_scale, const elem_t* A,
                                         const elem_t* B, elem_t* C, bool relu) {
  for (size_t i = 0; i < I; ++i)
    for (size_t j = 0; j < J; ++j) {
      const size_t at = i * stride + j;
      full_t y = ACC_SCALE((acc_t)by_gemmini_mvin_scale(A[at], A_scale) +
                               by_gemmini_mvin_scale(B[at], B_scale),
                           C_scale);
      y = y > elem_t_max ? elem_t_max : (y < elem_t_min ? elem_t_min : y);
      C[at] = (elem_t)(relu && y < 0 ? 0 : y);
    }
}

/* input [batches][dim][dim][channels] -> output [batches][channels]. */
static inline void tiled_global_average_auto(const elem_t* input, elem_t* output, int batches,
                                             int channels, int dim, enum tiled_matmul_type_t type) {
  by_gemmini_check(by_global_average(input, output, (size_t)batches, (size_t)(dim * dim),
                                     (size_t)channels, type == CPU),
                   "tiled_global_average_auto");
}
static inline void tiled_global_average(const elem_t* input, elem_t* output, int batches,
                                        int channels, int dim, int channel_tile_size) {
  (void)channel_tile_size; /* the driver tiles channels itself */
  tiled_global_average_auto(input, output, batches, channels, dim, WS);
}

#include "gemmini_tiles.h"

#endif /* BRICKYARD_GEMMINI_KERNELS_H */
