// The local back end of `brickyard sweep`: the pending points as `brickyard sweep --run-point`
// child processes in the job pool, a progress line per finished point with an estimate of the
// rest. (The Slurm back end is sweep_slurm.cpp.)
#include "support/install.h"
#include "support/job_pool.h"
#include "support/process.h"
#include "sweep_plan.h"

#include <chrono>
#include <cstdio>

namespace by::eval::sweep {
namespace {

using Clock = std::chrono::steady_clock;

std::string duration(double s) {
  char b[32];
  if (s < 60)
    std::snprintf(b, sizeof b, "%.0f s", s);
  else if (s < 3600)
    std::snprintf(b, sizeof b, "%dm%02ds", int(s) / 60, int(s) % 60);
  else
    std::snprintf(b, sizeof b, "%dh%02dm", int(s) / 3600, int(s) / 60 % 60);
  return b;
}

// Throughput so far: the remaining points at the rate the finished ones came in.
std::string eta(const support::JobProgress& p) {
  if (p.done == 0)
    return "ETA -";
  return "ETA " + duration(p.seconds / double(p.done) * double(p.total - p.done));
}

/// How a point's run ended, from its record (or the lack of one).
std::string outcome(const fs::path& out, const PointPlan& p, int status) {
  const std::optional<PointRecord> res = readResult(out, p);
  if (!res)
    return "FAILED (no result; exit " + std::to_string(status) + ", log " +
           logPath(out, p.id).string() + ")";
  if (res->status == "ok")
    return "ok";
  std::string what = "FAILED";
  for (const ModelOutcome& m : res->models)
    if (m.status != "ok")
      what += "; " + m.name + ": " + m.message;
  return what;
}

} // namespace

void runLocal(const fs::path& out, const std::vector<PointPlan>& pending, int parallel,
              bool quiet) {
  const std::string self = support::executablePath().string();
  std::vector<std::string> what(pending.size());
  std::vector<double> seconds(pending.size());
  support::JobPoolOptions o;
  o.parallel = parallel;
  o.quiet = quiet;
  o.label = [&](size_t i) { return pending[i].id; };
  o.liveTail = [](const support::JobProgress& p) {
    return "  " + duration(p.seconds) + ", " + eta(p);
  };
  o.finished = [&](size_t i, const support::JobProgress& p) {
    const PointPlan& pt = pending[i];
    return "[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] " + pt.id + " (" +
           pt.label + "): " + what[i] + " (" + duration(seconds[i]) + "), " +
           (p.done < p.total ? eta(p) : "done") + "\n";
  };
  auto runOne = [&](size_t i) {
    const PointPlan& p = pending[i];
    const auto t0 = Clock::now();
    fs::create_directories(pointDir(out, p.id));
    process::Options po;
    po.output = process::Output::AppendToLog;
    po.log = logPath(out, p.id);
    const process::Result r = process::run(
        {self, "sweep", "--run-point", std::to_string(p.index), "-o", out.string()}, po);
    seconds[i] = std::chrono::duration<double>(Clock::now() - t0).count();
    what[i] = outcome(out, p, r.status);
  };
  support::runJobPool(pending.size(), runOne, o);
}

} // namespace by::eval::sweep
