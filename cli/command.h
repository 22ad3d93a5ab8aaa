// The pieces every subcommand shares: exit codes, errors, a small argument parser.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace by::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // the tool or the design failed (lint warnings, a tool crashed, ...)
  kExitRejected = 2, // the user's input was rejected (bad config, bad arguments, bad ELF)
};

/// Bad command line or rejected input: printed as "brickyard CMD: error: ..." with exit 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

/// All subcommands, in the order `brickyard --help` lists them.
const std::vector<Command>& commands();

/// A declarative parser on CLI11: options and positionals bound to variables, --help generated.
class ArgParser {
public:
  ArgParser(std::string command, std::string synopsis, std::string description);

  void flag(const std::string& name, const std::string& help, bool* target);
  void option(const std::string& name, const std::string& metavar, const std::string& help,
              std::string* target);
  void positional(const std::string& metavar, const std::string& help, std::string* target);
  /// An option that may be given several times; every value is appended.
  void multiOption(const std::string& name, const std::string& metavar, const std::string& help,
                   std::vector<std::string>* target);

  /// Parses; returns false when --help was given (and printed). Throws UsageError.
  bool parse(const std::vector<std::string>& args);
  std::string help() const;

private:
  struct Opt {
    std::string name, metavar, help;
    bool* flag = nullptr;
    std::string* value = nullptr;
    std::vector<std::string>* values = nullptr;
  };
  struct Pos {
    std::string metavar, help;
    std::string* target;
  };
  std::string command_, synopsis_, description_;
  std::vector<Opt> options_;
  std::vector<Pos> positionals_;
};

/// Runs `argv` in `cwd`, capturing stdout+stderr into `output`. Returns the exit status
/// (or 128+signal). Throws std::runtime_error when the program cannot be started.
int runProgram(const std::vector<std::string>& argv, const std::string& cwd, std::string& output);

/// Throws std::runtime_error naming the package to install when `program` is not on PATH.
void requireProgram(const std::string& program, const std::string& debianPackage);

} // namespace by::cli
