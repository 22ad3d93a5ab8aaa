#include "eval/evaluate.h"

#include "brickyard_version.h"
#include "compiler/compile.h"
#include "eval/energy.h"
#include "eval/plots.h"
#include "eval/report.h"
#include "eval_inputs.h"
#include "eval_jobs.h"
#include "support/files.h"
#include "support/job_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace by::eval {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void runJobs(const EvalInputs& in, const EvalRequest& r, std::vector<Job>& jobs) {
  support::JobPoolOptions o;
  o.parallel = r.jobs;
  o.quiet = r.quiet;
  o.label = [&](size_t j) { return "[" + jobLabel(in, jobs[j]) + "]"; };
  o.liveTail = [](const support::JobProgress& p) {
    char t[32];
    std::snprintf(t, sizeof t, " %.0f s", p.seconds);
    return std::string(t);
  };
  o.finished = [&](size_t j, const support::JobProgress& p) {
    return jobSummary(in, jobs[j], p.done, p.total);
  };
  support::runJobPool(
      jobs.size(), [&](size_t j) { executeJob(in, r, jobs[j]); }, o);
}

/// One config's evaluation from its jobs' outcomes.
ConfigRun configRun(const EvalInputs& in, const EvalRequest& r, const std::vector<Job>& jobs,
                    size_t i) {
  ConfigRun run;
  run.config = in.configs[i];
  run.source = in.sources[i];
  run.configHash = in.configHashes[i];
  run.model = r.accelModel;
  run.batch = in.batch;
  for (const Job& j : jobs) {
    if (j.config != i)
      continue;
    if (j.kind == Job::Run) {
      run.ok = j.ok;
      run.status = j.status;
      run.message = j.message;
      run.cached = j.cached;
      run.wallSeconds = j.seconds;
      run.run = j.run;
    } else if (j.kind == Job::Baseline && j.ok) {
      run.baseline = j.run;
    } else if (j.ok) {
      run.area = j.area;
    } else {
      run.ok = false;
      run.status = "failed";
      run.message += (run.message.empty() ? "" : "; ") +
                     std::string(j.kind == Job::Baseline ? "baseline: " : "") + j.message;
    }
  }
  return run;
}

EvalReport buildReport(const EvalInputs& in, const EvalRequest& r, const std::vector<Job>& jobs) {
  EvalReport report;
  report.generator = std::string("brickyard eval ") + BRICKYARD_VERSION;
  report.version = compiler::toolVersion();
  report.model = {r.model, in.modelHash, in.batch, in.inputShape, in.layers};
  report.input = {in.inputDescription, in.inputHash, in.seed};
  report.acceleratorModel = r.accelModel;
  for (size_t i = 0; i < in.configs.size(); ++i)
    report.configs.push_back(evaluateConfig(configRun(in, r, jobs, i)));
  compareToFirst(report.configs);
  report.energyTable = energyTable();
  return report;
}

void writeReport(const EvalInputs& in, const EvalReport& report, support::StagedDirectory& out) {
  out.write("manifest.json", Json{{"generator", report.generator},
                                  {"command", "eval"},
                                  {"files",
                                   {"report.json", "layers.csv", "report.md", "utilization.png",
                                    "cycles.png", "energy.png", "speedup.png", "dram_traffic.png"}}}
                                     .dump(2) +
                                 "\n");
  out.write("report.json", Json(report).dump(2) + "\n");
  out.write("layers.csv", layersCsv(report));
  out.write("report.md", reportMarkdown(report));
  if (in.seed)
    fs::copy_file(in.inputPath, out.stagingPath() / "input.npy");
  drawPlots("eval_plots.py", {out.stagingPath().string()});
}

/// One line per config on stdout: the figures people compare.
void printSummary(const EvalReport& report) {
  for (const ConfigReport& c : report.configs) {
    std::printf("%-16s %-9s", c.name.c_str(), c.status.c_str());
    if (c.figures)
      std::printf(" %12lld cycles  util %5.1f%%  %10.4g uJ/inference  speedup %.3fx  energy %.3fx",
                  static_cast<long long>(c.figures->totals.totalCycles),
                  100 * c.figures->totals.utilization, c.figures->derived.energyPerInferenceUj,
                  c.figures->derived.speedupVsFirst.value_or(0),
                  c.figures->derived.energyRatioVsFirst.value_or(0));
    std::printf("\n");
  }
}

} // namespace

bool evaluate(const EvalRequest& r) {
  // Everything is checked before anything runs: configs, model, input, output.
  const EvalInputs in = prepareInputs(r);
  support::StagedDirectory out(r.outDir); // OutputRefused: exit 2
  std::vector<Job> jobs = planJobs(in, r.area);
  if (!r.quiet)
    std::fprintf(stderr, "brickyard eval: %s on %zu configs (%s model): %zu jobs, %d at a time\n",
                 r.model.c_str(), in.configs.size(), r.accelModel.c_str(), jobs.size(), r.jobs);
  const auto start = Clock::now();
  runJobs(in, r, jobs);
  EvalReport report = buildReport(in, r, jobs);
  report.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  writeReport(in, report, out);
  out.commit();
  if (!r.quiet) {
    size_t runs = 0, cached = 0;
    for (const Job& j : jobs)
      if (j.kind != Job::Area) {
        ++runs;
        cached += j.cached;
      }
    std::fprintf(stderr,
                 "brickyard eval: %zu of %zu runs cached; wrote %s (report.md, "
                 "report.json, layers.csv, plots) in %.1f s\n",
                 cached, runs, r.outDir.c_str(), report.wallSeconds);
  }
  printSummary(report);
  return std::all_of(report.configs.begin(), report.configs.end(),
                     [](const ConfigReport& c) { return c.status == "ok"; });
}

} // namespace by::eval
