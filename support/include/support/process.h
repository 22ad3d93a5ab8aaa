// Running a program as a child process (Boost.Process): the one runner behind every tool
// Brickyard starts (Verilator, Icarus, Yosys, the RISC-V compiler, Slurm's commands), every
// `brickyard` it starts itself (eval's runs, a sweep's points) and the tests that run it. Its
// own namespace, `process`, names what it is about: process::run, process::Options.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace by::process {

/// Where the child's standard output and standard error go.
enum class Output {
  Capture,       // into Result::out and Result::err, each on its own
  CaptureMerged, // both into Result::out, in the order the child wrote them
  AppendToLog,   // both appended to Options::log
};

struct Options {
  std::filesystem::path cwd;    // working directory; empty: ours
  std::vector<std::string> env; // NAME=VALUE entries added to our environment (or replacing)
  Output output = Output::Capture;
  std::filesystem::path log; // the file of Output::AppendToLog (created if missing)
};

struct Result {
  int status = 0;  // the exit status, 128 + the signal if it was killed, 127 if it never ran
  std::string out; // captured standard output (with CaptureMerged, also standard error)
  std::string err; // captured standard error; why it never ran, for status 127
};

/// Runs argv (argv[0] a path, or looked up on PATH) with standard input from /dev/null and
/// waits for it. A program that cannot be started (not found, not executable, a working
/// directory or log that cannot be used) gives status 127 with the reason in `err` (and in the
/// log), as a shell would; nothing is thrown.
Result run(const std::vector<std::string>& argv, const Options& options = {});

/// The executable `program` names: itself if it contains a '/', else the first match on PATH;
/// empty if there is none.
std::filesystem::path find(const std::string& program);

/// Throws std::runtime_error naming the Debian package to install when `program` cannot be
/// found (a tool Brickyard needs and does not ship).
void require(const std::string& program, const std::string& debianPackage);

} // namespace by::process
