/* Tiled matmul (brickyard/kernels.h). Tiles of tile_i x tile_k blocks of A and tile_k x tile_j
 * blocks of B live in one half of the scratchpad, tile_i x tile_j blocks of C in one half of
 * the accumulator; consecutive tiles alternate halves (double buffering). Loop order: C tiles
 * (i, j) outermost, the K tiles of one C tile inside, so that C stays in the accumulator
 * until its last K tile and is moved out once.
 *
 * Vector PEs (BY_LANES > 1): a K block is one array pass, KB = DIM x lanes reduction elements
 * (a scratchpad row of A); B is lane-packed (by_pack_b), so a K x DIM block of B is DIM packed
 * rows and the tiles of the packed matrix are moved like those of a plain one. With one lane
 * every expression below reduces to the plain tiling. The planner (plan_matmul.c) chooses the
 * dataflow, the tiles and whether LOOP_WS runs them. */
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"
#include "brickyard_isa.h"
#include "tile.h"

void by_matmul_init(by_matmul_t* m) {
  const by_matmul_t zero = {0};
  *m = zero;
  m->scale = 1.0f;
  m->dataflow = BY_DATAFLOW_AUTO;
}

static size_t k_blocks(size_t K) {
  return (K + BY_KB - 1) / BY_KB;
}
static uint32_t k_block_size(size_t K, size_t b) {
  const size_t rest = K - b * BY_KB;
  return (uint32_t)(rest < BY_KB ? rest : BY_KB);
}

size_t by_packed_b_rows(size_t K) {
  return by_plan_packed_rows(K, BY_LANES);
}
size_t by_packed_b_cols(size_t J) {
  return by_plan_packed_cols(J, BY_LANES);
}

/* The matmul as the planner takes it. */
static void matmul_shape(const by_matmul_t* m, by_matmul_shape_t* s) {
  s->I = m->I, s->J = m->J, s->K = m->K;
  s->a_transposed = m->a_transposed, s->b_transposed = m->b_transposed;
  s->b_packed = m->b_packed;
  s->a_block_cols = m->A_boveda ? by_boveda_matrix_block_cols(m->A_boveda) : 0;
  s->b_block_cols = m->B_boveda ? by_boveda_matrix_block_cols(m->B_boveda) : 0;
  s->dataflow = m->dataflow;
  s->tile_i = m->tile_i, s->tile_j = m->tile_j, s->tile_k = m->tile_k;
}

size_t by_matmul_workspace_bytes(const by_matmul_t* m) {
  by_hw_t hw;
  by_matmul_shape_t s;
  by_hw_get(&hw);
  matmul_shape(m, &s);
  return by_plan_matmul_workspace_bytes(&hw, &s);
}

static void pack_b(size_t K, size_t J, const by_elem_t* B, size_t ldb, int b_transposed,
                   by_elem_t* packed, size_t ldp) {
  for (size_t t = 0; t < by_packed_b_rows(K); ++t)
    for (size_t j = 0; j < J; ++j)
      for (size_t l = 0; l < BY_LANES; ++l) {
        const size_t k = t * BY_LANES + l;
        packed[t * ldp + j * BY_LANES + l] =
            k >= K ? 0 : (b_transposed ? B[j * ldb + k] : B[k * ldb + j]);
      }
}

by_status_t by_pack_b(size_t K, size_t J, const by_elem_t* B, size_t ldb, int b_transposed,
                      by_elem_t* packed, size_t ldp) {
  if (!B || !packed || K == 0 || J == 0 || ldb < (b_transposed ? K : J) ||
      ldp < by_packed_b_cols(J))
    return BY_ERR_ARG;
  pack_b(K, J, B, ldb, b_transposed, packed, ldp);
  return BY_OK;
}

/* Where a tile's B blocks go: right after A's, or (TensorDash) at the next bank boundary when
 * B still fits in the half there, so that the operand feeder's A and B reads do not wait for
 * each other (docs/tensordash.md, "Operand feeder"). */
