// The options `brickyard compile` and `brickyard run` share (docs/compiler.md).
#pragma once

#include "command.h"
#include "compiler/compile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace by::cli {

struct CompileArgs {
  std::string model, configPath, hal = "rocc", calibMethod = "minmax", cacheDir;
  std::optional<int> batch, calibRandom;
  std::optional<double> percentile;
  std::optional<uint64_t> seed;
  std::vector<std::string> calibFiles;
  bool noBoveda = false, noBovedaActs = false, noTensordash = false, quiet = false;

  /// Registers the options (and the MODEL.onnx positional) on `p`.
  void add(ArgParser& p);
  /// The compiler options; throws UsageError for options that exclude each other.
  compiler::CompileOptions options() const;
};

} // namespace by::cli
