/* Gemmini's performance-counter event names (its gemmini_counter.h, the events of its
 * CounterFile) for counter_configure() of gemmini.h: ids up to INCREMENTAL_COUNTERS are event
 * counters, the ones above it external value counters (id - INCREMENTAL_COUNTERS with the
 * external bit), as on Gemmini. Brickyard's COUNTER_OP uses Gemmini's ids (docs/isa.md "Counter
 * events"), so each name counts what Brickyard's event of the same id counts; the ids Brickyard
 * has no such event for (no TLB, no im2col unit, no transposer, ...) count nothing and read 0.
 * docs/driver.md ("Gemmini counter events") lists every name with what it reads. */
#ifndef BRICKYARD_GEMMINI_COUNTER_H
#define BRICKYARD_GEMMINI_COUNTER_H

#include "brickyard_isa.h"

#define DISABLE BY_EVENT_DISABLE
#define INCREMENTAL_COUNTERS 44

/* Event counters: Brickyard's event of the same id. */
#define MAIN_LD_CYCLES BY_EVENT_MAIN_LD_CYCLES
#define MAIN_ST_CYCLES BY_EVENT_MAIN_ST_CYCLES
#define MAIN_EX_CYCLES BY_EVENT_MAIN_EX_CYCLES
#define MAIN_LD_ST_CYCLES BY_EVENT_MAIN_LD_ST_CYCLES
#define MAIN_LD_EX_CYCLES BY_EVENT_MAIN_LD_EX_CYCLES
#define MAIN_ST_EX_CYCLES BY_EVENT_MAIN_ST_EX_CYCLES
#define MAIN_LD_ST_EX_CYCLES BY_EVENT_MAIN_LD_ST_EX_CYCLES
#define LOAD_DMA_WAIT_CYCLE BY_EVENT_LOAD_DMA_WAIT_CYCLE
#define LOAD_ACTIVE_CYCLE BY_EVENT_LOAD_ACTIVE_CYCLE
#define STORE_DMA_WAIT_CYCLE BY_EVENT_STORE_DMA_WAIT_CYCLE
#define STORE_ACTIVE_CYCLE BY_EVENT_STORE_ACTIVE_CYCLE
#define STORE_POOLING_CYCLE BY_EVENT_STORE_POOLING_CYCLE
#define RDMA_ACTIVE_CYCLE BY_EVENT_RDMA_ACTIVE_CYCLE
#define WDMA_ACTIVE_CYCLE BY_EVENT_WDMA_ACTIVE_CYCLE
#define EXE_ACTIVE_CYCLE BY_EVENT_EXE_ACTIVE_CYCLE
/* Brickyard counts the execute controller's waits for any SRAM bank (A, B and D operands) in one
 * event; Gemmini splits them by operand. A's name reads that sum, B's and D's read 0. */
#define SCRATCHPAD_A_WAIT_CYCLE BY_EVENT_SCRATCHPAD_WAIT_CYCLE
#define RESERVATION_STATION_FULL_CYCLES BY_EVENT_ROB_FULL_CYCLES
#define RESERVATION_STATION_ACTIVE_CYCLES BY_EVENT_ROB_ACTIVE_CYCLES

/* Event counters with no Brickyard equivalent: Gemmini's ids, which count nothing here. */
#define LOAD_SCRATCHPAD_WAIT_CYCLE 10
#define STORE_SCRATCHPAD_WAIT_CYCLE 14
#define DMA_TLB_MISS_CYCLE 15
#define DMA_TLB_HIT_REQ 16
#define DMA_TLB_TOTAL_REQ 17
#define RDMA_TLB_WAIT_CYCLES 19
#define RDMA_TL_WAIT_CYCLES 20
#define WDMA_TLB_WAIT_CYCLES 22
#define WDMA_TL_WAIT_CYCLES 23
#define EXE_FLUSH_CYCLE 25
#define EXE_CONTROL_Q_BLOCK_CYCLE 26
#define EXE_PRELOAD_HAZ_CYCLE 27
#define EXE_OVERLAP_HAZ_CYCLE 28
#define SCRATCHPAD_B_WAIT_CYCLE 30
#define SCRATCHPAD_D_WAIT_CYCLE 31
#define ACC_A_WAIT_CYCLE 32
#define ACC_B_WAIT_CYCLE 33
#define ACC_D_WAIT_CYCLE 34
#define A_GARBAGE_CYCLES 35
#define B_GARBAGE_CYCLES 36
#define D_GARBAGE_CYCLES 37
#define IM2COL_MEM_CYCLES 38
#define IM2COL_ACTIVE_CYCLES 39
#define IM2COL_TRANSPOSER_WAIT_CYCLE 40
#define LOOP_MATMUL_ACTIVE_CYCLES 43
#define TRANSPOSE_PRELOAD_UNROLLER_ACTIVE_CYCLES 44

/* External value counters. */
#define RESERVATION_STATION_LD_COUNT (INCREMENTAL_COUNTERS + BY_EVENT_ROB_LD_COUNT)
#define RESERVATION_STATION_ST_COUNT (INCREMENTAL_COUNTERS + BY_EVENT_ROB_ST_COUNT)
#define RESERVATION_STATION_EX_COUNT (INCREMENTAL_COUNTERS + BY_EVENT_ROB_EX_COUNT)
#define RDMA_BYTES_REC (INCREMENTAL_COUNTERS + BY_EVENT_RDMA_BYTES_REC)
#define WDMA_BYTES_SENT (INCREMENTAL_COUNTERS + BY_EVENT_WDMA_BYTES_SENT)
/* No equivalent (read 0): Gemmini's ids. */
#define RDMA_TOTAL_LATENCY (INCREMENTAL_COUNTERS + 6)
#define WDMA_TOTAL_LATENCY (INCREMENTAL_COUNTERS + 7)

#endif /* BRICKYARD_GEMMINI_COUNTER_H */
