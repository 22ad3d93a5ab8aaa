/* Convolution (by_conv), dense and depthwise: strides, padding, rectangular inputs and
 * kernels, dilated kernels, channel counts that are no multiple of DIM, bias, scale, ReLU, fused
 * max-pooling with padding, forced small tiles; against bm_ref.h, on every path the hardware has
 * (the automatic one, the command path, LOOP_CONV_WS, and the matmul for 1x1 convolutions), each
 * checked to run where forced. Also the CPU fallback and bad input. */
#include "bm_ref.h"
#include "bm_test.h"

#define MAX_IN (2 * 15 * 13 * 20)
#define MAX_W (3 * 3 * 20 * 18)
#define MAX_OUT (2 * 15 * 13 * 20)

static by_elem_t input[MAX_IN], weights[MAX_W], output[MAX_OUT], want[MAX_OUT];
static by_acc_t bias[20];
static by_elem_t workspace[4096];

typedef struct {
  const char* name;
  size_t batch, rows, cols, ich, och, kr, kc, stride, pad;
  int dw, use_bias, relu;
  float scale;
  size_t pool_size, pool_stride, pool_pad;
  size_t tile_rows, tile_och, tile_k;
  int on_cpu;
  size_t dilation; /* 0: none */
} conv_case_t;

static by_elem_t pooled_ref(const conv_case_t* t, const by_conv_t* c, size_t b, size_t py,
                            size_t px, size_t och) {
  const size_t orows = by_conv_out_rows(c), ocols = by_conv_out_cols(c);
  const size_t psz = t->pool_stride ? t->pool_size : 1, pst = t->pool_stride ? t->pool_stride : 1;
  const size_t ppad = t->pool_stride ? t->pool_pad : 0;
  int best = BY_ELEM_MIN - 1;
  for (size_t wy = 0; wy < psz; ++wy)
    for (size_t wx = 0; wx < psz; ++wx) {
      const long y = (long)(py * pst + wy) - (long)ppad, x = (long)(px * pst + wx) - (long)ppad;
      int v = 0; /* pooling padding reads as 0 (docs/isa.md) */
      if (y >= 0 && x >= 0 && y < (long)orows && x < (long)ocols)
        v = ref_out(ref_conv_acc(input, t->rows, t->cols, t->ich, weights, t->och,
                                 t->use_bias ? bias : 0, t->kr, t->kc, t->stride, t->pad,
                                 t->dilation ? t->dilation : 1, t->dw, b, (size_t)y, (size_t)x,
                                 och),
                    t->scale, t->relu);
      if (v > best)
        best = v;
    }
  return (by_elem_t)best;
}

static const char* const path_names[] = {"automatic", "the command path", "LOOP_CONV_WS",
                                         "a matmul"};

/* A dense 1x1 convolution with stride 1 and no padding or pooling (the matmul path's shape). */
static int matmul_shaped(const conv_case_t* t) {
  return !t->dw && t->kr == 1 && t->kc == 1 && t->stride == 1 && t->pad == 0 && !t->pool_stride;
}

static void run(const conv_case_t* t, int path) {
  by_conv_t c;
  by_conv_init(&c);
  c.batch = t->batch;
  c.in_rows = t->rows;
  c.in_cols = t->cols;
  c.in_ch = t->ich;
  c.out_ch = t->och;
  c.kernel_rows = t->kr;
  c.kernel_cols = t->kc;
  c.stride = t->stride;
  c.padding = t->pad;
  c.dilation = t->dilation;
  c.depthwise = t->dw;
  c.input = input;
  c.weights = weights;
  c.bias = t->use_bias ? bias : 0;
  c.output = output;
  c.activation = t->relu ? BY_ACT_RELU : BY_ACT_NONE;
  c.scale = t->scale;
  c.pool_size = t->pool_size;
  c.pool_stride = t->pool_stride;
  c.pool_padding = t->pool_pad;
  c.tile_rows = t->tile_rows;
  c.tile_och = t->tile_och;
  c.tile_k = t->tile_k;
  c.workspace = workspace;
  c.workspace_bytes = sizeof workspace;
  c.on_cpu = t->on_cpu;
  c.path = path;
  bm_fill(input, t->batch * t->rows * t->cols * t->ich, BY_ELEM_MIN, BY_ELEM_MAX);
  bm_fill(weights, t->dw ? t->ich * t->kr * t->kc : t->kr * t->kc * t->ich * t->och, -64, 63);
  bm_fill_acc(bias, t->och, -5000, 5000);
  const size_t prows = by_conv_pool_rows(&c), pcols = by_conv_pool_cols(&c);
  const size_t n = t->batch * prows * pcols * t->och;
  by_conv_plan_t plan;
  BM_OK(by_conv_plan(&c, &plan));
  const int ran = t->on_cpu ? BY_CONV_AUTO : plan.path;
  printf("%s: %lux%lux%lu -> %lux%lux%lu%s, %s: runs %s\n", t->name, (unsigned long)t->rows,
         (unsigned long)t->cols, (unsigned long)t->ich, (unsigned long)prows, (unsigned long)pcols,
         (unsigned long)t->och, t->pool_stride ? " (pooled)" : "",
         path == BY_CONV_AUTO ? "automatic" : "forced", t->on_cpu ? "on the CPU" : path_names[ran]);
  if (!t->on_cpu) {
    BM_CHECK(plan.path >= BY_CONV_COMMANDS && plan.path <= BY_CONV_MATMUL &&
                 plan.loop == (plan.path == BY_CONV_LOOP),
             "%s: plan path %d, loop %d", t->name, plan.path, plan.loop);
    BM_CHECK(path == BY_CONV_AUTO || plan.path == path, "%s: forced %s, runs %s", t->name,
             path_names[path], path_names[plan.path]);
  }
  bm_fill_zero(output, sizeof output);
  BM_OK(by_conv(&c));
  for (size_t b = 0; b < t->batch; ++b)
    for (size_t y = 0; y < prows; ++y)
      for (size_t x = 0; x < pcols; ++x)
        for (size_t o = 0; o < t->och; ++o)
          want[((b * prows + y) * pcols + x) * t->och + o] = pooled_ref(t, &c, b, y, x, o);
  bm_compare(t->name, output, want, n);
}

