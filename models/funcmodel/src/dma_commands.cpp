// MVIN, MVIN2, MVIN3 and MVOUT (docs/isa.md "MVIN ..." and "MVOUT").
#include "dma_range.h"
#include "funcmodel/func_model.h"
#include "funcmodel/int_math.h"
#include "funcmodel/isa_fields.h"
#include "golden/arith.h"
#include "hwspec/isa.h"

#include <algorithm>
#include <vector>

namespace by::funcmodel {

int64_t addWrap(int64_t a, int64_t b, int bits) {
  return golden::wrap(static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)),
                      bits);
}

int64_t loadElement(const uint8_t* p, int bytes) {
  uint64_t raw = 0;
  for (int b = bytes - 1; b >= 0; --b)
    raw = (raw << 8) | p[b];
  return golden::wrap(static_cast<int64_t>(raw), bytes * 8);
}

void storeElement(uint8_t* p, int bytes, int64_t value) {
  uint64_t raw = static_cast<uint64_t>(value);
  for (int b = 0; b < bytes; ++b, raw >>= 8)
    p[b] = static_cast<uint8_t>(raw & 0xff);
}

int FuncModel::execMvin(int channel, uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const uint64_t dramAddr = f.mvinDram[channel].extract(rs1);
  const LocalOperand op = decodeOperand(f.mvin[channel], rs2);
  const LocalAddr& dst = op.addr;
  const LoadChannel& ch = state_.ld[channel];
  const uint64_t dim = static_cast<uint64_t>(params_.dim);
  if (ch.compressed && dramAddr != 0) // address 0 writes zeros, compressed or not
    return execMvinCompressed(channel, rs1, rs2);

  // `full` on an accumulator destination means nothing to a write and is ignored, as on Gemmini
  // (whose mvin_mvout_acc_full moves in and out at acc | full); on the scratchpad it is an error.
  if (dst.garbage() || (!dst.acc() && (dst.accumulate() || dst.full())))
    return f.err.badLocalAddr;
  const bool toAcc = dst.acc();
  const bool narrow = !toAcc || ch.shrink; // elem_t elements in DRAM
  const int elemBytes = narrow ? params_.inputBytes : params_.accBytes;
  // Column blocks are one local row wide: DIM*lanes elem_t (scratchpad) or DIM (accumulator).
  const uint64_t width = toAcc ? dim : static_cast<uint64_t>(params_.spRowElems);
  const uint64_t maxCols = !toAcc   ? uint64_t(params_.maxBlockLen) * width
                           : narrow ? uint64_t(params_.maxColsAccElems)
                                    : uint64_t(params_.maxBlockLenAcc) * width;
  const uint64_t blocks = ceilDiv(op.cols, width);
  if (op.rows == 0 || op.cols == 0 || op.cols > maxCols ||
      (blocks > 1 && ch.blockStride < op.rows)) // column blocks must not overlap
    return f.err.badSize;
  const uint64_t lastRow = dst.row() + (blocks - 1) * ch.blockStride + (op.rows - 1);
  if (lastRow >= static_cast<uint64_t>(toAcc ? params_.accRows : params_.spRows))
    return f.err.localRange;

  // Read every DRAM row before touching local memory, so that a DMA error changes nothing.
  const size_t rowBytes = static_cast<size_t>(op.cols) * elemBytes;
  std::vector<uint8_t> data(static_cast<size_t>(op.rows) * rowBytes, 0);
  if (dramAddr != 0) { // address 0 writes zeros without touching DRAM
    if (!dramSpanOk(dramAddr, op.rows - 1, ch.stride, rowBytes))
      return f.err.dmaError;
    // The load controller's reads (hw::isa::mvinRowsPerRead): rows that touch or overlap
    // several to a read, a broadcast (stride 0) its one row once.
    const uint64_t readRows = ch.stride == 0 ? 1 : op.rows;
    std::vector<uint8_t> span;
    for (uint64_t r = 0; r < readRows;) {
      const uint64_t n = hw::isa::mvinRowsPerRead(
          rowBytes, ch.stride, static_cast<uint64_t>(params_.dmaMaxBytes), readRows - r);
      span.resize((n - 1) * ch.stride + rowBytes);
      if (!dramRead(dramAddr + r * ch.stride, span.data(), span.size()))
        return f.err.dmaError;
      for (uint64_t i = 0; i < n; ++i, ++r)
        std::copy_n(span.data() + i * ch.stride, rowBytes, data.data() + r * rowBytes);
    }
    for (uint64_t r = readRows; r < op.rows; ++r)
      std::copy_n(data.data(), rowBytes, data.data() + r * rowBytes);
  }

  for (uint64_t r = 0; r < op.rows; ++r)
    for (uint64_t c = 0; c < op.cols; ++c) {
      const int64_t value = loadElement(data.data() + r * rowBytes + c * elemBytes, elemBytes);
      const uint64_t row = dst.row() + (c / width) * ch.blockStride + r;
      const int e = static_cast<int>(c % width);
      if (!toAcc) {
        spAt(row, e) = value;
      } else {
        int64_t& a = accAt(row, e);
        a = dst.accumulate() ? addWrap(a, value, params_.accWidth) : value;
      }
    }
  return 0;
}

