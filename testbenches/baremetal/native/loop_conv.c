/* The native convolution through LOOP_CONV_WS and LOOP_CONV_OS (configs with loops.conv): by_conv
 * on stride 1 and 2, padding, 1x1 and 3x3 (and rectangular) kernels, bias or none, ReLU and
 * scale, max-pooling, depthwise (in the loops' depthwise mode where the loop has it: one lane,
 * TensorDash's OS loop; else passes over diagonal blocks), several images, channel counts that are
 * no multiple of DIM (or of DIM x lanes), and forced small tiles (input-channel tiles that keep C
 * in the accumulator, out-channel, row and image tiles), each checked to run as loops in each
 * dataflow the config has (on TensorDash configs the OS loop with each scheduled operand and
 * TensorDash off, inputs with zeros) and compared with by_cpu_conv; on vector PEs with weights
 * packed by the caller (by_pack_conv_weights) and by by_conv; the command path for a window no loop
 * holds and when forced on one case (vector PEs have none: BY_ERR_UNSUPPORTED); the automatic
 * path's choice (a matmul for a 1x1 convolution with stride 1 where LOOP_WS exists, the loop for a
 * strided 1x1 one and a 3x3 one); each loop issued directly, with an illegal loop (BAD_SIZE, the
 * loop's funct) counted and the next one running. On a config without loops.conv it checks that
 * HW_FEATURES says so and skips. */
#include "bm_test.h"
#include "brickyard/cpu.h"

/* Depthwise channels over two scratchpad rows (DIM x lanes channels each) and a part. */
#define DW_CH (2 * (size_t)BY_DIM * BY_LANES + 5)
/* Three channel blocks, the last partial: output (DIM) and input channels (DIM x lanes). */
#define OCH3 (2 * BY_DIM + 3)
#define ICH3 (2 * BY_DIM * BY_LANES + 3)

#define MAX_IN (3 * 16 * 16 * 24)
#define MAX_W (3 * 3 * 37 * 21)
#define MAX_OUT (3 * 16 * 16 * 24)

/* A stride that makes the input window of one 3x3 output row of 8 pixels (3 x (7 x WS + 3)
 * rows) larger than half the scratchpad: no loop holds it (the command path gathers only the
 * pixels it reads). */
#define WS (BY_SP_ROWS / 42 + 1)

static by_elem_t input[MAX_IN], weights[MAX_W], output[MAX_OUT], want[MAX_OUT];
static by_acc_t bias[DW_CH > 40 ? DW_CH : 40];
/* Depthwise diagonals (stripes or blocks); with vector PEs also the packed weights (caller's or
 * by_conv's). */
static by_elem_t workspace[32768], packed[16384];

/* The loops this config runs by_conv through: WS where LOOP_CONV_WS exists, OS where
 * LOOP_CONV_OS does and its sums are exact (docs/driver.md, "Convolution paths"). */
static int has_loop(int df) {
  return df == BY_DATAFLOW_OS ? by_has_loop_conv_os() && BY_SPATIAL_OUTPUT_WIDTH >= BY_ACC_WIDTH
                              : by_has_loop_conv_ws();
}

/* Whether the loop of dataflow df has the depthwise mode (docs/isa.md "Depthwise mode"): one
 * lane, or the OS loop of TensorDash configs (DIM >= lanes); elsewhere depthwise loops are passes
 * over diagonal blocks. */
static int has_depthwise_mode(int df) {
  return BY_LANES == 1 || (df == BY_DATAFLOW_OS && BY_TENSORDASH && BY_DIM >= BY_LANES);
}

typedef struct {
  const char* name;
  size_t batch, rows, cols, ich, och, kr, kc, stride, pad;
  int dw, use_bias, relu;
  float scale;
  size_t pool_size, pool_stride, pool_pad;
  size_t tile_rows, tile_och, tile_k, tile_batch;
  int commands; /* no loop tile holds one output row: the command path runs */
} loop_case_t;

