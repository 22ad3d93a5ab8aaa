/* The matmul's rules (brickyard/plan.h): its dataflow, tiles and workspace. Tiles of tile_i x
 * tile_k blocks of A and tile_k x tile_j blocks of B live in one half of the scratchpad, tile_i x
 * tile_j blocks of C in one half of the accumulator (matmul.c moves them). With vector PEs a K
 * block is one array pass of DIM x lanes reduction elements and B is lane-packed, so a K x DIM
 * block of B is DIM packed rows; with one lane every expression reduces to the plain tiling. */
#include "plan_rules.h"

by_status_t by_plan_dataflow(const by_hw_t* hw, int requested, int* dataflow) {
  if (requested == BY_DATAFLOW_AUTO) {
    *dataflow = hw->ws && !hw->tensordash ? hw->dataflow_ws : hw->dataflow_os;
    return BY_OK;
  }
  if (requested == hw->dataflow_ws && hw->ws) {
    *dataflow = hw->dataflow_ws;
    return BY_OK;
  }
  if (requested == hw->dataflow_os && hw->os) {
    *dataflow = hw->dataflow_os;
    return BY_OK;
  }
  return requested == hw->dataflow_ws || requested == hw->dataflow_os ? BY_ERR_UNSUPPORTED
                                                                      : BY_ERR_ARG;
}

/* The blocks of A and B the tiles move in. A is reloaded for every column of C tiles and B for
 * every row, unless the loops keep one of them (with one K tile and `keeps`): a kept A (each row
 * tile's A stays in the scratchpad over its column tiles) or a kept B (each column tile's B over
 * its row tiles) is read once. *keep gets the choice that moves fewer blocks (B on a tie). */
static size_t moved_blocks(size_t bi, size_t bj, size_t bk, size_t ti, size_t tj, size_t tk,
                           int keeps, by_matmul_keep_t* keep) {
  const size_t ni = by_plan_ceil_div(bi, ti), nj = by_plan_ceil_div(bj, tj);
  const size_t a = bi * bk, b = bk * bj;
  size_t moved = a * nj + b * ni;
  *keep = BY_MATMUL_KEEP_NONE;
  if (!keeps || tk < bk)
    return moved;
  if (ni > 1 && a * nj + b < moved) {
    moved = a * nj + b;
    *keep = BY_MATMUL_KEEP_B;
  }
  if (nj > 1 && a + b * ni < moved) {
    moved = a + b * ni;
    *keep = BY_MATMUL_KEEP_A;
  }
  return moved;
}

int by_plan_matmul_tiles_fit(const by_hw_t* hw, size_t ti, size_t tj, size_t tk) {
  return (ti * tk + tk * tj) * hw->dim <= plan_sp_half(hw) &&
         ti * tj * hw->dim <= plan_acc_half(hw) && ti <= plan_row_tiles_max(hw);
}

/* The loops' stores of C (elem_t), in blocks' worth of DMA time (a block: DIM x DIM elements,
 * the unit of moved_blocks): each C row of a column tile of tj blocks leaves in moves of up to
 * MAX_BLOCK_LEN blocks (LOOP_WS's J groups), each cut into requests, and a write request costs at
 * least dma_write_request_min_bytes. Only narrow column tiles pay more than their bytes: their
 * short rows are bound by the writes in flight, not the bus (MobileNetV2's first expansion, 16
 * -> 96 channels at 112 x 112, wrote 16-byte rows at about 10 B/cycle in one-block tiles). */
static uint64_t store_row_bytes(const by_hw_t* hw, size_t w) { /* one C row of w blocks */
  const size_t g = hw->max_block_len ? hw->max_block_len : 1, row = hw->dim * hw->elem_bytes;
  const uint64_t floor = hw->dma_write_request_min_bytes;
  return (w / g) * plan_dma_row_cost(hw, g * row, floor) +
         (w % g ? plan_dma_row_cost(hw, (w % g) * row, floor) : 0);
}
static size_t store_blocks(const by_hw_t* hw, size_t bi, size_t bj, size_t tj) {
  /* bj / tj full column tiles and the rest: O(1), as auto_tiles calls it for every candidate. */
  const uint64_t per_row =
      (bj / tj) * store_row_bytes(hw, tj) + (bj % tj ? store_row_bytes(hw, bj % tj) : 0);
  return (size_t)(bi * per_row / (hw->dim * hw->elem_bytes));
}

