// Runs the brickyard binary built in this tree and captures exit status, stdout and stderr;
// names files of the source tree.
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
/// A file of the source tree: BY_SOURCE_DIR + "/" + rel.
std::string sourcePath(const std::string& rel);

} // namespace by::test
