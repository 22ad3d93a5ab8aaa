/* Brickyard bare-metal runtime: what a program on the SoC needs besides the C library.
 * Console output goes through picolibc's stdio (printf, puts, putchar); exit(code) and
 * returning from main end the simulation with that code. Addresses come from the generated
 * brickyard_soc.h (the SoC memory-map table, docs/soc.md). */
#ifndef BRICKYARD_RUNTIME_H
#define BRICKYARD_RUNTIME_H

#include "brickyard_soc.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 32-bit device register access (every SoC device register is an aligned 32-bit word). */
static inline uint32_t by_mmio_read32(uint64_t address) {
  return *(volatile uint32_t*)(uintptr_t)address;
}
static inline void by_mmio_write32(uint64_t address, uint32_t value) {
  *(volatile uint32_t*)(uintptr_t)address = value;
}

/* Simulated clock cycles since reset. Reading the low word latches the high word, so the
 * pair is one consistent 64-bit value. */
static inline uint64_t by_read_cycles(void) {
  const uint32_t lo = by_mmio_read32(BY_SOC_TIMER_BASE + BY_SOC_TIMER_CYCLES_LO);
  const uint32_t hi = by_mmio_read32(BY_SOC_TIMER_BASE + BY_SOC_TIMER_CYCLES_HI);
  return ((uint64_t)hi << 32) | lo;
}

/* Writes one byte to the console (what stdout uses). */
void by_console_putc(char c);

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_RUNTIME_H */
