// The pure pieces of `brickyard sweep` (labels unit, sweep): config overrides checked by the
// config loader at their position in the spec, the YAML form of a config (round trip through
// the loader: same hash), the spec reader (grid order, axes of override sets, errors at their
// line and column), and the Pareto front against a brute-force definition.
#include "cli_runner.h"
#include "config/loader.h"
#include "config/schema.h"
#include "eval/sweep_spec.h"
#include "eval/sweep_table.h"
#include "seed.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;

using by::test::sourcePath;

fs::path writeTemp(const std::string& name, const std::string& text) {
  const fs::path d = fs::temp_directory_path() / ("by_sweep_unit_" + std::to_string(getpid()));
  fs::create_directories(d);
  const fs::path p = d / name;
  std::ofstream(p) << text;
  return p;
}

config::Override ov(const std::string& key, const std::string& value, int line, int col,
                    bool quoted = false) {
  config::YamlNode v;
  v.type = config::YamlNode::Type::Scalar;
  v.scalar = value;
  v.quoted = quoted;
  v.pos = {"spec.yaml", line, col};
  return {key, {"spec.yaml", line, col - 4}, v};
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ConfigYaml, EveryShippedConfigRoundTrips) {
  int n = 0;
  for (const char* dir : {"configs", "testbenches/configs"})
    for (const auto& e : fs::directory_iterator(sourcePath(dir))) {
      if (e.path().extension() != ".yaml")
        continue;
      const config::Config c = config::loadConfigFile(e.path().string());
      const std::string yaml = config::configToYaml(c, "round trip\nof " + e.path().string());
      const config::Config back = config::loadConfigText(yaml, "roundtrip.yaml");
      EXPECT_EQ(config::configHash(back), config::configHash(c)) << e.path() << "\n" << yaml;
      EXPECT_EQ(yaml.rfind("# round trip\n# of ", 0), 0u);
      ++n;
    }
  EXPECT_GE(n, 10);
}

TEST(ConfigOverrides, AppliedAndCheckedAtTheirPosition) {
  const std::string tiny = sourcePath("configs/tiny.yaml");
  const config::Config base = config::loadConfigFile(tiny);
  const config::Config c = config::loadConfigWithOverrides(
      tiny, {ov("array.mesh_rows", "8", 3, 5), ov("array.mesh_cols", "8", 4, 5),
             ov("memory.scratchpad.capacity_kib", "16", 5, 5)});
  EXPECT_EQ(c.array.meshRows, 8);
  EXPECT_EQ(c.array.meshCols, 8);
  EXPECT_EQ(c.memory.scratchpad.capacityKiB, 16);
  EXPECT_EQ(c.memory.accumulator.capacityKiB, base.memory.accumulator.capacityKiB);
  // A value the schema rejects: at the override, with what is allowed.
  EXPECT_EQ(errorOf([&] { config::loadConfigWithOverrides(tiny, {ov("array.lanes", "3", 7, 9)}); }),
            "spec.yaml:7:9: error: array.lanes: value 3 is not a power of two; expected a power "
            "of two from 1 to 64");
  EXPECT_NE(errorOf([&] {
              config::loadConfigWithOverrides(tiny, {ov("array.mesh_rows", "8", 2, 9, true)});
            }).find("spec.yaml:2:9: error: array.mesh_rows: invalid value the quoted string"),
            std::string::npos);
  // An unknown key: at the key, with the hint the loader gives in a file.
  const std::string unknown =
      errorOf([&] { config::loadConfigWithOverrides(tiny, {ov("array.lane", "4", 6, 11)}); });
  EXPECT_NE(unknown.find("spec.yaml:6:7: error: array.lane: unknown key (did you mean 'lanes'?)"),
            std::string::npos)
      << unknown;
  EXPECT_NE(errorOf([&] {
              config::loadConfigWithOverrides(tiny, {ov("arrays.lanes", "4", 6, 11)});
            }).find("'arrays' is not a section"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              config::loadConfigWithOverrides(tiny, {ov("array", "4", 6, 11)});
            }).find("is a section"),
            std::string::npos);
  // A cross-key rule: at the override when the key it names is overridden ...
  EXPECT_EQ(errorOf([&] {
              config::loadConfigWithOverrides(tiny, {ov("array.mesh_cols", "8", 9, 20)});
            }).rfind("spec.yaml:9:20: error: array.mesh_cols: mesh_rows*tile_rows = 4 but ", 0),
            0u);
  // ... else where the base file sets it (tiny.yaml's mesh_cols is on line 5).
  EXPECT_EQ(errorOf([&] {
              config::loadConfigWithOverrides(tiny, {ov("array.mesh_rows", "8", 9, 20)});
            }).rfind(tiny + ":5:", 0),
            0u);
}

