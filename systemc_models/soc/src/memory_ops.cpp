#include "memory_ops.h"

#include "soc_core/format.h"

namespace by::soc {
namespace {

MemoryRange resolve(const ElfImage& program, const Region& dram, const std::string& symbol,
                    uint64_t address, uint64_t size, const std::string& what) {
  MemoryRange r{address, size};
  if (!symbol.empty()) {
    const auto it = program.symbols.find(symbol);
    if (it == program.symbols.end())
      throw SimSetupError(what + ": " + program.path + " has no symbol '" + symbol + "'");
    r.address = it->second.address;
    if (r.size == 0)
      r.size = it->second.size;
    else if (r.size > it->second.size)
      throw SimSetupError(what + ": " + std::to_string(r.size) + " bytes do not fit '" + symbol +
                          "' (" + std::to_string(it->second.size) + " bytes)");
  }
  if (r.size == 0 || r.address < dram.base || r.size > dram.size ||
      r.address - dram.base > dram.size - r.size)
    throw SimSetupError(what + ": [" + hex(r.address) + ", " + hex(r.address + r.size) +
                        ") is not inside DRAM [" + hex(dram.base) + ", " + hex(dram.end()) + ")");
  return r;
}

} // namespace

std::vector<MemoryRange> resolveLoads(const SimOptions& options, const ElfImage& program,
                                      const Region& dram) {
  std::vector<MemoryRange> ranges;
  for (const MemoryLoad& l : options.loads)
    ranges.push_back(resolve(program, dram, l.symbol, l.address, l.bytes.size(),
                             "load of " + (l.source.empty() ? "data" : l.source)));
  return ranges;
}

std::vector<MemoryRange> resolveDumps(const SimOptions& options, const ElfImage& program,
                                      const Region& dram) {
  std::vector<MemoryRange> ranges;
  for (const MemoryDump& d : options.dumps)
    ranges.push_back(resolve(program, dram, d.symbol, d.address, d.size,
                             "dump of " + (d.symbol.empty() ? hex(d.address) : d.symbol)));
  return ranges;
}

} // namespace by::soc
