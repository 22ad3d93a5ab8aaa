#include "command.h"
#include "config/loader.h"
#include "emit/generate.h"

#include <chrono>
#include <cstdio>

namespace by::cli {

int runGen(const std::vector<std::string>& args) {
  std::string configPath, outDir;
  bool quiet = false;
  ArgParser p("gen", "CONFIG.yaml -o OUT/",
              "Generates the accelerator for CONFIG.yaml into OUT/: rtl/*.sv, rtl/filelist.f\n"
              "(paths relative to rtl/), include/brickyard_params.h, include/gemmini_params.h\n"
              "and manifest.json. OUT/ is replaced atomically: on any error it is left as it\n"
              "was. An existing OUT/ that is not a Brickyard output is never replaced.");
  p.positional("CONFIG.yaml", "accelerator configuration (see docs/config.md)", &configPath);
  p.option("-o", "OUT/", "output directory (required)", &outDir);
  p.flag("--quiet", "print nothing on success", &quiet);
  if (!p.parse(args))
    return kExitOk;
  if (outDir.empty())
    throw UsageError("missing -o OUT/ (usage: brickyard gen CONFIG.yaml -o OUT/)");

  const auto start = std::chrono::steady_clock::now();
  const config::Config config = config::loadConfigFile(configPath);
  const emit::GenerateResult r = emit::generateOutputs(config, outDir);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!quiet)
    std::printf("brickyard gen: config '%s' (hash %s): wrote %zu files to %s (top %s) in %.1f ms\n",
                config.name.c_str(), r.configHash.c_str(), r.files.size(), outDir.c_str(),
                r.top.c_str(), ms);
  return kExitOk;
}

} // namespace by::cli
