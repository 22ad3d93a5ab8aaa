/* Convolution (brickyard/kernels.h) as an implicit-im2col matmul on the WS array: output
 * pixels are the rows of C, (kernel tap, input-channel block) pairs the K blocks, output
 * channels the N blocks. The A block of one tap is gathered straight from the NHWC input with
 * strided mvins (DRAM stride = conv stride x channels): one mvin per run of output pixels
 * that lie in one output row and read real input, zero-fill mvins (DRAM address 0) for runs
 * in the padding. No im2col buffer is needed.
 *
 * Tiles are bands of output rows (of pooled rows with pooling) x out-channel blocks x K
 * blocks. The C tile holds, per out-channel block, the band's conv pixels row after row, which
 * is the image layout the pooled MVOUT reads, so max-pooling happens on the way out.
 *
 * Depthwise: each channel block is its own pass with N = 1 block; its weights for one tap are
 * the DIM x DIM diagonal matrix diag(w[c][kr][kc]), built once by the CPU in the workspace.
 *
 * With LOOP_CONV_WS or LOOP_CONV_OS the same convolution runs as one loop per tile
 * (conv_loop.c); vector PEs (lanes > 1) have only the loops, with lane-packed weights.
 *
 * A dense 1x1 convolution with stride 1 and no padding or pooling is a matmul of the NHWC
 * input (pixels x input channels) by the weights: with LOOP_WS it runs as one (by_matmul),
 * whose A blocks are DIM pixels from any rows. conv_path picks the path (docs/driver.md,
 * "Convolution paths"). */
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"
#include "conv_geom.h"

void by_conv_init(by_conv_t* c) {
  const by_conv_t zero = {0};
  *c = zero;
  c->scale = 1.0f;
  c->stride = 1;
  c->dataflow = BY_DATAFLOW_AUTO;
}

size_t by_conv_stride_cols(const by_conv_t* c) {
  return c->stride_cols ? c->stride_cols : c->stride;
}
size_t by_conv_pad_top(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_top : c->padding;
}
size_t by_conv_pad_left(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_left : c->padding;
}
size_t by_conv_pad_bottom(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_bottom : c->padding;
}
size_t by_conv_pad_right(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_right : c->padding;
}
size_t by_conv_out_rows(const by_conv_t* c) {
  return (c->in_rows + by_conv_pad_top(c) + by_conv_pad_bottom(c) - c->kernel_rows) / c->stride + 1;
}
size_t by_conv_out_cols(const by_conv_t* c) {
  return (c->in_cols + by_conv_pad_left(c) + by_conv_pad_right(c) - c->kernel_cols) /
             by_conv_stride_cols(c) +
         1;
}
size_t by_conv_pool_rows(const by_conv_t* c) {
  const size_t o = by_conv_out_rows(c);
  return c->pool_stride ? (o + 2 * c->pool_padding - c->pool_size) / c->pool_stride + 1 : o;
}
size_t by_conv_pool_cols(const by_conv_t* c) {
  const size_t o = by_conv_out_cols(c);
  return c->pool_stride ? (o + 2 * c->pool_padding - c->pool_size) / c->pool_stride + 1 : o;
}
size_t by_conv_packed_weight_elems(size_t taps, size_t in_ch, size_t out_ch) {
  return taps * by_packed_b_rows(in_ch) * by_packed_b_cols(out_ch);
}

by_status_t by_pack_conv_weights(size_t taps, size_t in_ch, size_t out_ch, const by_elem_t* weights,
                                 by_elem_t* packed) {
  if (!weights || !packed || taps == 0 || in_ch == 0 || out_ch == 0)
    return BY_ERR_ARG;
  const size_t tap_in = in_ch * out_ch,
               tap_out = by_packed_b_rows(in_ch) * by_packed_b_cols(out_ch);
  for (size_t t = 0; t < taps; ++t) {
    const by_status_t s = by_pack_b(in_ch, out_ch, weights + t * tap_in, out_ch, 0,
                                    packed + t * tap_out, by_packed_b_cols(out_ch));
    if (s != BY_OK)
      return s;
  }
  return BY_OK;
}

/* Folding needs the loops, one stride, the pads of a row within one move, and an image row
 * within a quarter of the scratchpad (the padded copy stages rows in both halves). A WS pass
 * then sums a kernel row's products instead of a tap's: folding only where no such sum can
 * wrap at the spatial output width, so that the arithmetic is the unfolded one. */
int by_conv_folds(const by_conv_t* c) {
  const size_t pads = by_conv_pad_left(c) + by_conv_pad_right(c);
  const uint64_t largest = (uint64_t)c->kernel_cols * c->in_ch << (2 * BY_INPUT_WIDTH - 2);
  return (BY_HAS_LOOP_CONV_WS || BY_HAS_LOOP_CONV_OS) && !c->depthwise && !c->weights_boveda &&
         c->kernel_cols > 1 && c->kernel_cols * c->in_ch <= BY_KB &&
         largest < (UINT64_C(1) << (BY_SPATIAL_OUTPUT_WIDTH - 1)) &&
         by_conv_stride_cols(c) == c->stride && pads * c->in_ch <= BY_MAX_BLOCK_LEN * BY_KB &&
         (c->in_cols * c->in_ch + BY_KB - 1) / BY_KB <= BY_SP_HALF / 2;
}

