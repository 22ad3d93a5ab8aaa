#include "soc_core/layout.h"

#include "soc_core/format.h"
#include "soc_core/rocc.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace by::soc {
namespace {

// Sizes as people write them (64 KiB, 256 MiB).
std::string humanSize(uint64_t bytes) {
  if (bytes % (1ull << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1ull << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

void writeIfChanged(const std::filesystem::path& path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream old;
      old << in.rdbuf();
      if (old.str() == text)
        return;
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out)
    throw std::runtime_error("cannot write " + path.string());
}

} // namespace

std::string socHeader(const MemoryMap& map, const std::string& configName) {
  std::ostringstream os;
  os << "/* brickyard_soc.h: the Brickyard SoC memory map for config '" << configName << "'.\n"
     << " * Generated from the memory-map table (systemc_models/soc) -- do not edit. */\n"
     << "#ifndef BRICKYARD_SOC_H\n#define BRICKYARD_SOC_H\n\n"
     << "#define BY_SOC_CLOCK_MHZ " << map.clockMHz() << "u\n";
  for (const Region& r : map.regions()) {
    os << "\n/* " << r.name << ": " << r.doc << " */\n";
    os << "#define BY_SOC_" << r.macro << "_BASE " << hex(r.base, 8) << "ull\n";
    os << "#define BY_SOC_" << r.macro << "_SIZE " << hex(r.size, 8) << "ull\n";
    for (const RegisterDesc& reg : r.registers) {
      os << "#define BY_SOC_" << r.macro << "_" << reg.name << " " << hex(reg.offset, 2) << "u /* "
         << reg.access << ": " << reg.doc << " */\n";
      for (const FieldDesc& f : reg.fields)
        os << "#define BY_SOC_" << r.macro << "_" << reg.name << "_" << f.name << " "
           << hex(f.mask, 2) << "u /* " << f.doc << " */\n";
    }
  }
  os << "\n/* RoCC custom instructions: opcode custom-3, funct3 = {xd, xs1, xs2}. */\n"
     << "#define BY_SOC_ROCC_OPCODE " << hex(kRoccOpcode, 2) << "u\n"
     << "#define BY_SOC_ROCC_FUNCT3_XD " << hex(kRoccFunct3Xd, 1) << "u\n"
     << "#define BY_SOC_ROCC_FUNCT3_XS1 " << hex(kRoccFunct3Xs1, 1) << "u\n"
     << "#define BY_SOC_ROCC_FUNCT3_XS2 " << hex(kRoccFunct3Xs2, 1) << "u\n"
     << "\n#endif /* BRICKYARD_SOC_H */\n";
  return os.str();
}

std::string linkerScriptFragment(const MemoryMap& map, const std::string& configName) {
  const Region& dram = map.region(RegionId::Dram);
  std::ostringstream os;
  os << "/* brickyard_soc.ld: SoC memory for config '" << configName << "' ("
     << humanSize(dram.size) << " DRAM).\n"
     << " * Generated from the memory-map table (systemc_models/soc) -- do not edit.\n"
     << " * INCLUDEd by driver/runtime/brickyard.ld. */\n"
     << "MEMORY\n{\n  " << dram.name << " (rwx) : ORIGIN = " << hex(dram.base, 8)
     << ", LENGTH = " << hex(dram.size, 8) << "\n}\n";
  return os.str();
}

std::string memoryMapMarkdown(const MemoryMap& map) {
  std::ostringstream os;
  os << "| Region | Base | Size | Model | Contents |\n|---|---|---|---|---|\n";
  for (const Region& r : map.regions()) {
    const std::string size = r.id == RegionId::Dram ? "`soc.dram.size_mib`" : humanSize(r.size);
    os << "| `" << r.name << "` | `" << hex(r.base, 8) << "` | " << size << " | " << r.owner
       << " | " << r.doc << " |\n";
  }
  os << "\n| Register | Address | Access | Description |\n|---|---|---|---|\n";
  for (const Region& r : map.regions())
    for (const RegisterDesc& reg : r.registers) {
      os << "| `" << r.macro << "_" << reg.name << "` | `" << hex(r.base + reg.offset, 8) << "` | "
         << reg.access << " | " << reg.doc;
      for (const FieldDesc& f : reg.fields)
        os << "; bit mask `" << hex(f.mask, 1) << "` " << f.name << ": " << f.doc;
      os << " |\n";
    }
  return os.str();
}

void writeLayoutFiles(const MemoryMap& map, const std::string& configName, const std::string& dir) {
  std::filesystem::create_directories(dir);
  writeIfChanged(std::filesystem::path(dir) / "brickyard_soc.h", socHeader(map, configName));
  writeIfChanged(std::filesystem::path(dir) / "brickyard_soc.ld",
                 linkerScriptFragment(map, configName));
}

} // namespace by::soc
