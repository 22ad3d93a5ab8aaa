/* Compressed activation tensors through the convolution loops (brickyard/boveda.h
 * by_boveda_tensor_t, by_conv_t's input_boveda / output_boveda; docs/isa.md "LOOP_CONV_WS",
 * compressed activations): a chain of convolutions whose intermediate tensors live compressed in
 * DRAM, each written by one convolution's loops and read by the next one's:
 *
 *   x (raw) -A: 3x3-> t1 -B: 1x1, two channel groups, out-channel tiles of one group-> t2
 *           t2 -C: 1x1, input-channel tiles of one group, max-pooled-> y1 (raw)
 *           t1 -D: 3x3 stride 2-> t3 -E: 1x1-> y2 (raw)
 *
 * Every compressed block is checked bit for bit against the suite's reference encoder (bm_ref.h)
 * over the CPU reference's values of that tensor (by_cpu_conv on raw tensors), and the raw outputs
 * against the CPU reference; the loops must have run every step, in each dataflow the config has a
 * convolution loop for (LOOP_CONV_OS on TensorDash configs, with vector PEs: groups of
 * MAX_BLOCK_LEN x DIM x lanes channels, weights packed by by_conv). Then what the driver refuses
 * (BY_ERR_UNSUPPORTED: the CPU, the command path, depthwise, a pooled compressed output, a
 * compressed input a window does not read in whole rows; BY_ERR_ARG: a tensor of the wrong shape
 * or a stream below the worst case). On a config without Boveda or without LOOP_CONV_WS every
 * compressed convolution is refused without a command. */
#include "bm_ref.h"
#include "bm_test.h"
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"

#define BATCH 2
#define ROWS 9
#define COLS 8
#define MAX_CH 512 /* room for two channel groups of the test configs */
#define MAX_T (BATCH * ROWS * COLS * MAX_CH)
#define MAX_W (9 * MAX_CH * 16)
#define STREAM_BYTES (2 * MAX_T + 65536)
#define TABLE_ENTRIES (BATCH * ROWS * 8)

static by_elem_t x[MAX_T], w[MAX_W], y_hw[MAX_T];
static by_acc_t bias[MAX_CH];
static by_elem_t workspace[MAX_W]; /* vector PEs: the weights by_conv packs */
static uint64_t streams[3][STREAM_BYTES / 8], tables[3][TABLE_ENTRIES];

/* One convolution of the chain: its shape (input batch x rows x cols x ich), kernel, stride,
 * padding, pooling, out channels and forced tiles. */
typedef struct {
  const char* name;
  size_t rows, cols, ich, och, k, stride, pad, pool;
  size_t tile_och, tile_k;
} step_t;

/* The loops by_conv runs a convolution through in dataflow df (as loop_conv.c). */
static int has_loop(int df) {
  return df == BY_DATAFLOW_OS ? by_has_loop_conv_os() && BY_SPATIAL_OUTPUT_WIDTH >= BY_ACC_WIDTH
                              : by_has_loop_conv_ws();
}

static int dataflow = BY_DATAFLOW_WS; /* the chain's loop */

static void setup(by_conv_t* c, const step_t* s, const by_elem_t* in, by_elem_t* out) {
  by_conv_init(c);
  c->batch = BATCH;
  c->in_rows = s->rows;
  c->in_cols = s->cols;
  c->in_ch = s->ich;
  c->out_ch = s->och;
  c->kernel_rows = c->kernel_cols = s->k;
  c->stride = s->stride;
  c->padding = s->pad;
  c->input = in;
  c->weights = w;
  c->bias = bias;
  c->output = out;
  c->activation = BY_ACT_RELU;
  c->scale = 1.0f / 64;
  if (s->pool)
    c->pool_size = 2, c->pool_stride = 2;
  c->tile_och = s->tile_och;
  c->tile_k = s->tile_k;
  c->dataflow = dataflow;
  c->workspace = workspace;
  c->workspace_bytes = sizeof workspace;
}

static by_boveda_tensor_t tensor(size_t rows, size_t cols, size_t ch, int i) {
  by_boveda_tensor_t t;
  t.batch = BATCH, t.rows = rows, t.cols = cols, t.channels = ch;
  t.stream = streams[i], t.stream_bytes = STREAM_BYTES, t.table = tables[i];
  return t;
}

#if BY_HAS_BOVEDA
static by_elem_t t_raw[3][MAX_T], y_cpu[MAX_T], block_vals[COLS * MAX_CH];
static uint8_t ref_block[2 * COLS * MAX_CH + 1024];

/* Every block of t against the reference encoder over raw (the CPU's values of the tensor):
 * entries back to back in the order the loops wrote them need not hold (tiles), so each block's
 * own containers are compared, and no block may exceed the worst case. Returns the used bytes. */