/* Vector PEs with weights the caller did not pack, or packed per (kernel row, column) tap where
 * the loops fold the columns: by_conv packs them into the workspace. With one lane packing is the
 * identity, and the folded layout [kr][kc x in_ch][out_ch] is Gemmini's. */
static int packs_weights(const by_conv_t* c) {
  return BY_LANES != 1 && !c->depthwise && !c->weights_boveda &&
         (!c->weights_packed || by_conv_folds(c));
}

const by_elem_t* by_conv_packed_weights(const by_conv_t* c) {
  return packs_weights(c) ? (const by_elem_t*)c->workspace : c->weights;
}

/* Depthwise: one lane-packed DIM x DIM diagonal weight block per (channel block, tap) (with one
 * lane DIM x DIM elements); dense weights packed by by_conv: the packed weights. */
size_t by_conv_diagonal_block_elems(void) {
  return by_packed_b_rows(BY_DIM) * by_packed_b_cols(BY_DIM);
}
#define diagonal_block_elems by_conv_diagonal_block_elems
/* The workspace: the depthwise diagonals; or the packed weights (folded: per kernel row) and,
 * 64-byte aligned after them, a folded convolution's horizontally padded input. */
static size_t packed_weight_elems(const by_conv_t* c) {
  if (!packs_weights(c))
    return 0;
  return by_conv_folds(c)
             ? by_conv_packed_weight_elems(c->kernel_rows, c->kernel_cols * c->in_ch, c->out_ch)
             : by_conv_packed_weight_elems(c->kernel_rows * c->kernel_cols, c->in_ch, c->out_ch);
}
static size_t padded_input_offset(const by_conv_t* c) {
  return (packed_weight_elems(c) * sizeof(by_elem_t) + 63) / 64 * 64 / sizeof(by_elem_t);
}
static size_t padded_input_elems(const by_conv_t* c) {
  const size_t pads = by_conv_pad_left(c) + by_conv_pad_right(c);
  return by_conv_folds(c) && pads ? c->batch * c->in_rows * (c->in_cols + pads) * c->in_ch : 0;
}
static size_t conv_workspace_elems(const by_conv_t* c) {
  if (c->depthwise)
    return by_blocks(c->in_ch) * c->kernel_rows * c->kernel_cols * diagonal_block_elems();
  const size_t padded = padded_input_elems(c);
  return padded ? padded_input_offset(c) + padded : packed_weight_elems(c);
}

by_elem_t* by_conv_padded_input(const by_conv_t* c) {
  return padded_input_elems(c) ? (by_elem_t*)c->workspace + padded_input_offset(c) : 0;
}

/* The weights by_conv packs (packs_weights): per tap, or with the columns folded per kernel row
 * (channel kc x in_ch + i of row kr is weight (kr, kc, i)). */
static void pack_weights(const by_conv_t* c) {
  by_elem_t* out = (by_elem_t*)c->workspace;
  if (!by_conv_folds(c)) {
    (void)by_pack_conv_weights(c->kernel_rows * c->kernel_cols, c->in_ch, c->out_ch, c->weights,
                               out);
    return;
  }
  const size_t ch = c->kernel_cols * c->in_ch, rows = by_packed_b_rows(ch);
  const size_t cols = by_packed_b_cols(c->out_ch);
  for (size_t kr = 0; kr < c->kernel_rows; ++kr)
    for (size_t p = 0; p < rows; ++p)
      for (size_t o = 0; o < c->out_ch; ++o)
        for (size_t l = 0; l < BY_LANES; ++l) {
          const size_t k = p * BY_LANES + l;
          out[(kr * rows + p) * cols + o * BY_LANES + l] =
              k < ch ? by_conv_weight_at(c, kr * c->kernel_cols + k / c->in_ch, k % c->in_ch, o)
                     : 0;
        }
}
size_t by_conv_workspace_bytes(const by_conv_t* c) {
  return conv_workspace_elems(c) * sizeof(by_elem_t);
}

