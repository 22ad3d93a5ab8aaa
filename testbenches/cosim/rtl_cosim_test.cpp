// The Verilated accelerator in the SoC, end to end: bare-metal programs (testbenches/sw)
// that drive it through RoCC and through its registers run under `brickyard sim`, each in its
// own process, and check their results against a CPU reference they compute themselves. The
// test checks their output, exit codes and --stats, and (tiny only) the waveform, the simulator
// cache, clock gating and the quantum. Built per config (BY_CONFIG_NAME): tiny in CI, the
// 16x16 default with the slow tests. Every run uses the cache in BRICKYARD_CACHE_DIR (set by
// ctest), except the cache tests, which use their own directories.
#include "cli_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <gtkwave/fstapi.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace by::test {
namespace {

namespace fs = std::filesystem;

const std::string kBrickyard = BY_BRICKYARD;
const std::string kConfigName = BY_CONFIG_NAME;
const std::string kConfig = std::string(BY_SOURCE_DIR) + "/configs/" + kConfigName + ".yaml";

std::string elf(const std::string& program) {
  return std::string(BY_SW_DIR) + "/" + kConfigName + "/" + program + ".elf";
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The line of `text` that starts with `prefix` (empty if none).
std::string lineStarting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0)
      return line;
  return "";
}

class RtlCosim : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / ("by_rtl_cosim_" + kConfigName + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// `brickyard sim --config CONFIG ARGS` with the RTL accelerator (the default model).
  CliResult sim(const std::vector<std::string>& args, const std::string& config = kConfig) const {
    std::vector<std::string> argv = {kBrickyard, "sim", "--config", config};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProgram(argv);
  }

  /// Runs `program` with --stats and checks that it passed; returns the stats.
  nlohmann::json runPassing(const std::string& program, CliResult& r,
                            const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--stats", path(program + ".json")};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(elf(program));
    r = sim(args);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    return nlohmann::json::parse(readFile(path(program + ".json")));
  }

  /// A copy of the config with `from` replaced by `to` (which must occur once).
  std::string editedConfig(const std::string& name, const std::string& from,
                           const std::string& to) const {
    std::string text = readFile(kConfig);
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::ofstream(path(name)) << text;
    return path(name);
  }

  fs::path dir_;
};

/// The counters every RTL run must show: protocol checkers clean, every burst answered OKAY.
void expectCleanBuses(nlohmann::json s) {
  auto& c = s["accelerator"]["counters"];
  EXPECT_EQ(c["axi_protocol_violations"], 0);
  EXPECT_EQ(c["axi_lite_protocol_violations"], 0);
  EXPECT_EQ(c["axi_error_responses"], 0);
}

/// M*K*N from the program's first line ("... M=13 K=11 N=7 ...").
uint64_t macsOf(const std::string& out) {
  std::smatch m;
  const std::regex re("M=([0-9]+) K=([0-9]+) N=([0-9]+)");
  EXPECT_TRUE(std::regex_search(out, m, re)) << out;
  return m.empty() ? 0 : std::stoull(m[1]) * std::stoull(m[2]) * std::stoull(m[3]);
}

// --- programs ---------------------------------------------------------------------------

TEST_F(RtlCosim, HelloWorldRunsOnTheSocWithTheAccelerator) {
  CliResult r;
  nlohmann::json s = runPassing("hello", r);
  EXPECT_EQ(r.out.rfind("Hello from the Brickyard SoC!\n", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.err, "exited with code 0")) << r.err;
  EXPECT_EQ(s["accelerator"]["kind"], "rtl");
  EXPECT_EQ(s["host"]["rocc_commands"], 0);
  expectCleanBuses(s);
}

