// LOOP_CONV_WS and LOOP_CONV_OS on the functional model (docs/isa.md, "LOOP_CONV_WS",
// "LOOP_CONV_OS"): convolutions run as Gemmini-style tiles of loops match a direct CPU
// convolution (conv_loop_case.cpp) over bounds and padding corners, strides, bias or none,
// ReLU, pooling, several images and tiles split over rows, output channels and input channels
// (no_bias accumulation), in both dataflows, on one-lane and vector PEs (lane-packed weights);
// the training forms (kernel dilation, rotated and transposed weights, transposed output);
// illegal loops are rejected with their error and change nothing.
#include "conv_loop_case.h"
#include "fm_util.h"
#include "hwspec/isa.h"
#include "seed.h"

#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using by::test::ConvLoopCase;
using by::test::kDramBase;
using by::test::kDramSize;
using by::test::Machine;

namespace {

config::Config tinyConv() {
  return test::shippedConfig("tiny");
}

void runCase(const ConvLoopCase& c, uint64_t seed, const config::Config& cfg = tinyConv()) {
  SCOPED_TRACE(c.describe() + " on " + cfg.name);
  Machine m(cfg);
  const test::ConvLoopProgram cp =
      test::buildConvLoop(m.model.params(), c, kDramBase, kDramSize, seed);
  m.dram.write(kDramBase, cp.image.data(), cp.image.size());
  for (const Instruction& i : cp.program)
    m.ok(i);
  EXPECT_EQ(m.model.error().count, 0u);
  const std::vector<int64_t> got = m.get(cp.output, m.model.params().inputBytes, cp.want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], cp.want[i]) << "output element " << i;
}

// The cases of both tests: every shape corner of the loop.
std::vector<ConvLoopCase> convCases() {
  std::vector<ConvLoopCase> cases;
  ConvLoopCase c;
  cases.push_back(c);                                     // 5x5x3 -> 3, k3 p1, bias
  c.relu = true, c.bias = false, c.inCh = 6, c.outCh = 7; // two channel blocks each way
  cases.push_back(c);
  c.stride = 2, c.inRows = 7, c.inCols = 6; // strided, uneven right padding
  cases.push_back(c);
  c = ConvLoopCase{};
  c.kernel = 1, c.pad = 0, c.inCh = 9, c.outCh = 5, c.batch = 2; // 1x1 over two images
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = 6, c.inCols = 6, c.inCh = 5, c.outCh = 6, c.tileRows = 2, c.tileOch = 4,
  c.tileKch = 4; // row, out-channel and input-channel tiles (no_bias accumulation)
  cases.push_back(c);
  c.relu = true, c.poolSize = 2, c.poolStride = 2, c.tileRows = 0; // 2x2/2 pooling
  cases.push_back(c);
  c.poolSize = 3, c.poolStride = 2, c.poolPad = 1, c.relu = false; // 3x3/2 pad 1, no ReLU
  cases.push_back(c);
  c = ConvLoopCase{};
  c.kernel = 2, c.pad = 1, c.inRows = 3, c.inCols = 9, c.stride = 2,
  c.tileRows = 1; // rows of padding
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = c.inCols = 9, c.inCh = 4, c.outCh = 4, c.tileRows = 3, c.valueBits = 8; // saturation
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = c.inCols = 6, c.inCh = 5, c.outCh = 20, c.tileRows = 2, c.tileOch = 8,
  c.keep = 1; // three bands, each window kept over three out-channel tiles (the last partial)
  cases.push_back(c);
  c.outCh = 6, c.tileOch = 0, c.stride = 2, c.keep = 2; // the weights kept over the bands
  cases.push_back(c);
  return cases;
}

