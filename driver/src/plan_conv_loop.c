/* The convolution loops' rules (LOOP_CONV_WS / LOOP_CONV_OS, docs/driver.md "LOOP_CONV_WS"):
 * whether a convolution runs as loops and with which tiles of images x output rows (whole width)
 * x out-channel blocks x input-channel blocks; conv_loop.c issues them. Both loops share the
 * tiles and the local layout; with vector PEs an input-channel block is DIM x lanes channels and
 * the weights are lane-packed. A depthwise convolution's loops in the hardware's depthwise mode
 * have their own layout and tiles (runs of DIM-channel blocks, depthwise_tiles). */
#include "plan_rules.h"

/* Conv rows a tile of `rows` (pooled) rows computes at most (band_rows of its widest band). */
static size_t loop_conv_rows(const by_conv_geom_t* g, size_t rows) {
  const size_t r = (rows - 1) * g->pstride + g->psize;
  return r < g->orows ? r : g->orows;
}

/* The depthwise mode (docs/isa.md "Depthwise mode"): the rows of a tap's band of diagonal
 * stripes per DIM-channel block, ceil(DIM / lanes) lane-packed rows; and the channels of a tile
 * of tn blocks (the first, a full one). */
static size_t depthwise_band_rows(const by_hw_t* hw) {
  return by_plan_packed_rows(hw->dim, hw->lanes);
}
static size_t depthwise_tile_ch(const by_hw_t* hw, const by_conv_shape_t* s, size_t tn) {
  return tn * hw->dim < s->in_ch ? tn * hw->dim : s->in_ch;
}

/* Whether the loop's local layout (the model's LOCAL_RANGE check) holds a tile: C (tn blocks of
 * batch x conv rows x ocols rows) in half the accumulator; the input window (tk channel blocks
 * of batch x irows x icols rows) and the weights (tn blocks of taps x tk x DIM rows) in half the
 * scratchpad; a window row (icols) and a tap's weights (tk x DIM rows) within one move's rows.
 * In the depthwise mode the window holds the tile's channel groups and the weights tn blocks of
 * taps x band rows. */
static int loop_fits(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                     const by_conv_tiles_t* t) {
  const size_t conv_rows = loop_conv_rows(g, t->rows);
  if (s->pool_stride && (conv_rows > hw->pool_dim_max || t->rows > hw->pool_dim_max))
    return 0;
  const size_t irows =
      (conv_rows - 1) * s->stride + by_plan_kernel_extent(s->kernel_rows, g->dilation);
  const size_t icols =
      (g->ocols - 1) * s->stride + by_plan_kernel_extent(g->loop_kcols, g->dilation);
  const size_t a_block = t->batch * irows * icols;
  if (icols > hw->mvin_rows_max)
    return 0;
  if (t->tn * t->batch * conv_rows * g->ocols > plan_acc_half(hw))
    return 0;
  if (g->loop_depthwise) { /* A: the tile's channel groups; B: a band per (tap, block) */
    const size_t groups = by_plan_ceil_div(depthwise_tile_ch(hw, s, t->tn), plan_kb(hw));
    return groups * a_block + g->loop_taps * t->tn * depthwise_band_rows(hw) <= plan_sp_half(hw);
  }
  /* B: DIM lane-packed rows per (tap, input-channel block). */
  const size_t b_block = g->loop_taps * t->tk * hw->dim;
  return t->tk * hw->dim <= hw->mvin_rows_max &&
         t->tk * a_block + t->tn * b_block <= plan_sp_half(hw);
}

/* The most rows (at least 1) a tile of the other sizes holds, or 0. Fitting shrinks with the
 * rows, so a binary search finds it. */
static size_t loop_max_rows(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                            by_conv_tiles_t* t) {
  size_t lo = 0, hi = g->prows;
  while (lo < hi) {
    t->rows = (lo + hi + 1) / 2;
    if (loop_fits(hw, s, g, t))
      lo = t->rows;
    else
      hi = t->rows - 1;
  }
  return t->rows = lo;
}

/* Compressed activation tensors (docs/isa.md "LOOP_CONV_WS", compressed activations): Boveda,
 * dense unfolded convolutions whose output and input blocks are one loop move each (a group of
 * MAX_BLOCK_LEN x DIM x lanes channels = one output MVOUT's), an unpooled compressed output, and a
 * compressed input read in whole rows: the windows' real columns reach the image's last one. */
