// Directed system tests: one scenario per feature of docs/isa.md, each run on the RTL
// accelerator (stressed AXI memory) and on the functional model, every DRAM byte and the error
// registers compared (system_run.h). Where the expected result is simple to state, the test
// also checks it directly (round trips, zero fill, row repeat, K accumulation against a plain
// matrix product, register values against the config).
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"

#include <array>
#include <cstdio>
#include <gtest/gtest.h>
#include <limits>

namespace by::test {
namespace {

using funcmodel::Operand;
namespace fm = funcmodel;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kIn = kBase + 0x1000;   // inputs
constexpr uint64_t kOut = kBase + 0x40000; // outputs
constexpr uint64_t kSize = 0x80000;
// A funct that is no command on any config (9, used before, is LOOP_WS_CONFIG_BOUNDS with
// loops.ws).
constexpr uint32_t kNoFunct = 127;

class System : public ::testing::Test {
protected:
  System()
      : cfg(builtConfig()), p(fm::ModelParams::from(cfg)), dim(p.dim), ib(p.inputBytes),
        ab(p.accBytes), image(kSize, 0), rng(testSeed(7, "system directed test data")) {}

  // Little-endian signed element access in a DRAM image.
  void put(uint64_t addr, int64_t v, int bytes) { putLittleEndian(image, addr - kBase, v, bytes); }
  static int64_t get(const std::vector<uint8_t>& dram, uint64_t addr, int bytes) {
    return getLittleEndian(dram, addr - kBase, bytes);
  }
  int64_t randomElem(int bits) {
    const int64_t span = int64_t{1} << bits;
    return static_cast<int64_t>(rng.next() % static_cast<uint64_t>(span)) - span / 2;
  }
  /// A rows x cols matrix of random elements of `bits` at addr with a row stride in bytes.
  std::vector<int64_t> putMatrix(uint64_t addr, int rows, int cols, uint64_t stride, int bytes,
                                 int bits) {
    std::vector<int64_t> m;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        m.push_back(randomElem(bits));
        put(addr + r * stride + static_cast<uint64_t>(c) * bytes, m.back(), bytes);
      }
    return m;
  }

  RunOutcome run(const std::string& name, int mmioPercent = 0, bool readCounters = false) {
    RunOptions o;
    o.name = name;
    o.readCounters = readCounters;
    o.system.memBase = kBase;
    o.system.memSize = kSize;
    o.system.mmioPercent = mmioPercent;
    o.system.seed = rng.next();
    RunOutcome r = runAndCompare(cfg, prog, image, o);
    std::printf("%s: %zu commands, %llu cycles\n", name.c_str(), prog.size(),
                static_cast<unsigned long long>(r.cycles));
    EXPECT_TRUE(r.ok) << r.failure << "program saved to " << saveProgram(name, prog)
                      << ", its DRAM image to " << saveImage(name, image, o)
                      << "; replay: system_replay_" << BY_CONFIG_NAME
                      << " PROGRAM --image IMAGE [--trace FILE.vcd]";
    return r;
  }

  config::Config cfg;
  fm::ModelParams p;
  int dim, ib, ab;
  std::vector<uint8_t> image;
  fm::Program prog;
  axi::Rng rng;
};

TEST_F(System, ScratchpadRoundTripWithUnalignedStrides) {
  const uint64_t inStride = dim * ib + 13, outStride = dim * ib + 7;
  const auto m = putMatrix(kIn + 3, dim, dim, inStride, ib, p.inputWidth);
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), inStride}),
          fm::mvin(0, kIn + 3, fm::spAddr(5), dim, dim),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(outStride), hw::isa::kFloatOne}),
          fm::mvout(kOut + 1, fm::spAddr(5), dim, dim)};
  const RunOutcome r = run("sp_round_trip");
  for (int row = 0; row < dim; ++row)
    for (int c = 0; c < dim; ++c)
      ASSERT_EQ(get(r.dram, kOut + 1 + row * outStride + c * ib, ib), m[row * dim + c])
          << "row " << row << " col " << c;
  EXPECT_EQ(get(r.dram, kOut, 1), 0) << "a byte before the output was written";
}

TEST_F(System, AccumulatorRoundTripAndAccumulatingMvin) {
  const uint64_t stride = dim * ab;
  const auto a = putMatrix(kIn, dim, dim, stride, ab, 30);
  const auto b = putMatrix(kIn + 0x4000, dim, dim, stride, ab, 30);
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), stride}),
          fm::mvin(0, kIn, fm::accAddr(0), dim, dim),
          fm::mvin(0, kIn + 0x4000, fm::accAddr(0, true), dim, dim),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(stride), hw::isa::kFloatOne}),
          fm::mvout(kOut, fm::accAddr(0, false, true), dim, dim)};
  const RunOutcome r = run("acc_round_trip");
  for (int i = 0; i < dim * dim; ++i)
    ASSERT_EQ(get(r.dram, kOut + i * ab, ab), golden::wrap(a[i] + b[i], p.accWidth)) << i;
}