static void setup(const loop_case_t* t, by_conv_t* c) {
  by_conv_init(c);
  c->batch = t->batch;
  c->in_rows = t->rows;
  c->in_cols = t->cols;
  c->in_ch = t->ich;
  c->out_ch = t->och;
  c->kernel_rows = t->kr;
  c->kernel_cols = t->kc;
  c->stride = t->stride;
  c->padding = t->pad;
  c->depthwise = t->dw;
  c->input = input;
  c->weights = weights;
  c->bias = t->use_bias ? bias : 0;
  c->output = output;
  c->activation = t->relu ? BY_ACT_RELU : BY_ACT_NONE;
  c->scale = t->scale;
  c->pool_size = t->pool_size;
  c->pool_stride = t->pool_stride;
  c->pool_padding = t->pool_pad;
  c->tile_rows = t->tile_rows;
  c->tile_och = t->tile_och;
  c->tile_k = t->tile_k;
  c->tile_batch = t->tile_batch;
  c->workspace = workspace;
  c->workspace_bytes = sizeof workspace;
}

/* by_conv on `path` with loop dataflow df (expected to run on `runs`) against by_cpu_conv on
 * fresh random operands; `td`: the TensorDash mode, `packed`: the caller packs the weights. */
static void run_in(const loop_case_t* t, int path, int runs, int df, int td, int pack) {
  static const char* const names[] = {"automatic", "the command path", "the loop", "a matmul"};
  by_conv_t c;
  setup(t, &c);
  c.path = path;
  c.dataflow = df;
  c.tensordash = td;
  bm_fill(input, t->batch * t->rows * t->cols * t->ich, BY_ELEM_MIN, BY_ELEM_MAX);
  if (df == BY_DATAFLOW_OS) /* every third input zero: TensorDash has something to skip */
    for (size_t i = 0; i < t->batch * t->rows * t->cols * t->ich; i += 3)
      input[i] = 0;
  bm_fill(weights, t->dw ? t->ich * t->kr * t->kc : t->kr * t->kc * t->ich * t->och, -64, 63);
  bm_fill_acc(bias, t->och, -5000, 5000);
  if (pack && !t->dw) { /* per tap, or per kernel row where the loop folds the columns */
    const int folds = by_conv_folds(&c);
    const size_t taps = folds ? t->kr : t->kr * t->kc, ch = folds ? t->kc * t->ich : t->ich;
    BM_CHECK(by_conv_packed_weight_elems(taps, ch, t->och) <= sizeof packed,
             "%s: packed weights do not fit", t->name);
    BM_OK(by_pack_conv_weights(taps, ch, t->och, weights, packed));
    c.weights = packed;
    c.weights_packed = 1;
  }
  const size_t n = t->batch * by_conv_pool_rows(&c) * by_conv_pool_cols(&c) * t->och;
  BM_CHECK(n <= MAX_OUT, "%s: output of %lu elements", t->name, (unsigned long)n);
  by_conv_plan_t plan;
  const by_status_t ps = by_conv_plan(&c, &plan);
  if (runs == BY_CONV_COMMANDS && (BY_LANES != 1 || df != BY_DATAFLOW_WS)) {
    /* vector PEs and the OS dataflow: no command path */
    BM_CHECK(ps == BY_ERR_UNSUPPORTED, "%s: a convolution no loop holds plans as %s", t->name,
             by_status_string(ps));
    BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "%s: by_conv runs without a path", t->name);
    return;
  }
  BM_OK(ps);
  printf("%s (%s): %lux%lux%lux%lu -> %lu, tiles %lu images x %lu rows x %lu och x %lu ich "
         "blocks, %s\n",
         t->name, names[path], (unsigned long)t->batch, (unsigned long)t->rows,
         (unsigned long)t->cols, (unsigned long)t->ich, (unsigned long)t->och,
         (unsigned long)plan.tile_batch, (unsigned long)plan.tile_rows,
         (unsigned long)plan.tile_och, (unsigned long)plan.tile_k, names[plan.path]);
  BM_CHECK(plan.path == runs && plan.loop == (runs == BY_CONV_LOOP), "%s: runs %s, expected %s",
           t->name, names[plan.path], names[runs]);
  BM_CHECK(runs != BY_CONV_LOOP || plan.dataflow == df, "%s: the loop runs dataflow %d, not %d",
           t->name, plan.dataflow, df);
  BM_CHECK(runs != BY_CONV_LOOP || plan.folded == by_conv_folds(&c),
           "%s: the loop %s the kernel columns", t->name, plan.folded ? "folds" : "does not fold");
  if (plan.folded)
    printf("  (kernel columns folded into the channels)\n");
  BM_CHECK(!t->dw || runs != BY_CONV_LOOP || plan.depthwise_mode == has_depthwise_mode(df),
           "%s: the depthwise loop %s the depthwise mode", t->name,
           plan.depthwise_mode ? "takes" : "does not take");
  if (plan.depthwise_mode)
    printf("  (depthwise mode: tiles of %lu channels)\n", (unsigned long)plan.tile_och * BY_DIM);
  bm_fill_zero(output, sizeof output);
  BM_OK(by_conv(&c));
  c.output = want;
  by_cpu_conv(&c);
  bm_compare(t->name, output, want, n);
}

