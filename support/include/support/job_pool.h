// The one job pool: runs jobs a few at a time on threads and shows their progress. Eval's runs,
// a sweep's local points and synthesis' modules go through it (each job usually waits for a
// child process). Progress, when not quiet: a text per finished job (its caller's words) and,
// on a terminal, a live line naming the running jobs, redrawn twice a second:
//
//   [2/6] td_l4 run: 406087 cycles, bit-exact (42 s)
//     running: [tiny area] [boveda_tiny run] 57 s
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

namespace by::support {

struct JobProgress {
  size_t done = 0;    // jobs finished, this one included
  size_t total = 0;   // jobs in the pool
  double seconds = 0; // since the pool started
};

struct JobPoolOptions {
  int parallel = 1;           // jobs at a time (at least one)
  bool quiet = false;         // no progress at all
  std::FILE* stream = stderr; // where progress goes
  /// Names a running job in the live line; without it there is no live line.
  std::function<std::string(size_t job)> label;
  /// Ends the live line (elapsed time, an estimate of the rest).
  std::function<std::string(const JobProgress&)> liveTail;
  /// The text printed when a job has finished (lines ending in '\n'; may be empty).
  std::function<std::string(size_t job, const JobProgress&)> finished;
};

/// Runs run(0), ..., run(count - 1), `parallel` at a time, in order of their index. When a job
/// throws, no further job starts; the first exception is rethrown once the running ones ended.
void runJobPool(size_t count, const std::function<void(size_t job)>& run,
                const JobPoolOptions& options);

} // namespace by::support
