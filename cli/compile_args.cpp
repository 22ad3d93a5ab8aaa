#include "compile_args.h"

#include "config/loader.h"
#include "config/names.h"

#include <cstdio>

namespace by::cli {
void CompileArgs::add(ArgParser& p) {
  p.positional("MODEL.onnx", "the ONNX model (float or QDQ / QLinear pre-quantized)", &model);
  p.option("--config", "CONFIG",
           "accelerator + SoC config: a YAML file or the name of a shipped config "
           "(tiny, default, td8, ...) (required)",
           &configPath);
  p.choice("--hal", "rocc|mmio",
           "how the program sends commands: RoCC instructions (default) "
           "or the AXI4-Lite registers",
           &hal, {"rocc", "mmio"});
  p.number("--batch", "N", "set the input's first dimension (needed when it is symbolic)", &batch,
           1, 1 << 16);
  p.multiOption("--calib", "FILE.npy",
                "calibration samples (float .npy of the input shape, "
                "or several stacked along the batch axis); repeatable",
                &calibFiles);
  p.number("--calib-random", "N", "calibrate on N random normal(0,1) samples (default 4)",
           &calibRandom, 1, 4096);
  p.choice("--calib-method", "minmax|percentile",
           "activation range: largest |x| (default) or "
           "a percentile of |x|",
           &calibMethod, {"minmax", "percentile"});
  p.real("--percentile", "P", "percentile of |x| for --calib-method percentile (default 99.99)",
         &percentile, 50, 100, "a number in (50, 100]");
  p.number("--seed", "N", "seed of the random calibration samples (default 1)", &seed, 0,
           ~uint64_t(0) >> 1);
  p.flag("--no-boveda-weights", "on Boveda configs keep the weights uncompressed", &noBoveda);
  p.flag("--no-boveda-activations",
         "on Boveda configs keep the activations between layers uncompressed", &noBovedaActs);
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
  o.config = config::loadConfigFile(config::resolveConfigArg(configPath));
  o.hal = hal == "rocc" ? compiler::Hal::Rocc : compiler::Hal::Mmio;
  if (batch)
    o.batch = *batch;
  for (const std::string& f : calibFiles)
    o.calibFiles.push_back(f);
  if (calibRandom) {
    if (!calibFiles.empty())
      throw UsageError("--calib-random and --calib exclude each other");
    o.calibRandom = *calibRandom;
  }
  if (calibMethod == "percentile")
    o.calib.method = compiler::CalibOptions::Method::Percentile;
  if (percentile)
    o.calib.percentile = *percentile;
  if (seed)
    o.seed = *seed;
  o.plan.bovedaWeights = !noBoveda;
  o.plan.bovedaActivations = !noBovedaActs;
  o.plan.tensordash = !noTensordash;
  o.cacheDir = cacheDir;
  if (!quiet)
    o.progress = [](const std::string& line) { std::fprintf(stderr, "  %s\n", line.c_str()); };
  return o;
}

} // namespace by::cli
