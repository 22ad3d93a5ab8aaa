// Per-module synthesis (docs/area.md, "Per-module synthesis"): one short Yosys run elaborates
// the design (`hierarchy`, which derives one module per parameter set), then every unique
// module is synthesized in a Yosys run of its own with its submodules as black boxes, several
// at a time, each result cached under a hash of exactly what that run reads. The results are
// merged into the shape of a whole-design `stat -json`, which buildSynthReport multiplies out
// by instance counts as before.
#pragma once

#include "synthesis/design.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::synthesis {

struct PerModuleOptions {
  std::string top;
  bool sramMacros = true;        // SRAMs read as black boxes (--memories macro)
  std::filesystem::path cache;   // the synthesis cache, e.g. ~/.cache/brickyard/synth
  std::filesystem::path reports; // OUT/reports: the elaboration's script and log go here
  int jobs = 1;                  // Yosys runs at a time
  bool quiet = false;            // no progress lines
};

/// How one module was synthesized.
struct ModuleRun {
  std::string module; // Yosys name
  std::string key;    // its cache key (entry <cache>/<base name>-<key>)
  bool cached = false;
  double seconds = 0; // Yosys wall time of the run (for a cached module, when it was made)
};

struct PerModuleResult {
  nlohmann::json stat;  // {"modules": {name: stat of that module}}, as `stat -json` writes
  std::string sramDump; // `dump` of the SRAM macro cells, all modules
  std::vector<ModuleRun> runs;
  bool planCached = false; // the elaboration was skipped (RTL seen before)
  double planSeconds = 0;  // Yosys wall time of the elaboration
  double seconds = 0;      // wall time of the whole synthesis
  int jobs = 1;            // Yosys runs at a time
  std::filesystem::path cache;
};

/// Throws std::runtime_error when Yosys fails (with the tail of its log).
PerModuleResult synthesizePerModule(const Design& design, const PerModuleOptions& options);

/// Adds how the synthesis ran to a report of buildSynthReport: a "synthesis" section (flow,
/// modules, how many were cached, Yosys runs at a time, seconds, the cache) and, per module,
/// its cache key, whether it came from the cache and its Yosys seconds.
void addRunsToReport(nlohmann::ordered_json& report, const PerModuleResult& result);

/// The installed Yosys' version line (part of every cache key).
std::string yosysVersion();

} // namespace by::synthesis
