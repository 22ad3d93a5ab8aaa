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
 * Depthwise: each block of KB = DIM x lanes channels (one lane: DIM) is its own pass with
 * lanes output-channel blocks; its weights for one tap are the KB x KB diagonal matrix
 * diag(w[c][kr][kc]), built in the workspace (zeros by DMA, the diagonal by the CPU). With vector
 * PEs a pass reads a scratchpad row of each pixel (one DMA request), and TensorDash, scheduling
 * B, skips most of the diagonal's zeros.
 *
 * With LOOP_CONV_WS or LOOP_CONV_OS the same convolution runs as one loop per tile
 * (conv_loop.c); vector PEs (lanes > 1) have only the loops, with lane-packed weights. Where the
 * loop has the depthwise mode, a depthwise convolution's loops read diagonal stripes instead
 * (per tap ceil(DIM / lanes) packed rows of all channels, build_stripes), and each loop takes a
 * tile of DIM-channel blocks.
 *
 * A dense 1x1 convolution with stride 1 and no padding or pooling is a matmul of the NHWC
 * input (pixels x input channels) by the weights: with LOOP_WS it runs as one (by_matmul),
 * whose A blocks are DIM pixels from any rows. The planner (plan_conv.c) picks the path, the
 * dataflow and the tiles (docs/driver.md, "Convolution paths"); this file and conv_loop.c issue
 * them. */
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"
#include "brickyard/layers.h"
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
  return by_plan_out_size(c->in_rows, by_conv_pad_top(c) + by_conv_pad_bottom(c),
                          by_plan_kernel_extent(c->kernel_rows, c->dilation), c->stride);
}
size_t by_conv_out_cols(const by_conv_t* c) {
  return by_plan_out_size(c->in_cols, by_conv_pad_left(c) + by_conv_pad_right(c),
                          by_plan_kernel_extent(c->kernel_cols, c->dilation),
                          by_conv_stride_cols(c));
}
size_t by_conv_pool_rows(const by_conv_t* c) {
  return by_plan_pool_size(by_conv_out_rows(c), c->pool_size, c->pool_stride, c->pool_padding);
}
size_t by_conv_pool_cols(const by_conv_t* c) {
  return by_plan_pool_size(by_conv_out_cols(c), c->pool_size, c->pool_stride, c->pool_padding);
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

/* The convolution as the planner takes it. */
static void conv_shape(const by_conv_t* c, by_conv_shape_t* s) {
  s->batch = c->batch, s->in_rows = c->in_rows, s->in_cols = c->in_cols;
  s->in_ch = c->in_ch, s->out_ch = c->out_ch;
  s->kernel_rows = c->kernel_rows, s->kernel_cols = c->kernel_cols;
  s->stride = c->stride, s->stride_cols = by_conv_stride_cols(c), s->dilation = c->dilation;
  s->pad_top = by_conv_pad_top(c), s->pad_left = by_conv_pad_left(c);
  s->pad_bottom = by_conv_pad_bottom(c), s->pad_right = by_conv_pad_right(c);
  s->pool_size = c->pool_size, s->pool_stride = c->pool_stride, s->pool_padding = c->pool_padding;
  s->depthwise = c->depthwise, s->bias = c->bias != 0, s->activation = c->activation;
  s->weights_packed = c->weights_packed;
  s->weights_block_cols = c->weights_boveda ? by_boveda_matrix_block_cols(c->weights_boveda) : 0;
  s->input_compressed = c->input_boveda != 0, s->output_compressed = c->output_boveda != 0;
  s->path = c->path, s->dataflow = c->dataflow;
  s->tile_rows = c->tile_rows, s->tile_och = c->tile_och, s->tile_k = c->tile_k;
  s->tile_batch = c->tile_batch;
}

int by_conv_folds(const by_conv_t* c) {
  by_hw_t hw;
  by_conv_shape_t s;
  by_hw_get(&hw);
  conv_shape(c, &s);
  return by_plan_conv_folds(&hw, &s);
}

const by_elem_t* by_conv_packed_weights(const conv_geom_t* g) {
  return g->ws.packs_weights ? (const by_elem_t*)g->c->workspace : g->c->weights;
}

/* Depthwise: one lane-packed KB x KB diagonal weight block (KB = DIM x lanes: a scratchpad row
 * of channels, one loop pass) per (KB channels, tap); with one lane DIM x DIM elements. */
size_t by_conv_diagonal_block_elems(void) {
  return by_packed_b_rows(BY_KB) * by_packed_b_cols(BY_KB);
}
#define diagonal_block_elems by_conv_diagonal_block_elems

by_elem_t* by_conv_padded_input(const conv_geom_t* g) {
  return g->ws.padded_input_elems ? (by_elem_t*)g->c->workspace + g->ws.padded_input_offset : 0;
}

size_t by_conv_workspace_bytes(const by_conv_t* c) {
  by_hw_t hw;
  by_conv_shape_t s;
  by_conv_workspace_t w;
  by_hw_get(&hw);
  conv_shape(c, &s);
  by_plan_conv_workspace(&hw, &s, &w);
  return w.bytes;
}

/* The weights by_conv packs (by_conv_workspace_t.packs_weights: the caller's are not packed):
 * per tap, or with the columns folded per kernel row (channel kc x in_ch + i of row kr is weight
 * (kr, kc, i)). */
static void pack_weights(const conv_geom_t* g) {
  const by_conv_t* c = g->c;
  by_elem_t* out = (by_elem_t*)c->workspace;
  if (!g->folded) {
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
              k < ch ? by_conv_weight_at(c, 0, kr * c->kernel_cols + k / c->in_ch, k % c->in_ch, o)
                     : 0;
        }
}
/* Conv rows [*r0, *r1) that pooled rows [p0, p1) read. */
void by_conv_band_rows(const conv_geom_t* g, size_t p0, size_t p1, size_t* r0, size_t* r1) {
  const long lo = (long)(p0 * g->pstride) - (long)g->ppad;
  const long hi = (long)((p1 - 1) * g->pstride + g->psize) - (long)g->ppad;
  *r0 = lo < 0 ? 0 : (size_t)lo;
  *r1 = hi > (long)g->orows ? g->orows : (size_t)hi;
}

size_t by_conv_boveda_rows(const by_conv_t* c) {
  return c->kernel_rows * c->kernel_cols * by_blocks(c->in_ch) * BY_DIM;
}

/* Out-channel blocks per compressed weight block. */
static size_t och_group(const by_conv_t* c) {
  return c->weights_boveda ? by_boveda_matrix_block_cols(c->weights_boveda) / BY_DIM : 1;
}

/* Compressed activation tensors: Boveda on the accelerator (the driver has no software decoder),
 * the convolution's input shape and its unpooled output shape (the planner refuses pooling). */
static by_status_t check_compressed_tensors(const by_conv_t* c, const conv_geom_t* g) {
  const by_boveda_tensor_t *in = c->input_boveda, *out = c->output_boveda;
  if (!in && !out)
    return BY_OK;
  if (c->on_cpu || !BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if ((in && (in->batch != c->batch || in->rows != c->in_rows || in->cols != c->in_cols ||
              in->channels != c->in_ch)) ||
      (out && (out->batch != c->batch || out->rows != g->orows || out->cols != g->ocols ||
               out->channels != c->out_ch)))
    return BY_ERR_ARG;
  by_status_t s = in ? by_boveda_tensor_check(in) : BY_OK;
  if (s == BY_OK && out)
    s = by_boveda_tensor_check(out);
  return s;
}

/* What by_conv and by_conv_plan work from: the hardware and the convolution as the planner takes
 * them, and the geometry (its c: the convolution). */
typedef struct {
  by_hw_t hw;
  by_conv_shape_t s;
  conv_geom_t g;
} conv_call_t;

/* The arguments (the shape by the planner's rules), and k filled in. */
static by_status_t check_conv(const by_conv_t* c, conv_call_t* k) {
  if ((!c->input && !c->input_boveda) || (!c->output && !c->output_boveda))
    return BY_ERR_ARG;
  conv_shape(c, &k->s);
  const by_status_t shape = by_plan_conv_check(&k->s);
  if (shape != BY_OK)
    return shape;
  by_hw_get(&k->hw);
  by_plan_conv_geom(&k->hw, &k->s, &k->g);
  k->g.c = c;
  const conv_geom_t* g = &k->g;
  if (c->weights_boveda) {
    // Compressed weights are blocks of the unpacked [taps*in_ch][out_ch] matrix; vector PEs
    // read lane-packed weights, which no compressed form exists for yet.
    if (c->on_cpu || !BY_HAS_BOVEDA || BY_LANES != 1)
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
  const by_status_t tensors = check_compressed_tensors(c, g);
  if (tensors != BY_OK)
    return tensors;
  if (c->depthwise && c->weights_packed && c->on_cpu) /* the stripes: the loops' layout only */
    return BY_ERR_ARG;
  const size_t in_bytes = c->batch * c->in_rows * c->in_cols * c->in_ch * sizeof(by_elem_t);
  const size_t w_bytes =
      (c->depthwise && c->weights_packed /* the stripes */
           ? g->taps * by_packed_b_rows(BY_DIM) * by_packed_b_cols(c->in_ch)
           : c->depthwise ? c->in_ch * g->taps
             : BY_LANES != 1 && c->weights_packed && g->folded
                 ? by_conv_packed_weight_elems(c->kernel_rows, c->kernel_cols * c->in_ch, c->out_ch)
             : BY_LANES != 1 && c->weights_packed
                 ? by_conv_packed_weight_elems(g->taps, c->in_ch, c->out_ch)
                 : g->taps * c->in_ch * c->out_ch) *
      sizeof(by_elem_t);
  const size_t out_bytes = c->batch * g->prows * g->pcols * c->out_ch * sizeof(by_elem_t);
  if ((!c->input_boveda && !by_dram_reachable(c->input, in_bytes)) ||
      (!c->weights_boveda && !by_dram_reachable(c->weights, w_bytes)) ||
      (!c->output_boveda && !by_dram_reachable(c->output, out_bytes)) ||
      (c->bias && !by_dram_reachable(c->bias, c->out_ch * sizeof(by_acc_t))))
    return BY_ERR_ADDR;
  return BY_OK;
}

/* The workspace the plan needs: checked after the hardware's limits, so that a convolution the
 * accelerator cannot run hears so rather than being asked for a workspace. On the CPU only a
 * depthwise convolution's is checked (as the accelerator's would be: one contract); packing
 * and the folded loop's padded copy are the accelerator's alone. */
static by_status_t check_workspace(const by_conv_t* c, const conv_geom_t* g) {
  /* (A depthwise convolution whose caller laid out the stripes needs none.) */
  if ((c->depthwise && g->ws.bytes) ||
      (!c->on_cpu && (g->ws.packs_weights || g->ws.padded_input_elems))) {
    const size_t need = g->ws.bytes;
    if (!c->workspace || c->workspace_bytes < need)
      return BY_ERR_WORKSPACE;
    if (!by_dram_reachable(c->workspace, need))
      return BY_ERR_ADDR;
  }
  return BY_OK;
}

/* Hardware limits that the CPU fallback does not have (the planner checks the pooling). */
static by_status_t check_hardware(const by_conv_t* c) {
  if (c->dataflow != BY_DATAFLOW_AUTO && c->dataflow != BY_DATAFLOW_WS &&
      c->dataflow != BY_DATAFLOW_OS)
    return BY_ERR_ARG;
  if (c->tensordash != BY_TD_SCHEDULE_A && c->tensordash != BY_TD_SCHEDULE_B &&
      c->tensordash != BY_TD_OFF)
    return BY_ERR_ARG;
  if (c->tensordash == BY_TD_SCHEDULE_B && !BY_TENSORDASH_SCHEDULE_B)
    return BY_ERR_UNSUPPORTED;
  return BY_OK;
}

/* Loads into A rows local.. the input of tap (kr, kc), channels [ch0, ch0 + nch), for the
 * band pixels [p, p_end) (all in conv row y, columns x..), one row per pixel. With a dilated
 * kernel the tap's input is kr x dilation rows and kc x dilation columns in. */
static void gather_run(const conv_geom_t* g, size_t b, size_t y, size_t x, size_t n, size_t kr,
                       size_t kc, size_t ch0, size_t nch, uint32_t local) {
  const by_conv_t* c = g->c;
  const size_t pt = by_conv_pad_top(c), pl = by_conv_pad_left(c), sc = by_conv_stride_cols(c);
  const long irow = (long)(y * c->stride + kr * g->dilation) - (long)pt;
  kc *= g->dilation;                              /* the tap's column offset in the window */
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

/* Zeros in the n elements at ws by the DMA (zero-fill mvins and mvouts, ~16 bytes a cycle): a
 * CPU loop costs ~3-4 host cycles a byte, 0.5 M cycles on MobileNetV2's 7x7x960 layers. by_copy
 * fences, which keeps them from landing on the weights the CPU writes after. The copy's rows are
 * a diagonal block's (KB x lanes elements), whatever the layout. */
static by_status_t zero_workspace(by_elem_t* ws, size_t n) {
  const size_t row = by_packed_b_cols(BY_KB);
  by_status_t s = BY_OK;
  if (n / row)
    s = by_copy(n / row, row, 0, row, ws, row, 0);
  if (n % row && s == BY_OK)
    s = by_copy(1, n % row, 0, row, ws + n / row * row, row, 0);
  return s;
}

/* Diagonal weight blocks for the depthwise passes in the workspace of n elements: block (cb,
 * tap) of KB channels at ws + (cb * taps + tap) * diagonal_block_elems(), lane-packed (one lane:
 * DIM x DIM). */
static by_status_t build_diagonals(const conv_geom_t* g, size_t n) {
  const by_conv_t* c = g->c;
  by_elem_t* ws = (by_elem_t*)c->workspace;
  const size_t row = by_packed_b_cols(BY_KB); /* a diagonal block's rows are this wide */
  const by_status_t s = zero_workspace(ws, n);
  /* Row e and column e of each block's B, in its packed form. The offsets are hoisted: the
   * loop runs in_ch x taps times (8640 on a 960-channel 3x3 layer), and a division or call in
   * it cost 30 host cycles a weight. */
  const size_t block = diagonal_block_elems(), taps = g->taps;
  const by_elem_t* w = c->weights;
  for (size_t ch = 0; ch < c->in_ch; ++ch) {
    const size_t cb = ch / BY_KB, e = ch % BY_KB;
    by_elem_t* d = ws + cb * taps * block + e / BY_LANES * row + e * BY_LANES + e % BY_LANES;
    for (size_t t = 0; t < taps; ++t, d += block)
      *d = *w++;
  }
  return s;
}

/* The diagonal stripes of the loops' depthwise mode (docs/isa.md "Depthwise mode") in the
 * workspace of n elements: per tap PR = ceil(DIM / lanes) packed rows of row = in_ch x lanes
 * elements, tap t's at ws + t x PR x row; channel c's weight in packed row (c % DIM) / lanes,
 * element c x lanes + (c % DIM) % lanes, zeros elsewhere. As build_diagonals: the zeros by DMA
 * (taps x in_ch x DIM elements, in_ch x taps of them weights), the weights by the CPU. */
static by_status_t build_stripes(const conv_geom_t* g, size_t n) {
  const by_conv_t* c = g->c;
  by_elem_t* ws = (by_elem_t*)c->workspace;
  const size_t row = by_packed_b_cols(c->in_ch), pr = by_packed_b_rows(BY_DIM);
  const by_status_t s = zero_workspace(ws, n);
  /* Channel ch's first tap; the next taps pr x row elements on (offsets hoisted as in
   * build_diagonals: the loop runs in_ch x taps times). */
  const size_t tap_pitch = pr * row, taps = g->taps;
  const by_elem_t* w = c->weights;
  for (size_t ch = 0; ch < c->in_ch; ++ch) {
    const size_t i = ch % BY_DIM;
    by_elem_t* d = ws + i / BY_LANES * row + ch * BY_LANES + i % BY_LANES;
    for (size_t t = 0; t < taps; ++t, d += tap_pitch)
      *d = *w++;
  }
  return s;
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
static void conv_tile(const conv_geom_t* g, const by_conv_tiles_t* tl, size_t b, size_t p0,
                      size_t p1, size_t n0, uint32_t nt, size_t pass_ch0, unsigned* c_tiles,
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

/* The matmul path: the NHWC input as a (pixels x in_ch) matrix, the output as (pixels x out_ch),
 * the bias a repeated row, the planned tiles. The arithmetic is the conv's: WS, K chunks of DIM
 * channels (docs/arithmetic.md). */
static void conv_as_matmul(const by_conv_t* c, const by_conv_plan_t* plan, by_matmul_t* m) {
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
  m->tile_i = plan->tile_rows, m->tile_j = plan->tile_och, m->tile_k = plan->tile_k;
}

by_status_t by_conv_plan(const by_conv_t* c, by_conv_plan_t* plan) {
  conv_call_t k;
  if (!c || !plan)
    return BY_ERR_ARG;
  const by_conv_plan_t zero = {0};
  *plan = zero;
  by_status_t s = check_conv(c, &k);
  if (s != BY_OK)
    return s;
  if (c->on_cpu) {
    plan->workspace_bytes = k.g.ws.bytes;
    return check_workspace(c, &k.g);
  }
  if ((s = check_hardware(c)) != BY_OK ||
      (s = by_plan_conv_checked(&k.hw, &k.s, &k.g, plan)) != BY_OK)
    return s;
  return check_workspace(c, &k.g);
}

/* The kernel's status: the zero fill's refusals (reported by its copies) or any since. */
static by_status_t conv_end(by_status_t fill) {
  const by_status_t s = by_kernel_end();
  return fill != BY_OK ? fill : s;
}

by_status_t by_conv(const by_conv_t* c) {
  conv_call_t k;
  if (!c)
    return BY_ERR_ARG;
  by_status_t s = check_conv(c, &k);
  if (s != BY_OK)
    return s;
  if (c->on_cpu) {
    if ((s = check_workspace(c, &k.g)) != BY_OK || (s = by_drain()) != BY_OK)
      return s;
    by_cpu_conv(c);
    return BY_OK;
  }
  by_conv_plan_t plan;
  if ((s = check_hardware(c)) != BY_OK ||
      (s = by_plan_conv_checked(&k.hw, &k.s, &k.g, &plan)) != BY_OK ||
      (s = check_workspace(c, &k.g)) != BY_OK)
    return s;
  if (plan.path == BY_CONV_MATMUL) {
    by_matmul_t m;
    conv_as_matmul(c, &plan, &m);
    return by_matmul(&m);
  }
  const conv_geom_t* g = &k.g;
  const by_conv_tiles_t tl = {plan.tile_batch, plan.tile_rows, plan.tile_och, plan.tile_k};
  by_kernel_begin(); /* also: no earlier command reads the workspace */
  /* The zero fill's copies report their refusals themselves (by_kernel_end takes them). */
  by_status_t fill = BY_OK;
  if (c->depthwise && g->loop_depthwise) { /* weights_packed: the caller laid out the stripes */
    if (!c->weights_packed)
      fill = build_stripes(g, g->ws.bytes / sizeof(by_elem_t));
  } else if (c->depthwise)
    fill = build_diagonals(g, g->ws.bytes / sizeof(by_elem_t));
  else if (g->ws.packs_weights)
    pack_weights(g);
  if (plan.loop) {
    by_conv_loops(g, plan.dataflow, &tl);
    return conv_end(fill);
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
    for (size_t p0 = 0; p0 < g->prows; p0 += tl.rows) {
      const size_t p1 = p0 + tl.rows < g->prows ? p0 + tl.rows : g->prows;
      for (size_t pass = 0; pass < passes; ++pass)
        for (size_t n0 = 0; n0 < g->nblocks; n0 += tl.tn) {
          const uint32_t nt = (uint32_t)(g->nblocks - n0 < tl.tn ? g->nblocks - n0 : tl.tn);
          conv_tile(g, &tl, b, p0, p1, n0, nt, pass * BY_DIM, &c_tiles, &ab_tiles);
        }
    }
  return conv_end(fill);
}
