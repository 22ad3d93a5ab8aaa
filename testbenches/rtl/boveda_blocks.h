// Shared by the Boveda compressor and decompressor block tests: the parameters the Verilated
// module was built with, the blocks to feed (adversarial ones and random ones), and the
// reference stream of a block from the C++ codec, cut into StreamWidth-bit words.
#pragma once

#include "boveda/codec.h"
#include "golden/bitvec.h"
#include "hw/generators.h"
#include "rtl_config.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace by::test {

/// The module's parameters: the built config's, or the -G overrides of a corner build
/// (BY_BOVEDA_VARIANT, compile definitions set by CMake to the same values).
inline hw::BovedaHwParams builtBovedaParams() {
#ifdef BY_BOVEDA_VARIANT
  hw::BovedaHwParams p;
  p.elementBits = BY_BOVEDA_ELEM;
  p.groupSize = BY_BOVEDA_GROUP;
  p.headerBits = BY_BOVEDA_HEADER;
  p.containerBits = BY_BOVEDA_CONTAINER;
  p.zeroAware = BY_BOVEDA_ZERO_AWARE != 0;
  p.streamWidth = BY_BOVEDA_STREAM;
  return p;
#else
  return hw::bovedaHwParams(builtConfig());
#endif
}

inline const char* bovedaVariant() {
#ifdef BY_BOVEDA_VARIANT
  return BY_BOVEDA_VARIANT;
#else
  return BY_CONFIG_NAME;
#endif
}

/// The codec parameters of one block of `n` values.
inline boveda::BovedaParams codecParams(const hw::BovedaHwParams& h, int n) {
  boveda::BovedaParams p;
  p.elementBits = h.elementBits;
  p.groupSize = h.groupSize;
  p.headerBits = h.headerBits;
  p.containerBits = h.containerBits;
  p.zeroAware = h.zeroAware;
  p.blockValues = n;
  return p;
}

/// The reference stream of one block, as StreamWidth-bit words.
inline std::vector<golden::BitVec> referenceWords(const hw::BovedaHwParams& h,
                                                  const std::vector<int16_t>& block) {
  const boveda::CompressedTensor t =
      boveda::compress(codecParams(h, static_cast<int>(block.size())), block);
  const int perWord = h.streamWidth / 32;
  std::vector<golden::BitVec> out;
  for (size_t i = 0; i < t.words.size(); i += static_cast<size_t>(perWord)) {
    golden::BitVec w(h.streamWidth);
    for (int k = 0; k < perWord; ++k)
      w.set(32 * k, 32, t.words[i + static_cast<size_t>(k)]);
    out.push_back(w);
  }
  return out;
}

/// Blocks that stress every rule of the format, then `randomBlocks` random ones: the
/// extremes (all zero, all max, all min, alternating min/max and +1/-1, one full-width value
/// among small ones, both ends of every width), lengths around group and container
/// boundaries, and random values of random distributions (uniform, small normal, sparse,
/// ReLU-like, a random width per group).
inline std::vector<std::vector<int16_t>> testBlocks(const hw::BovedaHwParams& h,
                                                    std::mt19937_64& rng, int randomBlocks) {
  const int w = h.elementBits, g = h.groupSize;
  const int16_t maxV = static_cast<int16_t>((1 << (w - 1)) - 1);
  const int16_t minV = static_cast<int16_t>(-(1 << (w - 1)));
  std::vector<std::vector<int16_t>> blocks;
  const int lengths[] = {1, g - 1, g, g + 1, 3 * g, 4 * g + 3};
  for (int n : lengths) {
    if (n < 1)
      continue;
    blocks.emplace_back(n, 0);
    blocks.emplace_back(n, maxV);
    blocks.emplace_back(n, minV);
    std::vector<int16_t> alt(n), pm(n), spike(n, 1);
    for (int i = 0; i < n; ++i) {
      alt[i] = i % 2 ? minV : maxV;
      pm[i] = i % 2 ? -1 : 1;
    }
    spike[n / 2] = minV;
    blocks.push_back(alt);
    blocks.push_back(pm);
    blocks.push_back(spike);
  }
  for (int width = 1; width <= w; ++width) {
    // Both ends of width `width`, in a group of their own and mixed with zeros.
    const int16_t hi = static_cast<int16_t>((1 << (width - 1)) - 1);
    const int16_t lo = static_cast<int16_t>(-(1 << (width - 1)));
    std::vector<int16_t> b(2 * g, 0);
    for (int i = 0; i < g; ++i)
      b[i] = i % 3 == 0 ? lo : (width > 1 && i % 3 == 1 ? hi : 0);
    b[g + g / 2] = lo;
    blocks.push_back(b);
  }
  // The largest group bit length spread over every container offset: blocks of one full-width
  // group followed by a varying number of width-1 groups.
  for (int extra = 0; extra < 2 * h.containerBits / (h.headerBits + g) + 2; ++extra) {
    std::vector<int16_t> b(static_cast<size_t>(g) * (1 + extra), 0);
    for (int i = 0; i < g; ++i)
      b[i] = i % 2 ? maxV : minV;
    for (size_t i = g; i < b.size(); i += 2)
      b[i] = -1;
    blocks.push_back(b);
  }
  std::uniform_int_distribution<int> any(minV, maxV);
  for (int r = 0; r < randomBlocks; ++r) {
    const int n = std::uniform_int_distribution<int>(1, r % 4 == 0 ? 512 : 8 * g)(rng);
    const int kind = r % 5;
    std::normal_distribution<double> normal(0.0, kind == 1 ? 6.0 : 20.0);
    std::vector<int16_t> b(n);
    int groupWidth = 1;
    for (int i = 0; i < n; ++i) {
      if (i % g == 0)
        groupWidth = std::uniform_int_distribution<int>(0, w)(rng);
      int v = 0;
      switch (kind) {
      case 0:
        v = any(rng);
        break;
      case 1:
      case 2:
        v = static_cast<int>(std::lround(normal(rng)));
        if (kind == 2 && rng() % 10 < 7)
          v = 0; // 70% zeros
        break;
      case 3:
        v = std::max(0, static_cast<int>(std::lround(normal(rng))));
        break;
      default:
        v = groupWidth == 0 ? 0
                            : std::uniform_int_distribution<int>(-(1 << (groupWidth - 1)),
                                                                 (1 << (groupWidth - 1)) - 1)(rng);
      }
      b[i] = static_cast<int16_t>(std::clamp(v, int{minV}, int{maxV}));
    }
    blocks.push_back(b);
  }
  return blocks;
}

} // namespace by::test
