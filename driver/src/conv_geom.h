/* Internal: what the convolution's paths share: the geometry, the bands of pooled rows, and the
 * LOOP_CONV_WS path (conv_loop.c) that conv.c plans and runs. */
#ifndef BRICKYARD_DRIVER_CONV_GEOM_H
#define BRICKYARD_DRIVER_CONV_GEOM_H

#include "brickyard_isa.h"
#include "tile.h"

/* Field limits of CONFIG_ST pooling (2-bit and 8-bit fields). */
#define POOL_SMALL_MAX ((size_t)BY_CONFIG_ST_RS1_POOL_SIZE_MASK)
#define POOL_DIM_MAX ((size_t)BY_CONFIG_ST_RS1_OROWS_MASK)

/* The geometry every part of the kernel shares (by_conv_geom). */
typedef struct {
  const by_conv_t* c;
  size_t orows, ocols, prows, pcols;
  size_t psize, pstride, ppad; /* 1, 1, 0 without pooling */
  size_t taps, cblocks;        /* K blocks: taps x cblocks (dense) or taps (depthwise) */
  size_t kblocks, nblocks;     /* per pass */
  /* The loops' view of the input (conv_loop.c). With `folded` (thin inputs, by_conv_folds) the
   * kernel columns fold into the channels: a loop pixel is kernel_cols real pixels, loop_ch =
   * kernel_cols x in_ch contiguous elements of an NHWC row starting at a column of the copy
   * padded to loop_cols columns, and each kernel row is one tap (loop_kcols 1, no column
   * padding left). Else the convolution's own sizes. */
  int folded;
  size_t loop_taps, loop_kcols, loop_ch, loop_cols, loop_pad_left, loop_pad_right;
} conv_geom_t;

/* A LOOP_CONV_WS / LOOP_CONV_OS tile (tk: input-channel blocks of DIM x lanes channels). */
typedef struct {
  size_t batch, rows, tn, tk; /* images, (pooled) output rows, out- and input-channel blocks */
} conv_loop_tiles_t;

void by_conv_geom(const by_conv_t* c, conv_geom_t* g);
/* The bottom and right padding (from explicit_pads or `padding`). */
size_t by_conv_pad_bottom(const by_conv_t* c);
size_t by_conv_pad_right(const by_conv_t* c);
/* Conv rows [*r0, *r1) that pooled rows [p0, p1) read. */
void by_conv_band_rows(const conv_geom_t* g, size_t p0, size_t p1, size_t* r0, size_t* r1);
/* CONFIG_ST with the pooling of the band of pooled rows [p0, p1), conv rows [r0, r1). */
void by_conv_config_band_pool(const conv_geom_t* g, size_t p0, size_t p1, size_t r0, size_t r1);

/* The weights the loops read: the caller's (packed with vector PEs), or by_conv's packed copy in
 * the workspace (folded: packed per kernel row). */
const by_elem_t* by_conv_packed_weights(const by_conv_t* c);
/* Where the horizontally padded input copy of a folded convolution (by_conv_folds) lies in the
 * workspace (NULL without column padding: the input itself serves). */
by_elem_t* by_conv_padded_input(const by_conv_t* c);

/* Dense weight (tap, input channel, output channel): Gemmini's layout, or lane-packed per tap
 * (weights_packed, by_pack_conv_weights). */
static inline by_elem_t by_conv_weight_at(const by_conv_t* c, size_t tap, size_t ich, size_t och) {
  if (BY_LANES != 1 && c->weights_packed) {
    const size_t rows = by_packed_b_rows(c->in_ch), cols = by_packed_b_cols(c->out_ch);
    return c->weights[(tap * rows + ich / BY_LANES) * cols + och * BY_LANES + ich % BY_LANES];
  }
  return c->weights[(tap * c->in_ch + ich) * c->out_ch + och];
}
/* Elements of one depthwise diagonal weight block (lane-packed DIM x DIM). */
size_t by_conv_diagonal_block_elems(void);

/* LOOP_CONV_WS / LOOP_CONV_OS (conv_loop.c; dataflow df): whether the convolution runs as loops
 * (the hardware has them, the shape is within their fields, a tile fits), with the tile in *t;
 * then issuing them (the set-up and one loop per tile; the caller fences). */
int by_conv_loop_plan(const conv_geom_t* g, int df, conv_loop_tiles_t* t);
void by_conv_loops(const conv_geom_t* g, int df, const conv_loop_tiles_t* t);

#endif