static size_t check_blocks(const char* what, const by_boveda_tensor_t* t, const by_elem_t* raw) {
  by_fence();
  const size_t groups = by_boveda_tensor_groups(t), G = by_boveda_tensor_group();
  const size_t cbytes = by_boveda_container_bytes();
  size_t bad = 0;
  for (size_t b = 0; b < t->batch; ++b)
    for (size_t y = 0; y < t->rows; ++y)
      for (size_t g = 0; g < groups; ++g) {
        const size_t c0 = g * G, n = t->channels - c0 < G ? t->channels - c0 : G;
        for (size_t px = 0; px < t->cols; ++px)
          for (size_t k = 0; k < n; ++k)
            block_vals[px * n + k] = raw[((b * t->rows + y) * t->cols + px) * t->channels + c0 + k];
        const size_t want = ref_boveda_encode(block_vals, t->cols * n, ref_block, sizeof ref_block);
        const by_boveda_entry_t e = by_boveda_entry_read(by_boveda_tensor_entry(t, b, y, g));
        const uint8_t* got = (const uint8_t*)t->stream + (size_t)e.first * cbytes;
        size_t diff = 0;
        for (size_t i = 0; e.count == want && i < want * cbytes; ++i)
          diff += got[i] != ref_block[i];
        if ((e.count != want || want == 0 || diff ||
             e.count > by_boveda_max_containers(t->cols * n)) &&
            bad++ < 5)
          printf("  %s block (%lu, %lu, %lu): %lu containers, want %lu, %lu bytes differ\n", what,
                 (unsigned long)b, (unsigned long)y, (unsigned long)g, (unsigned long)e.count,
                 (unsigned long)want, (unsigned long)diff);
      }
  BM_CHECK(bad == 0, "%s: %lu of %lu blocks differ from the reference encoder", what,
           (unsigned long)bad, (unsigned long)by_boveda_tensor_blocks(t));
  const size_t used = by_boveda_tensor_used_bytes(t);
  BM_CHECK(used <= by_boveda_tensor_stream_bytes(t), "%s: %lu bytes used, worst case %lu", what,
           (unsigned long)used, (unsigned long)by_boveda_tensor_stream_bytes(t));
  printf("%s: %lu raw bytes -> %lu compressed (worst case %lu)\n", what,
         (unsigned long)(t->batch * t->rows * t->cols * t->channels), (unsigned long)used,
         (unsigned long)by_boveda_tensor_stream_bytes(t));
  return used;
}

/* Runs step s on the accelerator (compressed input zin and/or output zout where given, else the
 * raw input `in` / into `out`) and on the CPU from the raw input into `want`; the loop must run
 * it. Returns the output's elements. */
static size_t run_step(const step_t* s, const by_elem_t* in, const by_boveda_tensor_t* zin,
                       by_elem_t* out, by_boveda_tensor_t* zout, by_elem_t* want) {
  by_conv_t c;
  setup(&c, s, in, want);
  bm_fill(w, s->k * s->k * s->ich * s->och, -20, 20);
  bm_fill_acc(bias, s->och, -300, 300);
  by_cpu_conv(&c);
  c.input = zin ? NULL : in;
  c.output = zout ? NULL : out;
  c.input_boveda = zin;
  c.output_boveda = zout;
  by_conv_plan_t plan = {0};
  BM_OK(by_conv_plan(&c, &plan));
  BM_CHECK(plan.loop, "%s: compressed activations off the loop path", s->name);
  printf("%s: tiles %lu rows x %lu och blocks x %lu k blocks\n", s->name,
         (unsigned long)plan.tile_rows, (unsigned long)plan.tile_och, (unsigned long)plan.tile_k);
  BM_OK(by_conv(&c));
  bm_expect_no_hw_error(s->name);
  return c.batch * by_conv_pool_rows(&c) * by_conv_pool_cols(&c) * c.out_ch;
}

static void refusals(const by_elem_t* t1_raw, size_t t1_ch) {
  by_boveda_tensor_t t1 = tensor(ROWS, COLS, t1_ch, 0), out = tensor(ROWS, COLS, t1_ch, 2);
  const step_t one = {"refusal", ROWS, COLS, t1_ch, t1_ch, 1, 1, 0, 0, 0, 0};
  by_conv_t c;
  setup(&c, &one, t1_raw, y_hw);
  c.input_boveda = &t1;
  c.on_cpu = 1;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "compressed input on the CPU accepted");
  c.on_cpu = 0;
  c.path = BY_CONV_COMMANDS;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "compressed input on the command path accepted");
  c.path = BY_CONV_AUTO;
  c.depthwise = 1;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "compressed input of a depthwise conv accepted");
  c.depthwise = 0;
  c.stride = 2; /* 1x1 stride 2 over an even width: the windows miss the last column */
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "compressed input read in part rows accepted");
  c.stride = 1;
  c.input_boveda = NULL;
  c.output_boveda = &out;
  c.pool_size = c.pool_stride = 2;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "pooled compressed output accepted");
  c.pool_size = c.pool_stride = 0;
  out.rows = ROWS + 1;
  BM_CHECK(by_conv(&c) == BY_ERR_ARG, "compressed output of the wrong shape accepted");
  out.rows = ROWS;
  out.stream_bytes = by_boveda_tensor_stream_bytes(&out) - 1;
  BM_CHECK(by_conv(&c) == BY_ERR_ARG, "stream below the worst case accepted");
  bm_expect_no_hw_error("refusals");
}

