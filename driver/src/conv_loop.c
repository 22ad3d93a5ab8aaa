/* Convolution through LOOP_CONV_WS or LOOP_CONV_OS (docs/driver.md, "LOOP_CONV_WS"): the same
 * convolution as the command path (conv.c) runs as Gemmini's tiled_conv does, one loop per tile
 * of images x output rows (whole width) x out-channel blocks x input-channel blocks, which the
 * accelerator unrolls into the moves and computes itself (docs/isa.md "LOOP_CONV_WS",
 * "LOOP_CONV_OS"): a handful of commands per tile instead of one per block and pixel run. The
 * loop gathers the padded input window row by row, so the A rows of one output row are `stride`
 * rows apart (CONFIG_EX's a_stride). Both loops share the tiles and the local layout; with
 * vector PEs an input-channel block is DIM x lanes channels and the weights are lane-packed. A
 * depthwise convolution runs in the loops' depthwise mode where the loop has it (one loop per
 * tile of DIM-channel blocks over the diagonal stripes), else as dense passes over diagonal
 * blocks. Whether the loops run and with which tiles is the planner's (plan_conv_loop.c). */
#include "brickyard/boveda.h"
#include "conv_geom.h"

/* One loop of dataflow df. */
static void issue_loop(const by_loop_conv_ws_t* l, int df) {
  if (df == BY_DATAFLOW_OS)
    by_loop_conv_os(l);
  else
    by_loop_conv_ws(l);
}

/* A band's loops in the hardware's depthwise mode (docs/isa.md "Depthwise mode"): one per tile
 * of t->tn DIM-channel blocks (the last one narrower), kchs = pochs its channels; its input,
 * bias and output at its first channel, its weights the stripes' columns from there (tap 0's
 * first packed row, element ch0 x lanes; the taps' bands weight_stride-element rows apart).
 * Nothing stays in the scratchpad: each loop loads its own window and band. */
static void issue_depthwise_band(const conv_geom_t* g, int df, const conv_loop_tiles_t* t,
                                 by_loop_conv_ws_t* l, size_t b0, size_t p0, size_t first_row) {
  const by_conv_t* c = g->c;
  const size_t width = t->tn * BY_DIM;
  for (size_t ch0 = 0; ch0 < c->in_ch; ch0 += width) {
    l->kchs = l->pochs = (uint32_t)(c->in_ch - ch0 < width ? c->in_ch - ch0 : width);
    l->input = c->input + ((b0 * c->in_rows + first_row) * g->loop_cols) * c->in_ch + ch0;
    l->weights = (c->weights_packed ? c->weights : (const by_elem_t*)c->workspace) +
                 by_packed_b_cols(ch0); /* the caller's stripes, or the workspace's */
    l->no_bias = 0;
    l->bias = c->bias ? c->bias + ch0 : 0;
    l->output = c->output + ((b0 * g->prows + p0) * g->pcols) * c->out_ch + ch0;
    issue_loop(l, df);
  }
}

/* The tiles as loops, in the order of the command path: per images and band of rows (with
 * pooling the band's CONFIG_ST pooling, as conv_tile sets it; in the depthwise mode its channel
 * tiles, issue_depthwise_band), per depthwise pass and out-channel tile, the input-channel tiles:
 * the first loads the bias (zeros without one), the others add onto the accumulator (no_bias), the
 * last stores C (the loops before it leave C in the accumulator, whose half the accelerator keeps
 * until a loop stores). Operands stay in the scratchpad where the tiles allow
 * (by_plan_conv_loop_reuse): a band's input window over its out-channel tiles, in the half the
 * band's parity names, so that the next band's window loads while this band computes (with two
 * input-channel tiles their windows take a half each, the second's the other half); or the
 * weights over every band, at the end of the upper half. */
