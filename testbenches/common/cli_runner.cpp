#include "cli_runner.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace by::test {

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

CliResult runProgram(const std::vector<std::string>& argv) {
  char outName[] = "/tmp/by_cli_out_XXXXXX";
  char errName[] = "/tmp/by_cli_err_XXXXXX";
  const int outFd = mkstemp(outName);
  const int errFd = mkstemp(errName);
  CliResult r;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(outFd, STDOUT_FILENO);
    dup2(errFd, STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(outFd);
  close(errFd);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(outName);
  r.err = slurp(errName);
  std::remove(outName);
  std::remove(errName);
  return r;
}

CliResult runBrickyard(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {BY_BRICKYARD};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProgram(argv);
}

} // namespace by::test
