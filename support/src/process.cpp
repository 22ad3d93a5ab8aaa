#include "support/process.h"

#include <boost/process.hpp>
#include <cstdio>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace by::process {

namespace bp = boost::process;

namespace {

// The child's status as a shell reports it.
int shellStatus(int native) {
  if (WIFEXITED(native))
    return WEXITSTATUS(native);
  return WIFSIGNALED(native) ? 128 + WTERMSIG(native) : 127;
}

Result notStarted(const std::string& why, const Options& options) {
  Result r;
  r.status = 127;
  r.err = why + "\n";
  if (options.output == Output::AppendToLog)
    if (FILE* f = std::fopen(options.log.c_str(), "a")) {
      std::fputs(r.err.c_str(), f);
      std::fclose(f);
    }
  return r;
}

// Our environment with options.env added or replacing entries of the same name.
bp::environment environmentFor(const Options& options) {
  bp::environment env = boost::this_process::environment();
  for (const std::string& entry : options.env) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("environment entry '" + entry + "' is not NAME=VALUE");
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

// Everything left in `pipe`, up to the writer closing it.
std::string drain(bp::ipstream& pipe) {
  std::ostringstream text;
  text << pipe.rdbuf();
  return text.str();
}

} // namespace

std::filesystem::path find(const std::string& program) {
  if (program.empty())
    return {};
  if (program.find('/') != std::string::npos)
    return access(program.c_str(), X_OK) == 0 ? std::filesystem::path(program)
                                              : std::filesystem::path();
  return bp::search_path(program).string();
}

void require(const std::string& program, const std::string& debianPackage) {
  if (find(program).empty())
    throw std::runtime_error(program + " is not installed (Debian package " + debianPackage +
                             "); run scripts/setup.sh");
}

Result run(const std::vector<std::string>& argv, const Options& options) {
  if (argv.empty())
    return notStarted("no program to run", options);
  const std::filesystem::path exe = find(argv[0]);
  if (exe.empty())
    return notStarted("cannot run " + argv[0] + ": not found or not executable", options);
  const std::filesystem::path cwd =
      options.cwd.empty() ? std::filesystem::current_path() : options.cwd;
  std::error_code dirError;
  if (!std::filesystem::is_directory(cwd, dirError))
    return notStarted("cannot run " + argv[0] + " in " + cwd.string() + ": no such directory",
                      options);
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  const bp::environment env = environmentFor(options);

  Result r;
  std::error_code ec;
  bp::child child;
  switch (options.output) {
  case Output::Capture: {
    // Both pipes are drained concurrently (stderr on a thread of its own), so a child that fills
    // one cannot block on it. Plain blocking reads, not Boost.Asio: Asio's SIGCHLD service keeps a
    // process-wide self-pipe that it closes while its signal handler is still installed, and a
    // child exiting in that window killed the parent with SIGPIPE (once in CI).
    bp::ipstream outPipe, errPipe;
    child = bp::child(exe.string(), bp::args(args), bp::std_in<bp::null, bp::std_out> outPipe,
                      bp::std_err > errPipe, bp::start_dir(cwd.string()), env, ec);
    if (ec)
      break;
    std::thread errReader([&errPipe, &r] { r.err = drain(errPipe); });
    r.out = drain(outPipe);
    errReader.join();
    break;
  }
  case Output::CaptureMerged: {
    bp::ipstream pipe;
    child = bp::child(exe.string(), bp::args(args),
                      bp::std_in<bp::null, (bp::std_out & bp::std_err)> pipe,
                      bp::start_dir(cwd.string()), env, ec);
    if (ec)
      break;
    r.out = drain(pipe);
    break;
  }
  case Output::AppendToLog: {
    FILE* log = std::fopen(options.log.c_str(), "a");
    if (!log)
      return notStarted("cannot run " + argv[0] + ": cannot open the log " + options.log.string(),
                        options);
    child = bp::child(exe.string(), bp::args(args),
                      bp::std_in<bp::null, (bp::std_out & bp::std_err)> log,
                      bp::start_dir(cwd.string()), env, ec);
    std::fclose(log); // the child holds its own descriptor
    break;
  }
  }
  if (ec)
    return notStarted("cannot run " + argv[0] + ": " + ec.message(), options);
  child.wait(ec);
  if (ec)
    return notStarted("lost " + argv[0] + ": " + ec.message(), options);
  r.status = shellStatus(child.native_exit_code());
  return r;
}

} // namespace by::process
