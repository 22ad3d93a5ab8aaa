// `brickyard sweep` (docs/evaluation.md, "Sweeps"): a grid or list of config overrides on a base
// config, times a set of models. Every point is checked before anything runs; each point then
// runs as `brickyard eval` (one per model) inside a `brickyard sweep --run-point` process, on
// this machine (the job pool) or as a Slurm job array. A point is finished when its result
// record is written (the find-or-make of support/cache.h), so an interrupted sweep resumes where
// it stopped. The table (results.csv, results.json) and the Pareto plots are written from the
// records at the end.
//
//   OUT_DIR/points.json                 the plan: per point its config and eval command lines
//   OUT_DIR/points/<id>/config.yaml     the point's config
//   OUT_DIR/points/<id>/<model>/        its eval report per model
//   OUT_DIR/points/<id>/result.json     its result record; log.txt, the evals' output
//   OUT_DIR/slurm/                      batch scripts, jobs.json, the tasks' logs (--slurm)
//   OUT_DIR/results.{json,csv}, pareto_*.png
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace by::eval {

/// What `brickyard sweep SPEC.yaml` is asked: its command line, typed.
struct SweepRequest {
  std::string spec;             // SPEC.yaml
  std::filesystem::path outDir; // empty: out/sweep-<name>
  enum class Backend { Local, Slurm } backend = Backend::Local;
  int jobs = 1; // --local: points at a time
  // --slurm: the spec's settings unless given here.
  std::string partition, time, account;
  std::optional<int> cpusPerTask, pollSeconds;
  bool wait = true;         // --slurm: wait for the tasks and collect
  bool skipInvalid = false; // run the valid points when some are rejected
  std::string cacheDir;     // eval's cache; empty: the spec's, else brickyard's
  bool quiet = false;
};

enum class SweepOutcome {
  AllOk,     // every point ran bit-exact
  Submitted, // --no-wait: the tasks are submitted; a rerun waits and collects
  Failed,    // a point failed or has no result (the others ran)
  Rejected,  // points were rejected (listed on stderr); nothing ran
};

/// Runs the sweep. A spec, base config or model that is rejected throws config::ConfigError
/// before anything runs; an output folder that is not a sweep's, support::OutputRefused.
SweepOutcome runSweep(const SweepRequest& request);

/// `brickyard sweep --run-point N -o OUT_DIR`: runs point N's evals (one per model) in order
/// and writes its result record; true when every model ran bit-exact. A point that is already
/// finished is not run again.
bool runPoint(const std::filesystem::path& outDir, size_t index);

} // namespace by::eval
