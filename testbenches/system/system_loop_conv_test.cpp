// LOOP_CONV_WS and LOOP_CONV_OS system tests (docs/isa.md, "LOOP_CONV_WS", "LOOP_CONV_OS"):
// each program runs on the RTL accelerator (stressed AXI memory, RoCC and MMIO) and on the
// functional model, every DRAM byte and the error registers compared (system_run.h), and the
// output is checked against a direct CPU convolution (conv_loop_case.cpp). Every case runs as
// each loop the config's dataflows allow (on TensorDash configs the OS loop with either operand
// scheduled or TensorDash off, half the inputs zero); with vector PEs the channel blocks are
// DIM x lanes wide and the weights lane-packed. The cases cover bounds and padding corners
// (whole padding rows, uneven right padding), strides, 1x1 and larger kernels, bias or none,
// ReLU, pooling on store, several images, tiles over rows, output and input channels (no_bias
// accumulation across loops), the training forms (kernel dilation, wrot180, trans_weight_1203,
// trans_output_1203, alone and as backprop combines them), and illegal configurations (counted
// errors, never a hang).
#include "conv_loop_case.h"
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "hwspec/isa.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"

#include <cstdio>
#include <gtest/gtest.h>

namespace by::test {
namespace {

namespace fm = funcmodel;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kSize = 0x40000;

class LoopConv : public ::testing::Test {
protected:
  LoopConv()
      : cfg(builtConfig()), p(fm::ModelParams::from(cfg)), kblock(p.dim * p.lanes),
        seed(testSeed(15, "system loop conv test data")) {}

  void SetUp() override {
    if (!p.loopConv)
      GTEST_SKIP() << "config has no LOOP_CONV_WS (loops.conv)";
  }

  RunOutcome run(const std::string& name, const fm::Program& prog,
                 const std::vector<uint8_t>& image, int mmioPercent) {
    RunOptions o;
    o.name = name;
    o.system.memBase = kBase;
    o.system.memSize = kSize;
    o.system.mmioPercent = mmioPercent;
    o.system.seed = seed;
    RunOutcome r = runAndCompare(cfg, prog, image, o);
    std::printf("%s: %zu commands, %llu cycles, %u errors\n", name.c_str(), prog.size(),
                static_cast<unsigned long long>(r.cycles), r.modelErrors.count);
    EXPECT_TRUE(r.ok) << r.failure << "program saved to " << saveProgram(name, prog)
                      << ", its DRAM image to " << saveImage(name, image, o)
                      << "; replay: system_replay_" << BY_CONFIG_NAME
                      << " PROGRAM --image IMAGE [--trace FILE.vcd]";
    return r;
  }

  /// Runs the case as each loop the config has (LOOP_CONV_WS, LOOP_CONV_OS) on the RTL and the
  /// model and checks the output against the reference.
  void runCase(const std::string& name, const ConvLoopCase& c, int mmioPercent = 0) {
    for (bool os : {false, true}) {
      // 0132, 3120: the WS transposer
      if (!(os ? p.hasOs : p.hasWs) || (os && (c.transWeight0132 || c.transInput3120)))
        continue;
      ConvLoopCase v = c;
      v.os = os;
      if (os && p.tensordash) { // A scheduled, off, and B scheduled where it is built
        const int mode = static_cast<int>(cases_++ % (p.tdScheduleB ? 3 : 2));
        v.tdMode = mode == 1 ? 2 : mode == 2 ? 1 : 0, v.zeroPercent = 50;
      }
      SCOPED_TRACE(v.describe());
      const ConvLoopProgram cp = buildConvLoop(p, v, kBase, kSize, seed);
      const RunOutcome r = run(name + (os ? "_os" : ""), cp.program, cp.image, mmioPercent);
      EXPECT_EQ(r.modelErrors.count, 0u);
      for (size_t i = 0; i < cp.want.size(); ++i)
        ASSERT_EQ(getLittleEndian(r.dram, cp.output - kBase + i * p.inputBytes, p.inputBytes),
                  cp.want[i])
            << "output element " << i;
    }
  }

