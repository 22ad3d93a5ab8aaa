// Compressed MVIN and MVOUT (docs/isa.md "Boveda: compressed moves"). A move's block is its
// rows x cols elem_t values in row-major order, one block of the Boveda format
// (docs/boveda.md); the pointer-table entry at the command's DRAM address holds the block's
// first container (relative to the stream base of CONFIG_LD / CONFIG_ST) and its number of
// containers. MVOUT compresses with the reference codec; MVIN decodes with the rules of the
// hardware decompressor (which checks less than the codec's canonical-form decoder), so that
// the error a malformed block raises is the one the RTL raises.
#include "boveda/codec.h"
#include "counters.h"
#include "dma_range.h"
#include "funcmodel/func_model.h"
#include "funcmodel/int_math.h"
#include "funcmodel/isa_fields.h"
#include "golden/arith.h"
#include "hwspec/isa.h"

#include <algorithm>
#include <vector>

namespace by::funcmodel {

namespace {

constexpr uint64_t kEntryBytes = hw::isa::kBovedaEntryBytes; // {first container, containers}

uint32_t le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void putLe32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}

/// The most containers a block of n values can take (every group at full width): a larger
/// count in a pointer entry is DMA_ERROR without reading the stream.
uint64_t maxContainers(const boveda::BovedaParams& p, uint64_t n) {
  return ceilDiv(ceilDiv(n, static_cast<uint64_t>(p.groupSize)) *
                     static_cast<uint64_t>(p.maxGroupBits()),
                 static_cast<uint64_t>(p.containerBits));
}

/// Decodes one block of n values from `stream` as the hardware decompressor does: a width code
/// above W is read as W; bits past the stream's end read as 0 (a short stream); after the last
/// group the stream must hold zeros exactly up to the next container boundary. Any breach
/// sets `malformed`; the values are still what the hardware writes.
std::vector<int64_t> decodeLikeHardware(const boveda::BovedaParams& p,
                                        const std::vector<uint8_t>& stream, uint64_t n,
                                        bool& malformed) {
  const uint64_t total = stream.size() * 8;
  uint64_t pos = 0;
  auto bit = [&](uint64_t k) { return k < total ? (stream[k / 8] >> (k % 8)) & 1u : 0u; };
  auto get = [&](int bits) {
    uint64_t v = 0;
    for (int i = 0; i < bits; ++i)
      v |= uint64_t{bit(pos + static_cast<uint64_t>(i))} << i;
    pos += static_cast<uint64_t>(bits);
    return v;
  };
  malformed = false;
  std::vector<int64_t> values(n, 0);
  for (uint64_t first = 0; first < n; first += static_cast<uint64_t>(p.groupSize)) {
    const int len = static_cast<int>(std::min<uint64_t>(p.groupSize, n - first));
    uint64_t code = get(p.headerBits);
    if (code > static_cast<uint64_t>(p.elementBits)) {
      malformed = true;
      code = static_cast<uint64_t>(p.elementBits);
    }
    const int w = static_cast<int>(code);
    if (w == 0)
      continue;
    const uint64_t present = p.zeroAware ? get(len) : ~uint64_t{0};
    for (int i = 0; i < len; ++i)
      if ((present >> i) & 1u)
        values[first + static_cast<uint64_t>(i)] =
            golden::wrap(static_cast<int64_t>(get(w)), w); // sign-extend from bit w-1
  }
  const uint64_t c = static_cast<uint64_t>(p.containerBits);
  if (pos > total || total != ceilDiv(pos, c) * c)
    malformed = true;
  for (uint64_t k = pos; k < total; ++k)
    malformed |= bit(k) != 0;
  return values;
}

} // namespace