TEST_F(System, MultiBlockMvinHonoursTheBlockStride) {
  // A column block is one scratchpad row: DIM*lanes elements.
  const int w = p.spRowElems;
  const int blocks = std::min(p.maxBlockLen, 3);
  const int rows = 3, cols = blocks * w, blockStride = rows + 2;
  const uint64_t stride = cols * ib;
  const auto m = putMatrix(kIn, rows, cols, stride, ib, p.inputWidth);
  prog = {fm::configLd({0, false, 1, static_cast<uint32_t>(blockStride), fm::floatBits(1), stride}),
          fm::mvin(0, kIn, fm::spAddr(0), rows, cols),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(w * ib), hw::isa::kFloatOne})};
  // Each block back out from where the block stride put it, one row width at a time.
  for (int blk = 0; blk < blocks; ++blk)
    prog.push_back(fm::mvout(kOut + blk * 0x1000, fm::spAddr(blk * blockStride), rows, w));
  const RunOutcome r = run("multi_block_mvin");
  for (int blk = 0; blk < blocks; ++blk)
    for (int row = 0; row < rows; ++row)
      for (int e = 0; e < w; ++e)
        ASSERT_EQ(get(r.dram, kOut + blk * 0x1000 + row * w * ib + e * ib, ib),
                  m[row * cols + blk * w + e])
            << "block " << blk << " row " << row << " element " << e;
}

TEST_F(System, ZeroFillAndRowRepeat) {
  const auto row = putMatrix(kIn, 1, dim, 0, ib, p.inputWidth);
  const auto junk = putMatrix(kIn + 0x100, dim, dim, dim * ib, ib, p.inputWidth);
  const uint64_t outStride = dim * ib;
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), outStride}),
          fm::mvin(0, kIn + 0x100, fm::spAddr(0), dim, dim),   // junk first
          fm::mvin(0, 0, fm::spAddr(0), dim, dim),             // then zeros over it
          fm::configLd({1, false, 1, 0, fm::floatBits(1), 0}), // MVIN2: stride 0
          fm::mvin(1, kIn, fm::spAddr(dim), dim, dim),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(outStride), hw::isa::kFloatOne}),
          fm::mvout(kOut, fm::spAddr(0), dim, dim),
          fm::mvout(kOut + 0x1000, fm::spAddr(dim), dim, dim)};
  const RunOutcome r = run("zero_fill_row_repeat", 0, true);
  // The DMA reads the junk tile and the repeated row once; the zero fill reads nothing.
  EXPECT_EQ(r.counters.at("DMA_READ_BYTES"), static_cast<uint64_t>(dim + 1) * dim * ib);
  for (int rr = 0; rr < dim; ++rr)
    for (int e = 0; e < dim; ++e) {
      ASSERT_EQ(get(r.dram, kOut + rr * outStride + e * ib, ib), 0) << rr << "," << e;
      ASSERT_EQ(get(r.dram, kOut + 0x1000 + rr * outStride + e * ib, ib), row[e]) << rr << "," << e;
    }
  (void)junk;
}

// With vector PEs a K tile is DIM*lanes deep: A tiles are DIM x K, and each K x DIM tile of B
// is stored lane-packed (docs/isa.md, "Vector PEs"): packed[k / L][j*L + k % L] = B[k][j].
TEST_F(System, WeightStationaryMatmulAccumulatesAcrossKTiles) {
  if (!p.hasWs)
    GTEST_SKIP() << "config has no WS dataflow";
  const int kTiles = 3, lanes = p.lanes, kw = p.spRowElems;
  const uint64_t stride = kw * ib;
  std::vector<std::vector<int64_t>> a, b;
  prog = {fm::configEx({1, 0, false, false, false, 1, hw::isa::kFloatOne, 0, 0, 1}),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), stride})};
  for (int k = 0; k < kTiles; ++k) {
    a.push_back(putMatrix(kIn + k * 0x2000, dim, kw, stride, ib, p.inputWidth));
    const std::vector<int64_t> packed =
        putMatrix(kIn + k * 0x2000 + 0x1000, dim, kw, stride, ib, p.inputWidth);
    std::vector<int64_t> bk(static_cast<size_t>(kw) * dim); // B[x][j], unpacked
    for (int x = 0; x < kw; ++x)
      for (int j = 0; j < dim; ++j)
        bk[x * dim + j] = packed[(x / lanes) * kw + j * lanes + x % lanes];
    b.push_back(bk);
    prog.push_back(fm::mvin(0, kIn + k * 0x2000, fm::spAddr(2 * k * dim), dim, kw));
    prog.push_back(fm::mvin(0, kIn + k * 0x2000 + 0x1000, fm::spAddr((2 * k + 1) * dim), dim, kw));
  }
  const uint32_t n = static_cast<uint32_t>(dim), k32 = static_cast<uint32_t>(kw);
  for (int k = 0; k < kTiles; ++k) {
    prog.push_back(
        fm::preload({fm::spAddr((2 * k + 1) * dim), n, k32}, {fm::accAddr(0, k > 0), n, n}));
    prog.push_back(
        fm::compute(true, {fm::spAddr(2 * k * dim), n, k32}, {hw::isa::kGarbageAddr, n, n}));
  }
  const uint64_t outStride = dim * ab;
  prog.push_back(fm::configSt(
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(outStride), hw::isa::kFloatOne}));
  prog.push_back(fm::mvout(kOut, fm::accAddr(0, false, true), dim, dim));
  const RunOutcome r = run("ws_k_tiles");
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      // Each pass's partial sum travels through the array at the spatial output width.
      int64_t want = 0;
      for (int k = 0; k < kTiles; ++k) {
        int64_t pass = 0;
        for (int x = 0; x < kw; ++x)
          pass += a[k][i * kw + x] * b[k][x * dim + j];
        want += golden::wrap(pass, p.outputWidth);
      }
      ASSERT_EQ(get(r.dram, kOut + i * outStride + j * ab, ab), golden::wrap(want, p.accWidth))
          << "C[" << i << "][" << j << "]";
    }
}

