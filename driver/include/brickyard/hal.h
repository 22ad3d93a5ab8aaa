/* The HAL seam: how commands reach the accelerator and how its control registers are read.
 * Exactly one is chosen at build time:
 *
 *   BY_HAL_ROCC       commands as RoCC custom-3 instructions (Gemmini's encoding), registers
 *                     through the SoC's accel_ctrl window; fence = the RISC-V `fence`, which
 *                     waits for the accelerator (docs/soc.md).
 *   BY_HAL_MMIO       commands through the AXI4-Lite CMD_* registers (docs/isa.md), registers
 *                     through the accel_ctrl window; fence = poll STATUS.busy.
 *   BY_HAL_HOST       host build: commands and registers go to the functional model through
 *                     a C++ shim (driver/host); fence has nothing to wait for.
 *   BY_HAL_HOST_MMIO  host build whose commands take the CMD_* register path of BY_HAL_MMIO,
 *                     with the registers emulated by the shim: tests that protocol on the host.
 *
 * Every HAL provides: BY_HAL_CMD(funct, rs1, rs2) (funct a constant expression),
 * BY_HAL_CMD_RD(funct, rs1, rs2) (the response), by_hal_fence(), by_hal_reg_read/write(offset),
 * by_hal_cycles() and BY_HAL_TIMED (1 when cycle counts are meaningful). */
#ifndef BRICKYARD_HAL_H
#define BRICKYARD_HAL_H

#include "brickyard_isa.h"

#include <stdint.h>

#if defined(BY_HAL_ROCC) + defined(BY_HAL_MMIO) + defined(BY_HAL_HOST) +                           \
        defined(BY_HAL_HOST_MMIO) !=                                                               \
    1
#error "define exactly one of BY_HAL_ROCC, BY_HAL_MMIO, BY_HAL_HOST, BY_HAL_HOST_MMIO"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Control registers ---------------------------------------------------------------- */
#if defined(BY_HAL_HOST) || defined(BY_HAL_HOST_MMIO)

#define BY_HAL_TIMED 0
/* Implemented by the shim (driver/host/host_hal.cpp) on the functional model. */
uint32_t by_host_reg_read(uint32_t offset);
void by_host_reg_write(uint32_t offset, uint32_t value);
void by_host_cmd(uint32_t funct, uint64_t rs1, uint64_t rs2);
uint64_t by_host_cmd_rd(uint32_t funct, uint64_t rs1, uint64_t rs2);
/* Host wall-clock nanoseconds: the functional model has no cycles. */
uint64_t by_host_time_ns(void);
/* Commands of one funct7 the model has received (benchmarks count them). */
uint64_t by_host_commands(uint32_t funct);

static inline uint32_t by_hal_reg_read(uint32_t offset) {
  return by_host_reg_read(offset);
}
static inline void by_hal_reg_write(uint32_t offset, uint32_t value) {
  by_host_reg_write(offset, value);
}
static inline uint64_t by_hal_cycles(void) {
  return by_host_time_ns();
}

#else /* the SoC */

#include "brickyard/runtime.h"

#define BY_HAL_TIMED 1
static inline uint32_t by_hal_reg_read(uint32_t offset) {
  return by_mmio_read32(BY_SOC_ACCEL_CTRL_BASE + offset);
}
static inline void by_hal_reg_write(uint32_t offset, uint32_t value) {
  by_mmio_write32(BY_SOC_ACCEL_CTRL_BASE + offset, value);
}
/* The SoC's cycle timer (the accelerator's clock). */
static inline uint64_t by_hal_cycles(void) {
  return by_read_cycles();
}

#endif

