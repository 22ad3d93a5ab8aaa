// LOOP_WS system tests (docs/isa.md, "LOOP_WS"): each program runs on the RTL accelerator
// (stressed AXI memory, RoCC and MMIO) and on the functional model, every DRAM byte and the
// error registers compared (system_run.h). The plain matmul is also checked against a CPU
// reference written here from the ISA's formulas; the other scenarios cover bounds and padding
// corners, both bias kinds, full_C, accumulation across loops, ReLU, strides, A and B already
// in the scratchpad, A or B stored transposed (through the transposer), loops back to back with
// plain commands, and illegal configurations (counted errors, never a hang).
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>

namespace by::test {
namespace {

namespace fm = funcmodel;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kA = kBase + 0x1000;
constexpr uint64_t kB = kBase + 0x20000;
constexpr uint64_t kD = kBase + 0x40000;
constexpr uint64_t kC = kBase + 0x60000;
constexpr uint64_t kSize = 0x80000;

class Loop : public ::testing::Test {
protected:
  Loop()
      : cfg(builtConfig()), p(fm::ModelParams::from(cfg)), dim(p.dim), ib(p.inputBytes),
        ab(p.accBytes), image(kSize, 0), rng(testSeed(16, "system loop test data")) {}

  void SetUp() override {
    if (!p.loopWs)
      GTEST_SKIP() << "config has no LOOP_WS (loops.ws)";
  }

  void put(uint64_t addr, int64_t v, int bytes) { putLittleEndian(image, addr - kBase, v, bytes); }
  static int64_t get(const std::vector<uint8_t>& dram, uint64_t addr, int bytes) {
    return getLittleEndian(dram, addr - kBase, bytes);
  }
  /// rows x cols random elements of `bits` at addr, `ld` elements per row of `bytes` each.
  std::vector<int64_t> putMatrix(uint64_t addr, int rows, int cols, int ld, int bytes, int bits) {
    std::vector<int64_t> m;
    const int64_t span = int64_t{1} << bits;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        m.push_back(static_cast<int64_t>(rng.next() % static_cast<uint64_t>(span)) - span / 2);
        put(addr + (static_cast<uint64_t>(r) * ld + c) * bytes, m.back(), bytes);
      }
    return m;
  }

  /// Gemmini's tiled_matmul set-up for a loop: WS, mvin channels 0 (A), 1 (B), 2 (D) with the
  /// loop's strides in bytes, CONFIG_ST with C's stride, activation and scale.
  void configure(const fm::LoopWsArgs& l, int act = 0, float scale = 1.0f,
                 bool repeatingBias = false) {
    prog.push_back(
        fm::configEx({1, 0, false, l.aTranspose, l.bTranspose, 1, hw::isa::kFloatOne, 0, 0, 1}));
    prog.push_back(fm::configLd({0, false, 1, 0, fm::floatBits(1), l.aStride * ib}));
    prog.push_back(fm::configLd({1, false, 1, 0, fm::floatBits(1), l.bStride * ib}));
    prog.push_back(fm::configLd(
        {2, l.lowD, 1, 0, fm::floatBits(1), repeatingBias ? 0 : l.dStride * (l.lowD ? ib : ab)}));
    fm::ConfigStArgs st;
    st.activation = act;
    st.stride = static_cast<uint32_t>(l.cStride * (l.fullC ? ab : ib));
    st.accScaleBits = fm::floatBits(scale);
    prog.push_back(fm::configSt(st));
  }
  void loop(const fm::LoopWsArgs& l) {
    for (const fm::Instruction& i : fm::loopWs(l))
      prog.push_back(i);
  }