/* The case through each loop the config has (TensorDash modes rotating on the OS loop; vector
 * PEs: weights packed by the caller every other run). */
static void run(const loop_case_t* t, int path, int runs) {
  static int rotation;
  const int dfs[] = {BY_DATAFLOW_WS, BY_DATAFLOW_OS};
  for (size_t i = 0; i < 2; ++i) {
    if (!has_loop(dfs[i]))
      continue;
    /* (B scheduling where the hardware has it, schedule_b; else A again) */
    const int td = dfs[i] == BY_DATAFLOW_OS && BY_TENSORDASH
                       ? (int[]){BY_TD_SCHEDULE_A,
                                 BY_TENSORDASH_SCHEDULE_B ? BY_TD_SCHEDULE_B : BY_TD_SCHEDULE_A,
                                 BY_TD_OFF}[rotation % 3]
                       : BY_TD_SCHEDULE_A;
    run_in(t, path, runs == BY_CONV_MATMUL && dfs[i] == BY_DATAFLOW_OS ? BY_CONV_LOOP : runs,
           dfs[i], td, BY_LANES != 1 && rotation % 2);
    ++rotation;
  }
}

/* Each loop directly: a 1x1 convolution of one DIM-channel image row (DIM pixels) with Gemmini's
 * set-up (weights lane-packed on vector PEs), then an illegal loop (no output rows): rejected
 * and counted with the loop's funct, and the next loop runs. */