int FuncModel::execMvinCompressed(int channel, uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const uint64_t entryAddr = f.mvinDram[channel].extract(rs1);
  const LocalOperand op = decodeOperand(f.mvin[channel], rs2);
  const LocalAddr& dst = op.addr;
  const LoadChannel& ch = state_.ld[channel];
  // Column blocks are one scratchpad row wide (DIM*lanes elements), as for a plain MVIN.
  const uint64_t width = static_cast<uint64_t>(params_.spRowElems);

  if (dst.acc() && !dst.garbage()) // blocks hold elem_t values for the scratchpad only
    return f.err.unsupported;
  if (dst.garbage() || dst.accumulate() || dst.full())
    return f.err.badLocalAddr;
  const uint64_t blocks = ceilDiv(op.cols, width);
  if (op.rows == 0 || op.cols == 0 || op.cols > params_.maxBlockLen * width ||
      (blocks > 1 && ch.blockStride < op.rows))
    return f.err.badSize;
  if (dst.row() + (blocks - 1) * ch.blockStride + (op.rows - 1) >=
      static_cast<uint64_t>(params_.spRows))
    return f.err.localRange;
  if (!dramSpanOk(entryAddr, 0, 0, kEntryBytes))
    return f.err.dmaError;

  uint8_t entry[kEntryBytes];
  if (!pointerEntry(entryAddr, entry))
    return f.err.dmaError;
  const boveda::BovedaParams& p = params_.bovedaFormat;
  const uint64_t n = uint64_t{op.rows} * op.cols;
  const uint64_t first = le32(entry), containers = le32(entry + 4);
  const uint64_t containerBytes = static_cast<uint64_t>(p.containerBits / 8);
  if (containers == 0 || containers > maxContainers(p, n) ||
      !dramSpanOk(ch.stride, first, containerBytes, containers * containerBytes))
    return f.err.dmaError;
  std::vector<uint8_t> stream(containers * containerBytes);
  if (!dramRead(ch.stride + first * containerBytes, stream.data(), stream.size()))
    return f.err.dmaError;

  bool malformed = false;
  const std::vector<int64_t> values = decodeLikeHardware(p, stream, n, malformed);
  for (uint64_t r = 0; r < op.rows; ++r)
    for (uint64_t c = 0; c < op.cols; ++c)
      spAt(dst.row() + (c / width) * ch.blockStride + r, static_cast<int>(c % width)) =
          values[r * op.cols + c];
  return malformed ? f.err.dmaError : 0;
}

// The pointer-line buffer (docs/boveda.md, "Pointer lines"), exactly as the loader walks it
// for each compressed MVIN in program order: invalidation, lookup, fill of the least recently
// used line on a miss, and the prefetch of the next line. What the loader does in time (lines
// read while older moves still run) it does here at the move's place in program order; the
// two agree as long as nothing writes a line between those points, which the rule in
// docs/isa.md ("Boveda: compressed moves") makes the program's business.
bool FuncModel::pointerEntry(uint64_t addr, uint8_t* entry) {
  if (ptrInvalidate_) {
    for (PointerLine& l : ptrLines_)
      l.valid = false;
    ptrLastValid_ = false;
    ptrInvalidate_ = false;
  }
  if (addr % kEntryBytes != 0) // an unaligned entry is read alone and changes nothing
    return dramRead(addr, entry, kEntryBytes);
  const uint64_t lineBytes = static_cast<uint64_t>(params_.bovedaPtrLineBytes);
  const uint64_t line = addr / lineBytes;
  auto find = [&](uint64_t l) {
    size_t i = 0;
    while (i < ptrLines_.size() && !(ptrLines_[i].valid && ptrLines_[i].line == l))
      ++i;
    return i;
  };
  size_t slot = find(line);
  const bool hit = slot < ptrLines_.size();
  if (!hit) {
    slot = pointerVictim();
    fillPointerLine(slot, line);
  }
  touchPointerLine(slot);
  const bool sequential = hit || (ptrLastValid_ && ptrLast_ + 1 == line);
  ptrLast_ = line;
  ptrLastValid_ = true;
  const PointerLine& l = ptrLines_[slot];
  const bool fromLine = !l.error;
  if (fromLine)
    std::copy_n(l.data.begin() + static_cast<std::ptrdiff_t>(addr % lineBytes), kEntryBytes, entry);
  // Prefetch: the next line of the same 4 KiB page, when the moves walk the table in order.
  if (sequential && (line + 1) * lineBytes % hw::isa::kBovedaPtrPageBytes != 0 &&
      find(line + 1) == ptrLines_.size()) {
    const size_t v = pointerVictim();
    fillPointerLine(v, line + 1);
    touchPointerLine(v);
  }
  return fromLine || dramRead(addr, entry, kEntryBytes);
}

