// The end of a sweep: the table from the points' records (results.json, results.csv), the
// Pareto plots, a line per point and model for people and the list of failed points.
#include "brickyard_version.h"
#include "eval/plots.h"
#include "eval/sweep_table.h"
#include "support/files.h"
#include "support/json.h"
#include "sweep_plan.h"

#include <cstdio>
#include <map>

namespace by::eval::sweep {
namespace {

/// The points as the table sees them: their plan, their record, their models' eval reports.
std::vector<SweepPointResult> readRecords(const Prepared& pr, const fs::path& out) {
  const SweepSpec& spec = pr.spec;
  const Json plan = support::readJson<Json>(out / "points.json");
  std::vector<SweepPointResult> results;
  for (size_t i = 0; i < pr.points.size(); ++i) {
    const PointPlan& p = pr.points[i];
    const Json& pj = plan["points"][i];
    SweepPointResult r;
    r.index = p.index;
    r.id = p.id;
    r.log = p.valid ? fs::relative(logPath(out, p.id), out).string() : "";
    for (const std::string& k : spec.keys)
      if (pj["values"].contains(k))
        r.values.emplace_back(k, pj["values"][k].get<std::string>());
    r.configName = pj.value("config_name", "");
    r.configHash = pj.value("config_hash", "");
    const Json rec = p.valid ? readResult(out, p) : Json();
    if (!p.valid) {
      r.status = "invalid";
      r.message = p.message;
    } else if (rec.is_null()) {
      r.status = "missing";
      r.message = "no result";
    } else {
      r.status = rec.value("status", "failed");
      r.wallSeconds = rec.value("wall_seconds", 0.0);
    }
    for (size_t m = 0; m < spec.models.size(); ++m) {
      SweepModelResult mr;
      mr.name = spec.models[m].name;
      mr.status = "missing";
      if (!rec.is_null())
        for (const Json& e : rec["models"])
          if (e.value("name", "") == mr.name) {
            mr.status = e.value("status", "failed");
            mr.message = e.value("message", "");
            mr.report = e["report"].is_string() ? e["report"].get<std::string>() : "";
          }
      if (!mr.report.empty() && fs::exists(out / mr.report)) {
        try {
          mr.config = Json(support::readJson<Json>(out / mr.report).at("configs").at(0));
        } catch (const std::exception&) {
          mr.status = "failed";
          mr.message = "unreadable report " + mr.report;
        }
      } else if (mr.status == "ok") {
        mr.status = "missing";
        mr.message = "the report " + mr.report + " is gone";
      }
      r.models.push_back(mr);
    }
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

std::string human(const Json& v) {
  if (!v.is_number())
    return "-";
  const double d = v.get<double>();
  char b[32];
  if (d >= 1e9)
    std::snprintf(b, sizeof b, "%.2fG", d / 1e9);
  else if (d >= 1e6)
    std::snprintf(b, sizeof b, "%.2fM", d / 1e6);
  else if (d >= 1e4)
    std::snprintf(b, sizeof b, "%.1fk", d / 1e3);
  else
    std::snprintf(b, sizeof b, "%.4g", d);
  return b;
}

/// A line per point and model on stdout: the table for people.
void printRows(const Prepared& pr, const std::vector<SweepPointResult>& results) {
  for (const SweepPointResult& r : results)
    for (const SweepModelResult& m : r.models) {
      std::printf("%-5s %-8s %-10s", r.id.c_str(),
                  r.status == "ok" ? m.status.c_str() : r.status.c_str(), m.name.c_str());
      if (!m.config.is_null() && m.config.contains("totals"))
        std::printf(
            " %9s cycles  util %5.1f%%  %9s pJ  area %9s  %s",
            human(m.config["totals"]["total_cycles"]).c_str(),
            100 * m.config["totals"].value("utilization", 0.0),
            human(m.config["energy"]["total_pj"]).c_str(),
            human(m.config["area"].is_object() ? m.config["area"]["transistors"] : Json()).c_str(),
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
