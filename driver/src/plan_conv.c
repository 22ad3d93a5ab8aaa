/* The convolution's rules (brickyard/plan.h): the geometry, folding, the workspace, the command
 * path's tiles, the dataflow and the path (docs/driver.md "Convolution paths"); the loops' tiles
 * are plan_conv_loop.c's. conv.c and conv_loop.c issue what the plan says. */
#include "plan_rules.h"

by_status_t by_plan_conv_check(const by_conv_shape_t* s) {
  if (s->batch == 0 || s->in_rows == 0 || s->in_cols == 0 || s->in_ch == 0 || s->out_ch == 0 ||
      s->kernel_rows == 0 || s->kernel_cols == 0 || s->stride == 0 || s->stride_cols == 0)
    return BY_ERR_ARG;
  if ((s->depthwise && s->out_ch != s->in_ch) || s->path < BY_CONV_AUTO || s->path > BY_CONV_MATMUL)
    return BY_ERR_ARG;
  const size_t krows = by_plan_kernel_extent(s->kernel_rows, s->dilation);
  const size_t kcols = by_plan_kernel_extent(s->kernel_cols, s->dilation);
  if (krows > s->in_rows + s->pad_top + s->pad_bottom ||
      kcols > s->in_cols + s->pad_left + s->pad_right)
    return BY_ERR_ARG;
  const size_t orows = by_plan_out_size(s->in_rows, s->pad_top + s->pad_bottom, krows, s->stride);
  const size_t ocols =
      by_plan_out_size(s->in_cols, s->pad_left + s->pad_right, kcols, s->stride_cols);
  if (s->pool_stride && (s->pool_size == 0 || s->pool_size > orows + 2 * s->pool_padding ||
                         s->pool_size > ocols + 2 * s->pool_padding))
    return BY_ERR_ARG;
  return BY_OK;
}

/* Folding pays where a kernel row's channels take fewer K blocks folded than tap by tap (an RGB
 * stem's 7 x 3 = 21 channels: 2 blocks of 16 instead of 7) and fit one move (MAX_BLOCK_LEN
 * blocks). It needs the loops, plain operands (compressed ones
 * move whole image rows), one stride, adjacent taps (no dilation), the pads of a row within one
 * move, and an image row within a quarter of the scratchpad (the padded copy stages rows in both
 * halves). A WS pass then sums a kernel row's products instead of a tap's: folding only where no
 * such sum can wrap at the spatial output width, so that the arithmetic is the unfolded one. */
int by_plan_conv_folds(const by_hw_t* hw, const by_conv_shape_t* s) {
  const size_t kb = plan_kb(hw), pads = s->pad_left + s->pad_right;
  const size_t folded_blocks = (s->kernel_cols * s->in_ch + kb - 1) / kb;
  const size_t tap_blocks = s->kernel_cols * ((s->in_ch + kb - 1) / kb);
  const uint64_t largest = (uint64_t)s->kernel_cols * s->in_ch << (2 * hw->input_width - 2);
  return (hw->loop_conv_ws || hw->loop_conv_os) && !s->depthwise && !s->weights_block_cols &&
         !s->input_compressed && !s->output_compressed && s->kernel_cols > 1 &&
         folded_blocks < tap_blocks && folded_blocks <= hw->max_block_len &&
         largest < (UINT64_C(1) << (hw->spatial_output_width - 1)) && s->stride_cols == s->stride &&
         s->dilation <= 1 && pads * s->in_ch <= hw->max_block_len * kb &&
         (s->in_cols * s->in_ch + kb - 1) / kb <= plan_sp_half(hw) / 2;
}

/* Elements of lane-packed weights: taps x ceil(in_ch / lanes) rows of out_ch x lanes. */
static size_t packed_weight_elems(const by_hw_t* hw, size_t taps, size_t in_ch, size_t out_ch) {
  return taps * by_plan_packed_rows(in_ch, hw->lanes) * by_plan_packed_cols(out_ch, hw->lanes);
}

/* With one lane packing is the identity, and the folded layout [kr][kc x in_ch][out_ch] is
 * Gemmini's: only vector PEs pack, where the caller did not (per tap, or per kernel row where
 * the loops fold: by_conv_t.weights_packed). Depthwise: the
 * diagonal stripes of the loops' depthwise mode (dw_mode), per tap ceil(DIM / lanes) packed rows
 * of the layer's channels, or a KB x KB block per KB channels and tap; with vector PEs the
 * stripes are `lanes` times smaller. */