// The training forms in the loop (docs/isa.md, "Training convolutions in the loop"), alone and
// as backprop combines them: the input gradient (wrot180 + trans_weight_1203, padding k-1) and
// the weight gradient of a strided layer (trans_output_1203 + kernel dilation).
std::vector<ConvLoopCase> trainingCases() {
  std::vector<ConvLoopCase> cases;
  ConvLoopCase c;
  c.inRows = c.inCols = 7, c.pad = 2, c.dilation = 2, c.batch = 2; // dilated 3x3
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = 9, c.inCols = 8, c.kernel = 2, c.pad = 1, c.dilation = 3, c.stride = 2, c.tileRows = 1,
  c.inCh = 5, c.outCh = 6; // dilation 3 at stride 2, one row per tile
  cases.push_back(c);
  c = ConvLoopCase{};
  c.wrot180 = true, c.inCh = 6, c.outCh = 7, c.kernel = 3, c.pad = 2; // rotated, full padding
  cases.push_back(c);
  c.transWeight1203 = true, c.wrot180 = false, c.tileKch = 4, c.tileOch = 4, c.pad = 1;
  cases.push_back(c); // weights [i][kr][kc][o] in input- and output-channel tiles
  c.wrot180 = true, c.pad = 2, c.inRows = c.inCols = 4, c.stride = 1; // the input gradient
  cases.push_back(c);
  c = ConvLoopCase{};
  c.transOutput1203 = true, c.batch = 3, c.inRows = c.inCols = 6, c.tileRows = 2, c.tileOch = 2,
  c.outCh = 5, c.relu = true; // output [y][x][b][o] over row and out-channel tiles
  cases.push_back(c);
  c.dilation = 2, c.kernel = 2, c.pad = 0, c.relu = false, c.inCh = 4,
  c.tileKch = 3; // the weight gradient of a stride-2 layer
  cases.push_back(c);
  c.wrot180 = true, c.transWeight1203 = true, c.stride = 2, c.tileKch = 0; // all three flags
  cases.push_back(c);
  c = ConvLoopCase{};
  c.transWeight0132 = true, c.inCh = 6, c.outCh = 7, c.tileKch = 4, c.tileOch = 4; // [o][i] blocks
  cases.push_back(c);
  c.wrot180 = true, c.pad = 2, c.tileKch = 0, c.dilation = 2, c.inRows = c.inCols = 8;
  cases.push_back(c); // the input gradient as Gemmini's backprop runs it (rotated, [o][i])
  c = ConvLoopCase{};
  c.inputDilated = true, c.inCh = 6, c.outCh = 5, c.tileKch = 4; // a 7x7 dilated image
  c.inRows = c.inCols = 4;
  cases.push_back(c);
  c.kernel = 2, c.stride = 2, c.pad = 0, c.inRows = 6, c.inCols = 5, c.batch = 2, c.tileKch = 0;
  cases.push_back(c); // strided over the dilated image, no padding
  c = ConvLoopCase{};
  c.inputDilated = true, c.wrot180 = true, c.transWeight0132 = true, c.pad = 2, c.inRows = 3;
  c.inCols = 3, c.inCh = 7, c.outCh = 6; // a stride-2 layer's input gradient, all in the loop
  cases.push_back(c);
  c = ConvLoopCase{};
  c.transInput3120 = true, c.batch = 6, c.inCh = 5, c.outCh = 6, c.tileKch = 4, c.tileRows = 2;
  cases.push_back(c); // input [c][y][x][b]: image blocks (the last partial) over channel tiles
  c.poolSize = 2, c.poolStride = 2, c.poolPad = 0, c.tileRows = 0, c.relu = true;
  c.batch = 5, c.inRows = c.inCols = 4, c.outCh = 4;
  cases.push_back(c); // pooled: C's images at the pooled pitch
  c = ConvLoopCase{};
  c.transInput3120 = true, c.transOutput1203 = true, c.batch = 5, c.inCh = 2, c.outCh = 6;
  c.inRows = c.inCols = 7, c.kernel = 3, c.dilation = 2, c.pad = 0; // the weight gradient
  cases.push_back(c);
  c = ConvLoopCase{};
  c.transInput3120 = true, c.inputDilated = true, c.wrot180 = true, c.transWeight1203 = true;
  c.transOutput1203 = true, c.batch = 3, c.inRows = c.inCols = 3, c.pad = 1, c.inCh = 4;
  cases.push_back(c); // every transposed layout, rotated, over the dilated input
  return cases;
}

