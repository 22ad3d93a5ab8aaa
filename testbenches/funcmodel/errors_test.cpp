// Every rejection rule of docs/isa.md: one command, its error code, and nothing changed
// (local memories, CONFIG state, array, counters, DRAM and the DMA byte counts).
#include "fm_util.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using by::test::kDramBase;
using by::test::Machine;

namespace {

int code(const char* name) {
  return hw::isa::errorCode(name);
}

/// Runs `i`, which must be rejected with `name` and change nothing but the error register.
void expectRejected(Machine& m, const Instruction& i, const char* name) {
  SCOPED_TRACE(formatInstruction(i) + " -> " + name);
  const ArchState before = m.model.state();
  const std::vector<uint8_t> dramBefore = m.dram.bytes();
  const ErrorState errBefore = m.model.error();
  const uint64_t rd = m.model.dramBytesRead(), wr = m.model.dramBytesWritten();
  const ExecResult r = m.run(i);
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.error, code(name));
  EXPECT_FALSE(r.preloadRejected);
  EXPECT_TRUE(m.model.state() == before);
  EXPECT_TRUE(m.dram.bytes() == dramBefore);
  EXPECT_EQ(m.model.dramBytesRead(), rd);
  EXPECT_EQ(m.model.dramBytesWritten(), wr);
  EXPECT_EQ(m.model.error().count, errBefore.count + 1);
  if (errBefore.code == 0) {
    EXPECT_EQ(m.model.error().code, code(name));
    EXPECT_EQ(m.model.error().funct, static_cast<int>(i.funct & 0x7f));
  } else {
    EXPECT_EQ(m.model.error().code, errBefore.code); // the first error wins
  }
}

ConfigExArgs exArgs(int dataflow) {
  ConfigExArgs a;
  a.dataflow = dataflow;
  return a;
}

ConfigStArgs poolArgs() {
  ConfigStArgs p;
  p.poolStride = 1;
  p.poolSize = 2;
  p.orows = 2;
  p.ocols = 2;
  p.porows = 1;
  p.pocols = 1;
  p.poolOutDim = 1;
  p.stride = 4;
  return p;
}

constexpr uint64_t kSrc = kDramBase + 0x1000;

} // namespace

TEST(FuncModelErrors, UnknownFunctAndConfigType) {
  // Gemmini's LOOP_WS functs (8..13) exist only with loops.ws, LOOP_CONV_WS (15..21) only with
  // loops.conv.
  config::Config noLoops = test::shippedConfig("tiny");
  noLoops.loops.ws = false;
  noLoops.loops.conv = false;
  Machine m(noLoops);
  for (uint32_t f : {8u, 9u, 10u, 13u, 15u, 16u, 21u, 127u, 200u})
    expectRejected(m, Instruction{f, 0x1234, 0x5678}, "UNKNOWN_FUNCT");
  Machine loops; // tiny has loops.ws and loops.conv
  for (uint32_t f : {22u, 127u})
    expectRejected(loops, Instruction{f, 0x1234, 0x5678}, "UNKNOWN_FUNCT");
  expectRejected(m, configRaw(3, 0xfffffff0, 0), "BAD_CONFIG_TYPE");
}

