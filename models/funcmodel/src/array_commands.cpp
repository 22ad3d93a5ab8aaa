// PRELOAD, COMPUTE_PRELOADED and COMPUTE_ACCUMULATED (docs/isa.md "PRELOAD and COMPUTE").
// A PRELOAD is checked when it arrives and waits for its COMPUTE; the pair then executes as
// one operation: all operands are read before any result is written.
#include "dma_range.h"
#include "funcmodel/func_model.h"
#include "funcmodel/isa_fields.h"
#include "golden/arith.h"
#include "hwspec/array_params.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace by::funcmodel {

namespace {

/// A source operand may be GARBAGE (reads zeros), or, without flags, the scratchpad or,
/// where `accOk`, the accumulator.
bool badSource(const LocalAddr& a, bool accOk) {
  if (a.garbage())
    return false;
  return (a.acc() && !accOk) || a.accumulate() || a.full();
}

/// A destination may be GARBAGE (discards), the accumulator (accumulate selects
/// read-modify-write; `full` means nothing here and is accepted because gemmini.h's
/// sp_tiled_matmul_ws preloads C with it when full_C is set) or the scratchpad without flags.
bool badDest(const LocalAddr& a) {
  return !a.garbage() && !a.acc() && (a.accumulate() || a.full());
}

/// Rows 1..DIM; columns 1..maxCols: DIM*lanes for the reduction operands A and B (a row of
/// the reduction dimension, or a lane-packed row of B), DIM for D and C.
bool sizeOk(const LocalOperand& op, int dim, int maxCols) {
  return op.rows >= 1 && op.rows <= static_cast<uint32_t>(dim) && op.cols >= 1 &&
         op.cols <= static_cast<uint32_t>(maxCols);
}

/// The operand's rows (`stride` apart; sizes already checked) lie inside its memory.
bool inRange(const LocalOperand& op, uint64_t stride, const ModelParams& p) {
  if (op.addr.garbage())
    return true;
  const uint64_t last = op.addr.row() + uint64_t{op.rows - 1} * stride;
  return last < static_cast<uint64_t>(op.addr.acc() ? p.accRows : p.spRows);
}

/// The block a transposed operand occupies: its command gives the logical rows and columns (as
/// on Gemmini), the scratchpad holds the transpose (docs/isa.md, "Transposes").
LocalOperand stored(LocalOperand op, bool transposed) {
  if (transposed)
    std::swap(op.rows, op.cols);
  return op;
}

} // namespace

int FuncModel::checkPreload(uint64_t rs1, uint64_t rs2) const {
  const IsaFields& f = isaFields();
  const bool ws = state_.ex.dataflow == hw::kDataflowWS;
  const LocalOperand bd = stored(decodeOperand(f.preloadBD, rs1), ws && state_.ex.bTranspose);
  const LocalOperand c = decodeOperand(f.preloadC, rs2);
  // WS: BD is the weights (array operands are elem_t: scratchpad or GARBAGE). OS: BD is D,
  // the initial accumulators, which may also come from the accumulator.
  if (badSource(bd.addr, !ws) || badDest(c.addr))
    return f.err.badLocalAddr;
  // WS: BD is B (lane-packed); OS: BD is D.
  if (!sizeOk(bd, params_.dim, ws ? params_.spRowElems : params_.dim) ||
      !sizeOk(c, params_.dim, params_.dim))
    return f.err.badSize;
  if (!inRange(bd, 1, params_) || !inRange(c, state_.ex.cStride, params_))
    return f.err.localRange;
  return 0;
}