TEST(LoopConv, MatchesTheCpuConvolution) {
  const uint64_t seed = test::testSeed(21, "loop conv cases");
  const std::vector<ConvLoopCase> cases = convCases();
  for (size_t i = 0; i < cases.size(); ++i)
    runCase(cases[i], seed + i);
}

TEST(LoopConv, TrainingFormsMatchTheCpuConvolution) {
  const uint64_t seed = test::testSeed(23, "loop conv training cases");
  const config::Config tdL4 = test::shippedConfig("td_l4");
  const std::vector<ConvLoopCase> cases = trainingCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    ConvLoopCase c = cases[i];
    runCase(c, seed + i);
    if (c.transWeight0132 || c.transInput3120) // the transposer: WS, one lane
      continue;
    c.os = true;
    runCase(c, seed + 100 + i);
    if (c.transWeight1203) // one lane only
      continue;
    c.tileKch = 0, c.zeroPercent = 30, c.tdMode = static_cast<int>(i % 3);
    runCase(c, seed + 200 + i, tdL4);
  }
}

// LOOP_CONV_OS: the same cases output-stationary on tiny (one lane; the OS loop's sum saturates
// at the spatial output width, which the 8-bit saturation case reaches) and, with both loops,
// on td_l4 (4 lanes: input-channel blocks of 16 channels, lane-packed weights, TensorDash with
// either operand scheduled or off, inputs with zeros). Input-channel tiles are multiples of a
// block.
TEST(LoopConv, OutputStationaryAndVectorPesMatchTheCpuConvolution) {
  const uint64_t seed = test::testSeed(22, "loop conv OS / lanes cases");
  const config::Config tdL4 = test::shippedConfig("td_l4");
  const int kblock = tdL4.array.meshRows * tdL4.array.tileRows * tdL4.array.lanes;
  const std::vector<ConvLoopCase> cases = convCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    ConvLoopCase c = cases[i];
    c.os = true;
    runCase(c, seed + i);
    for (int df = 0; df < 2; ++df) {
      ConvLoopCase v = cases[i];
      v.os = df == 0, v.tdMode = static_cast<int>(i % 3), v.zeroPercent = 50;
      if (v.tileKch) // two input-channel tiles of one block each
        v.inCh = kblock + 3, v.tileKch = kblock;
      runCase(v, seed + 100 + i, tdL4);
    }
  }
  ConvLoopCase wide; // three input-channel blocks, two output-channel blocks, 1x1 and 3x3
  wide.inCh = 2 * kblock + 5, wide.outCh = 7, wide.inRows = wide.inCols = 4;
  for (int k : {1, 3}) {
    wide.kernel = k, wide.pad = k / 2, wide.os = true;
    runCase(wide, seed + 200 + k, tdL4);
  }
}

// The depthwise mode (docs/isa.md, "Depthwise mode"): each output-channel block computes with
// its own channels and the band's diagonal block, on one lane in both loops and on td_l4's vector
// PEs in the OS loop (A at a column offset inside the scratchpad row), with channel counts that
// are not whole blocks, channel tiles, strides, padding, pooling and TensorDash's modes.
TEST(LoopConv, DepthwiseModeMatchesTheCpuConvolution) {
  const uint64_t seed = test::testSeed(24, "loop conv depthwise cases");
  const config::Config tdL4 = test::shippedConfig("td_l4");
  const int kblock = tdL4.array.meshRows * tdL4.array.tileRows * tdL4.array.lanes;
  std::vector<ConvLoopCase> cases;
  ConvLoopCase c;
  c.depthwise = true,
  c.inCh = c.outCh = 11; // three channel blocks on tiny (DIM 4), the last partial
  cases.push_back(c);
  c.stride = 2, c.inRows = 7, c.inCols = 8, c.relu = true, c.bias = false;
  cases.push_back(c);
  c = ConvLoopCase{};
  c.depthwise = true, c.inCh = c.outCh = 9, c.tileOch = 4, c.tileRows = 2; // channel tiles
  cases.push_back(c);
  c.tileRows = 0, c.poolSize = 2, c.poolStride = 2, c.inRows = c.inCols = 6; // pooled
  cases.push_back(c);
  for (size_t i = 0; i < cases.size(); ++i) {
    ConvLoopCase v = cases[i];
    runCase(v, seed + i);
    v.os = true;
    runCase(v, seed + 50 + i);
    // td_l4: blocks of 4 channels, rows of 16: a tile of kblock + 5 channels spans two rows
    v.inCh = v.outCh = kblock + 5, v.tileOch = v.tileOch ? 8 : 0;
    v.zeroPercent = 40, v.tdMode = static_cast<int>(i % 3);
    runCase(v, seed + 100 + i, tdL4);
  }
}