  /// A loop of ti x tj x tk tiles over an m x n x kk product (the last tiles padded), at the
  /// fixture's addresses, the first K step adding onto the bias.
  fm::LoopWsArgs paddedLoop(int ti, int tj, int tk, int m, int n, int kk) const {
    fm::LoopWsArgs l;
    l.I = ti, l.J = tj, l.K = tk;
    l.padI = static_cast<uint32_t>(ti * dim - m);
    l.padJ = static_cast<uint32_t>(tj * dim - n);
    l.padK = static_cast<uint32_t>(tk * dim - kk);
    l.A = kA, l.B = kB, l.D = kD, l.C = kC;
    l.exAccumulate = true;
    return l;
  }

  /// C in DRAM against the CPU reference: saturate(D + A x B), ReLU'd with `relu`; A and B as
  /// stored (K x I / J x K with the loop's transposes).
  void expectProduct(const RunOutcome& r, const fm::LoopWsArgs& l, const std::vector<int64_t>& a,
                     const std::vector<int64_t>& b, const std::vector<int64_t>& d, int m, int n,
                     int kk, bool relu) const {
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int64_t acc = d[i * n + j];
        for (int x = 0; x < kk; ++x)
          acc += (l.aTranspose ? a[x * m + i] : a[i * kk + x]) *
                 (l.bTranspose ? b[j * kk + x] : b[x * n + j]);
        const int64_t sat = golden::saturate(acc, p.inputWidth);
        ASSERT_EQ(get(r.dram, kC + (static_cast<uint64_t>(i) * l.cStride + j) * ib, ib),
                  relu ? std::max<int64_t>(0, sat) : sat)
            << "C[" << i << "][" << j << "]";
      }
  }

