// The driver's layers the compiler emits beyond the kernels, against the golden arithmetic
// (docs/arithmetic.md, models/golden): by_lookup (an int8 table per element), by_mul (element-wise
// products, a factor per channel both through the direct path and the per-channel product table
// it builds for maps of more than 256 pixels) and by_layernorm (on tiny's array through the
// functional model, and its CPU path). Host build of the driver for tiny.
#include "brickyard/layers.h"
#include "golden/arith.h"
#include "seed.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

std::vector<by_elem_t> randomInt8(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<by_elem_t> v(n);
  for (by_elem_t& x : v)
    x = by_elem_t(d(rng));
  return v;
}

by_elem_t product(int a, int b, float scale) {
  return by_elem_t(by::golden::saturate(by::golden::accScale(int64_t(a) * b, scale, 32), 8));
}

TEST(CpuLayers, LookupReadsTheTableAtTheValuePlus128) {
  std::mt19937 rng(by::test::testSeed(1, "cpu_layers_test"));
  const std::vector<by_elem_t> table = randomInt8(256, rng), x = randomInt8(1003, rng); // + a tail
  std::vector<by_elem_t> y(x.size());
  ASSERT_EQ(by_lookup(x.size(), x.data(), y.data(), table.data()), BY_OK);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(y[i], table[size_t(x[i] + 128)]) << i;
  EXPECT_EQ(by_lookup(1, x.data(), y.data(), nullptr), BY_ERR_ARG);
}

TEST(CpuLayers, MulMatchesTheGoldenArithmeticOnEveryPath) {
  std::mt19937 rng(by::test::testSeed(2, "cpu_layers_test"));
  const size_t batch = 2, channels = 5;
  // 10 pixels: the direct path; 300: the per-channel table; scales that round ties, saturate,
  // and are negative.
  for (size_t pixels : {size_t(10), size_t(300)})
    for (float scale : {0.0078125f, 0.013f, 1.5f, -0.02f}) {
      SCOPED_TRACE("pixels " + std::to_string(pixels) + ", scale " + std::to_string(scale));
      const size_t n = batch * pixels * channels;
      const std::vector<by_elem_t> a = randomInt8(n, rng), same = randomInt8(n, rng),
                                   perChannel = randomInt8(batch * channels, rng);
      std::vector<by_elem_t> y(n);
      ASSERT_EQ(by_mul(batch, pixels, channels, a.data(), perChannel.data(), 1, y.data(), scale),
                BY_OK);
      for (size_t i = 0; i < n; ++i) {
        const size_t img = i / (pixels * channels), c = i % channels;
        ASSERT_EQ(y[i], product(a[i], perChannel[img * channels + c], scale)) << i;
      }
      ASSERT_EQ(by_mul(batch, pixels, channels, a.data(), same.data(), 0, y.data(), scale), BY_OK);
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], product(a[i], same[i], scale)) << i;
    }
}

// by_layernorm's definition (brickyard/layers.h) written out once more, from the golden
// arithmetic.
std::vector<by_elem_t> layerNormReference(const std::vector<by_elem_t>& x, size_t channels,
                                          double k, double e, int lo, int hi) {
  std::vector<by_elem_t> y(x.size());
  const int64_t c = int64_t(channels);
  for (size_t p = 0; p < x.size() / channels; ++p) {
    int64_t s1 = 0, s2 = 0;
    for (size_t j = 0; j < channels; ++j) {
      s1 += x[p * channels + j];
      s2 += x[p * channels + j] * x[p * channels + j];
    }
    const double v = double(c * s2 - s1 * s1) + e;
    const float scale = v > 0 ? float(k / std::sqrt(v)) : 0.0f;
    const int64_t mean64 =
        int64_t(std::floor((128.0 * double(s1) + double(c)) / (2.0 * double(c))));
    for (size_t j = 0; j < channels; ++j) {
      const int64_t q = by::golden::saturate(
          by::golden::accScale(64 * int64_t(x[p * channels + j]) - mean64, scale, 32), 8);
      y[p * channels + j] = by_elem_t(std::clamp<int64_t>(q, lo, hi));
    }
  }
  return y;
}

TEST(Layers, LayerNormOnTheArrayAndOnTheCpuEqualsItsDefinition) {
  std::mt19937 rng(by::test::testSeed(3, "cpu_layers_test"));
  std::uniform_real_distribution<double> spread(0.0, 1.0);
  // Channels across block and pass boundaries; pixels of a partial last block; the array's
  // clamps (none, ReLU) and one the mvout lacks (the CPU path); a narrow row (small variance)
  // and a constant one (scale 0).
  for (size_t channels : {size_t(1), size_t(3), size_t(16), size_t(37), size_t(96), size_t(200)})
    for (size_t pixels : {size_t(1), size_t(9), size_t(21)})
      for (auto [lo, hi] : {std::pair{-128, 127}, std::pair{0, 127}, std::pair{-20, 90}}) {
        SCOPED_TRACE("channels " + std::to_string(channels) + ", pixels " + std::to_string(pixels) +
                     ", clamp " + std::to_string(lo) + ".." + std::to_string(hi));
        std::vector<by_elem_t> x = randomInt8(pixels * channels, rng);
        for (size_t j = 0; j < channels; ++j)
          x[j] = by_elem_t(x[j] / 16 + 3);
        if (pixels > 1)
          for (size_t j = 0; j < channels; ++j)
            x[channels + j] = -7;
        const double k = double(channels) / (64 * (4.0 / 127)) * (0.5 + spread(rng));
        const double e = 1e-5 * double(channels * channels) / (0.05 * 0.05);
        std::vector<by_elem_t> y(x.size());
        std::vector<unsigned char> workspace(by_layernorm_workspace_bytes(pixels));
        ASSERT_EQ(
            by_layernorm(pixels, channels, x.data(), y.data(), k, e, lo, hi, workspace.data()),
            BY_OK);
        const std::vector<by_elem_t> want = layerNormReference(x, channels, k, e, lo, hi);
        for (size_t i = 0; i < y.size(); ++i)
          ASSERT_EQ(int(y[i]), int(want[i]))
              << "pixel " << i / channels << " channel " << i % channels;
      }
  std::vector<by_elem_t> x(4, 1), y(4);
  EXPECT_EQ(by_layernorm(1, 4, x.data(), y.data(), 1.0, 0.0, 5, 4, nullptr), BY_ERR_ARG);
  EXPECT_EQ(by_layernorm(1, 4, x.data(), y.data(), 1.0, 0.0, -128, 127, nullptr), BY_ERR_ARG);
}

} // namespace

// The host driver wraps main (its stack must be below 4 GiB for the DMA), so the test defines
// its own rather than take gtest_main's after the driver in the link.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