static int compressed_usable(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g) {
  if (!s->input_compressed && !s->output_compressed)
    return 1;
  if (!hw->boveda || s->depthwise || g->folded ||
      hw->max_block_len * plan_kb(hw) != hw->mvout_cols_max)
    return 0;
  if (s->output_compressed && s->pool_stride)
    return 0;
  const size_t icols =
      (g->ocols - 1) * s->stride + by_plan_kernel_extent(s->kernel_cols, g->dilation);
  return !s->input_compressed || icols >= s->pad_left + s->in_cols;
}

/* Tiles of whole channel groups (or every channel) for compressed activations: the input-channel
 * tiles in MAX_BLOCK_LEN blocks of DIM x lanes, the out-channel tiles in mvout_cols_max / DIM. */
static int groups_whole(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                        size_t tn, size_t tk) {
  const size_t kgroup = hw->max_block_len ? hw->max_block_len : 1;
  const size_t ngroup = hw->mvout_cols_max / hw->dim;
  return (!s->input_compressed || tk >= g->loop_kblocks || tk % kgroup == 0) &&
         (!s->output_compressed || tn >= g->loop_nblocks || tn % ngroup == 0);
}

/* Whether the convolution can run as loops of dataflow df at all: the hardware has that loop,
 * plain weights or compressed ones of one-lane PEs (the loop reads their DIM-row bands), one
 * stride, the activations the loops apply, and every size within their
 * fields. */
static int loop_usable(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                       int df) {
  if (!(df == hw->dataflow_os ? hw->loop_conv_os : hw->loop_conv_ws))
    return 0;
  if ((s->weights_block_cols && (hw->lanes != 1 || s->depthwise || !hw->boveda)) ||
      s->stride_cols != s->stride ||
      (s->activation != hw->act_none && s->activation != hw->act_relu))
    return 0;
  const size_t sizes[] = {s->in_rows,     g->loop_cols, g->loop_ch,   s->out_ch,  g->orows,
                          g->ocols,       g->prows,     g->pcols,     s->batch,   s->kernel_rows,
                          s->kernel_cols, s->pad_top,   s->pad_right, s->pad_left};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    if (sizes[i] > hw->loop_dim_max)
      return 0;
  /* A tile's dpad is at most the bottom padding (its last window row is at most in_rows +
   * pad_bottom - 1), likewise upad, lpad, rpad. */
  return s->stride <= hw->loop_stride_max && s->pad_bottom <= hw->loop_dpad_max &&
         g->dilation <= hw->loop_dilation_max && compressed_usable(hw, s, g);
}

int by_plan_conv_loop_reuse(int depthwise, size_t batch, const by_conv_geom_t* g,
                            const by_conv_tiles_t* t) {
  /* Two input-channel tiles keep their windows too, one per scratchpad half (issue_loops):
   * ResNet's 14x14 3x3 layers over 256 channels take two tiles of 128 with two out-channel
   * blocks (one block would move the weights in short requests), and reloaded their windows for
   * every out-channel tile. */
  const int kept_windows = 2 * t->tk >= g->loop_kblocks;
  if (depthwise || !kept_windows)
    return BY_CONV_KEEP_NONE;
  if (t->tn < g->loop_nblocks)
    return BY_CONV_KEEP_INPUT;
  if (t->tk < g->loop_kblocks)
    return BY_CONV_KEEP_NONE;
  return t->rows < g->prows || t->batch < batch ? BY_CONV_KEEP_WEIGHTS : BY_CONV_KEEP_NONE;
}

/* A move row's DMA cost (plan_dma_row_cost) at the read requests' floor, for reads and writes
 * alike: the 8-byte output requests of one-block tiles made ResNet-50's 1x1 convolutions slower
 * on td8 although they moved a fifth of the bytes. */
static uint64_t dma_row_cost(const by_hw_t* hw, uint64_t bytes) {
  return plan_dma_row_cost(hw, bytes, hw->dma_request_min_bytes);
}

/* DRAM traffic of the loops of tile t, in DMA requests' bytes (dma_row_cost): the reads of their
 * input windows (one request run per pixel), weights (per packed row, MAX_BLOCK_LEN output
 * blocks per move) and bias rows (read once per output row of C; a zero fill reads nothing), or
 * the writes of their output rows (per pixel, MAX_ACC_ELEM_COLS channels per move), whichever is
 * more, per MAC of the convolution, as a fraction bytes / macs; the tile choice minimises it. An
 * operand the loops keep in the scratchpad (by_plan_conv_loop_reuse) counts once per band (input)
 * or once in all (weights). */
