// The pieces every subcommand shares: exit codes, errors, a small argument parser.
#pragma once

#include "support/errors.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace by::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // the tool or the design failed (lint warnings, a tool crashed, ...)
  kExitRejected = 2, // the user's input was rejected (bad config, bad arguments, bad ELF)
};

/// Bad command line: printed as "brickyard CMD: error: ..." with exit 2, as every rejected
/// input (support::InputError).
class UsageError : public support::InputError {
public:
  using support::InputError::InputError;
};

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

/// All subcommands, in the order `brickyard --help` lists them.
const std::vector<Command>& commands();

/// A declarative parser on CLI11: options and positionals bound to typed variables, --help
/// generated. Numbers and choices are converted and checked by CLI11 (a validator per option);
/// a bad value is rejected with one line, "NAME 'TEXT': expected WHAT".
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
  /// A whole number from `min` to `max`, in decimal digits. `expected` says what is allowed
  /// (default "a whole number from MIN to MAX"). The optional forms stay empty when the
  /// option is not given.
  void number(const std::string& name, const std::string& metavar, const std::string& help,
              int* target, int min, int max, const std::string& expected = "");
  void number(const std::string& name, const std::string& metavar, const std::string& help,
              std::optional<int>* target, int min, int max, const std::string& expected = "");
  void number(const std::string& name, const std::string& metavar, const std::string& help,
              std::optional<uint64_t>* target, uint64_t min, uint64_t max,
              const std::string& expected = "");
  /// A real number above `above` and at most `max`.
  void real(const std::string& name, const std::string& metavar, const std::string& help,
            std::optional<double>* target, double above, double max, const std::string& expected);
  /// One of `allowed`: "NAME TEXT: expected A, B or C".
  void choice(const std::string& name, const std::string& metavar, const std::string& help,
              std::string* target, const std::vector<std::string>& allowed);

  /// Parses; returns false when --help was given (and printed). Throws UsageError.
  bool parse(const std::vector<std::string>& args);
  std::string help() const;

private:
  struct Opt {
    std::string name, metavar, help;
    bool* flag = nullptr;
    std::string* value = nullptr;
    std::vector<std::string>* values = nullptr;
    /// A typed option adds itself to the CLI11 app (with its validator).
    std::function<void(CLI::App&)> add;
  };
  struct Pos {
    std::string metavar, help;
    std::string* target;
  };
  void typed(const std::string& name, const std::string& metavar, const std::string& help,
             std::function<void(CLI::App&)> add);
  std::string command_, synopsis_, description_;
  std::vector<Opt> options_;
  std::vector<Pos> positionals_;
  std::string failure_; // the message of the validator that rejected a value
};

} // namespace by::cli