TEST(FuncModelErrors, Unsupported) {
  Machine m;
  ConfigExArgs a = exArgs(hw::kDataflowWS); // two operands for the one transposer
  a.aTranspose = true;
  a.bTranspose = true;
  expectRejected(m, configEx(a), "UNSUPPORTED");
  a = exArgs(hw::kDataflowOS);
  a.bTranspose = true;
  expectRejected(m, configEx(a), "UNSUPPORTED");
  for (int act : {2, 3}) {
    a = exArgs(hw::kDataflowWS);
    a.activation = act;
    expectRejected(m, configEx(a), "UNSUPPORTED");
    ConfigStArgs s;
    s.activation = act;
    expectRejected(m, configSt(s), "UNSUPPORTED");
  }
  ConfigLdArgs l;
  l.pixelRepeats = 2;
  expectRejected(m, configLd(l), "UNSUPPORTED");
  l = ConfigLdArgs{};
  l.scaleBits = floatBits(2.0f);
  expectRejected(m, configLd(l), "UNSUPPORTED");
  l = ConfigLdArgs{};
  l.channel = 3; // there are three channels
  expectRejected(m, configLd(l), "UNSUPPORTED");
  // Scale 0 and pixel_repeats 0 are accepted.
  l = ConfigLdArgs{};
  l.scaleBits = 0;
  l.pixelRepeats = 0;
  m.ok(configLd(l));

  Machine wsOnly(test::tinyWith({{"  dataflow: both", "  dataflow: ws"}}));
  expectRejected(wsOnly, configEx(exArgs(hw::kDataflowOS)), "UNSUPPORTED");
  Machine osOnly(test::shippedConfig("large32"));
  expectRejected(osOnly, configEx(exArgs(hw::kDataflowWS)), "UNSUPPORTED");
  osOnly.ok(configEx(exArgs(hw::kDataflowOS)));
}

// TensorDash's run-time control (docs/isa.md, CONFIG_EX td_off / td_side): choosing the
// scheduled operand needs the hardware; turning it off is accepted everywhere (there is
// nothing to turn off); with set_only_strides neither field is read.
TEST(FuncModelErrors, TensorDashControlOnlyWhereBuilt) {
  Machine m; // tiny: no TensorDash
  ConfigExArgs a = exArgs(hw::kDataflowOS);
  a.tdSide = 1;
  expectRejected(m, configEx(a), "UNSUPPORTED");
  a.setOnlyStrides = true;
  m.ok(configEx(a));
  a = exArgs(hw::kDataflowOS);
  a.tdOff = true;
  m.ok(configEx(a));
  EXPECT_TRUE(m.model.state().ex.tdOff);

  Machine td8(test::shippedConfig("td8")); // TensorDash without B scheduling: A only
  a = exArgs(hw::kDataflowOS);
  a.tdSide = 1;
  expectRejected(td8, configEx(a), "UNSUPPORTED");
  Machine td(test::shippedConfig("td_l4")); // with it (schedule_b, the default)
  td.ok(configEx(a));
  EXPECT_EQ(td.model.state().ex.tdSide, 1);
  EXPECT_FALSE(td.model.state().ex.tdOff);
  a.tdSide = 0;
  a.tdOff = true;
  td.ok(configEx(a));
  EXPECT_EQ(td.model.state().ex.tdSide, 0);
  EXPECT_TRUE(td.model.state().ex.tdOff);
}

TEST(FuncModelErrors, BadShiftAndSetOnlyStrides) {
  Machine m;
  ConfigExArgs a = exArgs(hw::kDataflowOS);
  a.inShift = 32;
  expectRejected(m, configEx(a), "BAD_SHIFT");
  a.inShift = 31;
  m.ok(configEx(a));
  // set_only_strides reads only the strides: nothing else is checked or changed (a transpose
  // the hardware refuses included, as Gemmini's ignores the transposes then).
  ConfigExArgs s;
  s.setOnlyStrides = true;
  s.bTranspose = true;
  s.activation = 3;
  s.inShift = 99;
  s.dataflow = hw::kDataflowWS;
  s.aStride = 3;
  s.cStride = 0;
  m.ok(configEx(s));
  EXPECT_EQ(m.model.state().ex.dataflow, hw::kDataflowOS);
  EXPECT_EQ(m.model.state().ex.inShift, 31u);
  EXPECT_EQ(m.model.state().ex.aStride, 3u);
  EXPECT_EQ(m.model.state().ex.cStride, 1u);
  EXPECT_FALSE(m.model.state().ex.bTranspose);
}