typedef struct {
  uint64_t bytes, macs;
} loop_cost_t;

/* What the DMA spends on a row of n units (elements, or a packed weight row's lanes elements
 * per column) of `unit` bytes, moved `move` units a move. */
static uint64_t move_row_cost(const by_hw_t* hw, uint64_t n, uint64_t move, uint64_t unit) {
  return (n / move) * dma_row_cost(hw, move * unit) + dma_row_cost(hw, (n % move) * unit);
}

/* Row costs of `ch` channels (the loop's moves, loop_cost): a pixel's input channels
 * (MAX_BLOCK_LEN blocks of DIM x lanes a move), a packed weight row's output channels x lanes
 * (MAX_BLOCK_LEN blocks of DIM), an output pixel's channels (MAX_ACC_ELEM_COLS a move). */
static uint64_t input_row_cost(const by_hw_t* hw, uint64_t ch) {
  const uint64_t mbl = hw->max_block_len ? hw->max_block_len : 1;
  return move_row_cost(hw, ch, mbl * plan_kb(hw), hw->elem_bytes);
}
static uint64_t weight_row_cost(const by_hw_t* hw, uint64_t ch) {
  const uint64_t mbl = hw->max_block_len ? hw->max_block_len : 1;
  return move_row_cost(hw, ch, mbl * hw->dim, hw->lanes * hw->elem_bytes);
}
static uint64_t output_row_cost(const by_hw_t* hw, uint64_t ch) {
  return ch ? move_row_cost(hw, ch, hw->mvout_cols_max ? hw->mvout_cols_max : ch, hw->elem_bytes)
            : 0;
}

/* The depthwise mode's traffic by loop_cost's model. A tile of `ch` channels: the DMA cost of a
 * pixel's input row, of a packed weight row and of an output pixel. */
typedef struct {
  uint64_t ch, in_row, w_row, out_row;
} dw_tile_t;

static dw_tile_t depthwise_tile(const by_hw_t* hw, uint64_t ch) {
  const dw_tile_t t = {ch, input_row_cost(hw, ch), weight_row_cost(hw, ch),
                       output_row_cost(hw, ch)};
  return t;
}

/* A band of `images` x `rows` (pooled) rows, its tiles (n full ones, then the last, narrower
 * one) summed: per loop its input window, taps x band rows of weight rows and its bias (reads);
 * its output rows (writes). */
typedef struct {
  uint64_t reads, writes;
} dw_traffic_t;

static dw_traffic_t depthwise_band(const by_hw_t* hw, const by_conv_shape_t* s,
                                   const by_conv_geom_t* g, const dw_tile_t tiles[2], uint64_t n,
                                   uint64_t images, size_t rows) {
  const uint64_t conv_rows = loop_conv_rows(g, rows);
  const uint64_t irows =
      (conv_rows - 1) * s->stride + by_plan_kernel_extent(s->kernel_rows, g->dilation);
  const uint64_t icols =
      (g->ocols - 1) * s->stride + by_plan_kernel_extent(g->loop_kcols, g->dilation);
  const uint64_t pixels = images * conv_rows * g->ocols;
  const uint64_t band_rows = g->loop_taps * depthwise_band_rows(hw);
  dw_traffic_t b = {0, 0};
  for (int last = 0; last < 2; ++last) {
    const dw_tile_t* t = &tiles[last];
    const uint64_t k = last ? 1 : n;
    b.reads += k * (images * irows * icols * t->in_row + band_rows * t->w_row +
                    (s->bias ? pixels * t->ch * hw->acc_bytes : 0));
    b.writes += k * pixels * t->out_row;
  }
  return b;
}

/* The whole convolution's, its bands summed exactly too (the last band of images and of rows
 * smaller: a tile whose rows divide the output badly pays for the rows it loads, not for a full
 * band), and a DRAM round trip per loop. Nothing stays in the scratchpad. */
