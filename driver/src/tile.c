#include "tile.h"

#include "brickyard_isa.h"

static uint32_t c_addr(const by_tile_t* t, uint32_t m, uint32_t n, int accumulate) {
  return by_acc_addr(t->c_base + m * t->c_m + n * t->c_n, accumulate, 0);
}

static void compute_ws(const by_tile_t* t) {
  for (uint32_t n = 0; n < t->nt; ++n) {
    const uint32_t cols = n + 1 == t->nt ? t->n_last : BY_DIM;
    for (uint32_t k = 0; k < t->kt; ++k) {
      const uint32_t ks = t->k_size(t->k_ctx, k);
      const int accumulate = t->accumulate || k > 0;
      for (uint32_t m = 0; m < t->mt; ++m) {
        const uint32_t rows = m + 1 == t->mt ? t->m_last : BY_DIM;
        /* The first pair loads the weights; the rest of the column reuses them. */
        if (m == 0)
          by_preload(by_sp_addr(t->b_base + k * t->b_k + n * t->b_n), ks, cols,
                     c_addr(t, m, n, accumulate), rows, cols);
        else
          by_preload(BY_GARBAGE_ADDR, BY_DIM, BY_DIM, c_addr(t, m, n, accumulate), rows, cols);
        by_compute(m == 0, by_sp_addr(t->a_base + m * t->a_m + k * t->a_k), rows, ks,
                   BY_GARBAGE_ADDR, BY_DIM, BY_DIM);
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
                   by_sp_addr(t->b_base + k * t->b_k + n * t->b_n), ks, cols);
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

uint32_t by_kernel_begin(void) {
  by_fence();
  return by_error().count;
}

by_status_t by_kernel_end(uint32_t error_count_before) {
  by_fence();
  return by_error().count != error_count_before ? BY_ERR_HW : BY_OK;
}

by_status_t by_pick_dataflow(int requested, int* dataflow) {
  if (requested == BY_DATAFLOW_AUTO) {
    *dataflow = BY_HAS_WS ? BY_DATAFLOW_WS : BY_DATAFLOW_OS;
    return BY_OK;
  }
  if (requested == BY_DATAFLOW_WS && BY_HAS_WS) {
    *dataflow = BY_DATAFLOW_WS;
    return BY_OK;
  }
  if (requested == BY_DATAFLOW_OS && BY_HAS_OS) {
    *dataflow = BY_DATAFLOW_OS;
    return BY_OK;
  }
  return requested == BY_DATAFLOW_WS || requested == BY_DATAFLOW_OS ? BY_ERR_UNSUPPORTED
                                                                    : BY_ERR_ARG;
}
