// brickyard eval: the options of eval::evaluate (evaluation/, docs/evaluation.md).
#include "command.h"
#include "eval/evaluate.h"

#include <algorithm>
#include <thread>

namespace by::cli {
namespace {

const char* const kEvalDescription =
    "Compiles and runs the model on every config (brickyard run: the RTL co-simulation by\n"
    "default), checks each output bit for bit against the int8 reference, synthesizes each\n"
    "config for its area (brickyard synth, cached per module) and writes REPORT_DIR:\n"
    "report.json, layers.csv (one row per layer and config), report.md and PNG plots\n"
    "(matplotlib): cycles split by cause, utilization, DRAM and SRAM traffic, TensorDash and\n"
    "Boveda figures, an energy estimate from a per-event table, area, throughput, perf/W,\n"
    "perf/area, speedup and energy ratio against the first config (docs/evaluation.md).\n"
    "\n"
    "Configs are names of shipped configs (tiny, td8, ...) or YAML paths. Without --input the\n"
    "input is random normal(0,1), seeded by --seed (printed and recorded). Runs are cached by\n"
    "config hash, model hash, input and tool build under --cache-dir/eval,\n"
    "$BRICKYARD_CACHE_DIR/eval or ~/.cache/brickyard/eval: a rerun runs only what changed.\n"
    "REPORT_DIR is replaced as a whole at the end (an existing directory only if it is a\n"
    "previous Brickyard output).\n"
    "\n"
    "exit codes: 0 every config bit-exact, 1 a config failed or mismatched (the others are\n"
    "still reported), 2 input rejected (nothing run, REPORT_DIR untouched)";

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = text.find(',', at);
    const std::string item =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (item.empty())
      throw UsageError("--configs '" + text + "': an empty config name");
    out.push_back(item);
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  return out;
}

struct EvalArgs {
  eval::EvalRequest r;
  std::string configs, outDir;
  std::optional<int> calibRandom;
  std::optional<uint64_t> maxCycles;
  bool noArea = false;

  void add(ArgParser& p) {
    p.positional("MODEL.onnx", "the ONNX model (float or pre-quantized)", &r.model);
    p.option("--configs", "A,B,...", "configs to compare, the first is the baseline (required)",
             &configs);
    p.option("-o", "REPORT_DIR", "where the report goes (required)", &outDir);
    p.option("--input", "X.npy", "the input tensor (default: random, see --seed)", &r.input);
    p.number("--seed", "N", "seed of the random input (default 1)", &r.seed, 0,
             9'999'999'999'999'999'999ull, "a whole number");
    p.choice("--model", "rtl|func", "accelerator model: RTL co-simulation (default) or functional",
             &r.accelModel, {"rtl", "func"});
    p.number("-j", "N", "runs at a time (default: the number of cores)", &r.jobs, 1, 1 << 20,
             "a positive whole number");
    p.flag("--no-area", "skip synthesis (no area, no perf/area)", &noArea);
    p.choice("--hal", "rocc|mmio", "how the programs send commands (default rocc)", &r.hal,
             {"rocc", "mmio"});
    p.multiOption("--calib", "FILE.npy", "calibration samples (as brickyard run); repeatable",
                  &r.calibFiles);
    p.number("--calib-random", "N", "calibrate on N random samples (as brickyard run)",
             &calibRandom, 1, 4096);
    p.number("--max-cycles", "N", "stop a run after N simulated cycles (it fails); default: no cap",
             &maxCycles, 1, 999'999'999'999'999'999ull, "a positive whole number");
    p.option("--cache-dir", "DIR", "the cache (runs, areas, simulators, programs)", &r.cacheDir);
    p.flag("--quiet", "no progress lines", &r.quiet);
  }

  /// The request, with the options that exclude each other rejected.
  eval::EvalRequest request() {
    if (configs.empty())
      throw UsageError("missing --configs A,B,...");
    if (outDir.empty())
      throw UsageError("missing -o REPORT_DIR");
    if (!r.input.empty() && r.seed)
      throw UsageError("--seed sets the random input; it does not go with --input");
    if (calibRandom && !r.calibFiles.empty())
      throw UsageError("--calib-random and --calib exclude each other");
    r.configs = splitList(configs);
    r.outDir = outDir;
    r.area = !noArea;
    r.calibRandom = calibRandom.value_or(0);
    r.maxCycles = maxCycles.value_or(0);
    return r;
  }
};

} // namespace

int runEval(const std::vector<std::string>& args) {
  EvalArgs a;
  a.r.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  ArgParser p("eval",
              "MODEL.onnx --configs A,B,... -o REPORT_DIR [--input X.npy] [-j N] "
              "[--model rtl|func] [--no-area]",
              kEvalDescription);
  a.add(p);
  if (!p.parse(args))
    return kExitOk;
  return eval::evaluate(a.request()) ? kExitOk : kExitFailure;
}

} // namespace by::cli