static loop_cost_t depthwise_cost(const by_hw_t* hw, const by_conv_shape_t* s,
                                  const by_conv_geom_t* g, const by_conv_tiles_t* t) {
  const uint64_t full = (uint64_t)t->tn * hw->dim, n = by_plan_ceil_div(g->loop_nblocks, t->tn);
  const dw_tile_t tiles[2] = {depthwise_tile(hw, full),
                              depthwise_tile(hw, s->in_ch - (n - 1) * full)};
  const size_t last_images = s->batch % t->batch, last_rows = g->prows % t->rows;
  uint64_t reads = 0, writes = 0, bands = 0;
  for (int li = 0; li < 2; ++li)
    for (int lr = 0; lr < 2; ++lr) {
      const uint64_t k = (li ? last_images != 0 : s->batch / t->batch) *
                         (lr ? last_rows != 0 : g->prows / t->rows);
      if (k == 0)
        continue;
      const dw_traffic_t b = depthwise_band(hw, s, g, tiles, n - 1, li ? last_images : t->batch,
                                            lr ? last_rows : t->rows);
      reads += k * b.reads, writes += k * b.writes, bands += k;
    }
  loop_cost_t cost;
  cost.bytes = (reads > writes ? reads : writes) + bands * n * hw->dma_round_trip_bytes;
  cost.macs = (uint64_t)s->batch * g->orows * g->ocols * s->in_ch * g->loop_taps;
  return cost;
}

static loop_cost_t loop_cost(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                             const by_conv_tiles_t* t) {
  if (g->loop_depthwise)
    return depthwise_cost(hw, s, g, t);
  const uint64_t conv_rows = loop_conv_rows(g, t->rows);
  const uint64_t irows =
      (conv_rows - 1) * s->stride + by_plan_kernel_extent(s->kernel_rows, g->dilation);
  const uint64_t icols =
      (g->ocols - 1) * s->stride + by_plan_kernel_extent(g->loop_kcols, g->dilation);
  const uint64_t kch = (uint64_t)t->tk * plan_kb(hw), och = (uint64_t)t->tn * hw->dim;
  const uint64_t pixels = (uint64_t)t->batch * conv_rows * g->ocols;
  const uint64_t in_row = input_row_cost(hw, kch), w_row = weight_row_cost(hw, och);
  const uint64_t out_row = output_row_cost(hw, och);
  const uint64_t input = (uint64_t)t->batch * irows * icols * in_row;
  const uint64_t weights = g->loop_taps * (kch / hw->lanes) * w_row;
  const uint64_t bias = s->bias ? pixels * t->tn * hw->dim * hw->acc_bytes : 0;
  const uint64_t output = (uint64_t)t->batch * conv_rows * g->ocols * out_row;
  /* Over the whole convolution (every tile counted as a full one): the loops, and how many of
   * them load each operand. */
  const uint64_t bands =
      ((s->batch + t->batch - 1) / t->batch) * ((g->prows + t->rows - 1) / t->rows);
  const uint64_t ntiles = (g->loop_nblocks + t->tn - 1) / t->tn;
  const uint64_t tiles = ntiles * ((g->loop_kblocks + t->tk - 1) / t->tk);
  const uint64_t loops = bands * tiles;
  const int reuse = by_plan_conv_loop_reuse(s->depthwise, s->batch, g, t);
  const uint64_t input_loads = reuse == BY_CONV_KEEP_INPUT ? bands : loops;
  const uint64_t weight_loads = reuse == BY_CONV_KEEP_WEIGHTS ? tiles : loops;
  /* Reads and writes have their own AXI channels: the busier one bounds the moves. Each loop
   * also waits about one DRAM round trip that nothing hides (its first operands), charged as
   * the requests max_inflight slots could have moved meanwhile (dma_request_min_bytes x
   * max_inflight = bus bytes x latency): many small loops lose to fewer large ones. */
  const uint64_t reads = input_loads * input + weight_loads * weights + loops * bias;
  const uint64_t writes = bands * ntiles * output; /* the last input-channel tile stores */
  loop_cost_t cost;
  cost.bytes = (reads > writes ? reads : writes) + loops * hw->dma_round_trip_bytes;
  /* The convolution's MACs, the same for every tiling: the tiles compare by their bytes. */
  cost.macs = (uint64_t)s->batch * g->orows * g->ocols * g->loop_nblocks * hw->dim *
              g->loop_kblocks * plan_kb(hw) * g->loop_taps;
  return cost;
}

static int loop_cheaper(loop_cost_t a, loop_cost_t b) {
  return (double)a.bytes / (double)a.macs < (double)b.bytes / (double)b.macs;
}

/* Compressed weights: the loop reads blocks of one DIM-row band and one output-channel block
 * (docs/isa.md "LOOP_CONV_WS", compressed weights), so the matrix must be cut so; any tile then
 * holds whole blocks. */
