/* Internal: the block loop every kernel shares. A tile is mt x nt blocks of C (in the
 * accumulator), computed from mt x kt blocks of A and kt x nt blocks of B (in the scratchpad),
 * one DIM x DIM block per PRELOAD/COMPUTE pair. Every block is DIM scratchpad rows; with vector
 * PEs a k block reduces over DIM x lanes elements and B blocks are lane-packed. */
#ifndef BRICKYARD_DRIVER_TILE_H
#define BRICKYARD_DRIVER_TILE_H

#include "brickyard/accel.h"
#include "brickyard/kernels.h"

#include <stddef.h>
#include <stdint.h>

/* Half of each memory: tiles alternate between the halves so that the loads of the next tile
 * overlap the computation of this one (the reservation station orders them). */
#define BY_SP_HALF ((uint32_t)BY_SP_ROWS / 2u)
#define BY_ACC_HALF ((uint32_t)BY_ACC_ROWS / 2u)

/* Reduction elements of a K block: one pass of the array, a scratchpad row (DIM x lanes). */
#define BY_KB ((size_t)BY_DIM * BY_LANES)

static inline size_t by_blocks(size_t n) {
  return (n + BY_DIM - 1) / BY_DIM;
}
/* Size of block b of n elements split into DIM blocks. */
static inline uint32_t by_block_size(size_t n, size_t b) {
  const size_t rest = n - b * BY_DIM;
  return (uint32_t)(rest < BY_DIM ? rest : BY_DIM);
}

/* The B operand of a pass over ks reduction elements and cols output columns: lane-packed
 * with vector PEs (docs/isa.md "Vector PEs"), ceil(ks / lanes) rows of cols x lanes elements;
 * with one lane ks x cols. */
static inline uint32_t by_b_rows(uint32_t ks) {
  return (ks + BY_LANES - 1) / BY_LANES;
}
static inline uint32_t by_b_cols(uint32_t cols) {
  return cols * BY_LANES;
}

typedef struct {
  int dataflow;
  /* Block (m, k) of A at scratchpad row a_base + m*a_m + k*a_k; likewise B (k, n) and C (m, n)
   * (C rows in the accumulator). */
  uint32_t a_base, a_m, a_k;
  uint32_t b_base, b_k, b_n;
  uint32_t c_base, c_m, c_n;
  uint32_t mt, nt, kt;
  uint32_t m_last, n_last; /* rows of the last m block, columns of the last n block */
  /* Reduction elements of k block k (<= DIM x lanes; B's rows with one lane). */
  uint32_t (*k_size)(const void* ctx, uint32_t k);
  const void* k_ctx;
  int accumulate; /* add to C; 0: the first k block overwrites C */
} by_tile_t;

/* Issues the PRELOAD/COMPUTE pairs of a tile (WS: weights stay for all m blocks; OS: one
 * accumulation per C block over the tile's k blocks). */
void by_tile_compute(const by_tile_t* t);

/* Kernel prologue (a fence: no earlier command still reads what the kernel overwrites; the
 * outermost kernel's also drains work that returned early, brickyard/kernels.h "Overlapped
 * kernels") and epilogue: fences and returns BY_ERR_HW for any refusal not reported yet, the
 * kernel's own or a raw command's before it (by_take_refusals); with overlap on, the outermost
 * kernel's returns without the fence, and the next drain reports its refusals. Everything the
 * host does before by_kernel_begin (checks, planning) overlaps the work still in flight, so it
 * must not touch what that work reads or writes. */
void by_kernel_begin(void);
by_status_t by_kernel_end(void);
/* A wait inside a kernel (its CPU reads what its commands wrote): fences and returns BY_ERR_HW
 * for refusals not reported yet, without ending the kernel. */
by_status_t by_kernel_sync(void);
/* The drain of by_drain (brickyard/kernels.h) for callers without a status to return: the
 * refusals of the work it waits for go to the hook, else to the next kernel's or drain's status. */
void by_wait_in_flight(void);

#endif /* BRICKYARD_DRIVER_TILE_H */