/* Tests a register bit field: BY_REG_BIT(STATUS, BUSY, value). */
#define BY_REG_FIELD(REG, FIELD, v)                                                                \
  ((((uint32_t)(v)) >> BY_REG_##REG##_##FIELD##_SHIFT) & BY_REG_##REG##_##FIELD##_MASK)

/* ---- Command path --------------------------------------------------------------------- */
#if defined(BY_HAL_ROCC)

/* .insn r opcode, funct3, funct7, rd, rs1, rs2 with funct3 = {xd, xs1, xs2}. */
#define BY_HAL_CMD(funct, rs1, rs2)                                                                \
  do {                                                                                             \
    const uint64_t by_rs1_ = (rs1), by_rs2_ = (rs2);                                               \
    __asm__ volatile(".insn r %0, %1, %2, x0, %3, %4"                                              \
                     :                                                                             \
                     : "i"(BY_SOC_ROCC_OPCODE),                                                    \
                       "i"(BY_SOC_ROCC_FUNCT3_XS1 | BY_SOC_ROCC_FUNCT3_XS2), "i"(funct),           \
                       "r"(by_rs1_), "r"(by_rs2_)                                                  \
                     : "memory");                                                                  \
  } while (0)
#define BY_HAL_CMD_RD(funct, rs1, rs2)                                                             \
  __extension__({                                                                                  \
    const uint64_t by_rs1_ = (rs1), by_rs2_ = (rs2);                                               \
    uint64_t by_rd_;                                                                               \
    __asm__ volatile(                                                                              \
        ".insn r %1, %2, %3, %0, %4, %5"                                                           \
        : "=r"(by_rd_)                                                                             \
        : "i"(BY_SOC_ROCC_OPCODE),                                                                 \
          "i"(BY_SOC_ROCC_FUNCT3_XD | BY_SOC_ROCC_FUNCT3_XS1 | BY_SOC_ROCC_FUNCT3_XS2),            \
          "i"(funct), "r"(by_rs1_), "r"(by_rs2_)                                                   \
        : "memory");                                                                               \
    by_rd_;                                                                                        \
  })
/* Rocket's fence waits until the RoCC accelerator is idle; the SoC does the same. */
static inline void by_hal_fence(void) {
  __asm__ volatile("fence" ::: "memory");
}

#elif defined(BY_HAL_MMIO) || defined(BY_HAL_HOST_MMIO)

/* Writes the command registers and pushes; the push's write response waits while the command
 * queue is full, so no polling is needed before it. */
static inline void by_hal_mmio_push(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  by_hal_reg_write(BY_REG_CMD_FUNCT, funct);
  by_hal_reg_write(BY_REG_CMD_RS1_LO, (uint32_t)rs1);
  by_hal_reg_write(BY_REG_CMD_RS1_HI, (uint32_t)(rs1 >> 32));
  by_hal_reg_write(BY_REG_CMD_RS2_LO, (uint32_t)rs2);
  by_hal_reg_write(BY_REG_CMD_RS2_HI, (uint32_t)(rs2 >> 32));
  by_hal_reg_write(BY_REG_CMD_PUSH, 1u);
}
static inline uint64_t by_hal_mmio_push_rd(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  by_hal_mmio_push(funct, rs1, rs2);
  while (!BY_REG_FIELD(STATUS, RESP_VALID, by_hal_reg_read(BY_REG_STATUS))) {
  }
  const uint32_t lo = by_hal_reg_read(BY_REG_RESP_LO);
  const uint32_t hi = by_hal_reg_read(BY_REG_RESP_HI); /* clears STATUS.response valid */
  return ((uint64_t)hi << 32) | lo;
}
#define BY_HAL_CMD(funct, rs1, rs2) by_hal_mmio_push((funct), (rs1), (rs2))
#define BY_HAL_CMD_RD(funct, rs1, rs2) by_hal_mmio_push_rd((funct), (rs1), (rs2))
static inline void by_hal_fence(void) {
  while (BY_REG_FIELD(STATUS, BUSY, by_hal_reg_read(BY_REG_STATUS))) {
  }
}

#else /* BY_HAL_HOST */

#define BY_HAL_CMD(funct, rs1, rs2) by_host_cmd((funct), (rs1), (rs2))
#define BY_HAL_CMD_RD(funct, rs1, rs2) by_host_cmd_rd((funct), (rs1), (rs2))
/* The functional model executes each command when it is issued. */
static inline void by_hal_fence(void) {}

#endif

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_HAL_H */