// Every check of LOOP_CONV_WS, in the order of docs/isa.md.
TEST(LoopConv, RejectsIllegalLoops) {
  Machine m(tinyConv());
  const int dim = m.dim();
  ConfigExArgs ex;
  ex.dataflow = 1;
  m.ok(configEx(ex));
  auto check = [&](LoopConvArgs l, const char* error) {
    SCOPED_TRACE(error);
    const Program prog = loopConv(l);
    for (size_t i = 0; i + 1 < prog.size(); ++i)
      m.ok(prog[i]);
    const ArchState before = m.model.state();
    const uint32_t count = m.model.error().count;
    const ExecResult r = m.run(prog.back());
    EXPECT_FALSE(r.accepted);
    EXPECT_EQ(r.error, hw::isa::errorCode(error));
    EXPECT_EQ(m.model.error().count, count + 1);
    EXPECT_TRUE(m.model.state() == before);
  };
  LoopConvArgs ok;
  ok.kchs = ok.pochs = static_cast<uint32_t>(dim);
  ok.krows = ok.kcols = ok.kernelDim = 3, ok.orows = ok.ocols = 2;
  ok.input = kDramBase + 0x1000, ok.weights = kDramBase + 0x2000, ok.output = kDramBase + 0x3000;
  // (trans_weight_0132 without CONFIG_EX's b_transpose)
  for (const char* flag : {"trans_weight_0132", "trans_input_3120", "dw"}) {
    LoopConvArgs l = ok;
    l.extraRs1 = hw::isa::command("LOOP_CONV_WS").rs1Field(flag).place(1);
    check(l, "UNSUPPORTED");
  }
  for (const char* flag : {"a_spad_id", "b_spad_id"}) { // no half 2
    LoopConvArgs l = ok;
    l.extraRs1 = hw::isa::command("LOOP_CONV_WS").rs1Field(flag).place(3);
    check(l, "LOCAL_RANGE");
  }
  for (const char* flag : {"downsample"}) {
    LoopConvArgs l = ok;
    l.extraRs2 = hw::isa::command("LOOP_CONV_WS").rs2Field(flag).place(1);
    check(l, "UNSUPPORTED");
  }
  LoopConvArgs l = ok;
  l.act = 2;
  check(l, "UNSUPPORTED");
  l = ok, l.transOutput1203 = true, l.noPool = false; // a transposed output is not pooled
  check(l, "UNSUPPORTED");
  // CONFIG_EX's transposes other than b_transpose = trans_weight_0132 (the computes would read
  // something else than the convolution's operands).
  for (int t = 1; t < 4; ++t) {
    ConfigExArgs tex = ex;
    tex.aTranspose = t & 1, tex.bTranspose = t & 2;
    if (tex.aTranspose && tex.bTranspose)
      continue; // refused by CONFIG_EX itself
    m.ok(configEx(tex));
    check(ok, "UNSUPPORTED");
  }
  {
    ConfigExArgs tex = ex;
    tex.bTranspose = true;
    m.ok(configEx(tex));
    l = ok, l.transWeight0132 = true, l.outChannels = 0; // no tap pitch
    check(l, "BAD_SIZE");
    l.outChannels = static_cast<uint32_t>(dim);
    const Program prog = loopConv(l);
    for (size_t i = 0; i + 1 < prog.size(); ++i)
      m.ok(prog[i]);
    EXPECT_TRUE(m.run(prog.back()).accepted);
    m.ok(configEx(ex));
  }
  { // trans_input_3120: CONFIG_EX's a_transpose, an image pitch, the WS loop only
    ConfigExArgs tex = ex;
    tex.aTranspose = true;
    m.ok(configEx(tex));
    l = ok, l.transInput3120 = true, l.batches = 0; // no images
    check(l, "BAD_SIZE");
    l.batches = 1;
    l.batchSize = 1;
    const Program prog = loopConv(l);
    for (size_t i = 0; i + 1 < prog.size(); ++i)
      m.ok(prog[i]);
    EXPECT_TRUE(m.run(prog.back()).accepted);
    EXPECT_EQ(m.model.state().ex.aStride, 1u); // the strides it set are restored
    EXPECT_EQ(m.model.state().ex.cStride, 1u);
    tex.dataflow = 0;
    m.ok(configEx(tex));
    l.os = true;
    check(l, "UNSUPPORTED");
    m.ok(configEx(ex));
  }
  for (uint32_t LoopConvArgs::*f :
       {&LoopConvArgs::batches, &LoopConvArgs::orows, &LoopConvArgs::ocols, &LoopConvArgs::pochs,
        &LoopConvArgs::krows, &LoopConvArgs::kcols, &LoopConvArgs::kchs, &LoopConvArgs::stride}) {
    l = ok, l.*f = 0;
    check(l, "BAD_SIZE");
  }
  l = ok, l.upad = 3, l.dpad = 2; // 5 padding rows around a 4-row window
  check(l, "BAD_SIZE");
  l = ok, l.lpad = 5;
  check(l, "BAD_SIZE");
  l = ok, l.kernelDilation = 2, l.lpad = 7; // the dilated window is 6 columns wide
  check(l, "BAD_SIZE");
  {
    SCOPED_TRACE("trans_output_1203 with batch_size 0");
    l = ok, l.transOutput1203 = true;
    Program prog = loopConv(l);
    prog[0].rs1 &= ~hw::isa::command("LOOP_CONV_WS_CONFIG_1").rs1Field("batch_size").place(0xffff);
    for (size_t i = 0; i + 1 < prog.size(); ++i)
      m.ok(prog[i]);
    EXPECT_EQ(m.run(prog.back()).error, hw::isa::errorCode("BAD_SIZE"));
  }
  // A and B each fit a scratchpad half, together they do not: the kernel grows until they
  // overflow (one channel block each way: A = (k+1)^2 rows, B = k^2 x DIM).
  const uint64_t half = static_cast<uint64_t>(m.model.params().spRows / 2);
  uint32_t k = 1;
  while (uint64_t(k + 1) * (k + 1) + uint64_t(k) * k * dim <= half)
    ++k;
  ASSERT_LE(uint64_t(k) * k * dim, half);
  l = ok, l.krows = l.kcols = l.kernelDim = k;
  check(l, "LOCAL_RANGE");
  l = ok, l.orows = 200; // the output does not fit an accumulator half
  check(l, "LOCAL_RANGE");
  l = ok, l.krows = l.kcols = 40; // the weights do not fit a scratchpad half
  check(l, "LOCAL_RANGE");
  l = ok, l.bias = 1ull << 32;
  check(l, "DMA_ERROR");
  ex.dataflow = 0;
  m.ok(configEx(ex));
  check(ok, "UNSUPPORTED"); // the OS dataflow
  l = ok, l.os = true, l.orows = 200;
  check(l, "LOCAL_RANGE"); // LOOP_CONV_OS under OS: the loop's checks apply
  ex.dataflow = 1;
  m.ok(configEx(ex));
  l = ok, l.os = true, l.ocols = 1, l.orows = 1;
  check(l, "UNSUPPORTED"); // LOOP_CONV_OS under WS
}

