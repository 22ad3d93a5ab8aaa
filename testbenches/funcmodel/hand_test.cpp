// Small cases on configs/tiny.yaml (DIM 4, int8/int32, 20-bit outputs, 1024 SP rows, 256 ACC
// rows, MAX_BLOCK_LEN 16, MAX_BLOCK_LEN_ACC 4) whose expected numbers were computed by hand
// from docs/isa.md and docs/arithmetic.md.
#include "fm_util.h"
#include "hwspec/array_params.h"

#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using by::test::kDramBase;
using by::test::Machine;

namespace {

constexpr uint64_t kA = kDramBase + 0x000;
constexpr uint64_t kB = kDramBase + 0x100;
constexpr uint64_t kD = kDramBase + 0x200;
constexpr uint64_t kC = kDramBase + 0x400;

const std::vector<int64_t> kMatA = {1, 2, 0, -1, 0, 1, 3, 2, -2, 0, 1, 1, 4, -1, 0, 2};
const std::vector<int64_t> kMatB = {1, 0, 2, -1, 0, 3, 1, 1, 2, -2, 0, 1, 1, 1, -1, 0};
const std::vector<int64_t> kMatD = {10, 0, 0, 0, 0, -5, 0, 0, 0, 0, 100, 0, 1, 2, 3, 4};
// A*B + D, by hand.
const std::vector<int64_t> kAxBplusD = {10, 5, 5, 1, 8, -6, -1, 4, 1, -1, 95, 3, 7, 1, 8, -1};

ConfigExArgs ws() {
  ConfigExArgs a;
  a.dataflow = hw::kDataflowWS;
  return a;
}

ConfigExArgs os(uint32_t shift) {
  ConfigExArgs a;
  a.dataflow = hw::kDataflowOS;
  a.inShift = shift;
  return a;
}

ConfigLdArgs ld(uint64_t stride, int channel = 0) {
  ConfigLdArgs a;
  a.stride = stride;
  a.channel = channel;
  return a;
}

ConfigStArgs st(uint32_t stride, float scale = 1.0f, int act = 0) {
  ConfigStArgs a;
  a.stride = stride;
  a.accScaleBits = floatBits(scale);
  a.activation = act;
  return a;
}

} // namespace

// The example of docs/isa.md, instruction for instruction.
TEST(FuncModelHand, DocExampleWsMatmulWithBias) {
  Machine m;
  m.put(kA, 1, kMatA);
  m.put(kB, 1, kMatB);
  m.put(kD, 4, kMatD);
  m.ok(configLd(ld(4)));
  m.ok(configEx(ws()));
  m.ok(configSt(st(4)));
  m.ok(mvin(0, kA, spAddr(0), 4, 4));
  m.ok(mvin(0, kB, spAddr(4), 4, 4));
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD, accAddr(0), 4, 4));
  m.ok(preload({spAddr(4), 4, 4}, {accAddr(0, true), 4, 4}));
  m.ok(compute(true, {spAddr(0), 4, 4}, {garbageAddr(), 4, 4}));
  m.ok(mvout(kC, accAddr(0), 4, 4));
  EXPECT_EQ(m.get(kC, 1, 16), kAxBplusD);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(m.model.acc(i, j), kAxBplusD[i * 4 + j]);
  EXPECT_EQ(m.model.error().count, 0u);
  EXPECT_EQ(m.model.dramBytesRead(), 16u + 16u + 64u);
  EXPECT_EQ(m.model.dramBytesWritten(), 16u);
}