  config::Config cfg;
  fm::ModelParams p;
  int kblock; // input channels of a block: DIM x lanes
  uint64_t seed;
  unsigned cases_ = 0;
};

TEST_F(LoopConv, PaddedConvWithBiasMatchesTheReference) {
  ConvLoopCase c;
  c.inCh = kblock + 1, c.outCh = p.dim + 2; // two channel blocks each way
  runCase("loop_conv_padded", c);
}

TEST_F(LoopConv, StridesKernelsAndImages) {
  ConvLoopCase c;
  c.stride = 2, c.inRows = 7, c.inCols = 6, c.relu = true, c.bias = false; // uneven right pad
  runCase("loop_conv_stride2", c, 50);
  c = ConvLoopCase{};
  c.kernel = 1, c.pad = 0, c.inCh = 2 * kblock + 1, c.outCh = 5, c.batch = 2; // 1x1, two images
  runCase("loop_conv_1x1", c);
  c = ConvLoopCase{};
  c.kernel = 2, c.pad = 1, c.inRows = 3, c.inCols = 9, c.stride = 2, c.tileRows = 1;
  runCase("loop_conv_padding_rows", c); // tiles whose window is partly padding rows
}

TEST_F(LoopConv, TilesAccumulateOverInputChannels) {
  ConvLoopCase c;
  c.inRows = c.inCols = 6, c.inCh = kblock + 1, c.outCh = p.dim + 2;
  c.tileRows = 2, c.tileOch = p.dim, c.tileKch = kblock;
  runCase("loop_conv_tiles", c, 100);
}

// Operands kept in the scratchpad (a_spad_id / b_spad_id, DRAM address 0): a band's input
// window over its out-channel tiles, in the half of the band's parity; the weights over the
// bands. The loops in between alternate halves as usual.
TEST_F(LoopConv, KeptOperandsMatchTheReference) {
  ConvLoopCase c;
  c.inRows = c.inCols = 6, c.inCh = kblock + 1, c.outCh = 2 * p.dim + 3;
  c.tileRows = 2, c.tileOch = p.dim, c.keep = 1;
  runCase("loop_conv_keep_input", c);
  c.outCh = p.dim + 2, c.tileOch = 0, c.stride = 2, c.keep = 2;
  runCase("loop_conv_keep_weights", c, 50);
}

// The training forms in the loop (docs/isa.md, "Training convolutions in the loop"): a dilated
// kernel at stride 2 over row tiles; the input gradient (rotated weights stored [i][kr][kc][o],
// one lane) over input-channel tiles, and with the weights stored [kr][kc][o][i] (the WS loop
// through the transposer); the weight gradient of a strided layer (output stored [y][x][b][o],
// kernel dilation) over row and out-channel tiles; the input dilated by 2 (the input gradient
// of a strided layer).
TEST_F(LoopConv, TrainingFormsMatchTheReference) {
  ConvLoopCase c;
  c.inRows = 9, c.inCols = 8, c.kernel = 2, c.pad = 1, c.dilation = 3, c.stride = 2;
  c.tileRows = 1, c.inCh = kblock + 1;
  runCase("loop_conv_dilated", c, 50);
  if (p.lanes == 1) {
    c = ConvLoopCase{};
    c.wrot180 = true, c.transWeight1203 = true, c.inCh = kblock + 1, c.outCh = p.dim + 2;
    c.pad = 2, c.inRows = c.inCols = 4, c.tileKch = kblock;
    runCase("loop_conv_input_gradient", c);
  }
  if (p.lanes == 1 && !p.tensordash && p.hasWs) { // the transposer: weights stored [o][i]
    c = ConvLoopCase{};
    c.wrot180 = true, c.transWeight0132 = true, c.inCh = kblock + 1, c.outCh = p.dim + 2;
    c.pad = 2, c.inRows = c.inCols = 5, c.tileKch = kblock, c.tileOch = p.dim, c.dilation = 2;
    runCase("loop_conv_input_gradient_0132", c, 50);
  }
  c = ConvLoopCase{}; // a stride-2 layer's input gradient: the output gradient dilated by 2
  c.inputDilated = true, c.wrot180 = true, c.inCh = kblock + 1, c.outCh = p.dim + 2, c.pad = 2;
  c.inRows = 3, c.inCols = 4, c.tileKch = kblock; // 5x7 dilated, a 7x9 output
  runCase("loop_conv_input_dilated", c, 50);
  c = ConvLoopCase{};
  c.transOutput1203 = true, c.batch = 3, c.inRows = c.inCols = 6, c.tileRows = 2;
  c.outCh = p.dim + 2, c.tileOch = p.dim, c.dilation = 2, c.kernel = 2, c.pad = 0;
  c.wrot180 = true;
  runCase("loop_conv_weight_gradient", c, 50);
  if (p.lanes == 1 && !p.tensordash && p.hasWs) { // the transposer: input stored [c][y][x][b]
    c = ConvLoopCase{}; // the weight gradient: image blocks (the last partial), channel blocks
    c.transInput3120 = true, c.transOutput1203 = true, c.batch = p.dim + 1, c.inCh = kblock + 1;
    c.outCh = p.dim + 2, c.tileOch = p.dim, c.dilation = 2, c.pad = 0;
    c.inRows = c.inCols = 6;
    runCase("loop_conv_weight_gradient_3120", c, 50);
    c = ConvLoopCase{}; // pooled: C's images at the pooled pitch
    c.transInput3120 = true, c.batch = p.dim + 1, c.outCh = p.dim + 2, c.tileOch = p.dim;
    c.inRows = 4, c.inCols = 3, c.poolSize = 2, c.poolStride = 2, c.relu = true;
    runCase("loop_conv_3120_pooled", c);
  }
}

TEST_F(LoopConv, PoolingOnStore) {
  ConvLoopCase c;
  c.inRows = c.inCols = 6, c.inCh = 5, c.outCh = p.dim + 2, c.relu = true;
  c.poolSize = 2, c.poolStride = 2;
  runCase("loop_conv_pool2", c);
  c.poolSize = 3, c.poolStride = 2, c.poolPad = 1, c.relu = false;
  runCase("loop_conv_pool3", c, 50);
}

// The depthwise mode (docs/isa.md, "Depthwise mode"): each output-channel block computes with
// its own channels and its tap's diagonal block, in both loops on one lane and in the OS loop of
// TensorDash configs (A read at a column offset inside the scratchpad row); channels spanning
// two scratchpad rows with a partial block, strides, channel and row tiles, pooling.
TEST_F(LoopConv, DepthwiseModeMatchesTheReference) {
  if (p.lanes > 1 && !(p.tensordash && p.dim >= p.lanes))
    GTEST_SKIP() << "the depthwise mode needs one lane or the TensorDash feeder";
  ConvLoopCase c;
  c.depthwise = true, c.inCh = c.outCh = kblock + p.dim + 1;
  std::vector<std::pair<std::string, ConvLoopCase>> cases = {{"loop_conv_dw", c}};
  c.stride = 2, c.inRows = 7, c.inCols = 8, c.relu = true, c.bias = false;
  cases.push_back({"loop_conv_dw_stride2", c});
  c = ConvLoopCase{};
  c.depthwise = true, c.inCh = c.outCh = 2 * kblock + 3, c.tileOch = kblock, c.tileRows = 2;
  cases.push_back({"loop_conv_dw_tiles", c});
  c.tileRows = 0, c.poolSize = 2, c.poolStride = 2, c.inRows = c.inCols = 6;
  cases.push_back({"loop_conv_dw_pool", c});
  for (const auto& [name, dw] : cases) {
    if (p.lanes == 1) {
      runCase(name, dw, 50);
      continue;
    }
    ConvLoopCase v = dw; // vector PEs: the OS loop only
    v.os = true, v.zeroPercent = 50,
    v.tdMode = static_cast<int>(cases_++ % (p.tdScheduleB ? 3 : 2));
    v.tdMode = v.tdMode == 1 ? 2 : v.tdMode == 2 ? 1 : 0;
    SCOPED_TRACE(v.describe());
    const ConvLoopProgram cp = buildConvLoop(p, v, kBase, kSize, seed);
    const RunOutcome r = run(name + "_os", cp.program, cp.image, 50);
    EXPECT_EQ(r.modelErrors.count, 0u);
    for (size_t i = 0; i < cp.want.size(); ++i)
      ASSERT_EQ(getLittleEndian(r.dram, cp.output - kBase + i * p.inputBytes, p.inputBytes),
                cp.want[i])
          << "output element " << i;
  }
}

// Every illegal configuration is rejected with its error and counted; the loops after it run
// normally (the harness compares ERROR, ERROR_COUNT and DRAM with the model).
TEST_F(LoopConv, IllegalConfigurationsAreCountedErrors) {
  ConvLoopCase c;
  c.os = !p.hasWs; // the legal loop of this config's (first) dataflow
  ConvLoopProgram cp = buildConvLoop(p, c, kBase, kSize, seed);
  fm::Program prog = cp.program; // set-up and one legal loop (its last 7 commands)
  const fm::Program legal(prog.end() - 7, prog.end());
  fm::LoopConvArgs ok;
  ok.kchs = ok.pochs = static_cast<uint32_t>(p.dim);
  ok.krows = ok.kcols = ok.kernelDim = 3, ok.orows = ok.ocols = 2;
  ok.input = kBase + 0x1000, ok.weights = kBase + 0x2000, ok.output = kBase + 0x3000;
  const hw::isa::Command& cmd = hw::isa::command("LOOP_CONV_WS");
  std::vector<fm::LoopConvArgs> bad;
  for (const char* flag : {"trans_weight_0132", "trans_input_3120", "dw"}) {
    bad.push_back(ok);
    bad.back().extraRs1 = cmd.rs1Field(flag).place(1); // UNSUPPORTED
  }
  bad.push_back(ok), bad.back().aSpadId = 3;                                    // LOCAL_RANGE
  bad.push_back(ok), bad.back().extraRs2 = cmd.rs2Field("downsample").place(1); // UNSUPPORTED
  bad.push_back(ok), bad.back().act = 3;                                        // UNSUPPORTED
  bad.push_back(ok), bad.back().transOutput1203 = true;                         // UNSUPPORTED
  bad.back().noPool = false;                                                    // (pooled)
  if (p.lanes > 1)
    bad.push_back(ok), bad.back().transWeight1203 = true; // UNSUPPORTED with vector PEs
  bad.push_back(ok), bad.back().kernelDilation = 2, bad.back().lpad = 7; // BAD_SIZE
  bad.push_back(ok), bad.back().transWeight0132 = true;        // UNSUPPORTED: no b_transpose
  bad.push_back(ok), bad.back().stride = 0;                    // BAD_SIZE
  bad.push_back(ok), bad.back().kchs = 0;                      // BAD_SIZE
  bad.push_back(ok), bad.back().orows = 0;                     // BAD_SIZE
  bad.push_back(ok), bad.back().upad = 3, bad.back().dpad = 2; // BAD_SIZE
  bad.push_back(ok), bad.back().depthwise = true;              // depthwise with kchs != pochs:
  bad.back().kchs = static_cast<uint32_t>(p.dim + 1);          // BAD_SIZE (or UNSUPPORTED)
  bad.push_back(ok), bad.back().depthwise = true, bad.back().transOutput1203 = true;
  { // LOCAL_RANGE: A and B each fit a scratchpad half, together they do not
    const uint64_t half = static_cast<uint64_t>(p.spRows / 2), dim = static_cast<uint64_t>(p.dim);
    uint32_t k = 1;
    while (uint64_t(k + 1) * (k + 1) + uint64_t(k) * k * dim <= half)
      ++k;
    bad.push_back(ok), bad.back().krows = bad.back().kcols = bad.back().kernelDim = k;
  }
  bad.push_back(ok), bad.back().orows = static_cast<uint32_t>(p.accRows); // LOCAL_RANGE: C
  bad.push_back(ok), bad.back().krows = bad.back().kcols = 60;            // LOCAL_RANGE: B
  bad.push_back(ok), bad.back().input = uint64_t{1} << 32;                // DMA_ERROR
  bad.push_back(ok), bad.back().weightsCompressed = true; // UNSUPPORTED: channel 1 plain
  bad.push_back(ok), bad.back().inputCompressed = true;   // UNSUPPORTED: channel 0 plain
  bad.push_back(ok), bad.back().outputCompressed = true;  // UNSUPPORTED: plain MVOUTs
  for (fm::LoopConvArgs& l : bad)
    l.os = c.os;            // the legal loop's funct
  if (p.hasWs && p.hasOs) { // the other dataflow's loop: UNSUPPORTED
    bad.push_back(ok);
    bad.back().os = !c.os;
  }
  for (const fm::LoopConvArgs& l : bad) {
    for (const fm::Instruction& i : fm::loopConv(l))
      prog.push_back(i);
    prog.insert(prog.end(), legal.begin(), legal.end());
  }
  // A loop whose own commands fail (an input beyond 4 GiB: DMA_ERROR with MVIN's funct).
  fm::LoopConvArgs far = ok;
  far.input = 0xffffffffull - 2;
  far.os = c.os;
  for (const fm::Instruction& i : fm::loopConv(far))
    prog.push_back(i);
  if (p.hasWs && p.hasOs) { // the other dataflow configured: the legal loop is UNSUPPORTED
    fm::ConfigExArgs ex;
    ex.dataflow = c.os ? 1 : 0;
    prog.push_back(fm::configEx(ex));
    prog.insert(prog.end(), legal.begin(), legal.end());
  }
  const RunOutcome r = run("loop_conv_illegal", prog, cp.image, 50);
  EXPECT_GE(r.modelErrors.count, static_cast<uint32_t>(bad.size() + 1));
}

// A one-row 1x1 loop as the bare-metal loop_conv issues it directly: Gemmini's unused fields
// left 0 (kernel_dilation among them), the bias loaded as zeros.
TEST_F(LoopConv, DirectMinimalLoop) {
  const uint32_t n = static_cast<uint32_t>(p.dim);
  std::vector<uint8_t> image(kSize, 0);
  fm::Program prog;
  fm::ConfigExArgs ex;
  ex.dataflow = 1;
  prog.push_back(fm::configEx(ex));
  prog.push_back(fm::configLd({0, false, 1, n, fm::floatBits(1), n}));
  prog.push_back(fm::configLd({1, false, 1, n, fm::floatBits(1), n}));
  prog.push_back(fm::configLd({2, false, 1, 0, fm::floatBits(1), 0}));
  fm::ConfigStArgs st;
  st.stride = n;
  prog.push_back(fm::configSt(st));
  fm::LoopConvArgs l;
  l.inRowDim = l.outRowDim = l.poolOutRowDim = 1;
  l.inColDim = l.outColDim = l.poolOutColDim = n;
  l.inChannels = l.kchs = l.pochs = n;
  l.stride = l.kernelDim = l.krows = l.kcols = 1, l.kernelDilation = 0;
  l.batches = l.orows = 1, l.ocols = n;
  l.inStride = l.weightStride = l.outStride = n;
  l.input = kBase + 0x1000, l.weights = kBase + 0x2000, l.output = kBase + 0x3000;
  for (uint32_t i = 0; i < 2 * n * n; ++i)
    image[0x1000 + i] = static_cast<uint8_t>(i * 7 + 3),
                   image[0x2000 + i] = static_cast<uint8_t>(i * 5 + 1);
  fm::LoopConvArgs bad = l;
  bad.orows = 0;
  for (const fm::Instruction& i : fm::loopConv(bad))
    prog.push_back(i);
  for (const fm::Instruction& i : fm::loopConv(l))
    prog.push_back(i);
  const RunOutcome r = run("loop_conv_direct", prog, image, 0);
  EXPECT_EQ(r.modelErrors.count, 1u);
}

} // namespace
} // namespace by::test
