#include "tile.h"

#include "brickyard_isa.h"

static uint32_t c_addr(const by_tile_t* t, uint32_t m, uint32_t n, int accumulate) {
  return by_acc_addr(t->c_base + m * t->c_m + n * t->c_n, accumulate, 0);
}

/* The local address is the low 32 bits of the PRELOAD C operand and of the COMPUTE A operand
 * (docs/isa.md), so stepping an encoded word by a block stride moves its address and nothing
 * else. */
typedef char by_addr_fields_are_low[BY_PRELOAD_RS2_LOCAL_ADDR_SHIFT == 0 &&
                                            BY_COMPUTE_ACCUMULATED_RS1_LOCAL_ADDR_SHIFT == 0
                                        ? 1
                                        : -1];

static void compute_ws(const by_tile_t* t) {
  /* On the SoC the host's issue rate bounds the array's utilization, so this loop is kept to
   * a few instructions per command: the tile's fields are copied into locals (each command's
   * asm clobbers memory, which would reload them), addresses advance by their strides, and
   * the pairs that reuse the weights step encoded words instead of encoding every field. */
  const uint32_t a_m = t->a_m, a_k = t->a_k, b_k = t->b_k, c_m = t->c_m;
  const uint32_t mt = t->mt, nt = t->nt, kt = t->kt, m_last = t->m_last;
  const uint64_t keep_weights = by_enc_preload_bd(BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
  const uint64_t no_bias = by_enc_compute_bd(BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
  const uint32_t rows0 = mt == 1 ? m_last : BY_DIM;
  /* Blocks 1 .. full-1 of a column have DIM rows: the fast loop. */
  const uint32_t full = m_last == BY_DIM ? mt : mt - 1;
  for (uint32_t n = 0; n < nt; ++n) {
    const uint32_t cols = n + 1 == nt ? t->n_last : BY_DIM;
    const uint32_t c_row = t->c_base + n * t->c_n;
    uint32_t a_row = t->a_base, b_row = t->b_base + n * t->b_n;
    for (uint32_t k = 0; k < kt; ++k, a_row += a_k, b_row += b_k) {
      const uint32_t ks = t->k_size(t->k_ctx, k);
      const int accumulate = t->accumulate || k > 0;
      /* The first pair loads the weights; the rest of the column reuses them. */
      by_preload(by_sp_addr(b_row), by_b_rows(ks), by_b_cols(cols),
                 by_acc_addr(c_row, accumulate, 0), rows0, cols);
      by_compute(1, by_sp_addr(a_row), rows0, ks, BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
      uint64_t c = by_enc_preload_c(by_acc_addr(c_row + c_m, accumulate, 0), BY_DIM, cols);
      uint64_t a = by_enc_compute_a(by_sp_addr(a_row + a_m), BY_DIM, ks);
      for (uint32_t m = 1; m < full; ++m, c += c_m, a += a_m) {
        BY_HAL_CMD(BY_FUNCT_PRELOAD, keep_weights, c);
        BY_HAL_CMD(BY_FUNCT_COMPUTE_ACCUMULATED, a, no_bias);
      }
      if (full < mt && mt > 1) { /* the last block, of m_last rows */
        const uint32_t m = mt - 1;
        by_preload(BY_GARBAGE_ADDR, BY_DIM, BY_DIM, by_acc_addr(c_row + m * c_m, accumulate, 0),
                   m_last, cols);
        by_compute(0, by_sp_addr(a_row + m * a_m), m_last, ks, BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
      }
    }
  }
}

static void compute_os(const by_tile_t* t) {
  for (uint32_t m = 0; m < t->mt; ++m) {
    const uint32_t rows = m + 1 == t->mt ? t->m_last : BY_DIM;
    for (uint32_t n = 0; n < t->nt; ++n) {
      const uint32_t cols = n + 1 == t->nt ? t->n_last : BY_DIM;
      for (uint32_t k = 0; k < t->kt; ++k) {
        const uint32_t ks = t->k_size(t->k_ctx, k);
        /* The accumulation stays in the array until the last k block writes it out. */
        const uint32_t c = k + 1 == t->kt ? c_addr(t, m, n, t->accumulate) : BY_GARBAGE_ADDR;
        by_preload(BY_GARBAGE_ADDR, BY_DIM, BY_DIM, c, rows, cols);
        by_compute(k == 0, by_sp_addr(t->a_base + m * t->a_m + k * t->a_k), rows, ks,
                   by_sp_addr(t->b_base + k * t->b_k + n * t->b_n), by_b_rows(ks), by_b_cols(cols));
      }
    }
  }
}

void by_tile_compute(const by_tile_t* t) {
  if (t->dataflow == BY_DATAFLOW_WS)
    compute_ws(t);
  else
    compute_os(t);
}

/* Overlapped kernels (brickyard/kernels.h). One accelerator per program, like the registers. */
static int overlap_on;
static int in_flight;          /* an outermost kernel returned before its fence */
static unsigned depth;         /* kernels begun and not ended: the outermost is depth 1 */
static by_status_t unreported; /* refusals of early-returned work that no hook took */
static by_drain_hook_t drain_hook;
static void* drain_ctx;

void by_wait_in_flight(void) {
  by_status_t s = BY_OK;
  if (in_flight) {
    in_flight = 0;
    if (by_take_refusals(NULL) != 0)
      s = BY_ERR_HW;
  }
  static int in_hook; /* the hook's own drains (e.g. by_boveda_tensor_used_bytes) wait only */
  if (drain_hook && !in_hook) {
    in_hook = 1;
    drain_hook(s, drain_ctx);
    in_hook = 0;
  } else if (s != BY_OK)
    unreported = s;
}

static by_status_t take_unreported(by_status_t s) {
  if (unreported != BY_OK) {
    s = unreported;
    unreported = BY_OK;
  }
  return s;
}

void by_set_overlap(int on) {
  by_wait_in_flight();
  overlap_on = on != 0;
  depth = 0;
}

void by_set_drain_hook(by_drain_hook_t hook, void* ctx) {
  drain_hook = hook;
  drain_ctx = ctx;
}

by_status_t by_drain(void) {
  by_wait_in_flight();
  return take_unreported(BY_OK);
}

void by_kernel_begin(void) {
  if (depth == 0)
    by_wait_in_flight();
  by_fence(); /* also after raw commands: nothing earlier still reads what the kernel writes */
  ++depth;
}

by_status_t by_kernel_sync(void) {
  return by_take_refusals(NULL) != 0 ? BY_ERR_HW : BY_OK;
}

by_status_t by_kernel_end(void) {
  /* A stray end (no begin: depth 0) fences, as does every kernel inside another. */
  const int outermost = depth == 1;
  if (depth > 0)
    --depth;
  if (outermost && overlap_on) {
    in_flight = 1;
    return take_unreported(BY_OK);
  }
  return take_unreported(by_kernel_sync());
}