TEST(FuncModelErrors, BadLocalAddr) {
  Machine m;
  const uint32_t spAcc = spAddr(3) | (1u << hw::isa::kLocalAccumulateBit);
  const uint32_t spFull = spAddr(3) | (1u << hw::isa::kLocalFullBit);
  expectRejected(m, mvin(0, kSrc, garbageAddr(), 1, 4), "BAD_LOCAL_ADDR");
  expectRejected(m, mvin(1, kSrc, spAcc, 1, 4), "BAD_LOCAL_ADDR");
  expectRejected(m, mvin(2, kSrc, spFull, 1, 4), "BAD_LOCAL_ADDR");
  expectRejected(m, mvout(kSrc, garbageAddr(), 1, 4), "BAD_LOCAL_ADDR");
  expectRejected(m, mvout(kSrc, spFull, 1, 4), "BAD_LOCAL_ADDR");
  expectRejected(m, mvout(kSrc, spAcc, 1, 4), "BAD_LOCAL_ADDR");
  // WS weights come from the scratchpad (or GARBAGE); C cannot carry flags on the scratchpad.
  expectRejected(m, preload({accAddr(0), 4, 4}, {accAddr(0), 4, 4}), "BAD_LOCAL_ADDR");
  expectRejected(m, preload({spAddr(0), 4, 4}, {spFull, 4, 4}), "BAD_LOCAL_ADDR");
  // OS: D may come from the accumulator, but a source carries no flags.
  ConfigExArgs os;
  os.dataflow = hw::kDataflowOS;
  m.ok(configEx(os));
  expectRejected(m, preload({accAddr(0, true), 4, 4}, {accAddr(0), 4, 4}), "BAD_LOCAL_ADDR");
  expectRejected(m, preload({accAddr(0, false, true), 4, 4}, {accAddr(0), 4, 4}), "BAD_LOCAL_ADDR");
  m.ok(preload({accAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  m.ok(compute(true, {spAddr(0), 4, 4}, {spAddr(0), 4, 4}));
}

// The address flags gemmini.h issues: C = 3 << 30 | full_C << 29 is both the PRELOAD output
// and the MVOUT source of sp_tiled_matmul_ws / sp_tiled_conv. They mean nothing there and are
// accepted (the RTL decoder of 651e644 rejects them; see func_model.h).
TEST(FuncModelErrors, GemminiAddressFlagsAreAccepted) {
  Machine m;
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(8, true, true), 4, 4}));
  m.ok(compute(true, {spAddr(0), 4, 4}, {garbageAddr(), 4, 4}));
  ConfigStArgs st;
  st.stride = 4;
  m.ok(configSt(st));
  m.ok(mvout(kSrc, accAddr(8, true), 4, 4));
  // With full as well, the mvout is full width.
  st.stride = 16;
  m.ok(configSt(st));
  m.ok(mvout(kSrc + 64, accAddr(8, true, true), 4, 4));
  EXPECT_EQ(m.model.dramBytesWritten(), 16u + 64u);
  // An MVIN into the accumulator with full (Gemmini's mvin_mvout_acc_full uses acc | full for
  // both directions): the flag is ignored, the row written.
  m.ok(mvin(0, kSrc, accAddr(12, false, true), 1, 4));
}

