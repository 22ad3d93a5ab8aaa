// Losslessness: random tensors from several value distributions (over a million groups per
// run) and adversarial inputs, across parameter sets covering every format option. Each
// case goes through checkRoundTrip (whole tensor, every block alone, size estimate).
#include "boveda/codec.h"
#include "boveda_check.h"
#include "seed.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace by::boveda;
using by::boveda::test::checkRoundTrip;

namespace {

BovedaParams make(int w, int g, int h, int c, int b, bool za, bool same, int ptr = 32) {
  BovedaParams p;
  p.elementBits = w;
  p.groupSize = g;
  p.headerBits = h;
  p.containerBits = c;
  p.blockValues = b;
  p.zeroAware = za;
  p.sameWidthShortcut = same;
  p.pointerBits = ptr;
  p.validate();
  return p;
}

/// Parameter sets: every option on and off, both element widths, the smallest and largest
/// groups, headers above the minimum, blocks that are not a multiple of the group size.
std::vector<BovedaParams> paramSets() {
  return {
      make(8, 16, 4, 512, 256, false, false),      // config defaults, block = a 16x16 tile
      make(8, 16, 4, 512, 256, true, false),       // zero-aware
      make(8, 16, 4, 64, 256, false, true),        // shortcut, small containers
      make(8, 8, 4, 64, 16, true, true),           // block = one 16-value row
      make(16, 32, 5, 1024, 256, true, true),      // 16-bit, both options
      make(16, 4, 6, 128, 50, false, false),       // header above minimum, 50 % 4 != 0
      make(8, 64, 5, 4096, 1000, true, false, 16), // 64-value bitmaps, 1000 % 64 != 0
      make(8, 2, 4, 64, 3, true, true),            // smallest groups, odd blocks
  };
}

int32_t lowest(int w) {
  return -(int32_t{1} << (w - 1));
}
int32_t highest(int w) {
  return (int32_t{1} << (w - 1)) - 1;
}

using Rng = std::mt19937_64;
/// Fills n values of elementBits w; g is the group size (for per-group distributions).
using Generator = std::function<std::vector<int16_t>(Rng&, int w, int g, size_t n)>;

struct Distribution {
  const char* name;
  Generator generate;
};

/// Normal-ish values with a standard deviation of 1/16 of the range, clamped.
int16_t narrow(Rng& rng, int w) {
  std::normal_distribution<double> d(0.0, std::ldexp(1.0, w - 5));
  const double x = std::nearbyint(d(rng));
  return static_cast<int16_t>(std::clamp<double>(x, lowest(w), highest(w)));
}

std::vector<Distribution> distributions() {
  auto each = [](auto value) {
    return [value](Rng& rng, int w, int, size_t n) {
      std::vector<int16_t> v(n);
      for (auto& x : v)
        x = value(rng, w);
      return v;
    };
  };
  auto sparse = [](double zeros) {
    return [zeros](Rng& rng, int w) -> int16_t {
      return std::bernoulli_distribution(zeros)(rng) ? 0 : narrow(rng, w);
    };
  };
  return {
      {"uniform", each([](Rng& rng, int w) {
         return static_cast<int16_t>(
             std::uniform_int_distribution<int32_t>(lowest(w), highest(w))(rng));
       })},
      {"narrow", each(narrow)},
      {"sparse50", each(sparse(0.5))},
      {"sparse90", each(sparse(0.9))},
      {"relu", each([](Rng& rng, int w) { return std::max<int16_t>(0, narrow(rng, w)); })},
      // Every group drawn at its own random width 0..w, so all widths and width changes
      // (the same-width flag) occur often.
      {"mixed-width",
       [](Rng& rng, int w, int g, size_t n) {
         std::vector<int16_t> v(n);
         for (size_t first = 0; first < n; first += static_cast<size_t>(g)) {
           const int gw = std::uniform_int_distribution<int>(0, w)(rng);
           std::uniform_int_distribution<int32_t> d(gw == 0 ? 0 : lowest(gw),
                                                    gw == 0 ? 0 : highest(gw));
           for (size_t i = first; i < std::min(n, first + static_cast<size_t>(g)); ++i)
             v[i] = static_cast<int16_t>(d(rng));
         }
         return v;
       }},
  };
}

} // namespace

