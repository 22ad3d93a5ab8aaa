// A point of a prepared sweep: its files, its result record, and the point runner (`brickyard
// sweep --run-point N`, one process per point: what a Slurm task or a local worker executes).
// The record is the point's entry in the find-or-make of support/cache.h: usable when it is
// the point's (same key) and ok; made under the point's lock, so that two runners of one point
// (a resumed sweep and a straggler) do not race.
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

/// Runs one model's eval of the point (its output appended to the point's log) and returns the
/// model's entry of the record.
Json runModel(const fs::path& out, const Json& m, int jobs, const fs::path& log) {
  std::vector<std::string> argv = {support::executablePath().string()};
  for (const Json& a : m.at("args"))
    argv.push_back(a.get<std::string>());
  argv.insert(argv.end(), {"-j", std::to_string(jobs)});
  const fs::path evalDir = out / m.at("dir").get<std::string>();
  std::error_code ec;
  fs::remove_all(evalDir, ec); // its report.json then comes from this run
  process::Options po;
  po.output = process::Output::AppendToLog;
  po.log = log;
  const process::Result r = process::run(argv, po);
  Json e;
  e["name"] = m.at("name");
  e["exit"] = r.status;
  e["report"] = (fs::path(m.at("dir").get<std::string>()) / "report.json").string();
  const fs::path report = evalDir / "report.json";
  std::string status = r.status == 0 ? "ok" : "failed", message;
  if (fs::exists(report)) {
    const Json rep = support::readJson<Json>(report);
    const Json& c = rep.at("configs").at(0);
    if (c.value("status", "") != "ok") {
      status = "failed";
      message = (c.value("status", "") == "mismatch" ? "mismatch: " : "") + c.value("message", "");
    }
  } else {
    status = "failed";
    e["report"] = nullptr;
  }
  if (status != "ok" && message.empty())
    message = "brickyard eval exited with " + std::to_string(r.status) + ": " + logTail(log, 3);
  e["status"] = status;
  e["message"] = message;
  std::printf("  %s: %s%s%s\n", m.at("name").get<std::string>().c_str(), status.c_str(),
              message.empty() ? "" : ": ", message.c_str());
  std::fflush(stdout);
  return e;
}

/// Runs the point's models and writes its record to `record`; true when all ran bit-exact.
bool runModels(const fs::path& out, const Json& plan, const Json& point, const PointPlan& p,
               const fs::path& record) {
  int jobs = plan.value("eval_jobs", 0);
  if (jobs <= 0) {
    const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
    jobs = cpus && std::atoi(cpus) > 0 ? std::atoi(cpus) : 1;
  }
  const fs::path log = logPath(out, p.id);
  std::printf("brickyard sweep: point %s (%s) on %s, %s; eval output in %s\n", p.id.c_str(),
              point.value("label", "").c_str(), hostName().c_str(), now().c_str(), log.c_str());
  std::fflush(stdout);
  {
    std::ofstream l(log, std::ios::app);
    l << "=== brickyard sweep: point " << p.id << " on " << hostName() << ", " << now() << "\n";
  }
  const auto start = Clock::now();
  Json models = Json::array();
  bool allOk = true;
  for (const Json& m : point.at("models")) {
    models.push_back(runModel(out, m, jobs, log));
    allOk &= models.back()["status"] == "ok";
  }
  Json result;
  result["key"] = p.key;
  result["index"] = p.index;
  result["id"] = p.id;
  result["status"] = allOk ? "ok" : "failed";
  result["host"] = hostName();
  result["finished"] = now();
  result["wall_seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
  if (const char* job = std::getenv("SLURM_ARRAY_JOB_ID"))
    result["slurm_job"] = std::string(job) + "_" + std::to_string(p.index);
  result["models"] = models;
  support::writeFileAtomically(record, result.dump(2) + "\n");
  std::printf("brickyard sweep: point %s %s in %.1f s\n", p.id.c_str(), allOk ? "ok" : "FAILED",
              result["wall_seconds"].get<double>());
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

Json readResult(const fs::path& out, const PointPlan& p) {
  const fs::path r = resultPath(out, p.id);
  if (!fs::exists(r))
    return Json();
  try {
    Json j = support::readJson<Json>(r);
    if (j.value("key", "") == p.key)
      return j;
  } catch (const std::exception&) {
    // An unreadable record (cannot happen with atomic writes, but a user may edit it): rerun.
  }
  return Json();
}

bool finished(const fs::path& out, const PointPlan& p) {
  const Json r = readResult(out, p);
  return !r.is_null() && r.value("status", "") == "ok";
}

} // namespace by::eval::sweep

namespace by::eval {

bool runPoint(const std::filesystem::path& out, size_t index) {
  using namespace sweep;
  const Json plan = support::readJson<Json>(out / "points.json");
  const Json* point = nullptr;
  for (const Json& p : plan.at("points"))
    if (p.at("index").get<size_t>() == index)
      point = &p;
  if (!point)
    throw std::runtime_error("point " + std::to_string(index) + " is not in " +
                             (out / "points.json").string());
  PointPlan p;
  p.index = index;
  p.id = point->at("id");
  p.key = point->at("key");
  if (!point->at("valid").get<bool>())
    throw std::runtime_error("point " + p.id + " is invalid: " + point->value("message", ""));
  bool allOk = false;
  support::Maker maker;
  maker.usable = [&](const fs::path&) { return finished(out, p); };
  maker.make = [&](const fs::path& staging) {
    allOk = runModels(out, plan, *point, p, staging);
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