TEST(FuncModelErrors, BadSize) {
  Machine m; // tiny: DIM 4, MAX_BLOCK_LEN 16, MAX_BLOCK_LEN_ACC 4
  expectRejected(m, mvin(0, kSrc, spAddr(0), 0, 4), "BAD_SIZE");
  expectRejected(m, mvin(0, kSrc, spAddr(0), 1, 0), "BAD_SIZE");
  expectRejected(m, mvin(0, kSrc, spAddr(0), 1, 65), "BAD_SIZE");
  expectRejected(m, mvin(0, kSrc, accAddr(0), 1, 17), "BAD_SIZE");
  expectRejected(m, mvout(kSrc, spAddr(0), 0, 4), "BAD_SIZE");
  expectRejected(m, mvout(kSrc, spAddr(0), 1, 65), "BAD_SIZE");
  expectRejected(m, mvout(kSrc, accAddr(0, false, true), 1, 5), "BAD_SIZE");
  expectRejected(m, preload({spAddr(0), 5, 4}, {accAddr(0), 4, 4}), "BAD_SIZE");
  expectRejected(m, preload({spAddr(0), 4, 4}, {accAddr(0), 4, 0}), "BAD_SIZE");
  expectRejected(m, preload({garbageAddr(), 0, 0}, {accAddr(0), 4, 4}), "BAD_SIZE");
  // Column blocks must not overlap: rows <= block stride when there are several blocks.
  expectRejected(m, mvin(0, 0, spAddr(0), 5, 5), "BAD_SIZE"); // block stride DIM = 4
  m.ok(mvin(0, 0, spAddr(0), 5, 4));                          // one block: any rows
  m.ok(mvin(0, 0, spAddr(0), 4, 5));
  // CONFIG_LD strides are 32-bit DRAM distances.
  ConfigLdArgs wide;
  wide.stride = uint64_t{1} << 32;
  expectRejected(m, configLd(wide), "BAD_SIZE");
  wide.stride = 0xffffffffu;
  m.ok(configLd(wide));
  // The largest legal sizes are accepted.
  m.ok(mvin(0, 0, spAddr(0), 1, 64));
  m.ok(mvin(0, 0, accAddr(0), 1, 16));
  ConfigLdArgs shrink;
  shrink.shrink = true;
  m.ok(configLd(shrink));
  m.ok(mvin(0, 0, accAddr(0), 1, 64)); // shrunk: elem_t limits
  m.ok(mvout(kSrc, accAddr(0), 1, 64));
}

TEST(FuncModelErrors, LocalRange) {
  Machine m; // 1024 SP rows, 256 ACC rows
  expectRejected(m, mvin(0, 0, spAddr(1021), 4, 4), "LOCAL_RANGE");
  expectRejected(m, mvin(0, 0, accAddr(255), 2, 1), "LOCAL_RANGE");
  expectRejected(m, mvin(0, 0, spAddr(1020), 1, 5), "LOCAL_RANGE"); // block 1 at row 1024
  expectRejected(m, mvin(0, 0, spAddr(1u << 28), 1, 1), "LOCAL_RANGE");
  expectRejected(m, mvout(kSrc, accAddr(253), 4, 4), "LOCAL_RANGE");
  expectRejected(m, preload({spAddr(1022), 4, 4}, {accAddr(0), 4, 4}), "LOCAL_RANGE");
  ConfigExArgs s;
  s.setOnlyStrides = true;
  s.cStride = 100;
  m.ok(configEx(s));
  expectRejected(m, preload({spAddr(0), 4, 4}, {accAddr(0), 4, 4}), "LOCAL_RANGE"); // row 300
  m.ok(mvin(0, 0, spAddr(1020), 4, 4));
  m.ok(mvin(0, 0, accAddr(252), 4, 4));
}

TEST(FuncModelErrors, DmaError) {
  Machine m;
  ConfigLdArgs l;
  l.stride = 4;
  m.ok(configLd(l));
  expectRejected(m, mvin(0, uint64_t{1} << 32, spAddr(0), 1, 4), "DMA_ERROR");
  expectRejected(m, mvin(0, 0xfffffffe, spAddr(0), 1, 4), "DMA_ERROR");    // crosses 2^32
  expectRejected(m, mvin(0, 0x1000, spAddr(0), 1, 4), "DMA_ERROR");        // no memory there
  expectRejected(m, mvin(0, kDramBase - 2, spAddr(0), 4, 4), "DMA_ERROR"); // straddles base
  l.stride = 0xffffffffu;
  m.ok(configLd(l));
  expectRejected(m, mvin(0, kSrc, spAddr(0), 3, 4), "DMA_ERROR"); // the third row is past 2^32
  expectRejected(m, mvout(uint64_t{1} << 40, spAddr(0), 1, 4), "DMA_ERROR");
  expectRejected(m, mvout(0x10, spAddr(0), 1, 4), "DMA_ERROR");
}

