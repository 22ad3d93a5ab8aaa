// The report of `brickyard eval` (docs/evaluation.md): per config and layer the cycles split
// by cause, traffic, SRAM accesses, TensorDash and Boveda figures and the energy estimate,
// built from the per-layer counters of `brickyard run --report`; totals, area and derived
// figures per config; comparisons against the first config; as JSON, CSV and Markdown.
#pragma once

#include "config/config.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::eval {

using Json = nlohmann::ordered_json;

/// What one config's evaluation starts from.
struct ConfigRun {
  config::Config config;
  std::string source;     // the --configs entry (a name or a YAML path)
  std::string configHash; // config::configHash
  std::string model;      // "rtl" / "func"
  int batch = 1;          // inferences per run (the input's first dimension)
  bool ok = false;        // ran and the output is bit-exact with the int8 reference
  std::string status;     // "ok", "mismatch", "failed"
  std::string message;    // why it failed (empty when ok)
  bool cached = false;
  double wallSeconds = 0;
  nlohmann::json run;      // `brickyard run --report` JSON (null when the run failed)
  nlohmann::json baseline; // Boveda configs: the same run with uncompressed weights, or null
  nlohmann::json area;     // synth.json's "design" section, or null (--no-area, failed)
};

/// The columns of layers.csv, in order; each is a field of a report layer.
const std::vector<std::string>& layerColumns();
/// The cycle fields that partition total_cycles (compute plus the stall causes).
const std::vector<std::string>& cycleCauses();

/// One config's section of report.json: layers, totals, energy, area, derived figures.
Json evaluateConfig(const ConfigRun& run);

/// Adds to every config (and layer) its speedup and energy ratio against the first config
/// that ran, when both ran the same layers.
void compareToFirst(Json& configs);

/// One CSV cell: empty for null, quoted when needed, booleans 1/0, floats with 9 digits.
std::string csvCell(const Json& v);

/// layers.csv: one row per layer and config that ran.
std::string layersCsv(const Json& report);
/// report.md: the tables for people.
std::string reportMarkdown(const Json& report);

} // namespace by::eval