static void workspace(const by_hw_t* hw, const by_conv_shape_t* s, int folds, int dw_mode,
                      by_conv_workspace_t* w) {
  const size_t pads = s->pad_left + s->pad_right;
  w->packs_weights =
      hw->lanes != 1 && !s->depthwise && !s->weights_block_cols && !s->weights_packed;
  const size_t packed =
      !w->packs_weights ? 0
      : folds ? packed_weight_elems(hw, s->kernel_rows, s->kernel_cols * s->in_ch, s->out_ch)
              : packed_weight_elems(hw, s->kernel_rows * s->kernel_cols, s->in_ch, s->out_ch);
  w->padded_input_offset = (packed * hw->elem_bytes + 63) / 64 * 64 / hw->elem_bytes;
  w->padded_input_elems =
      folds && pads ? s->batch * s->in_rows * (s->in_cols + pads) * s->in_ch : 0;
  size_t elems;
  if (s->depthwise && dw_mode && s->weights_packed) /* the caller laid out the stripes */
    elems = 0;
  else if (s->depthwise && dw_mode)
    elems = packed_weight_elems(hw, s->kernel_rows * s->kernel_cols, hw->dim, s->in_ch);
  else if (s->depthwise)
    elems = by_plan_ceil_div(s->in_ch, plan_kb(hw)) * s->kernel_rows * s->kernel_cols *
            packed_weight_elems(hw, 1, plan_kb(hw), plan_kb(hw));
  else
    elems = w->padded_input_elems ? w->padded_input_offset + w->padded_input_elems : packed;
  w->bytes = elems * hw->elem_bytes;
}

void by_plan_conv_workspace(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_workspace_t* w) {
  if (by_plan_conv_check(s) != BY_OK) {
    workspace(hw, s, by_plan_conv_folds(hw, s), 0, w);
    return;
  }
  by_conv_geom_t g;
  by_plan_conv_geom(hw, s, &g);
  *w = g.ws;
}

static by_status_t conv_dataflow(const by_hw_t* hw, const by_conv_shape_t* s, int* df);

/* The loops' view of a depthwise convolution's channels: in the depthwise mode its DIM-channel
 * blocks (a loop: a tile of them), else passes of KB = DIM x lanes channels, `lanes` blocks. */
static void depthwise_view(const by_hw_t* hw, const by_conv_shape_t* s, int mode,
                           by_conv_geom_t* g) {
  g->loop_depthwise = mode;
  g->loop_kblocks = 1;
  g->loop_nblocks = mode ? by_plan_ceil_div(s->in_ch, hw->dim) : hw->lanes;
}

/* Whether a depthwise convolution's loops take the depthwise mode, with their tiles in
 * g->loop_depthwise_tiles: the dataflow its plan takes has it, the path is automatic or the loop
 * (never the matmul), a stripe row (in_ch x lanes elements: weight_stride) within the loop's
 * fields, and a tile fits (else the command path runs, over diagonal blocks). Automatic tiles of
 * the mode fit wherever a pass's did: a tap's weights are a band of ceil(DIM / lanes) rows per
 * block instead of DIM rows, and C is no wider. */
static int depthwise_mode(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_geom_t* g) {
  int df;
  if (!s->depthwise || (s->path != BY_CONV_AUTO && s->path != BY_CONV_LOOP) ||
      conv_dataflow(hw, s, &df) != BY_OK ||
      !(df == hw->dataflow_os ? hw->loop_conv_os_depthwise : hw->loop_conv_ws_depthwise) ||
      by_plan_packed_cols(s->in_ch, hw->lanes) > hw->loop_dim_max)
    return 0;
  depthwise_view(hw, s, 1, g);
  const int fits = plan_conv_loop(hw, s, g, df, &g->loop_depthwise_tiles);
  depthwise_view(hw, s, 0, g);
  return fits;
}

