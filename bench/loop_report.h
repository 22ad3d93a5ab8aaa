// The report lines the loop benchmarks without a host print (bench/loop_matmul.cpp,
// bench/loop_conv.cpp): cycles against the ideal, the exclusive cycle causes of
// docs/evaluation.md and the DMA bytes, read from the accelerator's counters.
#ifndef BY_BENCH_LOOP_REPORT_H
#define BY_BENCH_LOOP_REPORT_H

#include "accel_system.h"
#include "hwspec/isa.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace by::bench {

inline void printLoopReport(test::AccelSystem& sys, uint64_t cycles, double macs, int peak) {
  auto ctr = [&](const char* name) { return static_cast<double>(sys.readCounter(name)); };
  const double beat = ctr("EXEC_ACTIVE_CYCLES"), dma = ctr("WAIT_DMA_CYCLES"),
               dep = ctr("WAIT_DEPENDENCY_CYCLES"), c = static_cast<double>(cycles);
  std::printf("  cycles %llu, ideal %.0f, utilization %.1f%%\n",
              static_cast<unsigned long long>(cycles), macs / peak, 100.0 * macs / (c * peak));
  std::printf("  cycles: beat entering the array %.1f%%, waiting for the DMA %.1f%%, for a hazard "
              "%.1f%%, other %.1f%%\n",
              100 * beat / c, 100 * dma / c, 100 * dep / c, 100 * (c - beat - dma - dep) / c);
  std::printf("  DMA read %.0f bytes (%.2f B/cycle), written %.0f; compute beats %.0f; load "
              "controller busy %.1f%%; TensorDash MACs skipped %.0f\n",
              ctr("DMA_READ_BYTES"), ctr("DMA_READ_BYTES") / c, ctr("DMA_WRITE_BYTES"),
              ctr("COMPUTE_BEATS"), 100 * ctr("LOAD_ACTIVE_CYCLES") / c, ctr("MACS_SKIPPED"));
}

/// Whether the accelerator rejected a command of the run (its ERROR register), said on stderr:
/// a rejected loop (tiles that do not fit, say) issues nothing, so its cycles and its C, which
/// the functional model leaves alike, would otherwise look like a result.
inline bool reportRejected(test::AccelSystem& sys) {
  const uint32_t error = sys.readRegister("ERROR");
  const int code = static_cast<int>(error & 0xff), funct = static_cast<int>((error >> 8) & 0x7f);
  if (!code)
    return false;
  std::string name = std::to_string(code);
  for (const hw::isa::ErrorCode& e : hw::isa::errorCodes())
    if (e.code == code)
      name = e.name;
  std::fprintf(stderr, "the accelerator rejected a command: %s (funct %d); no figures\n",
               name.c_str(), funct);
  return true;
}

} // namespace by::bench

#endif
