// The LOOP_CONV_WS / LOOP_CONV_OS unroller (by_loop_conv_ws) alone, command for command against
// the functional model's unrolling (funcmodel::loopConvUnroll, docs/isa.md "LOOP_CONV_WS"), with
// each move's block stride (cmd_bstride_o), under random back-pressure (unroller_rig.h). The
// cases are the loop's corners (padded windows of several channel blocks, kernel and input
// dilation, trans_input_3120, depthwise, kept operands, pooling, the training forms, compressed
// operands where the config has Boveda) and random shapes from a fixed seed; each program runs
// through the RTL and the model in one stream, so the halves the loops alternate between carry
// over from loop to loop as they do on the accelerator.
#include BY_MODEL_HEADER
#include "conv_loop_case.h"
#include "funcmodel/dram.h"
#include "funcmodel/func_model.h"
#include "funcmodel/loop_conv.h"
#include "hwspec/isa.h"
#include "rtl_config.h"
#include "seed.h"
#include "unroller_rig.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace by::test {
namespace {

namespace fm = funcmodel;
namespace isa = hw::isa;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kSize = 0x40000;

bool isLoop(uint32_t funct) {
  return funct == isa::kLoopConvWs || funct == isa::kLoopConvOs;
}

// The commands the unroller must issue for host command `cmd` in the model's state: the command
// itself, and a legal loop's unrolling with the block strides of its moves.
std::vector<Issued> expected(const fm::FuncModel& model, const fm::Instruction& cmd, bool& legal) {
  std::vector<Issued> want{{cmd, 0}};
  legal = false;
  if (!isLoop(cmd.funct))
    return want;
  const fm::ArchState& s = model.state();
  const bool os = cmd.funct == isa::kLoopConvOs;
  legal = fm::loopConvCheck(model.params(), s.conv, s, os, cmd.rs1, cmd.rs2) == 0;
  if (!legal)
    return want;
  const fm::LoopConvBlockStrides strides =
      fm::loopConvBlockStrides(model.params(), s.conv, cmd.rs1);
  const bool pooled = isa::command("LOOP_CONV_WS").rs2Field("no_pool").extract(cmd.rs2) == 0;
  for (fm::Instruction i : fm::loopConvUnroll(model.params(), s.conv, s.ex, os, cmd.rs1, cmd.rs2)) {
    // The A column offset of a depthwise compute on vector PEs travels inside the execute
    // pipeline's operand, not on the command (compared through the system tests' results).
    i.aColOffset = 0;
    const uint32_t bstride = i.funct == isa::kMvin               ? strides.input
                             : i.funct == isa::kMvin2            ? strides.weights
                             : i.funct == isa::kMvout && !pooled ? strides.output
                                                                 : 0;
    want.push_back({i, bstride});
  }
  return want;
}

class LoopConvUnroll : public ::testing::Test {
protected:
  LoopConvUnroll()
      : cfg(builtConfig()), dram(kBase, kSize), model(cfg, dram), p(model.params()),
        seed(testSeed(31, "loop conv unroller test")), rig(seed) {}

  void SetUp() override {
    if (!p.loopConv)
      GTEST_SKIP() << "config has no LOOP_CONV_WS (loops.conv)";
  }

  // The case's program, or nothing when the loop or this config refuses it (a legal program
  // only: the model runs it once on its own first).
  bool build(const ConvLoopCase& c, ConvLoopProgram& cp) {
    if ((c.os ? !p.hasOs : !p.hasWs))
      return false;
    try {
      cp = buildConvLoop(p, c, kBase, kSize, seed);
    } catch (const std::invalid_argument&) {
      return false;
    }
    fm::DramImage scratchDram(kBase, kSize);
    scratchDram.write(kBase, cp.image.data(), cp.image.size());
    fm::FuncModel scratch(cfg, scratchDram);
    for (const fm::Instruction& i : cp.program)
      if (!scratch.execute(i).accepted)
        return false;
    return true;
  }