void by_plan_conv_geom(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_geom_t* g) {
  const size_t kb = plan_kb(hw);
  g->c = 0;
  g->dilation = s->dilation > 1 ? s->dilation : 1;
  g->orows = by_plan_out_size(s->in_rows, s->pad_top + s->pad_bottom,
                              by_plan_kernel_extent(s->kernel_rows, g->dilation), s->stride);
  g->ocols = by_plan_out_size(s->in_cols, s->pad_left + s->pad_right,
                              by_plan_kernel_extent(s->kernel_cols, g->dilation), s->stride_cols);
  g->prows = by_plan_pool_size(g->orows, s->pool_size, s->pool_stride, s->pool_padding);
  g->pcols = by_plan_pool_size(g->ocols, s->pool_size, s->pool_stride, s->pool_padding);
  g->psize = s->pool_stride ? s->pool_size : 1;
  g->pstride = s->pool_stride ? s->pool_stride : 1;
  g->ppad = s->pool_stride ? s->pool_padding : 0;
  g->taps = s->kernel_rows * s->kernel_cols;
  g->cblocks = (s->in_ch + kb - 1) / kb; /* a scratchpad row of channels (lanes: DIM x L) */
  g->kblocks = s->depthwise ? g->taps : g->taps * g->cblocks;
  g->nblocks = s->depthwise ? 1 : by_plan_ceil_div(s->out_ch, hw->dim);
  g->folded = by_plan_conv_folds(hw, s);
  g->loop_taps = g->folded ? s->kernel_rows : g->taps;
  g->loop_kcols = g->folded ? 1 : s->kernel_cols;
  g->loop_ch = g->folded ? s->kernel_cols * s->in_ch : s->in_ch;
  g->loop_cols = g->folded ? s->in_cols + s->pad_left + s->pad_right : s->in_cols;
  g->loop_pad_left = g->folded ? 0 : s->pad_left;
  g->loop_pad_right = g->folded ? 0 : s->pad_right;
  g->loop_kblocks = (g->loop_ch + kb - 1) / kb;
  g->loop_nblocks = g->nblocks;
  g->loop_depthwise = 0;
  g->loop_depthwise_tiles.batch = g->loop_depthwise_tiles.rows = 0;
  g->loop_depthwise_tiles.tn = g->loop_depthwise_tiles.tk = 0;
  if (s->depthwise)
    depthwise_view(hw, s, depthwise_mode(hw, s, g), g);
  workspace(hw, s, g->folded, g->loop_depthwise, &g->ws);
}

int by_plan_pool_fits(const by_hw_t* hw, size_t size, size_t stride, size_t padding,
                      size_t conv_cols, size_t pool_cols) {
  return size <= hw->pool_small_max && stride <= hw->pool_small_max &&
         padding <= hw->pool_small_max && conv_cols <= hw->pool_dim_max &&
         pool_cols <= hw->pool_dim_max;
}

/* Accumulator blocks of a band of rows_pooled pooled rows: its conv rows x the output width. */
static size_t band_blocks(const by_hw_t* hw, const by_conv_geom_t* g, size_t rows_pooled) {
  const size_t conv_rows = (rows_pooled - 1) * g->pstride + g->psize;
  return by_plan_ceil_div((conv_rows < g->orows ? conv_rows : g->orows) * g->ocols, hw->dim);
}

int by_plan_conv_tiles_fit(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g,
                           size_t rows, size_t tn, size_t tk) {
  const size_t mt = band_blocks(hw, g, rows);
  const size_t conv_rows = (rows - 1) * g->pstride + g->psize;
  if (s->pool_stride && (conv_rows > hw->pool_dim_max || rows > hw->pool_dim_max))
    return 0;
  return tn * mt * hw->dim <= plan_acc_half(hw) &&
         (mt * tk + tk * tn) * hw->dim <= plan_sp_half(hw);
}

/* Out-channel blocks per compressed weight block (1 without compressed weights). */
static size_t och_group(const by_hw_t* hw, const by_conv_shape_t* s) {
  return s->weights_block_cols ? s->weights_block_cols / hw->dim : 1;
}

/* The command path's tiles: the forced ones; else all out-channel and K blocks if they fit, as
 * many rows as fit; otherwise fewer K blocks, then fewer out-channel blocks (halving), one band
 * row at least. */
