/* COUNTER_OP counters (external DMA byte counters, reset, snapshot), the 64-bit register
 * counters, the cycle source, and the error register: commands the hardware must reject set
 * ERROR (code and funct) and ERROR_COUNT, do nothing, and the next command works. */
#include "bm_ref.h"
#include "bm_test.h"

#define D BY_DIM
static by_elem_t M[D * D], out[D * D];

int main(void) {
  bm_seed(5007, "counters_errors");
  by_error_clear();
  bm_fill(M, D * D, BY_ELEM_MIN, BY_ELEM_MAX);
  by_config_ld(0, D, 0, 0);
  by_config_st(D, BY_ACT_NONE, 1.0f, 0);

  /* Counters 0/1 count DMA payload bytes read / written; 2 counts load-controller cycles. */
  by_fence();
  by_counter_reset();
  by_counter_configure(0, BY_EVENT_RDMA_BYTES_REC, 1);
  by_counter_configure(1, BY_EVENT_WDMA_BYTES_SENT, 1);
  by_counter_configure(2, BY_EVENT_LOAD_ACTIVE_CYCLE, 0);
  by_perf_reset();
  const uint64_t t0 = by_cycles();
  by_mvin(0, M, by_sp_addr(0), D, D);
  by_mvin(0, 0, by_sp_addr(D), D, D); /* a zero fill moves no bytes */
  by_mvout(out, by_sp_addr(0), D, D);
  by_fence();
  const uint64_t t1 = by_cycles();
  const uint64_t bytes = D * D * sizeof(by_elem_t);
  BM_CHECK(by_counter_read(0) == bytes, "RDMA_BYTES_REC %llu, want %llu",
           (unsigned long long)by_counter_read(0), (unsigned long long)bytes);
  BM_CHECK(by_counter_read(1) == bytes, "WDMA_BYTES_SENT %llu, want %llu",
           (unsigned long long)by_counter_read(1), (unsigned long long)bytes);
  BM_CHECK(t1 > t0, "cycle source did not advance");
  const uint64_t rd = by_perf_read(BY_REG_DMA_READ_BYTES_LO);
  const uint64_t wr = by_perf_read(BY_REG_DMA_WRITE_BYTES_LO);
#if BY_HAL_TIMED
  /* The AXI side moves whole bus beats: at least the payload. */
  BM_CHECK(rd >= bytes && wr >= bytes, "DMA register bytes %llu / %llu below the payload",
           (unsigned long long)rd, (unsigned long long)wr);
  BM_CHECK(by_counter_read(2) > 0, "LOAD_ACTIVE_CYCLE counted nothing");
  BM_CHECK(by_perf_read(BY_REG_BUSY_CYCLES_LO) > 0, "BUSY_CYCLES is 0");
#else
  BM_CHECK(rd == bytes && wr == bytes, "DMA register bytes %llu / %llu, want %llu",
           (unsigned long long)rd, (unsigned long long)wr, (unsigned long long)bytes);
#endif
  /* Snapshot: reads return the snapshot until snapshot_reset. */
  by_counter_snapshot();
  by_mvin(0, M, by_sp_addr(0), D, D);
  by_fence();
  BM_CHECK(by_counter_read(0) == bytes, "snapshot changed: %llu",
           (unsigned long long)by_counter_read(0));
  by_counter_snapshot_reset();
  BM_CHECK(by_counter_read(0) == 2 * bytes, "live counter %llu, want %llu",
           (unsigned long long)by_counter_read(0), (unsigned long long)(2 * bytes));
  by_counter_reset();
  BM_CHECK(by_counter_read(0) == 0, "reset left %llu", (unsigned long long)by_counter_read(0));

  /* Errors: each rejected command latches the first code and counts. */
  by_fence();
  by_error_clear();
  (void)by_take_refusals(NULL); /* nothing refused before this point is counted below */
  const uint32_t count0 = by_error().count;
  BY_HAL_CMD(BY_FUNCT_CONFIG,
             by_enc_config_ex_rs1(BY_DATAFLOW_WS, 0, 0, 1) |
                 BY_FIELD(BY_CONFIG_EX_RS1_A_TRANSPOSE, 1) |
                 BY_FIELD(BY_CONFIG_EX_RS1_B_TRANSPOSE, 1), /* WS: two for one transposer */
             by_enc_config_ex_rs2(0, 1));
  by_fence();
  by_error_t e = by_error();
  BM_CHECK(e.code == BY_ERROR_UNSUPPORTED && e.funct == BY_FUNCT_CONFIG && e.count == count0 + 1,
           "transpose: error %s funct %u count %u", by_error_name(e.code), (unsigned)e.funct,
           (unsigned)e.count);
  by_mvin(0, M, by_sp_addr(BY_SP_ROWS - 1), D, D); /* rows beyond the scratchpad */
  by_fence();
  e = by_error();
  BM_CHECK(e.code == BY_ERROR_UNSUPPORTED && e.count == count0 + 2,
           "first error must stay latched: %s, count %u", by_error_name(e.code), (unsigned)e.count);
  by_error_clear();
  by_mvin(0, M, by_sp_addr(BY_SP_ROWS - 1), D, D);
  by_compute(1, by_sp_addr(0), D, D, BY_GARBAGE_ADDR, D, D); /* no PRELOAD before it */
  by_mvin(0, (const void*)(uintptr_t)UINT64_C(0xfffffff0), by_sp_addr(0), D, D); /* > 4 GiB */
  by_fence();
  e = by_error();
  BM_CHECK(e.code == BY_ERROR_LOCAL_RANGE && e.funct == BY_FUNCT_MVIN && e.count == count0 + 5,
           "range: error %s funct %u count %u", by_error_name(e.code), (unsigned)e.funct,
           (unsigned)e.count);
  by_error_clear();
  /* Rejected commands did nothing: scratchpad row 0 still holds M. */
  by_mvout(out, by_sp_addr(0), D, D);
  by_fence();
  bm_compare("after_errors", out, M, D * D);
  BM_CHECK(by_error().code == BY_ERROR_NONE, "a legal command after errors failed");

  /* The driver reports each refusal once: the five above to whoever asks first... */
  uint32_t refused = by_take_refusals(&e);
  BM_CHECK(refused == 5 && e.count == count0 + 5, "by_take_refusals: %u (count %u), want 5",
           (unsigned)refused, (unsigned)e.count);
  BM_CHECK(by_take_refusals(NULL) == 0, "refusals reported twice");
  /* ...and a raw command's refusal to the next kernel call, as BY_ERR_HW (its result is
   * computed, but the program's earlier commands did not all run), then never again. */
  by_mvin(0, M, by_sp_addr(BY_SP_ROWS - 1), D, D);
  by_status_t s = by_copy(D, D, M, D, out, D, 0);
  BM_CHECK(s == BY_ERR_HW, "kernel after a refused raw command: %s", by_status_string(s));
  s = by_copy(D, D, M, D, out, D, 0);
  BM_CHECK(s == BY_OK, "the refusal was reported again: %s", by_status_string(s));
  bm_compare("copy", out, M, D * D);
  BM_CHECK(by_take_refusals(NULL) == 0, "a reported refusal counted again");
  return bm_finish("counters_errors");
}
