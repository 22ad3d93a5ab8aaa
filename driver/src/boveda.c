/* Compressed matrices (brickyard/boveda.h): layout, and conversion through the accelerator's
 * compressor and decompressor. A block is DIM rows x block_cols columns; in the scratchpad it
 * occupies its column blocks one after another (DIM rows each, MVIN's default block stride
 * and MVOUT's column-block step), and the conversions rotate through a few such slots so that
 * the next block's load overlaps this block's store (the reservation station orders them). */
#include "brickyard/boveda.h"

#include "tile.h"

size_t by_boveda_matrix_block_cols(const by_boveda_matrix_t* m) {
  return m->block_cols ? m->block_cols : BY_DIM;
}

static int shape_ok(const by_boveda_matrix_t* m) {
  const size_t bc = by_boveda_matrix_block_cols(m);
  return m->rows > 0 && m->cols > 0 && bc % BY_DIM == 0 && bc <= BY_MAX_BLOCK_LEN * BY_DIM;
}

size_t by_boveda_matrix_bands(const by_boveda_matrix_t* m) {
  return shape_ok(m) ? by_blocks(m->rows) : 0;
}

size_t by_boveda_matrix_col_blocks(const by_boveda_matrix_t* m) {
  if (!shape_ok(m))
    return 0;
  const size_t bc = by_boveda_matrix_block_cols(m);
  return (m->cols + bc - 1) / bc;
}

size_t by_boveda_matrix_blocks(const by_boveda_matrix_t* m) {
  return by_boveda_matrix_bands(m) * by_boveda_matrix_col_blocks(m);
}

size_t by_boveda_matrix_table_bytes(const by_boveda_matrix_t* m) {
  return by_boveda_matrix_blocks(m) * by_boveda_entry_bytes();
}

/* Rows of band b and columns of column block c. */
static uint32_t band_rows(const by_boveda_matrix_t* m, size_t b) {
  return by_block_size(m->rows, b);
}
static uint32_t block_cols_at(const by_boveda_matrix_t* m, size_t c) {
  const size_t bc = by_boveda_matrix_block_cols(m), rest = m->cols - c * bc;
  return (uint32_t)(rest < bc ? rest : bc);
}

size_t by_boveda_matrix_stream_bytes(const by_boveda_matrix_t* m) {
  const size_t bands = by_boveda_matrix_bands(m), cbs = by_boveda_matrix_col_blocks(m);
  size_t bytes = 0;
  for (size_t b = 0; b < bands; ++b)
    for (size_t c = 0; c < cbs; ++c)
      bytes += by_boveda_block_max_bytes(band_rows(m, b), block_cols_at(m, c));
  return bytes;
}

void* by_boveda_matrix_entry(const by_boveda_matrix_t* m, size_t band, size_t col_block) {
  return (char*)m->table +
         (band * by_boveda_matrix_col_blocks(m) + col_block) * by_boveda_entry_bytes();
}

size_t by_boveda_matrix_used_bytes(const by_boveda_matrix_t* m) {
  by_wait_in_flight(); /* the CPU reads the entries the kernels wrote */
  const size_t blocks = by_boveda_matrix_blocks(m);
  uint64_t end = 0;
  for (size_t i = 0; i < blocks; ++i) {
    const by_boveda_entry_t e =
        by_boveda_entry_read((const char*)m->table + i * by_boveda_entry_bytes());
    if ((uint64_t)e.first + e.count > end)
      end = (uint64_t)e.first + e.count;
  }
  return (size_t)end * by_boveda_container_bytes();
}

by_status_t by_boveda_matrix_check(const by_boveda_matrix_t* m) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if (!m || !shape_ok(m) || !m->stream || !m->table)
    return BY_ERR_ARG;
  return by_boveda_check_buffers(m->stream, m->stream_bytes, by_boveda_matrix_stream_bytes(m),
                                 m->table, by_boveda_matrix_table_bytes(m));
}

by_status_t by_boveda_matrix_check_read(const by_boveda_matrix_t* m) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if (!m || !shape_ok(m) || !m->stream || !m->table)
    return BY_ERR_ARG;
  if (!by_dram_reachable(m->table, by_boveda_matrix_table_bytes(m)))
    return BY_ERR_ADDR;
  /* A stream of stream_bytes (weights compressed offline: the compiler made the entries point
   * into it) need only be reachable; reading every entry per call cost 276 k host instructions
   * for a 512-channel 3x3 layer, longer than its accelerator time. Without a size, only the
   * containers the blocks use must exist. */
  if (m->stream_bytes)
    return by_dram_reachable(m->stream, m->stream_bytes) ? BY_OK : BY_ERR_ADDR;
  const size_t used = by_boveda_matrix_used_bytes(m); /* waits for the kernels writing it */
  if (used && !by_dram_reachable(m->stream, used))
    return BY_ERR_ADDR;
  return BY_OK;
}