static uint32_t b_tile_base(uint32_t a_base, uint32_t a_rows, uint32_t b_rows) {
  uint32_t b = a_base + a_rows;
  if (BY_TENSORDASH) {
    const uint32_t banked = (b + BY_SP_BANK_ROWS - 1) / BY_SP_BANK_ROWS * BY_SP_BANK_ROWS;
    if (banked + b_rows <= a_base + BY_SP_HALF)
      b = banked;
  }
  return b;
}

/* A compressed operand of rows x cols (not transposed, no CPU fallback). */
static by_status_t check_compressed(const by_matmul_t* m, const by_boveda_matrix_t* x,
                                    int transposed, size_t rows, size_t cols) {
  if (m->on_cpu)
    return BY_ERR_UNSUPPORTED;
  if (transposed || x->rows != rows || x->cols != cols)
    return BY_ERR_ARG;
  return by_boveda_matrix_check_read(x);
}

static by_status_t check_operands(const by_matmul_t* m, const by_hw_t* hw,
                                  const by_matmul_shape_t* shape) {
  /* Compressed blocks of a plain B cannot be lane-packed on the way in, and a compressed
   * matrix's blocks are DIM columns wide, not a pass of DIM x lanes. */
  if ((m->A_boveda || m->B_boveda) && (!BY_HAS_BOVEDA || BY_LANES != 1))
    return BY_ERR_UNSUPPORTED;
  if ((!m->A && !m->A_boveda) || (!m->B && !m->B_boveda) || !m->C || m->I == 0 || m->J == 0 ||
      m->K == 0)
    return BY_ERR_ARG;
  if (m->tensordash != BY_TD_SCHEDULE_A && m->tensordash != BY_TD_SCHEDULE_B &&
      m->tensordash != BY_TD_OFF)
    return BY_ERR_ARG;
  if (m->tensordash == BY_TD_SCHEDULE_B && !BY_TENSORDASH_SCHEDULE_B)
    return BY_ERR_UNSUPPORTED;
  /* A packed B is the layout the array reads: no transpose, no compressed B. With one lane the
   * packed B is B and the flag changes nothing (one-lane code stays as it was). */
  const int packed = BY_LANES != 1 && m->b_packed;
  if (packed && (m->b_transposed || m->B_boveda))
    return BY_ERR_ARG;
  const size_t a_rows = m->a_transposed ? m->K : m->I, a_cols = m->a_transposed ? m->I : m->K;
  const size_t b_rows = packed ? by_packed_b_rows(m->K) : m->b_transposed ? m->J : m->K;
  const size_t b_cols = packed ? by_packed_b_cols(m->J) : m->b_transposed ? m->K : m->J;
  if ((!m->A_boveda && m->lda < a_cols) || (!m->B_boveda && m->ldb < b_cols) || m->ldc < m->J ||
      (m->D && m->ldd < m->J))
    return BY_ERR_ARG;
  by_status_t s;
  if (m->A_boveda && (s = check_compressed(m, m->A_boveda, m->a_transposed, m->I, m->K)) != BY_OK)
    return s;
  if (m->B_boveda && (s = check_compressed(m, m->B_boveda, m->b_transposed, m->K, m->J)) != BY_OK)
    return s;
  const size_t c_bytes = m->c_full ? sizeof(by_acc_t) : sizeof(by_elem_t);
  const size_t d_bytes = m->d_elem ? sizeof(by_elem_t) : sizeof(by_acc_t);
  const size_t d_rows = m->repeating_bias ? 1 : m->I;
  if ((!m->A_boveda &&
       !by_dram_reachable(m->A, ((a_rows - 1) * m->lda + a_cols) * sizeof(by_elem_t))) ||
      (!m->B_boveda &&
       !by_dram_reachable(m->B, ((b_rows - 1) * m->ldb + b_cols) * sizeof(by_elem_t))) ||
      !by_dram_reachable(m->C, ((m->I - 1) * m->ldc + m->J) * c_bytes) ||
      (m->D && !by_dram_reachable(m->D, ((d_rows - 1) * m->ldd + m->J) * d_bytes)))
    return BY_ERR_ADDR;
  /* DRAM strides are 32-bit fields (CONFIG_LD / CONFIG_ST). */
  if ((!m->A_boveda && (uint64_t)m->lda >= (UINT64_C(1) << 32)) ||
      (!m->B_boveda && (uint64_t)m->ldb >= (UINT64_C(1) << 32)) ||
      (uint64_t)m->ldc * c_bytes >= (UINT64_C(1) << 32) ||
      (uint64_t)m->ldd * d_bytes >= (UINT64_C(1) << 32))
    return BY_ERR_ARG;
  /* (A transpose the transposer does needs none.) */
  const size_t need = by_plan_matmul_workspace_bytes(hw, shape);
  if (need) {
    if (!m->workspace || m->workspace_bytes < need)
      return BY_ERR_WORKSPACE;
    if (!by_dram_reachable(m->workspace, need))
      return BY_ERR_ADDR;
  }
  return BY_OK;
}

