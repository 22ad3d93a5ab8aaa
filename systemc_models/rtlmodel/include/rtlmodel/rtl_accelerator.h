// The Verilated by_accelerator as the SoC's accelerator (soc/accelerator.h), loaded from a
// model library of the simulator cache (sim_cache.h). docs/soc.md describes the model.
#pragma once

#include "soc/platform.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

namespace by::rtlmodel {

struct RtlOptions {
  std::filesystem::path library; // CachedModel::library
  /// FST waveform of the accelerator (needs a library built with tracing); empty: none.
  std::string tracePath;
  uint64_t traceFirstCycle = 0; // the clock cycles dumped, inclusive
  uint64_t traceLastCycle = std::numeric_limits<uint64_t>::max();
  /// Skip the clock while the accelerator is idle and nothing is on its inputs (exact for
  /// everything but the CYCLES register, which then counts clocked cycles only).
  bool clockGating = true;
};

/// Creates the accelerator for SimOptions::accelerator.
soc::AcceleratorFactory rtlAcceleratorFactory(const RtlOptions& options);

} // namespace by::rtlmodel
