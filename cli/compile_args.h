// The options `brickyard compile` and `brickyard run` share (docs/compiler.md).
#pragma once

#include "command.h"
#include "compiler/compile.h"

#include <string>
#include <vector>

namespace by::cli {

struct CompileArgs {
  std::string model, configPath, hal = "rocc", batch, calibRandom, calibMethod = "minmax",
                                 percentile, seed, cacheDir;
  std::vector<std::string> calibFiles;
  bool noBoveda = false, noTensordash = false, quiet = false;

  /// Registers the options (and the MODEL.onnx positional) on `p`.
  void add(ArgParser& p);
  /// The compiler options; throws UsageError for bad values.
  compiler::CompileOptions options() const;
};

} // namespace by::cli
