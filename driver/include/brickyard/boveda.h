/* Boveda compressed moves (docs/isa.md "Boveda: compressed moves", docs/boveda.md): tensors
 * that live compressed in DRAM as a stream of containers and a pointer table of 8-byte entries
 * {first container, containers}, one per block.
 *
 * Commands: by_config_ld_compressed / by_config_st_compressed make an mvin channel / the store
 * path compressed (their DRAM stride becomes the stream base); by_mvin_compressed and
 * by_mvout_compressed move one block, a rows x cols tile, named by the address of its pointer
 * entry. Matrices: a by_boveda_matrix_t cuts a matrix into blocks of DIM rows x block_cols
 * columns; by_boveda_compress / by_boveda_decompress convert one through the accelerator's
 * compressor and decompressor, and by_matmul takes compressed operands (kernels.h).
 *
 * Every format fact comes from the generated brickyard_params.h (BY_BOVEDA_*). On a config
 * without Boveda (no BY_BOVEDA there) every call returns BY_ERR_UNSUPPORTED and issues
 * nothing, and the sizes are 0. */
#ifndef BRICKYARD_BOVEDA_H
#define BRICKYARD_BOVEDA_H

#include "brickyard/accel.h"
#include "brickyard/kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef BY_BOVEDA
#define BY_HAS_BOVEDA 1
#else
#define BY_HAS_BOVEDA 0
#endif

/* ---- Format sizes ---------------------------------------------------------------------- */

/* Bytes of one pointer-table entry (0 without Boveda). */
static inline size_t by_boveda_entry_bytes(void) {
#if BY_HAS_BOVEDA
  return BY_BOVEDA_ENTRY_BYTES;
#else
  return 0;
#endif
}
/* Bytes of one container; a block's stream is a whole number of them (0 without Boveda). */
static inline size_t by_boveda_container_bytes(void) {
#if BY_HAS_BOVEDA
  return BY_BOVEDA_CONTAINER_BITS / 8;
#else
  return 0;
#endif
}
/* The most containers a block of `values` values can take, every group at full width: the
 * largest count a compressed MVIN accepts, ceil(ceil(B/G) * max group bits / C) (docs/isa.md).
 * 0 without Boveda. */
static inline uint64_t by_boveda_max_containers(uint64_t values) {
#if BY_HAS_BOVEDA
  const uint64_t groups = (values + BY_BOVEDA_GROUP_SIZE - 1) / BY_BOVEDA_GROUP_SIZE;
  return (groups * BY_BOVEDA_MAX_GROUP_BITS + BY_BOVEDA_CONTAINER_BITS - 1) /
         BY_BOVEDA_CONTAINER_BITS;
#else
  (void)values;
  return 0;
#endif
}
/* Worst-case stream bytes of one rows x cols block. */
static inline size_t by_boveda_block_max_bytes(uint32_t rows, uint32_t cols) {
  return (size_t)by_boveda_max_containers((uint64_t)rows * cols) * by_boveda_container_bytes();
}

/* A pointer-table entry: the block's first container (relative to the stream base) and its
 * number of containers. */
typedef struct {
  uint32_t first, count;
} by_boveda_entry_t;

/* Reads the entry at `entry` (little-endian in DRAM; fence first if the accelerator wrote it). */
static inline by_boveda_entry_t by_boveda_entry_read(const void* entry) {
  const volatile uint8_t* p = (const volatile uint8_t*)entry;
  by_boveda_entry_t e;
  e.first = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  e.count = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
  return e;
}
/* Writes an entry (for streams compressed elsewhere, e.g. by the compiler). */
static inline void by_boveda_entry_write(void* entry, by_boveda_entry_t e) {
  volatile uint8_t* p = (volatile uint8_t*)entry;
  for (int i = 0; i < 4; ++i) {
    p[i] = (uint8_t)(e.first >> (8 * i));
    p[4 + i] = (uint8_t)(e.count >> (8 * i));
  }
}

/* ---- Commands -------------------------------------------------------------------------- */

/* BY_ERR_UNSUPPORTED without Boveda; BY_ERR_ADDR if the stream base is not below 4 GiB. */
static inline by_status_t by_boveda_check_base(const void* stream) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  return by_dram(stream) < UINT64_C(0x100000000) ? BY_OK : BY_ERR_ADDR;
}

/* The buffers of a compressed matrix or tensor that a producer may fill: a stream of
 * `stream_bytes` holding at least the worst case `need` (else BY_ERR_ARG), its base below 4 GiB,
 * and the stream's worst case and the table's `table_bytes` reachable (else BY_ERR_ADDR). */
