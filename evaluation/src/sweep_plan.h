// The parts of `brickyard sweep` (eval/sweep.h) that its steps share: the points of a prepared
// sweep, where their files are, their result records and the two back ends.
#pragma once

#include "compiler/graph.h"
#include "config/config.h"
#include "eval/sweep.h"
#include "eval/sweep_spec.h"
#include "sweep_records.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::eval::sweep {

namespace fs = std::filesystem;

struct PointPlan {
  size_t index = 0;
  std::string id;    // p00, p01, ...: the folder OUT_DIR/points/<id>
  std::string label; // the overrides, "array.mesh_rows=8, ..."
  std::string key;   // hash of everything the point's results depend on
  bool valid = true;
  std::string message; // why it is invalid
};

struct ModelInfo {
  std::string hash, inputHash;
  std::vector<std::string> calibHashes;
  compiler::Graph graph; // imported and passed, to check it fits each point's DRAM
};

/// Everything about the spec that is checked before anything runs.
struct Prepared {
  SweepSpec spec;
  std::string basePath;
  std::vector<ModelInfo> models;
  std::vector<PointPlan> points;
  std::vector<config::Config> configs; // per point (default-constructed when invalid)
  std::vector<std::string> bad;        // one line per rejected point
};

/// Reads and checks the spec, its base config, its models and every point's config
/// (throws config::ConfigError for the spec, the base and the models; a rejected point is a
/// line of `bad`).
Prepared prepare(const SweepRequest& request);

/// Writes points.json and every point's config.yaml, and fills in the points' keys.
void writePlan(Prepared& pr, const fs::path& out, const std::string& cacheDir);

/// The folder of a point, its result record and its log.
fs::path pointDir(const fs::path& out, const std::string& id);
fs::path resultPath(const fs::path& out, const std::string& id);
fs::path logPath(const fs::path& out, const std::string& id);

/// The result record of a point if it exists, is readable and belongs to its key.
std::optional<PointRecord> readResult(const fs::path& out, const PointPlan& p);
/// True when the point has a result record for `key` with status ok.
bool finished(const fs::path& out, const PointPlan& p);

/// Runs `pending` points `parallel` at a time (the job pool), as `--run-point` child processes
/// (output to each point's log.txt), with a progress line per finished point and an ETA.
void runLocal(const fs::path& out, const std::vector<PointPlan>& pending, int parallel, bool quiet);

struct SlurmOptions {
  std::string partition, time, account;
  int cpusPerTask = 0;
  std::vector<std::string> sbatchOptions, setup;
  int pollSeconds = 10;
  bool wait = true;
  bool quiet = false;
};

/// Submits the pending points that are not already queued or running from an earlier
/// submission as one job array (task i = point i), keeps its batch script in
/// OUT_DIR/slurm/, and waits (polling squeue) until every task of the sweep has ended.
/// Returns false when it did not wait (--no-wait) and tasks are still queued or running.
bool runSlurm(const fs::path& out, const std::string& name, const std::vector<PointPlan>& pending,
              const SlurmOptions& slurm);

/// Slurm's view of the sweep's tasks (from the last poll): point index -> "JOB_TASK STATE",
/// and the log path of that task, for the list of failed points.
struct SlurmTaskInfo {
  std::string job, state;
  fs::path log;
};
std::vector<std::pair<size_t, SlurmTaskInfo>> slurmTasks(const fs::path& out);

/// The table from the result records: results.json, results.csv, the plots. Prints a line per
/// point and model and the failed points (with their Slurm tasks when `slurm`). Returns how
/// many points are ok; `allOk` when no valid point failed or lacks a result.
size_t collect(const Prepared& pr, const fs::path& out, bool slurm, bool quiet, bool* allOk);

} // namespace by::eval::sweep
