// The sweep spec of `brickyard sweep` (docs/evaluation.md, "Sweeps"): a base config, a grid
// and/or a list of config overrides, the models, the evaluation options and the Slurm
// settings. Reading it checks its own structure; the overrides are checked later against the
// config schema by config::loadConfigWithOverrides, at their position in the spec.
#pragma once

#include "config/loader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::eval {

struct SweepModel {
  std::string name;               // names the rows and the point's eval folder (file stem)
  std::string path;               // absolute
  std::string input;              // absolute, or empty: a seeded random input
  std::vector<std::string> calib; // absolute
  config::YamlPos pos;            // where the spec names the model
};

struct SweepEvalOptions {
  std::string model = "rtl"; // rtl | func
  bool area = true;
  uint64_t seed = 1; // of the random input of models without one
  int calibRandom = 0;
  std::string hal = "rocc";
  uint64_t maxCycles = 0; // per run; 0 = no cap
  int jobs = 0;           // eval -j inside a point; 0 = the Slurm task's CPUs, 1 locally
};

struct SweepSlurmOptions {
  std::string partition, time, account;
  int cpusPerTask = 0;                    // 0: not given (Slurm's default, one)
  std::vector<std::string> sbatchOptions; // more #SBATCH lines, e.g. --mem=4G
  std::vector<std::string> setup;         // shell lines before the task (module load ...)
  int pollSeconds = 10;
};

struct SweepPointSpec {
  std::vector<config::Override> overrides; // in the order they apply
  config::YamlPos pos;                     // the grid or the points entry it comes from
};

struct SweepSpec {
  std::string file; // as given
  std::string name;
  std::string base; // a config name, or an absolute YAML path
  config::YamlPos basePos;
  std::vector<std::string> keys;      // every overridden key, first appearance first
  std::vector<SweepPointSpec> points; // the grid's product (first axis slowest), then `points`
  std::vector<SweepModel> models;
  SweepEvalOptions eval;
  SweepSlurmOptions slurm;
  std::string cacheDir; // absolute, or empty
};

/// Reads and checks a sweep spec. Relative paths are relative to the spec's folder. Throws
/// config::ConfigError (FILE:LINE:COL: error: KEY: ...).
SweepSpec loadSweepSpec(const std::string& path);

/// "array.mesh_rows=8, sparsity.tensordash.enabled=true" ("base config" when empty).
std::string describeOverrides(const std::vector<config::Override>& overrides);

} // namespace by::eval