by_status_t by_matmul_plan(const by_matmul_t* m, by_matmul_plan_t* plan) {
  by_hw_t hw;
  by_matmul_shape_t s;
  by_hw_get(&hw);
  matmul_shape(m, &s);
  return by_plan_matmul(&hw, &s, plan);
}

typedef struct {
  size_t K, k0; /* in elements / blocks */
} k_ctx_t;

static uint32_t k_size(const void* ctx, uint32_t k) {
  const k_ctx_t* c = (const k_ctx_t*)ctx;
  return k_block_size(c->K, c->k0 + k);
}

/* Software transposes into the workspace (for an operand the transposer does not take). */
static void transpose_into(const by_elem_t* src, size_t ld, size_t rows, size_t cols,
                           by_elem_t* dst) {
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      dst[c * rows + r] = src[r * ld + c];
}

/* Operands a loop finds in the scratchpad (LOOP_WS's a_spad_id / b_spad_id: 0 the loop's own
 * half, n = 1, 2 half n-1) and whether they are already there (no MVINs). */
typedef struct {
  int a_spad_id, a_there, b_spad_id, b_there;
} kept_t;

/* The WS tiles as LOOP_WS commands (BY_HAS_LOOP_WS): one loop per (C tile, K tile), in the
 * order of the command path below; the accelerator unrolls each into the same mvin / preload /
 * compute / mvout stream and picks the scratchpad and accumulator halves itself (a loop that
 * leaves C in the accumulator keeps its half, so the next K tile accumulates onto it). A kept
 * operand (plan->keep, one K tile) is loaded by the first loop that reads it, into the half its
 * tile's parity names, and found there by the others: with a kept A the loops go row tile by row
 * tile and each row's A sits at the start of its half while its column tiles' B come and go at
 * the end of the loops' own halves; with a kept B they go column tile by column tile and each
 * column's B sits at the end of its half. The next row's A (column's B) loads into the other half
 * while this one computes. The mvin channels and CONFIG_ST are already configured with the
 * strides in bytes. */
