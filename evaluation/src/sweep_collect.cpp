// The end of a sweep: the table from the points' records (results.json, results.csv), the
// Pareto plots, a line per point and model for people and the list of failed points.
#include "brickyard_version.h"
#include "eval/plots.h"
#include "eval/report.h"
#include "eval/sweep_table.h"
#include "support/files.h"
#include "support/format.h"
#include "support/json.h"
#include "sweep_plan.h"

#include <cstdio>
#include <map>

namespace by::eval::sweep {
namespace {

/// The points as the table sees them: their plan, their record, their models' eval reports.
/// A model's row of a point: its outcome in the point's record and its eval report.
SweepModelResult modelResult(const fs::path& out, const std::string& name,
                             const std::optional<PointRecord>& rec) {
  SweepModelResult mr;
  mr.name = name;
  mr.status = "missing";
  if (rec)
    for (const ModelOutcome& e : rec->models)
      if (e.name == name) {
        mr.status = e.status;
        mr.message = e.message;
        mr.report = e.report.value_or("");
      }
  if (!mr.report.empty() && fs::exists(out / mr.report)) {
    try {
      mr.config = support::readRecord<EvalReport, Json>(out / mr.report).configs.at(0);
    } catch (const std::exception&) {
      mr.status = "failed";
      mr.message = "unreadable report " + mr.report;
    }
  } else if (mr.status == "ok") {
    mr.status = "missing";
    mr.message = "the report " + mr.report + " is gone";
  }
  return mr;
}

/// The points as the table sees them: their plan, their record, their models' eval reports.
std::vector<SweepPointResult> readRecords(const Prepared& pr, const fs::path& out) {
  const SweepSpec& spec = pr.spec;
  const SweepPlanRecord plan = support::readRecord<SweepPlanRecord, Json>(out / "points.json");
  std::vector<SweepPointResult> results;
  for (size_t i = 0; i < pr.points.size(); ++i) {
    const PointPlan& p = pr.points[i];
    const PlannedPoint& planned = plan.points.at(i);
    SweepPointResult r;
    r.index = p.index;
    r.id = p.id;
    r.log = p.valid ? fs::relative(logPath(out, p.id), out).string() : "";
    for (const std::string& k : spec.keys)
      for (const auto& [key, value] : planned.values)
        if (key == k)
          r.values.emplace_back(k, value);
    r.configName = planned.configName;
    r.configHash = planned.configHash;
    const std::optional<PointRecord> rec =
        p.valid ? readResult(out, p) : std::optional<PointRecord>();
    if (!p.valid) {
      r.status = "invalid";
      r.message = p.message;
    } else if (!rec) {
      r.status = "missing";
      r.message = "no result";
    } else {
      r.status = rec->status;
      r.wallSeconds = rec->wallSeconds;
    }
    for (const SweepModel& m : spec.models)
      r.models.push_back(modelResult(out, m.name, rec));
    results.push_back(r);
  }
  return results;
}

/// results.json, results.csv and the plots.
void writeTable(const Prepared& pr, const fs::path& out,
                const std::vector<SweepPointResult>& results, bool quiet) {
  const SweepSpec& spec = pr.spec;
  const Json rows = sweepRows(results, spec.keys);
  Json report;
  report["generator"] = std::string("brickyard sweep ") + BRICKYARD_VERSION;
  report["name"] = spec.name;
  report["spec"] = fs::absolute(spec.file).string();
  report["base"] = pr.basePath;
  report["keys"] = spec.keys;
  report["eval"] = {{"model", spec.eval.model},
                    {"area", spec.eval.area},
                    {"seed", spec.eval.seed},
                    {"hal", spec.eval.hal}};
  Json models = Json::array();
  for (const SweepModel& m : spec.models)
    models.push_back({{"name", m.name}, {"path", m.path}, {"input", m.input}});
  report["models"] = models;
  Json pts = Json::array();
  for (const SweepPointResult& r : results) {
    Json values = Json::object();
    for (const auto& [k, v] : r.values)
      values[k] = v;
    pts.push_back({{"point", r.index},
                   {"id", r.id},
                   {"status", r.status},
                   {"overrides", pr.points[r.index].label},
                   {"values", values},
                   {"config", r.configName},
                   {"log", r.log},
                   {"message", r.message}});
  }
  report["points"] = pts;
  report["rows"] = rows;
  support::writeFileAtomically(out / "results.json", report.dump(2) + "\n");
  support::writeFileAtomically(out / "results.csv", sweepCsv(rows, spec.keys));

  const std::string plots =
      drawPlots("sweep_plots.py", {(out / "results.json").string(), out.string()});
  if (!quiet && !plots.empty())
    std::fprintf(stderr, "%s", plots.c_str());
}

/// A line per point and model on stdout: the table for people.
void printRows(const Prepared& pr, const std::vector<SweepPointResult>& results) {
  for (const SweepPointResult& r : results)
    for (const SweepModelResult& m : r.models) {
      std::printf("%-5s %-8s %-10s", r.id.c_str(),
                  r.status == "ok" ? m.status.c_str() : r.status.c_str(), m.name.c_str());
      if (m.config && m.config->figures)
        std::printf(
            " %9s cycles  util %5.1f%%  %9s pJ  area %9s  %s",
            support::humanNumber(double(m.config->figures->totals.totalCycles), "%.4g").c_str(),
            100 * m.config->figures->totals.utilization,
            support::humanNumber(m.config->figures->energy.totalPj, "%.4g").c_str(),
            m.config->area
                ? support::humanNumber(double(m.config->area->transistors), "%.4g").c_str()
                : "-",
            pr.points[r.index].label.c_str());
      else
        std::printf(" %s", pr.points[r.index].label.c_str());
      std::printf("\n");
    }
}

/// The points that failed or have no result, with why, their logs and their Slurm tasks.
void printFailed(const Prepared& pr, const fs::path& out,
                 const std::vector<const SweepPointResult*>& failed, bool slurm) {
  std::map<size_t, SlurmTaskInfo> tasks;
  for (const auto& [pt, t] : slurmTasks(out))
    tasks[pt] = t;
  std::fprintf(stderr, "brickyard sweep: %zu point%s failed or %s no result:\n", failed.size(),
               failed.size() == 1 ? "" : "s", failed.size() == 1 ? "has" : "have");
  for (const SweepPointResult* r : failed) {
    std::string why = r->message;
    for (const SweepModelResult& m : r->models)
      if (m.status != "ok" && !m.message.empty())
        why += (why.empty() ? "" : "; ") + m.name + ": " + m.message;
    std::fprintf(stderr, "  %s (%s): %s; log %s", r->id.c_str(), pr.points[r->index].label.c_str(),
                 why.c_str(), (out / logPath(out, r->id).lexically_relative(out)).c_str());
    if (slurm && tasks.count(r->index))
      std::fprintf(stderr, "; Slurm task %s %s, log %s", tasks[r->index].job.c_str(),
                   tasks[r->index].state.c_str(), tasks[r->index].log.c_str());
    std::fprintf(stderr, "\n");
  }
  std::fprintf(stderr, "  rerun the same command to run only these points again\n");
}

} // namespace

size_t collect(const Prepared& pr, const fs::path& out, bool slurm, bool quiet, bool* allOk) {
  const std::vector<SweepPointResult> results = readRecords(pr, out);
  writeTable(pr, out, results, quiet);
  size_t ok = 0;
  std::vector<const SweepPointResult*> failed;
  for (const SweepPointResult& r : results) {
    if (r.status == "ok")
      ++ok;
    else if (r.status != "invalid")
      failed.push_back(&r);
  }
  printRows(pr, results);
  if (!failed.empty())
    printFailed(pr, out, failed, slurm);
  *allOk = failed.empty();
  return ok;
}

} // namespace by::eval::sweep
