// by_acc_scale against golden::accScale: special values crossed with special scales, then
// millions of random pairs over the whole exponent range.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>

#include BY_MODEL_HEADER
#include "golden/arith.h"
#include "rtl_config.h"
#include "seed.h"

using namespace by;

namespace {

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

class Checker {
public:
  explicit Checker(int accWidth)
      : w_(accWidth), ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<BY_MODEL>(ctx_.get(), "scale")) {}
  ~Checker() { dut_->final(); }

  // Returns false (and records the case) on a mismatch.
  bool check(int64_t acc, uint32_t scaleBits) {
    const uint64_t mask = w_ >= 64 ? ~0ull : ((1ull << w_) - 1);
    dut_->acc_i =
        static_cast<std::decay_t<decltype(dut_->acc_i)>>(static_cast<uint64_t>(acc) & mask);
    dut_->scale_i = scaleBits;
    dut_->eval();
    const int64_t got = golden::wrap(static_cast<int64_t>(dut_->result_o), w_);
    const int64_t want = golden::accScale(acc, floatOf(scaleBits), w_);
    ++count_;
    if (got != want && failures_ < 10) {
      ++failures_;
      ADD_FAILURE() << "acc=" << acc << " scale=0x" << std::hex << scaleBits << std::dec << " ("
                    << floatOf(scaleBits) << "): rtl " << got << ", golden " << want;
    }
    return got == want;
  }
  long count() const { return count_; }

private:
  int w_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
  long count_ = 0;
  int failures_ = 0;
};

} // namespace

TEST(AccScaleRtl, MatchesGolden) {
  const int w = test::builtConfig().types.accWidth;
  Checker c(w);
  const int64_t maxV = (int64_t{1} << (w - 1)) - 1, minV = -maxV - 1;
  std::vector<int64_t> accs = {0,   1,    -1,   2,    3,        5,        -5,       7,
                               100, -100, maxV, minV, maxV - 1, minV + 1, maxV / 2, minV / 2};
  for (int e = 1; e < w - 1; ++e)
    for (int64_t d : {-1, 0, 1}) {
      accs.push_back((int64_t{1} << e) + d);
      accs.push_back(-(int64_t{1} << e) + d);
    }
  std::vector<uint32_t> scales = {0u,
                                  0x80000000u,
                                  1u,
                                  0x007fffffu,
                                  0x00800000u,
                                  bitsOf(1.0f),
                                  bitsOf(-1.0f),
                                  bitsOf(0.5f),
                                  bitsOf(0.25f),
                                  bitsOf(1.5f),
                                  bitsOf(2.0f),
                                  bitsOf(1e-3f),
                                  bitsOf(3.0e9f),
                                  bitsOf(FLT_MAX),
                                  0x7f800000u,
                                  0xff800000u,
                                  0x7fc00000u,
                                  0x7f800001u,
                                  bitsOf(0.999999f),
                                  bitsOf(1.000001f),
                                  bitsOf(1.0f / 3.0f)};
  for (int e = -40; e <= 40; e += 3)
    scales.push_back(bitsOf(std::ldexp(1.0f, e)));
  for (int64_t a : accs)
    for (uint32_t s : scales)
      c.check(a, s);

  std::mt19937_64 rng(test::testSeed(5, "acc scale random"));
  std::uniform_int_distribution<int64_t> anyAcc(minV, maxV);
  for (int i = 0; i < 2000000; ++i) {
    // Random scales concentrated where results are neither 0 nor saturated.
    const int exponent = static_cast<int>(rng() % 60) - 40;
    const uint32_t sign = (rng() & 1) ? 0x80000000u : 0u;
    const uint32_t bits = sign | (static_cast<uint32_t>(127 + exponent) << 23) |
                          (static_cast<uint32_t>(rng()) & 0x7fffff);
    int64_t acc = anyAcc(rng);
    if (rng() % 4 == 0) // small magnitudes: ties and near-ties are common there
      acc = static_cast<int64_t>(rng() % 2048) - 1024;
    c.check(acc, bits);
  }
  std::printf("checked %ld (acc, scale) pairs at acc_width %d\n", c.count(), w);
}
