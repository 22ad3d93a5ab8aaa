// The units of work of an evaluation: a config's run, its Boveda baseline (the same run with the
// weights uncompressed) and its area. Each is a child process of this executable whose result
// is cached under a key of everything it depends on (support/cache.h):
//
//   <cache>/eval/runs/<config>[-baseline]-<key>.json   {"key", "report": brickyard run's report}
//   <cache>/eval/area/<config>-<key>.json              {"key", "design": synth.json's design}
//
// Only runs that ended bit-exact and areas that were synthesized are kept.
#pragma once

#include "compiler/run_report.h"
#include "eval_inputs.h"
#include "synthesis/report.h"

#include <optional>
#include <string>

namespace by::eval {

struct Job {
  enum Kind { Run, Baseline, Area };
  Job(Kind k, size_t c) : kind(k), config(c) {}
  Kind kind;
  size_t config; // index into EvalInputs::configs
  // The outcome.
  bool ok = false, cached = false;
  std::string status; // ok, mismatch, failed
  std::string message;
  double seconds = 0;
  std::optional<compiler::RunRecord> run;    // Run, Baseline: `brickyard run --report`'s record
  std::optional<synthesis::DesignArea> area; // Area: synth.json's design section
};

/// The jobs of an evaluation: every config's run (and baseline, for Boveda configs), then,
/// with `area`, every config's area.
std::vector<Job> planJobs(const EvalInputs& in, bool area);

/// Runs one job (from the cache when it can) and records its outcome in it.
void executeJob(const EvalInputs& in, const EvalRequest& request, Job& job);

/// "tiny run", "boveda_tiny run without Boveda weights", "td_l4 area".
std::string jobLabel(const EvalInputs& in, const Job& job);
/// The progress line of a finished job: "[2/4] td_l4 run: 406087 cycles, bit-exact (42 s)",
/// and its message on a second line when it failed.
std::string jobSummary(const EvalInputs& in, const Job& job, size_t done, size_t total);

} // namespace by::eval
