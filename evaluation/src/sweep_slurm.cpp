// The Slurm backend of `brickyard sweep`: one job array per submission (task i runs point i
// with `brickyard sweep --run-point i`), the batch script kept in OUT_DIR/slurm/, the
// submissions and the tasks' last known states in OUT_DIR/slurm/jobs.json, and a wait that
// polls squeue. Results are not taken from Slurm: a point is done when its runner wrote its
// result record; Slurm's state only explains a point that has none (TIMEOUT, CANCELLED, ...).
#include "support/files.h"
#include "support/install.h"
#include "support/json.h"
#include "support/process.h"
#include "sweep_plan.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace by::eval::sweep {
namespace {

using Clock = std::chrono::steady_clock;

fs::path jobsPath(const fs::path& out) {
  return out / "slurm" / "jobs.json";
}

SlurmJobsRecord readJobs(const fs::path& out) {
  if (!fs::exists(jobsPath(out)))
    return {};
  return support::readRecord<SlurmJobsRecord, Json>(jobsPath(out));
}

void writeJobs(const fs::path& out, const SlurmJobsRecord& jobs) {
  support::writeFileAtomically(jobsPath(out), Json(jobs).dump(2) + "\n");
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// "0-3,5,7-9": the indices as Slurm's --array ranges.
std::string arraySpec(std::vector<size_t> idx) {
  std::sort(idx.begin(), idx.end());
  std::string out;
  for (size_t i = 0; i < idx.size();) {
    size_t j = i;
    while (j + 1 < idx.size() && idx[j + 1] == idx[j] + 1)
      ++j;
    out += (out.empty() ? "" : ",") + std::to_string(idx[i]) +
           (j > i ? "-" + std::to_string(idx[j]) : "");
    i = j + 1;
  }
  return out;
}

bool active(const std::string& state) {
  static const std::set<std::string> ended = {"COMPLETED",     "FAILED",    "CANCELLED", "TIMEOUT",
                                              "OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE",
                                              "SPECIAL_EXIT",  "REVOKED",   "PREEMPTED", "ENDED"};
  return !ended.count(state);
}

std::string run(const std::vector<std::string>& argv, int* status) {
  process::Options po;
  po.output = process::Output::Capture;
  const process::Result r = process::run(argv, po);
  *status = r.status;
  return r.status == 0 ? r.out : r.err + r.out;
}

/// Task states of one job array: task index -> state. Tasks Slurm no longer lists (purged
/// after MinJobAge) are absent; an unknown job gives an empty map.
std::map<size_t, std::string> queryTasks(const std::string& job) {
  int status = 0;
  const std::string text =
      run({"squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%K|%T"}, &status);
  std::map<size_t, std::string> out;
  if (status != 0) {
    if (text.find("Invalid job id") != std::string::npos)
      return out;
    throw std::runtime_error("squeue failed (exit " + std::to_string(status) + "): " + text);
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t bar = line.find('|');
    if (bar == std::string::npos)
      continue;
    try {
      out[std::stoul(line.substr(0, bar))] = line.substr(bar + 1);
    } catch (const std::exception&) {
      // "N/A": not an array task
    }
  }
  return out;
}

/// Final states from accounting, for tasks squeue has forgotten; empty when accounting is off.
std::map<size_t, std::string> accountingStates(const std::string& job) {
  int status = 0;
  const std::string text =
      run({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State"}, &status);
  std::map<size_t, std::string> out;
  if (status != 0)
    return out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t us = line.find('_'), bar = line.find('|');
    if (us == std::string::npos || bar == std::string::npos || bar < us)
      continue;
    try {
      std::string state = line.substr(bar + 1);
      state = state.substr(0, state.find(' ')); // "CANCELLED by 0"
      out[std::stoul(line.substr(us + 1, bar - us - 1))] = state;
    } catch (const std::exception&) {
    }
  }
  return out;
}

std::string writeScript(const fs::path& out, const std::string& name, int number,
                        const std::vector<size_t>& points, const SlurmOptions& s,
                        const fs::path& self) {
  const fs::path script = out / "slurm" / ("sweep-" + std::to_string(number) + ".sbatch");
  std::ostringstream os;
  os << "#!/bin/bash\n"
     << "# brickyard sweep '" << name << "', submission " << number
     << ": one Slurm array task per sweep point (task i runs point i of "
     << (out / "points.json").string() << ").\n"
     << "# Written and submitted by brickyard sweep --slurm; kept as the record of what ran.\n"
     << "# By hand: sbatch " << script.string()
     << " (a point that already has its result is not run again).\n"
     << "#SBATCH --job-name=by-sweep-" << name << "\n"
     << "#SBATCH --array=" << arraySpec(points) << "\n"
     << "#SBATCH --output=" << (out / "slurm" / "logs" / "%A_%a.out").string() << "\n"
     << "#SBATCH --chdir=" << out.string() << "\n";
  if (!s.partition.empty())
    os << "#SBATCH --partition=" << s.partition << "\n";
  if (!s.time.empty())
    os << "#SBATCH --time=" << s.time << "\n";
  if (s.cpusPerTask > 0)
    os << "#SBATCH --cpus-per-task=" << s.cpusPerTask << "\n";
  if (!s.account.empty())
    os << "#SBATCH --account=" << s.account << "\n";
  for (const std::string& o : s.sbatchOptions)
    os << "#SBATCH " << o << "\n";
  os << "set -e\n";
  for (const std::string& line : s.setup)
    os << line << "\n";
  os << "exec " << shellQuote(self.string()) << " sweep --run-point \"$SLURM_ARRAY_TASK_ID\" -o "
     << shellQuote(out.string()) << "\n";
  support::writeFileAtomically(script, os.str());
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return script.string();
}

// The latest submission of every point: point -> (job, index of the submission).
std::map<size_t, std::string> latestJobs(const SlurmJobsRecord& jobs) {
  std::map<size_t, std::string> out;
  for (const SlurmSubmission& s : jobs.submissions)
    for (size_t p : s.points)
      out[p] = s.job;
  return out;
}

/// Polls Slurm for the latest task of every point in `points`, records the states in
/// jobs.json; returns point -> state ("ENDED" for a task Slurm no longer lists).
std::map<size_t, std::string> poll(const fs::path& out, SlurmJobsRecord& jobs,
                                   const std::set<size_t>& points) {
  const std::map<size_t, std::string> latest = latestJobs(jobs);
  std::map<std::string, std::map<size_t, std::string>> byJob;
  std::map<size_t, std::string> states;
  for (size_t p : points) {
    auto it = latest.find(p);
    if (it == latest.end())
      continue;
    if (!byJob.count(it->second))
      byJob[it->second] = queryTasks(it->second);
    auto s = byJob[it->second].find(p);
    states[p] = s == byJob[it->second].end() ? "ENDED" : s->second;
  }
  // Tasks squeue has forgotten: accounting may still know how they ended.
  std::map<std::string, std::map<size_t, std::string>> acct;
  for (auto& [p, state] : states)
    if (state == "ENDED") {
      const std::string& job = latest.at(p);
      if (!acct.count(job))
        acct[job] = accountingStates(job);
      auto a = acct[job].find(p);
      if (a != acct[job].end())
        state = a->second;
    }
  bool changed = false;
  for (const auto& [p, state] : states) {
    if (jobs.states[p] != state) {
      jobs.states[p] = state;
      changed = true;
    }
  }
  if (changed)
    writeJobs(out, jobs);
  return states;
}

} // namespace

bool runSlurm(const fs::path& out, const std::string& name, const std::vector<PointPlan>& pending,
              const SlurmOptions& slurm) {
  process::require("sbatch", "slurm-client");
  process::require("squeue", "slurm-client");
  fs::create_directories(out / "slurm" / "logs");
  SlurmJobsRecord jobs = readJobs(out);

  // Points an earlier submission still has queued or running are waited for, not resubmitted.
  std::set<size_t> want;
  for (const PointPlan& p : pending)
    want.insert(p.index);
  std::set<size_t> inFlight;
  for (const auto& [p, state] : poll(out, jobs, want))
    if (active(state))
      inFlight.insert(p);
  std::vector<size_t> submit;
  for (size_t p : want)
    if (!inFlight.count(p))
      submit.push_back(p);
  if (!inFlight.empty() && !slurm.quiet)
    std::fprintf(stderr,
                 "brickyard sweep: %zu points are still queued or running from an "
                 "earlier submission; waiting for them\n",
                 inFlight.size());

  if (!submit.empty()) {
    const int number = int(jobs.submissions.size()) + 1;
    const std::string script =
        writeScript(out, name, number, submit, slurm, support::executablePath());
    int status = 0;
    const std::string reply = run({"sbatch", "--parsable", script}, &status);
    if (status != 0)
      throw std::runtime_error("sbatch " + script + " failed (exit " + std::to_string(status) +
                               "): " + reply);
    std::string job = reply.substr(0, reply.find_first_of(";\n"));
    const std::time_t t = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
    jobs.submissions.push_back({job, fs::relative(script, out).string(), submit, when});
    for (size_t p : submit)
      jobs.states[p] = "PENDING";
    writeJobs(out, jobs);
    if (!slurm.quiet)
      std::fprintf(stderr,
                   "brickyard sweep: submitted Slurm job %s: %zu task%s (--array=%s), script %s, "
                   "logs in %s\n",
                   job.c_str(), submit.size(), submit.size() == 1 ? "" : "s",
                   arraySpec(submit).c_str(), script.c_str(), (out / "slurm" / "logs").c_str());
  }
  if (!slurm.wait) {
    if (!slurm.quiet)
      std::fprintf(stderr, "brickyard sweep: not waiting (--no-wait); run the same command again "
                           "to wait for the tasks and collect the results\n");
    return false;
  }
  if (!slurm.quiet)
    std::fprintf(stderr,
                 "brickyard sweep: waiting for %zu task%s (squeue every %d s; Ctrl-C "
                 "stops waiting, the tasks go on: rerun the command to collect)\n",
                 want.size(), want.size() == 1 ? "" : "s", slurm.pollSeconds);
  const auto start = Clock::now();
  std::string last;
  for (;;) {
    const std::map<size_t, std::string> states = poll(out, jobs, want);
    std::map<std::string, size_t> count;
    size_t activeCount = 0;
    for (const auto& [p, s] : states) {
      ++count[s];
      activeCount += active(s);
    }
    std::string line;
    for (const auto& [s, n] : count)
      line += (line.empty() ? "" : ", ") + std::to_string(n) + " " + s;
    if (line != last && !slurm.quiet) {
      const double sec = std::chrono::duration<double>(Clock::now() - start).count();
      std::fprintf(stderr, "  slurm: %s (%.0f s)\n", line.c_str(), sec);
      last = line;
    }
    if (activeCount == 0)
      break;
    std::this_thread::sleep_for(std::chrono::seconds(slurm.pollSeconds));
  }
  return true;
}

std::vector<std::pair<size_t, SlurmTaskInfo>> slurmTasks(const fs::path& out) {
  std::vector<std::pair<size_t, SlurmTaskInfo>> tasks;
  if (!fs::exists(jobsPath(out)))
    return tasks;
  const SlurmJobsRecord jobs = readJobs(out);
  for (const auto& [p, job] : latestJobs(jobs)) {
    SlurmTaskInfo t;
    t.job = job + "_" + std::to_string(p);
    const auto state = jobs.states.find(p);
    t.state = state == jobs.states.end() ? "" : state->second;
    t.log = out / "slurm" / "logs" / (t.job + ".out");
    tasks.emplace_back(p, t);
  }
  return tasks;
}

} // namespace by::eval::sweep