static inline by_status_t by_boveda_check_buffers(const void* stream, size_t stream_bytes,
                                                  size_t need, const void* table,
                                                  size_t table_bytes) {
  if (stream_bytes < need)
    return BY_ERR_ARG;
  const by_status_t s = by_boveda_check_base(stream);
  if (s != BY_OK)
    return s;
  return by_dram_reachable(stream, need) && by_dram_reachable(table, table_bytes) ? BY_OK
                                                                                  : BY_ERR_ADDR;
}

/* Makes mvin channel 0..2 compressed: its MVINs read blocks of the stream at `stream`
 * (container 0), named by their pointer entries. block_stride: local rows between column
 * blocks (0 means DIM), as for by_config_ld. Until the channel's next by_config_ld. */
static inline by_status_t by_config_ld_compressed(int channel, const void* stream,
                                                  uint32_t block_stride) {
  const by_status_t s = by_boveda_check_base(stream);
  if (s != BY_OK)
    return s;
  BY_HAL_CMD(BY_FUNCT_CONFIG,
             by_enc_config_ld_rs1(channel, 0, block_stride) |
                 BY_FIELD(BY_CONFIG_LD_RS1_COMPRESSED, 1),
             by_enc_config_ld_rs2(by_dram(stream)));
  return BY_OK;
}

/* Makes every MVOUT compressed until the next by_config_st: blocks are written back to back
 * from container 0 of the stream at `stream` (a new stream), each MVOUT writing its block's
 * pointer entry. Activation and scale apply to accumulator reads as for by_config_st; no
 * pooling. */
static inline by_status_t by_config_st_compressed(const void* stream, int activation,
                                                  float acc_scale) {
  const by_status_t s = by_boveda_check_base(stream);
  if (s != BY_OK)
    return s;
  BY_HAL_CMD(BY_FUNCT_CONFIG,
             by_enc_config_st_rs1(activation, NULL) | BY_FIELD(BY_CONFIG_ST_RS1_COMPRESSED, 1),
             by_enc_config_st_rs2((uint32_t)by_dram(stream), by_float_bits(acc_scale)));
  return BY_OK;
}

/* A compressed MVIN on a channel configured by by_config_ld_compressed: the block of rows x
 * cols values (row-major) whose pointer entry is at `entry` into the scratchpad at `local`
 * (column block b at local + b*block_stride). NULL entry: zeros, as for by_mvin. */
static inline by_status_t by_mvin_compressed(int channel, const void* entry, uint32_t local,
                                             uint32_t rows, uint32_t cols) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if (entry && !by_dram_reachable(entry, 8))
    return BY_ERR_ADDR;
  by_mvin(channel, entry, local, rows, cols);
  return BY_OK;
}

/* A compressed MVOUT (after by_config_st_compressed): the rows x cols values at `local`
 * (scratchpad, or accumulator read with the configured scale and activation) become the next
 * block of the stream, and its pointer entry is written at `entry`. */
static inline by_status_t by_mvout_compressed(void* entry, uint32_t local, uint32_t rows,
                                              uint32_t cols) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if (!entry)
    return BY_ERR_ARG;
  if (!by_dram_reachable(entry, 8))
    return BY_ERR_ADDR;
  by_mvout(entry, local, rows, cols);
  return BY_OK;
}

/* ---- Compressed matrices --------------------------------------------------------------- */

/* A rows x cols matrix of elem_t stored compressed: cut into blocks of DIM rows (the last band
 * fewer) x block_cols columns (the last fewer), each a Boveda block of its values in row-major
 * order. Block (band, column block) has pointer entry number band * column_blocks + column
 * block in `table`; its containers lie in the stream at `stream`. */
typedef struct by_boveda_matrix {
  size_t rows, cols;
  size_t block_cols;   /* a multiple of DIM, at most MAX_BLOCK_LEN*DIM; 0 means DIM */
  void* stream;        /* container 0 of the stream */
  size_t stream_bytes; /* its capacity: by_boveda_matrix_stream_bytes() */
  void* table;         /* the pointer table: by_boveda_matrix_table_bytes() */
} by_boveda_matrix_t;

