// `brickyard eval` (docs/evaluation.md): one ONNX model on several configs, side by side. Every
// config's run is a `brickyard run --report` child process (SystemC elaborates once per
// process), its area a `brickyard gen` + `brickyard synth` pair; both go through the job pool
// and are cached by what goes into them (eval/runs, eval/area in the cache folder). The report
// (report.json, layers.csv, report.md, plots) is built in a staging directory and moved into
// place at the end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace by::eval {

/// What `brickyard eval` is asked: its command line, typed.
struct EvalRequest {
  std::string model;                // the ONNX file
  std::vector<std::string> configs; // config names or YAML paths; the first is the baseline
  std::filesystem::path outDir;     // REPORT_DIR
  std::string input;                // X.npy; empty: a random normal(0,1) input
  std::optional<uint64_t> seed;     // of the random input (default 1); only without `input`
  std::string accelModel = "rtl";   // rtl | func
  std::string hal = "rocc";         // rocc | mmio
  int jobs = 1;                     // runs at a time
  bool area = true;                 // synthesize every config for its area
  std::vector<std::string> calibFiles;
  int calibRandom = 0;    // calibrate on this many random samples (0: brickyard run's default)
  uint64_t maxCycles = 0; // cap of every run's simulated cycles; 0: none
  std::string cacheDir;   // empty: support::cacheRoot's default
  bool quiet = false;     // no progress lines
};

/// Runs the evaluation and writes REPORT_DIR; true when every config ran bit-exact. Rejected
/// input (a config, the model, the input file, REPORT_DIR) throws before anything runs:
/// config::ConfigError, compiler::CompileError, support::InputError.
bool evaluate(const EvalRequest& request);

} // namespace by::eval