static int weight_blocks_fit(const by_hw_t* hw, const by_conv_shape_t* s) {
  return !s->weights_block_cols || s->weights_block_cols == hw->dim;
}

/* The best tile with t->tk input-channel blocks: the forced sizes, else the out-channel blocks
 * (halving) and most rows that read the fewest DRAM bytes per MAC (loop_cost; ties: more rows).
 * 0: none fits. */
static int loop_tile_for_k(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                           by_conv_tiles_t* t, loop_cost_t* cost) {
  const size_t nb = g->loop_nblocks;
  const size_t fn = s->tile_och < nb ? s->tile_och : nb;
  const size_t fr = s->tile_rows < g->prows ? s->tile_rows : g->prows;
  size_t best_tn = 0, best_rows = 0;
  loop_cost_t best = {0, 0};
  /* (A depthwise pass: all its blocks; a pass loop of fewer would repeat the pass.) */
  for (t->tn = s->tile_och && !s->depthwise ? fn : nb;; t->tn = (t->tn + 1) / 2) {
    size_t rows = fr;
    if (!weight_blocks_fit(hw, s) || !groups_whole(hw, s, g, t->tn, t->tk))
      rows = 0;
    else if (s->tile_rows)
      t->rows = fr, rows = loop_fits(hw, s, g, t) ? fr : 0;
    else
      rows = loop_max_rows(hw, s, g, t);
    if (rows) {
      t->rows = rows;
      const loop_cost_t c = loop_cost(hw, s, g, t);
      if (!best_rows || loop_cheaper(c, best) || (!loop_cheaper(best, c) && rows > best_rows))
        best_tn = t->tn, best_rows = rows, best = c;
    }
    if (s->tile_och || t->tn == 1 || s->depthwise)
      break;
  }
  t->tn = best_tn, t->rows = best_rows, *cost = best;
  return best_rows != 0;
}

/* Loop tiles of dense loops (and of depthwise passes): the forced sizes; the others the
 * input-channel blocks (all, then halving), each with its best out-channel blocks and rows
 * (loop_tile_for_k), whichever reads the fewest DRAM bytes per MAC (ties: more input channels:
 * fewer partial sums). Splitting the input channels can pay: ResNet-50's 7x7 convs with 2048
 * input channels fit only 4 of 7 rows with all of them, which reads every weight twice. 0: none
 * fits. */
static int dense_tiles(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                       by_conv_tiles_t* t) {
  const size_t kb = g->loop_kblocks;
  const size_t fk = s->tile_k < kb ? s->tile_k : kb;
  by_conv_tiles_t best = *t;
  loop_cost_t best_cost = {0, 0};
  int found = 0;
  for (t->tk = s->tile_k ? fk : kb;; t->tk = (t->tk + 1) / 2) {
    loop_cost_t cost;
    if (loop_tile_for_k(hw, s, g, t, &cost) && (!found || loop_cheaper(cost, best_cost)))
      best = *t, best_cost = cost, found = 1;
    if (s->tile_k || t->tk == 1)
      break;
  }
  *t = best;
  return found;
}

/* Tiles of the depthwise mode: runs of tn DIM-channel blocks (the forced tile_och; else every
 * balanced split, tn = ceil(blocks / n) for n tiles, down to the first that holds every row),
 * each with its most rows that fit (or the forced ones), the fewest DRAM bytes per MAC winning
 * (loop_cost; ties: the wider tile, whose window rows move in fewer, longer requests: a MVIN row
 * takes up to MAX_BLOCK_LEN x DIM x lanes channels). Narrower tiles hold more rows, so that the
 * windows' overlapping rows are read fewer times and fewer bands split the image: the cost
 * weighs the two. The search runs on the host at every by_conv call that leaves the tiles to
 * it, some hundred instructions a split: the compiler passes the tiles it found instead. tk is 1
 * (a channel sums its own taps). */