  // Runs the program through the unroller and the model side by side; returns the loops run.
  int run(const ConvLoopCase& c, const ConvLoopProgram& cp) {
    SCOPED_TRACE(c.describe());
    dram.write(kBase, cp.image.data(), cp.image.size());
    int loops = 0;
    for (size_t n = 0; n < cp.program.size(); ++n) {
      const fm::Instruction& cmd = cp.program[n];
      bool legal = false;
      const std::vector<Issued> want = expected(model, cmd, legal);
      std::vector<Issued> got;
      EXPECT_TRUE(rig.send(cmd, legal, model.state().ex.aStride, model.state().ex.cStride, got))
          << "the unroller hangs on command " << n << ": " << fm::formatInstruction(cmd);
      if (legal) {
        ++loops;
        EXPECT_EQ(rig.lastError(), 0u) << "a legal loop rejected: " << fm::formatInstruction(cmd);
      }
      compareIssued(n, cmd, want, got);
      EXPECT_TRUE(model.execute(cmd).accepted) << fm::formatInstruction(cmd);
      if (::testing::Test::HasFailure())
        return loops;
    }
    return loops;
  }

  // Runs `c` in every dataflow the config has; the number of dataflows that took it.
  int runBoth(ConvLoopCase c) {
    int ran = 0;
    for (bool os : {false, true}) {
      c.os = os;
      ConvLoopProgram cp;
      if (!build(c, cp))
        continue;
      const int loops = run(c, cp);
      std::printf("%-90s %d loops\n", c.describe().c_str(), loops);
      ++ran;
      if (::testing::Test::HasFailure())
        break;
    }
    return ran;
  }

