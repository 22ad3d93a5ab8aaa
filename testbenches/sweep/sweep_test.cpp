// brickyard sweep --local end to end (label `sweep`), on the mlp test model with the functional
// model (seconds per point): bad specs and models are rejected before anything runs (exit 2,
// one line naming the point and key at its place in the spec, no output folder); the table has
// a row per point with the swept values and eval's totals (each row's cycles equal the point's
// own eval report); a point that fails (over the run's cycle cap) does not stop the others
// and is listed (exit 1), and a rerun retries only it; a sweep killed mid-way resumes without
// redoing the points that had finished.
#include "cli_runner.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using by::test::sourcePath;

fs::path scratch(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("by_sweep_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

json readJson(const fs::path& p) {
  return json::parse(readText(p));
}

// A spec on tiny with the mlp model (its input file) and the functional model, no area.
fs::path writeSpec(const fs::path& dir, const std::string& name, const std::string& body,
                   const std::string& evalExtra = "") {
  const fs::path p = dir / (name + ".yaml");
  std::ofstream(p) << "name: " << name << "\nbase: tiny\n"
                   << body
                   << "models:\n  - path: " << sourcePath("testbenches/compiler/models/mlp.onnx")
                   << "\n    input: " << sourcePath("testbenches/compiler/models/mlp.input.npy")
                   << "\neval: {model: func, area: false" << evalExtra << "}\n";
  return p;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(Sweep, RejectsBadSpecsAndModelsBeforeRunning) {
  const fs::path dir = scratch("reject");
  const fs::path out = dir / "out";
  struct Case {
    std::string body;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      // A value the schema rejects, in one grid point: that point and key, at the value.
      {"grid:\n  array.lanes: [1, 3]\n",
       {"bad.yaml:4:20: error: point p01 (array.lanes=3): array.lanes: value 3 is not a power "
        "of two",
        "1 of 2 points rejected; nothing was run"}},
      // A cross-key rule (TensorDash needs vector PEs): at the override.
      {"points:\n  - {sparsity.tensordash.enabled: true}\n",
       {"bad.yaml:4:35: error: point p00 (sparsity.tensordash.enabled=true): "
        "sparsity.tensordash.enabled: TensorDash"}},
      // A typo'd key: the loader's hint.
      {"points:\n  - {array.lane: 4}\n",
       {"bad.yaml:4:6: error: point p00 (array.lane=4): array.lane: unknown key (did you mean "
        "'lanes'?)"}},
      // Two points that are the same config.
      {"points:\n  - {array.lanes: 1}\n  - {}\n",
       {"error: point p01 (base config): the same config as point p00 (array.lanes=1)"}},
      // The spec's own keys.
      {"grid:\n  array.lanes: [1]\nslurm: {partion: x}\n",
       {"bad.yaml:5:9: error: slurm.partion: unknown key; allowed keys in 'slurm': partition"}},
  };
  for (const Case& c : cases) {
    const fs::path spec = writeSpec(dir, "bad", c.body);
    const CliResult r = runBrickyard({"sweep", spec.string(), "--local", "-o", out.string()});
    EXPECT_EQ(r.status, 2) << c.body << r.err;
    for (const std::string& e : c.expect)
      EXPECT_NE(r.err.find(e), std::string::npos) << c.body << "\nexpected: " << e << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.body;
  }
  // A model the compiler cannot import: the node and its op.
  {
    const fs::path spec = dir / "badmodel.yaml";
    std::ofstream(spec) << "base: tiny\ngrid: {array.lanes: [1]}\nmodels:\n  - "
                        << sourcePath("testbenches/compiler/bad_models/unsupported_op.onnx")
                        << "\n";
    const CliResult r = runBrickyard({"sweep", spec.string(), "--local", "-o", out.string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("badmodel.yaml:4:5: error: models[0]: model unsupported_op: "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("node 'erf' (Erf)"), std::string::npos) << r.err;
    EXPECT_EQ(count(r.err, "\n"), 1u) << r.err; // one line
    EXPECT_FALSE(fs::exists(out));
  }
  // An output folder that is something else is not touched.
  {
    const fs::path other = dir / "other";
    fs::create_directories(other);
    std::ofstream(other / "notes.txt") << "mine\n";
    const fs::path spec = writeSpec(dir, "good", "points: [{}]\n");
    const CliResult r = runBrickyard({"sweep", spec.string(), "--local", "-o", other.string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is not a sweep output folder"), std::string::npos) << r.err;
    EXPECT_EQ(std::vector<fs::path>(fs::directory_iterator(other), {}).size(), 1u);
  }
  // Help, and the command in the list.
  {
    const CliResult h = runBrickyard({"sweep", "--help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("usage: brickyard sweep SPEC.yaml"), std::string::npos) << h.out;
    EXPECT_NE(runBrickyard({"--help"}).out.find("  sweep "), std::string::npos);
    EXPECT_EQ(runBrickyard({"sweep", "--run-point", "x", "-o", out.string()}).status, 2);
  }
  // A base config that does not exist; no backend.
  {
    const fs::path spec = dir / "nobase.yaml";
    std::ofstream(spec) << "base: tinyy\npoints: [{}]\nmodels: [x.onnx]\n";
    const CliResult r = runBrickyard({"sweep", spec.string(), "--local", "-o", out.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("nobase.yaml:1:7: error: base: config 'tinyy' is neither"),
              std::string::npos)
        << r.err;
    const CliResult nb = runBrickyard({"sweep", spec.string(), "-o", out.string()});
    EXPECT_EQ(nb.status, 2);
    EXPECT_NE(nb.err.find("choose a backend: --local or --slurm"), std::string::npos) << nb.err;
  }
}

TEST(Sweep, TableAndAFailingPointThatDoesNotStopTheOthers) {
  const fs::path dir = scratch("fail");
  const fs::path out = dir / "out";
  // Host CPI 100 makes the run ~100x longer: over the cap, that point fails.
  const fs::path spec = writeSpec(dir, "failing", "grid:\n  soc.host_cpi_tenths: [10, 1000, 20]\n",
                                  ", max_cycles: 500000");
  const CliResult r =
      runBrickyard({"sweep", spec.string(), "--local", "-j", "2", "-o", out.string()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("1 point failed or has no result"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p01 (soc.host_cpi_tenths=1000): mlp: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cycle limit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("log " + (out / "points/p01/log.txt").string()), std::string::npos) << r.err;
  const json results = readJson(out / "results.json");
  ASSERT_EQ(results["rows"].size(), 3u);
  for (const json& row : results["rows"]) {
    const std::string id = row["id"];
    EXPECT_EQ(row["status"], id == "p01" ? "failed" : "ok") << row.dump();
    if (id == "p01")
      continue;
    // The row is the point's own eval report.
    const json report = readJson(out / "points" / id / "mlp" / "report.json");
    EXPECT_EQ(row["cycles"], report["configs"][0]["totals"]["total_cycles"]);
    EXPECT_EQ(row["energy_pj"], report["configs"][0]["energy"]["total_pj"]);
    EXPECT_EQ(row["soc.host_cpi_tenths"], id == "p00" ? 10 : 20);
    EXPECT_TRUE(row["pareto_cycles_energy"].is_boolean());
  }
  EXPECT_LT(results["rows"][0]["cycles"].get<int64_t>(),
            results["rows"][2]["cycles"].get<int64_t>());
  // The CSV: a header and a row per point.
  const std::string csv = readText(out / "results.csv");
  EXPECT_EQ(csv.rfind("point,id,model,status,soc.host_cpi_tenths,config,config_hash,cycles,", 0),
            0u);
  EXPECT_EQ(count(csv, "\n"), 4u);
  EXPECT_TRUE(fs::exists(out / "pareto_cycles_energy.png"));
  EXPECT_FALSE(fs::exists(out / "pareto_cycles_area.png")); // no area
  // A rerun runs only the failed point.
  const CliResult again =
      runBrickyard({"sweep", spec.string(), "--local", "-j", "2", "-o", out.string()});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("2 already finished, 1 to run"), std::string::npos) << again.err;
  EXPECT_EQ(count(readText(out / "points/p00/log.txt"), "=== brickyard sweep: point"), 1u);
  EXPECT_EQ(count(readText(out / "points/p01/log.txt"), "=== brickyard sweep: point"), 2u);
}

TEST(Sweep, ResumesAfterAKillWithoutRedoingFinishedPoints) {
  const fs::path dir = scratch("resume");
  const fs::path out = dir / "out";
  const fs::path spec =
      writeSpec(dir, "resume",
                "grid:\n  memory.scratchpad.capacity_kib: [4, 8]\n  soc.host_cpi_tenths: "
                "[10, 12]\n");
  // The sweep one point at a time, in its own process group (as a terminal's Ctrl-C would
  // reach it and its children); killed as soon as the first point has its result.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setpgid(0, 0);
    const std::string quiet = (dir / "first.err").string();
    freopen(quiet.c_str(), "w", stderr);
    freopen("/dev/null", "w", stdout);
    execl(BY_BRICKYARD, BY_BRICKYARD, "sweep", spec.c_str(), "--local", "-j", "1", "-o",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  const auto start = std::chrono::steady_clock::now();
  while (!fs::exists(out / "points/p00/result.json") &&
         std::chrono::steady_clock::now() - start < std::chrono::minutes(5))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(fs::exists(out / "points/p00/result.json")) << readText(dir / "first.err");
  EXPECT_FALSE(fs::exists(out / "results.json")) << "the sweep finished before the kill";
  std::vector<std::string> done;
  std::map<std::string, fs::file_time_type> stamp;
  for (const char* id : {"p00", "p01", "p02", "p03"})
    if (fs::exists(out / "points" / id / "result.json")) {
      done.push_back(id);
      stamp[id] = fs::last_write_time(out / "points" / id / "result.json");
    }
  ASSERT_LT(done.size(), 4u);

  const CliResult r =
      runBrickyard({"sweep", spec.string(), "--local", "-j", "2", "-o", out.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(std::to_string(done.size()) + " already finished, " +
                       std::to_string(4 - done.size()) + " to run"),
            std::string::npos)
      << r.err;
  for (const std::string& id : done) {
    EXPECT_EQ(fs::last_write_time(out / "points" / id / "result.json"), stamp[id]) << id;
    EXPECT_EQ(count(readText(out / "points" / id / "log.txt"), "=== brickyard sweep: point"), 1u)
        << id << " was run again";
  }
  const json results = readJson(out / "results.json");
  ASSERT_EQ(results["rows"].size(), 4u);
  for (const json& row : results["rows"])
    EXPECT_EQ(row["status"], "ok") << row.dump();
}

} // namespace
} // namespace by::test
