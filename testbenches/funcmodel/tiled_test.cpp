// Tiled matrix products of random sizes through the model, Gemmini-style (mvin tiles,
// PRELOAD/COMPUTE pairs, mvout), against references computed outside the model with
// golden::matmulWs / matmulOs.
#include "fm_util.h"
#include "golden/arith.h"
#include "golden/matmul.h"
#include "hwspec/array_params.h"
#include "seed.h"

#include <gtest/gtest.h>
#include <random>

using namespace by;
using namespace by::funcmodel;
using by::test::kDramBase;
using by::test::Machine;
using golden::Matrix;

namespace {

constexpr uint64_t kA = kDramBase;
constexpr uint64_t kB = kDramBase + 0x40000;
constexpr uint64_t kD = kDramBase + 0x80000;
constexpr uint64_t kC = kDramBase + 0xc0000;

Matrix random(std::mt19937_64& rng, int rows, int cols, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  Matrix m(rows, cols);
  for (int64_t& v : m.v)
    v = dist(rng);
  return m;
}

class FuncModelTiledWs : public ::testing::TestWithParam<std::string> {};
class FuncModelTiledOs : public ::testing::TestWithParam<std::string> {};

} // namespace

// C = D + A*B with A (M x K), B (K x N) int8 and D int32 in DRAM, C int32 in DRAM. Each
// (i, j) output tile lives in the accumulator: D is loaded into it, then every K tile
// accumulates onto it (WS keeps B's tile stationary, A streams). The reference adds
// golden::matmulWs passes, one per K tile, onto D.
TEST_P(FuncModelTiledWs, MatchesGoldenMatmulWsPerKTile) {
  Machine m(GetParam());
  const ModelParams& p = m.model.params();
  const int dim = p.dim;
  const int ab = p.accBytes;
  ASSERT_TRUE(p.hasWs);
  std::mt19937_64 rng(test::testSeed(0xf00d0001, "FuncModelTiled.Ws/" + GetParam()));
  for (int trial = 0; trial < 6; ++trial) {
    std::uniform_int_distribution<int> size(1, 3 * dim + 1);
    const int M = size(rng), K = size(rng), N = size(rng);
    SCOPED_TRACE("M=" + std::to_string(M) + " K=" + std::to_string(K) + " N=" + std::to_string(N));
    const Matrix a = random(rng, M, K, -128, 127);
    const Matrix b = random(rng, K, N, -128, 127);
    const Matrix d = random(rng, M, N, -100000, 100000);
    m.put(kA, 1, a.v);
    m.put(kB, 1, b.v);
    m.put(kD, ab, d.v);
    ConfigExArgs ex;
    ex.dataflow = hw::kDataflowWS;
    m.ok(configEx(ex));
    ConfigStArgs st;
    st.stride = static_cast<uint32_t>(N * ab);
    m.ok(configSt(st));
    ConfigLdArgs ldA, ldB, ldD;
    ldA.stride = static_cast<uint64_t>(K);
    ldB.channel = 1;
    ldB.stride = static_cast<uint64_t>(N);
    ldD.channel = 2;
    ldD.stride = static_cast<uint64_t>(N) * ab;
    m.ok(configLd(ldA));
    m.ok(configLd(ldB));
    m.ok(configLd(ldD));
    for (int i0 = 0; i0 < M; i0 += dim)
      for (int j0 = 0; j0 < N; j0 += dim) {
        const uint32_t mi = static_cast<uint32_t>(std::min(dim, M - i0));
        const uint32_t nj = static_cast<uint32_t>(std::min(dim, N - j0));
        m.ok(mvin(2, kD + (static_cast<uint64_t>(i0) * N + j0) * ab, accAddr(0), mi, nj));
        for (int k0 = 0; k0 < K; k0 += dim) {
          const uint32_t kk = static_cast<uint32_t>(std::min(dim, K - k0));
          m.ok(mvin(0, kA + static_cast<uint64_t>(i0) * K + k0, spAddr(0), mi, kk));
          m.ok(mvin(1, kB + static_cast<uint64_t>(k0) * N + j0, spAddr(dim), kk, nj));
          m.ok(preload({spAddr(dim), kk, nj}, {accAddr(0, true), mi, nj}));
          m.ok(compute(true, {spAddr(0), mi, kk}, {garbageAddr(), mi, nj}));
        }
        m.ok(
            mvout(kC + (static_cast<uint64_t>(i0) * N + j0) * ab, accAddr(0, false, true), mi, nj));
      }
    // Each K tile's pass wraps its partial sums at the output width (golden::matmulWs with a
    // zero bias); the accumulator adds the passes onto D at the accumulator width.
    Matrix expect = d;
    for (int k0 = 0; k0 < K; k0 += dim) {
      const int kk = std::min(dim, K - k0);
      Matrix at(M, kk), bt(kk, N);
      for (int i = 0; i < M; ++i)
        for (int k = 0; k < kk; ++k)
          at.at(i, k) = a.at(i, k0 + k);
      for (int k = 0; k < kk; ++k)
        for (int j = 0; j < N; ++j)
          bt.at(k, j) = b.at(k0 + k, j);
      const Matrix pass = golden::matmulWs(at, bt, Matrix(M, N), p.outputWidth);
      for (size_t e = 0; e < expect.v.size(); ++e)
        expect.v[e] = golden::wrap(expect.v[e] + pass.v[e], p.accWidth);
    }
    ASSERT_EQ(m.get(kC, ab, static_cast<size_t>(M) * N), expect.v);
  }
  EXPECT_EQ(m.model.error().count, 0u);
}

