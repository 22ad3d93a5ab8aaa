#include "cli_runner.h"

#include "support/process.h"

namespace by::test {

CliResult runProgram(const std::vector<std::string>& argv) {
  const process::Result r = process::run(argv);
  return {r.status, r.out, r.err};
}

CliResult runBrickyard(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {BY_BRICKYARD};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProgram(argv);
}

std::string sourcePath(const std::string& rel) {
  return std::string(BY_SOURCE_DIR) + "/" + rel;
}

} // namespace by::test