void by_conv_geom(const by_conv_t* c, conv_geom_t* g) {
  g->c = c;
  g->orows = by_conv_out_rows(c);
  g->ocols = by_conv_out_cols(c);
  g->prows = by_conv_pool_rows(c);
  g->pcols = by_conv_pool_cols(c);
  g->psize = c->pool_stride ? c->pool_size : 1;
  g->pstride = c->pool_stride ? c->pool_stride : 1;
  g->ppad = c->pool_stride ? c->pool_padding : 0;
  g->taps = c->kernel_rows * c->kernel_cols;
  g->cblocks = (c->in_ch + BY_KB - 1) / BY_KB; /* a scratchpad row of channels (lanes: DIM x L) */
  g->kblocks = c->depthwise ? g->taps : g->taps * g->cblocks;
  g->nblocks = c->depthwise ? 1 : by_blocks(c->out_ch);
  g->folded = by_conv_folds(c);
  const size_t pl = by_conv_pad_left(c), pr = by_conv_pad_right(c);
  g->loop_taps = g->folded ? c->kernel_rows : g->taps;
  g->loop_kcols = g->folded ? 1 : c->kernel_cols;
  g->loop_ch = g->folded ? c->kernel_cols * c->in_ch : c->in_ch;
  g->loop_cols = g->folded ? c->in_cols + pl + pr : c->in_cols;
  g->loop_pad_left = g->folded ? 0 : pl;
  g->loop_pad_right = g->folded ? 0 : pr;
}

/* Conv rows [*r0, *r1) that pooled rows [p0, p1) read. */
void by_conv_band_rows(const conv_geom_t* g, size_t p0, size_t p1, size_t* r0, size_t* r1) {
  const long lo = (long)(p0 * g->pstride) - (long)g->ppad;
  const long hi = (long)((p1 - 1) * g->pstride + g->psize) - (long)g->ppad;
  *r0 = lo < 0 ? 0 : (size_t)lo;
  *r1 = hi > (long)g->orows ? g->orows : (size_t)hi;
}

static size_t band_blocks(const conv_geom_t* g, size_t rows_pooled) {
  const size_t conv_rows = (rows_pooled - 1) * g->pstride + g->psize;
  return by_blocks((conv_rows < g->orows ? conv_rows : g->orows) * g->ocols);
}

size_t by_conv_boveda_rows(const by_conv_t* c) {
  return c->kernel_rows * c->kernel_cols * by_blocks(c->in_ch) * BY_DIM;
}

/* Out-channel blocks per compressed weight block (1 without compressed weights). */
static size_t och_group(const by_conv_t* c) {
  return c->weights_boveda ? by_boveda_matrix_block_cols(c->weights_boveda) / BY_DIM : 1;
}

static int conv_fits(const conv_geom_t* g, size_t rows, size_t tn, size_t tk) {
  const size_t mt = band_blocks(g, rows);
  const size_t conv_rows = (rows - 1) * g->pstride + g->psize;
  if (g->c->pool_stride && (conv_rows > POOL_DIM_MAX || rows > POOL_DIM_MAX))
    return 0;
  return tn * mt * BY_DIM <= BY_ACC_HALF && (mt * tk + tk * tn) * BY_DIM <= BY_SP_HALF;
}

typedef struct {
  size_t rows, tn, tk;
} conv_tiles_t;

/* Automatic tiles: all out-channel and K blocks if they fit, as many rows as fit; otherwise
 * fewer K blocks, then fewer out-channel blocks (halving), one band row at least. */
static by_status_t conv_tiles(const conv_geom_t* g, conv_tiles_t* t) {
  const by_conv_t* c = g->c;
  if (c->tile_rows || c->tile_och || c->tile_k) {
    t->rows = c->tile_rows ? c->tile_rows : 1;
    t->tn = c->tile_och ? c->tile_och : g->nblocks;
    t->tk = c->tile_k ? c->tile_k : g->kblocks;
    if (t->rows > g->prows)
      t->rows = g->prows;
    if (t->tn > g->nblocks)
      t->tn = g->nblocks;
    if (t->tk > g->kblocks)
      t->tk = g->kblocks;
    if (t->tn != g->nblocks && t->tn % och_group(c) != 0)
      return BY_ERR_ARG; /* a tile would split a compressed weight block */
    return conv_fits(g, t->rows, t->tn, t->tk) ? BY_OK : BY_ERR_ARG;
  }
  const size_t group = och_group(c);
  for (t->tn = g->nblocks; t->tn >= 1; t->tn = (t->tn + 1) / 2) {
    if (t->tn != g->nblocks && t->tn % group != 0)
      continue;
    for (t->tk = g->kblocks; t->tk >= 1; t->tk = (t->tk + 1) / 2) {
      if (conv_fits(g, 1, t->tn, t->tk)) {
        t->rows = 1;
        while (t->rows < g->prows && conv_fits(g, t->rows + 1, t->tn, t->tk))
          ++t->rows;
        return BY_OK;
      }
      if (t->tk == 1)
        break;
    }
    if (t->tn == 1)
      break;
  }
  return BY_ERR_ARG; /* one output row does not fit in half the accumulator */
}

