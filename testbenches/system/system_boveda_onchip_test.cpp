// Boveda's on-chip form on the whole accelerator (labels boveda, system; docs/boveda.md,
// "On-chip form"): blocks the C++ codec compressed on the host are copied unchanged into
// scratchpad rows by plain MVINs and decoded on chip by DECOMPRESS. Every program also runs on
// the functional model and every DRAM byte and the error registers are compared
// (system_run.h); the tests check the results against the codec's input values and a CPU
// reference as well.
#include "boveda_system_test.h"
#include "funcmodel/encode.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

namespace by::test {
namespace {

using namespace boveda_system;

class BovedaOnChip : public BovedaSystemTest {
protected:
  BovedaOnChip()
      : BovedaSystemTest(21, "system boveda on-chip test data"),
        rowBytes(static_cast<uint32_t>(p.spRowElems * p.inputBytes)),
        rowsPerContainer(p.bovedaFormat.containerBits / (p.spRowElems * p.inputWidth)) {}

  /// CONFIG_LD channel 0 for container copies: one scratchpad row per DRAM row.
  fm::Instruction configLdRows(uint32_t blockStride = 0) const {
    fm::ConfigLdArgs a;
    a.stride = rowBytes;
    a.blockStride = blockStride;
    return fm::configLd(a);
  }
  /// The plain MVIN that copies block b's containers, unchanged, to scratchpad row `at`.
  fm::Instruction copyContainers(const Block& b, uint32_t at) const {
    return fm::mvin(0, kStream + uint64_t{b.first} * (p.bovedaFormat.containerBits / 8),
                    fm::spAddr(at), b.containers * static_cast<uint32_t>(rowsPerContainer),
                    static_cast<uint32_t>(row));
  }
  uint32_t containerRows(const Block& b) const {
    return b.containers * static_cast<uint32_t>(rowsPerContainer);
  }