static int depthwise_tiles(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                           by_conv_tiles_t* t) {
  const size_t nb = g->loop_nblocks;
  const size_t fr = s->tile_rows < g->prows ? s->tile_rows : g->prows;
  by_conv_tiles_t best = *t;
  loop_cost_t best_cost = {0, 0};
  int found = 0;
  t->tk = 1;
  for (size_t n = 1, prev = 0; n <= nb; ++n) {
    t->tn = s->tile_och ? (s->tile_och < nb ? s->tile_och : nb) : by_plan_ceil_div(nb, n);
    if (t->tn == prev)
      continue;
    prev = t->tn;
    t->rows = fr;
    const size_t rows =
        s->tile_rows ? (loop_fits(hw, s, g, t) ? fr : 0) : loop_max_rows(hw, s, g, t);
    if (rows) {
      t->rows = rows;
      const loop_cost_t cost = loop_cost(hw, s, g, t);
      if (!found || loop_cheaper(cost, best_cost))
        best = *t, best_cost = cost, found = 1;
    }
    /* A tile that holds every row already reads each window once: narrower ones would add
     * loops, and gain at most on how a pixel's channels split into DMA requests. */
    if (s->tile_och || rows == g->prows)
      break;
  }
  *t = best;
  return found;
}

/* The loop tiles (the depthwise mode's or the dense ones); once a tile holds every row, as many
 * images as fit. 0: no tile fits (the command path runs). */
static int loop_tiles(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                      by_conv_tiles_t* t) {
  const size_t fb = s->tile_batch < s->batch ? s->tile_batch : s->batch;
  t->batch = s->tile_batch ? fb : 1;
  if (!(g->loop_depthwise ? depthwise_tiles(hw, s, g, t) : dense_tiles(hw, s, g, t)))
    return 0;
  if (!s->tile_batch && t->rows == g->prows)
    while (t->batch < s->batch) {
      ++t->batch;
      if (!loop_fits(hw, s, g, t)) {
        --t->batch;
        break;
      }
    }
  return 1;
}

int plan_conv_loop(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g, int df,
                   by_conv_tiles_t* t) {
  return loop_usable(hw, s, g, df) && loop_tiles(hw, s, g, t);
}

uint64_t by_plan_conv_loop_bytes(const by_hw_t* hw, const by_conv_shape_t* s,
                                 const by_conv_plan_t* plan) {
  if (!plan->loop || by_plan_conv_check(s) != BY_OK)
    return 0;
  by_conv_geom_t g;
  by_plan_conv_geom(hw, s, &g);
  const by_conv_tiles_t t = {plan->tile_batch, plan->tile_rows, plan->tile_och, plan->tile_k};
  return loop_cost(hw, s, &g, &t).bytes;
}

/* The input rows [lo, hi) of the window span [lo, hi) clipped to the image's n rows (the loops
 * read no padding). */
static uint64_t rows_inside(int64_t lo, int64_t hi, size_t n) {
  lo = lo > 0 ? lo : 0;
  hi = hi < (int64_t)n ? hi : (int64_t)n;
  return hi > lo ? (uint64_t)(hi - lo) : 0;
}

/* Bytes an MVIN of `rows` DRAM rows of `row_bytes`, `pitch` apart, reads. Rows that touch or
 * overlap (0 < pitch <= row_bytes: a folded input's windows, one input pixel apart) go several to
 * a DMA read, the largest power of two whose span fits a request, so the bytes they share are
 * read once per request (docs/architecture.md, "Load controller"). */
static uint64_t mvin_read_bytes(const by_hw_t* hw, uint64_t rows, uint64_t row_bytes,
                                uint64_t pitch) {
  if (pitch == 0 || pitch > row_bytes)
    return rows * row_bytes;
  uint64_t n = 1;
  while (2 * n <= hw->dma_max_bytes && (2 * n - 1) * pitch + row_bytes <= hw->dma_max_bytes)
    n *= 2;
  const uint64_t reads = by_plan_ceil_div(rows, n); /* each reads row_bytes - pitch once more */
  return rows * pitch + reads * (row_bytes - pitch);
}

/* Raw DRAM bytes, band by band: per band its input window (the image's rows and columns it
 * covers; every input channel once per out-channel tile, or once where the loops keep the
 * window), its weights (unless kept over the bands: then once in all), the bias rows its loops
 * broadcast (one DIM-channel row per out-channel block and output row, or per block where the
 * loop pools; read from DRAM once, docs/isa.md "MVIN") and its output; and by_conv's padded
 * copy of a folded input. */
