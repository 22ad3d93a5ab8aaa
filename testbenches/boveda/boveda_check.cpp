#include "boveda_check.h"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>

namespace by::boveda::test {

int referenceWidth(int32_t v) {
  if (v == 0)
    return 0;
  for (int w = 1; w <= 32; ++w) {
    const int64_t lo = -(int64_t{1} << (w - 1));
    const int64_t hi = (int64_t{1} << (w - 1)) - 1;
    if (v >= lo && v <= hi)
      return w;
  }
  return 32;
}

std::vector<uint32_t> wordsFromBits(const std::string& bits, uint64_t totalBits) {
  std::vector<uint32_t> words((totalBits + 31) / 32, 0);
  uint64_t k = 0;
  for (char ch : bits) {
    if (ch == ' ')
      continue;
    if (ch == '1')
      words[k / 32] |= uint32_t{1} << (k % 32);
    ++k;
  }
  return words;
}

namespace {

/// Index of the first difference, or -1.
template <typename T>
int64_t firstMismatch(const std::vector<T>& expected, const std::vector<int16_t>& actual,
                      size_t offset) {
  for (size_t i = 0; i < actual.size(); ++i)
    if (static_cast<int32_t>(expected[offset + i]) != actual[i])
      return static_cast<int64_t>(i);
  return -1;
}

} // namespace

template <typename T>
CompressionStats checkRoundTrip(const BovedaParams& p, const std::vector<T>& values,
                                const std::string& what) {
  SCOPED_TRACE(what + " [" + p.describe() + "], " + std::to_string(values.size()) + " values");
  const CompressedTensor t = compress(p, values);

  const std::vector<int16_t> all = decompress(t);
  EXPECT_EQ(all.size(), values.size());
  if (all.size() == values.size()) {
    const int64_t bad = firstMismatch(values, all, 0);
    EXPECT_EQ(bad, -1) << "value " << bad << ": expected " << int(values[size_t(bad)])
                       << ", decoded " << all[size_t(bad)];
  }

  // Independent expectations: blocks, groups and widths from the brute-force width.
  const uint64_t n = values.size();
  const uint64_t b = static_cast<uint64_t>(p.blockValues);
  const uint64_t blocks = (n + b - 1) / b;
  uint64_t groups = 0;
  std::array<uint64_t, 17> byWidth{};
  for (uint64_t first = 0; first < n; first += b) {
    const uint64_t end = std::min(n, first + b);
    for (uint64_t g = first; g < end; g += static_cast<uint64_t>(p.groupSize)) {
      int w = 0;
      for (uint64_t i = g; i < std::min(end, g + static_cast<uint64_t>(p.groupSize)); ++i)
        w = std::max(w, referenceWidth(values[i]));
      ++byWidth[static_cast<size_t>(w)];
      ++groups;
    }
  }
  EXPECT_EQ(t.numBlocks(), blocks);
  EXPECT_EQ(t.blockPointers.size(), blocks);
  EXPECT_EQ(t.stats.groups, groups);
  EXPECT_EQ(t.stats.groupsByWidth, byWidth);
  EXPECT_EQ(t.stats.rawBits, n * static_cast<uint64_t>(p.elementBits));

  // Every block on its own (random access).
  for (uint64_t blk = 0; blk < t.numBlocks(); ++blk) {
    const std::vector<int16_t> one = decompressBlock(t, blk);
    if (one.size() != std::min(b, n - blk * b)) {
      ADD_FAILURE() << "block " << blk << " decodes to " << one.size() << " values";
      break;
    }
    const int64_t bad = firstMismatch(values, one, static_cast<size_t>(blk * b));
    if (bad != -1) {
      ADD_FAILURE() << "block " << blk << " value " << bad << " differs";
      break;
    }
  }

  // Sizes: the stream that exists, the stats, and the fast estimate agree.
  const CompressionStats estimate = measure(p, values);
  EXPECT_TRUE(estimate == t.stats) << "measure() disagrees with compress()";
  EXPECT_EQ(t.stats.streamBits(), t.words.size() * 32);
  EXPECT_EQ(t.stats.containers * static_cast<uint64_t>(p.containerBits), t.words.size() * 32);
  EXPECT_EQ(compressedBits(p, values),
            t.words.size() * 32 + t.blockPointers.size() * static_cast<uint64_t>(p.pointerBits));
  return t.stats;
}

template CompressionStats checkRoundTrip(const BovedaParams&, const std::vector<int8_t>&,
                                         const std::string&);
template CompressionStats checkRoundTrip(const BovedaParams&, const std::vector<int16_t>&,
                                         const std::string&);

} // namespace by::boveda::test