TEST_F(RtlCosim, MatmulThroughRoccMatchesTheCpuReference) {
  CliResult r;
  nlohmann::json s = runPassing("matmul_rocc", r);
  EXPECT_TRUE(contains(r.out, "matmul (rocc): C = A x B + D")) << r.out;
  EXPECT_TRUE(contains(r.out, "0 mismatch(es)\nmatmul: PASS\n")) << r.out;
  auto& host = s["host"];
  auto& accel = s["accelerator"];
  auto& c = accel["counters"];
  EXPECT_GT(host["rocc_commands"].get<uint64_t>(), 10u);
  EXPECT_EQ(c["rocc_commands"], host["rocc_commands"]);
  EXPECT_EQ(c["rocc_responses"], 3); // the three COUNTER_OPs write rd
  EXPECT_GE(host["fences"].get<int>(), 1);
  // DMA traffic: the bridge's bursts are what the router and the DRAM saw.
  auto& dram = s["dram"]["initiators"]["accelerator"];
  EXPECT_GT(c["axi_read_bursts"].get<uint64_t>(), 0u);
  EXPECT_EQ(dram["bytes_read"], c["axi_read_bytes"]);
  EXPECT_EQ(dram["bytes_written"], c["axi_write_bytes"]);
  EXPECT_EQ(dram["transactions"].get<uint64_t>(),
            c["axi_read_bursts"].get<uint64_t>() + c["axi_write_bursts"].get<uint64_t>());
  // The performance counters, read from the registers at the end, agree with the program.
  EXPECT_GE(c["macs"].get<uint64_t>(), macsOf(r.out));
  EXPECT_TRUE(contains(r.out, ", " + std::to_string(c["macs"].get<uint64_t>()) + " MAC slots"))
      << r.out;
  EXPECT_GT(c["busy_cycles"].get<uint64_t>(), 0u);
  EXPECT_LE(c["busy_cycles"].get<uint64_t>(), accel["clocked_cycles"].get<uint64_t>());
  EXPECT_GT(accel["clocked_cycles"].get<uint64_t>(), 0u);
  EXPECT_LT(accel["clocked_cycles"].get<uint64_t>(), s["simulated"]["cycles"].get<uint64_t>());
  expectCleanBuses(s);
}

TEST_F(RtlCosim, MatmulThroughRegistersMatchesTheCpuReference) {
  CliResult mmio, rocc;
  nlohmann::json s = runPassing("matmul_mmio", mmio);
  EXPECT_TRUE(contains(mmio.out, "matmul (mmio): C = A x B + D")) << mmio.out;
  EXPECT_TRUE(contains(mmio.out, "0 mismatch(es)\nmatmul: PASS\n")) << mmio.out;
  EXPECT_EQ(s["host"]["rocc_commands"], 0);
  EXPECT_EQ(s["host"]["fences"], 0);
  auto& c = s["accelerator"]["counters"];
  EXPECT_EQ(c["rocc_commands"], 0);
  EXPECT_GT(c["register_writes"].get<uint64_t>(), 6 * 10u); // six registers per command
  EXPECT_GT(c["register_reads"].get<uint64_t>(), 0u);
  expectCleanBuses(s);
  // The same work as through RoCC: the same MAC slots and DMA bytes (the cycles differ).
  runPassing("matmul_rocc", rocc);
  const auto work = [](const std::string& out) {
    const std::string line = lineStarting(out, "accelerator:");
    return line.substr(std::min(line.size(), line.find("cycles, ")));
  };
  EXPECT_NE(work(mmio.out), "");
  EXPECT_EQ(work(mmio.out), work(rocc.out));
}

