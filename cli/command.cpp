#include "command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace by::cli {

ArgParser::ArgParser(std::string command, std::string synopsis, std::string description)
    : command_(std::move(command)), synopsis_(std::move(synopsis)),
      description_(std::move(description)) {}

void ArgParser::flag(const std::string& name, const std::string& help, bool* target) {
  options_.push_back({name, "", help, target, nullptr, nullptr, {}});
}

void ArgParser::option(const std::string& name, const std::string& metavar, const std::string& help,
                       std::string* target) {
  options_.push_back({name, metavar, help, nullptr, target, nullptr, {}});
}

void ArgParser::multiOption(const std::string& name, const std::string& metavar,
                            const std::string& help, std::vector<std::string>* target) {
  options_.push_back({name, metavar, help, nullptr, nullptr, target, {}});
}

void ArgParser::positional(const std::string& metavar, const std::string& help,
                           std::string* target) {
  positionals_.push_back({metavar, help, target});
}

namespace {

/// Decimal digits only (no sign, no 0x, no octal: CLI11 itself reads "010" as 8), as CLI11
/// converts them, within [min, max]. The text is left without leading zeros for CLI11's
/// conversion to the option's type.
template <class T>
CLI::Validator wholeNumber(const std::string& name, T min, T max, std::string expected,
                           std::string* failure) {
  if (expected.empty())
    expected = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const size_t first = text.find_first_not_of('0');
        const std::string digits =
            first == std::string::npos ? (text.empty() ? "" : "0") : text.substr(first);
        T value{};
        const bool ok = !text.empty() &&
                        text.find_first_not_of("0123456789") == std::string::npos &&
                        digits.size() <= 19 && CLI::detail::lexical_cast(digits, value) &&
                        value >= min && value <= max;
        if (!ok)
          return *failure = name + " '" + text + "': expected " + expected;
        text = digits;
        return "";
      },
      "", "");
}

/// The option given once or several times: the last one counts.
CLI::Option* lastWins(CLI::Option* o) {
  return o->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

} // namespace

void ArgParser::typed(const std::string& name, const std::string& metavar, const std::string& help,
                      std::function<void(CLI::App&)> add) {
  options_.push_back({name, metavar, help, nullptr, nullptr, nullptr, std::move(add)});
}

void ArgParser::number(const std::string& name, const std::string& metavar, const std::string& help,
                       int* target, int min, int max, const std::string& expected) {
  typed(name, metavar, help, [=](CLI::App& app) {
    lastWins(app.add_option(name, *target, help))
        ->transform(wholeNumber(name, min, max, expected, &failure_));
  });
}

namespace {

/// An optional typed option: CLI11 converts the value, `target` gets it when it is given.
template <class T>
CLI::Option* addOptional(CLI::App& app, const std::string& name, const std::string& help,
                         std::optional<T>* target) {
  return lastWins(app.add_option_function<T>(
      name, [target](const T& v) { *target = v; }, help));
}

} // namespace

void ArgParser::number(const std::string& name, const std::string& metavar, const std::string& help,
                       std::optional<int>* target, int min, int max, const std::string& expected) {
  typed(name, metavar, help, [=](CLI::App& app) {
    addOptional(app, name, help, target)
        ->transform(wholeNumber(name, min, max, expected, &failure_));
  });
}

void ArgParser::number(const std::string& name, const std::string& metavar, const std::string& help,
                       std::optional<uint64_t>* target, uint64_t min, uint64_t max,
                       const std::string& expected) {
  typed(name, metavar, help, [=](CLI::App& app) {
    addOptional(app, name, help, target)
        ->transform(wholeNumber(name, min, max, expected, &failure_));
  });
}

void ArgParser::real(const std::string& name, const std::string& metavar, const std::string& help,
                     std::optional<double>* target, double above, double max,
                     const std::string& expected) {
  typed(name, metavar, help, [=](CLI::App& app) {
    CLI::Validator check(
        [=](std::string& text) -> std::string {
          double value = 0;
          if (!CLI::detail::lexical_cast(text, value) || !(value > above && value <= max))
            return failure_ = name + " " + text + ": expected " + expected;
          return "";
        },
        "", "");
    addOptional(app, name, help, target)->transform(check);
  });
}

void ArgParser::choice(const std::string& name, const std::string& metavar, const std::string& help,
                       std::string* target, const std::vector<std::string>& allowed) {
  std::string list;
  for (size_t i = 0; i < allowed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
  typed(name, metavar, help, [=](CLI::App& app) {
    CLI::Validator check(
        [=](std::string& text) -> std::string {
          if (std::find(allowed.begin(), allowed.end(), text) == allowed.end())
            return failure_ = name + " " + text + ": expected " + list;
          return "";
        },
        "", "");
    lastWins(app.add_option(name, *target, help))->transform(check);
  });
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
  failure_.clear();
  for (const Opt& o : options_) {
    if (o.add)
      o.add(app);
    else if (o.flag)
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
    if (!failure_.empty()) // one of our validators: its own words
      throw UsageError(failure_);
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

} // namespace by::cli