// OS: one accumulation per output tile over all K tiles (C = GARBAGE until the last), with
// D preloaded from the accumulator and a random shift; equals golden::matmulOs of the whole
// matrices, whose D is wrapped to the output width and whose result saturates.
TEST_P(FuncModelTiledOs, MatchesGoldenMatmulOs) {
  Machine m(GetParam());
  const ModelParams& p = m.model.params();
  const int dim = p.dim;
  const int ab = p.accBytes;
  ASSERT_TRUE(p.hasOs);
  std::mt19937_64 rng(test::testSeed(0xf00d0002, "FuncModelTiled.Os/" + GetParam()));
  for (int trial = 0; trial < 6; ++trial) {
    std::uniform_int_distribution<int> size(1, 3 * dim + 1);
    const int M = size(rng), K = size(rng), N = size(rng);
    const int shift = std::uniform_int_distribution<int>(0, 12)(rng);
    SCOPED_TRACE("M=" + std::to_string(M) + " K=" + std::to_string(K) + " N=" + std::to_string(N) +
                 " shift=" + std::to_string(shift));
    const Matrix a = random(rng, M, K, -128, 127);
    const Matrix b = random(rng, K, N, -128, 127);
    // D beyond the output width wraps (when there is room beyond it).
    const int64_t big = p.outputWidth < 62 ? int64_t{1} << (p.outputWidth + 1) : INT64_MAX / 2;
    const Matrix d = random(rng, M, N, -big, big);
    m.put(kA, 1, a.v);
    m.put(kB, 1, b.v);
    m.put(kD, ab, d.v);
    ConfigExArgs ex;
    ex.dataflow = hw::kDataflowOS;
    ex.inShift = static_cast<uint32_t>(shift);
    m.ok(configEx(ex));
    ConfigStArgs st;
    st.stride = static_cast<uint32_t>(N * ab);
    m.ok(configSt(st));
    ConfigLdArgs ldA, ldB, ldD;
    ldA.stride = static_cast<uint64_t>(K);
    ldB.channel = 1;
    ldB.stride = static_cast<uint64_t>(N);
    ldD.channel = 2;
    ldD.stride = static_cast<uint64_t>(N) * ab;
    m.ok(configLd(ldA));
    m.ok(configLd(ldB));
    m.ok(configLd(ldD));
    const int kTiles = (K + dim - 1) / dim;
    for (int i0 = 0; i0 < M; i0 += dim)
      for (int j0 = 0; j0 < N; j0 += dim) {
        const uint32_t mi = static_cast<uint32_t>(std::min(dim, M - i0));
        const uint32_t nj = static_cast<uint32_t>(std::min(dim, N - j0));
        m.ok(mvin(2, kD + (static_cast<uint64_t>(i0) * N + j0) * ab, accAddr(0), mi, nj));
        // All K tiles of A and B side by side in the scratchpad first.
        for (int t = 0; t < kTiles; ++t) {
          const int k0 = t * dim;
          const uint32_t kk = static_cast<uint32_t>(std::min(dim, K - k0));
          m.ok(mvin(0, kA + static_cast<uint64_t>(i0) * K + k0, spAddr(2 * t * dim), mi, kk));
          m.ok(mvin(1, kB + static_cast<uint64_t>(k0) * N + j0, spAddr((2 * t + 1) * dim), kk, nj));
        }
        for (int t = 0; t < kTiles; ++t) {
          const uint32_t kk = static_cast<uint32_t>(std::min(dim, K - t * dim));
          const bool last = t == kTiles - 1;
          const Operand out =
              last ? Operand{accAddr(4 * dim), mi, nj} : Operand{garbageAddr(), mi, nj};
          const Operand bd = t == 0 ? Operand{accAddr(0), mi, nj} : Operand{garbageAddr(), 1, 1};
          m.ok(preload(bd, out));
          m.ok(compute(t == 0, {spAddr(2 * t * dim), mi, kk}, {spAddr((2 * t + 1) * dim), kk, nj}));
        }
        m.ok(mvout(kC + (static_cast<uint64_t>(i0) * N + j0) * ab, accAddr(4 * dim, false, true),
                   mi, nj));
      }
    const Matrix expect = golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, shift);
    const std::vector<int64_t> c = m.get(kC, ab, static_cast<size_t>(M) * N);
    ASSERT_EQ(c, expect.v);
  }
  EXPECT_EQ(m.model.error().count, 0u);
}

INSTANTIATE_TEST_SUITE_P(Configs, FuncModelTiledWs,
                         ::testing::Values("tiny", "tiny64", "tiles2x2", "default"));
INSTANTIATE_TEST_SUITE_P(Configs, FuncModelTiledOs,
                         ::testing::Values("tiny", "tiny64", "tiles2x2", "default", "large32"));
