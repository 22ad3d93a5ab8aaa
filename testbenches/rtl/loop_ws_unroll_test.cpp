// The LOOP_WS unroller (by_loop_ws) alone, command for command against the functional model's
// unrolling (funcmodel::loopWsUnroll, docs/isa.md "LOOP_WS"), each move with its block stride
// (cmd_bstride_o against funcmodel::loopWsBlockStrides), under random back-pressure
// (unroller_rig.h): matmuls of random bounds and paddings (A and B moves of several column
// groups among them), every bias kind (none, per row, repeating, elem_t), accumulation onto
// earlier loops, raw acc_t outputs, ReLU, operands already in the scratchpad (a_spad_id /
// b_spad_id) and, where the config has the transposer, transposed A or B; the random draws come
// from a fixed seed (printed). Each program runs through the RTL and the model in one stream, so
// the halves the loops alternate between carry over from loop to loop.
#include BY_MODEL_HEADER
#include "funcmodel/dram.h"
#include "funcmodel/encode.h"
#include "funcmodel/func_model.h"
#include "funcmodel/loop_ws.h"
#include "hwspec/isa.h"
#include "rtl_config.h"
#include "seed.h"
#include "unroller_rig.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace by::test {
namespace {

namespace fm = funcmodel;
namespace isa = hw::isa;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kSize = 0x400000; // room for the default config's largest operands

class LoopWsUnroll : public ::testing::Test {
protected:
  LoopWsUnroll()
      : cfg(builtConfig()), dram(kBase, kSize), model(cfg, dram), p(model.params()),
        seed(testSeed(37, "loop ws unroller test")), rig(seed) {}

  void SetUp() override {
    if (!p.loopWs)
      GTEST_SKIP() << "config has no LOOP_WS (loops.ws)";
  }

  // Gemmini's tiled_matmul set-up for a loop (CONFIG_EX with the transposes, the mvin channels'
  // strides, CONFIG_ST with C's), then the loop's six commands.
  fm::Program program(const fm::LoopWsArgs& l, bool repeatingBias) const {
    const uint64_t ib = uint64_t(p.inputBytes), ab = uint64_t(p.accBytes);
    fm::Program prog;
    prog.push_back(
        fm::configEx({1, 0, false, l.aTranspose, l.bTranspose, 1, isa::kFloatOne, 0, 0, 1}));
    prog.push_back(fm::configLd({0, false, 1, 0, fm::floatBits(1), l.aStride * ib}));
    prog.push_back(fm::configLd({1, false, 1, 0, fm::floatBits(1), l.bStride * ib}));
    prog.push_back(fm::configLd(
        {2, l.lowD, 1, 0, fm::floatBits(1), repeatingBias ? 0 : l.dStride * (l.lowD ? ib : ab)}));
    fm::ConfigStArgs st;
    st.activation = l.act;
    st.stride = static_cast<uint32_t>(l.cStride * (l.fullC ? ab : ib));
    prog.push_back(fm::configSt(st));
    for (const fm::Instruction& i : fm::loopWs(l))
      prog.push_back(i);
    return prog;
  }

  // Whether the model takes every command of `prog` without an error (run on its own first).
  bool legal(const fm::Program& prog) const {
    fm::DramImage scratchDram(kBase, kSize);
    fm::FuncModel scratch(cfg, scratchDram);
    for (const fm::Instruction& i : prog)
      if (!scratch.execute(i).accepted)
        return false;
    return scratch.error().count == 0;
  }

  // Runs the program through the unroller and the model side by side.
  void run(const fm::Program& prog) {
    for (size_t n = 0; n < prog.size(); ++n) {
      const fm::Instruction& cmd = prog[n];
      std::vector<Issued> want{{cmd, 0}};
      const bool loop =
          cmd.funct == isa::kLoopWs && fm::loopWsCheck(p, model.state(), cmd.rs1, cmd.rs2) == 0;
      if (loop) {
        const fm::LoopWsState& s = model.state().loop;
        const fm::LoopWsBlockStrides strides = fm::loopWsBlockStrides(p, s, cmd.rs2);
        for (const fm::Instruction& i : fm::loopWsUnroll(p, s, cmd.rs1, cmd.rs2))
          want.push_back({i, i.funct == isa::kMvin    ? strides.a
                             : i.funct == isa::kMvin2 ? strides.b
                             : i.funct == isa::kMvin3 ? strides.d
                             : i.funct == isa::kMvout ? strides.c
                                                      : 0});
      }
      std::vector<Issued> got;
      EXPECT_TRUE(rig.send(cmd, loop, 0, 0, got))
          << "the unroller hangs on command " << n << ": " << fm::formatInstruction(cmd);
      if (loop) {
        EXPECT_EQ(rig.lastError(), 0u) << "a legal loop rejected: " << fm::formatInstruction(cmd);
      }
      compareIssued(n, cmd, want, got);
      EXPECT_TRUE(model.execute(cmd).accepted) << fm::formatInstruction(cmd);
      if (HasFailure())
        return;
    }
  }