static by_status_t command_tiles(const by_hw_t* hw, const by_conv_shape_t* s,
                                 const by_conv_geom_t* g, by_conv_tiles_t* t) {
  t->batch = 1;
  if (s->tile_rows || s->tile_och || s->tile_k) {
    t->rows = s->tile_rows ? s->tile_rows : 1;
    t->tn = s->tile_och ? s->tile_och : g->nblocks;
    t->tk = s->tile_k ? s->tile_k : g->kblocks;
    if (t->rows > g->prows)
      t->rows = g->prows;
    if (t->tn > g->nblocks)
      t->tn = g->nblocks;
    if (t->tk > g->kblocks)
      t->tk = g->kblocks;
    if (t->tn != g->nblocks && t->tn % och_group(hw, s) != 0)
      return BY_ERR_ARG; /* a tile would split a compressed weight block */
    return by_plan_conv_tiles_fit(hw, s, g, t->rows, t->tn, t->tk) ? BY_OK : BY_ERR_ARG;
  }
  const size_t group = och_group(hw, s);
  for (t->tn = g->nblocks;; t->tn = (t->tn + 1) / 2) {
    /* (Out-channel tiles of whole compressed blocks only; halving ends at one block.) */
    for (t->tk = g->kblocks; t->tn == g->nblocks || t->tn % group == 0; t->tk = (t->tk + 1) / 2) {
      if (by_plan_conv_tiles_fit(hw, s, g, 1, t->tn, t->tk)) {
        t->rows = 1;
        while (t->rows < g->prows && by_plan_conv_tiles_fit(hw, s, g, t->rows + 1, t->tn, t->tk))
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

/* The dataflow of the convolution's loop: the requested one, or automatically OS on TensorDash
 * hardware (where OS computes skip zeros) and on arrays without WS, else WS. Not OS where an
 * output tile's accumulation would be shorter than DIM reduction steps (taps x ceil(in_ch /
 * lanes): a 1x1 convolution over fewer than DIM x lanes channels, as MobileNetV2's expansions
 * over 16 or 24): every OS accumulation takes at least DIM beats (the flip and drain), so the
 * array would idle half of them, where WS streams the pixels past stationary weights. LOOP_CONV_OS
 * sums all taps and channels of a tile in the array before the result saturates to
 * spatial_output_width, so it runs only where that width is acc_width: its result is then the
 * exact wrapped sum, whatever the tiling, which is what the CPU reference and the compiler's
 * interpreter compute. BY_ERR_UNSUPPORTED for a dataflow without a path. */
static by_status_t conv_dataflow(const by_hw_t* hw, const by_conv_shape_t* s, int* df) {
  const int os_loop = hw->loop_conv_os && hw->spatial_output_width >= hw->acc_width;
  *df = s->dataflow;
  if (*df != BY_DATAFLOW_AUTO && *df != hw->dataflow_ws && *df != hw->dataflow_os)
    return BY_ERR_ARG;
  if (*df == BY_DATAFLOW_AUTO) {
    const size_t steps = s->kernel_rows * s->kernel_cols * ((s->in_ch + hw->lanes - 1) / hw->lanes);
    const int short_os = hw->ws && hw->loop_conv_ws && !s->depthwise && steps < hw->dim;
    *df = (hw->tensordash || !hw->ws) && os_loop && !short_os ? hw->dataflow_os : hw->dataflow_ws;
  }
  if (*df == hw->dataflow_os ? !os_loop : !hw->ws)
    return BY_ERR_UNSUPPORTED;
  return BY_OK;
}

/* Whether the convolution is one matmul over its pixels: a dense 1x1 kernel, stride 1, no
 * padding or pooling make the NHWC input a (pixels x in_ch) matrix and the output a (pixels x
 * out_ch) one. The arithmetic is the conv's: WS, K chunks of DIM channels (docs/arithmetic.md). */
static int matmul_shape(const by_conv_shape_t* s) {
  return !s->depthwise && !s->weights_block_cols && !s->input_compressed && !s->output_compressed &&
         s->kernel_rows == 1 && s->kernel_cols == 1 && s->stride == 1 && s->stride_cols == 1 &&
         !s->pool_stride && s->pad_top == 0 && s->pad_left == 0 && s->pad_bottom == 0 &&
         s->pad_right == 0;
}

/* The path, with the loop tiles when it is the loop. Automatic: the matmul for its shapes when
 * LOOP_WS runs it (its A blocks are DIM pixels of any rows, where a loop compute covers one
 * output row; not with forced tiles); else the loop when the hardware has it and a tile fits;
 * else the command path (WS, one lane). */
static int conv_path(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g, int df,
                     by_conv_tiles_t* lt) {
  const int forced_tiles = s->tile_rows || s->tile_och || s->tile_k || s->tile_batch;
  const int matmul = matmul_shape(s) && df == hw->dataflow_ws && hw->lanes == 1;
  switch (s->path) {
  case BY_CONV_COMMANDS:
    return BY_CONV_COMMANDS;
  case BY_CONV_MATMUL:
    return matmul ? BY_CONV_MATMUL : BY_CONV_COMMANDS;
  case BY_CONV_LOOP:
    break;
  default:
    if (matmul && hw->loop_ws && !forced_tiles)
      return BY_CONV_MATMUL;
  }
  if (g->loop_depthwise) { /* the depthwise mode's loop, found by by_plan_conv_geom */
    *lt = g->loop_depthwise_tiles;
    return BY_CONV_LOOP;
  }
  return plan_conv_loop(hw, s, g, df, lt) ? BY_CONV_LOOP : BY_CONV_COMMANDS;
}

/* The matmul path's tiles: by_matmul over the pixels (WS, the forced tiles as its tiles). */
static by_status_t matmul_tiles(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_tiles_t* t) {
  by_matmul_shape_t m = {0};
  by_matmul_plan_t mp;
  m.I = s->batch * s->in_rows * s->in_cols;
  m.K = s->in_ch;
  m.J = s->out_ch;
  m.dataflow = hw->dataflow_ws;
  m.tile_i = s->tile_rows, m.tile_j = s->tile_och, m.tile_k = s->tile_k;
  const by_status_t st = by_plan_matmul(hw, &m, &mp);
  t->batch = 1, t->rows = mp.tile_i, t->tn = mp.tile_j, t->tk = mp.tile_k;
  return st;
}

/* The dataflow, the path, and the command path's tiles when it runs (the command path needs
 * one-lane PEs and WS: elsewhere a convolution no loop holds is unsupported). */
by_status_t by_plan_conv_checked(const by_hw_t* hw, const by_conv_shape_t* s,
                                 const by_conv_geom_t* g, by_conv_plan_t* plan) {
  const by_conv_plan_t zero = {0};
  *plan = zero;
  if (s->pool_stride &&
      !by_plan_pool_fits(hw, s->pool_size, s->pool_stride, s->pool_padding, g->ocols, g->pcols))
    return BY_ERR_UNSUPPORTED;
  by_status_t st = conv_dataflow(hw, s, &plan->dataflow);
  if (st != BY_OK)
    return st;
  by_conv_tiles_t t = {0, 0, 0, 0};
  plan->path = conv_path(hw, s, g, plan->dataflow, &t);
  plan->loop = plan->path == BY_CONV_LOOP;
  /* Depthwise weights laid out as the depthwise mode's stripes serve no other path. */
  if (s->depthwise && s->weights_packed && !g->loop_depthwise)
    return BY_ERR_ARG;
  /* Compressed activation tensors: only the loops move their blocks. */
  if ((s->input_compressed || s->output_compressed) && !plan->loop)
    return BY_ERR_UNSUPPORTED;
  if (plan->path == BY_CONV_MATMUL)
    st = matmul_tiles(hw, s, &t);
  else if (plan->loop)
    plan->folded = g->folded, plan->depthwise_mode = g->loop_depthwise;
  else if (plan->dataflow != hw->dataflow_ws || hw->lanes != 1)
    return BY_ERR_UNSUPPORTED;
  else
    st = command_tiles(hw, s, g, &t);
  if (st != BY_OK)
    return st;
  plan->tile_batch = t.batch, plan->tile_rows = t.rows;
  plan->tile_och = t.tn, plan->tile_k = t.tk;
  plan->workspace_bytes = g->ws.bytes;
  return BY_OK;
}

by_status_t by_plan_conv(const by_hw_t* hw, const by_conv_shape_t* s, by_conv_plan_t* plan) {
  const by_conv_plan_t zero = {0};
  *plan = zero;
  const by_status_t st = by_plan_conv_check(s);
  if (st != BY_OK)
    return st;
  by_conv_geom_t g;
  by_plan_conv_geom(hw, s, &g);
  return by_plan_conv_checked(hw, s, &g, plan);
}
