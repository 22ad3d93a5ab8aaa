// Shared pieces of the DMA reader/writer block tests: the parameters of the built config,
// request generation (random byte addresses biased toward unaligned starts, 4 KiB crossings
// and the memory's edges; lengths 1..MaxBytes biased toward the extremes), an independent
// count of the bursts a request needs, tags, memory set-ups and port <-> byte copying.
#pragma once

#include "axi/axi_memory.h"
#include "axi/axi_types.h"
#include "axi/dma_checker.h"
#include "hw/generators.h"
#include "rtl_config.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>
#include <verilated.h>

namespace by::test::dma {

/// The DMA parameters the model was built with: the config's, or the parameter overrides of a
/// corner-case build (BY_DMA_* definitions, the same values passed to Verilator as -G).
inline hw::DmaParams builtParams() {
  hw::DmaParams p = hw::dmaParams(builtConfig());
#ifdef BY_DMA_DATA_WIDTH
  p.dataWidth = BY_DMA_DATA_WIDTH;
  p.maxInflight = p.maxWrites = BY_DMA_MAX_INFLIGHT;
  p.maxBurst = BY_DMA_MAX_BURST;
  p.maxBytes = BY_DMA_MAX_BYTES;
#endif
  return p;
}

/// The name printed in reports: the config, or the corner-case build.
inline const char* variantName() {
#ifdef BY_DMA_VARIANT
  return BY_DMA_VARIANT;
#else
  return BY_CONFIG_NAME;
#endif
}

/// The memory every test uses: 64 KiB (16 pages) at 0x8000_0000, 4 KiB aligned, so a beat is
/// either wholly inside or wholly outside and "some byte outside" is exactly "some beat
/// outside".
constexpr uint64_t kMemBase = 0x80000000ull;
constexpr uint64_t kMemSize = 64 * 1024;

inline axi::MemoryConfig memoryConfig(const hw::DmaParams& p, uint64_t seed) {
  axi::MemoryConfig m;
  m.base = kMemBase;
  m.size = kMemSize;
  m.dataBytes = p.beatBytes();
  m.seed = seed;
  return m;
}

/// Random back-pressure, latency 0..40, gaps, interleaving: the stress set-up.
inline axi::MemoryConfig stressMemory(const hw::DmaParams& p, uint64_t seed) {
  axi::MemoryConfig m = memoryConfig(p, seed);
  m.minLatency = 0;
  m.maxLatency = 40;
  m.arReadyPercent = 60;
  m.awReadyPercent = 60;
  m.wReadyPercent = 70;
  m.rGapPercent = 25;
  m.bGapPercent = 25;
  return m;
}

/// Minimal number of bursts for a request, computed independently of the RTL: per 4 KiB page
/// touched, ceil(beats in that page / MaxBurst).
inline uint64_t minBursts(uint64_t addr, uint32_t len, const hw::DmaParams& p) {
  if (len == 0)
    return 0;
  const uint64_t bb = p.beatBytes();
  const uint64_t first = addr / bb * bb, last = (addr + len - 1) / bb * bb;
  uint64_t bursts = 0;
  for (uint64_t page = first >> 12; page <= last >> 12; ++page) {
    const uint64_t lo = std::max(first, page << 12);
    const uint64_t hi = std::min(last, ((page + 1) << 12) - bb);
    const uint64_t beats = (hi - lo) / bb + 1;
    bursts += (beats + p.maxBurst - 1) / p.maxBurst;
  }
  return bursts;
}

struct Request {
  uint64_t addr = 0;
  uint32_t len = 0;
  uint32_t tag = 0;
  bool expectError = false;
  std::vector<uint8_t> data; // reader: the expected bytes; writer: the bytes to write
  uint64_t acceptCycle = 0;  // set by the testbench
};

/// Random requests. Lengths: MaxBytes (25%), 1..BeatBytes (20%), otherwise uniform. Addresses:
/// crossing a 4 KiB boundary (25%), beat aligned (15%), otherwise uniform inside the memory;
/// `errorPercent` of them partly or wholly outside it.
class RequestGen {
public:
  RequestGen(const hw::DmaParams& p, uint64_t seed, int errorPercent)
      : p_(p), rng_(seed), errorPercent_(errorPercent) {}