int main(void) {
  bm_seed(5002, "conv");
  by_error_clear();
  const conv_case_t cases[] = {
      {"3x3_pad1", 1, 8, 8, 5, 6, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"stride2_rect", 2, 11, 7, 9, 10, 3, 3, 2, 1, 0, 1, 1, 0.03125f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"rect_kernel_nopad", 1, 9, 12, 4, 7, 2, 3, 1, 0, 0, 0, 0, 0.125f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"1x1_stride2", 2, 10, 10, 20, 18, 1, 1, 2, 0, 0, 1, 0, 0.25f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"1x1_bias_relu", 3, 7, 5, 21, 19, 1, 1, 1, 0, 0, 1, 1, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"1x1_no_bias_tiles", 1, 6, 9, 18, 11, 1, 1, 1, 0, 0, 0, 0, 0.25f, 0, 0, 0, 0, 1, 2, 0, 0},
      {"pool_3s2p1", 1, 13, 11, 6, 5, 3, 3, 1, 1, 0, 1, 1, 0.0625f, 3, 2, 1, 0, 0, 0, 0, 0},
      {"pool_2s2_relu_off", 2, 12, 8, 3, 9, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 2, 2, 0, 0, 0, 0, 0, 0},
      {"pool_tiled", 1, 15, 13, 7, 6, 3, 3, 1, 1, 0, 1, 1, 0.0625f, 3, 2, 1, 2, 1, 3, 0, 0},
      {"tiles_small", 2, 9, 9, 9, 10, 3, 3, 1, 1, 0, 1, 0, 0.03125f, 0, 0, 0, 1, 1, 2, 0, 0},
      {"dw_3x3", 2, 9, 10, 7, 7, 3, 3, 1, 1, 1, 1, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"dw_rect_stride2", 1, 12, 9, 13, 13, 4, 2, 2, 1, 1, 1, 1, 0.25f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"dw_pool", 1, 10, 10, 5, 5, 3, 3, 1, 1, 1, 0, 1, 0.25f, 2, 2, 0, 0, 0, 0, 0, 0},
      {"cpu_fallback", 1, 13, 11, 6, 5, 3, 3, 1, 1, 0, 1, 1, 0.0625f, 3, 2, 1, 0, 0, 0, 1, 0},
      {"dilated_d2", 1, 11, 10, 6, 5, 3, 3, 1, 2, 0, 1, 0, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 2},
      {"dilated_d3_stride2_pool",
       2,
       13,
       12,
       9,
       7,
       3,
       3,
       2,
       3,
       0,
       1,
       1,
       0.0625f,
       2,
       2,
       0,
       0,
       0,
       0,
       0,
       3},
      {"dilated_rect_tiles", 1, 12, 14, 7, 10, 2, 3, 1, 1, 0, 0, 0, 0.125f, 0, 0, 0, 1, 1, 2, 0, 2},
      {"dw_dilated_d2", 1, 10, 9, 7, 7, 3, 3, 1, 2, 1, 1, 0, 0.25f, 0, 0, 0, 0, 0, 0, 0, 2},
      {"cpu_dilated", 1, 9, 9, 4, 3, 3, 3, 1, 2, 0, 1, 1, 0.0625f, 0, 0, 0, 0, 0, 0, 1, 2},
  };
  /* Each case on the automatic path, then forced on each other path the hardware has for it. */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const conv_case_t* t = &cases[i];
    run(t, BY_CONV_AUTO);
    if (t->on_cpu)
      continue;
    run(t, BY_CONV_COMMANDS);
    if (by_has_loop_conv_ws())
      run(t, BY_CONV_LOOP);
    if (matmul_shaped(t))
      run(t, BY_CONV_MATMUL);
  }

  by_conv_t c;
  by_conv_init(&c);
  c.batch = c.in_rows = c.in_cols = c.in_ch = c.out_ch = 4;
  c.kernel_rows = c.kernel_cols = 3;
  c.input = input;
  c.weights = weights;
  c.output = output;
  c.depthwise = 1;
  BM_CHECK(by_conv(&c) == BY_ERR_WORKSPACE, "depthwise without workspace accepted");
  c.depthwise = 0;
  c.kernel_rows = 9;
  BM_CHECK(by_conv(&c) == BY_ERR_ARG, "kernel larger than the padded input accepted");
  c.kernel_rows = 3;
  c.dilation = 4; /* spans 9 rows of the 4-row input */
  BM_CHECK(by_conv(&c) == BY_ERR_ARG, "dilated kernel larger than the padded input accepted");
  c.dilation = 0;
  c.pool_stride = 1;
  c.pool_size = 4;
  c.padding = 3;
  c.in_rows = c.in_cols = 8;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "pool size 4 (2-bit field) accepted");
  c.pool_stride = 0;
  c.path = BY_CONV_MATMUL + 1;
  BM_CHECK(by_conv(&c) == BY_ERR_ARG, "an unknown path accepted");
  bm_expect_no_hw_error("conv");
  return bm_finish("conv");
}
