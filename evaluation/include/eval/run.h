// `brickyard run` (docs/compiler.md): one model on one config, the first link of the chain
// compile -> run -> eval -> sweep. Compiles the model (the program cached, compiler::
// cachedProgram), runs it on the SoC with the config's RTL co-simulation (the simulator cached,
// rtlmodel/sim_cache.h) or the functional model, checks the output bit for bit against the
// int8 reference and against the float model, prints the per-layer table and writes the run's
// record (compiler::RunRecord), which eval reads back.
#pragma once

#include "compiler/compile.h"

#include <cstdint>
#include <string>

namespace by::eval {

struct RunRequest {
  compiler::CompileOptions compile;
  std::string input;         // X.npy (or raw float32)
  std::string model = "rtl"; // rtl | func
  std::string outPath;       // --out Y.npy, or empty
  std::string reportPath;    // --report FILE.json, or empty
  uint64_t maxCycles = 0;    // 0: no cap
  bool quiet = false;        // no progress lines, the program's console to /dev/null
  // Agreement with the float model: below minSqnrDb (or an output of zeros only) the run warns
  // on stderr; with strict it also fails (a bit-exact int8 run can still be a useless one, e.g.
  // when activations vanish below their int8 step).
  double minSqnrDb = 10.0;
  bool strict = false;
};

/// Runs the model; true when its output is bit-exact with the int8 reference (and, with
/// `strict`, agrees with the float model: RunRequest::minSqnrDb). A failed run (the simulator
/// cannot be built, the program fails or hits the cycle cap) prints why and returns false. Rejected
/// input throws (compiler::CompileError, config::ConfigError).
bool runModel(const RunRequest& request);

} // namespace by::eval