TEST(SweepSpec, GridOrderAxesOfSetsAndPoints) {
  const fs::path p = writeTemp("grid.yaml", R"(name: g
base: tiny
grid:
  size:
    - {array.mesh_rows: 4, array.mesh_cols: 4}
    - array:
        mesh_rows: 8
        mesh_cols: 8
  sparsity.tensordash.enabled: [false, true]
  memory.scratchpad.capacity_kib: [4, 16, 64]
points:
  - {array.lanes: 4}
  - {}
models:
  - MLP
  - path: a/b/lenet.onnx
    input: x.npy
    name: le
eval: {model: func, area: false, max_cycles: 1000}
slurm: {partition: debug, time: "00:10:00", cpus_per_task: 2, setup: "module load x\nexport Y=1"}
)");
  {
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("MLP"), 3, sourcePath("testbenches/compiler/models/mlp.onnx"));
    std::ofstream(p) << text;
  }
  const eval::SweepSpec s = eval::loadSweepSpec(p.string());
  EXPECT_EQ(s.name, "g");
  EXPECT_EQ(s.base, "tiny");
  ASSERT_EQ(s.points.size(), 2u * 2 * 3 + 2);
  // The first axis varies slowest, the last fastest.
  EXPECT_EQ(eval::describeOverrides(s.points[0].overrides),
            "array.mesh_rows=4, array.mesh_cols=4, sparsity.tensordash.enabled=false, "
            "memory.scratchpad.capacity_kib=4");
  EXPECT_EQ(eval::describeOverrides(s.points[1].overrides),
            "array.mesh_rows=4, array.mesh_cols=4, sparsity.tensordash.enabled=false, "
            "memory.scratchpad.capacity_kib=16");
  EXPECT_EQ(eval::describeOverrides(s.points[11].overrides),
            "array.mesh_rows=8, array.mesh_cols=8, sparsity.tensordash.enabled=true, "
            "memory.scratchpad.capacity_kib=64");
  EXPECT_EQ(eval::describeOverrides(s.points[12].overrides), "array.lanes=4");
  EXPECT_EQ(eval::describeOverrides(s.points[13].overrides), "base config");
  EXPECT_EQ(s.keys, (std::vector<std::string>{"array.mesh_rows", "array.mesh_cols",
                                              "sparsity.tensordash.enabled",
                                              "memory.scratchpad.capacity_kib", "array.lanes"}));
  // Positions: the value as written.
  EXPECT_EQ(s.points[0].overrides[2].value.pos.line, 9);
  ASSERT_EQ(s.models.size(), 2u);
  EXPECT_EQ(s.models[0].name, "mlp");
  EXPECT_EQ(s.models[0].path, sourcePath("testbenches/compiler/models/mlp.onnx"));
  EXPECT_EQ(s.models[1].name, "le");
  EXPECT_EQ(s.models[1].path, (p.parent_path() / "a/b/lenet.onnx").string());
  EXPECT_EQ(s.models[1].input, (p.parent_path() / "x.npy").string());
  EXPECT_EQ(s.eval.model, "func");
  EXPECT_FALSE(s.eval.area);
  EXPECT_EQ(s.eval.maxCycles, 1000u);
  EXPECT_EQ(s.slurm.cpusPerTask, 2);
  EXPECT_EQ(s.slurm.setup, (std::vector<std::string>{"module load x", "export Y=1"}));
}

