/* Internal: what the planner's files (plan_*.c, brickyard/plan.h) share. */
#ifndef BRICKYARD_DRIVER_PLAN_RULES_H
#define BRICKYARD_DRIVER_PLAN_RULES_H

#include "brickyard/plan.h"

/* Half of each memory: tiles alternate between the halves so that the loads of the next tile
 * overlap the computation of this one. */
static inline size_t plan_sp_half(const by_hw_t* hw) {
  return hw->sp_rows / 2;
}
/* Row tiles of a matmul tile: LOOP_WS moves all its I x DIM rows at once, their column blocks
 * I x DIM rows apart, and a block stride is a 16-bit field (docs/isa.md, "LOOP_WS": LOCAL_RANGE
 * beyond; only accumulator halves above 65535 rows reach it). */
static inline size_t plan_row_tiles_max(const by_hw_t* hw) {
  return 0xffff / hw->dim;
}
static inline size_t plan_acc_half(const by_hw_t* hw) {
  return hw->acc_rows / 2;
}
/* Reduction elements of a K block: one pass of the array, a scratchpad row (DIM x lanes). */
static inline size_t plan_kb(const by_hw_t* hw) {
  return hw->dim * hw->lanes;
}

/* What the DMA spends on one move row of `bytes`: the row is cut into requests of at most
 * dma_max_bytes, and each costs at least `floor` bus bytes (a request holds one of the
 * max_inflight read or max_inflight_writes write slots for the DRAM latency, so short ones are
 * latency-bound: dma_request_min_bytes, dma_write_request_min_bytes). */
static inline uint64_t plan_dma_row_cost(const by_hw_t* hw, uint64_t bytes, uint64_t floor) {
  const uint64_t req = hw->dma_max_bytes ? hw->dma_max_bytes : 1;
  const uint64_t full = bytes / req, rest = bytes % req;
  return full * (req > floor ? req : floor) + (rest == 0 ? 0 : rest > floor ? rest : floor);
}

/* The convolution loops (plan_conv_loop.c): whether the convolution runs as loops of dataflow df
 * (the hardware has them, the shape is within their fields, a tile fits), with the tile in *t. */
int plan_conv_loop(const by_hw_t* hw, const by_conv_shape_t* s, const by_conv_geom_t* g, int df,
                   by_conv_tiles_t* t);

#endif
