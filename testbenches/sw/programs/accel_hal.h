/* The accelerator's two command paths for the test programs, written against its ISA
 * directly (brickyard_isa.h): RoCC custom-3 instructions with `fence` (default), or with
 * -DUSE_MMIO the CMD_* registers, STATUS polling and RESP_* (docs/isa.md, docs/soc.md).
 *   CMD(funct, rs1, rs2)   issue a command (funct a constant)
 *   counter_op(rs1)        COUNTER_OP with a response
 *   wait_idle()            until every command has completed
 *   perf_counter(LO)       a 64-bit performance counter register */
#ifndef BRICKYARD_TEST_ACCEL_HAL_H
#define BRICKYARD_TEST_ACCEL_HAL_H

#include "brickyard/runtime.h"
#include "brickyard_isa.h"

#include <stdint.h>

/* From docs/isa.md: CONFIG_EX dataflow 1 = weight-stationary; STATUS bit 0 = busy, bit 3 =
 * response valid; IRQ_ENABLE / IRQ_STATUS bit 0 = became idle; COUNTER_OP external event 4 =
 * RDMA_BYTES_REC. */
#define DATAFLOW_WS 1u
#define STATUS_BUSY 0x1u
#define STATUS_RESPONSE_VALID 0x8u
#define IRQ_IDLE 0x1u
#define EVENT_RDMA_BYTES 4u

#define FIELD(cmd, rs, field, v)                                                                   \
  (((uint64_t)(v)&BY_##cmd##_##rs##_##field##_MASK) << BY_##cmd##_##rs##_##field##_SHIFT)
#define ACC_ADDR (1u << BY_LOCAL_ACC_BIT)
#define ACCUMULATE (1u << BY_LOCAL_ACCUMULATE_BIT)
#define FULL (1u << BY_LOCAL_FULL_BIT)

/* --- the command path ----------------------------------------------------------------- */

#define REG(offset) (BY_SOC_ACCEL_CTRL_BASE + (offset))

#ifdef USE_MMIO
#define PATH "mmio"
static inline void push(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  by_mmio_write32(REG(BY_REG_CMD_FUNCT), funct);
  by_mmio_write32(REG(BY_REG_CMD_RS1_LO), (uint32_t)rs1);
  by_mmio_write32(REG(BY_REG_CMD_RS1_HI), (uint32_t)(rs1 >> 32));
  by_mmio_write32(REG(BY_REG_CMD_RS2_LO), (uint32_t)rs2);
  by_mmio_write32(REG(BY_REG_CMD_RS2_HI), (uint32_t)(rs2 >> 32));
  by_mmio_write32(REG(BY_REG_CMD_PUSH), 1); /* waits while the command queue is full */
}
#define CMD(funct, rs1, rs2) push((funct), (rs1), (rs2))
static inline uint64_t counter_op(uint64_t rs1) {
  push(BY_FUNCT_COUNTER_OP, rs1, 0);
  while (!(by_mmio_read32(REG(BY_REG_STATUS)) & STATUS_RESPONSE_VALID)) {
  }
  const uint32_t lo = by_mmio_read32(REG(BY_REG_RESP_LO));
  return lo | (uint64_t)by_mmio_read32(REG(BY_REG_RESP_HI)) << 32;
}
static inline void wait_idle(void) {
  while (by_mmio_read32(REG(BY_REG_STATUS)) & STATUS_BUSY) {
  }
}
/* A 64-bit performance counter: one 64-bit load, which reaches the accelerator as two 32-bit
 * reads, LO (latching HI) then HI. */
static inline uint64_t perf_counter(uint32_t lo_offset) {
  return *(volatile uint64_t*)(uintptr_t)REG(lo_offset);
}
#else
#define PATH "rocc"
#define CMD(funct, rs1, rs2)                                                                       \
  __asm__ volatile(".insn r CUSTOM_3, 3, %2, x0, %0, %1" ::"r"((uint64_t)(rs1)),                   \
                   "r"((uint64_t)(rs2)), "i"(funct)                                                \
                   : "memory")
static inline uint64_t counter_op(uint64_t rs1) {
  uint64_t rd;
  __asm__ volatile(".insn r CUSTOM_3, 7, %3, %0, %1, %2"
                   : "=r"(rd)
                   : "r"(rs1), "r"((uint64_t)0), "i"(BY_FUNCT_COUNTER_OP)
                   : "memory");
  return rd;
}
static inline void wait_idle(void) {
  __asm__ volatile("fence" ::: "memory"); /* waits for the accelerator, as on Rocket */
}
static inline uint64_t perf_counter(uint32_t lo_offset) {
  const uint32_t lo = by_mmio_read32(REG(lo_offset));
  return lo | (uint64_t)by_mmio_read32(REG(lo_offset + 4)) << 32;
}
#endif

#endif /* BRICKYARD_TEST_ACCEL_HAL_H */