// A and B are DIM x K with K = DIM*lanes; B is lane-packed as in the WS test. Pass 1 is checked
// against a CPU reference of docs/isa.md; both passes against the model.
TEST_F(System, OutputStationaryMatmulWithBiasAndAccumulation) {
  if (!p.hasOs)
    GTEST_SKIP() << "config has no OS dataflow";
  const int lanes = p.lanes, kw = p.spRowElems;
  const uint64_t stride = kw * ib;
  const auto d = putMatrix(kIn, dim, kw, stride, ib, p.inputWidth);
  const auto a0 = putMatrix(kIn + 0x1000, dim, kw, stride, ib, p.inputWidth);
  const auto b0 = putMatrix(kIn + 0x2000, dim, kw, stride, ib, p.inputWidth);
  const auto a1 = putMatrix(kIn + 0x3000, dim, kw, stride, ib, p.inputWidth);
  const auto b1 = putMatrix(kIn + 0x4000, dim, kw, stride, ib, p.inputWidth);
  const uint32_t n = static_cast<uint32_t>(dim), k32 = static_cast<uint32_t>(kw);
  const int shift = 2;
  prog = {fm::configEx({0, 0, false, false, false, 1, hw::isa::kFloatOne, shift, 0, 1}),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), stride})};
  for (int i = 0; i < 5; ++i)
    prog.push_back(fm::mvin(0, kIn + i * 0x1000, fm::spAddr(i * dim), n, k32));
  // Pass 1: D preloaded, result to the scratchpad (shifted, saturated); pass 2 accumulates in
  // the array and writes to the accumulator.
  prog.push_back(fm::preload({fm::spAddr(0), n, n}, {fm::spAddr(5 * dim), n, n}));
  prog.push_back(fm::compute(true, {fm::spAddr(dim), n, k32}, {fm::spAddr(2 * dim), n, k32}));
  prog.push_back(fm::preload({hw::isa::kGarbageAddr, n, n}, {fm::accAddr(0), n, n}));
  prog.push_back(fm::compute(false, {fm::spAddr(3 * dim), n, k32}, {fm::spAddr(4 * dim), n, k32}));
  prog.push_back(fm::configSt(
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(dim * ib), hw::isa::kFloatOne}));
  prog.push_back(fm::mvout(kOut, fm::spAddr(5 * dim), n, n));
  prog.push_back(fm::configSt(
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(dim * ab), hw::isa::kFloatOne}));
  prog.push_back(fm::mvout(kOut + 0x1000, fm::accAddr(0, false, true), n, n));
  const RunOutcome r = run("os_bias_accumulate");
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      int64_t acc = golden::wrap(d[i * kw + j], p.outputWidth);
      for (int x = 0; x < kw; ++x)
        acc = golden::wrap(acc + a0[i * kw + x] * b0[(x / lanes) * kw + j * lanes + x % lanes],
                           p.accWidth);
      const int64_t res = golden::saturate(golden::roundingShift(acc, shift), p.outputWidth);
      ASSERT_EQ(get(r.dram, kOut + (i * dim + j) * ib, ib), golden::saturate(res, p.inputWidth))
          << "C[" << i << "][" << j << "]";
    }
  (void)a1, (void)b1;
}