/* Automatic tiles: the (tile_i, tile_j) of the lowest cost, each with the largest tile_k that
 * fits; ties go to the bigger tile (fewer, longer command streams). O(blocks_i * blocks_j).
 * The cost counts the blocks of A and B moved in (moved_blocks) and one per loop; where the
 * loops keep operands (`keeps`) also the weight blocks the array loads, B's blocks once per row
 * tile: counting kept operands without them traded ResNet-50's 7x7 and 14x14 1x1 layers' row
 * tiles for fewer A reads, and short row tiles reload the weights as often as they stream rows
 * (about 0.9 M more cycles there for the bytes saved: measured, docs/BENCHMARKS.md). With them
 * the kept A wins where the whole A of a row tile fits: long row tiles, weights loaded once per
 * row tile. The loops (`keeps`) also count their stores of C (store_blocks): the same bytes for
 * every tile, but narrow column tiles write rows short enough for the requests in flight to bound
 * them. tile_j and tile_k are multiples of ja and ka (compressed operands' blocks) or the
 * whole dimension. Sets tile_i to 0 if nothing fits. */
static void auto_tiles(const by_hw_t* hw, size_t bi, size_t bj, size_t bk, size_t ja, size_t ka,
                       int keeps, by_matmul_plan_t* p) {
  const size_t dim = hw->dim, sp_half = plan_sp_half(hw), acc_half = plan_acc_half(hw);
  size_t best_cost = (size_t)-1, best_volume = 0;
  p->tile_i = 0;
  for (size_t ti = 1; ti <= bi && ti <= plan_row_tiles_max(hw); ++ti)
    for (size_t tj = 1; tj <= bj && ti * tj * dim <= acc_half; ++tj) {
      if (tj % ja != 0 && tj != bj)
        continue;
      size_t tk = sp_half / dim / (ti + tj);
      if (tk >= bk)
        tk = bk;
      else
        tk -= tk % ka;
      if (tk == 0)
        continue;
      const size_t ni = by_plan_ceil_div(bi, ti), nj = by_plan_ceil_div(bj, tj);
      by_matmul_keep_t keep;
      const size_t cost = moved_blocks(bi, bj, bk, ti, tj, tk, keeps, &keep) +
                          ni * nj * by_plan_ceil_div(bk, tk) +
                          (keeps ? bk * bj * ni + store_blocks(hw, bi, bj, tj) : 0);
      const size_t volume = ti * tj * tk;
      if (cost < best_cost || (cost == best_cost && volume > best_volume)) {
        best_cost = cost;
        best_volume = volume;
        p->tile_i = ti;
        p->tile_j = tj;
        p->tile_k = tk;
      }
    }
}

/* Whether a compressed operand's blocks (block_cols columns; 0: plain) are the moves LOOP_WS
 * makes of tiles `tile` of a dimension of n DIM tiles: groups of MAX_BLOCK_LEN tiles from each
 * loop's first tile, so blocks of MAX_BLOCK_LEN tiles with loops starting on them, or one block
 * over the whole dimension and one loop over it. */
static int loop_moves_blocks(const by_hw_t* hw, size_t block_cols, size_t tile, size_t n) {
  const size_t g = block_cols / hw->dim;
  return (g == hw->max_block_len && tile % g == 0) || (g >= n && tile >= n);
}

/* Whether the tiles run as LOOP_WS: one lane, WS, compressed operands in the loop's blocks
 * (tile_j, tile_k 0: not known yet; compressed operands then do not fit, which sizes the
 * workspace for the command path, the larger). */
static int loops(const by_hw_t* hw, const by_matmul_shape_t* s, int dataflow, size_t tile_j,
                 size_t tile_k) {
  const size_t bj = by_plan_ceil_div(s->J, hw->dim), bk = by_plan_ceil_div(s->K, hw->dim);
  return hw->lanes == 1 && dataflow == hw->dataflow_ws && hw->loop_ws &&
         (!s->a_block_cols || (tile_k && loop_moves_blocks(hw, s->a_block_cols, tile_k, bk))) &&
         (!s->b_block_cols || (tile_j && loop_moves_blocks(hw, s->b_block_cols, tile_j, bj)));
}

/* The transposes the loops leave to the transposer: one of A and B (WS takes one), A first. */
static void hw_transposes(const by_hw_t* hw, const by_matmul_shape_t* s, int loop, int* ta,
                          int* tb) {
  *ta = loop && hw->transposer && s->a_transposed;
  *tb = loop && hw->transposer && s->b_transposed && !*ta;
}

/* Whether the matmul runs as its transpose (by_matmul_plan_t.transposed): one row of C, B stored
 * transposed, plain operands, the one-lane WS loops. */
static int runs_transposed(const by_hw_t* hw, const by_matmul_shape_t* s, int dataflow) {
  return s->I == 1 && s->b_transposed && !s->a_transposed && !s->a_block_cols && !s->b_block_cols &&
         loops(hw, s, dataflow, 0, 0);
}

void by_plan_matmul_transposed(const by_matmul_shape_t* s, by_matmul_shape_t* t) {
  *t = *s;
  t->I = s->J, t->J = s->I;
  t->a_transposed = 0, t->b_transposed = 0;
}

