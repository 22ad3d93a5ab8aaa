#include "eval_jobs.h"

#include "compiler/compile.h"
#include "compiler/emit_c.h"
#include "support/cache.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/json.h"
#include "support/process.h"
#include "support/tail.h"
#include "synthesis/report.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace by::eval {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Part of every key: bumped when what a cached run or area entry holds changes meaning.
const char* const kCacheFormat = "eval-cache-1";

/// A scratch folder of this process for one job's child, removed when the job is done.
struct Scratch {
  Scratch(const EvalInputs& in, const std::string& name)
      : dir(in.cache / "eval" / "tmp" / (name + "-" + std::to_string(getpid()))) {
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  const fs::path dir;
};

/// The job's cache entry, found or made by `maker`; a found one is an ok, cached job.
void findOrRun(const fs::path& entry, const support::Maker& maker, Job& job) {
  if (support::findOrMake(entry, maker) == support::Outcome::Found) {
    job.ok = job.cached = true;
    job.status = "ok";
  }
}

std::vector<std::string> runArgv(const EvalInputs& in, const EvalRequest& r, const Job& job,
                                 const fs::path& report) {
  std::vector<std::string> argv = {in.self.string(),       "run",     in.model,     "--config",
                                   in.sources[job.config], "--input", in.inputPath, "--model",
                                   r.accelModel,           "--hal",   r.hal,        "--report",
                                   report.string(),        "--quiet"};
  if (!r.cacheDir.empty())
    argv.insert(argv.end(), {"--cache-dir", in.cache.string()});
  argv.insert(argv.end(), in.calibArgs.begin(), in.calibArgs.end());
  // Not part of the cache key: a run that ends within the cap gives the same result.
  if (!in.maxCycles.empty())
    argv.insert(argv.end(), {"--max-cycles", in.maxCycles});
  if (job.kind == Job::Baseline)
    argv.insert(argv.end(), {"--no-boveda-weights", "--no-boveda-activations"});
  return argv;
}

/// The key of a run: everything its result depends on. The counter list stands for the
/// hardware's event set, the tool's build id (its executable's hash) for the compiler, the
/// driver and the simulator.
std::string runKey(const EvalInputs& in, const EvalRequest& r, const Job& job) {
  std::string counters;
  for (const std::string& c : compiler::statFields())
    counters += c + ",";
  std::string key = std::string(kCacheFormat) + "|" + compiler::toolBuildId() + "|" +
                    in.hardware[job.config] + "|" + in.modelHash + "|" + in.inputHash + "|" +
                    r.accelModel + "|" + r.hal + "|" + counters +
                    (job.kind == Job::Baseline ? "|baseline" : "");
  for (const std::string& a : in.calibArgs)
    key += "|" + a;
  return key;
}

/// A cached entry {"key", <field>: a T}: usable when it parses as one.
template <class T> support::Maker entryMaker(std::optional<T>& result, const char* field) {
  support::Maker m;
  m.usable = [&result, field](const fs::path& entry) {
    if (!fs::exists(entry))
      return false;
    try {
      result = support::readJson(entry).at(field).get<T>();
      return true;
    } catch (const std::exception&) {
      return false; // unreadable: made again, and replaced
    }
  };
  return m;
}

void run(const EvalInputs& in, const EvalRequest& r, Job& job) {
  const config::Config& c = in.configs[job.config];
  const std::string key = runKey(in, r, job);
  const bool baseline = job.kind == Job::Baseline;
  const fs::path entry =
      in.cache / "eval" / "runs" /
      (c.name + (baseline ? "-baseline-" : "-") + support::hashHex(key) + ".json");
  support::Maker maker = entryMaker(job.run, "report");
  maker.make = [&](const fs::path& staging) {
    const Scratch scratch(in, c.name + (baseline ? "-baseline" : "-run"));
    const fs::path report = scratch.dir / "report.json";
    process::Options po;
    po.output = process::Output::CaptureMerged;
    const process::Result p = process::run(runArgv(in, r, job, report), po);
    if (fs::exists(report)) {
      job.run = support::readRecord<compiler::RunRecord>(report);
      const bool exact = job.run->check.exact();
      job.ok = p.status == 0 && exact;
      job.status = job.ok ? "ok" : "mismatch";
      if (!exact)
        job.message = support::lastLines(p.out, 3);
    } else {
      job.status = "failed";
      job.message = "brickyard run exited with " + std::to_string(p.status) + ": " +
                    support::lastLines(p.out + p.err, 4);
    }
    if (job.ok)
      support::writeFileAtomically(staging,
                                   nlohmann::json{{"key", key}, {"report", *job.run}}.dump());
    return job.ok;
  };
  findOrRun(entry, maker, job);
}

void area(const EvalInputs& in, Job& job) {
  const config::Config& c = in.configs[job.config];
  const std::string key =
      std::string(kCacheFormat) + "|" + compiler::toolVersion() + "|" + in.hardware[job.config];
  const fs::path entry =
      in.cache / "eval" / "area" / (c.name + "-" + support::hashHex(key) + ".json");
  support::Maker maker = entryMaker(job.area, "design");
  maker.make = [&](const fs::path& staging) {
    const Scratch scratch(in, c.name + "-area");
    const fs::path& dir = scratch.dir;
    process::Options po;
    po.output = process::Output::CaptureMerged;
    process::Result p = process::run(
        {in.self.string(), "gen", in.sources[job.config], "-o", (dir / "gen").string()}, po);
    if (p.status == 0)
      p = process::run({in.self.string(), "synth", (dir / "gen").string(), "-j", "1", "--cache-dir",
                        in.cache.string()},
                       po);
    const fs::path synth = dir / "gen" / "reports" / "synth.json";
    if (p.status == 0 && fs::exists(synth)) {
      job.area = support::readJson(synth).at("design").get<synthesis::DesignArea>();
      job.ok = true;
      job.status = "ok";
      support::writeFileAtomically(staging,
                                   nlohmann::json{{"key", key}, {"design", *job.area}}.dump());
    } else {
      job.status = "failed";
      job.message = "area: brickyard gen/synth exited with " + std::to_string(p.status) + ": " +
                    support::lastLines(p.out + p.err, 4);
    }
    return job.ok;
  };
  findOrRun(entry, maker, job);
}

} // namespace