static by_status_t check_conv(const by_conv_t* c, const conv_geom_t* g) {
  if (!c->input || !c->output || c->batch == 0 || c->in_rows == 0 || c->in_cols == 0 ||
      c->in_ch == 0 || c->out_ch == 0 || c->kernel_rows == 0 || c->kernel_cols == 0 ||
      c->stride == 0)
    return BY_ERR_ARG;
  if ((c->depthwise && c->out_ch != c->in_ch) || c->path < BY_CONV_AUTO || c->path > BY_CONV_MATMUL)
    return BY_ERR_ARG;
  if (c->kernel_rows > c->in_rows + by_conv_pad_top(c) + by_conv_pad_bottom(c) ||
      c->kernel_cols > c->in_cols + by_conv_pad_left(c) + by_conv_pad_right(c))
    return BY_ERR_ARG;
  if (c->pool_stride && (c->pool_size == 0 || c->pool_size > g->orows + 2 * c->pool_padding ||
                         c->pool_size > g->ocols + 2 * c->pool_padding))
    return BY_ERR_ARG;
  if (c->weights_boveda) {
    if (c->on_cpu || !BY_HAS_BOVEDA)
      return BY_ERR_UNSUPPORTED;
    if (c->depthwise || c->weights_boveda->rows != by_conv_boveda_rows(c) ||
        c->weights_boveda->cols != c->out_ch)
      return BY_ERR_ARG;
    const by_status_t s = by_boveda_matrix_check_read(c->weights_boveda);
    if (s != BY_OK)
      return s;
  } else if (!c->weights) {
    return BY_ERR_ARG;
  }
  const size_t in_bytes = c->batch * c->in_rows * c->in_cols * c->in_ch * sizeof(by_elem_t);
  const size_t w_bytes = (c->depthwise ? c->in_ch * g->taps
                          : BY_LANES != 1 && c->weights_packed
                              ? by_conv_packed_weight_elems(g->taps, c->in_ch, c->out_ch)
                              : g->taps * c->in_ch * c->out_ch) *
                         sizeof(by_elem_t);
  const size_t out_bytes = c->batch * g->prows * g->pcols * c->out_ch * sizeof(by_elem_t);
  if (!by_dram_reachable(c->input, in_bytes) ||
      (!c->weights_boveda && !by_dram_reachable(c->weights, w_bytes)) ||
      !by_dram_reachable(c->output, out_bytes) ||
      (c->bias && !by_dram_reachable(c->bias, c->out_ch * sizeof(by_acc_t))))
    return BY_ERR_ADDR;
  if (c->depthwise || packs_weights(c) || padded_input_elems(c)) {
    const size_t need = by_conv_workspace_bytes(c);
    if (!c->workspace || c->workspace_bytes < need)
      return BY_ERR_WORKSPACE;
    if (!by_dram_reachable(c->workspace, need))
      return BY_ERR_ADDR;
  }
  return BY_OK;
}

/* Hardware limits that the CPU fallback does not have. */
static by_status_t check_hardware(const by_conv_t* c, const conv_geom_t* g) {
  if (c->dataflow != BY_DATAFLOW_AUTO && c->dataflow != BY_DATAFLOW_WS &&
      c->dataflow != BY_DATAFLOW_OS)
    return BY_ERR_ARG;
  if (c->tensordash != BY_TD_SCHEDULE_A && c->tensordash != BY_TD_SCHEDULE_B &&
      c->tensordash != BY_TD_OFF)
    return BY_ERR_ARG;
  if (c->tensordash == BY_TD_SCHEDULE_B && !BY_TENSORDASH_SCHEDULE_B)
    return BY_ERR_UNSUPPORTED;
  if (c->pool_stride &&
      (c->pool_size > POOL_SMALL_MAX || c->pool_stride > POOL_SMALL_MAX ||
       c->pool_padding > POOL_SMALL_MAX || g->ocols > POOL_DIM_MAX || g->pcols > POOL_DIM_MAX))
    return BY_ERR_UNSUPPORTED;
  return BY_OK;
}

/* Loads into A rows local.. the input of tap (kr, kc), channels [ch0, ch0 + nch), for the
 * band pixels [p, p_end) (all in conv row y, columns x..), one row per pixel. */
