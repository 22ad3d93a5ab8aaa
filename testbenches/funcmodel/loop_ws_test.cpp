// LOOP_WS's bias moves (docs/isa.md, "LOOP_WS"): a loop moves its repeating bias in one MVIN3 of
// all its I tiles' rows per group of J tiles, up to the most rows a move (and its block stride)
// names; a loop of more I tiles is LOCAL_RANGE. Against a CPU matmul written here.
#include "fm_util.h"
#include "funcmodel/encode.h"
#include "hwspec/isa.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using by::test::kDramBase;
using by::test::Machine;

namespace {

/// C = clamp(A x B + bias) for an I x DIM x DIM product through one LOOP_WS of I tiles, J = 1,
/// K = 1, with a repeating int32 bias row (stride 0), checked element by element.
void biasLoop(Machine& m, uint32_t tilesI) {
  const int dim = m.dim();
  const size_t rows = size_t(tilesI) * dim;
  const uint64_t a = kDramBase, b = a + rows * dim, d = b + uint64_t(dim) * dim,
                 c = d + uint64_t(dim) * 4;
  ASSERT_LE(c + rows * dim, kDramBase + test::kDramSize);
  std::vector<int64_t> av(rows * dim), bv(size_t(dim) * dim), dv(static_cast<size_t>(dim));
  for (size_t i = 0; i < av.size(); ++i)
    av[i] = int64_t(i % 7) - 3;
  for (size_t i = 0; i < bv.size(); ++i)
    bv[i] = int64_t(i % 5) - 2;
  for (size_t i = 0; i < dv.size(); ++i)
    dv[i] = int64_t(i * 9) - 20;
  m.put(a, 1, av);
  m.put(b, 1, bv);
  m.put(d, 4, dv);
  ConfigExArgs ex;
  ex.dataflow = 1;
  m.ok(configEx(ex));
  m.ok(configLd({0, false, 1, 0, floatBits(1), uint64_t(dim)}));
  m.ok(configLd({1, false, 1, 0, floatBits(1), uint64_t(dim)}));
  m.ok(configLd({2, false, 1, 0, floatBits(1), 0})); // stride 0: the repeating row
  ConfigStArgs st;
  st.stride = uint32_t(dim);
  st.accScaleBits = floatBits(1.0f);
  m.ok(configSt(st));
  LoopWsArgs l;
  l.I = tilesI, l.J = 1, l.K = 1;
  l.A = a, l.B = b, l.D = d, l.C = c;
  l.aStride = l.bStride = l.cStride = uint64_t(dim);
  l.exAccumulate = true;
  for (const Instruction& i : loopWs(l))
    m.ok(i);
  const std::vector<int64_t> cv = m.get(c, 1, rows * dim);
  size_t wrong = 0;
  for (size_t r = 0; r < rows; ++r)
    for (int j = 0; j < dim; ++j) {
      int64_t sum = dv[size_t(j)];
      for (int k = 0; k < dim; ++k)
        sum += av[r * dim + size_t(k)] * bv[size_t(k) * dim + size_t(j)];
      wrong += cv[r * dim + size_t(j)] != std::clamp<int64_t>(sum, -128, 127);
    }
  EXPECT_EQ(wrong, 0u) << tilesI << " I tiles";
}

} // namespace

TEST(LoopWsBias, OneMoveOfAllRowsMatchesTheCpu) {
  // Memories large enough for a tile of more rows than an MVIN names (65535).
  Machine m(test::tinyWith({{"    capacity_kib: 4", "    capacity_kib: 4096"}}));
  const uint32_t fieldTiles = 65535u / uint32_t(m.dim());
  biasLoop(m, 3);          // one move
  biasLoop(m, fieldTiles); // one move of the most rows the field holds
  // One I tile more: its moves' block stride would not fit in 16 bits.
  LoopWsArgs l;
  l.I = fieldTiles + 1, l.J = 1, l.K = 1;
  l.A = kDramBase, l.B = kDramBase, l.C = kDramBase;
  const std::vector<Instruction> loop = loopWs(l);
  for (size_t i = 0; i + 1 < loop.size(); ++i)
    m.ok(loop[i]);
  EXPECT_EQ(m.run(loop.back()).error, hw::isa::errorCode("LOCAL_RANGE"));
}