  config::Config cfg;
  fm::DramImage dram;
  fm::FuncModel model;
  const fm::ModelParams& p;
  uint64_t seed;
  UnrollerRig<BY_MODEL> rig;
};

// The corners the unroller's sequencer has its own paths for.
TEST_F(LoopConvUnroll, Corners) {
  const int kb = p.dim * p.lanes;
  std::vector<ConvLoopCase> cases;
  ConvLoopCase c;
  cases.push_back(c);                                      // 5x5x3 -> 3, k3 p1, bias
  c.inCh = 2 * kb + 1, c.outCh = p.dim + 1, c.relu = true; // padded windows of 3 channel blocks
  cases.push_back(c);
  c.stride = 2, c.inRows = 7, c.inCols = 6; // strided, uneven right padding
  cases.push_back(c);
  c = ConvLoopCase{};
  c.kernel = 1, c.pad = 0, c.inCh = kb + 1, c.batch = 2; // 1x1 over two images
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = 6, c.inCols = 6, c.inCh = kb + 1, c.outCh = p.dim + 2, c.tileRows = 2,
  c.tileOch = p.dim, c.tileKch = kb; // tiles over rows, output and input channels
  cases.push_back(c);
  c.relu = true, c.poolSize = 3, c.poolStride = 2, c.poolPad = 1, c.tileRows = 0; // pooling
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = 7, c.inCols = 7, c.inCh = kb + 2, c.kernel = 3, c.pad = 2, c.dilation = 2;
  cases.push_back(c); // kernel dilation, windows wider than the image
  c = ConvLoopCase{};
  c.inRows = 4, c.inCols = 4, c.inCh = kb + 1, c.pad = 1, c.inputDilated = true;
  cases.push_back(c); // the input dilated by 2
  c.inputDilated = false, c.transInput3120 = true, c.batch = p.dim + 1;
  cases.push_back(c); // [c][y][x][b] input: A's rows are images
  c = ConvLoopCase{};
  c.wrot180 = true, c.transWeight1203 = true, c.transOutput1203 = true, c.batch = 2;
  cases.push_back(c);
  c.transWeight1203 = false, c.transWeight0132 = true, c.transOutput1203 = false;
  cases.push_back(c);
  c = ConvLoopCase{};
  c.depthwise = true, c.inCh = c.outCh = 2 * p.dim + 1, c.inRows = c.inCols = 7, c.stride = 2;
  cases.push_back(c); // depthwise, strided, three channel blocks
  c.tileOch = p.dim, c.stride = 1;
  cases.push_back(c); // depthwise, one channel block a loop
  for (int keep : {1, 2}) {
    c = ConvLoopCase{};
    c.inRows = c.inCols = 6, c.inCh = kb, c.outCh = 2 * p.dim, c.tileRows = 3, c.keep = keep;
    if (keep == 1)
      c.tileOch = p.dim;
    cases.push_back(c); // input kept over its out-channel tiles; weights kept over the bands
  }
  // Boveda configs only: every operand compressed, a 1x1 tiled on the input's channel groups;
  // compressed weights tiled over rows, input and output channels.
  c = ConvLoopCase{};
  c.kernel = 1, c.pad = 0, c.inRows = 3, c.inCols = 5, c.inCh = p.maxBlockLen * kb + 6,
  c.outCh = p.dim + 3, c.tileRows = 1, c.tileKch = p.maxBlockLen * kb;
  c.compressedInput = c.compressedOutput = c.compressedWeights = true;
  cases.push_back(c);
  c = ConvLoopCase{};
  c.inRows = c.inCols = 6, c.kernel = 2, c.inCh = 2 * p.dim + 1, c.outCh = 3 * p.dim + 3;
  c.tileRows = 1, c.tileKch = p.dim, c.tileOch = 3 * p.dim, c.compressedWeights = true;
  cases.push_back(c);
  int ran = 0;
  for (const ConvLoopCase& k : cases) {
    ran += runBoth(k);
    if (HasFailure())
      return;
  }
  EXPECT_GE(ran, 12) << "too few corners run on " << cfg.name;
}

// Random shapes, tiles and forms from the seed (printed by testSeed); cases the loop or the
// config refuses are drawn again.
TEST_F(LoopConvUnroll, RandomShapes) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % uint64_t(hi - lo + 1)); };
  const int kb = p.dim * p.lanes;
  int ran = 0, drawn = 0;
  while (ran < 40 && drawn < 2000) {
    ++drawn;
    ConvLoopCase c;
    c.batch = pick(1, 2);
    c.inRows = pick(1, 9), c.inCols = pick(1, 9);
    c.kernel = pick(1, 4), c.stride = pick(1, 3), c.pad = pick(0, c.kernel - 1);
    c.dilation = pick(0, 5) == 0 ? 2 : 1;
    c.depthwise = pick(0, 4) == 0;
    c.inCh = pick(1, 3 * kb), c.outCh = c.depthwise ? c.inCh : pick(1, 3 * p.dim);
    c.bias = pick(0, 1), c.relu = pick(0, 1);
    if (pick(0, 1))
      c.tileRows = pick(1, 4);
    if (pick(0, 1))
      c.tileOch = p.dim * pick(1, 2);
    if (!c.depthwise && pick(0, 1))
      c.tileKch = kb * pick(1, 2);
    if (pick(0, 5) == 0)
      c.poolSize = 2, c.poolStride = 2, c.tileRows = 0;
    if (c.inRows + 2 * c.pad < c.kernelExtent() || c.inCols + 2 * c.pad < c.kernelExtent())
      continue;
    c.os = pick(0, 1);
    ConvLoopProgram cp;
    if (!build(c, cp))
      continue;
    const int loops = run(c, cp);
    std::printf("%-90s %d loops\n", c.describe().c_str(), loops);
    ++ran;
    if (HasFailure())
      return;
  }
  std::printf("%d random cases run (%d drawn)\n", ran, drawn);
  EXPECT_EQ(ran, 40) << "the random cases were refused too often";
}

} // namespace
} // namespace by::test