void FuncModel::fillPointerLine(size_t slot, uint64_t line) {
  const size_t lineBytes = static_cast<size_t>(params_.bovedaPtrLineBytes);
  PointerLine& l = ptrLines_[slot];
  l.valid = true;
  l.line = line;
  l.data.assign(lineBytes, 0);
  l.error = !dram_.read(line * lineBytes, l.data.data(), lineBytes);
  bytesRead_ += lineBytes; // the DMA counts a response's bytes, an AXI error or not
  countBytes(state_.counters, ByteEvent::DmaRead, lineBytes);
}

void FuncModel::touchPointerLine(size_t slot) {
  for (PointerLine& l : ptrLines_)
    if (l.age < ptrLines_[slot].age)
      ++l.age;
  ptrLines_[slot].age = 0;
}

size_t FuncModel::pointerVictim() const {
  size_t v = 0;
  for (size_t i = 1; i < ptrLines_.size(); ++i)
    if (ptrLines_[i].age > ptrLines_[v].age)
      v = i;
  return v;
}

int FuncModel::execMvoutCompressed(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const uint64_t entryAddr = f.mvoutDram.extract(rs1);
  const LocalOperand op = decodeOperand(f.mvout, rs2);
  const LocalAddr& src = op.addr;
  StoreConfig& st = state_.st;
  const uint64_t dim = static_cast<uint64_t>(params_.dim);
  // Column blocks are one local row wide (DIM, or DIM*lanes for the scratchpad) and DIM rows
  // apart, as for a plain MVOUT.
  const uint64_t width = src.acc() ? dim : static_cast<uint64_t>(params_.spRowElems);

  // Only rows of elem_t values compress: no pooling, no strided rows, no raw acc_t.
  if (st.pool.pooling() || st.pool.strided() || (src.acc() && src.full() && !src.garbage()))
    return f.err.unsupported;
  if (src.garbage() || (!src.acc() && (src.accumulate() || src.full())))
    return f.err.badLocalAddr;
  const uint64_t maxCols =
      src.acc() ? uint64_t(params_.maxColsAccElems) : uint64_t(params_.maxBlockLen) * width;
  if (op.rows == 0 || op.cols == 0 || op.cols > maxCols)
    return f.err.badSize;
  const uint64_t memRows = static_cast<uint64_t>(src.acc() ? params_.accRows : params_.spRows);
  // Column blocks DIM rows apart, or as far apart as LOOP_CONV_WS's output moves place them.
  const uint64_t blockStride = loopMvoutBlockStride_ ? loopMvoutBlockStride_ : dim;
  if (src.row() + (ceilDiv(op.cols, width) - 1) * blockStride + (op.rows - 1) >= memRows)
    return f.err.localRange;
  if (!dramSpanOk(entryAddr, 0, 0, kEntryBytes))
    return f.err.dmaError;

  // The values a plain MVOUT would write (scaled, activated, saturated accumulator reads), in
  // row-major order: one block.
  const float scale = st.accScale();
  std::vector<int16_t> values;
  values.reserve(uint64_t{op.rows} * op.cols);
  for (uint64_t r = 0; r < op.rows; ++r)
    for (uint64_t c = 0; c < op.cols; ++c) {
      const uint64_t row = src.row() + (c / width) * blockStride + r;
      const int e = static_cast<int>(c % width);
      int64_t v = 0;
      if (!src.acc()) {
        v = spAt(row, e);
      } else {
        v = golden::saturate(golden::accScale(accAt(row, e), scale, params_.accWidth),
                             params_.inputWidth);
        if (st.activation == hw::isa::kActRelu)
          v = golden::relu(v);
        v = st.tabled(v);
      }
      values.push_back(static_cast<int16_t>(v));
    }
  boveda::BovedaParams p = params_.bovedaFormat;
  p.blockValues = static_cast<int>(values.size());
  const boveda::CompressedTensor block = boveda::compress(p, values);
  const std::vector<uint8_t> bytes = block.bytes();
  const uint64_t containerBytes = static_cast<uint64_t>(p.containerBits / 8);
  const uint64_t containers = block.numContainers();
  if (!dramSpanOk(st.stride, st.nextContainer, containerBytes, bytes.size()) ||
      st.nextContainer + containers > 0xffffffffu)
    return f.err.dmaError;
  uint8_t entry[kEntryBytes];
  putLe32(entry, static_cast<uint32_t>(st.nextContainer));
  putLe32(entry + 4, static_cast<uint32_t>(containers));
  const uint64_t first = st.nextContainer;
  st.nextContainer += containers;
  if (!dramWrite(st.stride + first * containerBytes, bytes.data(), bytes.size()) ||
      !dramWrite(entryAddr, entry, kEntryBytes))
    return f.err.dmaError;
  return 0;
}

