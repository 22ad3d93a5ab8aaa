// Per-module synthesis (`brickyard synth`, docs/area.md "Per-module synthesis") against the
// whole-design flow it replaced (`brickyard synth --whole`): the same modules and instance
// counts, the same SRAM bits, cells and transistors within 1%; and the synthesis cache: a
// config that differs only in its soc section synthesizes nothing. The cache is the tests'
// (BRICKYARD_CACHE_DIR, set by CMake), shared with cli_rtl_test.
#include "cli_runner.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;
using by::test::CliResult;
using by::test::runBrickyard;
using nlohmann::json;

namespace {

fs::path outputDir(const std::string& name) {
  return fs::path(BY_BINARY_DIR) / "test-output" / "cli_synth_test" / name;
}

std::string configPath(const std::string& name) {
  const std::string shipped = std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml";
  return fs::exists(shipped)
             ? shipped
             : std::string(BY_SOURCE_DIR) + "/testbenches/configs/" + name + ".yaml";
}

fs::path generate(const std::string& config, const std::string& dir) {
  const fs::path out = outputDir(dir);
  fs::remove_all(out);
  CliResult r = runBrickyard({"gen", config, "-o", out.string(), "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  return out;
}

json synthesize(const fs::path& out, const std::vector<std::string>& flags = {}) {
  std::vector<std::string> args = {"synth", out.string()};
  args.insert(args.end(), flags.begin(), flags.end());
  CliResult r = runBrickyard(args);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  std::ifstream in(out / "reports" / "synth.json");
  return json::parse(in);
}

void expectWithinOnePercent(const json& whole, const json& perModule, const char* field) {
  const double a = whole["design"][field].get<double>();
  const double b = perModule["design"][field].get<double>();
  EXPECT_LE(std::abs(b - a), 0.01 * a) << field << ": whole " << a << ", per module " << b;
}

class Flows : public ::testing::TestWithParam<std::string> {};

[[maybe_unused]] std::string configName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

} // namespace

TEST_P(Flows, PerModuleMatchesWholeDesign) {
  const fs::path wholeDir = generate(configPath(GetParam()), GetParam() + "/whole");
  const fs::path perModuleDir = generate(configPath(GetParam()), GetParam() + "/per-module");
  const json whole = synthesize(wholeDir, {"--whole"});
  const json perModule = synthesize(perModuleDir);
  EXPECT_EQ(whole["synthesis"]["flow"], "whole");
  EXPECT_EQ(perModule["synthesis"]["flow"], "per-module");
  // The same derived modules, each as often.
  std::map<std::string, long long> wholeInstances, perModuleInstances;
  for (const json& m : whole["modules"])
    wholeInstances[m["yosys_name"]] = m["instances"];
  for (const json& m : perModule["modules"]) {
    perModuleInstances[m["yosys_name"]] = m["instances"];
    EXPECT_EQ(m["unmodelled_cells"].get<long long>(), 0) << m["module"];
    EXPECT_EQ(m["cache_key"].get<std::string>().size(), 16u) << m["module"];
  }
  EXPECT_EQ(wholeInstances, perModuleInstances);
  EXPECT_EQ(perModule["synthesis"]["modules"].get<size_t>(), perModule["modules"].size());
  // The SRAM macros exactly; the logic within 1% (ABC's results move a little with the order
  // in which it sees a module's cells).
  EXPECT_EQ(whole["design"]["sram_bits"], perModule["design"]["sram_bits"]);
  EXPECT_EQ(whole["design"]["sram_transistors"], perModule["design"]["sram_transistors"]);
  expectWithinOnePercent(whole, perModule, "cells");
  expectWithinOnePercent(whole, perModule, "transistors");
  expectWithinOnePercent(whole, perModule, "logic_transistors");
}

#ifdef BY_LARGE_CONFIGS
// The slow build (cli_synth_large_test): the whole-design runs take Yosys minutes (td_l4 about
// eight on one core), more than CI's time budget leaves; CI keeps the cache test below.
INSTANTIATE_TEST_SUITE_P(Configs, Flows, ::testing::Values("tiny", "td_l4"), configName);
#else
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Flows);

TEST(SynthCache, SocOnlyChangeHitsEveryModule) {
  // td_boveda_l4: cli_rtl_test's Synth test of CI synthesizes it into the same cache, so in a CI
  // run the first synthesis here is mostly cache hits too (the check is the second one's).
  const json first = synthesize(generate(configPath("td_boveda_l4"), "soc/td_boveda_l4"));
  // td_boveda_l4 with another DRAM latency: the RTL is the same but for the config hash in each
  // file's first line.
  std::ifstream in(configPath("td_boveda_l4"));
  std::stringstream text;
  text << in.rdbuf();
  std::string config = text.str();
  const std::string from = "latency_cycles: 20", to = "latency_cycles: 37";
  ASSERT_NE(config.find(from), std::string::npos);
  config.replace(config.find(from), from.size(), to);
  const fs::path changed = outputDir("soc") / "td_boveda_l4_soc.yaml";
  fs::create_directories(changed.parent_path());
  std::ofstream(changed) << config;
  const json second = synthesize(generate(changed.string(), "soc/td_boveda_l4_soc"));

  const json& s = second["synthesis"];
  EXPECT_TRUE(s["elaboration_cached"].get<bool>());
  EXPECT_EQ(s["synthesized"].get<long long>(), 0);
  EXPECT_EQ(s["cached"], s["modules"]);
  for (const json& m : second["modules"])
    EXPECT_TRUE(m["cached"].get<bool>()) << m["module"];
  EXPECT_EQ(first["design"], second["design"]);
}
#endif