// OS: an accumulation that ends (C in the scratchpad), a COMPUTE_ACCUMULATED after it (C in
// the accumulator), then one that flips with its D read from the accumulator. The second
// operation waits for the first one's results to drain; the third one's flip must not be
// planned onto its beats (tiny's fuzzer, seed 1187, found the second operation computing on
// the third one's D). A is stored transposed, so that no operation needs a transposer buffer
// and the third one is in the execute controller's lookahead when the second becomes current.
TEST_F(System, OutputStationaryContinuedAccumulationThenAFlip) {
  if (!p.hasOs || p.tensordash || p.lanes != 1)
    GTEST_SKIP() << "needs the OS dataflow through the transposer (one lane, no TensorDash)";
  const int kw = p.spRowElems; // = DIM
  const uint64_t stride = kw * ib, accStride = static_cast<uint64_t>(dim) * ab;
  std::vector<std::vector<int64_t>> x; // d, a0 (stored transposed), b0, a1, b1, a2, b2
  for (int i = 0; i < 7; ++i)
    x.push_back(putMatrix(kIn + i * 0x1000, dim, kw, stride, ib, p.inputWidth));
  const auto d2 = putMatrix(kIn + 0x8000, dim, dim, accStride, ab, p.outputWidth);
  const uint32_t n = static_cast<uint32_t>(dim), k32 = static_cast<uint32_t>(kw);
  prog = {fm::configEx({0, 0, false, true, false, 1, hw::isa::kFloatOne, 0, 0, 1}),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), stride}),
          fm::configLd({1, false, 1, 0, fm::floatBits(1), accStride})};
  // The first operation reads the operands moved in last, so the other two wait behind it.
  prog.push_back(fm::mvin(1, kIn + 0x8000, fm::accAddr(2 * dim), n, n));
  for (int i = 6; i >= 0; --i)
    prog.push_back(fm::mvin(0, kIn + i * 0x1000, fm::spAddr(i * dim), n, k32));
  auto operand = [&](int i) { return Operand{fm::spAddr(i * dim), n, k32}; };
  prog.push_back(fm::preload({fm::spAddr(0), n, n}, {fm::spAddr(7 * dim), n, n}));
  prog.push_back(fm::compute(true, operand(1), operand(2)));
  prog.push_back(fm::preload({hw::isa::kGarbageAddr, n, n}, {fm::accAddr(0), n, n}));
  prog.push_back(fm::compute(false, operand(3), operand(4)));
  prog.push_back(fm::preload({fm::accAddr(2 * dim), n, n}, {fm::accAddr(4 * dim), n, n}));
  prog.push_back(fm::compute(true, operand(5), operand(6)));
  prog.push_back(fm::configSt(
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(accStride), hw::isa::kFloatOne}));
  prog.push_back(fm::mvout(kOut, fm::accAddr(0, false, true), n, n));
  prog.push_back(fm::mvout(kOut + 0x1000, fm::accAddr(4 * dim, false, true), n, n));
  const RunOutcome r = run("os_continued_then_flip");
  auto product = [&](int64_t acc, int a, int b, int i, int j) { // A[i][k] stored at [k][i]
    for (int k = 0; k < kw; ++k)
      acc = golden::wrap(acc + x[a][k * kw + i] * x[b][k * kw + j], p.accWidth);
    return acc;
  };
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      // An accumulation written out leaves zeros: the second one is A1 x B1 alone.
      const int64_t second = golden::saturate(product(0, 3, 4, i, j), p.outputWidth);
      const int64_t third = golden::saturate(
          product(golden::wrap(d2[i * dim + j], p.outputWidth), 5, 6, i, j), p.outputWidth);
      ASSERT_EQ(get(r.dram, kOut + (i * dim + j) * ab, ab), second)
          << "C2[" << i << "][" << j << "]";
      ASSERT_EQ(get(r.dram, kOut + 0x1000 + (i * dim + j) * ab, ab), third)
          << "C3[" << i << "][" << j << "]";
    }
}

// The example sequence of docs/isa.md ("Example: C = A x B + D on a 4x4 array"), command for
// command, checked against C = saturate(D + A x B) computed here.
TEST_F(System, IsaDocExample) {
  if (!p.hasWs || dim < 4 || p.lanes != 1)
    GTEST_SKIP() << "the example needs WS, DIM >= 4 and one lane (its B is not lane-packed)";
  const uint64_t aAddr = kIn, bAddr = kIn + 0x100, dAddr = kIn + 0x200, cAddr = kOut;
  const auto a = putMatrix(aAddr, 4, 4, 4, 1, 5);
  const auto b = putMatrix(bAddr, 4, 4, 4, 1, 5);
  const auto dm = putMatrix(dAddr, 4, 4, 16, 4, 8);
  fm::ConfigExArgs ws;
  ws.dataflow = 1;
  fm::ConfigStArgs st;
  st.stride = 4;
  st.accScaleBits = hw::isa::kFloatOne;
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), 4}),
          fm::configEx(ws),
          fm::configSt(st),
          fm::mvin(0, aAddr, fm::spAddr(0), 4, 4),
          fm::mvin(0, bAddr, fm::spAddr(4), 4, 4),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), 16}),
          fm::mvin(0, dAddr, fm::accAddr(0), 4, 4),
          fm::preload({fm::spAddr(4), 4, 4}, {fm::accAddr(0, true), 4, 4}),
          fm::compute(true, {fm::spAddr(0), 4, 4}, {hw::isa::kGarbageAddr, 4, 4}),
          fm::mvout(cAddr, fm::accAddr(0), 4, 4)};
  const RunOutcome r = run("isa_doc_example");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int64_t want = dm[i * 4 + j];
      for (int k = 0; k < 4; ++k)
        want += a[i * 4 + k] * b[k * 4 + j];
      EXPECT_EQ(get(r.dram, cAddr + i * 4 + j, 1), golden::saturate(want, 8)) << i << "," << j;
    }
}