static void gather_run(const conv_geom_t* g, size_t b, size_t y, size_t x, size_t n, size_t kr,
                       size_t kc, size_t ch0, size_t nch, uint32_t local) {
  const by_conv_t* c = g->c;
  const size_t pt = by_conv_pad_top(c), pl = by_conv_pad_left(c), sc = by_conv_stride_cols(c);
  const long irow = (long)(y * c->stride + kr) - (long)pt;
  const size_t group = BY_MAX_BLOCK_LEN * BY_DIM; /* channels per mvin */
  /* Output columns whose input column is inside the image: [xlo, xhi). */
  size_t xlo = 0, xhi = 0;
  if (irow >= 0 && irow < (long)c->in_rows) {
    xlo = pl > kc ? (pl - kc + sc - 1) / sc : 0;
    const long last = (long)c->in_cols - 1 + (long)pl - (long)kc;
    xhi = last < 0 ? 0 : (size_t)last / sc + 1;
  }
  const size_t x_end = x + n;
  const size_t a = xlo > x ? (xlo < x_end ? xlo : x_end) : x; /* first real column */
  const size_t e = xhi < x_end ? (xhi > a ? xhi : a) : x_end; /* end of real columns */
  for (size_t q = 0; q < nch; q += group) {
    const uint32_t cols = (uint32_t)(nch - q < group ? nch - q : group);
    const uint32_t off = (uint32_t)(q / BY_DIM) * BY_DIM; /* block q/DIM of this run */
    if (a > x)
      by_mvin(0, 0, by_sp_addr(local + off), (uint32_t)(a - x), cols);
    if (e > a) {
      const size_t icol = a * sc + kc - pl;
      const by_elem_t* src =
          c->input + ((b * c->in_rows + (size_t)irow) * c->in_cols + icol) * c->in_ch + ch0 + q;
      by_mvin(0, src, by_sp_addr(local + off + (uint32_t)(a - x)), (uint32_t)(e - a), cols);
    }
    if (x_end > e)
      by_mvin(0, 0, by_sp_addr(local + off + (uint32_t)(e - x)), (uint32_t)(x_end - e), cols);
  }
}

/* Gathers the A blocks (m, k_local) for all m of the band: tap (kr, kc), channels
 * [ch0, ch0 + nch) (one or more channel blocks, DIM rows apart). */
static void gather(const conv_geom_t* g, size_t b, size_t r0, size_t pixels, uint32_t mt,
                   uint32_t kt, uint32_t a_base, uint32_t k_local, size_t kr, size_t kc, size_t ch0,
                   size_t nch) {
  for (uint32_t m = 0; m < mt; ++m) {
    const size_t p_start = (size_t)m * BY_DIM;
    const size_t p_end = p_start + BY_DIM < pixels ? p_start + BY_DIM : pixels;
    const uint32_t block = a_base + (m * kt + k_local) * BY_DIM;
    for (size_t p = p_start; p < p_end;) {
      const size_t y = r0 + p / g->ocols, x = p % g->ocols;
      const size_t n = g->ocols - x < p_end - p ? g->ocols - x : p_end - p;
      gather_run(g, b, y, x, n, kr, kc, ch0, nch, block + (uint32_t)(p - p_start));
      p += n;
    }
  }
}

typedef struct {
  const conv_geom_t* g;
  size_t k0;  /* first K block of the tile */
  size_t nch; /* depthwise: channels of the pass */
} conv_k_t;

static uint32_t conv_k_size(const void* ctx, uint32_t k) {
  const conv_k_t* ck = (const conv_k_t*)ctx;
  if (ck->g->c->depthwise)
    return (uint32_t)ck->nch;
  return by_block_size(ck->g->c->in_ch, (ck->k0 + k) % ck->g->cblocks);
}

/* Diagonal weight blocks for the depthwise passes: block (cb, tap) at
 * ws + (cb * taps + tap) * diagonal_block_elems(), lane-packed (with one lane: DIM x DIM). */
static void build_diagonals(const conv_geom_t* g) {
  const by_conv_t* c = g->c;
  by_elem_t* ws = (by_elem_t*)c->workspace;
  const size_t n = conv_workspace_elems(c);
  for (size_t i = 0; i < n; ++i)
    ws[i] = 0;
  for (size_t ch = 0; ch < c->in_ch; ++ch)
    for (size_t t = 0; t < g->taps; ++t) {
      const size_t cb = ch / BY_DIM, e = ch % BY_DIM;
      /* Row e and column e of the block's B, in its packed form. */
      ws[(cb * g->taps + t) * diagonal_block_elems() + e / BY_LANES * by_packed_b_cols(BY_DIM) +
         e * BY_LANES + e % BY_LANES] = c->weights[ch * g->taps + t];
    }
}

/* CONFIG_ST pooling for the band of pooled rows [p0, p1), conv rows [r0, r1): the band's first
 * pooled row starts upad rows above its first conv row. */
void by_conv_config_band_pool(const conv_geom_t* g, size_t p0, size_t p1, size_t r0, size_t r1) {
  const by_conv_t* c = g->c;
  const by_pool_t pool = {
      (uint32_t)c->pool_stride, (uint32_t)c->pool_size, (uint32_t)(r0 + g->ppad - p0 * g->pstride),
      (uint32_t)g->ppad,        (uint32_t)g->pcols,     (uint32_t)(p1 - p0),
      (uint32_t)g->pcols,       (uint32_t)(r1 - r0),    (uint32_t)g->ocols};
  by_config_st((uint32_t)(c->out_ch * sizeof(by_elem_t)), c->activation, c->scale, &pool);
}