static void matmul_loop(const by_matmul_t* m, const by_matmul_plan_t* plan, const by_elem_t* A,
                        size_t lda, const by_elem_t* B, size_t ldb, size_t i0, size_t j0, size_t k0,
                        kept_t kept) {
  const size_t c_bytes = m->c_full ? sizeof(by_acc_t) : sizeof(by_elem_t);
  const size_t d_bytes = m->d_elem ? sizeof(by_elem_t) : sizeof(by_acc_t);
  const size_t bi = by_blocks(m->I), bj = by_blocks(m->J), bk = k_blocks(m->K);
  by_loop_ws_t l = {0};
  l.I = (uint32_t)(bi - i0 < plan->tile_i ? bi - i0 : plan->tile_i);
  l.J = (uint32_t)(bj - j0 < plan->tile_j ? bj - j0 : plan->tile_j);
  l.K = (uint32_t)(bk - k0 < plan->tile_k ? bk - k0 : plan->tile_k);
  l.pad_I = i0 + l.I == bi ? (uint32_t)(bi * BY_DIM - m->I) : 0;
  l.pad_J = j0 + l.J == bj ? (uint32_t)(bj * BY_DIM - m->J) : 0;
  l.pad_K = k0 + l.K == bk ? (uint32_t)(bk * BY_DIM - m->K) : 0;
  /* A stored transposed (K x I) or B (J x K): the tile's first stored row and column.
   * Compressed operands: the loop names the blocks' pointer entries (its moves are the
   * matrices' blocks: by_plan_matmul keeps the loop only then), the strides count them. */
  l.a_transpose = plan->transpose_a;
  l.b_transpose = plan->transpose_b;
  if (m->A_boveda) {
    const size_t g = by_boveda_matrix_block_cols(m->A_boveda) / BY_DIM;
    l.A = by_boveda_matrix_entry(m->A_boveda, i0, k0 / g);
    l.a_stride = by_boveda_matrix_col_blocks(m->A_boveda);
    l.a_compressed = 1;
  } else {
    l.A = plan->transpose_a ? A + k0 * BY_DIM * lda + i0 * BY_DIM
                            : A + i0 * BY_DIM * lda + k0 * BY_DIM;
    l.a_stride = lda;
  }
  if (m->B_boveda) {
    const size_t g = by_boveda_matrix_block_cols(m->B_boveda) / BY_DIM;
    l.B = by_boveda_matrix_entry(m->B_boveda, k0, j0 / g);
    l.b_stride = by_boveda_matrix_col_blocks(m->B_boveda);
    l.b_compressed = 1;
  } else {
    l.B = plan->transpose_b ? B + j0 * BY_DIM * ldb + k0 * BY_DIM
                            : B + k0 * BY_DIM * ldb + j0 * BY_DIM;
    l.b_stride = ldb;
  }
  l.a_spad_id = kept.a_spad_id;
  l.b_spad_id = kept.b_spad_id;
  if (kept.a_there)
    l.A = 0;
  if (kept.b_there)
    l.B = 0;
  if (m->D && k0 == 0)
    l.D = (const char*)m->D +
          ((m->repeating_bias ? 0 : i0 * BY_DIM * m->ldd) + j0 * BY_DIM) * d_bytes;
  if (k0 + l.K == bk)
    l.C = (char*)m->C + (i0 * BY_DIM * m->ldc + j0 * BY_DIM) * c_bytes;
  l.d_stride = m->repeating_bias ? 0 : m->ldd;
  l.c_stride = m->ldc;
  l.ex_accumulate = m->D != 0 || k0 > 0;
  l.full_C = m->c_full;
  l.low_D = m->d_elem;
  l.act = m->activation;
  by_loop_ws(&l);
}

static void matmul_loops(const by_matmul_t* m, const by_matmul_plan_t* plan, const by_elem_t* A,
                         size_t lda, const by_elem_t* B, size_t ldb) {
  const size_t bi = by_blocks(m->I), bj = by_blocks(m->J), bk = k_blocks(m->K);
  if (plan->keep == BY_MATMUL_KEEP_A) { /* one K tile */
    for (size_t i0 = 0, it = 0; i0 < bi; i0 += plan->tile_i, ++it)
      for (size_t j0 = 0; j0 < bj; j0 += plan->tile_j) {
        const kept_t kept = {1 + (int)(it & 1), j0 != 0, 0, 0};
        matmul_loop(m, plan, A, lda, B, ldb, i0, j0, 0, kept);
      }
    return;
  }
  if (plan->keep == BY_MATMUL_KEEP_B) { /* one K tile */
    for (size_t j0 = 0, jt = 0; j0 < bj; j0 += plan->tile_j, ++jt)
      for (size_t i0 = 0; i0 < bi; i0 += plan->tile_i) {
        const kept_t kept = {0, 0, 1 + (int)(jt & 1), i0 != 0};
        matmul_loop(m, plan, A, lda, B, ldb, i0, j0, 0, kept);
      }
    return;
  }
  const kept_t none = {0, 0, 0, 0};
  for (size_t i0 = 0; i0 < bi; i0 += plan->tile_i)
    for (size_t j0 = 0; j0 < bj; j0 += plan->tile_j)
      for (size_t k0 = 0; k0 < bk; k0 += plan->tile_k)
        matmul_loop(m, plan, A, lda, B, ldb, i0, j0, k0, none);
}

