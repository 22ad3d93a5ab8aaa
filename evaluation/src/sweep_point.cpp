// A point of a prepared sweep: its files, its result record, and the point runner (`brickyard
// sweep --run-point N`, one process per point: what a Slurm task or a local worker executes).
// The record is the point's entry in the find-or-make of support/cache.h: usable when it is
// the point's (same key) and ok; made under the point's lock, so that two runners of one point
// (a resumed sweep and a straggler) do not race.
#include "eval/report.h"
#include "support/cache.h"
#include "support/files.h"
#include "support/install.h"
#include "support/json.h"
#include "support/process.h"
#include "support/tail.h"
#include "sweep_plan.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <unistd.h>

namespace by::eval::sweep {
namespace {

using Clock = std::chrono::steady_clock;

std::string now() {
  const std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return b;
}

std::string hostName() {
  char b[256] = {};
  gethostname(b, sizeof b - 1);
  return b;
}

/// The end of a log on one line, for a message.
std::string logTail(const fs::path& file, size_t lines) {
  std::string t = support::lastLines(support::tailOfFile(file, lines), lines);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

/// Runs one model's eval of the point (its output appended to the point's log).
ModelOutcome runModel(const fs::path& out, const PlannedEval& m, int jobs, const fs::path& log) {
  std::vector<std::string> argv = {support::executablePath().string()};
  argv.insert(argv.end(), m.args.begin(), m.args.end());
  argv.insert(argv.end(), {"-j", std::to_string(jobs)});
  const fs::path evalDir = out / m.dir;
  std::error_code ec;
  fs::remove_all(evalDir, ec); // its report.json then comes from this run
  process::Options po;
  po.output = process::Output::AppendToLog;
  po.log = log;
  const process::Result r = process::run(argv, po);
  ModelOutcome e;
  e.name = m.name;
  e.exit = r.status;
  e.report = (fs::path(m.dir) / "report.json").string();
  e.status = r.status == 0 ? "ok" : "failed";
  const fs::path report = evalDir / "report.json";
  if (fs::exists(report)) {
    const ConfigReport c = support::readRecord<EvalReport, Json>(report).configs.at(0);
    if (c.status != "ok") {
      e.status = "failed";
      e.message = (c.status == "mismatch" ? "mismatch: " : "") + c.message;
    }
  } else {
    e.status = "failed";
    e.report.reset();
  }
  if (e.status != "ok" && e.message.empty())
    e.message = "brickyard eval exited with " + std::to_string(r.status) + ": " + logTail(log, 3);
  std::printf("  %s: %s%s%s\n", m.name.c_str(), e.status.c_str(), e.message.empty() ? "" : ": ",
              e.message.c_str());
  std::fflush(stdout);
  return e;
}

/// Runs the point's models and writes its record to `record`; true when all ran bit-exact.
bool runModels(const fs::path& out, const SweepPlanRecord& plan, const PlannedPoint& point,
               const fs::path& record) {
  int jobs = plan.evalJobs;
  if (jobs <= 0) {
    const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
    jobs = cpus && std::atoi(cpus) > 0 ? std::atoi(cpus) : 1;
  }
  const fs::path log = logPath(out, point.id);
  std::printf("brickyard sweep: point %s (%s) on %s, %s; eval output in %s\n", point.id.c_str(),
              point.label.c_str(), hostName().c_str(), now().c_str(), log.c_str());
  std::fflush(stdout);
  {
    std::ofstream l(log, std::ios::app);
    l << "=== brickyard sweep: point " << point.id << " on " << hostName() << ", " << now() << "\n";
  }
  const auto start = Clock::now();
  PointRecord result;
  bool allOk = true;
  for (const PlannedEval& m : point.models) {
    result.models.push_back(runModel(out, m, jobs, log));
    allOk &= result.models.back().status == "ok";
  }
  result.key = point.key;
  result.index = point.index;
  result.id = point.id;
  result.status = allOk ? "ok" : "failed";
  result.host = hostName();
  result.finished = now();
  result.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (const char* job = std::getenv("SLURM_ARRAY_JOB_ID"))
    result.slurmJob = std::string(job) + "_" + std::to_string(point.index);
  support::writeFileAtomically(record, Json(result).dump(2) + "\n");
  std::printf("brickyard sweep: point %s %s in %.1f s\n", point.id.c_str(), allOk ? "ok" : "FAILED",
              result.wallSeconds);
  return allOk;
}

} // namespace

fs::path pointDir(const fs::path& out, const std::string& id) {
  return out / "points" / id;
}
fs::path resultPath(const fs::path& out, const std::string& id) {
  return pointDir(out, id) / "result.json";
}
fs::path logPath(const fs::path& out, const std::string& id) {
  return pointDir(out, id) / "log.txt";
}

std::optional<PointRecord> readResult(const fs::path& out, const PointPlan& p) {
  const fs::path r = resultPath(out, p.id);
  if (!fs::exists(r))
    return std::nullopt;
  try {
    PointRecord record = support::readRecord<PointRecord, Json>(r);
    if (record.key == p.key)
      return record;
  } catch (const std::exception&) {
    // An unreadable record (cannot happen with atomic writes, but a user may edit it): rerun.
  }
  return std::nullopt;
}

bool finished(const fs::path& out, const PointPlan& p) {
  const std::optional<PointRecord> r = readResult(out, p);
  return r && r->status == "ok";
}

} // namespace by::eval::sweep

namespace by::eval {

bool runPoint(const std::filesystem::path& out, size_t index) {
  using namespace sweep;
  const SweepPlanRecord plan = support::readRecord<SweepPlanRecord, Json>(out / "points.json");
  const PlannedPoint* point = nullptr;
  for (const PlannedPoint& p : plan.points)
    if (p.index == index)
      point = &p;
  if (!point)
    throw std::runtime_error("point " + std::to_string(index) + " is not in " +
                             (out / "points.json").string());
  if (!point->valid)
    throw std::runtime_error("point " + point->id + " is invalid: " + point->message);
  PointPlan p;
  p.index = index;
  p.id = point->id;
  p.key = point->key;
  bool allOk = false;
  support::Maker maker;
  maker.usable = [&](const fs::path&) { return finished(out, p); };
  maker.make = [&](const fs::path& staging) {
    allOk = runModels(out, plan, *point, staging);
    return true; // a failed point's record too: it says why
  };
  if (support::findOrMake(resultPath(out, p.id), maker) == support::Outcome::Found) {
    std::printf("brickyard sweep: point %s is already finished (%s)\n", p.id.c_str(),
                resultPath(out, p.id).c_str());
    return true;
  }
  return allOk;
}

} // namespace by::eval
