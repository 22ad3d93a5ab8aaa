// The result of running a compiled model (`brickyard run`): the per-layer counters the
// program recorded (by_model_stats), checked against the int8 reference and compared with the
// float model; as a table for people and JSON for tools.
#pragma once

#include "compiler/compile.h"

#include <cstdint>
#include <map>
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

/// One layer of a run's record.
struct RunLayerRecord {
  size_t index = 0;
  std::string name, kind, kernel; // the ONNX node, the layer kind, the driver kernel
  bool onCpu = false;
  int64_t macs = 0;
  uint64_t cycles = 0;
  int64_t idealCycles = 0;
  double utilization = 0; // 0 for the functional model (untimed)
  int64_t outputRawBytes =
      0; // the layer's output tensor uncompressed (OUTPUT_STORED_BYTES: as stored)
  std::map<std::string, uint64_t> counters; // LAYER_CYCLES and the statistics registers
  /// The counter `name`, 0 when the run did not record it.
  uint64_t counter(const std::string& name) const;
};

/// The record of `brickyard run --report FILE.json`: what eval reads back (by type) from the
/// runs it starts and keeps in its cache. Its JSON keys are sorted (nlohmann::json).
struct RunRecord {
  std::string model, config;
  int peakMacsPerCycle = 0;
  uint64_t totalCycles = 0, hostInstructions = 0;
  double wallSeconds = 0;
  RunCheck check; // values, mismatches and the float comparison (not the first mismatch)
  std::vector<RunLayerRecord> layers;
};

/// The record of a run of `c`.
RunRecord runRecord(const Compiled& c, const RunReport& r);

void to_json(nlohmann::json& j, const RunCheck& c);
void from_json(const nlohmann::json& j, RunCheck& c);
void to_json(nlohmann::json& j, const RunLayerRecord& l);
void from_json(const nlohmann::json& j, RunLayerRecord& l);
void to_json(nlohmann::json& j, const RunRecord& r);
void from_json(const nlohmann::json& j, RunRecord& r);

} // namespace by::compiler
