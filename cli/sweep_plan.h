// The parts of `brickyard sweep` that its backends share: the plan of a prepared output folder
// (OUT_DIR/points.json: per point its config file and the `brickyard eval` command lines), the
// point runner every backend executes (`brickyard sweep --run-point N -o OUT_DIR`, one process
// per point), and the two backends.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::cli::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct PointPlan {
  size_t index = 0;
  std::string id;    // p00, p01, ...: the folder OUT_DIR/points/<id>
  std::string label; // the overrides, "array.mesh_rows=8, ..."
  std::string key;   // hash of everything the point's results depend on
  bool valid = true;
  std::string message; // why it is invalid
};

/// The folder of a point, its result record and its log.
fs::path pointDir(const fs::path& out, const std::string& id);
fs::path resultPath(const fs::path& out, const std::string& id);
fs::path logPath(const fs::path& out, const std::string& id);

/// The result record of a point if it exists, is readable and belongs to `key`; else null.
Json readResult(const fs::path& out, const PointPlan& p);
/// True when the point has a result record for `key` with status ok.
bool finished(const fs::path& out, const PointPlan& p);

/// `brickyard sweep --run-point N -o OUT_DIR`: runs point N's evals (one per model) in order,
/// writes its result record atomically; exit 0 when every model ran bit-exact, else 1. A
/// point that is already finished (same key) is not run again. The record is written under
/// a lock, so that two runners of one point (a resumed sweep and a straggler) do not race.
int runPoint(const fs::path& out, size_t index);

/// Progress and options every backend takes.
struct RunOptions {
  bool quiet = false;
  fs::path self; // this executable
};

/// Runs `pending` points `parallel` at a time, as `--run-point` child processes (output to
/// each point's log.txt), with a progress line per finished point and an ETA.
void runLocal(const fs::path& out, const std::vector<PointPlan>& pending, int parallel,
              const RunOptions& options);

struct SlurmOptions {
  std::string partition, time, account;
  int cpusPerTask = 0;
  std::vector<std::string> sbatchOptions, setup;
  int pollSeconds = 10;
  bool wait = true;
};

/// Submits the pending points that are not already queued or running from an earlier
/// submission as one job array (task i = point i), keeps its batch script in
/// OUT_DIR/slurm/, and waits (polling squeue) until every task of the sweep has ended.
/// Returns false when it did not wait (--no-wait) and tasks are still queued or running.
bool runSlurm(const fs::path& out, const std::string& name, const std::vector<PointPlan>& pending,
              const SlurmOptions& slurm, const RunOptions& options);

/// Slurm's view of the sweep's tasks (from the last poll): point index -> "JOB_TASK STATE",
/// and the log path of that task, for the list of failed points.
struct SlurmTaskInfo {
  std::string job, state;
  fs::path log;
};
std::vector<std::pair<size_t, SlurmTaskInfo>> slurmTasks(const fs::path& out);

} // namespace by::cli::sweep
