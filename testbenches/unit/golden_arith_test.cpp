// The golden arithmetic against independent formulations: long-double rounding for the
// shift, hand-derived IEEE cases for the scale.
#include "golden/arith.h"
#include "seed.h"

#include <cfloat>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace by::golden;

TEST(Arith, WrapAndSaturate) {
  EXPECT_EQ(wrap(127, 8), 127);
  EXPECT_EQ(wrap(128, 8), -128);
  EXPECT_EQ(wrap(-129, 8), 127);
  EXPECT_EQ(wrap(0x7fffffffLL + 1, 32), INT32_MIN);
  EXPECT_EQ(wrap(1 << 19, 20), -(1 << 19));
  EXPECT_EQ(saturate(1000, 8), 127);
  EXPECT_EQ(saturate(-1000, 8), -128);
  EXPECT_EQ(saturate(-128, 8), -128);
  EXPECT_EQ(saturate((1 << 19), 20), (1 << 19) - 1);
}

TEST(Arith, RoundingShiftHandCases) {
  EXPECT_EQ(roundingShift(5, 1), 2);   // 2.5 -> 2 (even)
  EXPECT_EQ(roundingShift(7, 1), 4);   // 3.5 -> 4 (even)
  EXPECT_EQ(roundingShift(-5, 1), -2); // -2.5 -> -2
  EXPECT_EQ(roundingShift(-7, 1), -4); // -3.5 -> -4
  EXPECT_EQ(roundingShift(6, 2), 2);   // 1.5 -> 2
  EXPECT_EQ(roundingShift(10, 2), 2);  // 2.5 -> 2
  EXPECT_EQ(roundingShift(11, 2), 3);  // 2.75 -> 3
  EXPECT_EQ(roundingShift(-1, 1), 0);  // -0.5 -> 0
  EXPECT_EQ(roundingShift(-3, 1), -2); // -1.5 -> -2
  EXPECT_EQ(roundingShift(123, 0), 123);
  EXPECT_EQ(roundingShift(INT32_MIN, 31), -1);
  EXPECT_EQ(roundingShift(INT32_MAX, 31), 1);
}

TEST(Arith, RoundingShiftMatchesLongDoubleNearbyint) {
  std::mt19937_64 rng(by::test::testSeed(1234, "rounding shift vs long double"));
  std::uniform_int_distribution<int64_t> value(-(int64_t{1} << 40), int64_t{1} << 40);
  std::uniform_int_distribution<int> shift(0, 31);
  for (int i = 0; i < 200000; ++i) {
    const int64_t v = value(rng);
    const int s = shift(rng);
    const long double exact = std::ldexp(static_cast<long double>(v), -s); // exact in 64 bits
    const auto expected = static_cast<int64_t>(std::nearbyintl(exact));    // ties to even
    ASSERT_EQ(roundingShift(v, s), expected) << "v=" << v << " shift=" << s;
  }
}

TEST(Arith, AccScaleHandCases) {
  EXPECT_EQ(accScale(3, 0.5f, 32), 2);   // 1.5 -> 2
  EXPECT_EQ(accScale(5, 0.5f, 32), 2);   // 2.5 -> 2
  EXPECT_EQ(accScale(-5, 0.5f, 32), -2); // -2.5 -> -2
  EXPECT_EQ(accScale(7, 0.5f, 32), 4);   // 3.5 -> 4
  EXPECT_EQ(accScale(100, 0.25f, 32), 25);
  EXPECT_EQ(accScale(16777217, 1.0f, 32), 16777216); // int -> float rounds (2^24 + 1)
  EXPECT_EQ(accScale(INT32_MAX, 2.0f, 32), INT32_MAX);
  EXPECT_EQ(accScale(INT32_MIN, 2.0f, 32), INT32_MIN);
  EXPECT_EQ(accScale(INT32_MAX, 1.0f, 32), INT32_MAX); // 2^31 after rounding: saturates
  EXPECT_EQ(accScale(1, std::numeric_limits<float>::quiet_NaN(), 32), 0);
  EXPECT_EQ(accScale(0, std::numeric_limits<float>::infinity(), 32), 0); // 0*inf = NaN
  EXPECT_EQ(accScale(-3, std::numeric_limits<float>::infinity(), 32), INT32_MIN);
  EXPECT_EQ(accScale(123456, FLT_MIN / 4, 32), 0); // subnormal scale
  EXPECT_EQ(accScale(40000, 1.0f, 16), 32767);
  EXPECT_EQ(accScale(-40000, 1.0f, 16), -32768);
}
