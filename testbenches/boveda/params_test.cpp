// BovedaParams validation and the mapping from the YAML config.
#include "boveda_spec/params.h"
#include "config/loader.h"

#include <functional>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace by::boveda;

namespace {

/// Expects validate() to throw std::invalid_argument whose message contains `needle`.
void expectRejected(const std::function<void(BovedaParams&)>& change, const std::string& needle) {
  BovedaParams p;
  change(p);
  try {
    p.validate();
    ADD_FAILURE() << "accepted " << p.describe() << ", expected an error about " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

} // namespace

TEST(BovedaParams, DefaultsAreValid) {
  EXPECT_NO_THROW(BovedaParams{}.validate());
  EXPECT_EQ(BovedaParams{}.describe(), "w8 g16 h4 c512 b64 p32 za=0 same=0");
}

TEST(BovedaParams, MinimumHeaderHoldsEveryWidth) {
  EXPECT_EQ(BovedaParams::minHeaderBits(8), 4);  // widths 0..8: 9 codes
  EXPECT_EQ(BovedaParams::minHeaderBits(16), 5); // widths 0..16: 17 codes
}

TEST(BovedaParams, MaxGroupBits) {
  BovedaParams p; // 4 + 16 * 8
  EXPECT_EQ(p.maxGroupBits(), 132);
  p.zeroAware = true;
  p.sameWidthShortcut = true;
  EXPECT_EQ(p.maxGroupBits(), 1 + 4 + 16 + 128);
}

TEST(BovedaParams, RejectsEachInvalidField) {
  expectRejected([](BovedaParams& p) { p.elementBits = 12; }, "input_width");
  expectRejected([](BovedaParams& p) { p.elementBits = 32; }, "input_width");
  expectRejected([](BovedaParams& p) { p.groupSize = 1; }, "group_size");
  expectRejected([](BovedaParams& p) { p.groupSize = 12; }, "group_size");
  expectRejected([](BovedaParams& p) { p.groupSize = 128; }, "group_size");
  expectRejected([](BovedaParams& p) { p.headerBits = 1; }, "header_bits");
  expectRejected([](BovedaParams& p) { p.headerBits = 7; }, "header_bits");
  expectRejected([](BovedaParams& p) { p.headerBits = 3; }, "at least 4");
  expectRejected(
      [](BovedaParams& p) {
        p.elementBits = 16;
        p.headerBits = 4;
      },
      "cannot encode every group width 0..16");
  expectRejected([](BovedaParams& p) { p.containerBits = 32; }, "container_bits");
  expectRejected([](BovedaParams& p) { p.containerBits = 8192; }, "container_bits");
  expectRejected([](BovedaParams& p) { p.containerBits = 768; }, "container_bits");
  expectRejected([](BovedaParams& p) { p.blockValues = 0; }, "block size");
  expectRejected([](BovedaParams& p) { p.pointerBits = 0; }, "pointer width");
  expectRejected([](BovedaParams& p) { p.pointerBits = 33; }, "pointer width");
}

TEST(BovedaParams, FromShippedConfig) {
  const by::config::Config c =
      by::config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/default.yaml");
  const int dim = c.array.meshRows * c.array.tileRows;
  const BovedaParams p = paramsFromConfig(c.boveda, c.types.inputWidth, dim);
  EXPECT_EQ(p.elementBits, c.types.inputWidth);
  EXPECT_EQ(p.groupSize, c.boveda.groupSize);
  EXPECT_EQ(p.headerBits, c.boveda.headerBits);
  EXPECT_EQ(p.containerBits, c.boveda.containerBits);
  EXPECT_EQ(p.zeroAware, c.boveda.zeroAware);
  EXPECT_EQ(p.blockValues, dim);
  EXPECT_FALSE(p.sameWidthShortcut);
  EXPECT_EQ(p.pointerBits, 32);
}

TEST(BovedaParams, FromConfigRejectsTooSmallHeaderForSixteenBit) {
  by::config::BovedaConfig cfg;
  cfg.groupSize = 16;
  cfg.headerBits = 4;
  cfg.containerBits = 512;
  EXPECT_NO_THROW(paramsFromConfig(cfg, 8, 16));
  EXPECT_THROW(paramsFromConfig(cfg, 16, 16), std::invalid_argument);
  cfg.headerBits = 5;
  EXPECT_NO_THROW(paramsFromConfig(cfg, 16, 16));
}