TEST(BovedaRoundTrip, MillionRandomGroups) {
  Rng rng(by::test::testSeed(0xb0eda, "boveda random round trips"));
  constexpr uint64_t kGroupsPerCase = 21000;
  uint64_t totalGroups = 0;
  for (const BovedaParams& p : paramSets()) {
    for (const Distribution& d : distributions()) {
      // A few values more than whole groups, so the last block and group are partial.
      const size_t n = kGroupsPerCase * static_cast<uint64_t>(p.groupSize) + 7;
      const std::vector<int16_t> values = d.generate(rng, p.elementBits, p.groupSize, n);
      const CompressionStats s = checkRoundTrip(p, values, d.name);
      if (HasFailure())
        return;
      totalGroups += s.groups;
      std::printf(
          "[boveda] %-42s %-11s ratio %5.3f  bits/value %6.3f (hdr %.3f bmp %.3f "
          "data %.3f pad %.3f ptr %.3f)\n",
          p.describe().c_str(), d.name, s.ratio(), double(s.compressedBits()) / double(s.values),
          double(s.headerBits) / double(s.values), double(s.bitmapBits) / double(s.values),
          double(s.payloadBits) / double(s.values), double(s.paddingBits) / double(s.values),
          double(s.pointerBits) / double(s.values));
    }
  }
  std::printf("[boveda] %llu random groups round-tripped\n",
              static_cast<unsigned long long>(totalGroups));
  EXPECT_GE(totalGroups, 1000000u);
}

TEST(BovedaRoundTrip, AdversarialPatterns) {
  for (const BovedaParams& p : paramSets()) {
    const int w = p.elementBits;
    const size_t n = 3 * static_cast<size_t>(p.blockValues) + 5;
    auto pattern = [n](auto f) {
      std::vector<int16_t> v(n);
      for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<int16_t>(f(i));
      return v;
    };
    const CompressionStats zero = checkRoundTrip(p, pattern([](size_t) { return 0; }), "all zero");
    EXPECT_EQ(zero.groupsByWidth[0], zero.groups);
    EXPECT_EQ(zero.payloadBits + zero.bitmapBits, 0u);
    // One container per block, no matter how many groups the block has.
    EXPECT_EQ(zero.containers, zero.blocks);

    const CompressionStats max =
        checkRoundTrip(p, pattern([w](size_t) { return highest(w); }), "all max");
    EXPECT_EQ(max.groupsByWidth[static_cast<size_t>(w)], max.groups);
    const CompressionStats min =
        checkRoundTrip(p, pattern([w](size_t) { return lowest(w); }), "all min");
    EXPECT_EQ(min.groupsByWidth[static_cast<size_t>(w)], min.groups); // -128 is 8 bits wide
    checkRoundTrip(p, pattern([w](size_t i) { return i % 2 ? highest(w) : lowest(w); }),
                   "alternating min/max");
    const CompressionStats pm =
        checkRoundTrip(p, pattern([](size_t i) { return i % 2 ? 1 : -1; }), "alternating +1/-1");
    // Width 2 wherever a group holds a +1; a one-value group of -1 is width 1.
    EXPECT_EQ(pm.groupsByWidth[1] + pm.groupsByWidth[2], pm.groups);
    const CompressionStats neg = checkRoundTrip(p, pattern([](size_t) { return -1; }), "all -1");
    EXPECT_EQ(neg.groupsByWidth[1], neg.groups);
    checkRoundTrip(p, pattern([](size_t i) { return i % 3 == 0 ? 0 : (i % 3 == 1 ? 1 : -1); }),
                   "0/+1/-1 cycle");

    // One full-width value hidden among small ones, at a different position in each group.
    std::vector<int16_t> spike = pattern([](size_t i) { return static_cast<int>(i % 7) - 3; });
    for (size_t g = 0; g < n; g += static_cast<size_t>(p.groupSize)) {
      const size_t at = std::min(n - 1, g + (g / static_cast<size_t>(p.groupSize)) % p.groupSize);
      spike[at] = static_cast<int16_t>((g / p.groupSize) % 2 ? lowest(w) : highest(w));
    }
    checkRoundTrip(p, spike, "one large among small");
  }
}