// The bias as the COMPUTE's D operand (from the scratchpad), result to the scratchpad.
TEST(FuncModelHand, WsBiasFromComputeOperand) {
  Machine m;
  m.put(kA, 1, kMatA);
  m.put(kB, 1, kMatB);
  m.put(kD, 1, kMatD);
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 4, 4));
  m.ok(mvin(0, kB, spAddr(4), 4, 4));
  m.ok(mvin(0, kD, spAddr(8), 4, 4));
  m.ok(preload({spAddr(4), 4, 4}, {spAddr(12), 4, 4}));
  m.ok(compute(true, {spAddr(0), 4, 4}, {spAddr(8), 4, 4}));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(m.model.sp(12 + i, j), kAxBplusD[i * 4 + j]);
  // COMPUTE_ACCUMULATED keeps the weights: A' = identity rows 0..1 only, no bias, C 2 x 3.
  m.put(kA + 64, 1, {1, 0, 0, 0, 0, 0, 0, 1});
  m.ok(mvin(0, kA + 64, spAddr(16), 2, 4));
  m.ok(preload({garbageAddr(), 4, 4}, {spAddr(20), 2, 3}));
  m.ok(compute(false, {spAddr(16), 2, 4}, {garbageAddr(), 4, 4}));
  const std::vector<int64_t> rowsB03 = {1, 0, 2, 1, 1, -1}; // B row 0 and row 3, cols 0..2
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(m.model.sp(20 + i, j), rowsB03[i * 3 + j]);
  EXPECT_EQ(m.model.sp(20, 3), 0); // column beyond C.cols untouched (was 0)
}

// WS: the bias from the accumulator (acc_t, wrapped to the 20-bit output width), results to
// the scratchpad through ReLU and saturation to int8, C rows strided.
TEST(FuncModelHand, WsAccBiasReluSaturationAndStrides) {
  Machine m;
  // A = 2x2 identity in a 4x4 operand (rows 1 and 0 swapped), B = [[3, -3], [1, 2]].
  m.put(kA, 1, {0, 1, 0, 0, 1, 0, 0, 0});
  m.put(kB, 1, {3, -3, 0, 0, 1, 2, 0, 0});
  // D (int32): 1000, -1000 / (2^20 + 5) which wraps to 5 at 20 bits, -7.
  m.put(kD, 4, {1000, -1000, 0, 0, (1 << 20) + 5, -7, 0, 0});
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 2, 4));
  m.ok(mvin(0, kB, spAddr(2), 2, 4));
  ConfigLdArgs accLd = ld(16, 1);
  m.ok(configLd(accLd));
  m.ok(mvin(1, kD, accAddr(10), 2, 4));
  ConfigExArgs ex = ws();
  ex.activation = hw::isa::kActRelu;
  ex.cStride = 3;
  ex.aStride = 0; // means 1
  m.ok(configEx(ex));
  m.ok(preload({spAddr(2), 2, 2}, {spAddr(100), 2, 2}));
  m.ok(compute(true, {spAddr(0), 2, 2}, {accAddr(10), 2, 2}));
  // Row 0: A row [0,1] -> B row 1 = [1, 2] + [1000, -1000] = [1001, -998] -> ReLU, sat: [127, 0]
  // Row 1: A row [1,0] -> B row 0 = [3, -3] + [5, -7] = [8, -10] -> [8, 0]
  EXPECT_EQ(m.model.sp(100, 0), 127);
  EXPECT_EQ(m.model.sp(100, 1), 0);
  EXPECT_EQ(m.model.sp(103, 0), 8);
  EXPECT_EQ(m.model.sp(103, 1), 0);
  EXPECT_EQ(m.model.sp(101, 0), 0); // between the strided C rows: untouched
}

