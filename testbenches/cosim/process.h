// Running a simulator as a child process (one SystemC elaboration per process) and
// capturing its stdout, stderr and exit status separately.
#pragma once

#include <string>
#include <vector>

namespace by::test {

struct ProcessResult {
  int status = -1; // exit code, or 128 + signal
  std::string out;
  std::string err;
};

/// Runs argv[0] (a path) with the arguments. Throws std::runtime_error if it cannot start.
ProcessResult runProcess(const std::vector<std::string>& argv);

/// Lines of `text` (without the newlines; a last line without newline counts).
std::vector<std::string> splitLines(const std::string& text);

} // namespace by::test