TEST_F(System, MvoutScaleReluSaturationAndMaxPool) {
  // Accumulator values spanning far beyond the output type, some negative.
  const int pixels = 16; // a 4x4 image, one channel per element
  const uint64_t stride = dim * ab;
  putMatrix(kIn, pixels, dim, stride, ab, 20);
  const uint32_t n = static_cast<uint32_t>(dim);
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), stride}),
          fm::mvin(0, kIn, fm::accAddr(0), pixels, n)};
  // Scaled, saturated, no activation; then ReLU with a different scale.
  prog.push_back(fm::configSt({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, n * ib, fm::floatBits(0.37f)}));
  prog.push_back(fm::mvout(kOut, fm::accAddr(0), std::min<uint32_t>(n, 8), n));
  prog.push_back(fm::configSt({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, n * ib, fm::floatBits(0.001f)}));
  prog.push_back(fm::mvout(kOut + 0x1000, fm::accAddr(0), std::min<uint32_t>(n, 8), n));
  // 3x3 max-pool, stride 2, one row and column of padding: 4x4 -> 2x2.
  fm::ConfigStArgs pool;
  pool.activation = 1;
  pool.poolStride = 2;
  pool.poolSize = 3;
  pool.upad = 1;
  pool.lpad = 1;
  pool.poolOutDim = 2;
  pool.porows = 2;
  pool.pocols = 2;
  pool.orows = 4;
  pool.ocols = 4;
  pool.stride = n * ib;
  pool.accScaleBits = fm::floatBits(0.05f);
  prog.push_back(fm::configSt(pool));
  prog.push_back(fm::mvout(kOut + 0x2000, fm::accAddr(0), 1, n));
  // 2x2 pool without padding, no activation.
  pool.activation = 0;
  pool.poolSize = 2;
  pool.upad = 0;
  pool.lpad = 0;
  prog.push_back(fm::configSt(pool));
  prog.push_back(fm::mvout(kOut + 0x3000, fm::accAddr(0), 1, n));
  run("scale_relu_pool");
}

TEST_F(System, FunctionTableOnAccumulatorMvouts) {
  // CONFIG_TABLE (activations.table): accumulator MVOUTs map each output x (after scale,
  // activation and pooling) to entry x + 128; scratchpad and full-width MVOUTs never. The
  // expected bytes come from the golden arithmetic here. CONFIG_TABLE acts in program order:
  // the MVOUTs issued just before the one that disables the table still use it.
  AccelSystem s(cfg, SystemOptions{});
  auto run = [&](const fm::Instruction& i) { s.issue(i); };
  auto drain = [&] { ASSERT_TRUE(s.drain()) << s.hangReport(); };
  if (!cfg.activations.table) {
    run(fm::configTable(0, true, true, 0));
    drain();
    EXPECT_EQ(s.readRegister("ERROR") & 0xff,
              static_cast<uint32_t>(hw::isa::errorCode("UNKNOWN_FUNCT")));
    return;
  }
  std::array<int8_t, 256> table;
  for (int v = 0; v < 256; ++v) // any bytes: a wrong index shows
    table[size_t(v)] = int8_t(uint8_t((v * 37 + 11) ^ 0x5a));
  const uint32_t n = static_cast<uint32_t>(dim), rows = std::min<uint32_t>(n, 4);
  // A 4x4 image of DIM channels in the accumulator (pooling), values far beyond int8.
  const int pixels = 16;
  std::vector<int64_t> acc;
  std::vector<uint8_t> bytes(size_t(pixels) * n * ab);
  for (int i = 0; i < pixels * int(n); ++i) {
    acc.push_back(randomElem(20));
    for (int k = 0; k < ab; ++k)
      bytes[size_t(i) * ab + k] = uint8_t(uint64_t(acc.back()) >> (8 * k));
  }
  s.writeBytes(kIn, bytes);
  run(fm::configLd({0, false, 1, 0, fm::floatBits(1), uint64_t(n) * ab}));
  run(fm::mvin(0, kIn, fm::accAddr(0), pixels, n));
  drain();
  for (uint32_t chunk = 0; chunk < 32; ++chunk) {
    uint64_t entries = 0;
    for (int k = 0; k < 8; ++k)
      entries |= uint64_t(uint8_t(table[chunk * 8 + k])) << (8 * k);
    run(fm::configTable(chunk, true, chunk == 31, entries));
  }
  drain();
  const float scale = 0.013f;
  auto out = [&](int64_t a, bool relu) {
    int64_t y = golden::saturate(golden::accScale(a, scale, p.accWidth), 8);
    return relu ? std::max<int64_t>(y, 0) : y;
  };
  // Rows with ReLU, the table on.
  run(fm::configSt({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, n * ib, fm::floatBits(scale)}));
  run(fm::mvout(kOut, fm::accAddr(0), rows, n));
  // 3x3 max-pool, stride 2, padding 1 (4x4 -> 2x2), no activation: the table after the max.
  fm::ConfigStArgs pool;
  pool.poolStride = 2, pool.poolSize = 3, pool.upad = 1, pool.lpad = 1, pool.poolOutDim = 2;
  pool.porows = 2, pool.pocols = 2, pool.orows = 4, pool.ocols = 4, pool.stride = n * ib;
  pool.accScaleBits = fm::floatBits(scale);
  run(fm::configSt(pool));
  run(fm::mvout(kOut + 0x1000, fm::accAddr(0), 1, n));
  // Disabled right behind them (no drain): plain outputs again.
  run(fm::configTable(0, false, false, 0));
  run(fm::configSt({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, n * ib, fm::floatBits(scale)}));
  run(fm::mvout(kOut + 0x2000, fm::accAddr(0), rows, n));
  drain();
  const std::vector<uint8_t> rowsOut = s.readBytes(kOut, size_t(rows) * n);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < n; ++c)
      ASSERT_EQ(int8_t(rowsOut[r * n + c]), table[size_t(out(acc[r * n + c], true) + 128)])
          << "row " << r << ", column " << c;
  const std::vector<uint8_t> pooled = s.readBytes(kOut + 0x1000, 4 * size_t(n));
  for (int py = 0; py < 2; ++py)
    for (int px = 0; px < 2; ++px)
      for (uint32_t c = 0; c < n; ++c) {
        int64_t m = std::numeric_limits<int64_t>::min();
        for (int wy = 0; wy < 3; ++wy)
          for (int wx = 0; wx < 3; ++wx) {
            const int y = py * 2 + wy - 1, x = px * 2 + wx - 1;
            const bool in = y >= 0 && y < 4 && x >= 0 && x < 4;
            m = std::max(m, in ? out(acc[size_t(y * 4 + x) * n + c], false) : 0);
          }
        ASSERT_EQ(int8_t(pooled[size_t(py * 2 + px) * n + c]), table[size_t(m + 128)])
            << "pooled pixel " << py << "," << px << ", channel " << c;
      }
  const std::vector<uint8_t> plain = s.readBytes(kOut + 0x2000, size_t(rows) * n);
  for (uint32_t i = 0; i < rows * n; ++i)
    ASSERT_EQ(int8_t(plain[i]), out(acc[i], false)) << "element " << i;
  EXPECT_EQ(s.readRegister("ERROR") & 0xff, 0u);
}