// OS over two K tiles: the first pair starts the accumulation from D with C = GARBAGE, the
// second (COMPUTE_ACCUMULATED) ends it at a real C. in_shift 1 rounds half to even.
TEST(FuncModelHand, OsAccumulationOverTwoKTiles) {
  Machine m;
  m.put(kA, 1, kMatA);
  m.put(kB, 1, kMatB);
  m.put(kD, 1, kMatD);
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 4, 4));     // A (only columns 0..1 are used: cols = 2)
  m.ok(mvin(0, kB, spAddr(4), 4, 4));     // B rows 0..1 at SP 4, rows 2..3 at SP 6
  m.ok(mvin(0, kA + 2, spAddr(8), 4, 2)); // A columns 2..3
  m.ok(mvin(0, kD, spAddr(12), 4, 4));
  m.ok(configEx(os(1)));
  m.ok(preload({spAddr(12), 4, 4}, {garbageAddr(), 4, 4}));
  m.ok(compute(true, {spAddr(0), 4, 2}, {spAddr(4), 2, 4}));
  m.ok(preload({garbageAddr(), 4, 4}, {accAddr(8), 4, 4}));
  m.ok(compute(false, {spAddr(8), 4, 2}, {spAddr(6), 2, 4}));
  // roundingShift(A*B + D, 1), by hand: 2.5 -> 2, 0.5 -> 0, -0.5 -> 0, 47.5 -> 48, 3.5 -> 4.
  const std::vector<int64_t> expect = {5, 2, 2, 0, 4, -3, 0, 2, 0, 0, 48, 2, 4, 0, 4, 0};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(m.model.acc(8 + i, j), expect[i * 4 + j]) << i << "," << j;
  // The accumulation ended: a further COMPUTE_ACCUMULATED starts from zero. A = I (rows of the
  // identity), B = B rows 0..3, shift 1 -> roundingShift(B, 1) into C = ACC 12 (accumulate).
  m.put(kA + 64, 1, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  m.ok(mvin(0, kA + 64, spAddr(16), 4, 4));
  m.ok(preload({garbageAddr(), 4, 4}, {accAddr(12, true), 1, 4}));
  m.ok(compute(false, {spAddr(16), 4, 4}, {spAddr(4), 4, 4}));
  // B row 0 = [1, 0, 2, -1] >> 1 = [0 (0.5), 0, 1, 0 (-0.5)], accumulated onto zeros.
  EXPECT_EQ(m.model.acc(12, 0), 0);
  EXPECT_EQ(m.model.acc(12, 2), 1);
  EXPECT_EQ(m.model.acc(12, 3), 0);
}

// OS results saturate to the 20-bit output width and D enters the PEs wrapped to 20 bits.
TEST(FuncModelHand, OsSaturationAndWrappedD) {
  Machine m;
  m.put(kD, 4, {(1 << 19) - 1, (1 << 20) + 3, -(1 << 19), 0});
  m.put(kA, 1, {127, 0, 0, 0});
  m.put(kB, 1, {127, 0, 0, 0});
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD, accAddr(0), 1, 4));
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 1, 4));
  m.ok(mvin(0, kB, spAddr(1), 1, 4));
  m.ok(configEx(os(0)));
  m.ok(preload({accAddr(0), 1, 4}, {accAddr(4), 1, 4}));
  m.ok(compute(true, {spAddr(0), 1, 1}, {spAddr(1), 1, 1}));
  EXPECT_EQ(m.model.acc(4, 0), (1 << 19) - 1); // 2^19 - 1 + 16129 saturates
  EXPECT_EQ(m.model.acc(4, 1), 3);             // 2^20 + 3 wraps to 3
  EXPECT_EQ(m.model.acc(4, 2), -(1 << 19));
  EXPECT_EQ(m.model.acc(4, 3), 0);
}

// Strides, column blocks and the untouched tail of a partial block; MVOUT only writes the
// bytes of the elements it moves.
TEST(FuncModelHand, MvinMvoutStridesAndBlocks) {
  Machine m;
  // 3 rows of 6 int8 elements, 10 bytes apart.
  std::vector<int64_t> src(30, -99);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 6; ++c)
      src[r * 10 + c] = r * 10 + c;
  m.put(kA, 1, src);
  // Pre-fill SP rows 9..11 so that elements 2..3 of the second block are seen untouched.
  m.put(kB, 1, std::vector<int64_t>(12, 77));
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kB, spAddr(9), 3, 4));
  m.ok(configLd(ld(10)));
  m.ok(mvin(0, kA, spAddr(5), 3, 6));
  for (int r = 0; r < 3; ++r) {
    for (int e = 0; e < 4; ++e)
      EXPECT_EQ(m.model.sp(5 + r, e), r * 10 + e);
    EXPECT_EQ(m.model.sp(9 + r, 0), r * 10 + 4); // block 1 at row + DIM
    EXPECT_EQ(m.model.sp(9 + r, 1), r * 10 + 5);
    EXPECT_EQ(m.model.sp(9 + r, 2), 77);
  }
  // Out again with a DRAM stride of 7: bytes 6 of each 7 keep their old value.
  m.put(kC, 1, std::vector<int64_t>(21, -1));
  m.ok(configSt(st(7)));
  m.ok(mvout(kC, spAddr(5), 3, 6));
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 6; ++c)
      EXPECT_EQ(m.get(kC + r * 7 + c, 1, 1)[0], r * 10 + c);
    EXPECT_EQ(m.get(kC + r * 7 + 6, 1, 1)[0], -1);
  }
  // A block stride of 8 puts the second block at row + 8.
  ConfigLdArgs bs = ld(10, 2);
  bs.blockStride = 8;
  m.ok(configLd(bs));
  m.ok(mvin(2, kA, spAddr(200), 2, 6));
  EXPECT_EQ(m.model.sp(208, 0), 4);
  EXPECT_EQ(m.model.sp(209, 1), 15);
  // The other channels kept their own strides.
  EXPECT_EQ(m.model.state().ld[0].stride, 10u);
  EXPECT_EQ(m.model.state().ld[1].stride, 0u);
  EXPECT_EQ(m.model.state().ld[1].blockStride, 4u);
}

