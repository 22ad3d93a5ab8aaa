// The driver's CPU layers the compiler emits for ops the array has no datapath for, against the
// golden arithmetic (docs/arithmetic.md, models/golden): by_lookup (an int8 table per element)
// and by_mul (element-wise products, a factor per channel both through the direct path and the
// per-channel product table it builds for maps of more than 256 pixels). Host build of the
// driver for tiny.
#include "brickyard/layers.h"
#include "golden/arith.h"
#include "seed.h"

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

} // namespace

// The host driver wraps main (its stack must be below 4 GiB for the DMA), so the test defines
// its own rather than take gtest_main's after the driver in the link.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
