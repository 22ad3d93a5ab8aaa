// The common ground of the Boveda system tests (system_boveda_test.cpp: compressed moves
// through DRAM; system_boveda_onchip_test.cpp: the on-chip form): the DRAM layout, host
// blocks compressed with the C++ codec, the run against the functional model, and the check
// of blocks moved back out.
#pragma once

#include "boveda/codec.h"
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"

#include <cstdio>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace by::test::boveda_system {

namespace fm = funcmodel;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kRaw = kBase + 0x1000;     // uncompressed inputs
constexpr uint64_t kStream = kBase + 0x10000; // the codec's container stream
constexpr uint64_t kTable = kBase + 0x30000;  // pointer entries (8 bytes per block)
constexpr uint64_t kOut = kBase + 0x40000;    // uncompressed outputs
constexpr uint64_t kSize = 0x80000;

/// A block of the host: rows x cols values (row-major) and, once compressed, its containers.
struct Block {
  int rows = 0, cols = 0;
  std::vector<int16_t> values;
  uint32_t first = 0;      // first container in the stream at kStream
  uint32_t containers = 0; // containers of the block
};

class BovedaSystemTest : public ::testing::Test {
protected:
  BovedaSystemTest(uint64_t seed, const char* what)
      : cfg(builtConfig()), p(fm::ModelParams::from(cfg)), dim(p.dim), row(p.spRowElems),
        image(kSize, 0), rng(testSeed(seed, what)) {}

  void put8(uint64_t addr, uint8_t v) { image[addr - kBase] = v; }
  void put32(uint64_t addr, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      put8(addr + i, static_cast<uint8_t>(v >> (8 * i)));
  }
  static uint32_t get32(const std::vector<uint8_t>& d, uint64_t addr) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= uint32_t{d[addr - kBase + i]} << (8 * i);
    return v;
  }
  static int64_t getElem(const std::vector<uint8_t>& d, uint64_t addr, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
      v |= uint64_t{d[addr - kBase + i]} << (8 * i);
    return golden::wrap(static_cast<int64_t>(v), 8 * bytes);
  }

  /// Random values of one of several kinds: 0 small (compress well), 1 sparse, 2 full range.
  Block randomBlock(int rows, int cols, int kind) {
    Block b{rows, cols, {}};
    const int w = p.inputWidth;
    for (int i = 0; i < rows * cols; ++i) {
      const uint64_t r = rng.next();
      int64_t v = 0;
      if (kind == 0)
        v = static_cast<int64_t>(r % 7) - 3;
      else if (kind == 1)
        v = r % 4 == 0 ? static_cast<int64_t>((r >> 8) % 31) - 15 : 0;
      else
        v = static_cast<int64_t>(r % (uint64_t{1} << w)) - (int64_t{1} << (w - 1));
      b.values.push_back(static_cast<int16_t>(v));
    }
    return b;
  }

  /// The config's codec format for a block of `values` values.
  boveda::BovedaParams format(int values) const {
    boveda::BovedaParams f = p.bovedaFormat;
    f.blockValues = values;
    return f;
  }

  /// Compresses the blocks with the codec, back to back from container 0 of the stream at
  /// kStream, sets their first container and count, and writes block i's pointer entry
  /// {first, containers} at kTable + 8*i (the layout docs/isa.md gives).
  void writeCompressed(std::vector<Block>& blocks) {
    uint32_t next = 0;
    for (size_t i = 0; i < blocks.size(); ++i) {
      Block& b = blocks[i];
      const boveda::CompressedTensor t =
          boveda::compress(format(static_cast<int>(b.values.size())), b.values);
      const std::vector<uint8_t> bytes = t.bytes();
      for (size_t k = 0; k < bytes.size(); ++k)
        put8(kStream + uint64_t{next} * (p.bovedaFormat.containerBits / 8) + k, bytes[k]);
      b.first = next;
      b.containers = static_cast<uint32_t>(t.numContainers());
      put32(kTable + 8 * i, b.first);
      put32(kTable + 8 * i + 4, b.containers);
      next += b.containers;
    }
  }

  /// Runs `prog` on `image` (the whole memory: kSize bytes unless a test resized it) on the
  /// accelerator and the functional model and compares them.
  RunOutcome run(const std::string& name) {
    RunOptions o;
    o.name = name;
    o.system.memBase = kBase;
    o.system.memSize = image.size();
    o.system.seed = rng.next();
    RunOutcome r = runAndCompare(cfg, prog, image, o);
    std::printf("%s: %zu commands, %llu cycles\n", name.c_str(), prog.size(),
                static_cast<unsigned long long>(r.cycles));
    EXPECT_TRUE(r.ok) << r.failure << "program saved to " << saveProgram(name, prog);
    return r;
  }

  /// Block i, moved out one column block of `row` values (a scratchpad row) per row at kOut +
  /// 0x1000*i + 0x100*column block, holds its values (blocks for which `skip` is true are not
  /// checked).
  void expectBlocksAtOut(const RunOutcome& r, const std::vector<Block>& blocks,
                         const std::function<bool(size_t)>& skip = nullptr) const {
    for (size_t i = 0; i < blocks.size(); ++i)
      for (int y = 0; !(skip && skip(i)) && y < blocks[i].rows; ++y)
        for (int c = 0; c < blocks[i].cols; ++c)
          ASSERT_EQ(
              getElem(r.dram,
                      kOut + 0x1000 * i + 0x100 * (c / this->row) +
                          static_cast<uint64_t>((y * this->row + c % this->row) * p.inputBytes),
                      p.inputBytes),
              blocks[i].values[static_cast<size_t>(y * blocks[i].cols + c)])
              << "block " << i << " row " << y << " col " << c;
  }

  config::Config cfg;
  fm::ModelParams p;
  int dim;
  int row; // elements of a scratchpad row: DIM*lanes
  std::vector<uint8_t> image;
  fm::Program prog;
  axi::Rng rng;
};

/// One WS tile product of the matmul programs: the B tile at scratchpad row `spB` (weights,
/// DIM x n), the A tile at `spA` (DIM x DIM), the result into accumulator rows from `accRow`,
/// added to what is there when `accumulate`.
inline void wsTileProduct(fm::Program& pr, int dim, int n, uint32_t spB, uint32_t spA,
                          uint32_t accRow, bool accumulate) {
  const fm::Operand w{fm::spAddr(spB), uint32_t(dim), uint32_t(n)};
  const fm::Operand c{fm::accAddr(accRow, accumulate), uint32_t(dim), uint32_t(n)};
  const fm::Operand a{fm::spAddr(spA), uint32_t(dim), uint32_t(dim)};
  const fm::Operand none{fm::garbageAddr(), uint32_t(dim), uint32_t(n)};
  pr.push_back(fm::preload(w, c));
  pr.push_back(fm::compute(true, a, none));
}

/// The matmul programs' result: m x n rows of the accumulator, scaled to elem_t, to `dram`.
inline void storeResult(fm::Program& pr, uint64_t dram, int m, int n, int inputBytes) {
  fm::ConfigStArgs so;
  so.stride = static_cast<uint32_t>(n * inputBytes);
  pr.push_back(fm::configSt(so));
  pr.push_back(fm::mvout(dram, fm::accAddr(0), uint32_t(m), uint32_t(n)));
}

} // namespace by::test::boveda_system