// An AXI error after some rows: local memory is unchanged, but the rows read before the
// error were transferred (and counted), as on the bus. (Rows 8 bytes apart: one read each;
// rows that touch would share reads.)
TEST(FuncModelErrors, DmaErrorMidTransfer) {
  Machine m;
  ConfigLdArgs l;
  l.stride = 8;
  m.ok(configLd(l));
  const ArchState before = m.model.state();
  const ExecResult r = m.run(mvin(0, kDramBase + test::kDramSize - 16, spAddr(0), 4, 4));
  EXPECT_EQ(r.error, code("DMA_ERROR"));
  EXPECT_TRUE(m.model.state() == before);
  EXPECT_EQ(m.model.dramBytesRead(), 8u);
  // MVOUT: the rows before the failing one are in DRAM.
  m.put(kDramBase + test::kDramSize - 8, 1, std::vector<int64_t>(8, -1));
  ConfigStArgs s;
  s.stride = 4;
  m.ok(configSt(s));
  EXPECT_EQ(m.run(mvout(kDramBase + test::kDramSize - 8, spAddr(0), 3, 4)).error,
            code("DMA_ERROR"));
  EXPECT_EQ(m.get(kDramBase + test::kDramSize - 8, 1, 8), std::vector<int64_t>(8, 0));
  EXPECT_EQ(m.model.dramBytesWritten(), 8u);
}

TEST(FuncModelErrors, BadPool) {
  Machine m;
  m.ok(configSt(poolArgs()));
  expectRejected(m, mvout(kSrc, spAddr(0), 1, 4), "BAD_POOL");               // scratchpad
  expectRejected(m, mvout(kSrc, accAddr(0, false, true), 1, 4), "BAD_POOL"); // full
  expectRejected(m, mvout(kSrc, accAddr(0), 1, 5), "BAD_POOL");              // > DIM cols
  expectRejected(m, mvout(kSrc, accAddr(0), 1, 0), "BAD_SIZE");              // no cols
  ConfigStArgs p = poolArgs();
  p.poolSize = 0;
  m.ok(configSt(p)); // checked by the MVOUT that uses it
  expectRejected(m, mvout(kSrc, accAddr(0), 1, 4), "BAD_POOL");
  p = poolArgs();
  p.porows = 0;
  m.ok(configSt(p));
  expectRejected(m, mvout(kSrc, accAddr(0), 1, 4), "BAD_POOL");
  p = poolArgs();
  p.orows = 255;
  p.ocols = 2;
  m.ok(configSt(p));
  expectRejected(m, mvout(kSrc, accAddr(0), 1, 4), "LOCAL_RANGE"); // 510 image rows
  // Strided mvout: no column blocks, and an empty image is inconsistent.
  p = ConfigStArgs{};
  p.poolSize = 1;
  p.orows = 2;
  p.ocols = 2;
  p.poolOutDim = 2;
  m.ok(configSt(p));
  expectRejected(m, mvout(kSrc, spAddr(0), 1, 5), "BAD_POOL");
  p.ocols = 0;
  m.ok(configSt(p));
  expectRejected(m, mvout(kSrc, spAddr(0), 1, 4), "BAD_POOL");
  m.ok(configSt(poolArgs()));
  m.ok(mvout(kSrc, accAddr(0), 1, 4));
}

