// Compressed MVIN / MVOUT in the functional model (docs/isa.md "Boveda"), on the boveda_tiny
// test config (DIM 4, int8, G 8, H 4, C 64). The reference is the Boveda codec itself
// (compress() of the block's values, decompress() of what the model wrote) and values placed
// by hand, never the model's own output.
#include "boveda/codec.h"
#include "fm_util.h"
#include "fuzzer/program_generator.h"
#include "hwspec/isa.h"

#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using namespace by::fuzzer;
using by::test::kDramBase;
using by::test::Machine;

namespace {

constexpr uint64_t kRaw = kDramBase + 0x0000;    // uncompressed rows
constexpr uint64_t kStream = kDramBase + 0x1000; // container stream
constexpr uint64_t kTable = kDramBase + 0x3000;  // pointer table: 8 bytes per block
constexpr uint64_t kOut = kDramBase + 0x4000;

ConfigLdArgs ldArgs(uint64_t stride, bool compressed) {
  ConfigLdArgs a;
  a.stride = stride;
  a.compressed = compressed;
  return a;
}

ConfigStArgs stArgs(uint32_t stride, bool compressed) {
  ConfigStArgs a;
  a.stride = stride;
  a.compressed = compressed;
  return a;
}

boveda::BovedaParams format(const Machine& m, int values) {
  boveda::BovedaParams p = m.model.params().bovedaFormat;
  p.blockValues = values;
  return p;
}

uint32_t word(const Machine& m, uint64_t addr) {
  const auto b = m.get(addr, 1, 4);
  return static_cast<uint32_t>((b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 |
                               (b[3] & 0xff) << 24);
}

/// Values of a rows x cols block with small magnitudes (so that they compress) and zeros.
std::vector<int64_t> blockValues(int rows, int cols, int seed) {
  std::vector<int64_t> v(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] =
        (static_cast<int>(i) * 7 + seed) % 5 == 0 ? 0 : (static_cast<int>(i) * 13 + seed) % 9 - 4;
  v[0] = -128;
  return v;
}

} // namespace

// MVOUT of two compressed blocks: the stream holds compress() of each block back to back, the
// pointer entries say where; MVIN of each block through its entry restores the rows.
TEST(FuncModelBoveda, MvoutWritesCodecStreamAndMvinRestoresIt) {
  Machine m("boveda_tiny");
  const int rows = 4, cols = 12; // three column blocks of DIM 4
  const auto a = blockValues(rows, cols, 1), b = blockValues(rows, cols, 3);
  m.put(kRaw, 1, a);
  m.put(kRaw + 0x100, 1, b);
  m.ok(configLd(ldArgs(cols, false)));
  m.ok(mvin(0, kRaw, spAddr(0), rows, cols));
  m.ok(mvin(0, kRaw + 0x100, spAddr(100), rows, cols));
  m.ok(configSt(stArgs(static_cast<uint32_t>(kStream), true)));
  m.ok(mvout(kTable, spAddr(0), rows, cols));
  m.ok(mvout(kTable + 8, spAddr(100), rows, cols));

  std::vector<int16_t> a16(a.begin(), a.end()), b16(b.begin(), b.end());
  const boveda::CompressedTensor ca = boveda::compress(format(m, rows * cols), a16);
  const boveda::CompressedTensor cb = boveda::compress(format(m, rows * cols), b16);
  const uint32_t na = static_cast<uint32_t>(ca.numContainers());
  EXPECT_EQ(word(m, kTable), 0u);
  EXPECT_EQ(word(m, kTable + 4), na);
  EXPECT_EQ(word(m, kTable + 8), na);
  EXPECT_EQ(word(m, kTable + 12), cb.numContainers());
  for (size_t i = 0; i < ca.words.size(); ++i)
    EXPECT_EQ(word(m, kStream + 4 * i), ca.words[i]) << "block 0 word " << i;
  for (size_t i = 0; i < cb.words.size(); ++i)
    EXPECT_EQ(word(m, kStream + 8ull * na + 4 * i), cb.words[i]) << "block 1 word " << i;
  EXPECT_LT(ca.words.size() * 4, a.size()) << "these values should compress";

  // Read both blocks back, the second first, into other rows.
  m.ok(configLd(ldArgs(kStream, true)));
  m.ok(mvin(0, kTable + 8, spAddr(200), rows, cols));
  m.ok(mvin(0, kTable, spAddr(300), rows, cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int blk = c / 4, e = c % 4;
      EXPECT_EQ(m.model.sp(300 + blk * 4 + r, e), a[r * cols + c]) << r << "," << c;
      EXPECT_EQ(m.model.sp(200 + blk * 4 + r, e), b[r * cols + c]) << r << "," << c;
    }
  // Bytes moved: the raw rows and 2 x stream read, plus two pointer lines (docs/boveda.md,
  // "Pointer lines": the first MVIN misses and reads the table's line, the second hits it and
  // reads the next line ahead); 2 x (stream + entry) written.
  const uint64_t streams = 8ull * (na + cb.numContainers());
  const uint64_t line = static_cast<uint64_t>(m.model.params().bovedaPtrLineBytes);
  EXPECT_EQ(line, 64u);
  EXPECT_EQ(m.model.dramBytesWritten(), streams + 16);
  EXPECT_EQ(m.model.dramBytesRead(), 2ull * rows * cols + streams + 2 * line);
}

// A new compressed CONFIG_ST restarts the stream at container 0.
TEST(FuncModelBoveda, ConfigStRestartsTheStream) {
  Machine m("boveda_tiny");
  m.ok(configSt(stArgs(static_cast<uint32_t>(kStream), true)));
  m.ok(mvout(kTable, spAddr(0), 4, 4));
  m.ok(mvout(kTable + 8, spAddr(0), 4, 4));
  EXPECT_EQ(word(m, kTable + 8), word(m, kTable + 4));
  m.ok(configSt(stArgs(static_cast<uint32_t>(kStream + 0x800), true)));
  m.ok(mvout(kTable + 16, spAddr(0), 4, 4));
  EXPECT_EQ(word(m, kTable + 16), 0u);
  // All-zero rows: one header per group, one 64-bit container per block.
  EXPECT_EQ(word(m, kTable + 20), 1u);
  EXPECT_EQ(word(m, kStream + 0x800), 0u);
}

// Accumulator rows leave scaled, activated and saturated, then compressed: the stream decodes
// to what a plain MVOUT writes.
TEST(FuncModelBoveda, MvoutFromAccumulatorCompressesTheScaledValues) {
  Machine m("boveda_tiny");
  const std::vector<int64_t> acc = {1000, -1000, 3, -3, 0, 64, -65, 7, 200, 1, 2, -200, 5, 6, 7, 8};
  m.put(kRaw, 4, acc);
  ConfigLdArgs ld = ldArgs(16, false);
  m.ok(configLd(ld));
  m.ok(mvin(0, kRaw, accAddr(0), 4, 4));
  ConfigStArgs st = stArgs(4, false); // 4 int8 values per DRAM row
  st.activation = 1;
  st.accScaleBits = floatBits(0.5f);
  m.ok(configSt(st));
  m.ok(mvout(kOut, accAddr(0), 4, 4)); // plain: the reference bytes
  st.stride = static_cast<uint32_t>(kStream);
  st.compressed = true;
  m.ok(configSt(st));
  m.ok(mvout(kTable, accAddr(0), 4, 4));
  boveda::CompressedTensor t;
  t.params = format(m, 16);
  t.numValues = 16;
  t.blockPointers = {0};
  for (uint32_t i = 0; i < 2 * word(m, kTable + 4); ++i)
    t.words.push_back(word(m, kStream + 4 * i));
  const std::vector<int16_t> decoded = boveda::decompress(t);
  const std::vector<int64_t> plain = m.get(kOut, 1, 16);
  EXPECT_EQ(std::vector<int64_t>(decoded.begin(), decoded.end()), plain);
}

TEST(FuncModelBoveda, Rejections) {
  const int unsupported = hw::isa::errorCode("UNSUPPORTED");
  const int dmaError = hw::isa::errorCode("DMA_ERROR");
  {
    Machine plain("tiny"); // no Boveda: the compressed bit is UNSUPPORTED
    EXPECT_EQ(plain.run(configLd(ldArgs(kStream, true))).error, unsupported);
    EXPECT_EQ(plain.run(configSt(stArgs(static_cast<uint32_t>(kStream), true))).error, unsupported);
  }
  Machine m("boveda_tiny");
  m.ok(configLd(ldArgs(kStream, true)));
  // Compressed blocks hold elem_t values for the scratchpad only.
  EXPECT_EQ(m.run(mvin(0, kTable, accAddr(0), 4, 4)).error, unsupported);
  // Address 0 still writes zeros, to the accumulator too.
  m.ok(mvin(0, 0, accAddr(0), 4, 4));
  // Pointer entries: 0 containers, more than the block can need, past 4 GiB. The host
  // rewrites the entry between moves, so it issues a FLUSH before the next compressed MVIN
  // (the loader's pointer lines would return the old entry: see PointerLines below).
  m.put(kTable, 4, {0, 0});
  EXPECT_EQ(m.run(mvin(0, kTable, spAddr(0), 4, 4)).error, dmaError);
  m.put(kTable, 4, {0, 4}); // 16 int8 values need at most 2 groups of 68 bits: 3 containers
  m.ok(flush());
  EXPECT_EQ(m.run(mvin(0, kTable, spAddr(0), 4, 4)).error, dmaError);
  EXPECT_EQ(m.run(mvin(0, 0xfffffffcull, spAddr(0), 4, 4)).error, dmaError);
  // A malformed block (non-zero padding) is DMA_ERROR.
  m.put(kTable, 4, {0, 1});
  m.ok(flush());
  m.put(kStream, 4, {0, 1 << 31});
  EXPECT_EQ(m.run(mvin(0, kTable, spAddr(0), 4, 4)).error, dmaError);
  m.put(kStream, 4, {0, 0});
  m.ok(mvin(0, kTable, spAddr(0), 4, 4));

  ConfigStArgs pool = stArgs(static_cast<uint32_t>(kStream), true);
  pool.poolStride = 1;
  pool.poolSize = 2;
  m.ok(configSt(pool));
  EXPECT_EQ(m.run(mvout(kTable, accAddr(0), 4, 4)).error, unsupported);
  m.ok(configSt(stArgs(static_cast<uint32_t>(kStream), true)));
  EXPECT_EQ(m.run(mvout(kTable, accAddr(0, false, true), 4, 4)).error, unsupported); // raw acc_t
  EXPECT_EQ(m.run(mvout(0xfffffffcull, spAddr(0), 4, 4)).error, dmaError);
}

// The loader's pointer lines (docs/boveda.md, "Pointer lines"), as the model follows them:
// which lines are read (DMA bytes), and that an entry the host rewrites is seen only after a
// CONFIG_LD, MVOUT or FLUSH, while a line holds its old value.
TEST(FuncModelBoveda, PointerLines) {
  Machine m("boveda_tiny"); // lines of 64 bytes: 8 entries each
  const uint64_t line = 64;
  // Two blocks of one container each: {1, 0, ...} and {2, 0, ...} as one group of width 3.
  std::vector<int64_t> one(16, 0), two(16, 0);
  one[0] = 1;
  two[0] = 2;
  const boveda::CompressedTensor c1 =
      boveda::compress(format(m, 16), std::vector<int16_t>(one.begin(), one.end()));
  const boveda::CompressedTensor c2 =
      boveda::compress(format(m, 16), std::vector<int16_t>(two.begin(), two.end()));
  ASSERT_EQ(c1.numContainers(), 1u);
  ASSERT_EQ(c2.numContainers(), 1u);
  m.put(kStream, 4, {static_cast<int64_t>(c1.words[0]), static_cast<int64_t>(c1.words[1])});
  m.put(kStream + 8, 4, {static_cast<int64_t>(c2.words[0]), static_cast<int64_t>(c2.words[1])});
  // 24 entries (three lines), entry i -> block i % 2.
  for (int i = 0; i < 24; ++i)
    m.put(kTable + 8 * static_cast<uint64_t>(i), 4, {i % 2, 1});
  m.ok(configLd(ldArgs(kStream, true)));
  auto bytesFor = [&](const std::vector<uint64_t>& entries) {
    const uint64_t before = m.model.dramBytesRead();
    for (uint64_t e : entries)
      m.ok(mvin(0, e, spAddr(0), 4, 4));
    return m.model.dramBytesRead() - before - 8 * entries.size(); // minus the containers
  };
  // In order: the first entry misses (one line), the next one hits and reads line 1 ahead,
  // the first hits of lines 1 and 2 read lines 2 and 3 ahead: four lines for 24 entries.
  std::vector<uint64_t> inOrder;
  for (int i = 0; i < 24; ++i)
    inOrder.push_back(kTable + 8 * static_cast<uint64_t>(i));
  EXPECT_EQ(bytesFor(inOrder), 4 * line);
  // All four lines are held; a FLUSH empties them.
  EXPECT_EQ(bytesFor({kTable + 8 * 5, kTable + 8 * 17}), 0u);
  m.ok(flush());
  EXPECT_EQ(bytesFor({kTable + 8 * 17}), line); // a miss, the first lookup: no read-ahead
  // An unaligned entry is read alone (8 bytes) and leaves the lines alone.
  m.put(kTable + 0x200 + 3, 4, {1, 1});
  EXPECT_EQ(bytesFor({kTable + 0x200 + 3}), 8u);
  EXPECT_EQ(bytesFor({kTable + 8 * 16}), line); // a hit: line 3 is read ahead
  // A line is not read again while it is held: the host's rewrite of entry 17 (to block 0)
  // stays unseen until an invalidation.
  m.put(kTable + 8 * 17, 4, {0, 1});
  m.ok(mvin(0, kTable + 8 * 17, spAddr(0), 4, 4));
  EXPECT_EQ(m.model.sp(0, 0), 2) << "the line still holds the old entry (block 1)";
  m.ok(configLd(ldArgs(kStream, true)));
  m.ok(mvin(0, kTable + 8 * 17, spAddr(0), 4, 4));
  EXPECT_EQ(m.model.sp(0, 0), 1) << "after a CONFIG_LD the entry is read again";
  m.put(kTable + 8 * 17, 4, {1, 1});
  m.ok(configSt(stArgs(static_cast<uint32_t>(kOut), false)));
  m.ok(mvout(kOut, spAddr(100), 1, 4)); // any MVOUT invalidates too
  m.ok(mvin(0, kTable + 8 * 17, spAddr(0), 4, 4));
  EXPECT_EQ(m.model.sp(0, 0), 2) << "after an MVOUT the entry is read again";
  // Least recently used replacement, on a fresh table (lines L0, L1, ...).
  m.ok(flush());
  for (int i = 0; i < 64; ++i)
    m.put(kTable + 0x400 + 8 * static_cast<uint64_t>(i), 4, {i % 2, 1});
  const uint64_t t = kTable + 0x400;
  EXPECT_EQ(bytesFor({t}), line);                  // L0 miss; held (most recent first): L0
  EXPECT_EQ(bytesFor({t + line}), 2 * line);       // L1 miss after L0: L2 read ahead; L2 L1 L0
  EXPECT_EQ(bytesFor({t + 8}), 0u);                // L0 hit, L1 held: nothing ahead; L0 L2 L1
  EXPECT_EQ(bytesFor({t + 5 * line}), line);       // L5 miss into the free line; L5 L0 L2 L1
  EXPECT_EQ(bytesFor({t + 7 * line}), line);       // L7 miss replaces L1; L7 L5 L0 L2
  EXPECT_EQ(bytesFor({t + 16}), line);             // L0 hit, L1 read ahead over L2; L1 L0 L7 L5
  EXPECT_EQ(bytesFor({t + 2 * line}), line);       // L2 was replaced: miss over L5; L2 L1 L0 L7
  EXPECT_EQ(bytesFor({t + 5 * line}), line);       // and L5 misses again, over L7; L5 L2 L1 L0
  EXPECT_EQ(bytesFor({t + line + 8, t + 24}), 0u); // L1, L0 hit, their next lines are held
}

// The fuzzer's programs on a Boveda config contain compressed moves, and the model accepts
// every compressed MVIN it generates (each reads a block an earlier compressed MVOUT wrote).
TEST(FuncModelBoveda, GeneratorEmitsCompressedRoundTrips) {
  const config::Config cfg = test::shippedConfig("boveda_tiny");
  const DramLayout layout = ProgramGenerator::layoutAt(cfg, kDramBase, 0x4000, 0x40000);
  const ProgramGenerator gen(cfg, layout);
  int mvouts = 0, mvins = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const GeneratedProgram g = gen.generate(seed);
    funcmodel::DramImage dram(kDramBase, test::kDramSize);
    FuncModel model(cfg, dram);
    for (size_t i = 0; i < g.program.size(); ++i) {
      const ExecResult r = model.execute(g.program[i]);
      if (g.comments[i] == "boveda: compressed mvout")
        ++mvouts;
      if (g.comments[i] == "boveda: compressed mvin") {
        ++mvins;
        EXPECT_TRUE(r.accepted) << "seed " << seed << " command " << i << " error " << r.error;
      }
    }
  }
  EXPECT_GT(mvouts, 20);
  EXPECT_GT(mvins, 20);
}

// The on-chip form (docs/isa.md "Boveda: on-chip form") on boveda_onchip_tiny (DIM 8, int8,
// G 8, C 64: one container per scratchpad row): a plain MVIN copies the codec's containers into
// scratchpad rows, DECOMPRESS decodes them into raw rows equal to the codec's input, with no
// DRAM traffic. Without on_chip the funct is unknown.
TEST(FuncModelBoveda, DecompressDecodesContainerRows) {
  {
    Machine m("boveda_tiny");
    EXPECT_EQ(m.run(decompress(spAddr(0), 1, spAddr(8), 4, 4)).error,
              hw::isa::errorCode("UNKNOWN_FUNCT"));
  }
  Machine m("boveda_onchip_tiny");
  const int dim = m.model.params().dim;
  ASSERT_EQ(dim, 8);
  const std::vector<int64_t> values = blockValues(dim, 2 * dim + 3, 5); // 3 column blocks
  std::vector<int16_t> v16(values.begin(), values.end());
  const boveda::CompressedTensor t =
      boveda::compress(format(m, static_cast<int>(values.size())), v16);
  const std::vector<uint8_t> bytes = t.bytes();
  m.put(kStream, 1, std::vector<int64_t>(bytes.begin(), bytes.end()));
  ConfigLdArgs rows = ldArgs(static_cast<uint64_t>(dim), false); // one container per row
  rows.blockStride = static_cast<uint32_t>(dim + 2);
  m.ok(configLd(rows));
  const uint32_t n = static_cast<uint32_t>(t.numContainers());
  m.ok(mvin(0, kStream, spAddr(0), n, static_cast<uint32_t>(dim)));
  const uint64_t readBefore = m.model.dramBytesRead();
  m.ok(decompress(spAddr(0), n, spAddr(100), static_cast<uint32_t>(dim),
                  static_cast<uint32_t>(2 * dim + 3)));
  EXPECT_EQ(m.model.dramBytesRead(), readBefore) << "DECOMPRESS moves no DRAM bytes";
  for (int r = 0; r < dim; ++r)
    for (int c = 0; c < 2 * dim + 3; ++c)
      ASSERT_EQ(m.model.sp(100 + (c / dim) * (dim + 2) + r, c % dim),
                values[static_cast<size_t>(r * (2 * dim + 3) + c)])
          << r << "," << c;
  // The containers are untouched; a container too many is a malformed block.
  for (uint32_t k = 0; k < n * static_cast<uint32_t>(dim); ++k)
    ASSERT_EQ(m.model.sp(static_cast<int>(k) / dim, static_cast<int>(k) % dim),
              static_cast<int8_t>(bytes[k]));
  EXPECT_EQ(m.run(decompress(spAddr(0), n + 1, spAddr(100), static_cast<uint32_t>(dim),
                             static_cast<uint32_t>(2 * dim + 3)))
                .error,
            hw::isa::errorCode("DMA_ERROR"));
  // Source rows 0..n-1 and destination rows from n-1 overlap.
  EXPECT_EQ(m.run(decompress(spAddr(0), n, spAddr(n - 1), static_cast<uint32_t>(dim),
                             static_cast<uint32_t>(2 * dim + 3)))
                .error,
            hw::isa::errorCode("LOCAL_RANGE"));
}
