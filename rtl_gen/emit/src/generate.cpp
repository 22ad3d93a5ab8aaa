#include "emit/generate.h"

#include "brickyard_version.h"
#include "config/schema.h"
#include "emit/headers.h"
#include "emit/manifest.h"
#include "hw/design.h"
#include "hw/isa.h"
#include "soc/layout.h"
#include "support/files.h"
#include "vlog/printer.h"

namespace by::emit {

std::string generatorName() {
  return std::string("brickyard ") + BRICKYARD_VERSION;
}

std::vector<OutputFile> renderOutputs(const config::Config& config, GenerateResult* result) {
  const std::string generator = generatorName();
  const hw::GeneratedDesign gen = hw::buildDesign(config);
  const vlog::FileHeader header{generator, config.name, config::configHash(config)};
  if (result) {
    result->top = gen.design.top;
    result->configHash = header.configHash;
  }
  std::vector<OutputFile> files;
  std::string filelist;
  for (const vlog::Module* m : gen.design.dependencyOrder()) {
    files.push_back({"rtl/" + m->name() + ".sv", vlog::printModule(*m, header)});
    filelist += m->name() + ".sv\n";
  }
  files.push_back({"rtl/filelist.f", filelist});
  files.push_back({"include/brickyard_params.h", brickyardParamsHeader(config, generator)});
  files.push_back({"include/gemmini_params.h", gemminiParamsHeader(config, generator)});
  files.push_back({"include/brickyard_isa.h", hw::isa::cHeader(generator)});
  const soc::MemoryMap memoryMap(config.soc);
  files.push_back({"include/brickyard_soc.h", soc::socHeader(memoryMap, config.name)});
  files.push_back({"sw/brickyard_soc.ld", soc::linkerScriptFragment(memoryMap, config.name)});
  files.push_back({"manifest.json", buildManifest(config, gen, generator).dump(2) + "\n"});
  return files;
}

GenerateResult generateOutputs(const config::Config& config, const std::filesystem::path& outDir) {
  GenerateResult result;
  const std::vector<OutputFile> files = renderOutputs(config, &result);
  support::StagedDirectory out(outDir);
  for (const OutputFile& f : files) {
    out.write(f.path, f.text);
    result.files.push_back(f.path);
  }
  out.commit();
  return result;
}

} // namespace by::emit
