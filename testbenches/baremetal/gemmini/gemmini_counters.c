// Gemmini-style program: the COUNTER_OP counters through gemmini.h's counter helpers
// (reset, configure external byte counters, read, snapshot) and read_cycles().
#include "include/gemmini_testutils.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static elem_t In[DIM][DIM] row_align(1), Out[DIM][DIM] row_align(1);

int main() {
  const uint64_t start = read_cycles();
  gemmini_flush(0);
  counter_reset();
  counter_configure_external(0, BY_EVENT_RDMA_BYTES_REC);
  counter_configure_external(1, BY_EVENT_WDMA_BYTES_SENT);
  gemmini_config_ld(DIM);
  gemmini_config_st(DIM);
  gemmini_mvin(In, 0);
  gemmini_mvout(Out, 0);
  gemmini_fence();
  const uint32_t bytes = DIM * DIM * sizeof(elem_t);
  int ok = counter_read(0) == bytes && counter_read(1) == bytes;
  counter_snapshot_take();
  gemmini_mvin(In, 0);
  gemmini_fence();
  ok &= counter_read(0) == bytes;
  counter_snapshot_reset();
  ok &= counter_read(0) == 2 * bytes;
  uint64_t raw = 0;
  gemmini_counter_access(raw, BY_FIELD(BY_COUNTER_OP_RS1_INDEX, 1));
  ok &= raw == bytes;
  ok &= read_cycles() > start;
  printf("gemmini_counters: %s (read %u, written %u)\n", ok ? "PASS" : "FAIL", counter_read(0),
         counter_read(1));
  return ok ? 0 : 1;
}
