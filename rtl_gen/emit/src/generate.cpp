#include "emit/generate.h"

#include "brickyard_version.h"
#include "config/schema.h"
#include "emit/headers.h"
#include "emit/manifest.h"
#include "emit/output_dir.h"
#include "hw/design.h"
#include "hw/isa.h"
#include "soc/layout.h"
#include "vlog/printer.h"

namespace by::emit {

std::string generatorName() {
  return std::string("brickyard ") + BRICKYARD_VERSION;
}

GenerateResult generateOutputs(const config::Config& config, const std::filesystem::path& outDir) {
  const std::string generator = generatorName();
  const hw::GeneratedDesign gen = hw::buildDesign(config);
  const vlog::FileHeader header{generator, config.name, config::configHash(config)};

  GenerateResult result;
  result.top = gen.design.top;
  result.configHash = header.configHash;
  StagedDirectory out(outDir);
  auto write = [&](const std::string& rel, const std::string& text) {
    out.write(rel, text);
    result.files.push_back(rel);
  };
  std::string filelist;
  for (const vlog::Module* m : gen.design.dependencyOrder()) {
    write("rtl/" + m->name() + ".sv", vlog::printModule(*m, header));
    filelist += m->name() + ".sv\n";
  }
  write("rtl/filelist.f", filelist);
  write("include/brickyard_params.h", brickyardParamsHeader(config, generator));
  write("include/gemmini_params.h", gemminiParamsHeader(config, generator));
  write("include/brickyard_isa.h", hw::isa::cHeader(generator));
  const soc::MemoryMap memoryMap(config.soc);
  write("include/brickyard_soc.h", soc::socHeader(memoryMap, config.name));
  write("sw/brickyard_soc.ld", soc::linkerScriptFragment(memoryMap, config.name));
  write("manifest.json", buildManifest(config, gen, generator).dump(2) + "\n");
  out.commit();
  return result;
}

} // namespace by::emit
