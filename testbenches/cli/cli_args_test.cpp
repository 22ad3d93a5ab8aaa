// The command line parser of every subcommand (cli/command.h): typed options converted and
// checked by CLI11, with brickyard's one-line messages for rejected values.
#include "command.h"

#include <gtest/gtest.h>

namespace by::cli {
namespace {

struct Parsed {
  int jobs = 4;
  std::optional<int> batch;
  std::optional<uint64_t> seed;
  std::optional<double> percentile;
  std::string hal = "rocc";
  std::string file;
};

/// Parses `args` with a parser of every kind of typed option; the message of a rejection.
std::string parse(const std::vector<std::string>& args, Parsed& out) {
  ArgParser p("test", "FILE [options]", "a parser for the test");
  p.positional("FILE", "a file", &out.file);
  p.number("-j", "N", "jobs", &out.jobs, 1, 64, "a positive whole number");
  p.number("--batch", "N", "batch", &out.batch, 1, 1 << 16);
  p.number("--seed", "N", "seed", &out.seed, 0, ~uint64_t(0) >> 1);
  p.real("--percentile", "P", "percentile", &out.percentile, 50, 100, "a number in (50, 100]");
  p.choice("--hal", "rocc|mmio", "hal", &out.hal, {"rocc", "mmio"});
  try {
    p.parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CliArgs, TypedOptionsAreConvertedAndDefaultsKept) {
  Parsed a;
  EXPECT_EQ(parse({"f.onnx"}, a), "");
  EXPECT_EQ(a.jobs, 4);
  EXPECT_FALSE(a.batch.has_value());
  EXPECT_FALSE(a.seed.has_value());
  Parsed b;
  EXPECT_EQ(parse({"f.onnx", "-j", "12", "--batch=3", "--seed", "9223372036854775807",
                   "--percentile", "99.5", "--hal", "mmio"},
                  b),
            "");
  EXPECT_EQ(b.jobs, 12);
  EXPECT_EQ(b.batch, 3);
  EXPECT_EQ(b.seed, 9223372036854775807ull);
  EXPECT_DOUBLE_EQ(*b.percentile, 99.5);
  EXPECT_EQ(b.hal, "mmio");
  EXPECT_EQ(b.file, "f.onnx");
}

TEST(CliArgs, NumbersAreDecimalAndTheLastOneWins) {
  Parsed a;
  EXPECT_EQ(parse({"f", "-j", "010", "--batch", "2", "--batch", "5"}, a), "");
  EXPECT_EQ(a.jobs, 10); // decimal, not octal
  EXPECT_EQ(a.batch, 5);
  Parsed b;
  EXPECT_EQ(parse({"f", "--seed", "0"}, b), "");
  EXPECT_EQ(b.seed, 0u);
}

TEST(CliArgs, BadValuesAreRejectedWithOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"f", "-j", "0"}, "-j '0': expected a positive whole number"},
      {{"f", "-j", "65"}, "-j '65': expected a positive whole number"},
      {{"f", "-j", "two"}, "-j 'two': expected a positive whole number"},
      {{"f", "-j", "0x10"}, "-j '0x10': expected a positive whole number"},
      {{"f", "-j", "-3"}, "-j '-3': expected a positive whole number"},
      {{"f", "-j", "3 "}, "-j '3 ': expected a positive whole number"},
      {{"f", "--batch", "70000"}, "--batch '70000': expected a whole number from 1 to 65536"},
      {{"f", "--seed", "99999999999999999999"}, "--seed '99999999999999999999': expected"},
      {{"f", "--percentile", "50"}, "--percentile 50: expected a number in (50, 100]"},
      {{"f", "--percentile", "nan"}, "--percentile nan: expected a number in (50, 100]"},
      {{"f", "--hal", "axi"}, "--hal axi: expected rocc or mmio"},
      {{"f", "--bogus", "1"}, "unknown option '--bogus'"},
      {{}, "missing FILE"},
  };
  for (const auto& [args, message] : cases) {
    Parsed p;
    const std::string got = parse(args, p);
    EXPECT_EQ(got.rfind(message, 0), 0u) << "got: " << got << "\nwant: " << message;
    EXPECT_EQ(got.find('\n'), std::string::npos) << got;
  }
}

TEST(CliArgs, HelpListsTypedOptions) {
  ArgParser p("test", "FILE", "about");
  int jobs = 1;
  std::string hal;
  p.number("-j", "N", "jobs at a time", &jobs, 1, 8);
  p.choice("--hal", "rocc|mmio", "the HAL", &hal, {"rocc", "mmio"});
  const std::string h = p.help();
  EXPECT_NE(h.find("  -j N                  jobs at a time\n"), std::string::npos) << h;
  EXPECT_NE(h.find("  --hal rocc|mmio       the HAL\n"), std::string::npos) << h;
}

} // namespace
} // namespace by::cli
