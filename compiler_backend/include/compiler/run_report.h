// The result of running a compiled model (`brickyard run`): the per-layer counters the
// program recorded (by_model_stats), checked against the int8 reference and compared with the
// float model; as a table for people and JSON for tools.
#pragma once

#include "compiler/compile.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::compiler {

struct LayerStats {
  std::vector<uint64_t> fields; // plan.json "stat_fields": cycles, then the registers
  uint64_t field(const std::string& name) const;
  static std::vector<std::string> names();
};

struct RunCheck {
  int64_t values = 0, mismatches = 0;
  int64_t firstMismatch = -1;
  int firstGot = 0, firstWant = 0;
  bool exact() const { return mismatches == 0; }
  // Against the float model (when the input was float).
  bool haveFloat = false;
  double sqnrDb = 0, maxAbsError = 0;
  int64_t rows = 0, top1Agree = 0; // argmax per output row
};

struct RunReport {
  std::string model; // "rtl" / "func"
  std::vector<LayerStats> layers;
  RunCheck check;
  double wallSeconds = 0;
  uint64_t totalCycles = 0; // the whole program (simulated), from the simulator
  uint64_t hostInstructions = 0;
};

/// Splits the dumped by_model_stats bytes into per-layer stats.
std::vector<LayerStats> parseStats(const std::vector<uint8_t>& bytes, size_t layers);

/// Compares the program's int8 output with the reference's (NHWC) and, when given, the
/// dequantized output with the float model's.
RunCheck checkOutput(const Graph& g, const std::vector<int8_t>& got,
                     const std::vector<int8_t>& want, const std::vector<float>* floatOut);

/// The per-layer table with a total line.
std::string reportTable(const Compiled& c, const RunReport& r);
nlohmann::json reportJson(const Compiled& c, const RunReport& r);

} // namespace by::compiler