TEST_F(RtlCosim, AFailedSelfCheckIsTheExitCode) {
  const CliResult r = sim({elf("matmul_fail")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "mismatch at C[")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 mismatch(es)\nmatmul: FAIL\n")) << r.out;
  EXPECT_TRUE(contains(r.err, "exited with code 1")) << r.err;
}

TEST_F(RtlCosim, InterruptLineReachesTheHost) {
  CliResult r;
  nlohmann::json s = runPassing("accel_irq", r);
  EXPECT_EQ(r.out, "accel_irq: 0 failure(s)\n");
  EXPECT_EQ(s["accelerator"]["interrupts"], 1);
  expectCleanBuses(s);
}

// The simulator itself (timing, statistics, traces, the cache, rejected input) does not depend
// on the config: these tests are built for tiny only (BY_SIM_TOOL_TESTS).
#if BY_SIM_TOOL_TESTS

// --- timing ------------------------------------------------------------------------------

TEST_F(RtlCosim, QuantumDoesNotChangeTheResultsOrTheTimeline) {
  CliResult fine, coarse;
  nlohmann::json a = runPassing("matmul_rocc", fine, {"--quantum-ns", "10"});
  nlohmann::json b = runPassing("matmul_rocc", coarse, {"--quantum-ns", "100000"});
  EXPECT_EQ(fine.out, coarse.out); // includes the accelerator's cycles measured by the program
  EXPECT_EQ(a["simulated"]["cycles"], b["simulated"]["cycles"]);
  EXPECT_EQ(a["accelerator"]["clocked_cycles"], b["accelerator"]["clocked_cycles"]);
  EXPECT_EQ(a["accelerator"]["counters"]["busy_cycles"],
            b["accelerator"]["counters"]["busy_cycles"]);
  EXPECT_EQ(a["dram"]["busy_cycles"], b["dram"]["busy_cycles"]);
  EXPECT_GT(a["host"]["quantum_syncs"].get<uint64_t>(), b["host"]["quantum_syncs"].get<uint64_t>());
}

TEST_F(RtlCosim, ClockGatingSkipsOnlyIdleCycles) {
  CliResult gated, clocked;
  nlohmann::json a = runPassing("matmul_rocc", gated);
  nlohmann::json b = runPassing("matmul_rocc", clocked, {"--no-clock-gating"});
  EXPECT_EQ(gated.out, clocked.out);
  EXPECT_EQ(a["simulated"]["cycles"], b["simulated"]["cycles"]);
  EXPECT_EQ(a["dram"], b["dram"]);
  auto& ca = a["accelerator"]["counters"];
  auto& cb = b["accelerator"]["counters"];
  for (const char* name : {"busy_cycles", "macs", "dma_read_bytes", "dma_write_bytes",
                           "exec_active_cycles", "stall_dma_cycles", "axi_read_bursts"})
    EXPECT_EQ(ca[name], cb[name]) << name;
  // Without gating every cycle up to the last catch-up is clocked; with it, far fewer.
  EXPECT_EQ(cb["gated_cycles"], 0);
  EXPECT_GT(ca["gated_cycles"].get<uint64_t>(), 0u);
  EXPECT_LT(a["accelerator"]["clocked_cycles"].get<uint64_t>(),
            b["accelerator"]["clocked_cycles"].get<uint64_t>() / 4);
  // The CYCLES register counts clocked cycles only.
  EXPECT_LT(ca["cycles"].get<uint64_t>(), cb["cycles"].get<uint64_t>());
}

TEST_F(RtlCosim, MaxCyclesStopsABusyAccelerator) {
  // accel_busy issues commands forever: the limit hits while the host waits for the command
  // queue inside the accelerator model, or just after such a wait took it past the limit.
  const CliResult r = sim({"--max-cycles", "100000", "--stats", path("s.json"), elf("accel_busy")});
  EXPECT_EQ(r.status, 124) << r.err;
  EXPECT_TRUE(contains(r.err, "timeout after --max-cycles 100000")) << r.err;
  nlohmann::json s = nlohmann::json::parse(readFile(path("s.json")));
  EXPECT_EQ(s["end"]["reason"], "timeout");
  EXPECT_EQ(s["simulated"]["cycles"], 100000);
  EXPECT_GT(s["accelerator"]["clocked_cycles"].get<uint64_t>(), 90000u);
}

// --- statistics ----------------------------------------------------------------------------

/// Field paths documented in docs/soc.md's statistics tables ("| `a.b.c` | ..."), with
/// "<name>" standing for any key.
std::vector<std::string> documentedStats() {
  const std::string doc = readFile(std::string(BY_SOURCE_DIR) + "/docs/soc.md");
  const size_t start = doc.find("## Statistics (`--stats`)");
  const size_t end = doc.find("\n## ", start + 1);
  std::vector<std::string> fields;
  std::istringstream in(doc.substr(start, end - start));
  const std::regex cell("`([a-z_.<>]+)`");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0)
      continue;
    const std::string first = line.substr(0, line.find(" |", 2));
    for (auto it = std::sregex_iterator(first.begin(), first.end(), cell);
         it != std::sregex_iterator(); ++it)
      fields.push_back((*it)[1]);
  }
  return fields;
}