// DRAM address 0 writes zeros without touching DRAM; stride 0 repeats one row (bias
// broadcast); shrink reads int8 into the accumulator; accumulate wraps at 32 bits.
TEST(FuncModelHand, ZeroFillBroadcastShrinkAccumulate) {
  Machine m;
  m.put(kA, 1, std::vector<int64_t>(16, 5));
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 4, 4));
  const uint64_t readBefore = m.model.dramBytesRead();
  m.ok(mvin(0, 0, spAddr(1), 2, 3)); // zeros in rows 1..2, elements 0..2
  EXPECT_EQ(m.model.dramBytesRead(), readBefore);
  EXPECT_EQ(m.model.sp(1, 0), 0);
  EXPECT_EQ(m.model.sp(2, 2), 0);
  EXPECT_EQ(m.model.sp(2, 3), 5);
  EXPECT_EQ(m.model.sp(3, 0), 5);

  m.put(kD, 4, {2147483647, -2147483647 - 1, 7, -7});
  m.ok(configLd(ld(0)));
  m.ok(mvin(0, kD, accAddr(20), 3, 4)); // the same row three times, read once
  EXPECT_EQ(m.model.dramBytesRead(), readBefore + 16);
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(m.model.acc(20 + r, 0), 2147483647);
  m.ok(mvin(0, kD, accAddr(20, true), 1, 4)); // accumulate: wraps
  EXPECT_EQ(m.model.acc(20, 0), -2);
  EXPECT_EQ(m.model.acc(20, 1), 0);
  EXPECT_EQ(m.model.acc(20, 2), 14);
  EXPECT_EQ(m.model.acc(20, 3), -14);

  ConfigLdArgs shrink = ld(4, 1);
  shrink.shrink = true;
  m.ok(configLd(shrink));
  m.put(kB, 1, {-128, 127, -1, 3, 1, 2, 3, 4, 5, 6, 7, 8});
  m.ok(mvin(1, kB, accAddr(30), 1, 12)); // 12 int8 elements: 3 blocks (MAX_BLOCK_LEN applies)
  EXPECT_EQ(m.model.acc(30, 0), -128);
  EXPECT_EQ(m.model.acc(30, 2), -1);
  EXPECT_EQ(m.model.acc(34, 0), 1);
  EXPECT_EQ(m.model.acc(38, 3), 8);
  m.ok(mvin(1, kB, accAddr(30, true), 1, 4));
  EXPECT_EQ(m.model.acc(30, 0), -256);
  EXPECT_EQ(m.model.acc(30, 1), 254);
}

