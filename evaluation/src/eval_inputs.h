// What an evaluation starts from, checked before anything runs: the configs, the model, the
// input tensor (a random one is made and kept in the cache) and what every run is passed.
#pragma once

#include "config/config.h"
#include "eval/evaluate.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace by::eval {

struct EvalInputs {
  std::vector<config::Config> configs;
  std::vector<std::string> configHashes; // config::configHash of each
  std::vector<std::string> hardware;     // hash of each config's generated RTL and headers
  std::vector<std::string> sources;      // each config's YAML file, absolute
  std::string model;                     // absolute
  std::string modelHash;
  int batch = 1;                      // the input's first dimension: inferences per run
  std::vector<int64_t> inputShape;    // ONNX shape of the model's input
  size_t layers = 0;                  // of the compiled graph
  std::string inputPath, inputHash;   // what every run reads
  std::string inputDescription;       // the --input file, or "random normal(0,1), seed N"
  std::optional<uint64_t> seed;       // the random input's
  std::vector<std::string> calibArgs; // passed to `brickyard run` as they are
  std::string maxCycles;              // --max-cycles of every run, or empty
  std::filesystem::path cache;        // the cache folder
  std::filesystem::path self;         // this executable
};

/// Checks the request's configs, model and input (throws config::ConfigError for a config,
/// compiler::CompileError for the model or the input, support::InputError for the rest) and
/// makes the random input when there is none.
EvalInputs prepareInputs(const EvalRequest& request);

} // namespace by::eval