by_status_t by_plan_matmul(const by_hw_t* hw, const by_matmul_shape_t* s, by_matmul_plan_t* p) {
  by_status_t st = by_plan_dataflow(hw, s->dataflow, &p->dataflow);
  if (st != BY_OK)
    return st;
  if (s->I == 0 || s->J == 0 || s->K == 0)
    return BY_ERR_ARG;
  if (runs_transposed(hw, s, p->dataflow)) {
    by_matmul_shape_t t;
    by_plan_matmul_transposed(s, &t);
    st = by_plan_matmul(hw, &t, p);
    p->transposed = 1;
    return st;
  }
  p->transposed = 0;
  const size_t kb = plan_kb(hw);
  const size_t bi = by_plan_ceil_div(s->I, hw->dim), bj = by_plan_ceil_div(s->J, hw->dim);
  const size_t bk = by_plan_ceil_div(s->K, kb);
  /* Compressed operands are moved one whole block at a time: K and J tiles hold whole blocks. */
  const size_t ka = s->a_block_cols ? s->a_block_cols / hw->dim : 1;
  const size_t ja = s->b_block_cols ? s->b_block_cols / hw->dim : 1;
  if (ka == 0 || ja == 0)
    return BY_ERR_ARG;
  /* Kept operands: LOOP_WS with plain operands (whose loops do not depend on the tiles). */
  const int keeps = !s->a_block_cols && !s->b_block_cols && loops(hw, s, p->dataflow, 0, 0);
  if (s->tile_i || s->tile_j || s->tile_k) {
    p->tile_i = s->tile_i ? s->tile_i : 1;
    p->tile_j = s->tile_j ? s->tile_j : 1;
    p->tile_k = s->tile_k ? s->tile_k : 1;
    if (!by_plan_matmul_tiles_fit(hw, p->tile_i, p->tile_j, p->tile_k))
      return BY_ERR_ARG;
  } else {
    auto_tiles(hw, bi, bj, bk, ja, ka, keeps, p);
    if (p->tile_i == 0)
      return BY_ERR_ARG;
  }
  if (p->tile_i > bi)
    p->tile_i = bi;
  if (p->tile_j > bj)
    p->tile_j = bj;
  if (p->tile_k > bk)
    p->tile_k = bk;
  if ((p->tile_k % ka != 0 && p->tile_k != bk) || (p->tile_j % ja != 0 && p->tile_j != bj))
    return BY_ERR_ARG;
  p->k_chunk = p->dataflow == hw->dataflow_ws ? kb : p->tile_k * kb;
  p->loop = loops(hw, s, p->dataflow, p->tile_j, p->tile_k);
  hw_transposes(hw, s, p->loop, &p->transpose_a, &p->transpose_b);
  (void)moved_blocks(bi, bj, bk, p->tile_i, p->tile_j, p->tile_k, keeps && p->loop, &p->keep);
  return BY_OK;
}

void by_plan_matmul_reads(const by_hw_t* hw, const by_matmul_shape_t* s, const by_matmul_plan_t* p,
                          size_t* a_reads, size_t* b_reads) {
  if (p->transposed) {
    by_matmul_shape_t t;
    by_matmul_plan_t tp = *p;
    by_plan_matmul_transposed(s, &t);
    tp.transposed = 0;
    by_plan_matmul_reads(hw, &t, &tp, b_reads, a_reads);
    return;
  }
  const size_t bi = by_plan_ceil_div(s->I, hw->dim), bj = by_plan_ceil_div(s->J, hw->dim);
  *a_reads = p->keep == BY_MATMUL_KEEP_A ? 1 : by_plan_ceil_div(bj, p->tile_j);
  *b_reads = p->keep == BY_MATMUL_KEEP_B ? 1 : by_plan_ceil_div(bi, p->tile_i);
}

int by_plan_matmul_packs_b(const by_hw_t* hw, const by_matmul_shape_t* s) {
  return hw->lanes != 1 && !s->b_packed;
}

/* The workspace holds elements: A transposed, and B transposed or (vector PEs) packed; a
 * transpose the loops leave to the transposer needs none. */
size_t by_plan_matmul_workspace_bytes(const by_hw_t* hw, const by_matmul_shape_t* s) {
  int dataflow = 0, ta = 0, tb = 0;
  if (by_plan_dataflow(hw, s->dataflow, &dataflow) == BY_OK) {
    if (runs_transposed(hw, s, dataflow))
      return 0; /* both operands as stored */
    hw_transposes(hw, s, loops(hw, s, dataflow, 0, 0), &ta, &tb);
  }
  const size_t a = s->a_transposed && !ta ? s->I * s->K : 0;
  if (hw->lanes != 1)
    return (a + (by_plan_matmul_packs_b(hw, s)
                     ? by_plan_packed_rows(s->K, hw->lanes) * by_plan_packed_cols(s->J, hw->lanes)
                     : 0)) *
           hw->elem_bytes;
  return (a + (s->b_transposed && !tb ? s->K * s->J : 0)) * hw->elem_bytes;
}
