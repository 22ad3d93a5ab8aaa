// brickyard sweep: the options of eval::runSweep and eval::runPoint (evaluation/,
// docs/evaluation.md, "Sweeps").
#include "command.h"
#include "eval/sweep.h"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace by::cli {
namespace {

const char* const kSweepDescription =
    "Evaluates a grid or list of config overrides on a base config, times a set of models\n"
    "(docs/evaluation.md, \"Sweeps\"). Every point is checked first, as brickyard gen checks\n"
    "a config and brickyard eval its input: a bad point or model is reported (one line per\n"
    "point, naming the key, at its place in the spec) and nothing runs. Each point runs as\n"
    "brickyard eval on each model; its result is recorded when it finishes, so a rerun of\n"
    "an interrupted or partly failed sweep runs only the points without a result.\n"
    "\n"
    "--local runs -j points at a time on this machine; --slurm submits one Slurm job array\n"
    "(one task per point, the batch script kept in OUT_DIR/slurm/), waits for it and lists\n"
    "the failed tasks with their logs; a rerun submits only the points without a result.\n"
    "OUT_DIR gets results.csv and results.json (one row per point and model: the point's\n"
    "config values, cycles, utilization, energy, area, throughput, perf/area, perf/W) and\n"
    "Pareto plots (PNG) with the front marked.\n"
    "\n"
    "exit codes: 0 every point ran bit-exact (or, with --no-wait, the tasks are submitted),\n"
    "1 a point failed or has no result (the others still ran), 2 input rejected (nothing run)";

int runPointCommand(const std::vector<std::string>& args) {
  std::optional<int> index;
  std::string outDir;
  ArgParser p("sweep", "--run-point N -o OUT_DIR",
              "Runs point N of a prepared sweep (what a Slurm task or a --local worker runs):\n"
              "brickyard eval of the point's config on each model, then the point's result\n"
              "record. A point that already has its result is not run again.");
  p.number("--run-point", "N", "the point's index", &index, 0, 9'999'999,
           "a point index (0, 1, ...)");
  p.option("-o", "OUT_DIR", "the sweep's output folder", &outDir);
  if (!p.parse(args))
    return kExitOk;
  if (outDir.empty())
    throw UsageError("missing -o OUT_DIR");
  return eval::runPoint(std::filesystem::absolute(outDir), size_t(*index)) ? kExitOk : kExitFailure;
}

struct SweepArgs {
  eval::SweepRequest r;
  std::string outDir;
  bool local = false, slurm = false, noWait = false;
  std::optional<int> jobs;

  void add(ArgParser& p) {
    p.positional("SPEC.yaml", "the sweep spec", &r.spec);
    p.option("-o", "OUT_DIR", "output folder (default: out/sweep-NAME)", &outDir);
    p.flag("--local", "run on this machine", &local);
    p.number("-j", "N", "--local: points at a time (default: the number of cores)", &jobs, 1, 1024);
    p.flag("--slurm", "run as a Slurm job array (sbatch) and wait for it", &slurm);
    p.option("--partition", "P", "--slurm: the partition (default: the spec's, else Slurm's)",
             &r.partition);
    p.option("--time", "T", "--slurm: time limit per task, e.g. 01:00:00", &r.time);
    p.number("--cpus-per-task", "C", "--slurm: CPUs per task (eval -j inside a point)",
             &r.cpusPerTask, 1, 1024);
    p.option("--account", "A", "--slurm: the account to charge", &r.account);
    p.number("--poll", "SECONDS", "--slurm: squeue interval (default: the spec's, else 10)",
             &r.pollSeconds, 1, 3600);
    p.flag("--no-wait", "--slurm: submit and return; a rerun waits and collects", &noWait);
    p.flag("--skip-invalid", "run the valid points, list the invalid ones (else exit 2)",
           &r.skipInvalid);
    p.option("--cache-dir", "DIR",
             "the cache of eval (default: the spec's cache_dir, else brickyard's)", &r.cacheDir);
    p.flag("--quiet", "no progress lines", &r.quiet);
  }

  /// The request, with the options of the other back end rejected.
  eval::SweepRequest request() {
    if (local == slurm)
      throw UsageError("choose a backend: --local or --slurm");
    if (!local && jobs)
      throw UsageError("-j goes with --local (Slurm runs its tasks as the cluster allows)");
    if (local && (!r.partition.empty() || !r.time.empty() || r.cpusPerTask || !r.account.empty() ||
                  r.pollSeconds || noWait))
      throw UsageError("--partition, --time, --cpus-per-task, --account, --poll and --no-wait go "
                       "with --slurm");
    r.backend = local ? eval::SweepRequest::Backend::Local : eval::SweepRequest::Backend::Slurm;
    r.jobs = jobs.value_or(int(std::max(1u, std::thread::hardware_concurrency())));
    r.wait = !noWait;
    r.outDir = outDir;
    return r;
  }
};

} // namespace

int runSweep(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--run-point") != args.end())
    return runPointCommand(args);
  SweepArgs a;
  ArgParser p("sweep",
              "SPEC.yaml [-o OUT_DIR] (--local [-j N] | --slurm [--partition P] [--time T] "
              "[--cpus-per-task C])",
              kSweepDescription);
  a.add(p);
  if (!p.parse(args))
    return kExitOk;
  switch (eval::runSweep(a.request())) {
  case eval::SweepOutcome::AllOk:
  case eval::SweepOutcome::Submitted:
    return kExitOk;
  case eval::SweepOutcome::Failed:
    return kExitFailure;
  case eval::SweepOutcome::Rejected:
    break;
  }
  return kExitRejected;
}

} // namespace by::cli