  uint32_t rowBytes;
  int rowsPerContainer;
};

TEST_F(BovedaOnChip, ConfigIsOnChip) {
  ASSERT_TRUE(p.bovedaOnChip) << "this test needs a config with compression.boveda.on_chip";
  ASSERT_GE(rowsPerContainer, 1);
}

// Blocks of every shape a move allows (one value, one row of several column blocks, a column,
// a partial last group, full range, sparse), copied into the scratchpad as containers and
// decoded by DECOMPRESS (with a block stride for the column blocks), then moved out raw.
TEST_F(BovedaOnChip, DecompressOfCodecBlocks) {
  const int maxCols = p.maxBlockLen * row;
  const std::vector<std::pair<int, int>> shapes = {{row, row},   {1, 1},           {1, maxCols},
                                                   {row + 3, 1}, {3, 2 * row + 1}, {row, maxCols}};
  std::vector<Block> blocks;
  for (size_t i = 0; i < shapes.size() * 2; ++i)
    blocks.push_back(randomBlock(shapes[i % shapes.size()].first, shapes[i % shapes.size()].second,
                                 static_cast<int>(i % 3)));
  writeCompressed(blocks);
  const uint32_t blockStride = static_cast<uint32_t>(row + 1);
  prog.push_back(configLdRows(blockStride));
  // Containers of every block back to back from row 0, each block decoded in turn into one
  // working area at the top of the scratchpad that the next DECOMPRESS reuses after the
  // previous block's MVOUTs (the reservation station orders them).
  // The widest block's column blocks span (MAX_BLOCK_LEN - 1) * blockStride + W rows (W: a
  // scratchpad row's elements, DIM x lanes).
  const uint32_t work = static_cast<uint32_t>(p.spRows) -
                        static_cast<uint32_t>((p.maxBlockLen - 1) * (row + 1) + row);
  fm::ConfigStArgs so;
  so.stride = rowBytes;
  prog.push_back(fm::configSt(so));
  std::vector<uint32_t> at;
  uint32_t next = 0;
  for (const Block& b : blocks) {
    at.push_back(next);
    prog.push_back(copyContainers(b, next));
    next += containerRows(b);
  }
  ASSERT_LE(next, work) << "the containers must fit below the working area";
  for (size_t i = 0; i < blocks.size(); ++i) {
    prog.push_back(fm::decompress(fm::spAddr(at[i]), blocks[i].containers, fm::spAddr(work),
                                  static_cast<uint32_t>(blocks[i].rows),
                                  static_cast<uint32_t>(blocks[i].cols)));
    const int nblk = (blocks[i].cols + row - 1) / row;
    for (int blk = 0; blk < nblk; ++blk)
      prog.push_back(fm::mvout(kOut + 0x1000 * i + 0x100 * blk,
                               fm::spAddr(work + static_cast<uint32_t>(blk) * blockStride),
                               static_cast<uint32_t>(blocks[i].rows), static_cast<uint32_t>(row)));
  }
  const RunOutcome r = run("boveda_onchip_decompress_blocks");
  ASSERT_EQ(r.modelErrors.count, 0u);
  expectBlocksAtOut(r, blocks);
}

#ifndef BY_VECTOR_PES
// The two WS programs below are hand-written for one-lane PEs (vector PEs read lane-packed
// weights: the driver's layouts), so the vector-PE build (boveda_l4) leaves them out.

// C = A x B (WS, K accumulated in the accumulator): once with A and B moved in raw, once with
// their tiles kept compressed in the scratchpad and decoded into a small working area right
// before each PRELOAD/COMPUTE. Both must equal a CPU reference.
TEST_F(BovedaOnChip, MatmulFromCompressedTilesEqualsUncompressed) {
  const int m = 2 * dim, k = 3 * dim, n = dim;
  std::vector<int16_t> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (auto& v : a)
    v = static_cast<int16_t>(rng.next() % 2 ? 0 : rng.next() % 20); // post-ReLU activations
  for (auto& v : b)
    v = static_cast<int16_t>(static_cast<int64_t>(rng.next() % 9) - 4); // small weights
  const uint64_t plainA = kRaw, plainB = kRaw + 0x1000;
  for (size_t i = 0; i < a.size(); ++i)
    put8(plainA + i, static_cast<uint8_t>(a[i]));
  for (size_t i = 0; i < b.size(); ++i)
    put8(plainB + i, static_cast<uint8_t>(b[i]));
  // One block per DIM x DIM tile: A tile (i, kk), then B tile kk.
  std::vector<Block> tiles;
  auto tile = [&](const std::vector<int16_t>& mat, int cols, int r0, int c0) {
    Block t{dim, dim, {}, 0, 0};
    for (int r = 0; r < dim; ++r)
      for (int c = 0; c < dim; ++c)
        t.values.push_back(mat[static_cast<size_t>((r0 + r) * cols + c0 + c)]);
    return t;
  };
  for (int i = 0; i < m / dim; ++i)
    for (int kk = 0; kk < k / dim; ++kk)
      tiles.push_back(tile(a, k, i * dim, kk * dim));
  for (int kk = 0; kk < k / dim; ++kk)
    tiles.push_back(tile(b, n, kk * dim, 0));
  writeCompressed(tiles);
  const int aTiles = (m / dim) * (k / dim);

  auto program = [&](bool compressed) {
    fm::Program pr;
    const uint32_t workA = 400, workB = 400 + static_cast<uint32_t>(dim);
    std::vector<uint32_t> at; // where each tile's containers (or raw rows) are
    if (compressed) {
      pr.push_back(configLdRows());
      uint32_t row = 0;
      for (const Block& t : tiles) {
        at.push_back(row);
        pr.push_back(copyContainers(t, row));
        row += containerRows(t);
      }
    } else {
      fm::ConfigLdArgs la;
      la.stride = static_cast<uint64_t>(k);
      pr.push_back(fm::configLd(la));
      la.channel = 1;
      la.stride = static_cast<uint64_t>(n);
      pr.push_back(fm::configLd(la));
      for (int i = 0; i < m / dim; ++i)
        for (int kk = 0; kk < k / dim; ++kk) {
          at.push_back(static_cast<uint32_t>(dim * (i * (k / dim) + kk)));
          pr.push_back(fm::mvin(0, plainA + uint64_t(i * dim * k + kk * dim), fm::spAddr(at.back()),
                                uint32_t(dim), uint32_t(dim)));
        }
      for (int kk = 0; kk < k / dim; ++kk) {
        at.push_back(static_cast<uint32_t>(dim * (aTiles + kk)));
        pr.push_back(fm::mvin(1, plainB + uint64_t(kk * dim * n), fm::spAddr(at.back()),
                              uint32_t(dim), uint32_t(n)));
      }
    }
    fm::ConfigExArgs ex;
    ex.dataflow = hw::kDataflowWS;
    pr.push_back(fm::configEx(ex));
    for (int i = 0; i < m / dim; ++i)
      for (int kk = 0; kk < k / dim; ++kk) {
        const size_t ta = static_cast<size_t>(i * (k / dim) + kk);
        const size_t tb = static_cast<size_t>(aTiles + kk);
        uint32_t rowA = at[ta], rowB = at[tb];
        if (compressed) {
          pr.push_back(fm::decompress(fm::spAddr(at[ta]), tiles[ta].containers, fm::spAddr(workA),
                                      uint32_t(dim), uint32_t(dim)));
          pr.push_back(fm::decompress(fm::spAddr(at[tb]), tiles[tb].containers, fm::spAddr(workB),
                                      uint32_t(dim), uint32_t(dim)));
          rowA = workA;
          rowB = workB;
        }
        wsTileProduct(pr, dim, n, rowB, rowA, static_cast<uint32_t>(dim * i), kk > 0);
      }
    storeResult(pr, compressed ? kOut + 0x1000 : kOut, m, n, p.inputBytes);
    return pr;
  };
  prog = program(false);
  const RunOutcome plainRun = run("boveda_onchip_matmul_plain");
  prog = program(true);
  const RunOutcome compRun = run("boveda_onchip_matmul_compressed");
  ASSERT_EQ(compRun.modelErrors.count, 0u);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum += int64_t{a[static_cast<size_t>(i * k + kk)]} * b[static_cast<size_t>(kk * n + j)];
      const int64_t want = golden::saturate(sum, p.inputWidth);
      const uint64_t off = static_cast<uint64_t>((i * n + j) * p.inputBytes);
      ASSERT_EQ(getElem(plainRun.dram, kOut + off, p.inputBytes), want) << i << "," << j;
      ASSERT_EQ(getElem(compRun.dram, kOut + 0x1000 + off, p.inputBytes), want) << i << "," << j;
    }
  std::printf("[boveda] on-chip matmul %dx%dx%d: raw tiles %llu cycles, compressed tiles %llu "
              "cycles\n",
              m, k, n, static_cast<unsigned long long>(plainRun.cycles),
              static_cast<unsigned long long>(compRun.cycles));
}

// More weight data than the scratchpad holds raw: T weight tiles (DIM x DIM, small values)
// whose raw rows exceed the scratchpad, all resident at once as containers; each is decoded
// into one working tile and multiplied by the same activation tile, and every product must
// equal the CPU reference.
TEST_F(BovedaOnChip, HoldsMoreTilesThanRawCapacity) {
  const uint32_t spRows = static_cast<uint32_t>(p.spRows);
  std::vector<int16_t> act(static_cast<size_t>(dim * dim));
  for (auto& v : act)
    v = static_cast<int16_t>(rng.next() % 16);
  for (size_t i = 0; i < act.size(); ++i)
    put8(kRaw + i, static_cast<uint8_t>(act[i]));
  // Rows left for containers: all but the activation tile and the working tile.
  const uint32_t avail = spRows - 2 * static_cast<uint32_t>(dim);
  std::vector<Block> weights;
  uint32_t used = 0;
  while (true) {
    Block w = randomBlock(dim, dim, weights.size() % 4 == 3 ? 1 : 0);
    std::vector<Block> one = {w};
    writeCompressed(one);
    if (used + containerRows(one[0]) > avail)
      break;
    used += containerRows(one[0]);
    weights.push_back(w);
  }
  writeCompressed(weights);
  const uint64_t rawRows = weights.size() * static_cast<uint64_t>(dim);
  std::printf("[boveda] on-chip: %zu weight tiles, %llu raw rows in %u container rows; the "
              "scratchpad has %u rows\n",
              weights.size(), static_cast<unsigned long long>(rawRows), used, spRows);
  ASSERT_GT(rawRows, spRows) << "the weights must not fit the scratchpad raw";

  const uint32_t actRow = spRows - 2 * static_cast<uint32_t>(dim);
  const uint32_t work = spRows - static_cast<uint32_t>(dim);
  fm::ConfigLdArgs la;
  la.channel = 1;
  la.stride = static_cast<uint64_t>(dim);
  prog.push_back(fm::configLd(la));
  prog.push_back(fm::mvin(1, kRaw, fm::spAddr(actRow), uint32_t(dim), uint32_t(dim)));
  prog.push_back(configLdRows());
  std::vector<uint32_t> at;
  uint32_t row = 0;
  for (const Block& w : weights) {
    at.push_back(row);
    prog.push_back(copyContainers(w, row));
    row += containerRows(w);
  }
  fm::ConfigExArgs ex;
  ex.dataflow = hw::kDataflowWS;
  prog.push_back(fm::configEx(ex));
  fm::ConfigStArgs so;
  so.stride = rowBytes;
  prog.push_back(fm::configSt(so));
  const uint32_t accTiles = static_cast<uint32_t>(p.accRows / dim);
  for (size_t t = 0; t < weights.size(); ++t) {
    prog.push_back(fm::decompress(fm::spAddr(at[t]), weights[t].containers, fm::spAddr(work),
                                  uint32_t(dim), uint32_t(dim)));
    const uint32_t accRow = static_cast<uint32_t>(dim) * (static_cast<uint32_t>(t) % accTiles);
    prog.push_back(fm::preload({fm::spAddr(work), uint32_t(dim), uint32_t(dim)},
                               {fm::accAddr(accRow), uint32_t(dim), uint32_t(dim)}));
    prog.push_back(fm::compute(true, {fm::spAddr(actRow), uint32_t(dim), uint32_t(dim)},
                               {fm::garbageAddr(), uint32_t(dim), uint32_t(dim)}));
    prog.push_back(fm::mvout(kOut + t * rowBytes * static_cast<uint64_t>(dim), fm::accAddr(accRow),
                             uint32_t(dim), uint32_t(dim)));
  }
  const RunOutcome r = run("boveda_onchip_more_than_raw");
  ASSERT_EQ(r.modelErrors.count, 0u);
  for (size_t t = 0; t < weights.size(); ++t)
    for (int i = 0; i < dim; ++i)
      for (int j = 0; j < dim; ++j) {
        int64_t sum = 0;
        for (int kk = 0; kk < dim; ++kk)
          sum += int64_t{act[static_cast<size_t>(i * dim + kk)]} *
                 weights[t].values[static_cast<size_t>(kk * dim + j)];
        const uint64_t addr = kOut + t * rowBytes * static_cast<uint64_t>(dim) +
                              static_cast<uint64_t>((i * dim + j) * p.inputBytes);
        ASSERT_EQ(getElem(r.dram, addr, p.inputBytes), golden::saturate(sum, p.inputWidth))
            << "tile " << t << " (" << i << "," << j << ")";
      }
}

#endif

// Illegal and malformed DECOMPRESS commands set the error register (the first error, with
// DECOMPRESS's funct) and count, never hang, and leave the accelerator working: each case runs
// as its own program followed by a valid DECOMPRESS whose result must be right.
TEST_F(BovedaOnChip, IllegalDecompressSetsErrorAndNeverHangs) {
  std::vector<Block> good = {randomBlock(row, row, 0)};
  // Values in -3..3 take 28-bit groups, which fill 128-bit containers exactly for 16 x 16
  // values; one wide value makes sure the last container has padding (the case below needs it).
  good[0].values[0] = 100;
  writeCompressed(good);
  const uint32_t spRows = static_cast<uint32_t>(p.spRows);
  const uint32_t d = static_cast<uint32_t>(row);
  const uint32_t cr = containerRows(good[0]);
  // Rows 100.. hold 3 garbage containers: width codes above IW (0xff bytes); a 2 x W block
  // can need 3 (every group at full width), so the count itself is legal.
  const uint32_t garbageRows = 3 * static_cast<uint32_t>(rowsPerContainer);
  for (uint32_t i = 0; i < garbageRows * rowBytes; ++i)
    put8(kRaw + i, 0xff);
  // Rows 120.. hold the good block with a non-zero bit in its padding (its last byte).
  struct Case {
    const char* name;
    fm::Instruction instr;
    const char* error;
  };
  const uint32_t maxCont =
      static_cast<uint32_t>(((d * d + p.bovedaFormat.groupSize - 1) / p.bovedaFormat.groupSize *
                                 static_cast<uint32_t>(p.bovedaFormat.maxGroupBits()) +
                             p.bovedaFormat.containerBits - 1) /
                            p.bovedaFormat.containerBits);
  const std::vector<Case> cases = {
      {"source past the scratchpad", fm::decompress(fm::spAddr(spRows - 1), 2, fm::spAddr(0), d, d),
       "LOCAL_RANGE"},
      {"destination past the scratchpad",
       fm::decompress(fm::spAddr(0), good[0].containers, fm::spAddr(spRows - 2), d, d),
       "LOCAL_RANGE"},
      {"overlapping source and destination",
       fm::decompress(fm::spAddr(0), good[0].containers, fm::spAddr(1), d, d), "LOCAL_RANGE"},
      {"accumulator destination",
       fm::decompress(fm::spAddr(0), good[0].containers, fm::accAddr(0), d, d), "UNSUPPORTED"},
      {"accumulator source",
       fm::decompress(fm::accAddr(0), good[0].containers, fm::spAddr(200), d, d), "BAD_LOCAL_ADDR"},
      {"garbage source",
       fm::decompress(fm::garbageAddr(), good[0].containers, fm::spAddr(200), d, d),
       "BAD_LOCAL_ADDR"},
      {"no containers", fm::decompress(fm::spAddr(0), 0, fm::spAddr(200), d, d), "BAD_SIZE"},
      {"more containers than the block can need",
       fm::decompress(fm::spAddr(0), maxCont + 1, fm::spAddr(200), d, d), "BAD_SIZE"},
      {"zero rows", fm::decompress(fm::spAddr(0), good[0].containers, fm::spAddr(200), 0, d),
       "BAD_SIZE"},
      {"malformed block (width codes above IW)",
       fm::decompress(fm::spAddr(100), 3, fm::spAddr(200), 2, d), "DMA_ERROR"},
      {"malformed block (non-zero padding)",
       fm::decompress(fm::spAddr(120), good[0].containers, fm::spAddr(200), d, d), "DMA_ERROR"},
      {"malformed block (a container too many)",
       fm::decompress(fm::spAddr(0), good[0].containers + 1, fm::spAddr(200), d, d), "DMA_ERROR"},
  };
  // The good block's containers with its last byte's top bit set: padding unless the block
  // ends exactly on its last container (then the last value changes and this case is skipped
  // by construction of the data: small values never fill a container exactly).
  {
    boveda::BovedaParams f = p.bovedaFormat;
    f.blockValues = row * row;
    const boveda::CompressedTensor t = boveda::compress(f, good[0].values);
    std::vector<uint8_t> bytes = t.bytes();
    ASSERT_LT(t.stats.headerBits + t.stats.bitmapBits + t.stats.payloadBits,
              static_cast<uint64_t>(bytes.size() * 8 - 1))
        << "the test needs padding in the last byte";
    bytes.back() |= 0x80;
    for (size_t k = 0; k < bytes.size(); ++k)
      put8(kRaw + 0x800 + k, bytes[k]);
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    prog.clear();
    prog.push_back(configLdRows());
    prog.push_back(copyContainers(good[0], 0));
    prog.push_back(fm::mvin(0, kRaw, fm::spAddr(100), garbageRows, d));
    prog.push_back(fm::mvin(0, kRaw + 0x800, fm::spAddr(120), cr, d));
    prog.push_back(c.instr);
    prog.push_back(fm::decompress(fm::spAddr(0), good[0].containers, fm::spAddr(300), d, d));
    fm::ConfigStArgs so;
    so.stride = rowBytes;
    prog.push_back(fm::configSt(so));
    prog.push_back(fm::mvout(kOut, fm::spAddr(300), d, d));
    const RunOutcome r =
        run(std::string("boveda_onchip_illegal_") + std::to_string(&c - &cases[0]));
    EXPECT_EQ(r.modelErrors.code, hw::isa::errorCode(c.error));
    EXPECT_EQ(r.modelErrors.funct, static_cast<int>(hw::isa::kDecompress));
    EXPECT_EQ(r.modelErrors.count, 1u);
    for (int i = 0; i < row * row; ++i)
      ASSERT_EQ(getElem(r.dram, kOut + static_cast<uint64_t>(i * p.inputBytes), p.inputBytes),
                good[0].values[static_cast<size_t>(i)])
          << "after the bad command, element " << i;
  }
}

} // namespace
} // namespace by::test
