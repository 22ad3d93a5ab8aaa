/* CPU references (brickyard/cpu.h): the accelerator's arithmetic, written from
 * docs/arithmetic.md and docs/isa.md independently of the kernels' command sequences. */
#include "brickyard/cpu.h"

#include "brickyard_isa.h"
#include "conv_geom.h"

int64_t by_wrap(int64_t x, int width) {
  if (width >= 64)
    return x;
  const uint64_t mask = (UINT64_C(1) << width) - 1;
  const uint64_t sign = UINT64_C(1) << (width - 1);
  const uint64_t v = (uint64_t)x & mask;
  return (int64_t)(v ^ sign) - (int64_t)sign; /* sign-extend the low `width` bits */
}

int64_t by_saturate(int64_t x, int width) {
  if (width >= 64)
    return x;
  const int64_t hi = (int64_t)((UINT64_C(1) << (width - 1)) - 1);
  const int64_t lo = -hi - 1;
  return x > hi ? hi : (x < lo ? lo : x);
}

by_elem_t by_cpu_output(int64_t acc, float scale, int activation) {
  int64_t y = by_saturate(by_acc_scale((by_acc_t)acc, scale), BY_INPUT_WIDTH);
  if (activation == BY_ACT_RELU && y < 0)
    y = 0;
  return (by_elem_t)y;
}

static int64_t bias_at(const by_matmul_t* m, size_t i, size_t j) {
  if (!m->D)
    return 0;
  const size_t row = m->repeating_bias ? 0 : i;
  return m->d_elem ? ((const by_elem_t*)m->D)[row * m->ldd + j]
                   : ((const by_acc_t*)m->D)[row * m->ldd + j];
}

void by_cpu_matmul(const by_matmul_t* m, int dataflow, size_t k_chunk) {
  if (dataflow == BY_DATAFLOW_WS || k_chunk == 0) /* WS: one pass, DIM x lanes */
    k_chunk = dataflow == BY_DATAFLOW_WS ? BY_DIM * BY_LANES : m->K;
  for (size_t i = 0; i < m->I; ++i)
    for (size_t j = 0; j < m->J; ++j) {
      int64_t acc = bias_at(m, i, j);
      for (size_t k0 = 0; k0 < m->K; k0 += k_chunk) {
        const size_t k1 = k0 + k_chunk < m->K ? k0 + k_chunk : m->K;
        int64_t s = 0;
        for (size_t k = k0; k < k1; ++k) {
          const int64_t a = m->a_transposed ? m->A[k * m->lda + i] : m->A[i * m->lda + k];
          const int64_t b = BY_LANES != 1 && m->b_packed /* lane-packed (one lane: B itself) */
                                ? m->B[k / BY_LANES * m->ldb + j * BY_LANES + k % BY_LANES]
                                : m->b_transposed ? m->B[j * m->ldb + k] : m->B[k * m->ldb + j];
          s += a * b;
        }
        /* WS: partial sums wrap at the spatial output width inside the array; OS: the
         * accumulation wraps at acc_width and the result saturates as it leaves. */
        const int64_t part = dataflow == BY_DATAFLOW_WS
                                 ? by_wrap(s, BY_SPATIAL_OUTPUT_WIDTH)
                                 : by_saturate(by_wrap(s, BY_ACC_WIDTH), BY_SPATIAL_OUTPUT_WIDTH);
        acc = by_wrap(acc + part, BY_ACC_WIDTH);
      }
      if (m->c_full)
        ((by_acc_t*)m->C)[i * m->ldc + j] = (by_acc_t)acc;
      else
        ((by_elem_t*)m->C)[i * m->ldc + j] = by_cpu_output(acc, m->scale, m->activation);
    }
}

/* One conv output value before pooling. The accelerator sums one channel block of one kernel
 * tap per WS array pass (DIM x lanes channels), so each such partial sum wraps at the spatial
 * output width. (The OS loop sums every tap and channel of a tile before the result saturates
 * at that width: by_conv takes it only where the width is acc_width, and then both are the
 * exact sum wrapped at acc_width.) */