/* One band x out-channel tile: bias, K tiles (weights, gathered input, compute), mvout. */
static void conv_tile(const conv_geom_t* g, const conv_tiles_t* tl, size_t b, size_t p0, size_t p1,
                      size_t n0, uint32_t nt, size_t pass_ch0, unsigned* c_tiles,
                      unsigned* ab_tiles) {
  const by_conv_t* c = g->c;
  size_t r0, r1;
  by_conv_band_rows(g, p0, p1, &r0, &r1);
  const size_t pixels = (r1 - r0) * g->ocols;
  const uint32_t mt = (uint32_t)by_blocks(pixels);
  const uint32_t c_base = (*c_tiles & 1u) * BY_ACC_HALF;
  ++*c_tiles;
  const size_t pass_nch = c->depthwise ? by_block_size(c->in_ch, pass_ch0 / BY_DIM) : 0;
  /* Output channel of N block n, and its width. */
#define OCH(n) (c->depthwise ? pass_ch0 : (n0 + (n)) * BY_DIM)
#define OCH_N(n) (c->depthwise ? (uint32_t)pass_nch : by_block_size(c->out_ch, n0 + (n)))

  if (c->bias)
    for (uint32_t n = 0; n < nt; ++n) /* stride 0: the same bias row for every pixel */
      by_mvin(2, c->bias + OCH(n), by_acc_addr(c_base + n * mt * BY_DIM, 0, 0), (uint32_t)pixels,
              OCH_N(n));

  for (size_t k0 = 0; k0 < g->kblocks; k0 += tl->tk) {
    const uint32_t kt = (uint32_t)(g->kblocks - k0 < tl->tk ? g->kblocks - k0 : tl->tk);
    const uint32_t a_base = (*ab_tiles & 1u) * BY_SP_HALF;
    const uint32_t b_base = a_base + mt * kt * BY_DIM;
    ++*ab_tiles;
    for (uint32_t k = 0; k < kt;) {
      const size_t kg = k0 + k;
      if (c->depthwise) {
        const size_t tap = kg;
        by_mvin(1,
                (const by_elem_t*)c->workspace +
                    ((pass_ch0 / BY_DIM) * g->taps + tap) * diagonal_block_elems(),
                by_sp_addr(b_base + k * nt * BY_DIM), (uint32_t)pass_nch, (uint32_t)pass_nch);
        gather(g, b, r0, pixels, mt, kt, a_base, k, tap / c->kernel_cols, tap % c->kernel_cols,
               pass_ch0, pass_nch);
        ++k;
        continue;
      }
      /* Dense: the K blocks of one tap in this tile share one gather. */
      const size_t tap = kg / g->cblocks, cb0 = kg % g->cblocks;
      uint32_t nblk = (uint32_t)(g->cblocks - cb0);
      if (nblk > kt - k)
        nblk = kt - k;
      for (uint32_t q = 0; q < nblk; ++q) {
        if (c->weights_boveda) {
          /* One compressed block per (tap, channel block, out-channel group). */
          const by_boveda_matrix_t* wb = c->weights_boveda;
          const size_t group = och_group(c);
          for (uint32_t n = 0; n < nt; n += (uint32_t)group) {
            const size_t cb = (n0 + n) / group;
            const uint32_t cols =
                (uint32_t)(c->out_ch - OCH(n) < group * BY_DIM ? c->out_ch - OCH(n)
                                                               : group * BY_DIM);
            (void)by_mvin_compressed(1, by_boveda_matrix_entry(wb, tap * g->cblocks + cb0 + q, cb),
                                     by_sp_addr(b_base + ((k + q) * nt + n) * BY_DIM), BY_DIM,
                                     cols);
          }
          continue;
        }
        const size_t wrow = tap * c->in_ch + (cb0 + q) * BY_DIM;
        for (uint32_t n = 0; n < nt; n += BY_MAX_BLOCK_LEN) {
          size_t cols = c->out_ch - OCH(n);
          if (cols > (size_t)(nt - n) * BY_DIM)
            cols = (size_t)(nt - n) * BY_DIM;
          if (cols > BY_MAX_BLOCK_LEN * BY_DIM)
            cols = BY_MAX_BLOCK_LEN * BY_DIM;
          by_mvin(1, c->weights + wrow * c->out_ch + OCH(n),
                  by_sp_addr(b_base + ((k + q) * nt + n) * BY_DIM),
                  by_block_size(c->in_ch, cb0 + q), (uint32_t)cols);
        }
      }
      const size_t ch0 = cb0 * BY_DIM;
      size_t nch = (size_t)nblk * BY_DIM;
      if (ch0 + nch > c->in_ch)
        nch = c->in_ch - ch0;
      gather(g, b, r0, pixels, mt, kt, a_base, k, tap / c->kernel_cols, tap % c->kernel_cols, ch0,
             nch);
      k += nblk;
    }
    const conv_k_t ck = {g, k0, pass_nch};
    const by_tile_t t = {BY_DATAFLOW_WS,
                         a_base,
                         kt * BY_DIM,
                         BY_DIM,
                         b_base,
                         nt * BY_DIM,
                         BY_DIM,
                         c_base,
                         BY_DIM,
                         mt * BY_DIM,
                         mt,
                         nt,
                         kt,
                         by_block_size(pixels, mt - 1),
                         OCH_N(nt - 1),
                         conv_k_size,
                         &ck,
                         c->bias != 0 || k0 > 0};
    by_tile_compute(&t);
  }

  if (c->pool_stride)
    by_conv_config_band_pool(g, p0, p1, r0, r1);
  for (uint32_t n = 0; n < nt; ++n) {
    by_elem_t* dst = c->output + ((b * g->prows + p0) * g->pcols) * c->out_ch + OCH(n);
    by_mvout(dst, by_acc_addr(c_base + n * mt * BY_DIM, 0, 0),
             c->pool_stride ? 1u : (uint32_t)pixels, OCH_N(n));
  }
#undef OCH
#undef OCH_N
}