/// Leaf paths of a JSON object ("a.b.c").
void leaves(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  if (!j.is_object() || j.empty()) {
    out.insert(prefix);
    return;
  }
  for (const auto& [key, value] : j.items())
    leaves(value, prefix.empty() ? key : prefix + "." + key, out);
}

bool matches(const std::string& pattern, const std::string& path) {
  // "dram.initiators.<name>.bytes_read" matches "dram.initiators.host.bytes_read"; a
  // documented object ("accelerator") or prefix ending in ".<name>" covers its leaves.
  std::string re;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 6, "<name>") == 0) {
      re += "[a-z_0-9]+";
      i += 5;
    } else if (pattern[i] == '.') {
      re += "\\.";
    } else {
      re += pattern[i];
    }
  }
  return std::regex_match(path, std::regex(re));
}

TEST_F(RtlCosim, EveryStatisticIsDocumented) {
  CliResult r;
  nlohmann::json s = runPassing("matmul_rocc", r);
  std::set<std::string> paths;
  leaves(s, "", paths);
  const std::vector<std::string> documented = documentedStats();
  ASSERT_GT(documented.size(), 30u);
  for (const std::string& p : paths) {
    bool found = false;
    for (const std::string& d : documented)
      found |= matches(d, p);
    EXPECT_TRUE(found) << p << " is not in docs/soc.md (Statistics)";
  }
  // And the other way: every documented RTL counter is reported.
  for (const std::string& d : documented) {
    if (d.find('<') != std::string::npos || d.rfind("accelerator.counters.", 0) != 0)
      continue;
    EXPECT_TRUE(paths.count(d)) << d << " is documented but not reported";
  }
  // Derived figures are consistent.
  auto& a = s["accelerator"];
  EXPECT_NEAR(a["clocked_cycles_per_second"].get<double>(),
              a["clocked_cycles"].get<double>() / a["wall_seconds"].get<double>(), 1e-6 * 1e9);
  // The model is caught up with the program's exit: every cycle was clocked or skipped.
  EXPECT_EQ(a["counters"]["gated_cycles"].get<uint64_t>() + a["clocked_cycles"].get<uint64_t>(),
            s["simulated"]["cycles"].get<uint64_t>());
}

// --- waveforms ------------------------------------------------------------------------------

struct FstSummary {
  bool opened = false;
  uint64_t start = 0, end = 0;
  int timescale = 0;
  uint64_t vars = 0;
  std::map<std::string, fstHandle> handles; // top-level port name -> handle
  std::map<fstHandle, uint64_t> changes;    // value changes per handle
};

FstSummary readFst(const std::string& file) {
  FstSummary f;
  void* ctx = fstReaderOpen(file.c_str());
  if (!ctx)
    return f;
  f.opened = true;
  f.start = fstReaderGetStartTime(ctx);
  f.end = fstReaderGetEndTime(ctx);
  f.timescale = fstReaderGetTimescale(ctx);
  f.vars = fstReaderGetVarCount(ctx);
  int depth = 0;
  while (const fstHier* h = fstReaderIterateHier(ctx)) {
    if (h->htyp == FST_HT_SCOPE)
      ++depth;
    else if (h->htyp == FST_HT_UPSCOPE)
      --depth;
    else if (h->htyp == FST_HT_VAR && depth <= 2) // TOP and the model's top module
      f.handles.emplace(std::string(h->u.var.name, h->u.var.name_length), h->u.var.handle);
  }
  fstReaderSetFacProcessMaskAll(ctx);
  fstReaderIterBlocks(
      ctx,
      [](void* user, uint64_t, fstHandle handle, const unsigned char*) {
        ++(*static_cast<std::map<fstHandle, uint64_t>*>(user))[handle];
      },
      &f.changes, nullptr);
  fstReaderClose(ctx);
  return f;
}

