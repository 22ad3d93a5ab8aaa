// Runs the brickyard binary built in this tree and captures exit status, stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace by::test {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

CliResult runBrickyard(const std::vector<std::string>& args);
/// Runs any program (argv[0] looked up on PATH).
CliResult runProgram(const std::vector<std::string>& argv);

} // namespace by::test