TEST(SweepSpec, ErrorsAtTheirLineAndColumn) {
  struct Case {
    const char* text;
    const char* expect; // after the file name
  };
  const Case cases[] = {
      {"base: tiny\ngrid: {array.lanes: [1, 4]}\nmodels: [m.onnx]\nevals: {}\n",
       ":4:1: error: evals: unknown key; allowed keys at the top level: name, base, grid"},
      {"base: tiny\ngrid:\n  array.lanes: 4\nmodels: [m.onnx]\n",
       ":3:16: error: grid.array.lanes: got '4'; expected a non-empty list"},
      {"base: tiny\ngrid: {array.lanes: [1, 4]}\n", ": error: models: missing required key"},
      {"base: tiny\nmodels: [m.onnx]\n", "error: grid: the spec has neither 'grid' nor 'points'"},
      {"base: tiny\npoints:\n  - {name: x}\nmodels: [m.onnx]\n",
       ":3:6: error: name: the sweep names each point's config itself"},
      {"base: tiny\npoints: [{array.lanes: 4}]\nmodels: [m.onnx]\neval: {model: gate}\n",
       ":4:15: error: eval.model: got 'gate'; expected one of rtl, func"},
      {"base: tiny\npoints: [{array.lanes: 4}]\nmodels: [m.onnx]\nslurm: {cpus_per_task: 0}\n",
       ":4:24: error: slurm.cpus_per_task: value 0 is out of range"},
      {"base: tiny\ngrid: {array.lanes: [1, 4], x: [{array.lanes: 2}]}\nmodels: [m.onnx]\n",
       "error: array.lanes: set by two grid axes"},
      {"base: tiny\npoints: [{array.lanes: 4}]\nmodels: [m.onnx, {path: m.onnx}]\n",
       "error: models[1]: a second model named 'm'"},
      {"base: tiny\npoints: [{array.lanes: 4}\nmodels: [m.onnx]\n", "error: YAML syntax error"},
  };
  for (const Case& c : cases) {
    const fs::path p = writeTemp("bad.yaml", c.text);
    const std::string e = errorOf([&] { eval::loadSweepSpec(p.string()); });
    EXPECT_EQ(e.rfind(p.string() + ":", 0), 0u) << e;
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.text << "\n-> " << e;
  }
}

// Brute force: a point is on the front when no other point is no worse in both and better in
// one. Random integer points (many ties and duplicates).
TEST(Pareto, MatchesTheDefinition) {
  const uint64_t seed = testSeed(17, "Pareto.MatchesTheDefinition");
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::pair<double, double>> xy(size_t(1 + rng() % 12));
    for (auto& p : xy)
      p = {double(rng() % 6), double(rng() % 6)};
    const std::vector<bool> f = eval::paretoFront(xy);
    for (size_t i = 0; i < xy.size(); ++i) {
      bool dominated = false;
      for (size_t j = 0; j < xy.size(); ++j)
        dominated |= xy[j].first <= xy[i].first && xy[j].second <= xy[i].second &&
                     (xy[j].first < xy[i].first || xy[j].second < xy[i].second);
      EXPECT_EQ(f[i], !dominated) << "seed " << seed << " round " << round << " point " << i;
    }
  }
}

TEST(SweepRows, FlagsPerModelOnlyForPointsThatRan) {
  auto point = [](size_t i, const std::string& status, double cycles, double area) {
    eval::SweepPointResult p;
    p.index = i;
    p.id = "p0" + std::to_string(i);
    p.status = status;
    p.values = {{"array.mesh_rows", std::to_string(4 << i)}};
    eval::SweepModelResult m;
    m.name = "m";
    m.status = status == "ok" ? "ok" : "missing";
    if (status == "ok") {
      eval::ConfigReport c;
      c.figures = eval::RunFigures{};
      c.figures->totals.totalCycles = int64_t(cycles);
      c.figures->energy.totalPj = cycles * area;
      c.area = synthesis::DesignArea{};
      c.area->transistors = (long long)area;
      m.config = c;
    }
    p.models.push_back(m);
    return p;
  };
  const std::vector<eval::SweepPointResult> pts = {point(0, "ok", 100, 1), point(1, "ok", 50, 2),
                                                   point(2, "ok", 120, 3),
                                                   point(3, "failed", 0, 0)};
  const eval::Json rows = eval::sweepRows(pts, {"array.mesh_rows"});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["array.mesh_rows"], 4); // typed
  EXPECT_EQ(rows[0]["pareto_cycles_area"], true);
  EXPECT_EQ(rows[1]["pareto_cycles_area"], true);
  EXPECT_EQ(rows[2]["pareto_cycles_area"], false);
  EXPECT_TRUE(rows[3]["pareto_cycles_area"].is_null());
  EXPECT_EQ(rows[3]["status"], "failed");
  const std::string csv = eval::sweepCsv(rows, {"array.mesh_rows"});
  EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("point,id,model,status,array.mesh_rows,config,", 0),
            0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

} // namespace
} // namespace by::test
