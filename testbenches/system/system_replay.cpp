// Replays a saved command program (the text the fuzzer writes for a failing seed) on the RTL
// accelerator against the functional model, and finds the shortest failing prefix:
//
//   system_replay_<config> PROGRAM.prog [--seed N | --image FILE.img] [--shrink] [--calm]
//                          [--rocc] [--trace FILE.vcd]
//
// --seed N uses the fuzzer's set-up for seed N (memory timing, input data, register path),
// so a fuzzer failure replays exactly; --image FILE uses the DRAM image and harness options a
// directed test saved with its failing program;
// --shrink bisects the program to the shortest prefix that still fails and prints its last
// commands; --calm runs the AXI memory without random latency or back-pressure; --trace writes
// a VCD waveform of the (shortest failing, with --shrink) run. Build it with
// `cmake --build build --target system_replay_tiny`.
#include "fuzzer/program_generator.h"
#include "rtl_config.h"
#include "system_run.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace by;

namespace {

struct Replay {
  config::Config config;
  uint64_t seed = 0; // the fuzzer's set-up for this seed
  bool calm = false;
  bool roccOnly = false;
  std::string imagePath; // a directed test's saved image (instead of the fuzzer's set-up)
};

test::RunOutcome runPrefix(const Replay& r, const funcmodel::Program& program, size_t n,
                           const std::string& trace = "") {
  test::FuzzSetup f = test::fuzzSetup(r.config, r.seed);
  std::string error;
  if (!r.imagePath.empty() && !test::loadImage(r.imagePath, f.image, f.options, error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(2);
  }
  f.options.system.stress = !r.calm;
  if (r.roccOnly)
    f.options.system.mmioPercent = 0;
  f.options.system.watchdogCycles = 20000;
  f.options.system.tracePath = trace;
  funcmodel::Program prefix(program.begin(), program.begin() + static_cast<long>(n));
  return test::runAndCompare(r.config, prefix, f.image, f.options);
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s PROGRAM.prog [--seed N | --image F.img] [--shrink] [--calm] [--rocc] "
                 "[--trace F.vcd]\n",
                 argv[0]);
    return 2;
  }
  bool shrink = false;
  std::string trace;
  Replay replay;
  replay.config = test::builtConfig();
  for (int i = 2; i < argc; ++i) {
    shrink |= std::strcmp(argv[i], "--shrink") == 0;
    replay.calm |= std::strcmp(argv[i], "--calm") == 0;
    replay.roccOnly |= std::strcmp(argv[i], "--rocc") == 0;
    if (std::strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
      trace = argv[++i];
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      replay.seed = std::stoull(argv[++i]);
    if (std::strcmp(argv[i], "--image") == 0 && i + 1 < argc)
      replay.imagePath = argv[++i];
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const funcmodel::Program program = funcmodel::parseProgram(text.str());
  test::RunOutcome r = runPrefix(replay, program, program.size(), shrink ? "" : trace);
  std::printf("%zu commands: %s\n%s", program.size(), r.ok ? "match" : "MISMATCH",
              r.failure.c_str());
  if (r.ok || !shrink)
    return r.ok ? 0 : 1;
  size_t good = 0, bad = program.size(); // prefix `good` passes, `bad` fails
  while (bad - good > 1) {
    const size_t mid = (good + bad) / 2;
    (runPrefix(replay, program, mid).ok ? good : bad) = mid;
  }
  // Then drop chunks of commands (halving the chunk size) while the rest still fails. CONFIG
  // commands stay: without them strides change and MVOUT rows could overlap, which would
  // make the program's result depend on DMA order.
  funcmodel::Program failing(program.begin(), program.begin() + static_cast<long>(bad));
  for (size_t chunk = failing.size() / 2; chunk >= 1; chunk /= 2) {
    for (size_t at = 0; at + chunk <= failing.size();) {
      funcmodel::Program trial(failing.begin(), failing.begin() + static_cast<long>(at));
      for (size_t i = at; i < at + chunk; ++i)
        if (failing[i].funct == hw::isa::kConfig)
          trial.push_back(failing[i]);
      trial.insert(trial.end(), failing.begin() + static_cast<long>(at + chunk), failing.end());
      if (trial.size() == failing.size()) {
        at += chunk;
        continue;
      }
      if (!runPrefix(replay, trial, trial.size()).ok)
        failing = trial;
      else
        at += chunk;
    }
  }
  r = runPrefix(replay, failing, failing.size(), trace);
  std::printf("\nshortest failing prefix: %zu commands; a failing subset of %zu:\n%s\n", bad,
              failing.size(), r.failure.c_str());
  std::fputs(funcmodel::formatProgram(failing).c_str(), stdout);
  return 1;
}
