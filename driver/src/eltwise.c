/* Residual add and global average pooling (brickyard/kernels.h): both sum in the accumulator
 * (mvins with shrink and accumulate) and scale on the way out. A chunk is up to DIM rows of up
 * to MAX_ACC_ELEM_COLS columns (max_bytes of elem_t, so one DMA request per DRAM row), in
 * column blocks of DIM that lie DIM rows apart as mvout reads them; chunks rotate through
 * slots of the accumulator. The moves into one slot depend on each other (an accumulating mvin
 * waits for the one before it, the mvout for both), and the load queue issues in order, so the
 * chunks of a group (half the slots) are interleaved: every chunk's first mvin, then every
 * chunk's next one, ..., then the mvouts. A move then waits for one issued a group earlier, and
 * the DMA's requests overlap instead of paying its latency once per move. Only the accumulator
 * is used, whose rows are DIM acc_t wide with vector PEs too (docs/isa.md). */
#include "brickyard/cpu.h"
#include "brickyard_isa.h"
#include "tile.h"

#define CHUNK_COLS ((size_t)BY_MAX_ACC_ELEM_COLS)
#define SLOT_ROWS ((uint32_t)BY_MAX_ACC_ELEM_COLS) /* CHUNK_COLS / DIM blocks of DIM rows */
#define SLOTS ((uint32_t)BY_ACC_ROWS / SLOT_ROWS)
#define GROUP (SLOTS > 1 ? SLOTS / 2 : 1u) /* chunks interleaved: the other half is draining */

static uint32_t slot_row(unsigned chunk) {
  return (chunk % (SLOTS ? SLOTS : 1u)) * SLOT_ROWS;
}

by_status_t by_resadd(size_t I, size_t J, const by_elem_t* A, size_t lda, const by_elem_t* B,
                      size_t ldb, by_elem_t* C, size_t ldc, float scale, int activation,
                      int on_cpu) {
  if (!A || !B || !C || I == 0 || J == 0 || lda < J || ldb < J || ldc < J)
    return BY_ERR_ARG;
  if (!by_dram_reachable(A, ((I - 1) * lda + J) * sizeof(by_elem_t)) ||
      !by_dram_reachable(B, ((I - 1) * ldb + J) * sizeof(by_elem_t)) ||
      !by_dram_reachable(C, ((I - 1) * ldc + J) * sizeof(by_elem_t)))
    return BY_ERR_ADDR;
  if ((uint64_t)ldc >= (UINT64_C(1) << 32))
    return BY_ERR_ARG;
  if (on_cpu) {
    by_cpu_resadd(I, J, A, lda, B, ldb, C, ldc, scale, activation);
    return BY_OK;
  }
  if (SLOTS == 0) /* an accumulator smaller than one chunk */
    return BY_ERR_UNSUPPORTED;
  by_kernel_begin();
  by_config_ld(0, lda * sizeof(by_elem_t), 1, 0);
  by_config_ld(1, ldb * sizeof(by_elem_t), 1, 0);
  by_config_st((uint32_t)(ldc * sizeof(by_elem_t)), activation, scale, 0);
  /* Chunk n: rows i = (n / jchunks)*DIM, columns j = (n % jchunks)*CHUNK_COLS, slot n. */
  const size_t jchunks = (J + CHUNK_COLS - 1) / CHUNK_COLS;
  const size_t chunks = ((I + BY_DIM - 1) / BY_DIM) * jchunks;
  for (size_t first = 0; first < chunks; first += GROUP) {
    const size_t last = first + GROUP < chunks ? first + GROUP : chunks;
    for (int step = 0; step < 3; ++step) /* mvin A, mvin B (accumulating), mvout C */
      for (size_t n = first; n < last; ++n) {
        const size_t i = n / jchunks * BY_DIM, j = n % jchunks * CHUNK_COLS;
        const uint32_t rows = by_block_size(I, i / BY_DIM);
        const uint32_t cols = (uint32_t)(J - j < CHUNK_COLS ? J - j : CHUNK_COLS);
        const uint32_t row = slot_row((unsigned)n);
        if (step == 0)
          by_mvin(0, A + i * lda + j, by_acc_addr(row, 0, 0), rows, cols);
        else if (step == 1)
          by_mvin(1, B + i * ldb + j, by_acc_addr(row, 1, 0), rows, cols);
        else
          by_mvout(C + i * ldc + j, by_acc_addr(row, 0, 0), rows, cols);
      }
  }
  return by_kernel_end();
}

by_status_t by_global_average(const by_elem_t* input, by_elem_t* output, size_t batch,
                              size_t pixels, size_t channels, int on_cpu) {
  if (!input || !output || batch == 0 || pixels == 0 || channels == 0)
    return BY_ERR_ARG;
  if (!by_dram_reachable(input, batch * pixels * channels * sizeof(by_elem_t)) ||
      !by_dram_reachable(output, batch * channels * sizeof(by_elem_t)))
    return BY_ERR_ADDR;
  if ((uint64_t)pixels * channels >= (UINT64_C(1) << 32))
    return BY_ERR_ARG;
  if (on_cpu) {
    by_cpu_global_average(input, output, batch, pixels, channels);
    return BY_OK;
  }
  if (SLOTS == 0) /* an accumulator smaller than one chunk */
    return BY_ERR_UNSUPPORTED;
  by_kernel_begin();
  /* One mvin per pixel moves that pixel of up to DIM batches (rows pixels*channels apart). */
  by_config_ld(0, pixels * channels * sizeof(by_elem_t), 1, 0);
  by_config_st((uint32_t)(channels * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f / (float)pixels, 0);
  /* Chunk n: batches b = (n / cchunks)*DIM, channels ch = (n % cchunks)*CHUNK_COLS, slot n;
   * pixel p + 1 of a chunk accumulates onto pixel p, so the group's chunks take turns. */
  const size_t cchunks = (channels + CHUNK_COLS - 1) / CHUNK_COLS;
  const size_t chunks = ((batch + BY_DIM - 1) / BY_DIM) * cchunks;
  for (size_t first = 0; first < chunks; first += GROUP) {
    const size_t last = first + GROUP < chunks ? first + GROUP : chunks;
    for (size_t p = 0; p <= pixels; ++p) /* p = pixels: the mvouts */
      for (size_t n = first; n < last; ++n) {
        const size_t b = n / cchunks * BY_DIM, ch = n % cchunks * CHUNK_COLS;
        const uint32_t rows = by_block_size(batch, b / BY_DIM);
        const uint32_t cols = (uint32_t)(channels - ch < CHUNK_COLS ? channels - ch : CHUNK_COLS);
        const uint32_t row = slot_row((unsigned)n);
        if (p < pixels)
          by_mvin(0, input + (b * pixels + p) * channels + ch, by_acc_addr(row, p > 0, 0), rows,
                  cols);
        else
          by_mvout(output + b * channels + ch, by_acc_addr(row, 0, 0), rows, cols);
      }
  }
  return by_kernel_end();
}