/* The operands as the array reads them: A stored transposed, unless the transposer takes it
 * (plan->transpose_a), is copied into the workspace, and after it B stored transposed (likewise)
 * or (vector PEs) not packed. */
static void prepare_operands(const by_matmul_t* m, const by_matmul_plan_t* plan, int packs_b,
                             const by_elem_t** A, size_t* lda, const by_elem_t** B, size_t* ldb) {
  *A = m->A, *B = m->B, *lda = m->lda, *ldb = m->ldb;
  const int copy_a = m->a_transposed && !plan->transpose_a;
  if (copy_a) {
    transpose_into(m->A, m->lda, m->K, m->I, (by_elem_t*)m->workspace);
    *A = (const by_elem_t*)m->workspace;
    *lda = m->K;
  }
  if (packs_b) {
    by_elem_t* ws = (by_elem_t*)m->workspace + (copy_a ? m->I * m->K : 0);
    pack_b(m->K, m->J, m->B, m->ldb, m->b_transposed, ws, by_packed_b_cols(m->J));
    *B = ws;
    *ldb = by_packed_b_cols(m->J);
  } else if (m->b_transposed && !plan->transpose_b) {
    by_elem_t* ws = (by_elem_t*)m->workspace + (copy_a ? m->I * m->K : 0);
    transpose_into(m->B, m->ldb, m->J, m->K, ws);
    *B = ws;
    *ldb = m->J;
  }
}

/* CONFIG_EX (with the transposes the loops leave to the transposer), the mvin channels of A
 * (0), B (1) and D (2), and CONFIG_ST. */
static void configure(const by_matmul_t* m, const by_matmul_plan_t* plan, size_t lda, size_t ldb) {
  const size_t c_bytes = m->c_full ? sizeof(by_acc_t) : sizeof(by_elem_t);
  const size_t d_bytes = m->d_elem ? sizeof(by_elem_t) : sizeof(by_acc_t);
  if (plan->transpose_a || plan->transpose_b) /* (no TensorDash where the transposer is) */
    by_config_ex_transpose(plan->dataflow, BY_ACT_NONE, 0, plan->transpose_a, plan->transpose_b);
  else
    by_config_ex_td(plan->dataflow, BY_ACT_NONE, 0, 1, 1, m->tensordash);
  if (m->A_boveda)
    (void)by_config_ld_compressed(0, m->A_boveda->stream, 0);
  else
    by_config_ld(0, lda * sizeof(by_elem_t), 0, 0);
  if (m->B_boveda)
    (void)by_config_ld_compressed(1, m->B_boveda->stream, 0);
  else
    by_config_ld(1, ldb * sizeof(by_elem_t), 0, 0);
  if (m->D)
    by_config_ld(2, m->repeating_bias ? 0 : m->ldd * d_bytes, m->d_elem, 0);
  by_config_st((uint32_t)(m->ldc * c_bytes), m->activation, m->scale, 0);
}

/* The command path: per C tile its bias, per K tile the A and B blocks and the computes, then
 * C's mvouts. */
