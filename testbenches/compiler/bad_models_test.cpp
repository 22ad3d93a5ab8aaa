// Models and inputs the compiler must reject (make_bad_models.py writes the models): each
// gives exactly one error line naming the problem (the node and its op where there is one),
// exit code 2, and leaves no output directory behind.
#include "cli_runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace by::test {
namespace {

namespace fs = std::filesystem;

struct BadModel {
  const char* file;
  std::vector<std::string> expect; // substrings of the error line
};

const std::vector<BadModel> kBad = {
    {"unsupported_op", {"node 'erf' (Erf)", "not supported", "Supported ops"}},
    {"dilated_pool", {"node 'dilpool' (MaxPool)", "dilations", "only 1"}},
    {"swap_hw_transpose",
     {"node 'swap_hw' (Transpose)", "[0, 1, 3, 2]", "channel shuffle", "channels-last"}},
    {"conv_of_nhwc_view", {"node 'conv_nhwc' (Conv)", "channels-last view", "Transpose back"}},
    {"layernorm_over_width",
     {"(LayerNormalization)", "axis 3 of [1, 4, 8, 8]", "only over the channels"}},
    {"dynamic_shape", {"dimension 2", "'height'", "fixed shape"}},
    {"asymmetric_qdq", {"node 'quant_in' (QuantizeLinear)", "zero point 3", "ActivationSymmetric"}},
    {"matmul_activations", {"node 'gram' (MatMul)", "activation"}},
    {"broadcast_add", {"node 'bcast_add' (Add)", "broadcasting"}},
    {"reordering_reshape", {"node 'reshape_hw' (Reshape)", "reorder the data"}},
    {"old_opset", {"opset 9", "version_converter"}},
    {"int_input", {"not a float tensor"}},
    {"too_large", {"MiB of DRAM", "soc.dram.size_mib"}},
    {"weight_zero_point", {"node 'qconv' (QLinearConv)", "zero point 5", "WeightSymmetric"}},
    {"not_onnx", {"not an ONNX model"}},
    {"truncated", {"not an ONNX model"}},
};

using by::test::sourcePath;

int lines(const std::string& s) {
  return int(std::count(s.begin(), s.end(), '\n'));
}

TEST(BadModels, EachIsOneClearLineAndExitTwoWithNothingWritten) {
  const fs::path out = fs::temp_directory_path() / ("by_bad_" + std::to_string(::getpid()));
  for (const BadModel& b : kBad) {
    SCOPED_TRACE(b.file);
    const CliResult r =
        runBrickyard({"compile", sourcePath("testbenches/compiler/bad_models/") + b.file + ".onnx",
                      "--config", sourcePath("configs/tiny.yaml"), "-o", out.string(), "--quiet"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("brickyard compile: error: ", 0), 0u) << r.err;
    for (const std::string& e : b.expect)
      EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(BadModels, AnExistingOutputIsKeptWhenCompilingFails) {
  const fs::path out = fs::temp_directory_path() / ("by_keep_" + std::to_string(::getpid()));
  fs::create_directories(out);
  { std::ofstream(out / "model.c") << "mine"; }
  const CliResult r =
      runBrickyard({"compile", sourcePath("testbenches/compiler/bad_models/dilated_pool.onnx"),
                    "--config", sourcePath("configs/tiny.yaml"), "-o", out.string(), "--quiet"});
  EXPECT_EQ(r.status, 2);
  std::ifstream f(out / "model.c");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "mine");
  fs::remove_all(out);
}

TEST(BadInputs, WrongShapeDtypeOrMissingFileIsRejected) {
  const std::string model = sourcePath("testbenches/compiler/models/mlp.onnx");
  const fs::path dir = fs::temp_directory_path() / ("by_badin_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // A .npy of another model's shape, one of a wrong dtype, and a missing file.
  const std::string wrongShape = sourcePath("testbenches/compiler/models/lenet.input.npy");
  const std::string wrongType = (dir / "i4.npy").string();
  {
    std::ofstream f(wrongType, std::ios::binary);
    const std::string h = "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 64), }";
    std::string header = h + std::string(64 - (10 + h.size() + 1) % 64, ' ') + "\n";
    f << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff) << char(header.size() >> 8)
      << header << std::string(256, '\0');
  }
  for (const auto& [input, expect] : std::vector<std::pair<std::string, std::string>>{
           {wrongShape, "does not match the model input"},
           {wrongType, "not an input type"},
           {(dir / "missing.npy").string(), "cannot open"}}) {
    SCOPED_TRACE(input);
    const CliResult r = runBrickyard({"run", model, "--config", "tiny", "--input", input, "--model",
                                      "func", "--quiet", "--cache-dir", (dir / "cache").string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
  }
  fs::remove_all(dir);
}

} // namespace
} // namespace by::test
