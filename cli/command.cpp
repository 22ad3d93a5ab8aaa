#include "command.h"

#include "support/process.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace by::cli {

ArgParser::ArgParser(std::string command, std::string synopsis, std::string description)
    : command_(std::move(command)), synopsis_(std::move(synopsis)),
      description_(std::move(description)) {}

void ArgParser::flag(const std::string& name, const std::string& help, bool* target) {
  options_.push_back({name, "", help, target, nullptr});
}

void ArgParser::option(const std::string& name, const std::string& metavar, const std::string& help,
                       std::string* target) {
  options_.push_back({name, metavar, help, nullptr, target});
}

void ArgParser::multiOption(const std::string& name, const std::string& metavar,
                            const std::string& help, std::vector<std::string>* target) {
  options_.push_back({name, metavar, help, nullptr, nullptr, target});
}

void ArgParser::positional(const std::string& metavar, const std::string& help,
                           std::string* target) {
  positionals_.push_back({metavar, help, target});
}

// The parsing itself is CLI11's; the checks before it and the mapping of what it leaves keep
// brickyard's own messages (tests and scripts rely on them) and --help prints help() below.
bool ArgParser::parse(const std::vector<std::string>& args) {
  auto find = [&](const std::string& name) -> const Opt* {
    for (const Opt& o : options_)
      if (o.name == name)
        return &o;
    return nullptr;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(help().c_str(), stdout);
      return false;
    }
    const size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
    const Opt* opt = find(eq == std::string::npos ? a : a.substr(0, eq));
    if (opt && opt->flag && eq != std::string::npos)
      throw UsageError("option " + opt->name + " takes no value");
    if (opt && !opt->flag && eq == std::string::npos && i + 1 >= args.size())
      throw UsageError("option " + opt->name + " needs a value " + opt->metavar);
    if (opt && !opt->flag && eq == std::string::npos)
      ++i; // its value, whatever it looks like
  }

  CLI::App app(description_, "brickyard " + command_);
  app.set_help_flag(); // --help is handled above
  app.allow_extras();  // reported below with brickyard's messages
  for (const Opt& o : options_) {
    if (o.flag)
      app.add_flag(o.name, *o.flag, o.help);
    else if (o.values)
      app.add_option(o.name, *o.values, o.help)
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    else
      app.add_option(o.name, *o.value, o.help)
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  std::vector<CLI::Option*> positionals;
  for (size_t i = 0; i < positionals_.size(); ++i)
    positionals.push_back(app.add_option("argument" + std::to_string(i), *positionals_[i].target,
                                         positionals_[i].help));
  std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (see brickyard " + command_ + " --help)");
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-')
      throw UsageError("unknown option '" + extra.substr(0, extra.find('=')) + "' (see brickyard " +
                       command_ + " --help)");
    throw UsageError("unexpected argument '" + extra + "' (see brickyard " + command_ + " --help)");
  }
  for (size_t i = 0; i < positionals.size(); ++i)
    if (positionals[i]->count() == 0)
      throw UsageError("missing " + positionals_[i].metavar + " (usage: brickyard " + command_ +
                       " " + synopsis_ + ")");
  return true;
}

std::string ArgParser::help() const {
  std::ostringstream os;
  os << "usage: brickyard " << command_ << " " << synopsis_ << "\n\n" << description_ << "\n";
  if (!positionals_.empty()) {
    os << "\narguments:\n";
    for (const Pos& p : positionals_)
      os << "  " << p.metavar << std::string(p.metavar.size() < 22 ? 22 - p.metavar.size() : 1, ' ')
         << p.help << "\n";
  }
  os << "\noptions:\n";
  for (const Opt& o : options_) {
    std::string left = o.name + (o.metavar.empty() ? "" : " " + o.metavar);
    os << "  " << left << std::string(left.size() < 22 ? 22 - left.size() : 1, ' ') << o.help
       << "\n";
  }
  os << "  --help                show this help\n";
  return os.str();
}

int runProgram(const std::vector<std::string>& argv, const std::string& cwd, std::string& output) {
  process::Options options;
  options.cwd = cwd;
  options.output = process::Output::CaptureMerged;
  const process::Result r = process::run(argv, options);
  output = r.out + r.err; // err holds why a program that never ran did not
  return r.status;
}

void requireProgram(const std::string& program, const std::string& debianPackage) {
  if (process::find(program).empty())
    throw std::runtime_error(program + " is not installed (Debian package " + debianPackage +
                             "); run scripts/setup.sh");
}

} // namespace by::cli
