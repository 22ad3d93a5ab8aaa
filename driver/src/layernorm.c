/* Layer normalization (brickyard/layers.h, by_layernorm). On the array, for each block of DIM
 * pixels (rows of the input):
 *   1. sums: the block times its own transpose leaves each pixel's sum of squares on the
 *      diagonal, and a row of ones times it each pixel's sum; both leave as acc_t rows;
 *   2. the host turns a pixel's two sums into its scale and its centering term D (while the
 *      array works on the block before);
 *   3. 64 x + D: D rows moved into the accumulator, the block times 64 I accumulated onto them,
 *      and each pixel's row leaves through its own MVOUT, with its own scale.
 * The host's share is a few dozen instructions per pixel, not per element. */
#include "brickyard/cpu.h"
#include "brickyard/layers.h"
#include "brickyard_isa.h"
#include "tile.h"

#include <math.h>

#define ONE BY_LAYERNORM_ONE

/* -round(ONE * s1 / c), halves rounded up. */
static int64_t centering(int64_t s1, int64_t c) {
  const int64_t n = 2 * ONE * s1 + c, d = 2 * c;
  int64_t q = n / d;
  if (n % d != 0 && n < 0)
    --q; /* floor, not truncation */
  return -q;
}

static float pixel_scale(int64_t s1, int64_t s2, int64_t c, double k, double e) {
  const double v = (double)(c * s2 - s1 * s1) + e; /* exact below 2^53: c <= 2^16 */
  return v > 0 ? (float)(k / sqrt(v)) : 0.0f;
}

static by_elem_t normalized(by_elem_t x, int64_t d, float scale, int lo, int hi) {
  const int64_t y = by_saturate(by_acc_scale((by_acc_t)(ONE * x + d), scale), (int)BY_INPUT_WIDTH);
  return (by_elem_t)(y < lo ? lo : y > hi ? hi : y);
}

static void layernorm_cpu(size_t pixels, size_t channels, const by_elem_t* input, by_elem_t* output,
                          double k, double e, int lo, int hi) {
  const int64_t c = (int64_t)channels;
  for (size_t p = 0; p < pixels; ++p) {
    const by_elem_t* x = input + p * channels;
    by_elem_t* y = output + p * channels;
    int64_t s1 = 0, s2 = 0;
    for (size_t j = 0; j < channels; ++j) {
      s1 += x[j];
      s2 += x[j] * x[j];
    }
    const float scale = pixel_scale(s1, s2, c, k, e);
    const int64_t d = centering(s1, c);
    for (size_t j = 0; j < channels; ++j)
      y[j] = normalized(x[j], d, scale, lo, hi);
  }
}

size_t by_layernorm_workspace_bytes(size_t pixels) {
  by_hw_t hw;
  by_hw_get(&hw);
  return by_plan_layernorm_workspace_bytes(&hw, pixels);
}

#if BY_LANES == 1

/* Local memory: the two constants, then the input blocks in the scratchpad; the sums, then the
 * output blocks in the accumulator. The input, sums and output areas are double-buffered where
 * the memories have room, so that a block's moves in overlap the MVOUTs of the block before (the
 * reservation station orders what shares rows). */
#define SP_ONES 0u
#define SP_EYE ((uint32_t)BY_DIM)
#define SP_X (2u * BY_DIM)

typedef struct {
  size_t pixels, channels, blocks, chunk; /* chunk: column blocks one pass holds */
  uint32_t buffers;                       /* 2: double-buffered, else 1 */
  const by_elem_t* x;
  by_acc_t* squares; /* DIM per pixel: a row of the block's products, later the D row */
  by_acc_t* sums;    /* one per pixel */
  float* scales;     /* one per pixel */
} ln_array_t;

static uint32_t block_cols(const ln_array_t* a, size_t b) {
  return by_block_size(a->channels, b);
}

/* Buffer `i`'s input blocks (scratchpad), sums and squares, and output blocks (accumulator). */
static uint32_t sp_x(const ln_array_t* a, uint32_t i) {
  return SP_X + i * (uint32_t)a->chunk * BY_DIM;
}
static uint32_t acc_sums(uint32_t i) {
  return i * 2u * BY_DIM;
}
static uint32_t acc_squares(uint32_t i) {
  return i * 2u * BY_DIM + BY_DIM;
}
static uint32_t acc_out(const ln_array_t* a, uint32_t i) {
  return a->buffers * 2u * BY_DIM + i * (uint32_t)a->chunk * BY_DIM;
}

