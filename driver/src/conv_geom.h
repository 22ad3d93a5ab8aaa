/* Internal: what the convolution's paths share: the geometry, the bands of pooled rows, and the
 * LOOP_CONV_WS path (conv_loop.c) that conv.c runs where the planner (plan_conv.c) says. */
#ifndef BRICKYARD_DRIVER_CONV_GEOM_H
#define BRICKYARD_DRIVER_CONV_GEOM_H

#include "brickyard_isa.h"
#include "tile.h"

/* The geometry every part of the kernel shares (the planner's, brickyard/plan.h), its `c` the
 * convolution. */
typedef by_conv_geom_t conv_geom_t;

/* A LOOP_CONV_WS / LOOP_CONV_OS tile (tk: input-channel blocks of DIM x lanes channels). */
typedef by_conv_tiles_t conv_loop_tiles_t;

/* The bottom and right padding (from explicit_pads or `padding`). */
size_t by_conv_pad_bottom(const by_conv_t* c);
size_t by_conv_pad_right(const by_conv_t* c);
/* Conv rows [*r0, *r1) that pooled rows [p0, p1) read. */
void by_conv_band_rows(const conv_geom_t* g, size_t p0, size_t p1, size_t* r0, size_t* r1);
/* CONFIG_ST with the pooling of the band of pooled rows [p0, p1), conv rows [r0, r1). */
void by_conv_config_band_pool(const conv_geom_t* g, size_t p0, size_t p1, size_t r0, size_t r1);

/* The weights the loops read: the caller's (packed with vector PEs), or by_conv's packed copy in
 * the workspace (folded: packed per kernel row). */
const by_elem_t* by_conv_packed_weights(const conv_geom_t* g);
/* Where the horizontally padded input copy of a folded convolution (by_conv_folds) lies in the
 * workspace (NULL without column padding: the input itself serves). */
by_elem_t* by_conv_padded_input(const conv_geom_t* g);

/* Dense weight (tap, input channel, output channel): Gemmini's layout, or lane-packed
 * (weights_packed, by_pack_conv_weights) per tap, or per kernel row of kernel_cols x in_ch
 * channels where the loops fold the kernel columns (`folded`: by_conv_folds). */
static inline by_elem_t by_conv_weight_at(const by_conv_t* c, int folded, size_t tap, size_t ich,
                                          size_t och) {
  if (BY_LANES != 1 && c->weights_packed) {
    const size_t row_ch = folded ? c->kernel_cols * c->in_ch : c->in_ch;
    const size_t t = folded ? tap / c->kernel_cols : tap;
    const size_t k = folded ? tap % c->kernel_cols * c->in_ch + ich : ich;
    const size_t rows = by_packed_b_rows(row_ch), cols = by_packed_b_cols(c->out_ch);
    return c->weights[(t * rows + k / BY_LANES) * cols + och * BY_LANES + k % BY_LANES];
  }
  return c->weights[(tap * c->in_ch + ich) * c->out_ch + och];
}
/* Elements of one depthwise diagonal weight block (lane-packed KB x KB, KB = DIM x lanes). */
size_t by_conv_diagonal_block_elems(void);

/* LOOP_CONV_WS / LOOP_CONV_OS (conv_loop.c; dataflow df) with the planner's tile t: the set-up
 * and one loop per tile (the caller fences). */
void by_conv_loops(const conv_geom_t* g, int df, const conv_loop_tiles_t* t);

#endif
