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
 * With LOOP_CONV_WS (by_has_loop_conv_ws()) the same convolution runs as Gemmini's tiled_conv
 * does: one loop per tile of images x output rows (whole width) x out-channel blocks x
 * input-channel blocks, which the accelerator unrolls into the moves and computes itself
 * (docs/isa.md "LOOP_CONV_WS"): a handful of commands per tile instead of one per block and
 * pixel run. The loop gathers the padded input window row by row, so the A rows of one output
 * row are `stride` rows apart (CONFIG_EX's a_stride).
 *
 * A dense 1x1 convolution with stride 1 and no padding or pooling is a matmul of the NHWC
 * input (pixels x input channels) by the weights: with LOOP_WS it runs as one (by_matmul),
 * whose A blocks are DIM pixels from any rows. conv_path picks the path (docs/driver.md,
 * "Convolution paths"). */
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"
#include "brickyard_isa.h"
#include "tile.h"

/* Field limits of CONFIG_ST pooling (2-bit and 8-bit fields). */
#define POOL_SMALL_MAX ((size_t)BY_CONFIG_ST_RS1_POOL_SIZE_MASK)
#define POOL_DIM_MAX ((size_t)BY_CONFIG_ST_RS1_OROWS_MASK)

void by_conv_init(by_conv_t* c) {
  const by_conv_t zero = {0};
  *c = zero;
  c->scale = 1.0f;
  c->stride = 1;
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
static size_t pad_bottom(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_bottom : c->padding;
}
static size_t pad_right(const by_conv_t* c) {
  return c->explicit_pads ? c->pad_right : c->padding;
}
size_t by_conv_out_rows(const by_conv_t* c) {
  return (c->in_rows + by_conv_pad_top(c) + pad_bottom(c) - c->kernel_rows) / c->stride + 1;
}
size_t by_conv_out_cols(const by_conv_t* c) {
  return (c->in_cols + by_conv_pad_left(c) + pad_right(c) - c->kernel_cols) /
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
/* Depthwise: DIM x DIM diagonal weight blocks of elements, one per (channel block, tap). */
static size_t conv_workspace_elems(const by_conv_t* c) {
  return c->depthwise ? by_blocks(c->in_ch) * c->kernel_rows * c->kernel_cols * BY_DIM * BY_DIM : 0;
}
size_t by_conv_workspace_bytes(const by_conv_t* c) {
  return conv_workspace_elems(c) * sizeof(by_elem_t);
}

/* The geometry every part of the kernel shares. */
typedef struct {
  const by_conv_t* c;
  size_t orows, ocols, prows, pcols;
  size_t psize, pstride, ppad; /* 1, 1, 0 without pooling */
  size_t taps, cblocks;        /* K blocks: taps x cblocks (dense) or taps (depthwise) */
  size_t kblocks, nblocks;     /* per pass */
} geom_t;

static void make_geom(const by_conv_t* c, geom_t* g) {
  g->c = c;
  g->orows = by_conv_out_rows(c);
  g->ocols = by_conv_out_cols(c);
  g->prows = by_conv_pool_rows(c);
  g->pcols = by_conv_pool_cols(c);
  g->psize = c->pool_stride ? c->pool_size : 1;
  g->pstride = c->pool_stride ? c->pool_stride : 1;
  g->ppad = c->pool_stride ? c->pool_padding : 0;
  g->taps = c->kernel_rows * c->kernel_cols;
  g->cblocks = by_blocks(c->in_ch);
  g->kblocks = c->depthwise ? g->taps : g->taps * g->cblocks;
  g->nblocks = c->depthwise ? 1 : by_blocks(c->out_ch);
}

/* Conv rows [*r0, *r1) that pooled rows [p0, p1) read. */
static void band_rows(const geom_t* g, size_t p0, size_t p1, size_t* r0, size_t* r1) {
  const long lo = (long)(p0 * g->pstride) - (long)g->ppad;
  const long hi = (long)((p1 - 1) * g->pstride + g->psize) - (long)g->ppad;
  *r0 = lo < 0 ? 0 : (size_t)lo;
  *r1 = hi > (long)g->orows ? g->orows : (size_t)hi;
}

static size_t band_blocks(const geom_t* g, size_t rows_pooled) {
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

static int conv_fits(const geom_t* g, size_t rows, size_t tn, size_t tk) {
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
static by_status_t conv_tiles(const geom_t* g, conv_tiles_t* t) {
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

static by_status_t check_conv(const by_conv_t* c, const geom_t* g) {
  if (!c->input || !c->output || c->batch == 0 || c->in_rows == 0 || c->in_cols == 0 ||
      c->in_ch == 0 || c->out_ch == 0 || c->kernel_rows == 0 || c->kernel_cols == 0 ||
      c->stride == 0)
    return BY_ERR_ARG;
  if ((c->depthwise && c->out_ch != c->in_ch) || c->path < BY_CONV_AUTO || c->path > BY_CONV_MATMUL)
    return BY_ERR_ARG;
  if (c->kernel_rows > c->in_rows + by_conv_pad_top(c) + pad_bottom(c) ||
      c->kernel_cols > c->in_cols + by_conv_pad_left(c) + pad_right(c))
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
  const size_t w_bytes =
      (c->depthwise ? c->in_ch * g->taps : g->taps * c->in_ch * c->out_ch) * sizeof(by_elem_t);
  const size_t out_bytes = c->batch * g->prows * g->pcols * c->out_ch * sizeof(by_elem_t);
  if (!by_dram_reachable(c->input, in_bytes) ||
      (!c->weights_boveda && !by_dram_reachable(c->weights, w_bytes)) ||
      !by_dram_reachable(c->output, out_bytes) ||
      (c->bias && !by_dram_reachable(c->bias, c->out_ch * sizeof(by_acc_t))))
    return BY_ERR_ADDR;
  if (c->depthwise) {
    const size_t need = by_conv_workspace_bytes(c);
    if (!c->workspace || c->workspace_bytes < need)
      return BY_ERR_WORKSPACE;
    if (!by_dram_reachable(c->workspace, need))
      return BY_ERR_ADDR;
  }
  return BY_OK;
}

/* Hardware limits that the CPU fallback does not have. */
static by_status_t check_hardware(const by_conv_t* c, const geom_t* g) {
  if (!BY_HAS_WS || BY_LANES != 1) /* vector PEs: weights would need lane packing */
    return BY_ERR_UNSUPPORTED;
  if (c->pool_stride &&
      (c->pool_size > POOL_SMALL_MAX || c->pool_stride > POOL_SMALL_MAX ||
       c->pool_padding > POOL_SMALL_MAX || g->ocols > POOL_DIM_MAX || g->pcols > POOL_DIM_MAX))
    return BY_ERR_UNSUPPORTED;
  return BY_OK;
}

/* Loads into A rows local.. the input of tap (kr, kc), channels [ch0, ch0 + nch), for the
 * band pixels [p, p_end) (all in conv row y, columns x..), one row per pixel. */
static void gather_run(const geom_t* g, size_t b, size_t y, size_t x, size_t n, size_t kr,
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
static void gather(const geom_t* g, size_t b, size_t r0, size_t pixels, uint32_t mt, uint32_t kt,
                   uint32_t a_base, uint32_t k_local, size_t kr, size_t kc, size_t ch0,
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
  const geom_t* g;
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
 * ws + (cb * taps + tap) * DIM * DIM. */
static void build_diagonals(const geom_t* g) {
  const by_conv_t* c = g->c;
  by_elem_t* ws = (by_elem_t*)c->workspace;
  const size_t n = conv_workspace_elems(c);
  for (size_t i = 0; i < n; ++i)
    ws[i] = 0;
  for (size_t ch = 0; ch < c->in_ch; ++ch)
    for (size_t t = 0; t < g->taps; ++t) {
      const size_t cb = ch / BY_DIM, e = ch % BY_DIM;
      ws[(cb * g->taps + t) * BY_DIM * BY_DIM + e * BY_DIM + e] = c->weights[ch * g->taps + t];
    }
}

/* CONFIG_ST pooling for the band of pooled rows [p0, p1), conv rows [r0, r1): the band's first
 * pooled row starts upad rows above its first conv row. */
static void config_band_pool(const geom_t* g, size_t p0, size_t p1, size_t r0, size_t r1) {
  const by_conv_t* c = g->c;
  const by_pool_t pool = {
      (uint32_t)c->pool_stride, (uint32_t)c->pool_size, (uint32_t)(r0 + g->ppad - p0 * g->pstride),
      (uint32_t)g->ppad,        (uint32_t)g->pcols,     (uint32_t)(p1 - p0),
      (uint32_t)g->pcols,       (uint32_t)(r1 - r0),    (uint32_t)g->ocols};
  by_config_st((uint32_t)(c->out_ch * sizeof(by_elem_t)), c->activation, c->scale, &pool);
}

/* One band x out-channel tile: bias, K tiles (weights, gathered input, compute), mvout. */
static void conv_tile(const geom_t* g, const conv_tiles_t* tl, size_t b, size_t p0, size_t p1,
                      size_t n0, uint32_t nt, size_t pass_ch0, unsigned* c_tiles,
                      unsigned* ab_tiles) {
  const by_conv_t* c = g->c;
  size_t r0, r1;
  band_rows(g, p0, p1, &r0, &r1);
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
                    ((pass_ch0 / BY_DIM) * g->taps + tap) * BY_DIM * BY_DIM,
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
    config_band_pool(g, p0, p1, r0, r1);
  for (uint32_t n = 0; n < nt; ++n) {
    by_elem_t* dst = c->output + ((b * g->prows + p0) * g->pcols) * c->out_ch + OCH(n);
    by_mvout(dst, by_acc_addr(c_base + n * mt * BY_DIM, 0, 0),
             c->pool_stride ? 1u : (uint32_t)pixels, OCH_N(n));
  }
#undef OCH
#undef OCH_N
}

/* ---- LOOP_CONV_WS ------------------------------------------------------------------------ */

/* Field limits of LOOP_CONV_WS_CONFIG_* (16-bit sizes, an 8-bit stride and dpad). */
#define LOOP_DIM_MAX ((size_t)BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_ROW_DIM_MASK)
#define LOOP_STRIDE_MAX ((size_t)BY_LOOP_CONV_WS_CONFIG_1_RS2_STRIDE_MASK)
#define LOOP_DPAD_MAX ((size_t)BY_LOOP_CONV_WS_CONFIG_3_RS2_DPAD_MASK)
#define LD_BLOCK_STRIDE_MAX ((size_t)BY_CONFIG_LD_RS1_BLOCK_STRIDE_MASK)

typedef struct {
  size_t batch, rows, tn, tk; /* images, (pooled) output rows, out- and input-channel blocks */
} loop_tiles_t;

/* Input-channel and out-channel blocks of one loop: a depthwise loop is one channel block. */
static size_t loop_kch_blocks(const geom_t* g) {
  return g->c->depthwise ? 1 : g->cblocks;
}
static size_t loop_och_blocks(const geom_t* g) {
  return g->c->depthwise ? 1 : g->nblocks;
}

/* Conv rows a tile of `rows` (pooled) rows computes at most (band_rows of its widest band). */
static size_t loop_conv_rows(const geom_t* g, size_t rows) {
  const size_t r = (rows - 1) * g->pstride + g->psize;
  return r < g->orows ? r : g->orows;
}

/* Whether the loop's local layout (the model's LOCAL_RANGE check) holds a tile: C (tn blocks of
 * batch x conv rows x ocols rows) in half the accumulator; the input window (tk channel blocks
 * of batch x irows x icols rows, the largest tile's window apart: CONFIG_LD's block stride) and
 * the weights (tn blocks of taps x tk x DIM rows) in half the scratchpad. */
static int loop_fits(const geom_t* g, const loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  const size_t conv_rows = loop_conv_rows(g, t->rows);
  if (c->pool_stride && (conv_rows > POOL_DIM_MAX || t->rows > POOL_DIM_MAX))
    return 0;
  const size_t irows = (conv_rows - 1) * c->stride + c->kernel_rows;
  const size_t icols = (g->ocols - 1) * c->stride + c->kernel_cols;
  const size_t a_block = t->batch * irows * icols, b_block = g->taps * t->tk * BY_DIM;
  if (a_block > LD_BLOCK_STRIDE_MAX || b_block > LD_BLOCK_STRIDE_MAX)
    return 0;
  return t->tn * t->batch * conv_rows * g->ocols <= BY_ACC_HALF &&
         t->tk * a_block + t->tn * b_block <= BY_SP_HALF;
}

/* The most rows (at least 1) a tile of the other sizes holds, or 0. Fitting shrinks with the
 * rows, so a binary search finds it. */
static size_t loop_max_rows(const geom_t* g, loop_tiles_t* t) {
  size_t lo = 0, hi = g->prows;
  while (lo < hi) {
    t->rows = (lo + hi + 1) / 2;
    if (loop_fits(g, t))
      lo = t->rows;
    else
      hi = t->rows - 1;
  }
  return t->rows = lo;
}

/* Whether the convolution can run as loops at all: plain weights, one lane, one stride, the
 * activations LOOP_CONV_WS applies, and every size within its fields. */
static int loop_usable(const geom_t* g) {
  const by_conv_t* c = g->c;
  if (c->weights_boveda || BY_LANES != 1 || by_conv_stride_cols(c) != c->stride ||
      (c->activation != BY_ACT_NONE && c->activation != BY_ACT_RELU))
    return 0;
  const size_t sizes[] = {c->in_rows,   c->in_cols,         c->in_ch,       c->out_ch,
                          g->orows,     g->ocols,           g->prows,       g->pcols,
                          c->batch,     c->kernel_rows,     c->kernel_cols, by_conv_pad_top(c),
                          pad_right(c), by_conv_pad_left(c)};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    if (sizes[i] > LOOP_DIM_MAX)
      return 0;
  /* A tile's dpad is at most the bottom padding (its last window row is at most in_rows +
   * pad_bottom - 1), likewise upad, lpad, rpad. */
  return c->stride <= LOOP_STRIDE_MAX && pad_bottom(c) <= LOOP_DPAD_MAX && by_has_loop_conv_ws();
}

/* DRAM bytes a loop of tile t reads (its input window, weights and bias rows: the bias is read
 * once per output row of C, a zero fill reads nothing), per MAC it computes, as a fraction
 * bytes / macs; the tile choice minimises it. On the default config's 3x3 56x56x64 conv this
 * ranks 4 rows x 2 out-channel blocks (76% without a host) above 8 x 1 (72%) and 2 x 4 (68%),
 * as bench_loop_conv measures them. */
typedef struct {
  uint64_t bytes, macs;
} loop_cost_t;

static loop_cost_t loop_cost(const geom_t* g, const loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  const uint64_t conv_rows = loop_conv_rows(g, t->rows);
  const uint64_t irows = (conv_rows - 1) * c->stride + c->kernel_rows;
  const uint64_t icols = (g->ocols - 1) * c->stride + c->kernel_cols;
  const uint64_t kch = (uint64_t)t->tk * BY_DIM, och = (uint64_t)t->tn * BY_DIM;
  const uint64_t pixels = (uint64_t)t->batch * conv_rows * g->ocols;
  loop_cost_t cost;
  cost.bytes =
      ((uint64_t)t->batch * irows * icols * kch + g->taps * kch * och) * sizeof(by_elem_t) +
      (c->bias ? pixels * t->tn * BY_DIM * sizeof(by_acc_t) : 0);
  cost.macs = pixels * och * kch * g->taps;
  return cost;
}

static int loop_cheaper(loop_cost_t a, loop_cost_t b) {
  return (double)a.bytes / (double)a.macs < (double)b.bytes / (double)b.macs;
}

/* Loop tiles: the forced sizes; the others all input channels if any tile holds them (halving
 * otherwise), then the out-channel blocks (halving) and most rows that read the fewest DRAM
 * bytes per MAC (loop_cost; ties: more rows), and once a tile holds every row, as many images
 * as fit. 0: no tile fits (the command path runs). */
static int loop_tiles(const geom_t* g, loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  const size_t kb = loop_kch_blocks(g), nb = loop_och_blocks(g);
  const size_t fk = c->tile_k < kb ? c->tile_k : kb, fn = c->tile_och < nb ? c->tile_och : nb;
  const size_t fr = c->tile_rows < g->prows ? c->tile_rows : g->prows;
  const size_t fb = c->tile_batch < c->batch ? c->tile_batch : c->batch;
  t->batch = c->tile_batch ? fb : 1;
  for (t->tk = c->tile_k ? fk : kb;; t->tk = (t->tk + 1) / 2) {
    size_t best_tn = 0, best_rows = 0;
    loop_cost_t best = {0, 0};
    for (t->tn = c->tile_och ? fn : nb;; t->tn = (t->tn + 1) / 2) {
      size_t rows = fr;
      if (c->tile_rows)
        t->rows = fr, rows = loop_fits(g, t) ? fr : 0;
      else
        rows = loop_max_rows(g, t);
      if (rows) {
        t->rows = rows;
        const loop_cost_t cost = loop_cost(g, t);
        if (!best_rows || loop_cheaper(cost, best) ||
            (!loop_cheaper(best, cost) && rows > best_rows))
          best_tn = t->tn, best_rows = rows, best = cost;
      }
      if (c->tile_och || t->tn == 1)
        break;
    }
    if (best_rows) {
      t->tn = best_tn, t->rows = best_rows;
      if (!c->tile_batch && t->rows == g->prows)
        while (t->batch < c->batch) {
          ++t->batch;
          if (!loop_fits(g, t)) {
            --t->batch;
            break;
          }
        }
      return 1;
    }
    if (c->tile_k || t->tk == 1)
      return 0;
  }
}

/* The tiles as loops, in the order of the command path: per images and band of rows (with
 * pooling the band's CONFIG_ST pooling, as conv_tile sets it), per depthwise channel block and
 * out-channel tile, the input-channel tiles: the first loads the bias (zeros without one), the
 * others add onto the accumulator (no_bias), the last stores C (the loops before it leave C in
 * the accumulator, whose half the accelerator keeps until a loop stores). */
static void conv_loops(const geom_t* g, const loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  const size_t pt = by_conv_pad_top(c), pl = by_conv_pad_left(c), S = c->stride;
  const size_t icols = (g->ocols - 1) * S + c->kernel_cols;
  /* The window's columns [-pl, icols - pl): lpad zeros, the real columns, rpad zeros. */
  const size_t lpad = pl < icols ? pl : icols;
  const size_t rcols = icols - lpad < c->in_cols ? icols - lpad : c->in_cols;
  const size_t passes = c->depthwise ? g->cblocks : 1;
  const size_t kb = loop_kch_blocks(g), nb = loop_och_blocks(g);
  by_loop_conv_ws_t l = {0};
  l.in_row_dim = (uint32_t)c->in_rows, l.in_col_dim = (uint32_t)c->in_cols;
  l.out_row_dim = (uint32_t)g->orows, l.out_col_dim = (uint32_t)g->ocols;
  l.pool_out_row_dim = (uint32_t)g->prows, l.pool_out_col_dim = (uint32_t)g->pcols;
  l.stride = (uint32_t)S, l.kernel_dilation = 1;
  l.kernel_dim = (uint32_t)c->kernel_cols; /* the tap pitch of the weight rows */
  l.krows = (uint32_t)c->kernel_rows, l.kcols = (uint32_t)c->kernel_cols;
  l.ocols = (uint32_t)g->ocols;
  l.lpad = (uint32_t)lpad, l.rpad = (uint32_t)(icols - lpad - rcols);
  /* Depthwise: the diagonal blocks are DIM x DIM, so a tap's weight rows are DIM apart. */
  l.in_channels = (uint32_t)(c->depthwise ? BY_DIM : c->in_ch);
  l.weight_stride = (uint32_t)(c->depthwise ? BY_DIM : c->out_ch);
  l.in_stride = (uint32_t)c->in_ch, l.out_stride = (uint32_t)c->out_ch;
  l.no_pool = c->pool_stride == 0;
  l.activation = c->activation;
  for (size_t b0 = 0; b0 < c->batch; b0 += t->batch) {
    l.batches = (uint32_t)(c->batch - b0 < t->batch ? c->batch - b0 : t->batch);
    for (size_t p0 = 0; p0 < g->prows; p0 += t->rows) {
      const size_t p1 = p0 + t->rows < g->prows ? p0 + t->rows : g->prows;
      size_t r0, r1;
      band_rows(g, p0, p1, &r0, &r1);
      if (c->pool_stride)
        config_band_pool(g, p0, p1, r0, r1);
      /* The window's rows [iy0, iy0 + irows): upad zeros, the real rows, dpad zeros. */
      const long iy0 = (long)(r0 * S) - (long)pt;
      const size_t irows = (r1 - r0 - 1) * S + c->kernel_rows;
      const long lo = iy0 > 0 ? iy0 : 0;
      const long end = iy0 + (long)irows;
      const long hi = end < (long)c->in_rows ? end : (long)c->in_rows;
      const size_t rrows = hi > lo ? (size_t)(hi - lo) : 0;
      size_t upad = iy0 < 0 ? (size_t)-iy0 : 0;
      if (upad > irows)
        upad = irows;
      /* A window wholly in the padding reads no input: any row of the image will do. */
      const size_t first_row = lo < (long)c->in_rows ? (size_t)lo : c->in_rows - 1;
      l.orows = (uint32_t)(r1 - r0);
      l.upad = (uint32_t)upad, l.dpad = (uint32_t)(irows - upad - rrows);
      for (size_t pass = 0; pass < passes; ++pass) {
        const size_t ch0 = pass * BY_DIM; /* depthwise: the pass's first channel */
        for (size_t n0 = 0; n0 < nb; n0 += t->tn) {
          const size_t och0 = c->depthwise ? ch0 : n0 * BY_DIM;
          const size_t tn = nb - n0 < t->tn ? nb - n0 : t->tn;
          const size_t och_end =
              c->depthwise ? ch0 + by_block_size(c->in_ch, pass) : (n0 + tn) * BY_DIM;
          l.pochs = (uint32_t)((och_end < c->out_ch ? och_end : c->out_ch) - och0);
          for (size_t k0 = 0; k0 < kb; k0 += t->tk) {
            const size_t kch0 = c->depthwise ? ch0 : k0 * BY_DIM;
            const size_t kch_end = c->depthwise ? ch0 + l.pochs : (k0 + t->tk) * BY_DIM;
            l.kchs = (uint32_t)((kch_end < c->in_ch ? kch_end : c->in_ch) - kch0);
            l.input = c->input + ((b0 * c->in_rows + first_row) * c->in_cols) * c->in_ch + kch0;
            l.weights = c->depthwise ? (const void*)((const by_elem_t*)c->workspace +
                                                     pass * g->taps * BY_DIM * BY_DIM)
                                     : (const void*)(c->weights + kch0 * c->out_ch + och0);
            l.no_bias = k0 != 0;
            l.bias = k0 == 0 && c->bias ? c->bias + och0 : 0;
            const int last = k0 + t->tk >= kb;
            /* The band's first pooled row, or without pooling its first conv row (= p0). */
            l.output = !last ? 0 : c->output + ((b0 * g->prows + p0) * g->pcols) * c->out_ch + och0;
            by_loop_conv_ws(&l);
          }
        }
      }
    }
  }
}

/* Whether the convolution is one matmul over its pixels: a dense 1x1 kernel, stride 1, no
 * padding or pooling make the NHWC input a (pixels x in_ch) matrix and the output a (pixels x
 * out_ch) one. The arithmetic is the conv's: WS, K chunks of DIM channels (docs/arithmetic.md). */
static int matmul_shape(const by_conv_t* c) {
  return !c->depthwise && !c->weights_boveda && c->kernel_rows == 1 && c->kernel_cols == 1 &&
         c->stride == 1 && by_conv_stride_cols(c) == 1 && !c->pool_stride &&
         by_conv_pad_top(c) == 0 && by_conv_pad_left(c) == 0 && pad_bottom(c) == 0 &&
         pad_right(c) == 0;
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

/* The path (docs/driver.md, "Convolution paths"), with the loop tiles when it is the loop.
 * Automatic: the matmul for its shapes when LOOP_WS runs it (whose A blocks are DIM pixels of
 * any rows; not with forced conv tiles); the command path for strided convolutions with a 1x1
 * kernel (the loop's input window holds stride^2 times the pixels they read, the command path
 * gathers only those) or output rows shorter than DIM (a loop's compute covers one output row,
 * ocols of the array's DIM rows, and the strided window is large per compute); else the loop
 * when the hardware has it and a tile fits. ResNet-50's shapes measured both ways are in
 * docs/BENCHMARKS.md. */
static int conv_path(const geom_t* g, loop_tiles_t* lt) {
  const by_conv_t* c = g->c;
  const int forced_tiles = c->tile_rows || c->tile_och || c->tile_k || c->tile_batch;
  switch (c->path) {
  case BY_CONV_COMMANDS:
    return BY_CONV_COMMANDS;
  case BY_CONV_MATMUL:
    return matmul_shape(c) ? BY_CONV_MATMUL : BY_CONV_COMMANDS;
  case BY_CONV_LOOP:
    break;
  default:
    if (matmul_shape(c) && by_has_loop_ws() && !forced_tiles)
      return BY_CONV_MATMUL;
    if (c->stride > 1 && (g->taps == 1 || g->ocols < BY_DIM))
      return BY_CONV_COMMANDS;
  }
  return loop_usable(g) && loop_tiles(g, lt) ? BY_CONV_LOOP : BY_CONV_COMMANDS;
}

/* The plan: the path, and the command path's tiles when it runs. */
static by_status_t plan_conv(const geom_t* g, int* path, loop_tiles_t* lt, conv_tiles_t* tl) {
  *path = conv_path(g, lt);
  return *path == BY_CONV_COMMANDS ? conv_tiles(g, tl) : BY_OK;
}

by_status_t by_conv_plan(const by_conv_t* c, by_conv_plan_t* plan) {
  geom_t g;
  if (!c || !plan)
    return BY_ERR_ARG;
  const by_conv_plan_t zero = {0};
  *plan = zero;
  make_geom(c, &g);
  by_status_t s = check_conv(c, &g);
  if (s != BY_OK || c->on_cpu)
    return s;
  if ((s = check_hardware(c, &g)) != BY_OK)
    return s;
  loop_tiles_t lt = {0, 0, 0, 0};
  conv_tiles_t tl = {0, 0, 0};
  if ((s = plan_conv(&g, &plan->path, &lt, &tl)) != BY_OK)
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
    plan->tile_batch = lt.batch, plan->tile_rows = lt.rows;
    plan->tile_och = lt.tn, plan->tile_k = lt.tk;
  } else {
    plan->tile_batch = 1, plan->tile_rows = tl.rows;
    plan->tile_och = tl.tn, plan->tile_k = tl.tk;
  }
  return BY_OK;
}

by_status_t by_conv(const by_conv_t* c) {
  geom_t g;
  if (!c)
    return BY_ERR_ARG;
  make_geom(c, &g);
  by_status_t s = check_conv(c, &g);
  if (s != BY_OK)
    return s;
  if (c->on_cpu) {
    by_cpu_conv(c);
    return BY_OK;
  }
  if ((s = check_hardware(c, &g)) != BY_OK)
    return s;
  int path;
  loop_tiles_t lt = {0, 0, 0, 0};
  conv_tiles_t tl = {0, 0, 0};
  if ((s = plan_conv(&g, &path, &lt, &tl)) != BY_OK)
    return s;
  if (path == BY_CONV_MATMUL) {
    by_matmul_t m;
    conv_as_matmul(c, &m);
    return by_matmul(&m);
  }

  const uint32_t errors = by_kernel_begin();
  if (c->depthwise)
    build_diagonals(&g);
  if (path == BY_CONV_LOOP) {
    /* Gemmini's tiled_conv set-up: A rows `stride` apart; the mvin block strides of the
     * largest tile (the loop places channel blocks that far apart, docs/isa.md). */
    const size_t conv_rows = loop_conv_rows(&g, lt.rows);
    const size_t irows = (conv_rows - 1) * c->stride + c->kernel_rows;
    const size_t icols = (g.ocols - 1) * c->stride + c->kernel_cols;
    by_config_ex(BY_DATAFLOW_WS, BY_ACT_NONE, 0, (uint32_t)c->stride, 1);
    by_config_ld(0, c->in_ch * sizeof(by_elem_t), 0, (uint32_t)(lt.batch * irows * icols));
    by_config_ld(1, (c->depthwise ? BY_DIM : c->out_ch) * sizeof(by_elem_t), 0,
                 (uint32_t)(g.taps * lt.tk * BY_DIM));
    by_config_ld(2, 0, 0, 0);
    by_config_st((uint32_t)(c->out_ch * sizeof(by_elem_t)), c->activation, c->scale, 0);
    conv_loops(&g, &lt);
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
  const size_t passes = c->depthwise ? g.cblocks : 1;
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