  RunOutcome run(const std::string& name, int mmioPercent = 0) {
    RunOptions o;
    o.name = name;
    o.system.memBase = kBase;
    o.system.memSize = kSize;
    o.system.mmioPercent = mmioPercent;
    o.system.seed = rng.next();
    RunOutcome r = runAndCompare(cfg, prog, image, o);
    std::printf("%s: %zu commands, %llu cycles, %u errors\n", name.c_str(), prog.size(),
                static_cast<unsigned long long>(r.cycles), r.modelErrors.count);
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

// C = relu(saturate(A x B + D)) for an I x J x K tile loop whose last tiles are padded, with
// an int32 bias and strides wider than the matrices; checked against a CPU reference.
TEST_F(Loop, MatmulWithPaddingBiasAndReluMatchesTheReference) {
  const int ti = 2, tj = 3, tk = 3;
  const int m = ti * dim - 1, n = tj * dim - (dim > 2 ? 2 : 1), kk = tk * dim - (dim - 1);
  fm::LoopWsArgs l = paddedLoop(ti, tj, tk, m, n, kk);
  l.aStride = kk + 5, l.bStride = n + 3, l.dStride = n + 1, l.cStride = n + 7;
  // Small values: no partial sum wraps at the spatial output width, no result saturates much.
  const auto a = putMatrix(kA, m, kk, static_cast<int>(l.aStride), ib, 5);
  const auto b = putMatrix(kB, kk, n, static_cast<int>(l.bStride), ib, 5);
  const auto d = putMatrix(kD, m, n, static_cast<int>(l.dStride), ab, 8);
  configure(l, hw::isa::kActRelu);
  loop(l);
  const RunOutcome r = run("loop_matmul_reference");
  expectProduct(r, l, a, b, d, m, n, kk, true);
  // Padding: nothing written right of the last column or below the last row.
  EXPECT_EQ(get(r.dram, kC + n * ib, ib), 0);
  EXPECT_EQ(get(r.dram, kC + static_cast<uint64_t>(m) * l.cStride * ib, ib), 0);
}

// A (then B) stored transposed, K x I (J x K), on configs with the transposer: the loop moves
// the tiles in as stored and CONFIG_EX's transposes make the computes read them transposed
// (docs/isa.md, "LOOP_WS"); padded edges on every side; against a CPU reference.
TEST_F(Loop, TransposedOperandsMatchTheReference) {
  if (p.lanes != 1 || p.tensordash)
    GTEST_SKIP() << "no transposer (vector PEs or TensorDash)";
  const int ti = 2, tj = 2, tk = 3;
  const int m = ti * dim - 1, n = tj * dim - 1, kk = tk * dim - (dim > 2 ? 2 : 1);
  for (int which = 0; which < 2; ++which) {
    prog.clear();
    std::fill(image.begin(), image.end(), 0);
    fm::LoopWsArgs l = paddedLoop(ti, tj, tk, m, n, kk);
    l.aTranspose = which == 0, l.bTranspose = which == 1;
    // Stored A: K x I (rows aStride apart) or I x K; B: J x K or K x J.
    l.aStride = (l.aTranspose ? m : kk) + 3, l.bStride = (l.bTranspose ? kk : n) + 2;
    l.dStride = n, l.cStride = n + 5;
    const auto a = putMatrix(kA, l.aTranspose ? kk : m, l.aTranspose ? m : kk,
                             static_cast<int>(l.aStride), ib, 5);
    const auto b = putMatrix(kB, l.bTranspose ? n : kk, l.bTranspose ? kk : n,
                             static_cast<int>(l.bStride), ib, 5);
    const auto d = putMatrix(kD, m, n, static_cast<int>(l.dStride), ab, 8);
    configure(l);
    loop(l);
    const RunOutcome r = run(which == 0 ? "loop_matmul_a_transposed" : "loop_matmul_b_transposed");
    SCOPED_TRACE(which == 0 ? "A transposed" : "B transposed");
    expectProduct(r, l, a, b, d, m, n, kk, false);
  }
}

// low_D (an elem_t bias, repeated for every row: D stride 0), full_C (raw acc_t out), no
// accumulation flag (the first K step overwrites), a scale on the way out in a second loop.
TEST_F(Loop, BiasKindsFullCAndScale) {
  fm::LoopWsArgs l;
  l.I = 2, l.J = 2, l.K = 2, l.padJ = 1;
  l.A = kA, l.B = kB, l.D = kD, l.C = kC;
  l.aStride = 2 * dim, l.bStride = 2 * dim, l.dStride = 0, l.cStride = 2 * dim;
  l.lowD = true, l.fullC = true, l.exAccumulate = true;
  putMatrix(kA, 2 * dim, 2 * dim, 2 * dim, ib, p.inputWidth);
  putMatrix(kB, 2 * dim, 2 * dim, 2 * dim, ib, p.inputWidth);
  putMatrix(kD, 1, 2 * dim, 2 * dim, ib, p.inputWidth);
  configure(l, 0, 1.0f, true);
  loop(l);
  // int32 D, no accumulate (D is loaded and then overwritten by the first K step), scaled C.
  fm::LoopWsArgs l2 = l;
  l2.lowD = false, l2.fullC = false, l2.exAccumulate = false, l2.padI = 1, l2.padK = 2;
  l2.dStride = 2 * dim, l2.C = kC + 0x8000;
  putMatrix(kD + 0x1000, 2 * dim, 2 * dim, 2 * dim, ab, 20);
  l2.D = kD + 0x1000;
  configure(l2, 0, 0.37f);
  loop(l2);
  run("loop_bias_kinds");
}

// K split over two loops: the first keeps C in the accumulator (C = 0), the second adds onto
// it (ex_accumulate) and stores; the same product in one loop must give the same bytes.
TEST_F(Loop, AccumulatesAcrossLoopsLikeOneLoop) {
  const int tk = 4;
  fm::LoopWsArgs whole;
  whole.I = 2, whole.J = 2, whole.K = tk, whole.padK = 1;
  whole.A = kA, whole.B = kB, whole.D = kD, whole.C = kC;
  whole.aStride = tk * dim, whole.bStride = 2 * dim, whole.dStride = 2 * dim;
  whole.cStride = 2 * dim, whole.exAccumulate = true;
  putMatrix(kA, 2 * dim, tk * dim, tk * dim, ib, p.inputWidth);
  putMatrix(kB, tk * dim, 2 * dim, 2 * dim, ib, p.inputWidth);
  putMatrix(kD, 2 * dim, 2 * dim, 2 * dim, ab, 12);
  configure(whole);
  loop(whole);
  fm::LoopWsArgs first = whole, second = whole;
  first.K = 2, first.padK = 0, first.C = 0;
  second.K = tk - 2, second.D = 0, second.C = kC + 0x8000;
  second.A = kA + 2 * dim * ib, second.B = kB + 2 * dim * whole.bStride * ib;
  loop(first);
  loop(second);
  const RunOutcome r = run("loop_k_split");
  for (int i = 0; i < 2 * dim; ++i)
    for (int j = 0; j < 2 * dim; ++j)
      ASSERT_EQ(get(r.dram, kC + (i * 2 * dim + j) * ib, ib),
                get(r.dram, kC + 0x8000 + (i * 2 * dim + j) * ib, ib))
          << "C[" << i << "][" << j << "]";
}

// A and B already in the scratchpad (DRAM address 0, a_spad_id / b_spad_id name their half),
// loaded by plain MVINs; loops with and without them, back to back with plain commands and
// multi-block moves (J and K beyond MAX_BLOCK_LEN).
TEST_F(Loop, OperandsFromTheScratchpadAndLoopsBackToBack) {
  const uint32_t half = static_cast<uint32_t>(p.spRows / 2);
  fm::LoopWsArgs l;
  l.I = 1, l.J = 2, l.K = 2;
  l.A = 0, l.B = 0, l.C = kC, l.cStride = 2 * dim;
  l.aSpadId = 1, l.bSpadId = 2; // A at row 0 (half 0), B ending with half 1
  const auto a = putMatrix(kA, dim, 2 * dim, 2 * dim, ib, p.inputWidth);
  const auto b = putMatrix(kB, 2 * dim, 2 * dim, 2 * dim, ib, p.inputWidth);
  configure(l);
  prog.push_back(
      fm::configLd({0, false, 1, 0, fm::floatBits(1), static_cast<uint64_t>(2 * dim * ib)}));
  // A(0, k) at rows k*DIM, B(k, j) at 2*half - K*J*DIM + (k*J + j)*DIM: one tile per MVIN.
  for (int k = 0; k < 2; ++k) {
    prog.push_back(fm::mvin(0, kA + k * dim * ib, fm::spAddr(k * dim), dim, dim));
    for (int j = 0; j < 2; ++j)
      prog.push_back(fm::mvin(0, kB + (k * dim * 2 * dim + j * dim) * ib,
                              fm::spAddr(2 * half - 4 * dim + (k * 2 + j) * dim), dim, dim));
  }
  loop(l);
  // Wide loops: J, then K, one tile beyond MAX_BLOCK_LEN (B, C and A moves of several
  // groups), alternating with a plain MVIN between them.
  const uint32_t wide = static_cast<uint32_t>(p.maxBlockLen) + 1;
  fm::LoopWsArgs wj;
  wj.I = 1, wj.J = wide, wj.K = 1, wj.padJ = 1, wj.padK = static_cast<uint32_t>(dim - 1);
  wj.A = kA + 0x8000, wj.B = kB + 0x8000;
  wj.aStride = wide * dim, wj.bStride = wide * dim, wj.cStride = wide * dim;
  fm::LoopWsArgs wk = wj;
  wk.J = 1, wk.K = wide, wk.padJ = 0, wk.padI = 1, wk.cStride = dim;
  putMatrix(wj.A, dim, static_cast<int>(wide) * dim, static_cast<int>(wide) * dim, ib,
            p.inputWidth);
  putMatrix(wj.B, static_cast<int>(wide) * dim, static_cast<int>(wide) * dim,
            static_cast<int>(wide) * dim, ib, p.inputWidth);
  configure(wj);
  for (int rep = 0; rep < 3; ++rep) {
    wj.C = kC + 0x4000 + rep * 0x2000;
    wk.C = kC + 0x5000 + rep * 0x2000;
    loop(wj);
    prog.push_back(fm::mvin(0, kA, fm::spAddr(half - dim), dim, dim)); // plain, between loops
    loop(wk);
  }
  run("loop_spad_operands", 30);
  (void)a, (void)b;
}

// Every illegal configuration is rejected with its error and counted; the next commands run
// normally (the harness compares ERROR, ERROR_COUNT and DRAM with the model).
TEST_F(Loop, IllegalConfigurationsAreCountedErrors) {
  const uint32_t half = static_cast<uint32_t>(p.spRows / 2);
  fm::LoopWsArgs ok;
  ok.I = 1, ok.J = 1, ok.K = 1, ok.A = kA, ok.B = kB, ok.C = kC;
  ok.aStride = dim, ok.bStride = dim, ok.cStride = dim;
  putMatrix(kA, dim, dim, dim, ib, p.inputWidth);
  putMatrix(kB, dim, dim, dim, ib, p.inputWidth);
  configure(ok);
  std::vector<fm::LoopWsArgs> bad(14, ok);
  bad[0].I = 0;                                     // BAD_SIZE
  bad[1].K = 0;                                     // BAD_SIZE
  bad[2].padJ = static_cast<uint32_t>(dim);         // BAD_SIZE
  bad[3].aTranspose = true;                         // UNSUPPORTED: not CONFIG_EX's
  bad[4].bTranspose = true;                         // UNSUPPORTED: not CONFIG_EX's
  bad[5].isResadd = true;                           // UNSUPPORTED
  bad[6].act = 2;                                   // UNSUPPORTED (no normalizer)
  bad[7].K = half / static_cast<uint32_t>(dim) + 1; // LOCAL_RANGE: A beyond its half
  bad[8].aSpadId = 3;                               // LOCAL_RANGE: no such half
  bad[9].I = static_cast<uint32_t>(p.accRows) / static_cast<uint32_t>(dim); // LOCAL_RANGE: C
  bad[10].A = uint64_t{1} << 32;                                            // DMA_ERROR
  bad[11].cStride = uint64_t{1} << 33;                                      // DMA_ERROR
  bad[12].padK = 0xffff;                                                    // BAD_SIZE
  bad[13].aCompressed = true; // UNSUPPORTED: channel 0 plain (or no Boveda at all)
  for (const fm::LoopWsArgs& l : bad) {
    loop(l);
    loop(ok);
  }
  // A loop whose own commands fail (an MVIN beyond 4 GiB: DMA_ERROR with MVIN's funct).
  fm::LoopWsArgs far = ok;
  far.A = 0xffffffffull - 2;
  loop(far);
  if (p.hasOs) { // the OS dataflow: UNSUPPORTED
    prog.push_back(fm::configEx({0, 0, false, false, false, 1, hw::isa::kFloatOne, 0, 0, 1}));
    loop(ok);
    prog.push_back(fm::configEx({1, 0, false, false, false, 1, hw::isa::kFloatOne, 0, 0, 1}));
  }
  if (p.lanes == 1 && !p.tensordash) { // CONFIG_EX transposes the loop does not have: UNSUPPORTED
    prog.push_back(fm::configEx({1, 0, false, true, false, 1, hw::isa::kFloatOne, 0, 0, 1}));
    loop(ok);
    prog.push_back(fm::configEx({1, 0, false, false, false, 1, hw::isa::kFloatOne, 0, 0, 1}));
  }
  // A PRELOAD left dangling by a loop command is rejected (UNPAIRED) as before any command.
  prog.push_back(fm::preload({fm::spAddr(0), 1, 1}, {fm::accAddr(0), 1, 1}));
  loop(ok);
  const RunOutcome r = run("loop_illegal", 50);
  EXPECT_GE(r.modelErrors.count, 16u);
}

} // namespace
} // namespace by::test
