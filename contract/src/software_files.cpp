#include "contract/software_files.h"

#include "brickyard_version.h"
#include "contract/headers.h"
#include "hwspec/isa.h"
#include "soc_core/layout.h"
#include "soc_core/memory_map.h"

namespace by::contract {

std::string generatorName() {
  return std::string("brickyard ") + BRICKYARD_VERSION;
}

const std::vector<SoftwareFile>& softwareFileTable() {
  static const std::vector<SoftwareFile> table = {
      {"brickyard_params", "include/brickyard_params.h", brickyardParamsHeader},
      {"gemmini_params", "include/gemmini_params.h", gemminiParamsHeader},
      {"brickyard_isa", "include/brickyard_isa.h",
       [](const config::Config&, const std::string& generator) {
         return hw::isa::cHeader(generator);
       }},
      {"brickyard_soc", "include/brickyard_soc.h",
       [](const config::Config& c, const std::string&) {
         return soc::socHeader(soc::MemoryMap(c.soc), c.name);
       }},
      {"linker_fragment", "sw/brickyard_soc.ld",
       [](const config::Config& c, const std::string&) {
         return soc::linkerScriptFragment(soc::MemoryMap(c.soc), c.name);
       }},
  };
  return table;
}

std::vector<OutputFile> softwareFiles(const config::Config& config, const std::string& generator) {
  std::vector<OutputFile> files;
  for (const SoftwareFile& f : softwareFileTable())
    files.push_back({f.path, f.render(config, generator)});
  return files;
}

} // namespace by::contract