/* Scratchpad slots of one block each (block_cols rows), at most 4. */
static uint32_t slot_rows(const by_boveda_matrix_t* m) {
  return (uint32_t)by_boveda_matrix_block_cols(m);
}
static uint32_t slots(const by_boveda_matrix_t* m) {
  const uint32_t n = (uint32_t)BY_SP_ROWS / slot_rows(m);
  return n < 1u ? 1u : (n < 4u ? n : 4u);
}

static by_status_t check_dense(const by_boveda_matrix_t* m, const void* p, size_t ld) {
  if (!p || ld < m->cols || (uint64_t)ld * sizeof(by_elem_t) >= (UINT64_C(1) << 32))
    return BY_ERR_ARG;
  if (!by_dram_reachable(p, ((m->rows - 1) * ld + m->cols) * sizeof(by_elem_t)))
    return BY_ERR_ADDR;
  return BY_OK;
}

/* One block's pair of moves: between the dense matrix (its block at `offset` elements) and
 * the compressed stream, through scratchpad row `local`. */
typedef void (*block_move_fn)(const by_boveda_matrix_t* m, size_t band, size_t col_block,
                              uint32_t local, uint32_t rows, uint32_t cols, size_t offset,
                              void* dense);

/* The blocks of m in table order, each through the next scratchpad slot in turn. */
static void walk_blocks(const by_boveda_matrix_t* m, size_t ld, block_move_fn move, void* dense) {
  const size_t bands = by_boveda_matrix_bands(m), cbs = by_boveda_matrix_col_blocks(m);
  const size_t bc = by_boveda_matrix_block_cols(m);
  const uint32_t n_slots = slots(m);
  uint32_t slot = 0;
  for (size_t b = 0; b < bands; ++b)
    for (size_t c = 0; c < cbs; ++c, slot = slot + 1 == n_slots ? 0 : slot + 1)
      move(m, b, c, by_sp_addr(slot * slot_rows(m)), band_rows(m, b), block_cols_at(m, c),
           b * BY_DIM * ld + c * bc, dense);
}

static void compress_block(const by_boveda_matrix_t* m, size_t b, size_t c, uint32_t local,
                           uint32_t rows, uint32_t cols, size_t offset, void* dense) {
  by_mvin(0, (const by_elem_t*)dense + offset, local, rows, cols);
  (void)by_mvout_compressed(by_boveda_matrix_entry(m, b, c), local, rows, cols);
}

static void decompress_block(const by_boveda_matrix_t* m, size_t b, size_t c, uint32_t local,
                             uint32_t rows, uint32_t cols, size_t offset, void* dense) {
  (void)by_mvin_compressed(0, by_boveda_matrix_entry(m, b, c), local, rows, cols);
  by_mvout((by_elem_t*)dense + offset, local, rows, cols);
}

by_status_t by_boveda_compress(const by_boveda_matrix_t* m, const by_elem_t* src, size_t ld) {
  by_status_t s = by_boveda_matrix_check(m);
  if (s == BY_OK)
    s = check_dense(m, src, ld);
  if (s != BY_OK)
    return s;
  by_kernel_begin();
  by_config_ld(0, ld * sizeof(by_elem_t), 0, 0);
  /* Scratchpad sources: the activation and scale do not apply. One CONFIG_ST, so the blocks
   * follow each other in the stream in table order. */
  (void)by_config_st_compressed(m->stream, BY_ACT_NONE, 1.0f);
  walk_blocks(m, ld, compress_block, (void*)(uintptr_t)src);
  return by_kernel_end();
}

by_status_t by_boveda_decompress(const by_boveda_matrix_t* m, by_elem_t* dst, size_t ld) {
  by_status_t s = by_boveda_matrix_check(m);
  if (s == BY_OK)
    s = check_dense(m, dst, ld);
  if (s != BY_OK)
    return s;
  by_kernel_begin();
  (void)by_config_ld_compressed(0, m->stream, 0);
  by_config_st((uint32_t)(ld * sizeof(by_elem_t)), BY_ACT_NONE, 1.0f, NULL);
  walk_blocks(m, ld, decompress_block, dst);
  return by_kernel_end();
}
