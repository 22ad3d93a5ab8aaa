// Running a build tool as a child process with its output in a log file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace by::rtlmodel {

/// Runs argv (argv[0] looked up on PATH) in `cwd` with stdin from /dev/null and stdout and
/// stderr appended to `log`; `env` adds or replaces NAME=VALUE entries. Returns the exit
/// status, 128 + signal if it was killed, or 127 if it could not be started.
int runLogged(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
              const std::filesystem::path& log, const std::vector<std::string>& env = {});

/// True if `program` is an executable path or found on PATH.
bool programExists(const std::string& program);

/// The last `lines` lines of a text file (for error messages).
std::string tailOfFile(const std::filesystem::path& path, int lines);

} // namespace by::rtlmodel