/* Columns per block (block_cols, or DIM for 0). */
size_t by_boveda_matrix_block_cols(const by_boveda_matrix_t* m);
/* Row bands and column blocks, and blocks in all (0 for an invalid shape). */
size_t by_boveda_matrix_bands(const by_boveda_matrix_t* m);
size_t by_boveda_matrix_col_blocks(const by_boveda_matrix_t* m);
size_t by_boveda_matrix_blocks(const by_boveda_matrix_t* m);
/* Bytes the table needs, and the stream in the worst case (every block incompressible). */
size_t by_boveda_matrix_table_bytes(const by_boveda_matrix_t* m);
size_t by_boveda_matrix_stream_bytes(const by_boveda_matrix_t* m);
/* The address of the pointer entry of block (band, column block). */
void* by_boveda_matrix_entry(const by_boveda_matrix_t* m, size_t band, size_t col_block);
/* Stream bytes the blocks take, from their pointer entries (after by_boveda_compress). */
size_t by_boveda_matrix_used_bytes(const by_boveda_matrix_t* m);
/* BY_OK if the matrix is well formed, its buffers large enough and reachable. */
by_status_t by_boveda_matrix_check(const by_boveda_matrix_t* m);
/* The same for a matrix that is only read (already compressed, e.g. weights a compiler laid
 * out): with stream_bytes the stream is taken to hold the containers the pointer table names
 * (the writer's guarantee; the table is not read); with stream_bytes 0 the table is read and
 * the containers it names must be reachable. */
by_status_t by_boveda_matrix_check_read(const by_boveda_matrix_t* m);

/* Compresses `src` (m->rows x m->cols, ld elements between rows) into m's stream and table
 * through the accelerator: each block is moved into the scratchpad and out again with a
 * compressed MVOUT, in table order. Uses mvin channel 0 and the store path (left configured
 * so) and fences. */
by_status_t by_boveda_compress(const by_boveda_matrix_t* m, const by_elem_t* src, size_t ld);
/* The reverse: compressed MVINs on channel 0, plain MVOUTs into `dst`; fences. */
by_status_t by_boveda_decompress(const by_boveda_matrix_t* m, by_elem_t* dst, size_t ld);

/* ---- Compressed activation tensors ---------------------------------------------------- */

/* An NHWC tensor of elem_t stored compressed as the convolution loops read and write it
 * (docs/isa.md "LOOP_CONV_WS", compressed activations): one block per image row and channel
 * group, block (b, y, g) holding the row's `cols` pixels x the channels g*G .. g*G + G - 1
 * (G = by_boveda_tensor_group(), the last group fewer) pixel-major, its pointer entry number
 * (b*rows + y)*groups + g in `table`. A convolution's compressed output is the next one's
 * compressed input without any host work (by_conv_t's input_boveda / output_boveda). The blocks
 * go to the stream back to back in the order the producer writes them, and their sizes depend on
 * the data: the stream is reserved for the worst case (by_boveda_tensor_stream_bytes), what a run
 * used is read from the table afterwards (by_boveda_tensor_used_bytes). */
typedef struct by_boveda_tensor {
  size_t batch, rows, cols, channels;
  void* stream;        /* container 0 of the stream */
  size_t stream_bytes; /* its capacity: at least by_boveda_tensor_stream_bytes() */
  void* table;         /* the pointer table: by_boveda_tensor_table_bytes() */
} by_boveda_tensor_t;

/* Channels per block: MAX_BLOCK_LEN x DIM x lanes, one loop move (0 without Boveda). */
size_t by_boveda_tensor_group(void);
/* Channel groups per row, and blocks in all (0 for an empty shape or without Boveda). */
size_t by_boveda_tensor_groups(const by_boveda_tensor_t* t);
size_t by_boveda_tensor_blocks(const by_boveda_tensor_t* t);
/* Bytes of the table, and of the stream in the worst case (every block incompressible). */
size_t by_boveda_tensor_table_bytes(const by_boveda_tensor_t* t);
size_t by_boveda_tensor_stream_bytes(const by_boveda_tensor_t* t);
/* The address of block (b, y, g)'s pointer entry. */
void* by_boveda_tensor_entry(const by_boveda_tensor_t* t, size_t b, size_t y, size_t g);
/* Stream bytes the blocks take, from their pointer entries (after a producer wrote them; fence
 * first). */
size_t by_boveda_tensor_used_bytes(const by_boveda_tensor_t* t);
/* BY_OK if the tensor is well formed and its table and worst-case stream are reachable (a
 * producer may fill all of it); BY_ERR_UNSUPPORTED without Boveda. */
by_status_t by_boveda_tensor_check(const by_boveda_tensor_t* t);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_BOVEDA_H */
