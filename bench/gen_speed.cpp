// Generator speed: wall time of a complete `brickyard gen` (load, validate, build the IR,
// print, write atomically) per config, best of N in-process runs.
#include "config/loader.h"
#include "emit/generate.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  const int runs = 20;
  const std::string out = (std::filesystem::temp_directory_path() / "by_bench_gen").string();
  std::printf("| config | best of %d (ms) | median-ish mean (ms) |\n|---|---|---|\n", runs);
  for (int i = 1; i < argc; ++i) {
    double best = 1e30, total = 0;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto config = by::config::loadConfigFile(argv[i]);
      by::emit::generateOutputs(config, out);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, ms);
      total += ms;
    }
    std::printf("| %s | %.2f | %.2f |\n", std::filesystem::path(argv[i]).stem().c_str(), best,
                total / runs);
  }
  std::filesystem::remove_all(out);
  return 0;
}