void by_plan_conv_loop_traffic(const by_hw_t* hw, const by_conv_shape_t* s,
                               const by_conv_plan_t* plan, by_conv_traffic_t* traffic) {
  const by_conv_traffic_t zero = {0, 0, 0, 0, 0};
  *traffic = zero;
  if (!plan->loop || by_plan_conv_check(s) != BY_OK)
    return;
  by_conv_geom_t g;
  by_plan_conv_geom(hw, s, &g);
  const by_conv_tiles_t t = {plan->tile_batch, plan->tile_rows, plan->tile_och, plan->tile_k};
  const uint64_t e = hw->elem_bytes;
  /* Depthwise: each channel its own window and taps (the depthwise mode's diagonal stripes, or
   * the dense loops' diagonal blocks: DIM rows per tap and channel either way). */
  const int dw = s->depthwise;
  const uint64_t in_ch = dw ? s->in_ch : g.loop_ch, och = s->out_ch;
  const uint64_t weights =
      dw ? (uint64_t)g.loop_taps * depthwise_band_rows(hw) * hw->lanes * in_ch * e
         : (uint64_t)g.loop_taps * in_ch * och * e;
  const uint64_t ntiles = by_plan_ceil_div(g.loop_nblocks, t.tn);
  const int reuse = dw ? BY_CONV_KEEP_NONE : by_plan_conv_loop_reuse(0, s->batch, &g, &t);
  const uint64_t window_loads = dw || reuse == BY_CONV_KEEP_INPUT ? 1 : ntiles;
  const int64_t kext = (int64_t)by_plan_kernel_extent(s->kernel_rows, g.dilation);
  /* A row's columns: a folded input's padded copy in full, else the image's the window covers. */
  const uint64_t icols =
      g.folded ? (g.ocols - 1) * s->stride + by_plan_kernel_extent(g.loop_kcols, g.dilation)
               : rows_inside(-(int64_t)s->pad_left,
                             (int64_t)((g.ocols - 1) * s->stride_cols) - (int64_t)s->pad_left +
                                 (int64_t)by_plan_kernel_extent(s->kernel_cols, g.dilation),
                             s->in_cols);
  /* A window row's bytes: its pixels, one input pixel (in_ch elements) apart; a folded loop
   * pixel spans kernel_cols of them, so the loop's pixels overlap (per input-channel tile). */
  uint64_t row_bytes = icols * in_ch * e;
  if (g.folded) {
    const uint64_t pass = (uint64_t)t.tk * plan_kb(hw);
    row_bytes = 0;
    for (uint64_t k0 = 0; k0 < in_ch; k0 += pass)
      row_bytes += mvin_read_bytes(hw, icols, (in_ch - k0 < pass ? in_ch - k0 : pass) * e,
                                   (uint64_t)s->in_ch * e);
  }
  for (size_t b0 = 0; b0 < s->batch; b0 += t.batch)
    for (size_t p0 = 0; p0 < g.prows; p0 += t.rows) {
      const uint64_t images = s->batch - b0 < t.batch ? s->batch - b0 : t.batch;
      const size_t p1 = p0 + t.rows < g.prows ? p0 + t.rows : g.prows;
      /* The conv rows the band's (pooled) rows need, then the input rows those read. */
      const int64_t c0s = (int64_t)(p0 * g.pstride) - (int64_t)g.ppad;
      const int64_t c1s = (int64_t)((p1 - 1) * g.pstride) - (int64_t)g.ppad + (int64_t)g.psize;
      const int64_t c0 = c0s > 0 ? c0s : 0, c1 = c1s < (int64_t)g.orows ? c1s : (int64_t)g.orows;
      const int64_t i0 = c0 * (int64_t)s->stride - (int64_t)s->pad_top;
      const uint64_t irows =
          rows_inside(i0, (c1 - 1) * (int64_t)s->stride - (int64_t)s->pad_top + kext, s->in_rows);
      const uint64_t bias_rows = s->pool_stride ? 1 : images * (uint64_t)(c1 - c0);
      traffic->input += window_loads * images * irows * row_bytes;
      traffic->weight_loads += reuse == BY_CONV_KEEP_WEIGHTS ? 0 : 1;
      traffic->bias += s->bias ? bias_rows * och * hw->acc_bytes : 0;
      traffic->output += images * (p1 - p0) * g.pcols * och * e;
    }
  if (reuse == BY_CONV_KEEP_WEIGHTS)
    traffic->weight_loads = 1;
  traffic->weights = traffic->weight_loads * weights;
  /* A folded input's copy with padded columns: the input read, the copy written. */
  if (g.ws.padded_input_elems)
    traffic->input +=
        ((uint64_t)s->batch * s->in_rows * s->in_cols * s->in_ch + g.ws.padded_input_elems) * e;
}
