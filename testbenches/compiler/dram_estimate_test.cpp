// The compiler's DRAM estimate (plan.json `est_dram_bytes`) against what the accelerator moves:
// each test model compiled, then run on the functional model, whose DMA counters
// (DMA_READ_BYTES + DMA_WRITE_BYTES per layer, `brickyard run --report`) are the measurement.
// Every convolution the driver runs as loops or as a LOOP_WS matmul is checked layer by layer
// and in total; those estimates are the planner's model of the path the driver takes
// (by_plan_conv_loop_traffic, by_plan_matmul_reads), not the command path's.
#include "cli_runner.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using by::test::sourcePath;

json readJson(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

struct Case {
  const char* config;
  const char* model;
};

class DramEstimate : public ::testing::TestWithParam<Case> {};

TEST_P(DramEstimate, LoopAndMatmulConvolutionsMatchTheDmaCounters) {
  const Case c = GetParam();
  const std::string models = sourcePath("testbenches/compiler/models/");
  const fs::path dir = fs::temp_directory_path() /
                       ("by_est_" + std::to_string(::getpid()) + "_" + c.config + "_" + c.model);
  fs::remove_all(dir);
  // The same calibration for both (the program run compiles it again).
  const std::vector<std::string> common = {"--config", c.config, "--calib-random", "2", "--quiet"};
  std::vector<std::string> compile = {"compile", models + c.model + ".onnx", "-o",
                                      (dir / "compiled").string()};
  compile.insert(compile.end(), common.begin(), common.end());
  const CliResult built = runBrickyard(compile);
  ASSERT_EQ(built.status, 0) << built.err;
  std::vector<std::string> run = {"run",      models + c.model + ".onnx",
                                  "--input",  models + c.model + ".input.npy",
                                  "--model",  "func",
                                  "--report", (dir / "run.json").string()};
  run.insert(run.end(), common.begin(), common.end());
  const CliResult ran = runBrickyard(run);
  ASSERT_EQ(ran.status, 0) << ran.err;

  const json plan = readJson(dir / "compiled" / "plan.json")["layers"];
  const json layers = readJson(dir / "run.json")["layers"];
  ASSERT_EQ(plan.size(), layers.size());
  double estimated = 0, measured = 0;
  int checked = 0;
  for (size_t i = 0; i < plan.size(); ++i) {
    const json& p = plan[i];
    if (p["kind"] != "conv" || !p["planner"].is_object() || !p["planner"].contains("path"))
      continue;
    const std::string path = p["planner"]["path"];
    if (path != "loop" && path != "matmul")
      continue;
    const json& k = layers[i]["counters"];
    const double est = p["est_dram_bytes"].get<double>();
    const double got = k["DMA_READ_BYTES"].get<double>() + k["DMA_WRITE_BYTES"].get<double>();
    // Within 12% a layer (the largest seen: 8.6%, an im2col matmul's padded matrix).
    EXPECT_LE(std::abs(est - got), 0.12 * got)
        << p["name"] << " (" << path << "): estimated " << est << ", moved " << got;
    estimated += est, measured += got, ++checked;
  }
  ASSERT_GT(checked, 0) << "no convolution ran as loops or a matmul";
  EXPECT_LE(std::abs(estimated - measured), 0.04 * measured)
      << "estimated " << estimated << " bytes, moved " << measured;
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Models, DramEstimate,
                         ::testing::Values(Case{"tiny", "resnet_block"}, Case{"tiny", "mbv2_block"},
                                           Case{"tiny", "seg_head"},
                                           Case{"default", "resnet_block"},
                                           Case{"default", "mbv2_block"},
                                           Case{"default", "pool_concat"},
                                           Case{"default", "convnext_block"}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.config) + "_" + info.param.model;
                         });

} // namespace
} // namespace by::test