std::vector<Job> planJobs(const EvalInputs& in, bool withArea) {
  std::vector<Job> jobs;
  for (size_t i = 0; i < in.configs.size(); ++i) {
    jobs.emplace_back(Job::Run, i);
    if (in.configs[i].boveda.enabled)
      jobs.emplace_back(Job::Baseline, i);
  }
  if (withArea)
    for (size_t i = 0; i < in.configs.size(); ++i)
      jobs.emplace_back(Job::Area, i);
  return jobs;
}

void executeJob(const EvalInputs& in, const EvalRequest& request, Job& job) {
  const auto start = Clock::now();
  if (job.kind == Job::Area)
    area(in, job);
  else
    run(in, request, job);
  job.seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

std::string jobLabel(const EvalInputs& in, const Job& job) {
  const char* kind = job.kind == Job::Run        ? "run"
                     : job.kind == Job::Baseline ? "run without Boveda compression"
                                                 : "area";
  return in.configs[job.config].name + " " + kind;
}

std::string jobSummary(const EvalInputs& in, const Job& j, size_t done, size_t total) {
  std::string what = j.status;
  if (j.ok && j.run) {
    uint64_t cycles = 0;
    for (const compiler::RunLayerRecord& l : j.run->layers)
      cycles += l.cycles;
    what = std::to_string(cycles) + " cycles, bit-exact";
  } else if (j.ok && j.area) {
    char t[64];
    std::snprintf(t, sizeof t, "%.3f M transistors", double(j.area->transistors) / 1e6);
    what = t;
  }
  const std::string took = j.cached ? "cached" : std::to_string(int(j.seconds + 0.5)) + " s";
  std::string text = "[" + std::to_string(done) + "/" + std::to_string(total) + "] " +
                     jobLabel(in, j) + ": " + what + " (" + took + ")\n";
  if (!j.ok && !j.message.empty())
    text += "    " + j.message + "\n";
  return text;
}

} // namespace by::eval