TEST_F(System, CrossQueueHazardsKeepProgramOrder) {
  if (!p.hasWs)
    GTEST_SKIP() << "config has no WS dataflow";
  const uint64_t stride = dim * ib;
  const uint32_t n = static_cast<uint32_t>(dim);
  prog = {fm::configEx({1, 0, false, false, false, 1, hw::isa::kFloatOne, 0, 0, 1}),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), stride}),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(dim * ab), hw::isa::kFloatOne})};
  // The same few local rows are reloaded, used and stored again and again: every pair of
  // neighbouring commands has a RAW, WAR or WAW dependency through them.
  for (int round = 0; round < 6; ++round) {
    const uint64_t src = kIn + round * 0x2000;
    putMatrix(src, dim, dim, stride, ib, p.inputWidth);
    putMatrix(src + 0x1000, dim, dim, stride, ib, p.inputWidth);
    prog.push_back(fm::mvin(0, src, fm::spAddr(0), n, n)); // WAR vs compute
    prog.push_back(fm::mvin(0, src + 0x1000, fm::spAddr(dim), n, n));
    prog.push_back(fm::mvout(kOut + 0x8000 + round * 0x400, fm::spAddr(0), n, n)); // RAW
    prog.push_back(fm::preload({fm::spAddr(dim), n, n}, {fm::accAddr(0, round % 2), n, n}));
    prog.push_back(fm::compute(true, {fm::spAddr(0), n, n}, {hw::isa::kGarbageAddr, n, n}));
    prog.push_back(fm::mvout(kOut + round * 0x1000, fm::accAddr(0, false, true), n, n)); // RAW
    prog.push_back(fm::mvin(0, src, fm::accAddr(0), n, n)); // WAR vs that mvout (scratch rows)
  }
  run("hazards");
  run("hazards_mmio", 50); // the same program, half of it through the registers
}

