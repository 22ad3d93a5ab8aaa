// Files derived from the memory map for bare-metal software: the C header with every
// address, register offset and field, the linker-script fragment with the DRAM region, and
// the Markdown table of docs/soc.md. Deterministic text (no timestamps).
#pragma once

#include "soc_core/memory_map.h"

#include <string>

namespace by::soc {

/// brickyard_soc.h: BY_SOC_<REGION>_BASE/_SIZE, BY_SOC_<REGION>_<REGISTER> offsets,
/// BY_SOC_<REGION>_<REGISTER>_<FIELD> masks, the clock and the RoCC encoding constants.
std::string socHeader(const MemoryMap& map, const std::string& configName);

/// brickyard_soc.ld: `MEMORY { dram ... }` for driver/runtime/brickyard.ld to INCLUDE.
std::string linkerScriptFragment(const MemoryMap& map, const std::string& configName);

/// The memory-map table of docs/soc.md (DRAM size shown as the config key).
std::string memoryMapMarkdown(const MemoryMap& map);

/// Writes brickyard_soc.h and brickyard_soc.ld into `dir` (created if needed); a file whose
/// content is unchanged is not rewritten, so builds that depend on it stay up to date.
void writeLayoutFiles(const MemoryMap& map, const std::string& configName, const std::string& dir);

} // namespace by::soc
