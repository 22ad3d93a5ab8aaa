// The DRAM of the matmul benchmarks on the Verilated accelerator (bench/accel_matmul.cpp,
// bench/loop_matmul.cpp): A (M x K), B (K x N) and C (M x N), int8 and row-major, back to back
// from 0x8000'0000, then a bias row of N int32 (D), and the system options that map exactly them
// (no stress, the given fixed latency; bytes per cycle as the system's default unless set).
#ifndef BY_BENCH_MATMUL_DRAM_H
#define BY_BENCH_MATMUL_DRAM_H

#include "accel_system.h"

#include <cstdint>

namespace by::bench {

struct MatmulDram {
  uint64_t a, b, c, d;         // the matrices' DRAM addresses, the bias row
  test::SystemOptions options; // the memory window over them, 4 KiB aligned
};

inline MatmulDram matmulDram(int M, int N, int K, int latencyCycles) {
  MatmulDram d;
  d.a = 0x80000000ull;
  d.b = d.a + uint64_t(M) * K;
  d.c = d.b + uint64_t(K) * N;
  d.d = d.c + uint64_t(M) * N;
  d.options.memBase = d.a;
  d.options.memSize = (d.d + uint64_t(N) * 4 - d.a + 0xfff) / 0x1000 * 0x1000;
  d.options.stress = false;
  d.options.fixedLatency = latencyCycles;
  return d;
}

} // namespace by::bench

#endif