// DECOMPRESS (docs/isa.md "Boveda: on-chip form"): the block's containers lie in consecutive
// scratchpad rows (C / (DIM*lanes*IW) rows per container; stream bit k of a container row is bit k
// of the row, element e holding bits e*IW..e*IW+IW-1), put there by a plain MVIN of the stream
// bytes. They are decoded with the hardware rules and written as a compressed MVIN of channel
// 0 writes its destination.
int FuncModel::execDecompress(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  LocalAddr src;
  src.raw = static_cast<uint32_t>(f.decompress.src.extract(rs1));
  const uint64_t containers = f.decompress.containers.extract(rs1);
  const LocalOperand op = decodeOperand(f.decompress.dst, rs2);
  const LocalAddr& dst = op.addr;
  const LoadChannel& ch = state_.ld[0];
  const uint64_t width = static_cast<uint64_t>(params_.spRowElems); // DIM*lanes
  const boveda::BovedaParams& p = params_.bovedaFormat;
  const uint64_t rowBits = width * static_cast<uint64_t>(params_.inputWidth);
  const uint64_t rowsPerContainer = static_cast<uint64_t>(p.containerBits) / rowBits;
  const uint64_t spRows = static_cast<uint64_t>(params_.spRows);

  if (dst.acc() && !dst.garbage()) // raw rows go to the scratchpad only
    return f.err.unsupported;
  if (src.garbage() || src.acc() || src.accumulate() || src.full() || dst.garbage() ||
      dst.accumulate() || dst.full())
    return f.err.badLocalAddr;
  const uint64_t blocks = ceilDiv(op.cols, width);
  const uint64_t n = uint64_t{op.rows} * op.cols;
  if (op.rows == 0 || op.cols == 0 || op.cols > params_.maxBlockLen * width ||
      (blocks > 1 && ch.blockStride < op.rows) || containers == 0 ||
      containers > maxContainers(p, n))
    return f.err.badSize;
  const uint64_t dstEnd = dst.row() + (blocks - 1) * ch.blockStride + op.rows;
  const uint64_t srcEnd = src.row() + containers * rowsPerContainer;
  if (dstEnd > spRows || srcEnd > spRows || (src.row() < dstEnd && dst.row() < srcEnd))
    return f.err.localRange;

  const int elemBytes = params_.inputWidth / 8;
  std::vector<uint8_t> stream;
  stream.reserve((srcEnd - src.row()) * rowBits / 8);
  for (uint64_t r = src.row(); r < srcEnd; ++r)
    for (int e = 0; e < params_.spRowElems; ++e)
      for (int k = 0; k < elemBytes; ++k)
        stream.push_back(static_cast<uint8_t>(static_cast<uint64_t>(spAt(r, e)) >> (8 * k)));

  bool malformed = false;
  const std::vector<int64_t> values = decodeLikeHardware(p, stream, n, malformed);
  for (uint64_t r = 0; r < op.rows; ++r)
    for (uint64_t c = 0; c < op.cols; ++c)
      spAt(dst.row() + (c / width) * ch.blockStride + r, static_cast<int>(c % width)) =
          values[r * op.cols + c];
  return malformed ? f.err.dmaError : 0;
}

} // namespace by::funcmodel