// The depthwise mode's checks: kchs = pochs; on vector PEs only the TensorDash OS loop reads A
// at a column offset; not with the transposes or compressed weights.
TEST(LoopConv, DepthwiseModeChecks) {
  auto run = [](const config::Config& cfg, bool os, LoopConvArgs l, const char* error) {
    SCOPED_TRACE(cfg.name + (os ? " OS " : " WS ") + (error ? error : "legal"));
    Machine m(cfg);
    ConfigExArgs ex;
    ex.dataflow = os ? 0 : 1;
    m.ok(configEx(ex));
    l.os = os, l.depthwise = true;
    const Program prog = loopConv(l);
    for (size_t i = 0; i + 1 < prog.size(); ++i)
      m.ok(prog[i]);
    const ExecResult r = m.run(prog.back());
    if (error)
      EXPECT_EQ(r.error, hw::isa::errorCode(error));
    else
      EXPECT_TRUE(r.accepted);
  };
  LoopConvArgs ok;
  ok.kchs = ok.pochs = 6, ok.krows = ok.kcols = ok.kernelDim = 3, ok.orows = ok.ocols = 2;
  ok.input = kDramBase + 0x1000, ok.weights = kDramBase + 0x2000, ok.output = kDramBase + 0x3000;
  const config::Config tiny = tinyConv(), tdL4 = test::shippedConfig("td_l4");
  config::Config lanesDense = tdL4; // vector PEs without TensorDash
  lanesDense.tensordash.enabled = false;
  run(tiny, false, ok, nullptr);
  run(tiny, true, ok, nullptr);
  run(tdL4, true, ok, nullptr);
  run(tdL4, false, ok, "UNSUPPORTED");      // WS on vector PEs
  run(lanesDense, true, ok, "UNSUPPORTED"); // OS on vector PEs without the TensorDash feeder
  LoopConvArgs l = ok;
  l.kchs = 5;
  run(tiny, false, l, "BAD_SIZE");
  l = ok, l.transOutput1203 = true;
  run(tiny, false, l, "UNSUPPORTED");
  l = ok, l.wrot180 = true; // a plain tap order: legal
  run(tiny, false, l, nullptr);
}