TEST_F(RtlCosim, TraceWritesAReadableFstOfTheRequestedCycles) {
  CliResult plain, traced;
  runPassing("matmul_rocc", plain);
  // The traced run builds (once) its own simulator with tracing compiled in. Without clock
  // gating every cycle of the window is clocked, hence dumped.
  nlohmann::json s =
      runPassing("matmul_rocc", traced,
                 {"--trace", path("w.fst"), "--trace-window", "1000:1999", "--no-clock-gating"});
  EXPECT_EQ(plain.out, traced.out); // tracing changes nothing
  const std::string bytes = readFile(path("w.fst"));
  ASSERT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes[0], 0) << "FST files start with a header block (type 0)";
  const FstSummary f = readFst(path("w.fst"));
  ASSERT_TRUE(f.opened);
  EXPECT_EQ(f.timescale, -12);  // picoseconds
  const uint64_t period = 1000; // ps: tiny runs at 1000 MHz
  EXPECT_EQ(f.start, 1000 * period);
  EXPECT_EQ(f.end, 1999 * period + period / 2);
  EXPECT_GT(f.vars, 100u);
  for (const char* port : {"clk_i", "busy_o", "cmd_valid_i", "m_axi_arvalid_o"})
    EXPECT_TRUE(f.handles.count(port)) << port;
  ASSERT_TRUE(f.handles.count("clk_i"));
  const uint64_t clockChanges =
      f.changes.count(f.handles.at("clk_i")) ? f.changes.at(f.handles.at("clk_i")) : 0;
  EXPECT_NEAR(static_cast<double>(clockChanges), 2 * 1000.0, 1.0); // two edges per cycle
  EXPECT_EQ(s["accelerator"]["counters"]["axi_protocol_violations"], 0);
}

// --- the simulator cache ----------------------------------------------------------------------

