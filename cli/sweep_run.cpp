// Running the points of a prepared sweep: the point runner (one process per point, what a
// Slurm task executes) and the local backend (a pool of such processes). The Slurm backend is
// in sweep_slurm.cpp.
#include "support/file_lock.h"
#include "support/files.h"
#include "support/json.h"
#include "support/process.h"
#include "support/tail.h"
#include "sweep_plan.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace by::cli::sweep {
namespace {

using Clock = std::chrono::steady_clock;

Json readJson(const fs::path& p) {
  return support::readJson<Json>(p);
}

// The last lines of a log on one line, for a message.
std::string lastLines(const fs::path& file, size_t lines) {
  std::string t = support::lastLines(support::tailOfFile(file, lines), lines);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

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
    Json j = readJson(r);
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

int runPoint(const fs::path& out, size_t index) {
  const Json plan = readJson(out / "points.json");
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
  const fs::path dir = pointDir(out, p.id);
  fs::create_directories(dir);
  support::FileLock lock(dir / ".lock");
  lock.lock();
  if (finished(out, p)) {
    std::printf("brickyard sweep: point %s is already finished (%s)\n", p.id.c_str(),
                resultPath(out, p.id).c_str());
    return 0;
  }
  const fs::path self = fs::read_symlink("/proc/self/exe");
  int jobs = plan.value("eval_jobs", 0);
  if (jobs <= 0) {
    const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
    jobs = cpus && std::atoi(cpus) > 0 ? std::atoi(cpus) : 1;
  }
  const fs::path log = logPath(out, p.id);
  std::printf("brickyard sweep: point %s (%s) on %s, %s; eval output in %s\n", p.id.c_str(),
              point->value("label", "").c_str(), hostName().c_str(), now().c_str(), log.c_str());
  std::fflush(stdout);
  {
    std::ofstream l(log, std::ios::app);
    l << "=== brickyard sweep: point " << p.id << " on " << hostName() << ", " << now() << "\n";
  }

  const auto start = Clock::now();
  Json models = Json::array();
  bool allOk = true;
  for (const Json& m : point->at("models")) {
    std::vector<std::string> argv = {self.string()};
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
      const Json rep = readJson(report);
      const Json& c = rep.at("configs").at(0);
      if (c.value("status", "") != "ok") {
        status = "failed";
        message =
            (c.value("status", "") == "mismatch" ? "mismatch: " : "") + c.value("message", "");
      }
    } else {
      status = "failed";
      e["report"] = nullptr;
    }
    if (status != "ok" && message.empty())
      message = "brickyard eval exited with " + std::to_string(r.status) + ": " + lastLines(log, 3);
    e["status"] = status;
    e["message"] = message;
    allOk &= status == "ok";
    std::printf("  %s: %s%s%s\n", m.at("name").get<std::string>().c_str(), status.c_str(),
                message.empty() ? "" : ": ", message.c_str());
    std::fflush(stdout);
    models.push_back(e);
  }
  Json result;
  result["key"] = p.key;
  result["index"] = index;
  result["id"] = p.id;
  result["status"] = allOk ? "ok" : "failed";
  result["host"] = hostName();
  result["finished"] = now();
  result["wall_seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
  if (const char* job = std::getenv("SLURM_ARRAY_JOB_ID"))
    result["slurm_job"] = std::string(job) + "_" + std::to_string(index);
  result["models"] = models;
  support::writeFileAtomically(resultPath(out, p.id), result.dump(2) + "\n");
  std::printf("brickyard sweep: point %s %s in %.1f s\n", p.id.c_str(), allOk ? "ok" : "FAILED",
              result["wall_seconds"].get<double>());
  return allOk ? 0 : 1;
}

void runLocal(const fs::path& out, const std::vector<PointPlan>& pending, int parallel,
              const RunOptions& options) {
  std::mutex m;
  size_t next = 0, done = 0, failed = 0;
  std::vector<size_t> running;
  const bool tty = !options.quiet && isatty(fileno(stderr));
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  // Throughput so far: the remaining points at the rate the finished ones came in.
  auto eta = [&] {
    if (done == 0)
      return std::string("ETA -");
    return "ETA " + duration(elapsed() / double(done) * double(pending.size() - done));
  };
  auto live = [&] { // with m held
    if (!tty)
      return;
    std::string line = "  running:";
    for (size_t r : running)
      line += " " + pending[r].id;
    line += "  " + duration(elapsed()) + ", " + eta();
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  };
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> g(m);
        if (next >= pending.size())
          return;
        i = next++;
        running.push_back(i);
        live();
      }
      const PointPlan& p = pending[i];
      const auto t0 = Clock::now();
      fs::create_directories(pointDir(out, p.id));
      process::Options po;
      po.output = process::Output::AppendToLog;
      po.log = logPath(out, p.id);
      const process::Result r = process::run({options.self.string(), "sweep", "--run-point",
                                              std::to_string(p.index), "-o", out.string()},
                                             po);
      const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      const Json res = readResult(out, p);
      std::string what;
      if (res.is_null()) {
        what = "FAILED (no result; exit " + std::to_string(r.status) + ", log " +
               logPath(out, p.id).string() + ")";
      } else if (res.value("status", "") == "ok") {
        what = "ok";
      } else {
        what = "FAILED";
        for (const Json& mr : res["models"])
          if (mr.value("status", "") != "ok")
            what += "; " + mr.value("name", "") + ": " + mr.value("message", "");
      }
      std::lock_guard<std::mutex> g(m);
      running.erase(std::find(running.begin(), running.end(), i));
      ++done;
      failed += what != "ok";
      if (!options.quiet) {
        std::fprintf(stderr, "%s[%zu/%zu] %s (%s): %s (%s), %s\n", tty ? "\r\033[K" : "", done,
                     pending.size(), p.id.c_str(), p.label.c_str(), what.c_str(),
                     duration(seconds).c_str(), done < pending.size() ? eta().c_str() : "done");
        live();
      }
    }
  };
  std::atomic<bool> stop{false};
  std::thread ticker([&] {
    while (!stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      std::lock_guard<std::mutex> g(m);
      if (!stop && !running.empty())
        live();
    }
  });
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, parallel); ++t)
    pool.emplace_back(worker);
  for (std::thread& t : pool)
    t.join();
  stop = true;
  ticker.join();
  if (tty)
    std::fprintf(stderr, "\r\033[K");
}

} // namespace by::cli::sweep
