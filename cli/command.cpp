#include "command.h"

#include "process/process.h"

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

bool ArgParser::parse(const std::vector<std::string>& args) {
  size_t nextPositional = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(help().c_str(), stdout);
      return false;
    }
    if (a.size() > 1 && a[0] == '-') {
      std::string name = a, inlineValue;
      bool hasInline = false;
      if (size_t eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
        name = a.substr(0, eq);
        inlineValue = a.substr(eq + 1);
        hasInline = true;
      }
      const Opt* opt = nullptr;
      for (const Opt& o : options_)
        if (o.name == name)
          opt = &o;
      if (!opt)
        throw UsageError("unknown option '" + name + "' (see brickyard " + command_ + " --help)");
      if (opt->flag) {
        if (hasInline)
          throw UsageError("option " + name + " takes no value");
        *opt->flag = true;
      } else {
        if (!hasInline && i + 1 >= args.size())
          throw UsageError("option " + name + " needs a value " + opt->metavar);
        const std::string value = hasInline ? inlineValue : args[++i];
        if (opt->values)
          opt->values->push_back(value);
        else
          *opt->value = value;
      }
      continue;
    }
    if (nextPositional >= positionals_.size())
      throw UsageError("unexpected argument '" + a + "' (see brickyard " + command_ + " --help)");
    *positionals_[nextPositional++].target = a;
  }
  if (nextPositional < positionals_.size())
    throw UsageError("missing " + positionals_[nextPositional].metavar + " (usage: brickyard " +
                     command_ + " " + synopsis_ + ")");
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
