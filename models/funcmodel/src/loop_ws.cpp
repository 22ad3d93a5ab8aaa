// LOOP_WS: checks and the unrolled command sequence (docs/isa.md, "LOOP_WS").
#include "funcmodel/loop_ws.h"

#include "hwspec/array_params.h"
#include "hwspec/isa.h"
#include "loop_fields.h"

#include <algorithm>

namespace by::funcmodel {

namespace {

using hw::isa::command;

using namespace loopfields;

// The halves A and B of a LOOP_WS use (2 or 3: beyond the scratchpad).
int aHalf(const LoopWsState& s, uint64_t rs1) {
  const uint64_t id = field("LOOP_WS", false, "a_spad_id", rs1);
  return id == 0 ? s.spHalf : static_cast<int>(id) - 1;
}
int bHalf(const LoopWsState& s, uint64_t rs1) {
  const uint64_t id = field("LOOP_WS", false, "b_spad_id", rs1);
  return id == 0 ? s.spHalf : static_cast<int>(id) - 1;
}

// Boveda: the operands the loop names compressed (A, B, C).
struct Compressed {
  bool a, b, c;
};
Compressed compressedOperands(uint64_t rs2) {
  return {field("LOOP_WS", true, "a_compressed", rs2) != 0,
          field("LOOP_WS", true, "b_compressed", rs2) != 0,
          field("LOOP_WS", true, "c_compressed", rs2) != 0};
}

// A is k-major (its K steps' I tiles DIM rows apart, each K group one move of all I rows) unless
// it comes in as stored (transposed) or block by block (compressed): then row tile by row tile.
bool aKMajor(uint64_t rs2) {
  return !field("LOOP_WS", true, "a_transpose", rs2) && !compressedOperands(rs2).a;
}

} // namespace

int loopWsCheck(const ModelParams& p, const ArchState& state, uint64_t rs1, uint64_t rs2) {
  const LoopWsState& s = state.loop;
  const ExecConfig& ex = state.ex;
  const int unsupported = hw::isa::errorCode("UNSUPPORTED");
  // Transposed tiles come in as stored and the computes read them through the transposer, as
  // CONFIG_EX's transposes say: those must be the loop's (else the computes would read
  // something else than A and B).
  const bool aT = field("LOOP_WS", true, "a_transpose", rs2) != 0;
  const bool bT = field("LOOP_WS", true, "b_transpose", rs2) != 0;
  if (ex.dataflow != hw::kDataflowWS || aT != ex.aTranspose || bT != ex.bTranspose ||
      field("LOOP_WS", true, "is_resadd", rs2) || field("LOOP_WS", false, "act", rs1) > 1)
    return unsupported;
  // A compressed operand's moves name pointer entries: its channel must read (or the store path
  // write) compressed blocks, and a plain one's must not; its tiles come in untransposed; a
  // compressed C leaves scaled (a compressed MVOUT has no `full`).
  const Compressed z = compressedOperands(rs2);
  if ((z.a || z.b || z.c) && !p.boveda)
    return unsupported;
  if (z.a != state.ld[0].compressed || z.b != state.ld[1].compressed ||
      z.c != state.st.compressed || (z.a && aT) || (z.b && bT) ||
      (z.c && field("LOOP_WS", false, "full_C", rs1)))
    return unsupported;
  const uint32_t dim = static_cast<uint32_t>(p.dim);
  if (s.maxI == 0 || s.maxJ == 0 || s.maxK == 0 || s.padI >= dim || s.padJ >= dim || s.padK >= dim)
    return hw::isa::errorCode("BAD_SIZE");
  const uint64_t half = static_cast<uint64_t>(p.spRows / 2);
  const uint64_t aRows = uint64_t{s.maxI} * s.maxK * dim, bRows = uint64_t{s.maxK} * s.maxJ * dim;
  const uint64_t cRows = uint64_t{s.maxI} * s.maxJ * dim;
  const int ah = aHalf(s, rs1), bh = bHalf(s, rs1);
  const uint64_t blockStrideMax = command("CONFIG_LD").rs1Field("block_stride").mask();
  if (ah > 1 || bh > 1 || aRows > half || bRows > half ||
      cRows > static_cast<uint64_t>(p.accRows / 2) || (ah == bh && aRows + bRows > half) ||
      uint64_t{s.maxI} * dim > blockStrideMax)
    return hw::isa::errorCode("LOCAL_RANGE");
  const uint64_t limit = 0xffffffffull;
  for (uint64_t v : {s.a, s.b, s.d, s.c, s.aStride, s.bStride, s.dStride, s.cStride})
    if (v > limit)
      return hw::isa::errorCode("DMA_ERROR");
  return 0;
}

LoopWsBlockStrides loopWsBlockStrides(const ModelParams& p, const LoopWsState& s, uint64_t rs2) {
  const uint32_t iRows = s.maxI * static_cast<uint32_t>(p.dim);
  return {aKMajor(rs2) ? iRows : 0, 0, iRows, iRows};
}

std::vector<Instruction> loopWsUnroll(const ModelParams& p, const LoopWsState& s, uint64_t rs1,
                                      uint64_t rs2) {
  const bool aT = field("LOOP_WS", true, "a_transpose", rs2) != 0;
  const bool bT = field("LOOP_WS", true, "b_transpose", rs2) != 0;
  const bool exAcc = field("LOOP_WS", false, "ex_accumulate", rs1) != 0;
  const bool fullC = field("LOOP_WS", false, "full_C", rs1) != 0;
  const bool lowD = field("LOOP_WS", false, "low_D", rs1) != 0;
  const uint32_t dim = static_cast<uint32_t>(p.dim);
  const uint32_t I = s.maxI, J = s.maxJ, K = s.maxK;
  const uint32_t mbl = static_cast<uint32_t>(p.maxBlockLen);
  const uint32_t spHalf = static_cast<uint32_t>(p.spRows / 2);
  const uint32_t aRow = static_cast<uint32_t>(aHalf(s, rs1)) * spHalf;
  const uint32_t bRow = (static_cast<uint32_t>(bHalf(s, rs1)) + 1) * spHalf - K * J * dim;
  const uint32_t cRow = static_cast<uint32_t>(s.accHalf) * static_cast<uint32_t>(p.accRows / 2);
  const uint64_t ib = static_cast<uint64_t>(p.inputBytes), ab = static_cast<uint64_t>(p.accBytes);

  std::vector<Instruction> out;
  auto rowsI = [&](uint32_t i) { return dim - (i == I - 1 ? s.padI : 0); };
  auto colsJ = [&](uint32_t j) { return dim - (j == J - 1 ? s.padJ : 0); };
  auto cutK = [&](uint32_t k) { return dim - (k == K - 1 ? s.padK : 0); };
  // Columns of a move of `blocks` tiles from tile `first` of a dimension of `n` tiles.
  auto moveCols = [&](uint32_t first, uint32_t blocks, uint32_t n, uint32_t pad) {
    return blocks * dim - (first + blocks >= n ? pad : 0);
  };
  const Compressed z = compressedOperands(rs2);
  auto dram = [&](uint64_t base, uint32_t row, uint64_t stride, uint32_t col, uint64_t bytes) {
    return base + (uint64_t{row} * stride + col) * dim * bytes;
  };
  // A compressed operand's move of the column group starting at tile `col` names its pointer
  // entry: the stride counts entries, a group of MAX_BLOCK_LEN tiles one entry.
  auto entry = [&](uint64_t base, uint32_t row, uint64_t stride, uint32_t col) {
    return base + (uint64_t{row} * stride + col / mbl) * hw::isa::kBovedaEntryBytes;
  };
  // Local layout: tile (i, k) of A at (k*I + i)*DIM (transposed or compressed: (i*K + k)*DIM),
  // tile (i, j) of C at (j*I + i)*DIM, B row-major.
  const bool kMajor = aKMajor(rs2);
  auto aLocal = [&](uint32_t i, uint32_t k) {
    return aRow + (kMajor ? k * I + i : i * K + k) * dim;
  };
  const uint32_t allRows = I * dim - s.padI; // the rows of all I tiles (a move of them all)
  auto cLocal = [&](uint32_t i, uint32_t j) { return kAcc | (cRow + (j * I + i) * dim); };

  // The loads of step k: A's K group starting at k (when k starts one; k-major: one move of all I
  // rows), then B's row k. A transposed operand is stored K x I (A) or J x K (B): its tiles come
  // in as stored, a group of tiles as rows (the group's tiles are DIM rows apart locally), and
  // the computes read them through the transposer.
  auto loads = [&](uint32_t k) {
    if (s.a != 0 && k % mbl == 0 && kMajor) {
      const uint32_t blocks = std::min(mbl, K - k);
      out.push_back({static_cast<uint32_t>(hw::isa::kMvin), dram(s.a, 0, s.aStride, k, ib),
                     operand(allRows, moveCols(k, blocks, K, s.padK), aLocal(0, k))});
    } else if (s.a != 0 && k % mbl == 0) {
      const uint32_t blocks = std::min(mbl, K - k);
      for (uint32_t i = 0; i < I; ++i) {
        const uint32_t local = aLocal(i, k), kCols = moveCols(k, blocks, K, s.padK);
        out.push_back({static_cast<uint32_t>(hw::isa::kMvin),
                       z.a  ? entry(s.a, i, s.aStride, k)
                       : aT ? dram(s.a, k, s.aStride, i, ib)
                            : dram(s.a, i, s.aStride, k, ib),
                       aT ? operand(kCols, rowsI(i), local) : operand(rowsI(i), kCols, local)});
      }
    }
    if (s.b != 0)
      for (uint32_t j = 0; j < J; j += mbl) {
        const uint32_t blocks = std::min(mbl, J - j);
        const uint32_t local = bRow + (k * J + j) * dim, jCols = moveCols(j, blocks, J, s.padJ);
        out.push_back({static_cast<uint32_t>(hw::isa::kMvin2),
                       z.b  ? entry(s.b, k, s.bStride, j)
                       : bT ? dram(s.b, j, s.bStride, k, ib)
                            : dram(s.b, k, s.bStride, j, ib),
                       bT ? operand(jCols, cutK(k), local) : operand(cutK(k), jCols, local)});
      }
  };
  // The computes of step k: j outer, i inner; B(k, j) is preloaded with the first i.
  auto computes = [&](uint32_t k) {
    for (uint32_t j = 0; j < J; ++j)
      for (uint32_t i = 0; i < I; ++i) {
        const uint32_t bd = i == 0 ? bRow + (k * J + j) * dim : hw::isa::kGarbageAddr;
        const uint32_t c = cLocal(i, j) | (exAcc || k != 0 ? kAccumulate : 0);
        out.push_back({static_cast<uint32_t>(hw::isa::kPreload), operand(cutK(k), colsJ(j), bd),
                       operand(rowsI(i), colsJ(j), c)});
        out.push_back({static_cast<uint32_t>(i == 0 ? hw::isa::kComputePreloaded
                                                    : hw::isa::kComputeAccumulated),
                       operand(rowsI(i), cutK(k), aLocal(i, k)),
                       operand(dim, dim, hw::isa::kGarbageAddr)});
      }
  };
  // D: per group of J tiles one move of all I rows (a repeating bias, stride 0, is read from DRAM
  // once per group). D comes after the loads of steps 0 and 1 (its moves wait for the MVOUTs of
  // the loop two before, which read the same accumulator half; the load queue is in order, so in
  // front they held this loop's operand loads back).
  auto bias = [&] {
    const uint32_t group = lowD ? mbl : static_cast<uint32_t>(p.maxBlockLenAcc);
    for (uint32_t j = 0; s.d != 0 && j < J; j += group)
      out.push_back(
          {static_cast<uint32_t>(hw::isa::kMvin3), dram(s.d, 0, s.dStride, j, lowD ? ib : ab),
           operand(allRows, moveCols(j, std::min(group, J - j), J, s.padJ), cLocal(0, j))});
  };
  loads(0);
  for (uint32_t k = 0; k < K; ++k) {
    if (k + 1 < K)
      loads(k + 1);
    if (k == 0)
      bias();
    computes(k);
  }
  // C: per group of J tiles one move of all I rows (compressed: one per i, each names its
  // block's pointer entry).
  if (s.c != 0) {
    const uint32_t group = fullC ? 1 : mbl;
    for (uint32_t j = 0; j < J; j += group) {
      const uint32_t cols = moveCols(j, std::min(group, J - j), J, s.padJ);
      if (!z.c)
        out.push_back({static_cast<uint32_t>(hw::isa::kMvout),
                       dram(s.c, 0, s.cStride, j, fullC ? ab : ib),
                       operand(allRows, cols, cLocal(0, j) | (fullC ? kFull : 0))});
      for (uint32_t i = 0; z.c && i < I; ++i)
        out.push_back({static_cast<uint32_t>(hw::isa::kMvout), entry(s.c, i, s.cStride, j),
                       operand(rowsI(i), cols, cLocal(i, j))});
    }
  }
  return out;
}

} // namespace by::funcmodel
