// brickyard eval end to end (label `eval`): the lenet test model on tiny (dense), td_l4
// (TensorDash) and boveda_tiny (Boveda) on the RTL co-simulation. The report must add up:
// the cycle causes partition every layer's cycles and the totals, MACs equal the model's
// (computed from the ONNX shapes by model_macs.py), every energy part is its count times its
// table entry and they sum to the total, DRAM bytes equal the DMA counters of a separate
// `brickyard run`, layers.csv equals report.json, a second run comes from the cache, and bad
// input exits 2 leaving the output directory as it was.
#include "cli_runner.h"
#include "config/loader.h"
#include "eval/energy.h"
#include "eval/report.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using by::test::sourcePath;
const std::string kModels = sourcePath("testbenches/compiler/models/");
// tiny is shipped (a name); td_l4 and boveda_tiny are configs of the tests (their paths).
const std::string kConfigs = "tiny," + sourcePath("testbenches/configs/td_l4.yaml") + "," +
                             sourcePath("testbenches/configs/boveda_tiny.yaml");

fs::path scratch(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("by_eval_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(d);
  return d;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      cur += '"', ++i;
    else if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      cells.push_back(cur), cur.clear();
    else
      cur += c;
  }
  cells.push_back(cur);
  return cells;
}

std::string cellOf(const json& v) {
  if (v.is_null())
    return "";
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_boolean())
    return v.get<bool>() ? "1" : "0";
  if (v.is_number_float()) {
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", v.get<double>());
    return b;
  }
  return v.dump();
}

bool near(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

class EvalReport : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    out_ = scratch("report");
    first_ = runBrickyard({"eval", kModels + "lenet.onnx", "--configs", kConfigs, "--input",
                           kModels + "lenet.input.npy", "--calib-random", "2", "-o", out_.string(),
                           "-j", "2", "--no-area"});
    std::ifstream in(out_ / "report.json");
    if (in)
      report_ = json::parse(in);
  }
  static void TearDownTestSuite() { fs::remove_all(out_); }

  static fs::path out_;
  static CliResult first_;
  static json report_;
};
fs::path EvalReport::out_;
CliResult EvalReport::first_;
json EvalReport::report_;

TEST_F(EvalReport, RunsEveryConfigBitExactAndWritesEveryFile) {
  ASSERT_EQ(first_.status, 0) << first_.err << first_.out;
  ASSERT_EQ(report_["configs"].size(), 3u);
  for (const json& c : report_["configs"]) {
    EXPECT_EQ(c["status"], "ok") << c["name"];
    EXPECT_TRUE(c["check"]["bit_exact"].get<bool>()) << c["name"];
    EXPECT_EQ(c["layers"].size(), report_["model"]["layers"].get<size_t>());
  }
  for (const char* f :
       {"report.json", "layers.csv", "report.md", "manifest.json", "utilization.png", "cycles.png",
        "energy.png", "speedup.png", "dram_traffic.png"}) {
    EXPECT_TRUE(fs::exists(out_ / f)) << f;
    if (fs::exists(out_ / f)) {
      EXPECT_GT(fs::file_size(out_ / f), 100u) << f;
    }
  }
  EXPECT_NE(first_.out.find("td_l4"), std::string::npos) << first_.out;
}

