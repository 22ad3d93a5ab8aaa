// `brickyard sweep` from start to end: prepare (check everything), write the plan, run the
// points that have no result on the chosen back end, collect the table.
#include "eval/sweep.h"

#include "brickyard_version.h"
#include "support/files.h"
#include "sweep_plan.h"

#include <chrono>
#include <cstdio>

namespace by::eval {
namespace {

using namespace sweep;

/// Refuses a folder that is something else; writes the manifest, the spec and the plan.
void startOutput(Prepared& pr, const fs::path& out, const std::string& specPath) {
  if (fs::exists(out) &&
      (!fs::is_directory(out) || (!fs::is_empty(out) && !fs::exists(out / "points.json"))))
    throw support::OutputRefused(out.string() + " exists and is not a sweep output folder (no "
                                                "points.json); choose another -o");
  fs::create_directories(out);
  support::writeFileAtomically(
      out / "manifest.json",
      Json{{"generator", std::string("brickyard sweep ") + BRICKYARD_VERSION},
           {"command", "sweep"},
           {"files",
            {"points.json", "spec.yaml", "results.json", "results.csv", "pareto_cycles_area.png",
             "pareto_energy_area.png", "pareto_cycles_energy.png", "points/", "slurm/"}}}
              .dump(2) +
          "\n");
  support::writeFileAtomically(out / "spec.yaml", support::readFile(specPath));
  writePlan(pr, out, pr.spec.cacheDir);
}

SlurmOptions slurmOptions(const SweepRequest& r, const SweepSpec& spec) {
  SlurmOptions so;
  so.partition = r.partition.empty() ? spec.slurm.partition : r.partition;
  so.time = r.time.empty() ? spec.slurm.time : r.time;
  so.account = r.account.empty() ? spec.slurm.account : r.account;
  so.cpusPerTask = r.cpusPerTask.value_or(spec.slurm.cpusPerTask);
  so.sbatchOptions = spec.slurm.sbatchOptions;
  so.setup = spec.slurm.setup;
  so.pollSeconds = r.pollSeconds.value_or(spec.slurm.pollSeconds);
  so.wait = r.wait;
  so.quiet = r.quiet;
  return so;
}

} // namespace

SweepOutcome runSweep(const SweepRequest& r) {
  Prepared pr = prepare(r);
  const SweepSpec& spec = pr.spec;
  size_t validCount = 0;
  for (const PointPlan& pt : pr.points)
    validCount += pt.valid;
  if (!pr.bad.empty() && (!r.skipInvalid || validCount == 0)) {
    for (const std::string& line : pr.bad)
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fprintf(stderr, "brickyard sweep: error: %zu of %zu points rejected; nothing was run%s\n",
                 pr.bad.size(), pr.points.size(),
                 r.skipInvalid ? "" : " (--skip-invalid runs the others)");
    return SweepOutcome::Rejected;
  }
  const bool local = r.backend == SweepRequest::Backend::Local;
  const fs::path out =
      fs::absolute(r.outDir.empty() ? fs::path("out/sweep-" + spec.name) : r.outDir);
  startOutput(pr, out, r.spec);

  std::vector<PointPlan> pending;
  size_t done = 0;
  for (const PointPlan& pt : pr.points)
    if (pt.valid && finished(out, pt))
      ++done;
    else if (pt.valid)
      pending.push_back(pt);
  if (!r.quiet) {
    for (const std::string& line : pr.bad)
      std::fprintf(stderr, "%s (skipped)\n", line.c_str());
    std::fprintf(stderr,
                 "brickyard sweep: '%s': %zu points x %zu models (%s model%s), %zu already "
                 "finished, %zu to run %s; output %s\n",
                 spec.name.c_str(), validCount, spec.models.size(), spec.eval.model.c_str(),
                 spec.eval.area ? ", area" : "", done, pending.size(),
                 local ? ("on this machine, " + std::to_string(r.jobs) + " at a time").c_str()
                       : "on Slurm",
                 out.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  if (local && !pending.empty())
    runLocal(out, pending, r.jobs, r.quiet);
  else if (!local && !pending.empty() && !runSlurm(out, spec.name, pending, slurmOptions(r, spec)))
    return SweepOutcome::Submitted; // --no-wait: a rerun waits and collects
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  bool allOk = false;
  const size_t ok = collect(pr, out, !local, r.quiet, &allOk);
  if (!r.quiet)
    std::fprintf(stderr,
                 "brickyard sweep: %zu of %zu points ok (%zu run now in %.0f s); wrote %s "
                 "(results.csv, results.json, plots)\n",
                 ok, validCount, pending.size(), seconds, out.c_str());
  return allOk ? SweepOutcome::AllOk : SweepOutcome::Failed;
}

} // namespace by::eval