/* Moves the pixels [r0, r0 + n) x column blocks [cb, cb + cnt) of the input to buffer i. */
static void move_in(const ln_array_t* a, uint32_t i, size_t r0, uint32_t n, size_t cb, size_t cnt) {
  const size_t col = cb * BY_DIM;
  const size_t cols = a->channels - col < cnt * BY_DIM ? a->channels - col : cnt * BY_DIM;
  by_mvin(0, a->x + r0 * a->channels + col, by_sp_addr(sp_x(a, i)), n, (uint32_t)cols);
}

/* Pass 1: per pixel the sum (a row of ones times the transposed block) and the sum of
 * squares (the block times its transpose, on the diagonal). */
static void sums_on_array(const ln_array_t* a) {
  by_config_ex_transpose(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 0, 1);
  by_config_st((uint32_t)(BY_DIM * sizeof(by_acc_t)), BY_ACT_NONE, 1.0f, 0);
  uint32_t xi = 0, si = 0; /* the input and the sums buffers in use */
  for (size_t r0 = 0; r0 < a->pixels; r0 += BY_DIM, si = (si + 1) % a->buffers) {
    const uint32_t n = by_block_size(a->pixels, r0 / BY_DIM);
    for (size_t cb = 0; cb < a->blocks; cb += a->chunk, xi = (xi + 1) % a->buffers) {
      const size_t cnt = a->blocks - cb < a->chunk ? a->blocks - cb : a->chunk;
      move_in(a, xi, r0, n, cb, cnt);
      for (size_t b = 0; b < cnt; ++b) {
        const uint32_t ks = block_cols(a, cb + b), xb = sp_x(a, xi) + (uint32_t)b * BY_DIM;
        const int acc = cb + b > 0;
        /* B = the block transposed (ks x n), stored as its n pixel rows. */
        by_preload(by_sp_addr(xb), ks, n, by_acc_addr(acc_squares(si), acc, 0), n, n);
        by_compute(1, by_sp_addr(xb), n, ks, BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
        by_preload(BY_GARBAGE_ADDR, BY_DIM, BY_DIM, by_acc_addr(acc_sums(si), acc, 0), 1, n);
        by_compute(0, by_sp_addr(SP_ONES), 1, ks, BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
      }
    }
    by_mvout(a->sums + r0, by_acc_addr(acc_sums(si), 0, 1), 1, n);
    by_mvout(a->squares + r0 * BY_DIM, by_acc_addr(acc_squares(si), 0, 1), n, n);
  }
}

/* The host's part for pixels [r0, r0 + n): each pixel's scale, and its centering term D over
 * a row of DIM. */
static void scales_on_host(const ln_array_t* a, size_t r0, uint32_t n, double k, double e) {
  const int64_t c = (int64_t)a->channels;
  for (size_t p = r0; p < r0 + n; ++p) {
    by_acc_t* row = a->squares + p * BY_DIM;
    const int64_t s1 = a->sums[p];
    a->scales[p] = pixel_scale(s1, row[p % BY_DIM], c, k, e);
    const by_acc_t d = (by_acc_t)centering(s1, c);
    for (size_t j = 0; j < BY_DIM; ++j)
      row[j] = d;
  }
}

/* Pass 2: D + 64 x in the accumulator, each pixel's row out with its scale. The host computes
 * a block's scales while the array works on the block before. */
static void normalize_on_array(const ln_array_t* a, by_elem_t* y, int act, double k, double e) {
  by_config_ex(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 1, 1);
  by_config_ld(2, BY_DIM * sizeof(by_acc_t), 0, 0);
  int first = 1;  /* 64 I stays in the array for the whole pass */
  uint32_t i = 0; /* the buffer in use */
  for (size_t r0 = 0; r0 < a->pixels; r0 += BY_DIM) {
    const uint32_t n = by_block_size(a->pixels, r0 / BY_DIM);
    scales_on_host(a, r0, n, k, e);
    for (size_t cb = 0; cb < a->blocks; cb += a->chunk, i = (i + 1) % a->buffers) {
      const size_t cnt = a->blocks - cb < a->chunk ? a->blocks - cb : a->chunk;
      move_in(a, i, r0, n, cb, cnt);
      uint32_t cols = 0;
      for (size_t b = 0; b < cnt; ++b) {
        const uint32_t ks = block_cols(a, cb + b), out = acc_out(a, i) + (uint32_t)b * BY_DIM;
        by_mvin(2, a->squares + r0 * BY_DIM, by_acc_addr(out, 0, 0), n, BY_DIM);
        by_preload(first ? by_sp_addr(SP_EYE) : BY_GARBAGE_ADDR, BY_DIM, BY_DIM,
                   by_acc_addr(out, 1, 0), n, ks);
        by_compute(first, by_sp_addr(sp_x(a, i) + (uint32_t)b * BY_DIM), n, ks, BY_GARBAGE_ADDR,
                   BY_DIM, BY_DIM);
        first = 0;
        cols += ks;
      }
      for (uint32_t r = 0; r < n; ++r) {
        by_config_st((uint32_t)a->channels, act, a->scales[r0 + r], 0);
        by_mvout(y + (r0 + r) * a->channels + cb * BY_DIM, by_acc_addr(acc_out(a, i) + r, 0, 0), 1,
                 cols);
      }
    }
  }
}

static by_status_t layernorm_array(size_t pixels, size_t channels, const by_elem_t* input,
                                   by_elem_t* output, double k, double e, int act,
                                   void* workspace) {
  const size_t rows = by_blocks(pixels) * BY_DIM;
  ln_array_t a;
  a.pixels = pixels;
  a.channels = channels;
  a.blocks = by_blocks(channels);
  /* A pass holds what one scaled MVOUT row moves and what the two memories leave, twice
   * where they have room (double buffering), else once. */
  size_t chunk = (size_t)BY_MAX_ACC_ELEM_COLS / BY_DIM;
  chunk = chunk < BY_MAX_BLOCK_LEN ? chunk : BY_MAX_BLOCK_LEN;
  a.buffers = 0;
  for (uint32_t buffers = 2; buffers >= 1 && !a.buffers; --buffers) {
    const size_t sp_room = ((size_t)BY_SP_ROWS - SP_X) / (buffers * BY_DIM);
    const size_t acc_fixed = (size_t)buffers * 2 * BY_DIM;
    const size_t acc_room =
        BY_ACC_ROWS > acc_fixed ? ((size_t)BY_ACC_ROWS - acc_fixed) / (buffers * BY_DIM) : 0;
    const size_t fits = sp_room < acc_room ? sp_room : acc_room;
    if (fits > 0) {
      a.buffers = buffers;
      chunk = chunk < fits ? chunk : fits;
    }
  }
  if (a.buffers == 0 || chunk == 0)
    return BY_ERR_UNSUPPORTED;
  a.chunk = chunk;
  a.x = input;
  a.squares = (by_acc_t*)workspace;
  a.sums = a.squares + rows * BY_DIM;
  a.scales = (float*)(a.sums + rows);
  by_elem_t* ones = (by_elem_t*)(a.scales + rows);
  by_elem_t* eye = ones + BY_DIM * BY_DIM;
  by_kernel_begin(); /* also: no earlier command still reads the workspace */
  for (size_t i = 0; i < BY_DIM * BY_DIM; ++i) {
    ones[i] = 1;
    eye[i] = (by_elem_t)(i % (BY_DIM + 1) == 0 ? ONE : 0);
  }
  by_config_ld(0, BY_DIM, 0, 0);
  by_mvin(0, ones, by_sp_addr(SP_ONES), BY_DIM, BY_DIM);
  by_mvin(0, eye, by_sp_addr(SP_EYE), BY_DIM, BY_DIM);
  by_config_ld(0, channels, 0, BY_DIM);
  sums_on_array(&a);
  by_status_t s = by_kernel_sync(); /* the sums are in DRAM */
  if (s != BY_OK) {
    (void)by_kernel_end();
    return s;
  }
  normalize_on_array(&a, output, act, k, e);
  return by_kernel_end();
}

#endif /* BY_LANES == 1 */

by_status_t by_layernorm(size_t pixels, size_t channels, const by_elem_t* input, by_elem_t* output,
                         double k, double e, int lo, int hi, void* workspace) {
  if (!input || !output || channels == 0 || channels > 65536 || lo > hi || !(e >= 0))
    return BY_ERR_ARG;
#if BY_LANES == 1
  by_hw_t hw;
  by_hw_get(&hw);
  if (by_plan_layernorm_on_array(&hw, lo, hi)) {
    if (!workspace || !by_dram_reachable(workspace, by_layernorm_workspace_bytes(pixels)) ||
        !by_dram_reachable(input, pixels * channels) ||
        !by_dram_reachable(output, pixels * channels))
      return BY_ERR_ARG;
    const int act = lo == 0 ? BY_ACT_RELU : BY_ACT_NONE;
    return layernorm_array(pixels, channels, input, output, k, e, act, workspace);
  }
#endif
  (void)workspace;
  const by_status_t s = by_drain(); /* the CPU reads what kernels wrote */
  if (s == BY_OK)
    layernorm_cpu(pixels, channels, input, output, k, e, lo, hi);
  return s;
}