/* The chain and the refusals (Boveda with a convolution loop). */
static void run_chain(void) {
  printf("dataflow %s\n", dataflow == BY_DATAFLOW_OS ? "OS (LOOP_CONV_OS)" : "WS (LOOP_CONV_WS)");
  const size_t G = by_boveda_tensor_group();
  /* t1: few channels (one group); t2: two groups, the last partial. */
  const size_t c1 = 3 * BY_DIM, c2 = G + 2 * BY_DIM, half = (ROWS + 1) / 2, halfc = COLS / 2;
  const step_t A = {"A: 3x3 -> t1", ROWS, COLS, 2 * BY_DIM, c1, 3, 1, 1, 0, 0, 0};
  const step_t B = {"B: t1 1x1 -> t2", ROWS, COLS, c1, c2, 1, 1, 0, 0, G / BY_DIM, 0};
  const step_t C = {"C: t2 1x1 pooled -> y1", ROWS, COLS, c2, 2 * BY_DIM, 1, 1, 0, 1, 0,
                    G / (BY_DIM * BY_LANES)};
  const step_t D = {"D: t1 3x3/2 -> t3", ROWS, COLS, c1, c1, 3, 2, 1, 0, 0, 0};
  const step_t E = {"E: t3 1x1 -> y2", half, halfc, c1, BY_DIM + 1, 1, 1, 0, 0, 0, 0};
  bm_fill(x, BATCH * ROWS * COLS * A.ich, -40, 40);
  by_boveda_tensor_t t1 = tensor(ROWS, COLS, c1, 0), t2 = tensor(ROWS, COLS, c2, 1);
  by_boveda_tensor_t t3 = tensor(half, halfc, c1, 2);
  BM_CHECK(by_boveda_tensor_table_bytes(&t2) <= sizeof tables[1], "table buffer too small");
  const uint64_t r0 = by_perf_read(BY_REG_DMA_READ_BYTES_LO);
  run_step(&A, x, NULL, NULL, &t1, t_raw[0]);
  size_t used = check_blocks("t1", &t1, t_raw[0]);
  run_step(&B, t_raw[0], &t1, NULL, &t2, t_raw[1]);
  used += check_blocks("t2", &t2, t_raw[1]);
  size_t n = run_step(&C, t_raw[1], &t2, y_hw, NULL, y_cpu);
  bm_compare("y1 vs CPU", y_hw, y_cpu, n);
  run_step(&D, t_raw[0], &t1, NULL, &t3, t_raw[2]);
  used += check_blocks("t3", &t3, t_raw[2]);
  bm_fill_zero(y_hw, sizeof y_hw);
  n = run_step(&E, t_raw[2], &t3, y_hw, NULL, y_cpu);
  bm_compare("y2 vs CPU", y_hw, y_cpu, n);
  by_fence();
  printf("chain: %lu compressed bytes for %lu raw, %lu DMA bytes read\n", (unsigned long)used,
         (unsigned long)(BATCH * (ROWS * COLS * (c1 + c2) + half * halfc * c1)),
         (unsigned long)(by_perf_read(BY_REG_DMA_READ_BYTES_LO) - r0));
  refusals(t_raw[0], c1);
}
#endif

int main(void) {
  bm_seed(7001, "boveda_conv_chain");
  by_error_clear();
  if (BY_HAS_BOVEDA && (has_loop(BY_DATAFLOW_WS) || has_loop(BY_DATAFLOW_OS))) {
#if BY_HAS_BOVEDA
    const int dataflows[] = {BY_DATAFLOW_WS, BY_DATAFLOW_OS};
    for (size_t i = 0; i < 2; ++i)
      if (has_loop(dataflow = dataflows[i]))
        run_chain();
#endif
    return bm_finish("boveda_conv_chain");
  }
  /* Without Boveda or a convolution loop: refused before any command. */
  const step_t A = {"A", ROWS, COLS, 2 * BY_DIM, 3 * BY_DIM, 3, 1, 1, 0, 0, 0};
  by_boveda_tensor_t t1 = tensor(ROWS, COLS, A.och, 0);
  by_conv_t c;
  setup(&c, &A, x, y_hw);
  c.output_boveda = &t1;
  BM_CHECK(by_conv(&c) == BY_ERR_UNSUPPORTED, "compressed output without %s accepted",
           BY_HAS_BOVEDA ? "a convolution loop" : "Boveda");
  BM_CHECK(BY_HAS_BOVEDA ||
               (by_boveda_tensor_group() == 0 && by_boveda_tensor_stream_bytes(&t1) == 0),
           "sizes without Boveda");
  bm_expect_no_hw_error("refused");
  return bm_finish("boveda_conv_chain");
}