int FuncModel::execMvout(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const uint64_t dramAddr = f.mvoutDram.extract(rs1);
  const LocalOperand op = decodeOperand(f.mvout, rs2);
  const LocalAddr& src = op.addr;
  const StoreConfig& st = state_.st;
  const PoolConfig& pool = st.pool;
  const uint64_t dim = static_cast<uint64_t>(params_.dim);
  // Column blocks of a plain mvout are one local row wide (DIM*lanes for the scratchpad).
  const uint64_t width = src.acc() ? dim : static_cast<uint64_t>(params_.spRowElems);
  if (st.compressed)
    return execMvoutCompressed(rs1, rs2);

  // `accumulate` on an accumulator source means nothing to a read and is ignored: gemmini.h
  // (sp_tiled_conv, sp_tiled_matmul_*) moves C out from the address it accumulated into.
  if (src.garbage() || (!src.acc() && (src.accumulate() || src.full())))
    return f.err.badLocalAddr;
  const bool full = src.acc() && src.full();
  const int elemBytes = full ? params_.accBytes : params_.inputBytes;
  const uint64_t memRows = static_cast<uint64_t>(src.acc() ? params_.accRows : params_.spRows);
  const size_t rowBytes = static_cast<size_t>(op.cols) * elemBytes;
  const uint64_t stride = st.stride;
  const uint64_t pixels = uint64_t{pool.orows} * pool.ocols;
  // Column blocks DIM rows apart (Gemmini's MVOUT); a conv loop's own MVOUTs place them itself.
  const uint64_t blockStride = loopMvoutBlockStride_ ? loopMvoutBlockStride_ : dim;

  // Checks per mode; `rows` is ignored by pooling and strided mvouts.
  if (pool.pooling()) {
    if (pool.size == 0 || !src.acc() || full || op.cols > dim || pixels == 0 || pool.porows == 0 ||
        pool.pocols == 0)
      return f.err.badPool;
    if (op.cols == 0)
      return f.err.badSize;
    if (src.row() + pixels - 1 >= memRows)
      return f.err.localRange;
    const uint64_t lastPixel = (pool.porows - 1) * uint64_t{pool.outDim} + (pool.pocols - 1);
    if (!dramSpanOk(dramAddr, lastPixel, stride, rowBytes))
      return f.err.dmaError;
  } else if (pool.strided()) {
    if (op.cols > dim || pixels == 0)
      return f.err.badPool;
    if (op.cols == 0)
      return f.err.badSize;
    if (src.row() + pixels - 1 >= memRows)
      return f.err.localRange;
    const uint64_t lastPixel = (pool.orows - 1) * uint64_t{pool.outDim} + (pool.ocols - 1);
    if (!dramSpanOk(dramAddr, lastPixel, stride, rowBytes))
      return f.err.dmaError;
  } else {
    const uint64_t maxCols = full        ? dim
                             : src.acc() ? uint64_t(params_.maxColsAccElems)
                                         : uint64_t(params_.maxBlockLen) * width;
    if (op.rows == 0 || op.cols == 0 || op.cols > maxCols)
      return f.err.badSize;
    const uint64_t blocks = ceilDiv(op.cols, width);
    if (src.row() + (blocks - 1) * blockStride + (op.rows - 1) >= memRows)
      return f.err.localRange;
    if (!dramSpanOk(dramAddr, op.rows - 1, stride, rowBytes))
      return f.err.dmaError;
  }

  // The element a local read delivers to the DMA.
  const float scale = st.accScale();
  auto element = [&](uint64_t row, int e) -> int64_t {
    if (!src.acc())
      return spAt(row, e);
    const int64_t a = accAt(row, e);
    if (full)
      return a;
    int64_t y = golden::saturate(golden::accScale(a, scale, params_.accWidth), params_.inputWidth);
    return st.activation == hw::isa::kActRelu ? golden::relu(y) : y;
  };
  std::vector<uint8_t> buf(rowBytes);
  // Writes one DRAM row of `cols` elements; elem(c) gives element c.
  // An accumulator value through the function table (after the activation and any pooling).
  const bool tabled = src.acc() && !full;
  auto writeRow = [&](uint64_t addr, auto&& elem) {
    for (uint64_t c = 0; c < op.cols; ++c)
      storeElement(buf.data() + c * elemBytes, elemBytes, tabled ? st.tabled(elem(c)) : elem(c));
    return dramWrite(addr, buf.data(), rowBytes);
  };

  if (pool.pooling()) {
    // Pixel (y, x) of the orows x ocols image lives in local row src.row + y*ocols + x;
    // positions outside the image are zero padding.
    auto pixel = [&](int64_t y, int64_t x, int e) -> int64_t {
      if (y < 0 || x < 0 || y >= pool.orows || x >= pool.ocols)
        return 0;
      return element(src.row() + static_cast<uint64_t>(y) * pool.ocols + static_cast<uint64_t>(x),
                     e);
    };
    for (uint64_t py = 0; py < pool.porows; ++py)
      for (uint64_t px = 0; px < pool.pocols; ++px) {
        auto pooled = [&](uint64_t e) {
          int64_t v = 0;
          for (uint32_t wy = 0; wy < pool.size; ++wy)
            for (uint32_t wx = 0; wx < pool.size; ++wx) {
              const int64_t y = static_cast<int64_t>(py * pool.stride + wy) - pool.upad;
              const int64_t x = static_cast<int64_t>(px * pool.stride + wx) - pool.lpad;
              const int64_t p = pixel(y, x, static_cast<int>(e));
              v = (wy == 0 && wx == 0) ? p : std::max(v, p);
            }
          return v;
        };
        if (!writeRow(dramAddr + (py * pool.outDim + px) * stride, pooled))
          return f.err.dmaError;
      }
  } else if (pool.strided()) {
    for (uint64_t y = 0; y < pool.orows; ++y)
      for (uint64_t x = 0; x < pool.ocols; ++x) {
        const uint64_t row = src.row() + y * pool.ocols + x;
        auto elem = [&](uint64_t c) { return element(row, static_cast<int>(c)); };
        if (!writeRow(dramAddr + (y * pool.outDim + x) * stride, elem))
          return f.err.dmaError;
      }
  } else {
    for (uint64_t r = 0; r < op.rows; ++r) {
      auto elem = [&](uint64_t c) {
        return element(src.row() + (c / width) * blockStride + r, static_cast<int>(c % width));
      };
      if (!writeRow(dramAddr + r * stride, elem))
        return f.err.dmaError;
    }
  }
  return 0;
}

} // namespace by::funcmodel
