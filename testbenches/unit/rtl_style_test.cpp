// The controllers' emitted RTL names its encodings (docs/architecture.md, "Controller RTL"):
// outside `typedef enum` bodies and `localparam` definitions, the emitted .sv of the
// controllers holds no sized decimal literal N'dK; states, sources, kinds, functs and error
// codes are enum values or localparams, constants are casts of named widths. Checked on the
// configs the issue names: default, td8 (TensorDash) and the Boveda ones.
#include "config/loader.h"
#include "emit/generate.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace by::test {
namespace {

namespace fs = std::filesystem;

const char* const kControllers[] = {"by_cmd_frontend",        "by_cmd_decoder",
                                    "by_reservation_station", "by_load_controller",
                                    "by_store_controller",    "by_execute_controller",
                                    "by_boveda_loader",       "by_dma_reader",
                                    "by_dma_writer",          "by_loop_ws",
                                    "by_loop_conv_ws"};

// Lines of `text` with an N'dK literal, outside comments, enum bodies and localparams.
std::vector<std::string> encodingLiterals(const std::string& text) {
  static const std::regex literal(R"(\b[0-9]+'[dD][0-9]+)");
  std::vector<std::string> found;
  std::istringstream in(text);
  std::string line;
  bool inEnum = false;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string code = line.substr(0, line.find("//"));
    if (code.find("typedef enum") != std::string::npos)
      inEnum = true;
    if (inEnum) {
      if (code.find('}') != std::string::npos)
        inEnum = false;
      continue;
    }
    if (code.find("localparam") != std::string::npos)
      continue;
    if (std::regex_search(code, literal))
      found.push_back(std::to_string(number) + ": " + line);
  }
  return found;
}

class ControllerRtl : public ::testing::TestWithParam<std::string> {};

TEST_P(ControllerRtl, NoEncodingLiterals) {
  const std::string dir = std::string(BY_SOURCE_DIR);
  const std::string file = fs::exists(dir + "/configs/" + GetParam() + ".yaml")
                               ? dir + "/configs/" + GetParam() + ".yaml"
                               : dir + "/testbenches/configs/" + GetParam() + ".yaml";
  const fs::path out = fs::path(BY_BINARY_DIR) / "test-output" / "rtl_style" / GetParam();
  fs::remove_all(out);
  emit::generateOutputs(config::loadConfigFile(file), out);
  int checked = 0;
  for (const char* module : kControllers) {
    const fs::path sv = out / "rtl" / (std::string(module) + ".sv");
    if (!fs::exists(sv))
      continue; // e.g. no Boveda loader without Boveda
    ++checked;
    std::ifstream in(sv);
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<std::string> found = encodingLiterals(text.str());
    std::string list;
    for (const std::string& f : found)
      list += "  " + f + "\n";
    EXPECT_TRUE(found.empty()) << sv << " has N'dK literals:\n" << list;
  }
  EXPECT_GE(checked, 8) << "controllers checked in " << out;
}

INSTANTIATE_TEST_SUITE_P(Configs, ControllerRtl,
                         ::testing::Values("default", "td8", "boveda16", "boveda_tiny",
                                           "boveda_onchip_tiny"));

// The check itself: it finds a literal, and leaves enums, localparams and comments alone.
TEST(ControllerRtl, CheckSeesLiterals) {
  EXPECT_EQ(encodingLiterals("assign a = b == 2'd1;\n").size(), 1u);
  EXPECT_EQ(encodingLiterals("  typedef enum logic [1:0] {\n    A = 2'd0,\n    B = 2'd1\n"
                             "  } x_e;\nlocalparam logic [7:0] E = 8'd3;\n// 4'd2 here\n")
                .size(),
            0u);
  EXPECT_EQ(encodingLiterals("x = y + W'(1); z = 1'b0;\n").size(), 0u);
}

} // namespace
} // namespace by::test
