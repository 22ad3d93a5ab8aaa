// `brickyard lint` and `brickyard synth` on the generated RTL of every shipped config (and of
// boveda_tiny and boveda_onchip_tiny, the test configs with Boveda on the DMA path and in its
// on-chip form): lint must be silent in both Verilator -Wall and Icarus, synthesis must report
// every module and exactly the configured SRAM capacity. CI lints every small config and
// synthesizes one per family of modules (tiny, td_l4, boveda_tiny); the slow tests (built with
// BY_LARGE_CONFIGS) lint the large configs (default, large32, td_l16, whose 16-lane PEs take
// Yosys minutes) and the variants td_w1 and boveda_onchip_tiny, and synthesize those and the
// small configs CI leaves out (tiles2x2, lanes4).
#include "cli_runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using by::test::CliResult;
using by::test::runBrickyard;

namespace {

// Generates config `name` into a directory of its own per check, so that checks of one config
// can run side by side (ctest runs each test of this file as its own process).
fs::path generate(const std::string& name, const std::string& check) {
  fs::path out = fs::path(BY_BINARY_DIR) / "test-output" / "cli_rtl_test" / name / check;
  fs::remove_all(out);
  // Shipped configs, and the test-only ones (e.g. TensorDash) in testbenches/configs.
  std::string config = std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml";
  if (!fs::exists(config))
    config = std::string(BY_SOURCE_DIR) + "/testbenches/configs/" + name + ".yaml";
  CliResult r = runBrickyard({"gen", config, "-o", out.string(), "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  return out;
}

class Rtl : public ::testing::TestWithParam<std::string> {};
class Synth : public ::testing::TestWithParam<std::string> {};

// Test names carry the config's name (cli_rtl_test.Configs/Rtl.LintIsClean/tiny).
std::string configName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

} // namespace

TEST_P(Rtl, LintIsClean) {
  const fs::path out = generate(GetParam(), "lint");
  CliResult r = runBrickyard({"lint", out.string()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verilator 0 warnings 0 errors, iverilog 0 warnings 0 errors"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(out / "reports" / "lint.txt"));
}

TEST_P(Synth, SynthReportsEveryModule) {
  const fs::path out = generate(GetParam(), "synth");
  CliResult r = runBrickyard({"synth", out.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::ifstream in(out / "reports" / "synth.json");
  const auto report = nlohmann::json::parse(in);
  const auto manifest = nlohmann::json::parse(std::ifstream(out / "manifest.json"));
  const std::string top = manifest["top"];
  EXPECT_EQ(report["top"], top);
  EXPECT_GT(report["design"]["transistors"].get<long long>(), 0);
  std::set<std::string> seen;
  for (const auto& m : report["modules"]) {
    const std::string name = m["module"].get<std::string>();
    EXPECT_EQ(m["unmodelled_cells"].get<long long>(), 0) << name;
    if (m["instances"].get<long long>() > 0)
      seen.insert(name.substr(0, name.find(' ')));
  }
  // The accelerator uses every generated module (the SRAMs as priced macros, checked below);
  // the bare mesh its array modules.
  if (top == "by_accelerator") {
    for (const auto& m : manifest["modules"]) {
      const std::string name = m["name"];
      if (name != "by_sram_sp" && name != "by_sram_dp") {
        EXPECT_TRUE(seen.count(name)) << name << " below " << top;
      }
    }
  } else {
    for (const char* name : {"by_mesh", "by_tile", "by_pe", "by_delay_line"})
      EXPECT_TRUE(seen.count(name)) << name;
  }
  // SRAM macros: exactly the configured scratchpad and accumulator capacity.
  const long long kib =
      manifest["config"]["memory"]["scratchpad"]["capacity_kib"].get<long long>() +
      manifest["config"]["memory"]["accumulator"]["capacity_kib"].get<long long>();
  EXPECT_EQ(report["design"]["sram_bits"].get<long long>(),
            top == "by_accelerator" ? kib * 8192 : 0);
  // The macros' transistors (at least a 6T cell per bit, plus periphery) and the logic's add up.
  const auto& design = report["design"];
  EXPECT_GE(design["sram_transistors"].get<long long>(), 6 * design["sram_bits"].get<long long>());
  EXPECT_EQ(design["logic_transistors"].get<long long>() +
                design["sram_transistors"].get<long long>(),
            design["transistors"].get<long long>());
  EXPECT_GT(design["logic_transistors"].get<long long>(), 0);
  EXPECT_TRUE(fs::exists(out / "reports" / "synth.txt"));
}

#ifndef BY_LARGE_CONFIGS
// Configs a user may write that no shipped one is: tiny with one choice changed (several of
// these were found by testbenches/fuzzer/config_fuzz.py). Each generated
// module's optional parts follow its config's choices, so each choice is linted once (a WS-only
// mesh once left the execute controller's OS output shift unread).
struct Variant {
  std::string name;
  std::vector<std::pair<std::string, std::string>> edits; // a line of tiny.yaml -> its lines
};
class RtlVariant : public ::testing::TestWithParam<Variant> {};
TEST_P(RtlVariant, LintIsClean) {
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
  std::string text;
  std::vector<bool> done(GetParam().edits.size()); // each edit changes the first line it matches
  for (std::string line; std::getline(in, line);) {
    for (size_t e = 0; e < done.size(); ++e)
      if (!done[e] && line == GetParam().edits[e].first) {
        line = GetParam().edits[e].second;
        done[e] = true;
        break;
      }
    text += (line == "name: tiny" ? "name: " + GetParam().name : line) + "\n";
  }
  ASSERT_EQ(std::count(done.begin(), done.end(), true), long(done.size()))
      << "tiny.yaml changed: update the variant";
  const fs::path dir = fs::path(BY_BINARY_DIR) / "test-output" / "cli_rtl_test" / GetParam().name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path config = dir / "config.yaml";
  std::ofstream(config) << text;
  CliResult g = runBrickyard({"gen", config.string(), "-o", (dir / "out").string(), "--quiet"});
  ASSERT_EQ(g.status, 0) << g.err;
  CliResult r = runBrickyard({"lint", (dir / "out").string()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verilator 0 warnings 0 errors, iverilog 0 warnings 0 errors"),
            std::string::npos)
      << r.out;
}
INSTANTIATE_TEST_SUITE_P(
    Tiny, RtlVariant,
    ::testing::Values(
        Variant{"ws_only", {{"  dataflow: both", "  dataflow: ws"}}},
        Variant{"os_only", {{"  dataflow: both", "  dataflow: os"}, {"  ws: true", "  ws: false"}}},
        Variant{"no_loops", {{"  ws: true", "  ws: false"}, {"  conv: true", "  conv: false"}}},
        Variant{"no_table",
                {{"  table: true # the mvout's function table (docs/isa.md, "
                  "\"Function table\")",
                  "  table: false"}}},
        Variant{"one_bank", {{"    banks: 4", "    banks: 1"}}},
        Variant{"int16",
                {{"  input_width: 8", "  input_width: 16"},
                 {"  table: true # the mvout's function table (docs/isa.md, \"Function table\")",
                  "  table: false"}}},
        Variant{"dim2",
                {{"  mesh_rows: 4", "  mesh_rows: 2"}, {"  mesh_cols: 4", "  mesh_cols: 2"}}},
        // one PE: a mesh of one 1x1 tile (by_mesh's OutStage)
        Variant{"one_pe",
                {{"  mesh_rows: 4", "  mesh_rows: 1"}, {"  mesh_cols: 4", "  mesh_cols: 1"}}},
        // a mesh of one 4x4 tile
        Variant{"one_tile",
                {{"  mesh_rows: 4", "  mesh_rows: 1"},
                 {"  mesh_cols: 4", "  mesh_cols: 1"},
                 {"  tile_rows: 1", "  tile_rows: 4"},
                 {"  tile_cols: 1", "  tile_cols: 4"}}},
        // (the scratchpad's capacity: its line comes first) 131072 rows: 17 row bits
        Variant{"large_scratchpad", {{"    capacity_kib: 4", "    capacity_kib: 512"}}},
        // TensorDash on a 2x2 array of 4-lane PEs: tiles of 2 rows, writes of up to 4
        Variant{"td_small_tiles",
                {{"  mesh_rows: 4", "  mesh_rows: 2"},
                 {"  mesh_cols: 4", "  mesh_cols: 2"},
                 {"  lanes: 1", "  lanes: 4"},
                 {"    banks: 4", "    banks: 4\n    rows_per_word: 4"},
                 {"  ws: true", "  ws: false"},
                 {"loops:", "sparsity:\n  tensordash:\n    enabled: true\nloops:"}}},
        Variant{"long_requests",
                {{"  bus_width: 64", "  bus_width: 32"}, {"  max_bytes: 64", "  max_bytes: 256"}}}),
    [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });
#endif

#ifdef BY_LARGE_CONFIGS
// The slow build (cli_rtl_large_test): lint and synthesis of the large configs, and synthesis of
// the small ones whose modules the CI set covers (tiles2x2: tiny's modules in 2x2 tiles;
// lanes4: td_l4's vector PEs without TensorDash; td_l4 and boveda_tiny: td_boveda_l4's
// families apart).
INSTANTIATE_TEST_SUITE_P(Configs, Rtl,
                         ::testing::Values("default", "large32", "td_l16", "td_w1",
                                           "boveda_onchip_tiny"),
                         configName);
INSTANTIATE_TEST_SUITE_P(Configs, Synth,
                         ::testing::Values("default", "large32", "td_l16", "td_w1",
                                           "boveda_onchip_tiny", "tiles2x2", "lanes4", "td_l4",
                                           "boveda_tiny", "td8_boveda"),
                         configName);
#else
INSTANTIATE_TEST_SUITE_P(Configs, Rtl,
                         ::testing::Values("tiny", "tiles2x2", "lanes4", "td_l4", "boveda_tiny",
                                           "boveda_l4", "td_boveda_l4"),
                         configName);
// Synthesis in CI: two configs that hold every generated module between them: td_boveda_l4
// (TensorDash on vector PEs, Boveda, the convolution loops) and tiny (the one-lane modules,
// LOOP_WS, the transposer; the same modules as eval_test's area synthesis, so one of the two
// finds them in the shared cache). td_l4 and boveda_tiny with the slow tests.
INSTANTIATE_TEST_SUITE_P(Configs, Synth, ::testing::Values("tiny", "td_boveda_l4"), configName);

// The larger configs and the two variants above: lint in CI, synthesis with the slow tests
// (cli_rtl_large_test).
class RtlLarge : public ::testing::TestWithParam<std::string> {};
TEST_P(RtlLarge, LintIsClean) {
  const fs::path out = generate(GetParam(), "lint");
  CliResult r = runBrickyard({"lint", out.string()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verilator 0 warnings 0 errors, iverilog 0 warnings 0 errors"),
            std::string::npos)
      << r.out;
}
INSTANTIATE_TEST_SUITE_P(Configs, RtlLarge,
                         ::testing::Values("default", "large32", "td_l16", "td_w1",
                                           "boveda_onchip_tiny", "td8_boveda"),
                         configName);
#endif