static by_elem_t conv_pixel(const by_conv_t* c, int folded, size_t b, size_t y, size_t x,
                            size_t och) {
  int64_t acc = c->bias ? c->bias[och] : 0;
  const size_t ich_lo = c->depthwise ? och : 0;
  const size_t ich_hi = c->depthwise ? och + 1 : c->in_ch;
  const size_t d = c->dilation > 1 ? c->dilation : 1;
  for (size_t kr = 0; kr < c->kernel_rows; ++kr)
    for (size_t kc = 0; kc < c->kernel_cols; ++kc) {
      const int64_t irow = (int64_t)(y * c->stride + kr * d) - (int64_t)by_conv_pad_top(c);
      const int64_t icol =
          (int64_t)(x * by_conv_stride_cols(c) + kc * d) - (int64_t)by_conv_pad_left(c);
      const int inside =
          irow >= 0 && irow < (int64_t)c->in_rows && icol >= 0 && icol < (int64_t)c->in_cols;
      for (size_t cb = ich_lo; cb < ich_hi; cb += (size_t)BY_DIM * BY_LANES) {
        int64_t s = 0;
        for (size_t ich = cb; ich < cb + (size_t)BY_DIM * BY_LANES && ich < ich_hi; ++ich) {
          if (!inside)
            continue;
          const int64_t in =
              c->input[(((b * c->in_rows) + (size_t)irow) * c->in_cols + (size_t)icol) * c->in_ch +
                       ich];
          const int64_t w = c->depthwise
                                ? c->weights[(och * c->kernel_rows + kr) * c->kernel_cols + kc]
                                : by_conv_weight_at(c, folded, kr * c->kernel_cols + kc, ich, och);
          s += in * w;
        }
        acc = by_wrap(acc + by_wrap(s, BY_SPATIAL_OUTPUT_WIDTH), BY_ACC_WIDTH);
      }
    }
  return by_cpu_output(acc, c->scale, c->activation);
}

void by_cpu_conv(const by_conv_t* c) {
  const size_t orows = by_conv_out_rows(c), ocols = by_conv_out_cols(c);
  const size_t prows = by_conv_pool_rows(c), pcols = by_conv_pool_cols(c);
  const int pooling = c->pool_stride != 0;
  const int folded = BY_LANES != 1 && c->weights_packed && by_conv_folds(c);
  for (size_t b = 0; b < c->batch; ++b)
    for (size_t py = 0; py < prows; ++py)
      for (size_t px = 0; px < pcols; ++px)
        for (size_t och = 0; och < c->out_ch; ++och) {
          by_elem_t v;
          if (!pooling) {
            v = conv_pixel(c, folded, b, py, px, och);
          } else {
            /* Max over the window; positions in the pooling padding count as 0 (docs/isa.md). */
            v = BY_ELEM_MIN;
            for (size_t wy = 0; wy < c->pool_size; ++wy)
              for (size_t wx = 0; wx < c->pool_size; ++wx) {
                const int64_t y = (int64_t)(py * c->pool_stride + wy) - (int64_t)c->pool_padding;
                const int64_t x = (int64_t)(px * c->pool_stride + wx) - (int64_t)c->pool_padding;
                const by_elem_t e = (y < 0 || y >= (int64_t)orows || x < 0 || x >= (int64_t)ocols)
                                        ? 0
                                        : conv_pixel(c, folded, b, (size_t)y, (size_t)x, och);
                if (e > v)
                  v = e;
              }
          }
          c->output[((b * prows + py) * pcols + px) * c->out_ch + och] = v;
        }
}

void by_cpu_resadd(size_t I, size_t J, const by_elem_t* A, size_t lda, const by_elem_t* B,
                   size_t ldb, by_elem_t* C, size_t ldc, float scale, int activation) {
  for (size_t i = 0; i < I; ++i)
    for (size_t j = 0; j < J; ++j) {
      const int64_t sum = by_wrap((int64_t)A[i * lda + j] + B[i * ldb + j], BY_ACC_WIDTH);
      C[i * ldc + j] = by_cpu_output(sum, scale, activation);
    }
}

void by_cpu_global_average(const by_elem_t* input, by_elem_t* output, size_t batch, size_t pixels,
                           size_t channels) {
  const float scale = 1.0f / (float)pixels;
  for (size_t b = 0; b < batch; ++b)
    for (size_t ch = 0; ch < channels; ++ch) {
      int64_t sum = 0;
      for (size_t p = 0; p < pixels; ++p)
        sum = by_wrap(sum + input[(b * pixels + p) * channels + ch], BY_ACC_WIDTH);
      output[b * channels + ch] = by_cpu_output(sum, scale, BY_ACT_NONE);
    }
}