static void issue_loops(const conv_geom_t* g, int df, const conv_loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  const size_t pt = by_conv_pad_top(c), pl = g->loop_pad_left, S = c->stride;
  const size_t icols = (g->ocols - 1) * S + by_plan_kernel_extent(g->loop_kcols, g->dilation);
  /* The window's columns [-pl, icols - pl): lpad zeros, the real columns, rpad zeros. */
  const size_t lpad = pl < icols ? pl : icols;
  const size_t rcols = icols - lpad < g->loop_cols ? icols - lpad : g->loop_cols;
  /* A folded loop reads the horizontally padded copy (or, without column padding, the input). */
  const by_elem_t* input =
      g->folded && by_conv_padded_input(g) ? by_conv_padded_input(g) : c->input;
  /* Depthwise without the hardware's depthwise mode: passes of DIM x lanes channels (a
   * scratchpad row of each pixel: one DMA request per pixel and pass); with one lane DIM. */
  const int passes_dw = c->depthwise && !g->loop_depthwise;
  const size_t passes = passes_dw ? (c->in_ch + BY_KB - 1) / BY_KB : 1;
  const size_t kb = g->loop_kblocks, nb = g->loop_nblocks;
  const int reuse = by_plan_conv_loop_reuse(c->depthwise, c->batch, g, t);
  size_t band = 0;
  by_loop_conv_ws_t l = {0};
  l.in_row_dim = (uint32_t)c->in_rows, l.in_col_dim = (uint32_t)g->loop_cols;
  l.out_row_dim = (uint32_t)g->orows, l.out_col_dim = (uint32_t)g->ocols;
  l.pool_out_row_dim = (uint32_t)g->prows, l.pool_out_col_dim = (uint32_t)g->pcols;
  l.stride = (uint32_t)S, l.kernel_dilation = (uint32_t)g->dilation;
  l.kernel_dim = (uint32_t)g->loop_kcols; /* the tap pitch of the weight rows */
  l.krows = (uint32_t)c->kernel_rows, l.kcols = (uint32_t)g->loop_kcols;
  l.ocols = (uint32_t)g->ocols;
  l.lpad = (uint32_t)lpad, l.rpad = (uint32_t)(icols - lpad - rcols);
  /* Depthwise passes: the diagonal blocks are KB x KB (KB = DIM x lanes), so a tap's (packed)
   * weight rows are KB / lanes apart. Packed rows hold out_ch x lanes elements (docs/isa.md,
   * "Vector PEs"): the depthwise mode's stripes the layer's channels x lanes (its in_channels
   * is not read). */
  l.depthwise = g->loop_depthwise;
  l.in_channels = (uint32_t)(g->loop_depthwise ? BY_DIM : passes_dw ? BY_KB : g->loop_ch);
  l.weight_stride = (uint32_t)by_packed_b_cols(passes_dw ? BY_KB : c->out_ch);
  const by_elem_t* weights = by_conv_packed_weights(g);
  if (c->weights_boveda) { /* compressed: entries of DIM-row bands, per band its groups */
    l.weights_compressed = 1;
    l.weight_stride = (uint32_t)by_boveda_matrix_col_blocks(c->weights_boveda);
  }
  l.in_stride = (uint32_t)c->in_ch, l.out_stride = (uint32_t)c->out_ch;
  /* Compressed activation tensors: entries of whole rows, their groups per row. */
  const by_boveda_tensor_t *zin = c->input_boveda, *zout = c->output_boveda;
  const size_t group = by_boveda_tensor_group();
  if (zin)
    l.input_compressed = 1, l.in_stride = (uint32_t)by_boveda_tensor_groups(zin);
  if (zout)
    l.output_compressed = 1, l.out_stride = (uint32_t)by_boveda_tensor_groups(zout);
  l.no_pool = c->pool_stride == 0;
  l.activation = c->activation;
  for (size_t b0 = 0; b0 < c->batch; b0 += t->batch) {
    l.batches = (uint32_t)(c->batch - b0 < t->batch ? c->batch - b0 : t->batch);
    for (size_t p0 = 0; p0 < g->prows; p0 += t->rows, ++band) {
      const size_t p1 = p0 + t->rows < g->prows ? p0 + t->rows : g->prows;
      size_t r0, r1;
      by_conv_band_rows(g, p0, p1, &r0, &r1);
      if (c->pool_stride)
        by_conv_config_band_pool(g, p0, p1, r0, r1);
      /* The window's rows [iy0, iy0 + irows): upad zeros, the real rows, dpad zeros. */
      const long iy0 = (long)(r0 * S) - (long)pt;
      const size_t irows = (r1 - r0 - 1) * S + by_plan_kernel_extent(c->kernel_rows, g->dilation);
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
      if (g->loop_depthwise) {
        issue_depthwise_band(g, df, t, &l, b0, p0, first_row);
        continue;
      }
      for (size_t pass = 0; pass < passes; ++pass) {
        const size_t ch0 = pass * BY_KB; /* depthwise: the pass's first channel */
        for (size_t n0 = 0; n0 < nb; n0 += t->tn) {
          const size_t och0 = c->depthwise ? ch0 : n0 * BY_DIM;
          const size_t tn = nb - n0 < t->tn ? nb - n0 : t->tn;
          const size_t och_end =
              c->depthwise ? (ch0 + BY_KB < c->in_ch ? ch0 + BY_KB : c->in_ch) : (n0 + tn) * BY_DIM;
          l.pochs = (uint32_t)((och_end < c->out_ch ? och_end : c->out_ch) - och0);
          for (size_t k0 = 0; k0 < kb; k0 += t->tk) {
            const size_t kch0 = c->depthwise ? ch0 : k0 * BY_KB;
            const size_t kch_end = c->depthwise ? ch0 + l.pochs : (k0 + t->tk) * BY_KB;
            l.kchs = (uint32_t)((kch_end < g->loop_ch ? kch_end : g->loop_ch) - kch0);
            /* A loop pixel starts every in_ch elements (in_stride), folded or not. */
            l.input =
                zin ? by_boveda_tensor_entry(zin, b0, first_row, kch0 / group)
                    : input + ((b0 * c->in_rows + first_row) * g->loop_cols) * c->in_ch + kch0;
            /* Packed row kch0 / lanes of tap 0 (kch0 is a multiple of DIM x lanes), column
             * och0 x lanes. */
            l.weights =
                c->depthwise
                    ? (const void*)((const by_elem_t*)c->workspace +
                                    pass * g->taps * by_conv_diagonal_block_elems())
                    : (const void*)(weights + kch0 / BY_LANES * by_packed_b_cols(c->out_ch) +
                                    by_packed_b_cols(och0));
            if (c->weights_boveda) { /* band (tap 0, kch0 / DIM), group och0 / group */
              const by_boveda_matrix_t* wb = c->weights_boveda;
              l.weights =
                  by_boveda_matrix_entry(wb, kch0 / BY_DIM, och0 / by_boveda_matrix_block_cols(wb));
            }
            if (reuse == BY_CONV_KEEP_INPUT) { /* loaded by the band's first out-channel tile */
              l.a_spad_id = 1 + (int)((band + k0 / t->tk) & 1);
              if (n0 != 0)
                l.input = 0;
            } else if (reuse == BY_CONV_KEEP_WEIGHTS) { /* loaded by the first band's loop */
              l.b_spad_id = 2;
              if (b0 != 0 || p0 != 0)
                l.weights = 0;
            }
            l.no_bias = k0 != 0;
            l.bias = k0 == 0 && c->bias ? c->bias + och0 : 0;
            const int last = k0 + t->tk >= kb;
            /* The band's first pooled row, or without pooling its first conv row (= p0). */
            l.output = !last  ? 0
                       : zout ? by_boveda_tensor_entry(zout, b0, p0, och0 / group)
                              : c->output + ((b0 * g->prows + p0) * g->pcols) * c->out_ch + och0;
            issue_loop(&l, df);
          }
        }
      }
    }
  }
}