/* Whether the convolution is one matmul over its pixels: a dense 1x1 kernel, stride 1, no
 * padding or pooling make the NHWC input a (pixels x in_ch) matrix and the output a (pixels x
 * out_ch) one. The arithmetic is the conv's: WS, K chunks of DIM channels (docs/arithmetic.md). */
static int matmul_shape(const by_conv_t* c) {
  return !c->depthwise && !c->weights_boveda && c->kernel_rows == 1 && c->kernel_cols == 1 &&
         c->stride == 1 && by_conv_stride_cols(c) == 1 && !c->pool_stride &&
         by_conv_pad_top(c) == 0 && by_conv_pad_left(c) == 0 && by_conv_pad_bottom(c) == 0 &&
         by_conv_pad_right(c) == 0;
}

static void conv_as_matmul(const by_conv_t* c, by_matmul_t* m) {
  by_matmul_init(m);
  m->I = c->batch * c->in_rows * c->in_cols;
  m->K = c->in_ch;
  m->J = c->out_ch;
  m->A = c->input, m->lda = c->in_ch;
  m->B = c->weights, m->ldb = c->out_ch;
  m->D = c->bias, m->ldd = c->out_ch, m->repeating_bias = 1;
  m->C = c->output, m->ldc = c->out_ch;
  m->activation = c->activation;
  m->scale = c->scale;
  m->dataflow = BY_DATAFLOW_WS;
  m->tile_i = c->tile_rows, m->tile_j = c->tile_och, m->tile_k = c->tile_k;
}

/* The dataflow of the convolution's loop (docs/driver.md, "Convolution paths"): the requested
 * one, or automatically OS on TensorDash hardware (where OS computes skip zeros) and on arrays
 * without WS, else WS. LOOP_CONV_OS sums all taps and channels of a tile in the array before the
 * result saturates to spatial_output_width, so it runs only where that width is acc_width: its
 * result is then the exact wrapped sum, whatever the tiling, which is what the CPU reference and
 * the compiler's interpreter compute. BY_ERR_UNSUPPORTED for a dataflow without a path. */
static by_status_t conv_dataflow(const by_conv_t* c, int* df) {
  const int os_loop = by_has_loop_conv_os() && BY_SPATIAL_OUTPUT_WIDTH >= BY_ACC_WIDTH;
  *df = c->dataflow;
  if (*df == BY_DATAFLOW_AUTO)
    *df = (BY_TENSORDASH || !BY_HAS_WS) && os_loop ? BY_DATAFLOW_OS : BY_DATAFLOW_WS;
  if (*df == BY_DATAFLOW_OS ? !os_loop : !BY_HAS_WS)
    return BY_ERR_UNSUPPORTED;
  return BY_OK;
}

/* The path (docs/driver.md, "Convolution paths"), with the loop tiles when it is the loop.
 * Automatic: the matmul for its shapes when LOOP_WS runs it (its A blocks are DIM pixels of any
 * rows, where a loop compute covers one output row; not with forced conv tiles); else the loop
 * when the hardware has it and a tile fits; else the command path (WS, one lane). */
static int conv_path(const conv_geom_t* g, int df, conv_loop_tiles_t* lt) {
  const by_conv_t* c = g->c;
  const int forced_tiles = c->tile_rows || c->tile_och || c->tile_k || c->tile_batch;
  const int matmul = matmul_shape(c) && df == BY_DATAFLOW_WS && BY_LANES == 1;
  switch (c->path) {
  case BY_CONV_COMMANDS:
    return BY_CONV_COMMANDS;
  case BY_CONV_MATMUL:
    return matmul ? BY_CONV_MATMUL : BY_CONV_COMMANDS;
  case BY_CONV_LOOP:
    break;
  default:
    if (matmul && by_has_loop_ws() && !forced_tiles)
      return BY_CONV_MATMUL;
  }
  return by_conv_loop_plan(g, df, lt) ? BY_CONV_LOOP : BY_CONV_COMMANDS;
}

/* The plan: the dataflow, the path, and the command path's tiles when it runs (the command
 * path needs one-lane PEs and WS: elsewhere a convolution no loop holds is unsupported). */