// Runs of weight-stationary computes that continue one another (the weights kept, A's and C's
// rows DIM on each time: a loop's output row), which the station takes as one entry on configs
// that merge computes (docs/architecture.md, "Merged computes"): a run longer than one entry
// holds with a short last piece, runs broken by a move that rewrites the next piece's A rows
// (it must see the new rows), by an MVOUT of their C, by a rejected dangling PRELOAD and by a
// CONFIG_EX, with A and C strides of 1 and 2; compared with the model byte for byte, half the
// commands through the registers the second time (gaps between commands).
TEST_F(System, ComputeRunsKeepProgramOrder) {
  if (!p.hasWs)
    GTEST_SKIP() << "config has no WS dataflow";
  const int kw = p.spRowElems;
  const uint32_t n = static_cast<uint32_t>(dim), k32 = static_cast<uint32_t>(kw);
  const uint64_t stride = kw * ib;
  // A run longer than a station entry's 8 pieces (kMaxComputePieces, rtl_gen/hw/src/op_layouts.h).
  const int longRun = 10;
  const uint32_t bRow = 14 * n * 2; // B after A's rows (runs of 10 pieces, stride 2)
  prog = {fm::configLd({0, false, 1, 0, fm::floatBits(1), stride}),
          fm::configSt(
              {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint32_t>(dim * ab), hw::isa::kFloatOne})};
  putMatrix(kIn, 14 * dim * 2, kw, stride, ib, p.inputWidth);
  putMatrix(kIn + 0x10000, dim, kw, stride, ib, p.inputWidth);
  putMatrix(kIn + 0x18000, 4 * dim, kw, stride, ib, p.inputWidth); // rewrites of A
  prog.push_back(fm::mvin(0, kIn, fm::spAddr(0), n, k32)); // A: rows 0 .. 28 DIM in moves of DIM
  for (uint32_t r = 1; r < 28; ++r)
    prog.push_back(fm::mvin(0, kIn + r * n * stride, fm::spAddr(r * n), n, k32));
  prog.push_back(fm::mvin(0, kIn + 0x10000, fm::spAddr(bRow), n, k32));
  // One run of `pieces` computes from A row a0 into C row c0 (the last `lastRows` rows).
  auto computeRun = [&](uint32_t a0, uint32_t c0, int pieces, uint32_t lastRows, uint32_t as,
                        uint32_t cs, bool accumulate) {
    for (int k = 0; k < pieces; ++k) {
      const uint32_t rows = k + 1 == pieces ? lastRows : n;
      const uint32_t bd = k == 0 ? fm::spAddr(bRow) : hw::isa::kGarbageAddr;
      prog.push_back(
          fm::preload({bd, n, k32}, {fm::accAddr(c0 + uint32_t(k) * n * cs, accumulate), rows, n}));
      prog.push_back(fm::compute(k == 0, {fm::spAddr(a0 + uint32_t(k) * n * as), rows, k32},
                                 {hw::isa::kGarbageAddr, n, n}));
    }
  };
  auto store = [&](uint64_t dst, uint32_t c0, uint32_t rows) {
    prog.push_back(fm::mvout(dst, fm::accAddr(c0, false, true), rows, n));
  };
  for (uint32_t st : {1u, 2u}) {
    const uint64_t out = kOut + (st - 1) * 0x10000;
    prog.push_back(fm::configEx({1, 0, false, false, false, st, hw::isa::kFloatOne, 0, 0, st}));
    computeRun(0, 0, longRun, n - 1, st, st, false); // two entries: eight pieces, then two
    store(out, 0, uint32_t(longRun) * n * st);
    // Broken by a move into the next piece's A rows: that piece reads the new rows.
    computeRun(0, 0, 2, n, st, st, true);
    prog.push_back(fm::mvin(0, kIn + 0x18000, fm::spAddr(2 * n * st), n, k32));
    computeRun(2 * n * st, 2 * n * st, 2, n, st, st, true);
    store(out + 0x4000, 0, 4 * n * st);
    // Broken by an MVOUT of the run's C, then continued as if unbroken.
    computeRun(0, 0, 1, n, st, st, false);
    store(out + 0x8000, 0, n);
    computeRun(n * st, n * st, 2, n / 2, st, st, false);
    // A dangling PRELOAD (rejected when the CONFIG_EX comes) and a CONFIG_EX inside a run.
    computeRun(0, 0, 2, n, st, st, true);
    prog.push_back(
        fm::preload({hw::isa::kGarbageAddr, n, k32}, {fm::accAddr(2 * n * st, true), n, n}));
    prog.push_back(fm::configEx({1, 0, true, false, false, st, hw::isa::kFloatOne, 0, 0, st}));
    computeRun(2 * n * st, 2 * n * st, 2, n, st, st, true);
    store(out + 0xc000, 0, 4 * n * st);
  }
  run("compute_runs");
  run("compute_runs_mmio", 50);
}

TEST_F(System, IllegalCommandsAreCountedAndNeverHang) {
  const uint32_t n = static_cast<uint32_t>(dim);
  putMatrix(kIn, dim, dim, dim * ib, ib, p.inputWidth);
  prog = {fm::Instruction{kNoFunct, 0, 0},                                 // unknown funct
          fm::configRaw(3, 0, 0),                                          // bad config type
          fm::mvin(0, kIn, fm::spAddr(p.spRows - 1), n, n),                // local range
          fm::mvin(0, kIn, fm::spAddr(0), n, 0),                           // bad size
          fm::compute(true, {fm::spAddr(0), n, n}, {fm::spAddr(0), n, n}), // unpaired
          fm::configLd({0, false, 1, 0, fm::floatBits(1), dim * static_cast<uint64_t>(ib)}),
          fm::mvin(0, kIn, fm::spAddr(0), n, n),
          fm::mvin(0, kBase + kSize - 2, fm::spAddr(dim), n, n), // AXI error: beyond memory
          fm::configSt({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, n * ib, hw::isa::kFloatOne}),
          fm::mvout(kOut, fm::spAddr(0), n, n)};
  const RunOutcome r = run("illegal");
  EXPECT_EQ(r.modelErrors.count, 6u); // the model agrees on what is illegal (independently)
}

// An MVIN2 or MVIN3 whose DRAM rows run past the end of memory gets an AXI error after it
// was issued: ERROR must carry its own funct, not MVIN's (the model's view), whether it is
// the only load in flight or follows a good load of another channel.
TEST_F(System, AxiErrorOfMvin2AndMvin3ReportsTheirFunct) {
  const uint32_t n = static_cast<uint32_t>(dim);
  putMatrix(kIn, dim, dim, dim * ib, ib, p.inputWidth);
  for (int ch = 1; ch <= 2; ++ch)
    for (bool afterGood : {false, true}) {
      fm::ConfigLdArgs ld{};
      ld.stride = dim * static_cast<uint64_t>(ib);
      prog.clear();
      for (int c = 0; c < 3; ++c) {
        ld.channel = c;
        prog.push_back(fm::configLd(ld));
      }
      if (afterGood)
        prog.push_back(fm::mvin(0, kIn, fm::spAddr(0), n, n));
      prog.push_back(fm::mvin(ch, kBase + kSize - 2, fm::spAddr(dim), n, n)); // AXI error
      prog.push_back(fm::mvin(3 - ch, kIn, fm::spAddr(2 * dim), n, n));       // a good one after
      const RunOutcome r =
          run("axi_error_channel" + std::to_string(ch) + (afterGood ? "_after_good" : ""));
      EXPECT_EQ(r.modelErrors.code, static_cast<int>(hw::isa::errorCode("DMA_ERROR")));
      EXPECT_EQ(r.modelErrors.funct, static_cast<int>(ch == 1 ? hw::isa::kMvin2 : hw::isa::kMvin3));
      EXPECT_EQ(r.modelErrors.count, 1u);
    }
}