std::vector<std::string> entries(const fs::path& cache) {
  std::vector<std::string> names;
  if (fs::exists(cache / "sim"))
    for (const auto& e : fs::directory_iterator(cache / "sim"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(RtlCosim, TheSameConfigIsNotRebuiltAndTheSocSectionDoesNotMatter) {
  const CliResult first = sim({elf("hello")}); // built here or by an earlier test
  ASSERT_EQ(first.status, 0) << first.err;
  const auto start = std::chrono::steady_clock::now();
  const CliResult again = sim({elf("hello")});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(again.status, 0);
  EXPECT_FALSE(contains(again.err, "building")) << again.err;
  EXPECT_LT(seconds, 10.0); // starts in well under a second; generous for a loaded machine
  // DRAM timing is not in the RTL: the same simulator serves it.
  const CliResult slowDram = sim(
      {elf("hello")}, editedConfig("slow_dram.yaml", "latency_cycles: 20", "latency_cycles: 77"));
  EXPECT_EQ(slowDram.status, 0) << slowDram.err;
  EXPECT_FALSE(contains(slowDram.err, "building")) << slowDram.err;
}

// dma.max_inflight_writes: the writer has its own slots and the port's IDs cover them (the SoC's
// AXI checker stops the run on a write ID or a write count past the config's); the program's
// results are checked by the program.
TEST_F(RtlCosim, WritesInFlightHaveTheirOwnLimit) {
  const std::string config =
      editedConfig("writes8.yaml", "max_inflight: 4", "max_inflight: 2\n  max_inflight_writes: 8");
  const CliResult r = sim({elf("matmul_rocc")}, config);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "matmul: PASS")) << r.out;
}

TEST_F(RtlCosim, AChangedConfigIsBuiltOnceByConcurrentFirstRuns) {
  const fs::path cache = dir_ / "cache";
  const std::string config = editedConfig("inflight2.yaml", "max_inflight: 4", "max_inflight: 2");
  auto run = [&] {
    return runProgram(
        {kBrickyard, "sim", "--config", config, "--cache-dir", cache.string(), elf("matmul_rocc")});
  };
  // Two first runs at once: one builds, the other waits for it; both then run the program.
  auto a = std::async(std::launch::async, run);
  auto b = std::async(std::launch::async, run);
  const CliResult ra = a.get(), rb = b.get();
  for (const CliResult* r : {&ra, &rb}) {
    EXPECT_EQ(r->status, 0) << r->err;
    EXPECT_TRUE(contains(r->out, "matmul: PASS")) << r->out;
  }
  const std::string both = ra.err + rb.err;
  EXPECT_TRUE(contains(both, "building the RTL simulator for config 'tiny'")) << both;
  EXPECT_EQ(both.find("building the RTL"), both.rfind("building the RTL")) << both;
  // One complete entry (and its lock file), no staging directories or failure logs.
  const std::vector<std::string> names = entries(cache);
  ASSERT_EQ(names.size(), 2u) << ::testing::PrintToString(names);
  EXPECT_EQ(names[1], names[0] + ".lock");
  EXPECT_TRUE(fs::exists(cache / "sim" / names[0] / "libby_rtl_model.so"));
  EXPECT_TRUE(fs::exists(cache / "sim" / names[0] / "build.json"));
  EXPECT_EQ(names[0].rfind("tiny-", 0), 0u) << names[0];
  // It is a different entry from the shipped tiny's (its DMA has two IDs, not four).
  nlohmann::json manifest =
      nlohmann::json::parse(readFile(cache / "sim" / names[0] / "manifest.json"));
  EXPECT_EQ(manifest["config"]["dma"]["max_inflight"], 2);
  EXPECT_TRUE(contains(names[0], manifest["config_hash"].get<std::string>())) << names[0];
  // And it is reused.
  const CliResult third = run();
  EXPECT_EQ(third.status, 0);
  EXPECT_FALSE(contains(third.err, "building")) << third.err;
}

TEST_F(RtlCosim, AFailedBuildLeavesNoEntry) {
  const fs::path cache = dir_ / "cache";
  const CliResult r = runProgram({"env", "BRICKYARD_VERILATOR=false", kBrickyard, "sim", "--config",
                                  kConfig, "--cache-dir", cache.string(), elf("hello")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "brickyard sim: error: cannot build the RTL simulator: Verilator "
                              "build of config 'tiny' failed"))
      << r.err;
  const std::vector<std::string> names = entries(cache);
  ASSERT_EQ(names.size(), 2u) << ::testing::PrintToString(names); // lock + failure log
  EXPECT_TRUE(contains(names[0], ".failed.log") || contains(names[1], ".failed.log"));
  EXPECT_TRUE(contains(r.err, ".failed.log")) << r.err;

  const CliResult missing =
      runProgram({"env", "BRICKYARD_VERILATOR=/no/such/verilator", kBrickyard, "sim", "--config",
                  kConfig, "--cache-dir", cache.string(), elf("hello")});
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(contains(missing.err, "'/no/such/verilator' not found")) << missing.err;
}

TEST_F(RtlCosim, BadInputIsRejectedBeforeBuilding) {
  const fs::path cache = dir_ / "cache";
  std::ofstream(path("text.elf")) << "not an ELF\n";
  for (const std::string& program : {path("missing.elf"), path("text.elf"), kBrickyard}) {
    const CliResult r = sim({"--cache-dir", cache.string(), program});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(contains(r.err, "building")) << r.err;
  }
  EXPECT_FALSE(fs::exists(cache)) << "nothing is built or created for rejected input";
}

#endif // BY_SIM_TOOL_TESTS

} // namespace
} // namespace by::test
