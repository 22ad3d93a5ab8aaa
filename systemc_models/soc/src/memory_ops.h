// Loads into and dumps out of the simulated DRAM (SimOptions::loads / dumps), resolved to
// address ranges against the program's symbols and checked against the DRAM region.
#pragma once

#include "soc/elf.h"
#include "soc/platform.h"
#include "soc_core/memory_map.h"

#include <cstdint>
#include <vector>

namespace by::soc {

struct MemoryRange {
  uint64_t address = 0;
  uint64_t size = 0;
};

/// One range per load. Throws SimSetupError (unknown symbol, too many bytes for the symbol,
/// outside DRAM).
std::vector<MemoryRange> resolveLoads(const SimOptions& options, const ElfImage& program,
                                      const Region& dram);
/// One range per dump. Throws SimSetupError.
std::vector<MemoryRange> resolveDumps(const SimOptions& options, const ElfImage& program,
                                      const Region& dram);

} // namespace by::soc