  uint32_t length() {
    const int kind = static_cast<int>(rng_.range(0, 99));
    if (kind < 25)
      return static_cast<uint32_t>(p_.maxBytes);
    if (kind < 45)
      return static_cast<uint32_t>(rng_.range(1, p_.beatBytes()));
    return static_cast<uint32_t>(rng_.range(1, p_.maxBytes));
  }

  uint64_t address(uint32_t len) {
    const uint64_t end = kMemBase + kMemSize;
    if (rng_.percent(errorPercent_)) {
      switch (rng_.range(0, 3)) {
      case 0: // straddles the end
        return end - rng_.range(len > 1 ? 1 : 0, len > 1 ? len - 1 : 0);
      case 1: // straddles the start
        return kMemBase - rng_.range(1, len);
      case 2: // above
        return end + rng_.range(0, 1 << 20);
      default: // below
        return kMemBase - len - rng_.range(0, 1 << 20);
      }
    }
    const int kind = static_cast<int>(rng_.range(0, 99));
    if (kind < 25 && len > 1) { // crosses a page boundary inside the memory
      const uint64_t page = kMemBase + rng_.range(1, kMemSize / 4096 - 1) * 4096;
      return page - rng_.range(1, len - 1);
    }
    uint64_t a = kMemBase + rng_.range(0, kMemSize - len);
    if (kind < 40)
      a = a / p_.beatBytes() * p_.beatBytes();
    return a;
  }

  axi::Rng& rng() { return rng_; }

private:
  hw::DmaParams p_;
  axi::Rng rng_;
  int errorPercent_;
};

/// Tags: a random free one each time, so that responses cannot be matched by accident.
class TagPool {
public:
  TagPool(int tagWidth, uint64_t seed) : rng_(seed) {
    for (uint32_t t = 0; t < (1u << tagWidth); ++t)
      free_.push_back(t);
  }
  uint32_t take() {
    const size_t i = rng_.range(0, free_.size() - 1);
    const uint32_t t = free_[i];
    free_[i] = free_.back();
    free_.pop_back();
    return t;
  }
  void give(uint32_t t) { free_.push_back(t); }

private:
  axi::Rng rng_;
  std::vector<uint32_t> free_;
};

// Bytes <-> Verilated ports of any width (byte k at bits [8k+7:8k]).
template <typename T>
std::enable_if_t<std::is_integral_v<T>> putBytes(T& port, const std::vector<uint8_t>& bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size() && i < sizeof(T); ++i)
    v |= uint64_t{bytes[i]} << (8 * i);
  port = static_cast<T>(v);
}
template <std::size_t N> void putBytes(VlWide<N>& port, const std::vector<uint8_t>& bytes) {
  for (std::size_t w = 0; w < N; ++w) {
    uint32_t v = 0;
    for (std::size_t b = 0; b < 4 && 4 * w + b < bytes.size(); ++b)
      v |= uint32_t{bytes[4 * w + b]} << (8 * b);
    port[w] = v;
  }
}
template <typename T>
std::enable_if_t<std::is_integral_v<T>> getBytes(const T& port, std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = i < sizeof(T) ? static_cast<uint8_t>(static_cast<uint64_t>(port) >> (8 * i)) : 0;
}
template <std::size_t N> void getBytes(const VlWide<N>& port, std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = i / 4 < N ? static_cast<uint8_t>(port[i / 4] >> (8 * (i % 4))) : 0;
}

/// Cycles without any progress on the request or response port, with work outstanding, after
/// which a test declares a hang (far above any legal stall: latency 100 plus back-pressure).
constexpr uint64_t kWatchdogCycles = 20000;

} // namespace by::test::dma
