// The report of `brickyard eval` (docs/evaluation.md): per config and layer the cycles split
// by cause, traffic, SRAM accesses, TensorDash and Boveda figures and the energy estimate,
// built from the per-layer counters of `brickyard run --report` (compiler::RunRecord); totals,
// area and derived figures per config; comparisons against the first config; as JSON, CSV and
// Markdown. The records below are report.json: to_json writes it, from_json reads it back (the
// sweep reads its points' reports so), and nothing reads it by string key.
#pragma once

#include "compiler/run_report.h"
#include "config/config.h"
#include "eval/energy.h"
#include "synthesis/report.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace by::eval {

using Json = nlohmann::ordered_json;

/// One config's evaluation starts from its runs and its area.
struct ConfigRun {
  config::Config config;
  std::string source;     // the config's YAML file
  std::string configHash; // config::configHash
  std::string model;      // "rtl" / "func"
  int batch = 1;          // inferences per run (the input's first dimension)
  bool ok = false;        // ran and the output is bit-exact with the int8 reference
  std::string status;     // "ok", "mismatch", "failed"
  std::string message;    // why it failed (empty when ok)
  bool cached = false;
  double wallSeconds = 0;
  std::optional<compiler::RunRecord> run;      // absent when the run failed
  std::optional<compiler::RunRecord> baseline; // Boveda configs: the weights uncompressed
  std::optional<synthesis::DesignArea> area;   // absent with --no-area or when it failed
};

/// One part of an energy estimate: a count times its table entry.
struct EnergyPart {
  std::string name; // mac_mult, mac_add, array_registers, ...
  double count = 0, pjPerUnit = 0, pj = 0;
  std::string entry; // the key of the energy table
};

struct EnergyEstimate {
  std::vector<EnergyPart> parts;
  double totalPj = 0;
};

/// A layer of a config (a row of layers.csv).
struct LayerReport {
  std::string config;
  size_t index = 0;
  std::string layer, kind, kernel;
  bool onCpu = false;
  int64_t macs = 0;
  uint64_t macsIssued = 0;
  int64_t totalCycles = 0, idealCycles = 0;
  double utilization = 0;
  int64_t computeCycles = 0, stallDmaCycles = 0, stallDependencyCycles = 0, stallHostCycles = 0,
          stallOtherCycles = 0, stallCycles = 0;
  uint64_t dramReadBytes = 0, dramWriteBytes = 0, spReads = 0, spWrites = 0, accReads = 0,
           accWrites = 0, tdMacsSkipped = 0, tdWindowStalls = 0, tdFeedStalls = 0,
           bovedaCompressedBytes = 0;
  /// The layer's output tensor: raw, and as stored in DRAM (a compressed activation tensor's
  /// containers and table as the run wrote them; else the raw bytes).
  int64_t outputRawBytes = 0, outputStoredBytes = 0;
  /// Boveda configs (from the run with the weights uncompressed), else absent (null).
  std::optional<int64_t> dramBytesUncompressed, bovedaBytesSaved;
  std::optional<uint64_t> cyclesUncompressed; // report.json only, Boveda configs only
  double energyPj = 0;
  EnergyEstimate energy;
  std::optional<double> speedupVsFirst, energyRatioVsFirst;
};

/// The layers' fields summed over a config.
struct Totals {
  int64_t macs = 0, macsIssued = 0, totalCycles = 0, idealCycles = 0, computeCycles = 0,
          stallDmaCycles = 0, stallDependencyCycles = 0, stallHostCycles = 0, stallOtherCycles = 0,
          stallCycles = 0, dramReadBytes = 0, dramWriteBytes = 0, spReads = 0, spWrites = 0,
          accReads = 0, accWrites = 0, tdMacsSkipped = 0, tdWindowStalls = 0, tdFeedStalls = 0,
          bovedaCompressedBytes = 0;
  int64_t outputRawBytes = 0, outputStoredBytes = 0;              // the activations' footprint
  std::optional<int64_t> bovedaBytesSaved, dramBytesUncompressed; // Boveda configs
  double utilization = 0;                                         // over all layers
};

/// Figures per inference (one run of the model on `batch` inputs).
struct Derived {
  double latencySeconds = 0, inferencesPerSecond = 0, energyPerInferenceUj = 0, powerWatts = 0,
         inferencesPerJoule = 0;
  std::optional<double> inferencesPerSecondPerMTransistor;  // with an area
  std::optional<double> speedupVsFirst, energyRatioVsFirst; // compareToFirst
};

/// The figures of a config whose run ran.
struct RunFigures {
  compiler::RunCheck check;
  uint64_t simulatedCycles = 0; // the whole program, start-up included
  Totals totals;
  EnergyEstimate energy;
  Derived derived;
};

/// The SRAM energies of a config's memories (MemoryEnergy, as reported).
struct SramEnergy {
  double scratchpad = 0;
  int scratchpadBits = 0;
  double accumulator = 0;
  int accumulatorBits = 0;
};

/// A config's section of report.json.
struct ConfigReport {
  std::string name, source, configHash, status, message;
  bool cached = false;
  double wallSeconds = 0;
  int clockMHz = 0, dim = 0, lanes = 0, peakMacsPerCycle = 0;
  bool tensordash = false, boveda = false;
  int scratchpadKiB = 0, accumulatorKiB = 0;
  SramEnergy sram;
  std::optional<synthesis::DesignArea> area;
  std::vector<LayerReport> layers;
  std::optional<RunFigures> figures; // absent when the run did not run
  std::string comparedTo;            // the config the speedups are against (may be empty)
};

/// report.json.
struct EvalReport {
  std::string generator, version;
  struct Model {
    std::string path, hash;
    int batch = 1;
    std::vector<int64_t> inputShape;
    size_t layers = 0;
  } model;
  struct Input {
    std::string description, hash;
    std::optional<uint64_t> seed; // the random input's
  } input;
  std::string acceleratorModel;
  std::vector<ConfigReport> configs;
  std::vector<EnergyEntry> energyTable;
  double wallSeconds = 0;
};

void to_json(Json& j, const EnergyEstimate& e);
void from_json(const Json& j, EnergyEstimate& e);
void to_json(Json& j, const LayerReport& l);
void from_json(const Json& j, LayerReport& l);
void to_json(Json& j, const Totals& t);
void from_json(const Json& j, Totals& t);
void to_json(Json& j, const Derived& d);
void from_json(const Json& j, Derived& d);
void to_json(Json& j, const ConfigReport& c);
void from_json(const Json& j, ConfigReport& c);
void to_json(Json& j, const EnergyEntry& e);
void from_json(const Json& j, EnergyEntry& e);
void to_json(Json& j, const EvalReport& r);
void from_json(const Json& j, EvalReport& r);

/// The columns of layers.csv, in order; each is a field of a layer in report.json.
const std::vector<std::string>& layerColumns();

/// One config's section of report.json: layers, totals, energy, area, derived figures.
ConfigReport evaluateConfig(const ConfigRun& run);

/// Adds to every config (and layer) its speedup and energy ratio against the first config
/// that ran, when both ran the same layers.
void compareToFirst(std::vector<ConfigReport>& configs);

/// One CSV cell: empty for null, quoted when needed, booleans 1/0, floats with 9 digits.
std::string csvCell(const Json& v);

/// layers.csv: one row per layer and config that ran.
std::string layersCsv(const EvalReport& report);
/// report.md: the tables for people.
std::string reportMarkdown(const EvalReport& report);

} // namespace by::eval
