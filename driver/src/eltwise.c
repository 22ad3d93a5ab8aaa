/* Residual add and global average pooling (brickyard/kernels.h): both sum in the accumulator
 * (mvins with shrink and accumulate) and scale on the way out. A chunk is up to DIM rows of up
 * to MAX_ACC_ELEM_COLS columns (max_bytes of elem_t, so one DMA request per DRAM row; fewer on
 * an accumulator that holds fewer than two such chunks: by_plan_eltwise_chunk_cols), in
 * column blocks of DIM that lie DIM rows apart as mvout reads them; chunks rotate through
 * slots of the accumulator. The moves into one slot depend on each other (an accumulating mvin
 * waits for the one before it, the mvout for both), and the load queue issues in order, so the
 * chunks of a group (half the slots) are interleaved: every chunk's first mvin, then every
 * chunk's next one, ..., then the mvouts. A move then waits for one issued a group earlier, and
 * the DMA's requests overlap instead of paying its latency once per move. Only the accumulator
 * is used, whose rows are DIM acc_t wide with vector PEs too (docs/isa.md). */
#include "brickyard/cpu.h"
#include "brickyard/kernels.h"
#include "brickyard/plan.h"
#include "brickyard_isa.h"
#include "tile.h"

/* Chunks of up to `cols` columns (by_plan_eltwise_chunk_cols) in slots of as many rows; chunks
 * of a group (half the slots) are interleaved, the other half drains. */
typedef struct {
  size_t cols;
  uint32_t slots, group;
} chunking_t;

static chunking_t chunking(void) {
  by_hw_t hw;
  by_hw_get(&hw);
  chunking_t c;
  c.cols = by_plan_eltwise_chunk_cols(&hw);
  c.slots = c.cols ? (uint32_t)(BY_ACC_ROWS / c.cols) : 0;
  c.group = c.slots > 1 ? c.slots / 2 : 1;
  return c;
}

static uint32_t slot_row(const chunking_t* c, unsigned chunk) {
  return (chunk % c->slots) * (uint32_t)c->cols;
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
    const by_status_t s = by_drain();
    if (s == BY_OK)
      by_cpu_resadd(I, J, A, lda, B, ldb, C, ldc, scale, activation);
    return s;
  }
  const chunking_t ch = chunking();
  if (ch.slots == 0) /* an accumulator of fewer than DIM rows */
    return BY_ERR_UNSUPPORTED;
  by_kernel_begin();
  by_config_ld(0, lda * sizeof(by_elem_t), 1, 0);
  by_config_ld(1, ldb * sizeof(by_elem_t), 1, 0);
  by_config_st((uint32_t)(ldc * sizeof(by_elem_t)), activation, scale, 0);
  /* Chunk n: rows i = (n / jchunks)*DIM, columns j = (n % jchunks)*ch.cols, slot n. */
  const size_t jchunks = (J + ch.cols - 1) / ch.cols;
  const size_t chunks = ((I + BY_DIM - 1) / BY_DIM) * jchunks;
  for (size_t first = 0; first < chunks; first += ch.group) {
    const size_t last = first + ch.group < chunks ? first + ch.group : chunks;
    for (int step = 0; step < 3; ++step) /* mvin A, mvin B (accumulating), mvout C */
      for (size_t n = first; n < last; ++n) {
        const size_t i = n / jchunks * BY_DIM, j = n % jchunks * ch.cols;
        const uint32_t rows = by_block_size(I, i / BY_DIM);
        const uint32_t cols = (uint32_t)(J - j < ch.cols ? J - j : ch.cols);
        const uint32_t row = slot_row(&ch, (unsigned)n);
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
    const by_status_t s = by_drain();
    if (s == BY_OK)
      by_cpu_global_average(input, output, batch, pixels, channels);
    return s;
  }
  const chunking_t ck = chunking();
  if (ck.slots == 0) /* an accumulator of fewer than DIM rows */
    return BY_ERR_UNSUPPORTED;
  by_kernel_begin();
  /* One mvin per pixel moves that pixel of up to DIM batches (rows pixels*channels apart). */
  by_config_ld(0, pixels * channels * sizeof(by_elem_t), 1, 0);
  by_config_st((uint32_t)(channels * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f / (float)pixels, 0);
  /* Chunk n: batches b = (n / cchunks)*DIM, channels ch = (n % cchunks)*ck.cols, slot n;
   * pixel p + 1 of a chunk accumulates onto pixel p, so the group's chunks take turns. */
  const size_t cchunks = (channels + ck.cols - 1) / ck.cols;
  const size_t chunks = ((batch + BY_DIM - 1) / BY_DIM) * cchunks;
  for (size_t first = 0; first < chunks; first += ck.group) {
    const size_t last = first + ck.group < chunks ? first + ck.group : chunks;
    for (size_t p = 0; p <= pixels; ++p) /* p = pixels: the mvouts */
      for (size_t n = first; n < last; ++n) {
        const size_t b = n / cchunks * BY_DIM, ch = n % cchunks * ck.cols;
        const uint32_t rows = by_block_size(batch, b / BY_DIM);
        const uint32_t cols = (uint32_t)(channels - ch < ck.cols ? channels - ch : ck.cols);
        const uint32_t row = slot_row(&ck, (unsigned)n);
        if (p < pixels)
          by_mvin(0, input + (b * pixels + p) * channels + ch, by_acc_addr(row, p > 0, 0), rows,
                  cols);
        else
          by_mvout(output + b * channels + ch, by_acc_addr(row, 0, 0), rows, cols);
      }
  }
  return by_kernel_end();
}