TEST(BovedaRoundTrip, EveryWidthAtItsBoundaries) {
  for (const BovedaParams& p : paramSets()) {
    // For each width w: a group whose widest value is -2^(w-1) and one whose widest is
    // 2^(w-1)-1, i.e. both ends of the w-bit range, padded with zeros; block-aligned so each
    // group is whole.
    const size_t g = static_cast<size_t>(std::min(p.groupSize, p.blockValues));
    std::vector<int16_t> v;
    for (int w = 1; w <= p.elementBits; ++w) {
      for (int32_t edge : {lowest(w), highest(w)}) {
        std::vector<int16_t> group(g, 0);
        group[g - 1] = static_cast<int16_t>(edge);
        v.insert(v.end(), group.begin(), group.end());
      }
    }
    const CompressionStats s = checkRoundTrip(p, v, "every width");
    for (int w = 1; w <= p.elementBits; ++w) {
      // Width 1: -1 and 0 (the upper edge of a 1-bit value is 0, an all-zero group).
      const uint64_t expected = w == 1 ? 1 : 2;
      EXPECT_GE(s.groupsByWidth[static_cast<size_t>(w)], expected) << "width " << w;
    }
  }
}

TEST(BovedaRoundTrip, LengthsAroundGroupAndBlockBoundaries) {
  Rng rng(by::test::testSeed(0x1e57, "boveda odd lengths"));
  for (const BovedaParams& p : paramSets()) {
    const size_t g = static_cast<size_t>(p.groupSize), b = static_cast<size_t>(p.blockValues);
    for (size_t n : {size_t{0}, size_t{1}, g - 1, g, g + 1, b - 1, b, b + 1, 2 * b + g + 1}) {
      std::vector<int16_t> v(n);
      for (auto& x : v)
        x = narrow(rng, p.elementBits);
      checkRoundTrip(p, v, "length " + std::to_string(n));
    }
  }
}

TEST(BovedaRoundTrip, EightBitInputGivesTheSameStreamAsSixteenBitInput) {
  Rng rng(by::test::testSeed(0x8b17, "boveda int8 vs int16 input"));
  const BovedaParams p = paramSets()[1];
  std::vector<int8_t> v8(5000);
  for (auto& x : v8)
    x = static_cast<int8_t>(narrow(rng, 8));
  const std::vector<int16_t> v16(v8.begin(), v8.end());
  checkRoundTrip(p, v8, "int8 input");
  const CompressedTensor a = compress(p, v8), b = compress(p, v16);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.blockPointers, b.blockPointers);
}

TEST(BovedaRoundTrip, RejectsValuesOutsideTheElementRange) {
  const BovedaParams p = paramSets()[0];
  EXPECT_THROW(compress(p, std::vector<int16_t>{0, 128}), std::invalid_argument);
  EXPECT_THROW(compress(p, std::vector<int16_t>{-129}), std::invalid_argument);
  EXPECT_THROW(measure(p, std::vector<int16_t>{200}), std::invalid_argument);
  EXPECT_NO_THROW(compress(p, std::vector<int16_t>{-128, 127}));
}

TEST(BovedaRoundTrip, PointerWidthOverflowIsReported) {
  // 4-bit pointers address containers 0..15; block 16 starts at container 16.
  const BovedaParams p = make(8, 16, 4, 64, 16, false, false, 4);
  EXPECT_NO_THROW(compress(p, std::vector<int8_t>(16 * 16, 0)));
  EXPECT_THROW(compress(p, std::vector<int8_t>(17 * 16, 0)), std::length_error);
}
