// Build-time helper: writes brickyard_soc.h and brickyard_soc.ld for a config, for building
// bare-metal programs before `brickyard gen` emits these files itself.
//   usage: by_soc_layout CONFIG.yaml OUTDIR
#include "config/loader.h"
#include "soc_core/layout.h"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s CONFIG.yaml OUTDIR\n", argv[0]);
    return 2;
  }
  try {
    const by::config::Config config = by::config::loadConfigFile(argv[1]);
    by::soc::writeLayoutFiles(by::soc::MemoryMap(config.soc), config.name, argv[2]);
  } catch (const by::config::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "by_soc_layout: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
