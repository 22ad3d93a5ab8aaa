#include "emit/generate.h"

#include "config/schema.h"
#include "contract/manifest.h"
#include "hw/design.h"
#include "support/files.h"
#include "vlog/printer.h"

namespace by::emit {

std::vector<OutputFile> renderOutputs(const config::Config& config, GenerateResult* result) {
  const std::string generator = contract::generatorName();
  const hw::GeneratedDesign gen = hw::buildDesign(config);
  const vlog::FileHeader header{generator, config.name, config::configHash(config)};
  if (result) {
    result->top = gen.design.top;
    result->configHash = header.configHash;
  }
  std::vector<OutputFile> files;
  contract::RtlSummary rtl{gen.design.top, {}, "rtl/filelist.f"};
  std::string filelist;
  for (const vlog::Module* m : gen.design.dependencyOrder()) {
    const std::string file = "rtl/" + m->name() + ".sv";
    files.push_back({file, vlog::printModule(*m, header)});
    rtl.modules.push_back({m->name(), file, m->instantiatedModules()});
    filelist += m->name() + ".sv\n";
  }
  files.push_back({rtl.filelist, filelist});
  for (OutputFile& f : contract::softwareFiles(config, generator))
    files.push_back(std::move(f));
  files.push_back(
      {"manifest.json", contract::buildManifest(config, rtl, generator).dump(2) + "\n"});
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