static void direct(int df) {
  const size_t n = BY_DIM;
  const int os = df == BY_DATAFLOW_OS;
  bm_fill(input, n * n, -8, 7);
  bm_fill(weights, n * n, -8, 7);
  BM_OK(by_pack_conv_weights(1, n, n, weights, packed));
  by_config_ex(df, BY_ACT_NONE, 0, 1, 1);
  by_config_ld(0, n * sizeof(by_elem_t), 0, (uint32_t)n);
  by_config_ld(1, by_packed_b_cols(n) * sizeof(by_elem_t), 0, (uint32_t)n);
  by_config_ld(2, 0, 0, 0);
  by_config_st((uint32_t)(n * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  by_loop_conv_ws_t l = {0};
  l.in_row_dim = l.out_row_dim = l.pool_out_row_dim = 1;
  l.in_col_dim = l.out_col_dim = l.pool_out_col_dim = (uint32_t)n;
  l.in_channels = l.kchs = l.pochs = (uint32_t)n;
  l.stride = l.kernel_dim = l.krows = l.kcols = 1;
  l.batches = l.orows = 1;
  l.ocols = (uint32_t)n;
  l.in_stride = l.out_stride = (uint32_t)n;
  l.weight_stride = (uint32_t)by_packed_b_cols(n);
  l.weights = packed, l.input = input, l.output = output;
  l.no_pool = 1;
  const by_error_t before = by_error();
  by_loop_conv_ws_t bad = l;
  bad.orows = 0;
  if (os)
    by_loop_conv_os(&bad);
  else
    by_loop_conv_ws(&bad);
  by_fence();
  const by_error_t after = by_error();
  BM_CHECK(after.count == before.count + 1, "illegal loop: %u errors, expected %u",
           (unsigned)after.count, (unsigned)before.count + 1);
  BM_CHECK(after.code == BY_ERROR_BAD_SIZE &&
               after.funct == (os ? BY_FUNCT_LOOP_CONV_OS : BY_FUNCT_LOOP_CONV_WS),
           "illegal loop: error %u funct %u", (unsigned)after.code, (unsigned)after.funct);
  by_error_clear();

  bm_fill_zero(output, sizeof output);
  if (os)
    by_loop_conv_os(&l);
  else
    by_loop_conv_ws(&l);
  by_fence();
  for (size_t p = 0; p < n; ++p)
    for (size_t o = 0; o < n; ++o) {
      int64_t acc = 0;
      for (size_t i = 0; i < n; ++i)
        acc += (int64_t)input[p * n + i] * weights[i * n + o];
      want[p * n + o] = by_cpu_output(acc, 1.0f, BY_ACT_NONE);
    }
  bm_compare(os ? "by_loop_conv_os 1x1" : "by_loop_conv_ws 1x1", output, want, n * n);
  bm_expect_no_hw_error("the direct loop after the illegal loop");
}

int main(void) {
  bm_seed(5017, "loop_conv");
  const uint32_t features = by_hal_reg_read(BY_REG_HW_FEATURES);
  BM_CHECK(BY_REG_FIELD(HW_FEATURES, LOOP_CONV_WS, features) == BY_HAS_LOOP_CONV_WS,
           "HW_FEATURES.LOOP_CONV_WS is %u, the config says %d",
           (unsigned)BY_REG_FIELD(HW_FEATURES, LOOP_CONV_WS, features), BY_HAS_LOOP_CONV_WS);
  BM_CHECK(BY_REG_FIELD(HW_FEATURES, LOOP_CONV_OS, features) == BY_HAS_LOOP_CONV_OS,
           "HW_FEATURES.LOOP_CONV_OS is %u, the config says %d",
           (unsigned)BY_REG_FIELD(HW_FEATURES, LOOP_CONV_OS, features), BY_HAS_LOOP_CONV_OS);
  if (!has_loop(BY_DATAFLOW_WS) && !has_loop(BY_DATAFLOW_OS)) {
    printf("loop_conv: no convolution loop by_conv takes on this config, skipped\n");
    return bm_finish("loop_conv");
  }
  by_error_clear();
  /* name, batch, rows, cols, ich, och, kr, kc, stride, pad, dw, bias, relu, scale, pool size,
   * stride, pad, tiles: rows, och blocks, ich blocks, images; command path. */
  const loop_case_t cases[] = {
      {"3x3_pad1_bias", 1, 8, 8, 5, 6, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"s2_relu_images", 3, 11, 9, 9, 10, 3, 3, 2, 1, 0, 1, 1, 0.03125f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"1x1_no_bias", 2, 10, 10, 20, 18, 1, 1, 1, 0, 0, 0, 0, 0.25f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"1x1_stride2_relu", 2, 9, 9, 7, 5, 1, 1, 2, 0, 0, 1, 1, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"rect_kernel_pad2", 1, 9, 12, 4, 7, 2, 3, 1, 2, 0, 1, 0, 0.125f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"stride2_pad2_no_bias", 2, 7, 8, 6, 3, 3, 3, 2, 2, 0, 0, 1, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"pool_3s2p1_images", 2, 13, 11, 6, 5, 3, 3, 1, 1, 0, 1, 1, 0.0625f, 3, 2, 1, 0, 0, 0, 0, 0},
      {"pool_row_tiles", 1, 12, 12, 10, 9, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 2, 2, 0, 2, 0, 0, 0, 0},
      {"ich_tiles", 2, 9, 9, 37, 21, 3, 3, 1, 1, 0, 1, 1, 0.015625f, 0, 0, 0, 0, 0, 1, 0, 0},
      {"ich_tiles_no_bias", 1, 8, 7, 23, 9, 3, 3, 2, 1, 0, 0, 0, 0.03125f, 0, 0, 0, 0, 0, 2, 0, 0},
      {"ich_och_pool", 2, 10, 10, 13, 11, 3, 3, 1, 1, 0, 1, 1, 0.03125f, 3, 2, 1, 1, 1, 1, 0, 0},
      {"image_tiles", 3, 6, 6, 5, 6, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 0, 0, 0, 0, 0, 0, 2, 0},
      /* kept operands: a band's input window over its 3 out-channel tiles (bands alternate
       * halves); the weights over 4 bands */
      {"keeps_input", 1, 8, 7, 9, OCH3, 3, 3, 1, 1, 0, 1, 1, 0.03125f, 0, 0, 0, 3, 1, 0, 0, 0},
      {"keeps_weights", 2, 8, 8, 6, 7, 3, 3, 1, 1, 0, 1, 0, 0.0625f, 0, 0, 0, 2, 0, 0, 1, 0},
      /* two input-channel tiles (2 + 1 blocks) keep a window each, in the halves' first rows,
       * over 3 out-channel tiles and 3 bands (each band's windows swap halves) */
      {"keeps_two_windows", 1, 8, 7, ICH3, OCH3, 2, 2, 1, 1, 0, 1, 1,
       0.015625f,           0, 0, 0, 3,    1,    2, 0, 0},
      {"auto_split", 1, 12, 12, 24, 20, 3, 3, 1, 1, 0, 1, 1, 0.0078125f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"dw_3x3_images", 2, 9, 10, 7, 7, 3, 3, 1, 1, 1, 1, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"dw_rect_stride2", 1, 12, 9, 13, 13, 4, 2, 2, 1, 1, 1, 1, 0.25f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"dw_pool_no_bias", 1, 10, 10, 5, 5, 3, 3, 1, 1, 1, 0, 1, 0.25f, 2, 2, 0, 0, 0, 0, 0, 0},
      {"dw_row_tiles", 2, 11, 11, 9, 9, 3, 3, 1, 1, 1, 1, 0, 0.5f, 0, 0, 0, 2, 0, 0, 1, 0},
      /* channels over two scratchpad rows: one-block channel tiles (the last one partial), and
       * automatic tiles of two images, stride 2 */
      {"dw_ch_tiles", 1, 7, 9, DW_CH, DW_CH, 3, 3, 1, 1, 1, 1, 1, 0.25f, 0, 0, 0, 0, 1, 0, 0, 0},
      {"dw_s2_images", 2, 9, 8, DW_CH, DW_CH, 3, 3, 2, 1, 1, 0, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"pool_images_per_loop", 3, 6, 6, 3, 4, 3, 3, 1, 1, 0, 1, 1, 0.0625f, 2, 2, 0, 0, 0, 0, 0, 0},
      {"too_wide", 1, 3, 7 * WS + 3, 1, 2, 3, 3, WS, 0, 0, 1, 0, 0.25f, 0, 0, 0, 0, 0, 0, 0, 1},
      /* thin inputs: folded kernel columns where they fit one DIM x lanes block */
      {"thin_3x3_1ch", 1, 9, 10, 1, 5, 3, 3, 1, 1, 0, 1, 0, 0.25f, 0, 0, 0, 0, 0, 0, 0, 0},
      {"thin_5x5s2_rgb_pool",
       2,
       13,
       12,
       3,
       6,
       5,
       5,
       2,
       2,
       0,
       1,
       1,
       0.0625f,
       3,
       2,
       1,
       0,
       0,
       0,
       0,
       0},
      {"thin_7x7s2_rgb", 1, 18, 17, 3, 9, 7, 7, 2, 3, 0, 1, 1, 0.03125f, 0, 0, 0, 0, 0, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run(&cases[i], BY_CONV_LOOP, cases[i].commands ? BY_CONV_COMMANDS : BY_CONV_LOOP);
  run(&cases[8], BY_CONV_COMMANDS, BY_CONV_COMMANDS); /* the same convolution, A/B */
  /* The automatic choice (docs/driver.md, "Convolution paths"). */
  run(&cases[2], BY_CONV_AUTO, by_has_loop_ws() ? BY_CONV_MATMUL : BY_CONV_LOOP);
  run(&cases[3], BY_CONV_AUTO, BY_CONV_LOOP);
  run(&cases[0], BY_CONV_AUTO, BY_CONV_LOOP);
  bm_expect_no_hw_error("loop_conv");
  if (BY_HAS_LOOP_CONV_WS)
    direct(BY_DATAFLOW_WS);
  if (BY_HAS_LOOP_CONV_OS)
    direct(BY_DATAFLOW_OS);
  return bm_finish("loop_conv");
}