int FuncModel::execCompute(bool preloaded, uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  if (!state_.preload)
    return f.err.unpaired;
  // The pair is one operation: a rejected COMPUTE takes its PRELOAD with it.
  const PendingPreload pre = *state_.preload;
  state_.preload.reset();
  if (!preloaded && !state_.array.valid) // nothing stationary to keep
    return f.err.unpaired;

  const bool ws = state_.ex.dataflow == hw::kDataflowWS;
  const LocalOperand a = stored(decodeOperand(f.computeA[preloaded], rs1), state_.ex.aTranspose);
  const LocalOperand bd =
      stored(decodeOperand(f.computeBD[preloaded], rs2), !ws && state_.ex.bTranspose);
  const LocalOperand c = decodeOperand(f.preloadC, pre.rs2);
  // A and OS's B feed the multipliers (elem_t); WS's bias D may come from the accumulator.
  if (badSource(a.addr, false) || badSource(bd.addr, ws))
    return f.err.badLocalAddr;
  // The COMPUTE's BD is the bias D (WS) or B (OS, lane-packed).
  if (!sizeOk(a, params_.dim, params_.spRowElems) ||
      !sizeOk(bd, params_.dim, ws ? params_.dim : params_.spRowElems))
    return f.err.badSize;
  // WS produces one output row per row of A (a column of a transposed one).
  if (ws && c.rows > (state_.ex.aTranspose ? a.cols : a.rows))
    return f.err.badSize;
  if (!inRange(a, state_.ex.aStride, params_) || !inRange(bd, 1, params_))
    return f.err.localRange;

  if (ws)
    computeWs(preloaded, pre.rs1, pre.rs2, rs1, rs2);
  else
    computeOs(preloaded, pre.rs1, pre.rs2, rs1, rs2);
  state_.array.valid = true;
  return 0;
}

namespace {

/// An operand read as a dim x width matrix: element j of row addr.row + i*rowStride, zero
/// outside the operand's rows and columns or for GARBAGE. Scratchpad rows hold spRowElems
/// elements, accumulator rows dim.
/// A loop's depthwise COMPUTE on vector PEs reads A's columns from colOffset on.
std::vector<int64_t> readOperand(const LocalOperand& op, uint64_t rowStride, int width,
                                 const ModelParams& p, const std::vector<int64_t>& sp,
                                 const std::vector<int64_t>& acc, uint64_t colOffset = 0) {
  std::vector<int64_t> m(static_cast<size_t>(p.dim) * width, 0);
  if (op.addr.garbage())
    return m;
  const std::vector<int64_t>& mem = op.addr.acc() ? acc : sp;
  const uint64_t memRow = static_cast<uint64_t>(op.addr.acc() ? p.dim : p.spRowElems);
  for (uint64_t i = 0; i < op.rows; ++i)
    for (uint64_t j = 0; j < op.cols; ++j)
      m[i * width + j] = mem[(op.addr.row() + i * rowStride) * memRow + colOffset + j];
  return m;
}

/// B (K = DIM*lanes rows x DIM columns) from its lane-packed operand X (DIM x DIM*lanes):
/// B[k][j] = X[k / lanes][j*lanes + k % lanes] (docs/isa.md, "Vector PEs").
std::vector<int64_t> unpackB(const std::vector<int64_t>& x, int dim, int lanes) {
  const int k = dim * lanes;
  std::vector<int64_t> b(static_cast<size_t>(k) * dim);
  for (int r = 0; r < k; ++r)
    for (int j = 0; j < dim; ++j)
      b[static_cast<size_t>(r) * dim + j] =
          x[static_cast<size_t>(r / lanes) * k + static_cast<size_t>(j) * lanes + r % lanes];
  return b;
}

/// The operand as the array takes it when stored transposed (one lane: a DIM x DIM block).
std::vector<int64_t> transposed(std::vector<int64_t> m, bool transpose, int dim) {
  if (!transpose)
    return m;
  std::vector<int64_t> t(m.size());
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j)
      t[static_cast<size_t>(j) * dim + i] = m[static_cast<size_t>(i) * dim + j];
  return t;
}

} // namespace