static by_status_t plan_conv(const conv_geom_t* g, int* df, int* path, conv_loop_tiles_t* lt,
                             conv_tiles_t* tl) {
  by_status_t s = conv_dataflow(g->c, df);
  if (s != BY_OK)
    return s;
  *path = conv_path(g, *df, lt);
  if (*path != BY_CONV_COMMANDS)
    return BY_OK;
  if (*df != BY_DATAFLOW_WS || BY_LANES != 1)
    return BY_ERR_UNSUPPORTED;
  return conv_tiles(g, tl);
}

by_status_t by_conv_plan(const by_conv_t* c, by_conv_plan_t* plan) {
  conv_geom_t g;
  if (!c || !plan)
    return BY_ERR_ARG;
  const by_conv_plan_t zero = {0};
  *plan = zero;
  by_conv_geom(c, &g);
  by_status_t s = check_conv(c, &g);
  if (s != BY_OK || c->on_cpu)
    return s;
  if ((s = check_hardware(c, &g)) != BY_OK)
    return s;
  conv_loop_tiles_t lt = {0, 0, 0, 0};
  conv_tiles_t tl = {0, 0, 0};
  if ((s = plan_conv(&g, &plan->dataflow, &plan->path, &lt, &tl)) != BY_OK)
    return s;
  plan->loop = plan->path == BY_CONV_LOOP;
  if (plan->path == BY_CONV_MATMUL) {
    by_matmul_t m;
    by_matmul_plan_t mp;
    conv_as_matmul(c, &m);
    if ((s = by_matmul_plan(&m, &mp)) != BY_OK)
      return s;
    plan->tile_batch = 1, plan->tile_rows = mp.tile_i;
    plan->tile_och = mp.tile_j, plan->tile_k = mp.tile_k;
  } else if (plan->loop) {
    plan->folded = g.folded;
    plan->tile_batch = lt.batch, plan->tile_rows = lt.rows;
    plan->tile_och = lt.tn, plan->tile_k = lt.tk;
  } else {
    plan->tile_batch = 1, plan->tile_rows = tl.rows;
    plan->tile_och = tl.tn, plan->tile_k = tl.tk;
  }
  return BY_OK;
}

by_status_t by_conv(const by_conv_t* c) {
  conv_geom_t g;
  if (!c)
    return BY_ERR_ARG;
  by_conv_geom(c, &g);
  by_status_t s = check_conv(c, &g);
  if (s != BY_OK)
    return s;
  if (c->on_cpu) {
    by_cpu_conv(c);
    return BY_OK;
  }
  if ((s = check_hardware(c, &g)) != BY_OK)
    return s;
  int path, df;
  conv_loop_tiles_t lt = {0, 0, 0, 0};
  conv_tiles_t tl = {0, 0, 0};
  if ((s = plan_conv(&g, &df, &path, &lt, &tl)) != BY_OK)
    return s;
  if (path == BY_CONV_MATMUL) {
    by_matmul_t m;
    conv_as_matmul(c, &m);
    return by_matmul(&m);
  }

  const uint32_t errors = by_kernel_begin(); /* also: no earlier command reads the workspace */
  if (c->depthwise)
    build_diagonals(&g);
  else if (packs_weights(c))
    pack_weights(c);
  if (path == BY_CONV_LOOP) {
    by_conv_loops(&g, df, &lt);
    return by_kernel_end(errors);
  }
  by_config_ex(BY_DATAFLOW_WS, BY_ACT_NONE, 0, 1, 1);
  by_config_ld(0, by_conv_stride_cols(c) * c->in_ch * sizeof(by_elem_t), 0, 0);
  if (c->weights_boveda)
    (void)by_config_ld_compressed(1, c->weights_boveda->stream, 0);
  else
    by_config_ld(1, (c->depthwise ? BY_DIM : c->out_ch) * sizeof(by_elem_t), 0, 0);
  by_config_ld(2, 0, 0, 0);
  by_config_st((uint32_t)(c->out_ch * sizeof(by_elem_t)), c->activation, c->scale, 0);

  unsigned c_tiles = 0, ab_tiles = 0;
  const size_t passes = c->depthwise ? by_blocks(c->in_ch) : 1;
  for (size_t b = 0; b < c->batch; ++b)
    for (size_t p0 = 0; p0 < g.prows; p0 += tl.rows) {
      const size_t p1 = p0 + tl.rows < g.prows ? p0 + tl.rows : g.prows;
      for (size_t pass = 0; pass < passes; ++pass)
        for (size_t n0 = 0; n0 < g.nblocks; n0 += tl.tn) {
          const uint32_t nt = (uint32_t)(g.nblocks - n0 < tl.tn ? g.nblocks - n0 : tl.tn);
          conv_tile(&g, &tl, b, p0, p1, n0, nt, pass * BY_DIM, &c_tiles, &ab_tiles);
        }
    }
  return by_kernel_end(errors);
}
