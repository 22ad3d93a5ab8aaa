/* Compressed activation tensors (brickyard/boveda.h): the layout the convolution loops read and
 * write, one block per image row and channel group. The loops move the blocks themselves
 * (conv_loop.c); this file only sizes, addresses and checks a tensor. */
#include "brickyard/boveda.h"
#include "tile.h"

size_t by_boveda_tensor_group(void) {
#if BY_HAS_BOVEDA
  return (size_t)BY_MAX_BLOCK_LEN * BY_KB;
#else
  return 0;
#endif
}

static int tensor_shape_ok(const by_boveda_tensor_t* t) {
  return BY_HAS_BOVEDA && t->batch && t->rows && t->cols && t->channels;
}

size_t by_boveda_tensor_groups(const by_boveda_tensor_t* t) {
  if (!tensor_shape_ok(t))
    return 0;
  const size_t g = by_boveda_tensor_group();
  return (t->channels + g - 1) / g;
}

size_t by_boveda_tensor_blocks(const by_boveda_tensor_t* t) {
  return tensor_shape_ok(t) ? t->batch * t->rows * by_boveda_tensor_groups(t) : 0;
}

size_t by_boveda_tensor_table_bytes(const by_boveda_tensor_t* t) {
  return by_boveda_tensor_blocks(t) * by_boveda_entry_bytes();
}

size_t by_boveda_tensor_stream_bytes(const by_boveda_tensor_t* t) {
  const size_t groups = by_boveda_tensor_groups(t), g = by_boveda_tensor_group();
  if (!groups)
    return 0;
  /* A row's full groups and its last one, for every row of every image. */
  const size_t last = t->channels - (groups - 1) * g;
  const size_t row = (groups - 1) * by_boveda_block_max_bytes((uint32_t)t->cols, (uint32_t)g) +
                     by_boveda_block_max_bytes((uint32_t)t->cols, (uint32_t)last);
  return t->batch * t->rows * row;
}

void* by_boveda_tensor_entry(const by_boveda_tensor_t* t, size_t b, size_t y, size_t g) {
  const size_t groups = by_boveda_tensor_groups(t);
  return (char*)t->table + ((b * t->rows + y) * groups + g) * by_boveda_entry_bytes();
}

size_t by_boveda_tensor_used_bytes(const by_boveda_tensor_t* t) {
  by_wait_in_flight(); /* the CPU reads the entries the kernels wrote */
  const size_t blocks = by_boveda_tensor_blocks(t), eb = by_boveda_entry_bytes();
  size_t containers = 0;
  for (size_t i = 0; i < blocks; ++i)
    containers += by_boveda_entry_read((const char*)t->table + i * eb).count;
  return containers * by_boveda_container_bytes();
}

by_status_t by_boveda_tensor_check(const by_boveda_tensor_t* t) {
  if (!BY_HAS_BOVEDA)
    return BY_ERR_UNSUPPORTED;
  if (!t || !tensor_shape_ok(t) || !t->stream || !t->table)
    return BY_ERR_ARG;
  return by_boveda_check_buffers(t->stream, t->stream_bytes, by_boveda_tensor_stream_bytes(t),
                                 t->table, by_boveda_tensor_table_bytes(t));
}
