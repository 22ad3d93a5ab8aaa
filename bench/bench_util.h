/* What the driver benchmarks share (bench/driver_kernels.c, bench/driver_matmul.c): the same
 * pseudo-random int8 data on every run, result comparison and the cycles report. Host and SoC
 * builds. */
#ifndef BY_BENCH_UTIL_H
#define BY_BENCH_UTIL_H

#include "brickyard/brickyard.h"

#include <stdint.h>
#include <stdio.h>

/* A linear congruential generator: the same operands on the host and the SoC. */
static uint32_t bench_lcg = 12345;
static inline by_elem_t bench_next(void) {
  bench_lcg = bench_lcg * 1664525u + 1013904223u;
  return (by_elem_t)((int)(bench_lcg >> 24) - 128);
}

static inline int bench_same(const by_elem_t* a, const by_elem_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* One line: MACs, the ideal cycles (MACs / peak MACs per cycle) and, on the SoC, the measured
 * cycles and the utilization. */
static inline void bench_report(const char* name, uint64_t macs, uint64_t cycles) {
  const uint64_t ideal = macs / BY_PEAK_MACS_PER_CYCLE;
  printf("%s: %llu MACs, ideal %llu cycles", name, (unsigned long long)macs,
         (unsigned long long)ideal);
#if BY_HAL_TIMED
  printf(", measured %llu cycles, utilization %.1f%%", (unsigned long long)cycles,
         100.0 * (double)ideal / (double)cycles);
#else
  (void)cycles;
#endif
  printf("\n");
}

#endif