TEST(FuncModelErrors, Unpaired) {
  Machine m;
  // A COMPUTE without a PRELOAD.
  expectRejected(m, compute(true, {spAddr(0), 4, 4}, {garbageAddr(), 4, 4}), "UNPAIRED");
  // COMPUTE_ACCUMULATED with nothing stationary (after reset): the pair does nothing.
  const ArchState before = m.model.state();
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  ExecResult r = m.run(compute(false, {spAddr(0), 4, 4}, {garbageAddr(), 4, 4}));
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.error, code("UNPAIRED"));
  EXPECT_TRUE(m.model.state() == before);
  // A dangling PRELOAD is rejected when the next command arrives; that command executes.
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  ArchState afterFlush = before;
  r = m.run(flush());
  EXPECT_TRUE(r.accepted);
  EXPECT_TRUE(r.preloadRejected);
  EXPECT_TRUE(m.model.state() == afterFlush);
  EXPECT_EQ(m.model.error().count, 3u);
  // PRELOAD PRELOAD COMPUTE: the first one dangles, the second pairs.
  m.model.clearError();
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  r = m.ok(preload({spAddr(0), 4, 4}, {accAddr(4), 4, 4}));
  EXPECT_TRUE(r.preloadRejected);
  EXPECT_EQ(m.model.error().code, code("UNPAIRED"));
  EXPECT_EQ(m.model.error().funct, hw::isa::kPreload);
  r = m.ok(compute(true, {spAddr(0), 4, 4}, {garbageAddr(), 4, 4}));
  EXPECT_FALSE(r.preloadRejected);
  EXPECT_TRUE(m.model.state().array.valid);
  // A full CONFIG_EX invalidates the stationary data; set_only_strides does not.
  ConfigExArgs s;
  s.setOnlyStrides = true;
  m.ok(configEx(s));
  EXPECT_TRUE(m.model.state().array.valid);
  m.ok(configEx(exArgs(hw::kDataflowWS)));
  EXPECT_FALSE(m.model.state().array.valid);
}

TEST(FuncModelErrors, RejectedComputeTakesItsPreloadAlong) {
  Machine m;
  const ArchState before = m.model.state();
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  const ExecResult r = m.run(compute(true, {accAddr(0), 4, 4}, {garbageAddr(), 4, 4}));
  EXPECT_EQ(r.error, code("BAD_LOCAL_ADDR")); // A must be elem_t: scratchpad or GARBAGE
  EXPECT_TRUE(m.model.state() == before);
  // WS: C cannot have more rows than A.
  m.ok(preload({spAddr(0), 4, 4}, {accAddr(0), 3, 4}));
  EXPECT_EQ(m.run(compute(true, {spAddr(0), 2, 4}, {garbageAddr(), 4, 4})).error, code("BAD_SIZE"));
  // OS: B must be elem_t too, D (PRELOAD) may be in the accumulator.
  m.ok(configEx(exArgs(hw::kDataflowOS)));
  m.ok(preload({accAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  EXPECT_EQ(m.run(compute(true, {spAddr(0), 4, 4}, {accAddr(0), 4, 4})).error,
            code("BAD_LOCAL_ADDR"));
  m.ok(preload({accAddr(0), 4, 4}, {accAddr(0), 4, 4}));
  EXPECT_EQ(m.run(compute(true, {spAddr(1023), 2, 4}, {spAddr(0), 4, 4})).error,
            code("LOCAL_RANGE"));
  EXPECT_EQ(m.model.error().count, 4u);
  EXPECT_EQ(m.model.error().code, code("BAD_LOCAL_ADDR"));
  EXPECT_EQ(m.model.error().funct, hw::isa::kComputePreloaded);
}

TEST(FuncModelErrors, FirstErrorWinsAndClear) {
  Machine m;
  m.run(mvin(0, 0, garbageAddr(), 1, 1));
  m.run(Instruction{127, 0, 0});
  EXPECT_EQ(m.model.error().code, code("BAD_LOCAL_ADDR"));
  EXPECT_EQ(m.model.error().funct, hw::isa::kMvin);
  EXPECT_EQ(m.model.error().count, 2u);
  m.model.clearError();
  EXPECT_EQ(m.model.error().code, 0);
  EXPECT_EQ(m.model.error().count, 2u);
  m.run(Instruction{127, 0, 0});
  EXPECT_EQ(m.model.error().code, code("UNKNOWN_FUNCT"));
  EXPECT_EQ(m.model.error().funct, 127);
}