static void matmul_commands(const by_matmul_t* m, const by_matmul_plan_t* plan, const by_elem_t* A,
                            size_t lda, const by_elem_t* B, size_t ldb) {
  const size_t c_bytes = m->c_full ? sizeof(by_acc_t) : sizeof(by_elem_t);
  const size_t d_bytes = m->d_elem ? sizeof(by_elem_t) : sizeof(by_acc_t);
  /* Column blocks per mvin: MAX_BLOCK_LEN, or one compressed block (whole blocks per tile). */
  const uint32_t a_group = m->A_boveda
                               ? (uint32_t)(by_boveda_matrix_block_cols(m->A_boveda) / BY_DIM)
                               : BY_MAX_BLOCK_LEN;
  const uint32_t b_group = m->B_boveda
                               ? (uint32_t)(by_boveda_matrix_block_cols(m->B_boveda) / BY_DIM)
                               : BY_MAX_BLOCK_LEN;
  const size_t bi = by_blocks(m->I), bj = by_blocks(m->J), bk = k_blocks(m->K);
  const uint32_t d_group = m->d_elem ? BY_MAX_BLOCK_LEN : BY_MAX_BLOCK_LEN_ACC;
  unsigned c_tiles = 0, ab_tiles = 0;
  for (size_t i0 = 0; i0 < bi; i0 += plan->tile_i)
    for (size_t j0 = 0; j0 < bj; j0 += plan->tile_j, ++c_tiles) {
      const uint32_t mt = (uint32_t)(bi - i0 < plan->tile_i ? bi - i0 : plan->tile_i);
      const uint32_t nt = (uint32_t)(bj - j0 < plan->tile_j ? bj - j0 : plan->tile_j);
      const uint32_t c_base = (c_tiles & 1u) * BY_ACC_HALF;
      if (m->D)
        for (uint32_t mb = 0; mb < mt; ++mb) {
          const size_t row = m->repeating_bias ? 0 : (i0 + mb) * BY_DIM;
          for (uint32_t nb = 0; nb < nt; nb += d_group) {
            const size_t col = (j0 + nb) * BY_DIM;
            size_t cols = m->J - col < d_group * BY_DIM ? m->J - col : d_group * BY_DIM;
            if (cols > (nt - nb) * BY_DIM)
              cols = (nt - nb) * BY_DIM;
            by_mvin(2, (const char*)m->D + (row * m->ldd + col) * d_bytes,
                    by_acc_addr(c_base + (mb * nt + nb) * BY_DIM, 0, 0),
                    by_block_size(m->I, i0 + mb), (uint32_t)cols);
          }
        }
      for (size_t k0 = 0; k0 < bk; k0 += plan->tile_k, ++ab_tiles) {
        const uint32_t kt = (uint32_t)(bk - k0 < plan->tile_k ? bk - k0 : plan->tile_k);
        const uint32_t a_base = (ab_tiles & 1u) * BY_SP_HALF;
        const uint32_t b_base = b_tile_base(a_base, mt * kt * BY_DIM, kt * nt * BY_DIM);
        /* A compressed block is one mvin of exactly its columns; the tiles' alignment
         * (by_matmul_plan) keeps it inside this K / J tile. */
        for (uint32_t mb = 0; mb < mt; ++mb)
          for (uint32_t kb = 0; kb < kt; kb += a_group) {
            const size_t col = (k0 + kb) * BY_KB;
            const size_t cols = m->K - col < a_group * BY_KB ? m->K - col : a_group * BY_KB;
            const size_t span = (kt - kb) * BY_KB; /* stay inside this K tile */
            const uint32_t local = by_sp_addr(a_base + (mb * kt + kb) * BY_DIM);
            const uint32_t rows = by_block_size(m->I, i0 + mb);
            if (m->A_boveda)
              (void)by_mvin_compressed(
                  0, by_boveda_matrix_entry(m->A_boveda, i0 + mb, (k0 + kb) / a_group), local, rows,
                  (uint32_t)cols);
            else
              by_mvin(0, A + (i0 + mb) * BY_DIM * lda + col, local, rows,
                      (uint32_t)(cols < span ? cols : span));
          }
        for (uint32_t kb = 0; kb < kt; ++kb)
          for (uint32_t nb = 0; nb < nt; nb += b_group) {
            const size_t col = (j0 + nb) * BY_DIM;
            const size_t cols = m->J - col < b_group * BY_DIM ? m->J - col : b_group * BY_DIM;
            const size_t span = (nt - nb) * BY_DIM;
            const uint32_t local = by_sp_addr(b_base + (kb * nt + nb) * BY_DIM);
            /* Packed rows of B (K rows with one lane), packed columns. */
            const uint32_t rows = by_b_rows(k_block_size(m->K, k0 + kb));
            if (m->B_boveda)
              (void)by_mvin_compressed(
                  1, by_boveda_matrix_entry(m->B_boveda, k0 + kb, (j0 + nb) / b_group), local, rows,
                  (uint32_t)cols);
            else
              by_mvin(1, B + (k0 + kb) * BY_DIM * ldb + col * BY_LANES, local, rows,
                      (uint32_t)((cols < span ? cols : span) * BY_LANES));
          }
        const k_ctx_t kc = {m->K, k0};
        const by_tile_t t = {plan->dataflow,
                             a_base,
                             kt * BY_DIM,
                             BY_DIM,
                             b_base,
                             nt * BY_DIM,
                             BY_DIM,
                             c_base,
                             nt * BY_DIM,
                             BY_DIM,
                             mt,
                             nt,
                             kt,
                             by_block_size(m->I, i0 + mt - 1),
                             by_block_size(m->J, j0 + nt - 1),
                             k_size,
                             &kc,
                             m->D != 0 || k0 > 0};
        by_tile_compute(&t);
      }
      for (uint32_t mb = 0; mb < mt; ++mb) {
        const uint32_t rows = by_block_size(m->I, i0 + mb);
        const uint32_t group = m->c_full ? 1u : BY_MAX_BLOCK_LEN; /* full rows: one block */
        for (uint32_t nb = 0; nb < nt; nb += group) {
          const size_t col = (j0 + nb) * BY_DIM;
          size_t cols = m->J - col < group * BY_DIM ? m->J - col : group * BY_DIM;
          if (cols > (nt - nb) * BY_DIM)
            cols = (nt - nb) * BY_DIM;
          by_mvout((char*)m->C + ((i0 + mb) * BY_DIM * m->ldc + col) * c_bytes,
                   by_acc_addr(c_base + (mb * nt + nb) * BY_DIM, 0, m->c_full), rows,
                   (uint32_t)cols);
        }
      }
    }
}

