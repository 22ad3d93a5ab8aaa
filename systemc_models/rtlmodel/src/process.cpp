#include "process.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace by::rtlmodel {

int runLogged(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
              const std::filesystem::path& log, const std::vector<std::string>& env) {
  // Everything the child needs is prepared before fork: only async-signal-safe calls after.
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The environment: ours, with `env` replacing entries of the same name.
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& o : env)
      replaced |= o.compare(0, name.size() + 1, name + "=") == 0;
    if (!replaced)
      environment.push_back(entry);
  }
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (const std::string& e : environment)
    envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const int logFd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (logFd < 0)
    return 127;
  const std::string dir = cwd.string();
  const pid_t pid = fork();
  if (pid < 0) {
    close(logFd);
    return 127;
  }
  if (pid == 0) {
    const int nullFd = open("/dev/null", O_RDONLY);
    if (nullFd >= 0)
      dup2(nullFd, 0);
    dup2(logFd, 1);
    dup2(logFd, 2);
    if (chdir(dir.c_str()) != 0)
      _exit(127);
    execvpe(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(logFd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 127;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

bool programExists(const std::string& program) {
  if (program.find('/') != std::string::npos)
    return access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0)
      return true;
    start = end + 1;
  }
  return false;
}

std::string tailOfFile(const std::filesystem::path& path, int lines) {
  std::ifstream in(path);
  std::vector<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    kept.push_back(line);
    if (static_cast<int>(kept.size()) > lines)
      kept.erase(kept.begin());
  }
  std::string text;
  for (const std::string& line : kept)
    text += line + "\n";
  return text;
}

} // namespace by::rtlmodel