  config::Config cfg;
  fm::DramImage dram;
  fm::FuncModel model;
  const fm::ModelParams& p;
  uint64_t seed;
  UnrollerRig<BY_MODEL> rig;
};

TEST_F(LoopWsUnroll, RandomMatmuls) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % uint64_t(hi - lo + 1)); };
  const uint32_t dim = uint32_t(p.dim), mbl = uint32_t(p.maxBlockLen);
  int ran = 0, drawn = 0, transposed = 0, wide = 0;
  while (ran < 60 && drawn < 5000) {
    ++drawn;
    fm::LoopWsArgs l;
    // Bounds past MAX_BLOCK_LEN now and then: moves of several column groups.
    auto bound = [&] { return uint32_t(pick(0, 3) == 0 ? pick(1, int(mbl) + 3) : pick(1, 4)); };
    l.I = bound(), l.J = bound(), l.K = bound();
    l.padI = uint32_t(pick(0, int(dim) - 1)), l.padJ = uint32_t(pick(0, int(dim) - 1));
    l.padK = uint32_t(pick(0, int(dim) - 1));
    l.aTranspose = pick(0, 4) == 0, l.bTranspose = !l.aTranspose && pick(0, 4) == 0;
    // Row pitches in elements: the stored matrix's (transposed: K x I for A, J x K for B).
    l.aStride = (l.aTranspose ? l.I : l.K) * dim;
    l.bStride = (l.bTranspose ? l.K : l.J) * dim;
    l.cStride = l.dStride = l.J * dim;
    const uint64_t region = 0x80000;
    l.A = pick(0, 5) == 0 ? 0 : kBase + 0x1000;
    l.B = pick(0, 5) == 0 ? 0 : kBase + 0x1000 + region;
    if (l.A == 0)
      l.aSpadId = pick(1, 2);
    if (l.B == 0)
      l.bSpadId = pick(1, 2);
    const int bias = pick(0, 3); // none, per row, repeating, elem_t
    l.D = bias == 0 ? 0 : kBase + 0x1000 + 2 * region;
    l.lowD = bias == 3;
    l.exAccumulate = pick(0, 2) == 0;
    l.C = pick(0, 5) == 0 ? 0 : kBase + 0x1000 + 3 * region;
    l.fullC = l.C != 0 && pick(0, 3) == 0;
    l.act = !l.fullC && pick(0, 1) ? isa::kActRelu : isa::kActNone;
    const fm::Program prog = program(l, bias == 2);
    if (!legal(prog))
      continue;
    std::printf("I %u J %u K %u pads %u/%u/%u%s%s%s%s%s%s%s%s\n", l.I, l.J, l.K, l.padI, l.padJ,
                l.padK, l.A ? "" : " A kept", l.B ? "" : " B kept",
                bias == 0   ? ""
                : bias == 1 ? " bias"
                : bias == 2 ? " repeating bias"
                            : " elem_t bias",
                l.exAccumulate ? " accumulate" : "", l.C ? (l.fullC ? " full C" : "") : " no C",
                l.act ? " relu" : "", l.aTranspose ? " A transposed" : "",
                l.bTranspose ? " B transposed" : "");
    run(prog);
    ++ran;
    transposed += l.aTranspose || l.bTranspose;
    wide += l.I > mbl || l.J > mbl || l.K > mbl;
    if (HasFailure())
      return;
  }
  std::printf("%d random loops run (%d drawn, %d transposed, %d with a bound past "
              "MAX_BLOCK_LEN)\n",
              ran, drawn, transposed, wide);
  EXPECT_EQ(ran, 60) << "the random loops were refused too often";
  EXPECT_GT(wide, 0);
}

} // namespace
} // namespace by::test