TEST_F(EvalReport, CycleCausesPartitionEveryLayerAndTheTotals) {
  const std::vector<std::string> causes = {"compute_cycles", "stall_dma_cycles",
                                           "stall_dependency_cycles", "stall_host_cycles",
                                           "stall_other_cycles"};
  for (const json& c : report_["configs"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::map<std::string, int64_t> sums;
    for (const json& l : c["layers"]) {
      int64_t sum = 0;
      for (const std::string& k : causes) {
        EXPECT_GE(l[k].get<int64_t>(), 0) << l["layer"] << " " << k;
        sum += l[k].get<int64_t>();
        sums[k] += l[k].get<int64_t>();
      }
      EXPECT_EQ(sum, l["total_cycles"].get<int64_t>()) << l["layer"];
      EXPECT_EQ(l["stall_cycles"].get<int64_t>(),
                l["total_cycles"].get<int64_t>() - l["compute_cycles"].get<int64_t>());
      sums["total_cycles"] += l["total_cycles"].get<int64_t>();
    }
    int64_t total = 0;
    for (const std::string& k : causes) {
      EXPECT_EQ(c["totals"][k].get<int64_t>(), sums[k]) << k;
      total += sums[k];
    }
    EXPECT_EQ(c["totals"]["total_cycles"].get<int64_t>(), total);
    EXPECT_EQ(sums["total_cycles"], total);
  }
}

TEST_F(EvalReport, MacsEqualTheModelsFromItsOnnxShapes) {
  const CliResult r = runProgram(
      {"/usr/bin/python3", sourcePath("testbenches/eval/model_macs.py"), kModels + "lenet.onnx"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, int64_t> want;
  int64_t wantTotal = 0;
  std::istringstream in(r.out);
  std::string name;
  int64_t macs;
  while (in >> name >> macs)
    want[name] = macs, wantTotal += macs;
  ASSERT_EQ(want.size(), 4u) << r.out;
  for (const json& c : report_["configs"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    for (const json& l : c["layers"]) {
      if (want.count(l["layer"].get<std::string>())) {
        EXPECT_EQ(l["macs"].get<int64_t>(), want[l["layer"].get<std::string>()]) << l["layer"];
      }
    }
    EXPECT_EQ(c["totals"]["macs"].get<int64_t>(), wantTotal);
    const int peak = c["peak_macs_per_cycle"].get<int>();
    for (const json& l : c["layers"]) {
      EXPECT_EQ(l["ideal_cycles"].get<int64_t>(), (l["macs"].get<int64_t>() + peak - 1) / peak);
      if (l["total_cycles"].get<int64_t>() > 0) {
        EXPECT_TRUE(near(l["utilization"].get<double>(),
                         double(l["macs"].get<int64_t>()) /
                             (double(l["total_cycles"].get<int64_t>()) * peak)));
      }
    }
  }
}

TEST_F(EvalReport, EnergyIsTheSumOfCountsTimesTableEntries) {
  for (const json& c : report_["configs"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const config::Config cfg = config::loadConfigFile(c["source"].get<std::string>());
    const eval::MemoryEnergy m = eval::memoryEnergy(cfg);
    const std::map<std::string, double> perUnit = {
        {"mac_mult", eval::energyEntry("mac_mult_int8").picojoules},
        {"mac_add", eval::energyEntry("mac_add_int32").picojoules},
        {"array_registers", eval::energyEntry("register_bit").picojoules},
        {"scratchpad_sram", m.spPicojoulesPerAccess},
        {"accumulator_sram", m.accPicojoulesPerAccess},
        {"accumulator_add", eval::energyEntry("acc_add_int32").picojoules},
        {"dram", eval::energyEntry("dram_byte").picojoules}};
    double configTotal = 0;
    for (const json& l : c["layers"]) {
      const json& e = l["energy"];
      double sum = 0;
      for (const auto& [part, pj] : perUnit) {
        ASSERT_TRUE(e.contains(part)) << part;
        EXPECT_TRUE(near(e[part]["pj_per_unit"].get<double>(), pj)) << part;
        EXPECT_TRUE(near(e[part]["pj"].get<double>(), e[part]["count"].get<double>() * pj)) << part;
        sum += e[part]["pj"].get<double>();
      }
      EXPECT_EQ(e.size(), perUnit.size() + 1); // + total_pj
      EXPECT_TRUE(near(e["total_pj"].get<double>(), sum));
      EXPECT_TRUE(near(l["energy_pj"].get<double>(), sum));
      // The counts are the layer's counters.
      EXPECT_EQ(e["mac_mult"]["count"].get<double>(), l["macs_issued"].get<double>());
      EXPECT_EQ(e["dram"]["count"].get<double>(),
                l["dram_read_bytes"].get<double>() + l["dram_write_bytes"].get<double>());
      EXPECT_EQ(e["scratchpad_sram"]["count"].get<double>(),
                l["sp_reads"].get<double>() + l["sp_writes"].get<double>());
      EXPECT_EQ(e["accumulator_sram"]["count"].get<double>(),
                l["acc_reads"].get<double>() + l["acc_writes"].get<double>());
      configTotal += sum;
    }
    double parts = 0;
    for (const auto& [part, v] : c["energy"].items())
      if (part != "total_pj")
        parts += v["pj"].get<double>();
    EXPECT_TRUE(std::abs(parts - configTotal) <= 1e-6 * configTotal);
    EXPECT_TRUE(std::abs(c["energy"]["total_pj"].get<double>() - configTotal) <=
                1e-6 * configTotal);
    EXPECT_TRUE(near(c["derived"]["energy_per_inference_uj"].get<double>(),
                     c["energy"]["total_pj"].get<double>() * 1e-6));
  }
}

TEST_F(EvalReport, DramBytesEqualTheDmaCountersOfARun) {
  const fs::path runReport = scratch("run.json");
  const CliResult r = runBrickyard({"run", kModels + "lenet.onnx", "--config", "tiny", "--input",
                                    kModels + "lenet.input.npy", "--calib-random", "2", "--report",
                                    runReport.string(), "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = readText(runReport);
  const json run = json::parse(text);
  fs::remove(runReport);
  // The run's record, read back by type (as eval does) and written again, is the same file.
  EXPECT_EQ(json(run.get<compiler::RunRecord>()).dump(2) + "\n", text);
  const json& tiny = report_["configs"][0];
  ASSERT_EQ(tiny["name"], "tiny");
  ASSERT_EQ(run["layers"].size(), tiny["layers"].size());
  for (size_t i = 0; i < run["layers"].size(); ++i) {
    const json& k = run["layers"][i]["counters"];
    const json& l = tiny["layers"][i];
    EXPECT_EQ(l["dram_read_bytes"], k["DMA_READ_BYTES"]) << i;
    EXPECT_EQ(l["dram_write_bytes"], k["DMA_WRITE_BYTES"]) << i;
    EXPECT_EQ(l["total_cycles"], k["LAYER_CYCLES"]) << i;
  }
}

// report.json is its records: read back by type (as the sweep does) and written again, it is
// the same file, byte for byte.
TEST_F(EvalReport, TheReportRoundTripsThroughItsRecords) {
  const std::string text = readText(out_ / "report.json");
  const eval::EvalReport typed = eval::Json::parse(text).get<eval::EvalReport>();
  EXPECT_EQ(eval::Json(typed).dump(2) + "\n", text);
  ASSERT_EQ(typed.configs.size(), 3u);
  EXPECT_TRUE(typed.configs[2].figures->totals.bovedaBytesSaved.has_value());
  EXPECT_FALSE(typed.configs[0].figures->totals.bovedaBytesSaved.has_value());
}

TEST_F(EvalReport, TensorDashAndBovedaFigures) {
  const json& td = report_["configs"][1];
  const json& bo = report_["configs"][2];
  EXPECT_TRUE(td["tensordash"].get<bool>());
  EXPECT_GT(td["totals"]["td_macs_skipped"].get<int64_t>(), 0);
  for (const json& l : report_["configs"][0]["layers"])
    EXPECT_EQ(l["speedup_vs_first"].get<double>(), 1.0);
  for (const json& l : bo["layers"]) {
    ASSERT_FALSE(l["dram_bytes_uncompressed"].is_null());
    EXPECT_EQ(l["boveda_bytes_saved"].get<int64_t>(), l["dram_bytes_uncompressed"].get<int64_t>() -
                                                          l["dram_read_bytes"].get<int64_t>() -
                                                          l["dram_write_bytes"].get<int64_t>());
  }
  EXPECT_TRUE(td["layers"][0]["boveda_bytes_saved"].is_null());
}

// Boveda figures where something compresses: lenet's weights are uniform random (they stay raw,
// docs/compiler.md) and its tensors pooled, so resnet_block on td_boveda_l4 (all three), whose
// conv-to-conv tensor lives compressed: compressed bytes moved, the tensor stored below its raw
// size, fewer DRAM bytes than the run without Boveda, and the footprint totals add up.
TEST(EvalBoveda, CompressedActivationsShowInTheReport) {
  const fs::path out = scratch("boveda");
  const CliResult r = runBrickyard({"eval", kModels + "resnet_block.onnx", "--configs",
                                    sourcePath("testbenches/configs/td_boveda_l4.yaml"), "--input",
                                    kModels + "resnet_block.input.npy", "--calib-random", "2", "-o",
                                    out.string(), "-j", "2", "--no-area"});
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const json report = json::parse(readText(out / "report.json"));
  const json& c = report["configs"][0];
  const json& t = c["totals"];
  EXPECT_GT(t["boveda_compressed_bytes"].get<int64_t>(), 0);
  EXPECT_LT(t["output_stored_bytes"].get<int64_t>(), t["output_raw_bytes"].get<int64_t>());
  EXPECT_LT(t["dram_read_bytes"].get<int64_t>() + t["dram_write_bytes"].get<int64_t>(),
            t["dram_bytes_uncompressed"].get<int64_t>());
  int64_t raw = 0, stored = 0;
  for (const json& l : c["layers"])
    raw += l["output_raw_bytes"].get<int64_t>(), stored += l["output_stored_bytes"].get<int64_t>();
  EXPECT_EQ(raw, t["output_raw_bytes"].get<int64_t>());
  EXPECT_EQ(stored, t["output_stored_bytes"].get<int64_t>());
  fs::remove_all(out);
}

TEST_F(EvalReport, LayersCsvAgreesWithReportJson) {
  std::istringstream csv(readText(out_ / "layers.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  const std::vector<std::string> header = splitCsvLine(line);
  size_t rows = 0;
  std::vector<const json*> layers;
  for (const json& c : report_["configs"])
    for (const json& l : c["layers"])
      layers.push_back(&l);
  while (std::getline(csv, line)) {
    ASSERT_LT(rows, layers.size());
    const std::vector<std::string> cells = splitCsvLine(line);
    ASSERT_EQ(cells.size(), header.size()) << line;
    for (size_t i = 0; i < header.size(); ++i)
      EXPECT_EQ(cells[i], cellOf((*layers[rows])[header[i]])) << header[i] << " row " << rows;
    ++rows;
  }
  EXPECT_EQ(rows, layers.size());
  EXPECT_NE(std::find(header.begin(), header.end(), "stall_dma_cycles"), header.end());
}

TEST_F(EvalReport, ASecondRunIsFullyCached) {
  const fs::path again = scratch("again");
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = runBrickyard({"eval", kModels + "lenet.onnx", "--configs", kConfigs,
                                    "--input", kModels + "lenet.input.npy", "--calib-random", "2",
                                    "-o", again.string(), "-j", "2", "--no-area"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("4 of 4 runs cached"), std::string::npos) << r.err;
  std::ifstream in(again / "report.json");
  json second = json::parse(in);
  EXPECT_EQ(readText(again / "layers.csv"), readText(out_ / "layers.csv"));
  for (const json& c : second["configs"])
    EXPECT_TRUE(c["cached"].get<bool>());
  EXPECT_LT(seconds, 30.0);
  fs::remove_all(again);
}

// Bad input: one clear error line, exit 2, and the output directory as it was.
TEST(EvalRejects, BadInputBeforeAnythingRuns) {
  const fs::path out = scratch("rejected");
  fs::create_directories(out);
  { std::ofstream(out / "keep.txt") << "the user's file\n"; }
  const fs::path absent = scratch("absent");
  const fs::path wrongShape = scratch("wrong.npy");
  fs::copy_file(kModels + "lenet.input.npy", wrongShape); // a valid .npy, not mlp's shape
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  const std::string lenet = kModels + "lenet.onnx";
  const std::vector<Case> cases = {
      {{lenet, "--configs", "tiny,no_such_config"}, "no_such_config"},
      {{lenet, "--configs", "tiny," + sourcePath("testbenches/configs/bad/invalid_dataflow.yaml")},
       "invalid_dataflow.yaml:8:13: error: array.dataflow"},
      {{sourcePath("testbenches/compiler/bad_models/unsupported_op.onnx"), "--configs", "tiny"},
       "node 'erf' (Erf)"},
      {{kModels + "mlp.onnx", "--configs", "tiny", "--input", wrongShape.string()},
       wrongShape.string()},
      {{lenet, "--configs", "tiny", "--input", scratch("missing.npy").string()}, "missing.npy"},
      {{lenet, "--configs", "tiny,tiny"}, "twice"},
  };
  for (const fs::path& target : {out, absent})
    for (const Case& c : cases) {
      std::vector<std::string> args = {"eval"};
      args.insert(args.end(), c.args.begin(), c.args.end());
      args.insert(args.end(), {"-o", target.string(), "--no-area"});
      const CliResult r = runBrickyard(args);
      SCOPED_TRACE(args[1] + " " + args[3]);
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  // A directory that is not a Brickyard output is refused, good input or not.
  const CliResult r = runBrickyard(
      {"eval", lenet, "--configs", "tiny", "-o", out.string(), "--model", "func", "--no-area"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("refusing"), std::string::npos) << r.err;
  EXPECT_EQ(readText(out / "keep.txt"), "the user's file\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);
  EXPECT_FALSE(fs::exists(absent));
  fs::remove_all(out);
  fs::remove(wrongShape);
}

// The functional model, with area from brickyard synth: a random seeded input, recorded.
TEST(EvalArea, FunctionalModelWithAreaAndRandomInput) {
  const fs::path out = scratch("area");
  const CliResult r =
      runBrickyard({"eval", kModels + "mlp.onnx", "--configs", "tiny", "--model", "func", "--seed",
                    "7", "--calib-random", "2", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("seed 7"), std::string::npos) << r.err;
  std::ifstream in(out / "report.json");
  const json rep = json::parse(in);
  EXPECT_EQ(rep["input"]["seed"], 7);
  EXPECT_TRUE(fs::exists(out / "input.npy"));
  const json& c = rep["configs"][0];
  ASSERT_FALSE(c["area"].is_null());
  const json& a = c["area"];
  EXPECT_EQ(a["transistors"].get<int64_t>(),
            a["logic_transistors"].get<int64_t>() + a["sram_transistors"].get<int64_t>());
  const config::Config cfg = config::loadConfigFile(sourcePath("configs/tiny.yaml"));
  EXPECT_EQ(a["sram_bits"].get<int64_t>(),
            int64_t(cfg.memory.scratchpad.capacityKiB + cfg.memory.accumulator.capacityKiB) * 8192);
  EXPECT_TRUE(near(c["derived"]["inferences_per_s_per_mtransistor"].get<double>(),
                   c["derived"]["inferences_per_s"].get<double>() /
                       (a["transistors"].get<double>() / 1e6)));
  EXPECT_TRUE(near(c["derived"]["inferences_per_s"].get<double>(),
                   c["clock_mhz"].get<double>() * 1e6 * rep["model"]["batch"].get<double>() /
                       c["totals"]["total_cycles"].get<double>()));
  fs::remove_all(out);
}

} // namespace
} // namespace by::test