/* A folded convolution's input with its column padding in DRAM (by_conv_padded_input: rows of
 * loop_cols pixels), copied by DMA through the scratchpad: every image row comes in as rows of
 * DIM x lanes elements (its last one partial) and leaves at its padded place; the padding between
 * two image rows is contiguous in the copy (the right pad of a row and the left pad of the next)
 * and leaves from rows of zeros, with the copy's first left and last right pad. Fenced after: the
 * loops' MVINs read it (the accelerator does not order DRAM). */
static void copy_padded_input(const conv_geom_t* g) {
  const by_conv_t* c = g->c;
  by_elem_t* dst = by_conv_padded_input(g);
  const size_t pl = by_conv_pad_left(c), pr = by_conv_pad_right(c), C = c->in_ch;
  const size_t rows = c->batch * c->in_rows, row = c->in_cols * C, pitch = g->loop_cols * C;
  const size_t full = row / BY_KB, tail = row % BY_KB, spr = full + (tail != 0);
  by_config_ld(0, BY_KB * sizeof(by_elem_t), 0, 0);
  by_config_st((uint32_t)(BY_KB * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  uint32_t slot = 0; /* the scratchpad rows of one image row: halves alternate */
  for (size_t r = 0; r < rows; ++r, slot ^= 1u) {
    const uint32_t local = by_sp_addr(slot * BY_SP_HALF);
    const by_elem_t* src = c->input + r * row;
    by_elem_t* out = dst + r * pitch + pl * C;
    if (full) {
      by_mvin(0, src, local, (uint32_t)full, (uint32_t)BY_KB);
      by_mvout(out, local, (uint32_t)full, (uint32_t)BY_KB);
    }
    if (tail) {
      by_mvin(0, src + full * BY_KB, local + (uint32_t)full, 1, (uint32_t)tail);
      by_mvout(out + full * BY_KB, local + (uint32_t)full, 1, (uint32_t)tail);
    }
  }
  /* The pads: zero rows in the scratchpad (after both halves' image rows), one strided MVOUT for
   * the gaps between rows, one for the first left and the last right pad. A gap of several
   * column blocks takes blocks DIM rows apart (the moves' block stride), so DIM rows a move. */
  const size_t gaps = rows - 1, gap = (pl + pr) * C;
  const size_t zmax = gap > BY_KB ? BY_DIM : BY_SP_HALF - spr;
  const size_t zrows = gaps < zmax ? gaps : zmax;
  const uint32_t zeros = by_sp_addr((uint32_t)spr);
  by_config_st((uint32_t)(pitch * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, 0);
  by_mvin(0, 0, zeros, (uint32_t)(zrows ? zrows : 1), (uint32_t)(gap ? gap : 1));
  for (size_t r = 0; gap && r < gaps; r += zrows) /* the gap after row r */
    by_mvout(dst + (r * pitch + (pl + c->in_cols) * C), zeros,
             (uint32_t)(gaps - r < zrows ? gaps - r : zrows), (uint32_t)gap);
  if (pl)
    by_mvout(dst, zeros, 1, (uint32_t)(pl * C));
  if (pr)
    by_mvout(dst + rows * pitch - pr * C, zeros, 1, (uint32_t)(pr * C));
  by_fence();
}

void by_conv_loops(const conv_geom_t* g, int df, const conv_loop_tiles_t* t) {
  const by_conv_t* c = g->c;
  if (g->folded && by_conv_padded_input(g))
    copy_padded_input(g);
  /* Gemmini's tiled_conv set-up: A rows `stride` apart, the mvin channels' DRAM strides (the
   * loop places its blocks itself, docs/isa.md "Local layout"). */
  by_config_ex_td(df, BY_ACT_NONE, 0, (uint32_t)c->stride, 1,
                  df == BY_DATAFLOW_OS ? c->tensordash : BY_TD_SCHEDULE_A);
  if (c->input_boveda) /* the stream bases (checked by by_conv) */
    (void)by_config_ld_compressed(0, c->input_boveda->stream, 0);
  else
    by_config_ld(0, c->in_ch * sizeof(by_elem_t), 0, 0);
  if (c->weights_boveda)
    (void)by_config_ld_compressed(1, c->weights_boveda->stream, 0);
  else
    by_config_ld(1,
                 by_packed_b_cols(c->depthwise && !g->loop_depthwise ? BY_KB : c->out_ch) *
                     sizeof(by_elem_t),
                 0, 0);
  by_config_ld(2, 0, 0, 0);
  if (c->output_boveda) /* a new stream: the loops' MVOUTs append their blocks */
    (void)by_config_st_compressed(c->output_boveda->stream, c->activation, c->scale);
  else
    by_config_st((uint32_t)(c->out_ch * sizeof(by_elem_t)), c->activation, c->scale, 0);
  issue_loops(g, df, t);
}