/* One row of C with B stored transposed, as its transpose (by_matmul_plan_t.transposed):
 * C^T[J x 1] = B^T[J x K] A^T[K x 1] + D^T, every operand where it is: B^T is B as stored, and
 * a row of A, C or D is a column of one element per row, one element apart. The plan's tiles
 * are the transpose's. */
static by_status_t matmul_transposed(const by_matmul_t* m, const by_matmul_plan_t* plan) {
  by_matmul_t t = *m;
  t.I = m->J, t.J = 1;
  t.A = m->B, t.lda = m->ldb, t.a_transposed = 0;
  t.B = m->A, t.ldb = 1, t.b_transposed = 0;
  t.ldd = 1, t.repeating_bias = 0;
  t.ldc = 1;
  t.dataflow = plan->dataflow;
  t.tile_i = plan->tile_i, t.tile_j = plan->tile_j, t.tile_k = plan->tile_k;
  return by_matmul(&t);
}

by_status_t by_matmul(const by_matmul_t* m) {
  by_hw_t hw;
  by_matmul_shape_t shape;
  by_hw_get(&hw);
  matmul_shape(m, &shape);
  by_status_t s = check_operands(m, &hw, &shape);
  if (s != BY_OK)
    return s;
  by_matmul_plan_t plan;
  if ((s = by_plan_matmul(&hw, &shape, &plan)) != BY_OK)
    return s;
  if (m->on_cpu) {
    if ((s = by_drain()) == BY_OK)
      by_cpu_matmul(m, plan.dataflow, plan.k_chunk);
    return s;
  }
  if (plan.transposed)
    return matmul_transposed(m, &plan);
  const by_elem_t *A, *B;
  size_t lda, ldb;
  by_kernel_begin(); /* also: no earlier command still reads the workspace */
  prepare_operands(m, &plan, by_plan_matmul_packs_b(&hw, &shape), &A, &lda, &B, &ldb);
  configure(m, &plan, lda, ldb);
  if (plan.loop)
    matmul_loops(m, &plan, A, lda, B, ldb);
  else
    matmul_commands(m, &plan, A, lda, B, ldb);
  return by_kernel_end();
}
