// Gemmini-style program: the COUNTER_OP counters through gemmini.h's counter helpers (reset,
// configure by Gemmini's event names of gemmini_counter.h, read, snapshot) and read_cycles().
// The byte counters are exact everywhere; the names without a Brickyard equivalent read 0; the
// cycle events count on the RTL (the functional model has no cycles: they read 0 there).
#include "include/gemmini_counter.h"
#include "include/gemmini_testutils.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static elem_t In[DIM][DIM] row_align(1), Out[DIM][DIM] row_align(1);

static int failures = 0;
static void expect(int cond, const char* what) {
  if (!cond) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

// Some work for every controller: mvins, a WS matmul, mvouts.
static void work(void) {
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  gemmini_mvin(In, 0);
  gemmini_mvin(In, DIM);
  gemmini_preload(DIM, (uint32_t)1 << 31);
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_mvout(Out, (uint32_t)1 << 31);
  gemmini_fence();
}

int main() {
  const uint64_t start = read_cycles();
  gemmini_flush(0);
  counter_reset();
  const size_t bytes = DIM * DIM * sizeof(elem_t);

  // The external byte counters by Gemmini's names (INCREMENTAL_COUNTERS + n).
  counter_configure(0, RDMA_BYTES_REC);
  counter_configure(1, WDMA_BYTES_SENT);
  gemmini_config_ld(DIM);
  gemmini_config_st(DIM);
  gemmini_mvin(In, 0);
  gemmini_mvout(Out, 0);
  gemmini_fence();
  expect(counter_read(0) == bytes && counter_read(1) == bytes, "RDMA_BYTES_REC, WDMA_BYTES_SENT");
  counter_snapshot_take();
  gemmini_mvin(In, 0);
  gemmini_fence();
  expect(counter_read(0) == bytes, "snapshot holds");
  counter_snapshot_reset();
  expect(counter_read(0) == 2 * bytes, "snapshot reset");
  uint64_t raw = 0;
  gemmini_counter_access(raw, BY_FIELD(BY_COUNTER_OP_RS1_INDEX, 1));
  expect(raw == bytes, "gemmini_counter_access");
  // Brickyard's own external form still works.
  counter_configure_external(2, BY_EVENT_RDMA_BYTES_REC);
  gemmini_mvin(In, 0);
  gemmini_fence();
  expect(counter_read(2) == bytes, "counter_configure_external");

  // Events with a Brickyard equivalent count (on the RTL) the controllers' activity.
  static const struct {
    size_t code;
    const char* name;
  } active[] = {{LOAD_ACTIVE_CYCLE, "LOAD_ACTIVE_CYCLE"},
                {STORE_ACTIVE_CYCLE, "STORE_ACTIVE_CYCLE"},
                {EXE_ACTIVE_CYCLE, "EXE_ACTIVE_CYCLE"},
                {RDMA_ACTIVE_CYCLE, "RDMA_ACTIVE_CYCLE"},
                {WDMA_ACTIVE_CYCLE, "WDMA_ACTIVE_CYCLE"},
                {RESERVATION_STATION_ACTIVE_CYCLES, "RESERVATION_STATION_ACTIVE_CYCLES"}};
  for (size_t i = 0; i < sizeof active / sizeof active[0]; ++i)
    counter_configure(i, active[i].code);
  work();
  for (size_t i = 0; i < sizeof active / sizeof active[0]; ++i) {
    const uint32_t v = counter_read(i);
    printf("%s = %u\n", active[i].name, v);
    expect(BY_HAL_TIMED ? v > 0 : v == 0, active[i].name);
  }

  // Every name without an equivalent compiles and reads 0 after the same work; so do the
  // reservation-station occupancies after a fence.
  static const size_t none[] = {LOAD_SCRATCHPAD_WAIT_CYCLE,
                                STORE_SCRATCHPAD_WAIT_CYCLE,
                                DMA_TLB_MISS_CYCLE,
                                DMA_TLB_HIT_REQ,
                                DMA_TLB_TOTAL_REQ,
                                RDMA_TLB_WAIT_CYCLES,
                                RDMA_TL_WAIT_CYCLES,
                                WDMA_TLB_WAIT_CYCLES,
                                WDMA_TL_WAIT_CYCLES,
                                EXE_FLUSH_CYCLE,
                                EXE_CONTROL_Q_BLOCK_CYCLE,
                                EXE_PRELOAD_HAZ_CYCLE,
                                EXE_OVERLAP_HAZ_CYCLE,
                                SCRATCHPAD_B_WAIT_CYCLE,
                                SCRATCHPAD_D_WAIT_CYCLE,
                                ACC_A_WAIT_CYCLE,
                                ACC_B_WAIT_CYCLE,
                                ACC_D_WAIT_CYCLE,
                                A_GARBAGE_CYCLES,
                                B_GARBAGE_CYCLES,
                                D_GARBAGE_CYCLES,
                                IM2COL_MEM_CYCLES,
                                IM2COL_ACTIVE_CYCLES,
                                IM2COL_TRANSPOSER_WAIT_CYCLE,
                                LOOP_MATMUL_ACTIVE_CYCLES,
                                TRANSPOSE_PRELOAD_UNROLLER_ACTIVE_CYCLES,
                                RDMA_TOTAL_LATENCY,
                                WDMA_TOTAL_LATENCY,
                                RESERVATION_STATION_LD_COUNT,
                                RESERVATION_STATION_ST_COUNT,
                                RESERVATION_STATION_EX_COUNT};
  for (size_t base = 0; base < sizeof none / sizeof none[0]; base += 8) {
    for (size_t i = 0; i < 8 && base + i < sizeof none / sizeof none[0]; ++i)
      counter_configure(i, none[base + i]);
    work();
    for (size_t i = 0; i < 8 && base + i < sizeof none / sizeof none[0]; ++i)
      if (counter_read(i) != 0) {
        printf("counter code %u reads %u\n", (unsigned)none[base + i], counter_read(i));
        expect(0, "a name without an equivalent reads 0");
      }
  }
  // The names that exist in both but are not exercised above still configure and read.
  static const size_t other[] = {MAIN_LD_CYCLES,
                                 MAIN_ST_CYCLES,
                                 MAIN_EX_CYCLES,
                                 MAIN_LD_ST_CYCLES,
                                 MAIN_LD_EX_CYCLES,
                                 MAIN_ST_EX_CYCLES,
                                 MAIN_LD_ST_EX_CYCLES,
                                 LOAD_DMA_WAIT_CYCLE,
                                 STORE_DMA_WAIT_CYCLE,
                                 STORE_POOLING_CYCLE,
                                 SCRATCHPAD_A_WAIT_CYCLE,
                                 RESERVATION_STATION_FULL_CYCLES,
                                 DISABLE};
  for (size_t i = 0; i < sizeof other / sizeof other[0]; ++i) {
    counter_configure(i % 8, other[i]);
    (void)counter_read(i % 8);
  }
  expect(read_cycles() > start, "read_cycles");
  printf("gemmini_counters: %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