// accScale (round half to even), saturation to int8 and ReLU on the way out, the "keep"
// scale, full-width reads, and a two-block scaled mvout.
TEST(FuncModelHand, MvoutScaleReluSaturationFull) {
  Machine m;
  m.put(kD, 4, {300, -300, 5, -5, 3, 1, -3, 2147483647});
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD, accAddr(0), 2, 4));
  m.ok(configSt(st(4, 0.5f)));
  m.ok(mvout(kC, accAddr(0), 2, 4));
  // 150 -> 127, -150 -> -128, 2.5 -> 2, -2.5 -> -2, 1.5 -> 2, 0.5 -> 0, -1.5 -> -2, huge -> 127
  EXPECT_EQ(m.get(kC, 1, 8), (std::vector<int64_t>{127, -128, 2, -2, 2, 0, -2, 127}));
  ConfigStArgs relu = st(4, 0.0f, hw::isa::kActRelu);
  relu.accScaleBits = hw::isa::kAccScaleKeep; // keeps 0.5
  m.ok(configSt(relu));
  m.ok(mvout(kC + 16, accAddr(0), 2, 4));
  EXPECT_EQ(m.get(kC + 16, 1, 8), (std::vector<int64_t>{127, 0, 2, 0, 2, 0, 0, 127}));
  EXPECT_EQ(m.model.state().st.accScaleBits, floatBits(0.5f));
  // Full: raw int32, no scale or activation.
  m.ok(configSt(st(16)));
  m.ok(mvout(kC + 32, accAddr(0, false, true), 2, 4));
  EXPECT_EQ(m.get(kC + 32, 4, 8), (std::vector<int64_t>{300, -300, 5, -5, 3, 1, -3, 2147483647}));
  // Two blocks of the accumulator (rows 0 and 4) scaled by 1 into one DRAM row of 8 int8.
  m.put(kD + 64, 4, {-1, -2, -3, -4});
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD + 64, accAddr(4), 1, 4));
  m.ok(configSt(st(8, 1.0f)));
  m.ok(mvout(kC + 80, accAddr(0), 1, 8));
  EXPECT_EQ(m.get(kC + 80, 1, 8), (std::vector<int64_t>{127, -128, 5, -5, -1, -2, -3, -4}));
}

// 2x2 max-pool, stride 2, one row and one column of zero padding, on a 3x3 image of two
// channels; the pooled pixels are `stride` bytes apart in DRAM, pool_out_dim per row.
TEST(FuncModelHand, MaxPoolWithPadding) {
  Machine m;
  const std::vector<int64_t> img = {1, -2, 3, -4, 5, -6, 7, -8, 9};
  std::vector<int64_t> rows; // pixel (y, x) -> ACC row y*3 + x, channels {v, -v, 0, 0}
  for (int64_t v : img)
    rows.insert(rows.end(), {v, -v, 0, 0});
  m.put(kD, 4, rows);
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD, accAddr(40), 9, 4));
  ConfigStArgs pool = st(3);
  pool.poolStride = 2;
  pool.poolSize = 2;
  pool.upad = 1;
  pool.lpad = 1;
  pool.orows = 3;
  pool.ocols = 3;
  pool.porows = 2;
  pool.pocols = 2;
  pool.poolOutDim = 2;
  m.ok(configSt(pool));
  m.put(kC, 1, std::vector<int64_t>(12, -99));
  m.ok(mvout(kC, accAddr(40), 0 /* rows ignored */, 2));
  // Channel 0 windows: {pad,pad,pad,1} {pad,pad,-2,3} {pad,-4,pad,7} {5,-6,-8,9}
  // Channel 1 windows: {pad,pad,pad,-1} {pad,pad,2,-3} {pad,4,pad,-7} {-5,6,8,-9}
  const std::vector<int64_t> expect = {1, 0, -99, 3, 2, -99, 7, 4, -99, 9, 8, -99};
  EXPECT_EQ(m.get(kC, 1, 12), expect);
  EXPECT_EQ(m.model.dramBytesWritten(), 8u);
}

// Strided ("1-D") mvout: pixel (y, x) of an orows x ocols block of rows goes to
// dram + (y*pool_out_dim + x)*stride.
TEST(FuncModelHand, StridedMvout) {
  Machine m;
  std::vector<int64_t> v;
  for (int r = 0; r < 6; ++r)
    v.insert(v.end(), {r, 10 + r, 20 + r, 30 + r});
  m.put(kA, 1, v);
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(50), 6, 4));
  ConfigStArgs s = st(4);
  s.poolSize = 1; // pool_stride 0: strided mvout
  s.orows = 2;
  s.ocols = 3;
  s.poolOutDim = 5;
  m.ok(configSt(s));
  m.ok(mvout(kC, spAddr(50), 1, 3));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      const int r = y * 3 + x;
      EXPECT_EQ(m.get(kC + (y * 5 + x) * 4, 1, 3), (std::vector<int64_t>{r, 10 + r, 20 + r}));
    }
  EXPECT_EQ(m.get(kC + 3 * 4, 1, 1)[0], 0); // pixel slot x = 3 of row 0 is not written
}