TEST_F(System, RegistersDescribeTheConfigAndInterruptsFire) {
  const config::Derived d = config::derive(cfg);
  AccelSystem s(cfg, SystemOptions{});
  EXPECT_EQ(s.readRegister("ID"), 0x42594431u);
  EXPECT_EQ(s.readRegister("HW_DIM"), static_cast<uint32_t>(d.dim));
  EXPECT_EQ(s.readRegister("HW_SP_ROWS"), static_cast<uint32_t>(d.spRows));
  EXPECT_EQ(s.readRegister("HW_ACC_ROWS"), static_cast<uint32_t>(d.accRows));
  EXPECT_EQ(s.readRegister("VERSION"), 1u);
  EXPECT_EQ(s.readRegister("HW_LANES"), static_cast<uint32_t>(cfg.array.lanes));
  // HW_FEATURES: bit 0 WS, 1 OS, 2 TensorDash, 3 Boveda, 4 LOOP_WS, 5 LOOP_CONV_WS, 6
  // LOOP_CONV_OS, 7 TD_SCHEDULE_B, 8 TRANSPOSER, 9 TABLE (docs/isa.md).
  const bool ws = cfg.array.dataflow != config::Dataflow::OS;
  const bool os = cfg.array.dataflow != config::Dataflow::WS;
  const uint32_t features = (ws ? 1u : 0u) | (os ? 2u : 0u) | (cfg.tensordash.enabled ? 4u : 0u) |
                            (cfg.boveda.enabled ? 8u : 0u) | (cfg.loops.ws ? 16u : 0u) |
                            (cfg.loops.conv && ws ? 32u : 0u) | (cfg.loops.conv && os ? 64u : 0u) |
                            (cfg.tensordash.enabled && cfg.tensordash.scheduleB ? 128u : 0u) |
                            (!cfg.tensordash.enabled && cfg.array.lanes == 1 ? 256u : 0u) |
                            (cfg.activations.table ? 512u : 0u);
  EXPECT_EQ(s.readRegister("HW_FEATURES"), features);
  // An error raises irq_o when enabled; writing the status bit clears it.
  s.writeRegister("IRQ_ENABLE", 2);
  EXPECT_FALSE(s.irq());
  s.issue(fm::Instruction{kNoFunct, 0, 0});
  ASSERT_TRUE(s.drain()) << s.hangReport();
  EXPECT_EQ(s.readRegister("ERROR") & 0xff,
            static_cast<uint32_t>(hw::isa::errorCode("UNKNOWN_FUNCT")));
  EXPECT_TRUE(s.irq());
  s.writeRegister("IRQ_STATUS", 2);
  EXPECT_FALSE(s.irq());
  s.finish();
  EXPECT_TRUE(s.protocolClean()) << s.protocolReport();
}

int externalEvent(const std::string& name) {
  for (const hw::isa::CounterEvent& e : hw::isa::counterEvents())
    if (e.external && e.name == name)
      return e.id;
  throw std::runtime_error("no external counter event " + name);
}

// The DMA byte counters, read after the moves (the harness fences COUNTER_OPs), count exactly
// the payload bytes: rows x cols x element bytes per mvin, none for a zero fill.
TEST_F(System, CountersThroughBothCommandPaths) {
  const uint32_t n = static_cast<uint32_t>(dim);
  putMatrix(kIn, dim, dim, dim * ib, ib, p.inputWidth);
  fm::CounterOpArgs configure;
  configure.configure = true;
  configure.external = true;
  configure.index = 1;
  configure.event = externalEvent("RDMA_BYTES_REC");
  fm::CounterOpArgs read;
  read.index = 1;
  prog = {fm::counterOp(configure),
          fm::configLd({0, false, 1, 0, fm::floatBits(1), dim * static_cast<uint64_t>(ib)}),
          fm::mvin(0, kIn, fm::spAddr(0), n, n),
          fm::mvin(0, 0, fm::spAddr(2 * dim), n, n),
          fm::mvin(0, kIn, fm::spAddr(dim), n - 1, n),
          fm::counterOp(read)};
  const uint64_t want = static_cast<uint64_t>(2 * dim - 1) * dim * ib;
  for (int mmio : {0, 100}) {
    const RunOutcome r = run(mmio ? "counters_mmio" : "counters_rocc", mmio);
    ASSERT_EQ(r.responses.size(), 2u);
    EXPECT_EQ(r.responses[1].data, want);
  }
}

} // namespace
} // namespace by::test
