#include "compile_args.h"

#include "config/loader.h"
#include "config_arg.h"

#include <cstdio>

namespace by::cli {
namespace {

uint64_t number(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi) {
  bool digits = !text.empty() && text.size() <= 19;
  for (char c : text)
    digits &= c >= '0' && c <= '9';
  const uint64_t v = digits ? std::stoull(text) : 0;
  if (!digits || v < lo || v > hi)
    throw UsageError(option + " '" + text + "': expected a whole number in " + std::to_string(lo) +
                     ".." + std::to_string(hi));
  return v;
}

} // namespace

void CompileArgs::add(ArgParser& p) {
  p.positional("MODEL.onnx", "the ONNX model (float or QDQ / QLinear pre-quantized)", &model);
  p.option("--config", "CONFIG",
           "accelerator + SoC config: a YAML file or a config name "
           "(tiny, default, td8, ...) (required)",
           &configPath);
  p.option("--hal", "rocc|mmio",
           "how the program sends commands: RoCC instructions (default) "
           "or the AXI4-Lite registers",
           &hal);
  p.option("--batch", "N", "set the input's first dimension (needed when it is symbolic)", &batch);
  p.multiOption("--calib", "FILE.npy",
                "calibration samples (float .npy of the input shape, "
                "or several stacked along the batch axis); repeatable",
                &calibFiles);
  p.option("--calib-random", "N", "calibrate on N random normal(0,1) samples (default 4)",
           &calibRandom);
  p.option("--calib-method", "minmax|percentile",
           "activation range: largest |x| (default) or "
           "a percentile of |x|",
           &calibMethod);
  p.option("--percentile", "P", "percentile of |x| for --calib-method percentile (default 99.99)",
           &percentile);
  p.option("--seed", "N", "seed of the random calibration samples (default 1)", &seed);
  p.flag("--no-boveda-weights", "on Boveda configs keep the weights uncompressed", &noBoveda);
  p.flag("--no-tensordash", "on TensorDash configs run every layer dense (BY_TD_OFF)",
         &noTensordash);
  p.option("--cache-dir", "DIR", "where driver builds (and run's programs) are cached", &cacheDir);
  p.flag("--quiet", "no progress lines", &quiet);
}

compiler::CompileOptions CompileArgs::options() const {
  compiler::CompileOptions o;
  if (configPath.empty())
    throw UsageError("missing --config CONFIG");
  o.modelPath = model;
  o.config = config::loadConfigFile(resolveConfigArg(configPath));
  if (hal == "rocc")
    o.hal = compiler::Hal::Rocc;
  else if (hal == "mmio")
    o.hal = compiler::Hal::Mmio;
  else
    throw UsageError("--hal " + hal + ": expected rocc or mmio");
  if (!batch.empty())
    o.batch = int(number("--batch", batch, 1, 1 << 16));
  for (const std::string& f : calibFiles)
    o.calibFiles.push_back(f);
  if (!calibRandom.empty()) {
    if (!calibFiles.empty())
      throw UsageError("--calib-random and --calib exclude each other");
    o.calibRandom = int(number("--calib-random", calibRandom, 1, 4096));
  }
  if (calibMethod == "percentile")
    o.calib.method = compiler::CalibOptions::Method::Percentile;
  else if (calibMethod != "minmax")
    throw UsageError("--calib-method " + calibMethod + ": expected minmax or percentile");
  if (!percentile.empty()) {
    char* end = nullptr;
    o.calib.percentile = std::strtod(percentile.c_str(), &end);
    if (*end || !(o.calib.percentile > 50 && o.calib.percentile <= 100))
      throw UsageError("--percentile " + percentile + ": expected a number in (50, 100]");
  }
  if (!seed.empty())
    o.seed = number("--seed", seed, 0, ~uint64_t(0) >> 1);
  o.plan.bovedaWeights = !noBoveda;
  o.plan.tensordash = !noTensordash;
  o.cacheDir = cacheDir;
  if (!quiet)
    o.progress = [](const std::string& line) { std::fprintf(stderr, "  %s\n", line.c_str()); };
  return o;
}

} // namespace by::cli