// 16-bit elements: two bytes per element everywhere, including pooled output.
TEST(FuncModelHand, SixteenBitElements) {
  Machine m(test::shippedConfig("tiny16"));
  ASSERT_EQ(m.model.params().inputBytes, 2);
  m.put(kA, 2, {-30000, 30000, 1, -1, 2, 3, 4, 5});
  m.ok(configLd(ld(8)));
  m.ok(mvin(0, kA, spAddr(0), 2, 4));
  EXPECT_EQ(m.model.sp(0, 0), -30000);
  m.ok(configSt(st(8)));
  m.ok(mvout(kC, spAddr(0), 2, 4));
  EXPECT_EQ(m.get(kC, 2, 8), (std::vector<int64_t>{-30000, 30000, 1, -1, 2, 3, 4, 5}));
  // Pool 1x1 stride 1 (a copy) of a 1x2 image, 2 channels: channel e at byte 2*e.
  m.put(kD, 4, {40000, -5, 0, 0, 7, 8, 0, 0});
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kD, accAddr(0), 2, 4));
  ConfigStArgs pool = st(4);
  pool.poolStride = 1;
  pool.poolSize = 1;
  pool.orows = 1;
  pool.ocols = 2;
  pool.porows = 1;
  pool.pocols = 2;
  pool.poolOutDim = 2;
  m.ok(configSt(pool));
  m.ok(mvout(kC + 64, accAddr(0), 1, 2));
  EXPECT_EQ(m.get(kC + 64, 2, 4), (std::vector<int64_t>{32767, -5, 7, 8}));
}

// 64-bit accumulators wrap without overflow in the model's own arithmetic.
TEST(FuncModelHand, SixtyFourBitAccumulatorWraps) {
  Machine m(test::shippedConfig("tiny64"));
  ASSERT_EQ(m.model.params().accBytes, 8);
  const int64_t max = INT64_MAX;
  m.put(kD, 8, {max, -max - 1, 1, -1});
  ConfigLdArgs l = ld(32);
  m.ok(configLd(l));
  m.ok(mvin(0, kD, accAddr(0), 1, 4));
  m.ok(mvin(0, kD, accAddr(0, true), 1, 4));
  EXPECT_EQ(m.model.acc(0, 0), -2);
  EXPECT_EQ(m.model.acc(0, 1), 0);
  EXPECT_EQ(m.model.acc(0, 2), 2);
  // OS: D = INT64_MAX (the output width is 64 too) plus 127 * 127 wraps, then saturates to
  // nothing (64-bit output): the wrapped value comes out.
  m.put(kA, 1, {127, 0, 0, 0});
  m.ok(configLd(ld(4)));
  m.ok(mvin(0, kA, spAddr(0), 1, 4));
  ConfigExArgs ex = os(0);
  m.ok(configEx(ex));
  m.ok(preload({accAddr(1), 1, 1}, {accAddr(2), 1, 1}));
  m.ok(mvin(0, 0, accAddr(1), 1, 4));
  EXPECT_EQ(m.run(compute(true, {spAddr(0), 1, 1}, {spAddr(0), 1, 1})).error,
            hw::isa::errorCode("UNPAIRED")); // the mvin left the PRELOAD dangling
  m.ok(configLd(ld(32)));
  m.ok(mvin(0, kD, accAddr(1), 1, 1)); // INT64_MAX
  m.ok(preload({accAddr(1), 1, 1}, {accAddr(2), 1, 1}));
  m.ok(compute(true, {spAddr(0), 1, 1}, {spAddr(0), 1, 1}));
  EXPECT_EQ(m.model.acc(2, 0), static_cast<int64_t>(uint64_t(max) + 127u * 127u));
}

TEST(FuncModelHand, FlushDoesNothing) {
  Machine m;
  const ArchState before = m.model.state();
  const ExecResult r = m.ok(flush());
  EXPECT_FALSE(r.hasRd);
  EXPECT_EQ(m.model.state(), before);
}