void FuncModel::computeWs(bool preloaded, uint64_t pre1, uint64_t pre2, uint64_t rs1,
                          uint64_t rs2) {
  const IsaFields& f = isaFields();
  const int dim = params_.dim;
  const int kw = params_.spRowElems; // the reduction length: DIM * lanes
  const int ow = params_.outputWidth;
  const LocalOperand bd = stored(decodeOperand(f.preloadBD, pre1), state_.ex.bTranspose);
  const LocalOperand c = decodeOperand(f.preloadC, pre2);
  const LocalOperand aOp = stored(decodeOperand(f.computeA[preloaded], rs1), state_.ex.aTranspose);
  const LocalOperand dOp = decodeOperand(f.computeBD[preloaded], rs2);
  std::vector<int64_t>& w = state_.array.w;
  if (preloaded)
    w = transposed(
        unpackB(readOperand(bd, 1, kw, params_, state_.sp, state_.acc), dim, params_.lanes),
        state_.ex.bTranspose, dim);
  const std::vector<int64_t> a =
      transposed(readOperand(aOp, state_.ex.aStride, kw, params_, state_.sp, state_.acc),
                 state_.ex.aTranspose, dim);
  const std::vector<int64_t> d = readOperand(dOp, 1, dim, params_, state_.sp, state_.acc);

  std::vector<int64_t> r(static_cast<size_t>(dim) * dim, 0);
  const uint32_t rows = state_.ex.aTranspose ? aOp.cols : aOp.rows;
  for (uint32_t i = 0; i < rows; ++i)
    for (int j = 0; j < dim; ++j) {
      int64_t sum = golden::wrap(d[i * dim + j], ow);
      for (int k = 0; k < kw; ++k) // products of elem_t values never overflow
        sum = addWrap(sum, a[i * kw + k] * w[k * dim + j], ow);
      r[i * dim + j] = sum;
    }
  writeResult(c, r);
}

void FuncModel::computeOs(bool preloaded, uint64_t pre1, uint64_t pre2, uint64_t rs1,
                          uint64_t rs2) {
  const IsaFields& f = isaFields();
  const int dim = params_.dim;
  const LocalOperand bd = decodeOperand(f.preloadBD, pre1);
  const LocalOperand c = decodeOperand(f.preloadC, pre2);
  const LocalOperand aOp = stored(decodeOperand(f.computeA[preloaded], rs1), state_.ex.aTranspose);
  const LocalOperand bOp = stored(decodeOperand(f.computeBD[preloaded], rs2), state_.ex.bTranspose);
  std::vector<int64_t>& p = state_.array.p;
  if (preloaded) {
    p = readOperand(bd, 1, dim, params_, state_.sp, state_.acc);
    for (int64_t& v : p)
      v = golden::wrap(v, params_.outputWidth); // D enters the PEs at the output width
  }
  const int kw = params_.spRowElems; // the reduction length: DIM * lanes
  const std::vector<int64_t> a = transposed(
      readOperand(aOp, state_.ex.aStride, kw, params_, state_.sp, state_.acc, aColOffset_),
      state_.ex.aTranspose, dim);
  const std::vector<int64_t> b = transposed(
      unpackB(readOperand(bOp, 1, kw, params_, state_.sp, state_.acc), dim, params_.lanes),
      state_.ex.bTranspose, dim);
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      int64_t sum = p[i * dim + j];
      for (int k = 0; k < kw; ++k)
        sum = addWrap(sum, a[i * kw + k] * b[k * dim + j], params_.accWidth);
      p[i * dim + j] = sum;
    }
  if (c.addr.garbage()) // the accumulation goes on
    return;
  std::vector<int64_t> r(p.size());
  for (size_t k = 0; k < p.size(); ++k)
    r[k] = golden::saturate(golden::roundingShift(p[k], static_cast<int>(state_.ex.inShift)),
                            params_.outputWidth);
  writeResult(c, r);
  std::fill(p.begin(), p.end(), 0); // a following COMPUTE_ACCUMULATED starts from zero
}

void FuncModel::writeResult(const LocalOperand& c, const std::vector<int64_t>& r) {
  if (c.addr.garbage())
    return;
  const int dim = params_.dim;
  for (uint64_t i = 0; i < c.rows; ++i) {
    const uint64_t row = c.addr.row() + i * state_.ex.cStride;
    for (uint32_t j = 0; j < c.cols; ++j) {
      const int64_t v = r[i * dim + j];
      if (c.addr.acc()) {
        int64_t& acc = accAt(row, static_cast<int>(j));
        acc = c.addr.accumulate() ? addWrap(acc, v, params_.accWidth) : v;
      } else {
        const int64_t act = state_.ex.activation == hw::isa::kActRelu ? golden::relu(v) : v;
        spAt(row, static_cast<int>(j)) = golden::saturate(act, params_.inputWidth);
      }
    }
  }
}

} // namespace by::funcmodel