// Vector PEs pack `lanes` input channels of a tap into a weight row, which the [i][kr][kc][o]
// layout does not hold together: trans_weight_1203 is refused there.
TEST(LoopConv, TransposedWeightsNeedOneLane) {
  Machine m(test::shippedConfig("td_l4"));
  ConfigExArgs ex;
  ex.dataflow = 1;
  m.ok(configEx(ex));
  LoopConvArgs l;
  l.kchs = l.pochs = 4, l.krows = l.kcols = l.kernelDim = 3, l.orows = l.ocols = 2;
  l.input = kDramBase + 0x1000, l.weights = kDramBase + 0x2000, l.output = kDramBase + 0x3000;
  l.transWeight1203 = true;
  const Program prog = loopConv(l);
  for (size_t i = 0; i + 1 < prog.size(); ++i)
    m.ok(prog[i]);
  EXPECT_EQ(m.run(prog.back()).error, hw::isa::errorCode("UNSUPPORTED"));
  l.transWeight1203 = false;
  EXPECT_TRUE(m.run(loopConv(l).back()).accepted);
}

// Without loops.conv every LOOP_CONV_WS funct and LOOP_CONV_OS is UNKNOWN_FUNCT.
TEST(LoopConv, UnknownWithoutTheUnroller) {
  config::Config c = test::shippedConfig("tiny");
  c.loops.conv = false;
  Machine m(c);
  for (int f = hw::isa::kLoopConvWs; f <= hw::isa::kLoopConvWsConfig6; ++f)
    EXPECT_EQ(m.run({static_cast<uint32_t>(f), 0, 0}).error, hw::isa::errorCode("UNKNOWN_FUNCT"));
  EXPECT_EQ(m.run({static_cast<uint32_t>(hw::isa::kLoopConvOs), 0, 0}).error,
            hw::isa::errorCode("UNKNOWN_FUNCT"));
}

} // namespace