TEST(FuncModelHand, ResetState) {
  Machine m;
  const ArchState& s = m.model.state();
  EXPECT_EQ(s.ex.dataflow, hw::kDataflowWS);
  EXPECT_EQ(s.ex.activation, hw::isa::kActNone);
  EXPECT_EQ(s.ex.aStride, 1u);
  EXPECT_EQ(s.ex.cStride, 1u);
  EXPECT_EQ(s.ex.inShift, 0u);
  for (const LoadChannel& ch : s.ld) {
    EXPECT_EQ(ch.stride, 0u);
    EXPECT_EQ(ch.blockStride, 4u);
    EXPECT_FALSE(ch.shrink);
  }
  EXPECT_EQ(s.st.stride, 0u);
  EXPECT_EQ(s.st.accScale(), 1.0f);
  EXPECT_EQ(s.st.pool, PoolConfig{});
  EXPECT_FALSE(s.array.valid);
  EXPECT_FALSE(s.preload.has_value());
  EXPECT_EQ(m.model.error(), ErrorState{});
  // An OS-only build resets to OS.
  Machine os(test::shippedConfig("large32"));
  EXPECT_EQ(os.model.state().ex.dataflow, hw::kDataflowOS);
}

// Vector PEs (lanes4: DIM 4, 4 lanes, K = 16): A rows are 16 reduction elements, B is
// lane-packed, packed[t][j*4 + l] = B[4t + l][j] (docs/isa.md, "Vector PEs"). B by hand:
// column 0 is k, column 1 is 1, column 2 is k % 2, column 3 is 0.
TEST(FuncModelHand, VectorPesReduceOverLanePackedB) {
  Machine m(test::shippedConfig("lanes4"));
  std::vector<int64_t> a(32, 0), packed(64, 0);
  for (int k = 0; k < 16; ++k) {
    a[k] = 1; // row 0: all ones
    packed[(k / 4) * 16 + 0 * 4 + k % 4] = k;
    packed[(k / 4) * 16 + 1 * 4 + k % 4] = 1;
    packed[(k / 4) * 16 + 2 * 4 + k % 4] = k % 2;
  }
  a[16 + 5] = 1; // row 1 picks B row 5
  m.put(kA, 1, a);
  m.put(kB, 1, packed);
  m.ok(configLd(ld(16)));
  m.ok(mvin(0, kA, spAddr(0), 2, 16));
  m.ok(mvin(0, kB, spAddr(4), 4, 16));
  for (const bool wsFlow : {true, false}) {
    m.ok(configEx(wsFlow ? ws() : os(0)));
    // WS: B is the PRELOAD's operand; OS: the COMPUTE's.
    const Operand b{spAddr(4), 4, 16}, none{garbageAddr(), 4, 4};
    m.ok(preload(wsFlow ? b : none, {accAddr(wsFlow ? 0 : 4), 2, 4}));
    m.ok(compute(true, {spAddr(0), 2, 16}, wsFlow ? none : b));
    const int base = wsFlow ? 0 : 4;
    const std::vector<int64_t> row0 = {120, 16, 8, 0}, row1 = {5, 1, 1, 0};
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(m.model.acc(base, j), row0[j]) << (wsFlow ? "WS" : "OS") << " C[0][" << j << "]";
      EXPECT_EQ(m.model.acc(base + 1, j), row1[j])
          << (wsFlow ? "WS" : "OS") << " C[1][" << j << "]";
    }
  }
  EXPECT_EQ(m.model.error().count, 0u);
  // A's columns may reach DIM*lanes, C's only DIM.
  EXPECT_EQ(m.run(preload({garbageAddr(), 4, 4}, {accAddr(0), 2, 5})).error,
            hw::isa::errorCode("BAD_SIZE"));
  EXPECT_EQ(m.run(preload({garbageAddr(), 4, 4}, {accAddr(0), 2, 4})).error, 0);
  EXPECT_EQ(m.run(compute(true, {spAddr(0), 2, 17}, {garbageAddr(), 4, 4})).error,
            hw::isa::errorCode("BAD_SIZE"));
}
