// The DMA, array and illegal operations of a program generation. No two random draws share
// one function call's arguments (their order would be up to the compiler): programs must
// not depend on it.
#include "funcmodel/int_math.h"
#include "funcmodel/isa_fields.h"
#include "generator.h"
#include "hwspec/array_params.h"

#include <algorithm>

namespace by::fuzzer {

using namespace funcmodel;

bool Generation::gemminiFlag(double p) {
  return options_.gemminiAddressFlags && chance(p);
}

bool Generation::allocOutput(uint64_t span, int align, uint64_t& addr) {
  uint64_t a = outputNext_;
  if (chance(0.15))
    a += uniform(0, 3); // unaligned rows are legal: AXI byte strobes
  else
    a = ceilDiv(a, static_cast<uint64_t>(align)) * static_cast<uint64_t>(align);
  if (a + span > layout_.output.end())
    return false;
  addr = a;
  outputNext_ = a + span;
  return true;
}

bool Generation::placeOperand(bool acc, uint32_t rows, uint32_t stride,
                              const std::vector<Busy>& busy, uint32_t& row) {
  const uint64_t memRows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
  const uint64_t span = uint64_t(rows - 1) * stride + 1;
  if (span > memRows)
    return false;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const uint64_t first = uniform(0, memRows - span);
    const uint64_t last = first + span - 1;
    bool clash = false;
    for (const Busy& b : busy)
      clash = clash || (b.acc == acc && first <= b.last && b.first <= last);
    if (!clash) {
      row = static_cast<uint32_t>(first);
      return true;
    }
  }
  return false;
}

void Generation::pair(bool preloaded, const Operand& bd, const Operand& c, const Operand& a,
                      const Operand& bdCompute, const std::string& what) {
  emit(preload(bd, c), what + ": preload");
  emit(compute(preloaded, a, bdCompute),
       what + (preloaded ? ": compute_preloaded" : ": compute_accumulated"));
}

// --- DMA ------------------------------------------------------------------------------------

uint64_t Generation::maxMvinCols(bool toAcc, bool narrow) const {
  if (!toAcc)
    return uint64_t(p_.maxBlockLen) * uint64_t(p_.spRowElems);
  return narrow ? uint64_t(p_.maxColsAccElems) : uint64_t(p_.maxBlockLenAcc) * uint64_t(p_.dim);
}

void Generation::opMvin() {
  const int ch = uniformInt(0, 2);
  if (chance(0.25))
    emitConfigLd(randomConfigLd(ch), "mvin: channel config");
  const LoadChannel& lc = ld_[ch];
  const uint64_t dim = static_cast<uint64_t>(p_.dim);
  const bool toAcc = chance(0.35);
  const bool narrow = !toAcc || lc.shrink;
  const uint64_t elemBytes = static_cast<uint64_t>(narrow ? p_.inputBytes : p_.accBytes);
  const uint64_t width = toAcc ? dim : static_cast<uint64_t>(p_.spRowElems); // a local row
  uint32_t cols = pickSize(static_cast<uint32_t>(maxMvinCols(toAcc, narrow)));
  uint64_t blocks = ceilDiv(cols, width);
  uint32_t maxRows = static_cast<uint32_t>(chance(0.05) ? 8 * dim : 2 * dim);
  if (blocks > 1) // column blocks must not overlap: rows <= block stride
    maxRows = std::min(maxRows, lc.blockStride);
  uint32_t rows = pickSize(maxRows);
  const uint64_t memRows = static_cast<uint64_t>(toAcc ? p_.accRows : p_.spRows);
  uint64_t span = (blocks - 1) * lc.blockStride + rows;
  if (span > memRows) {
    cols = static_cast<uint32_t>(std::min<uint64_t>(cols, width));
    rows = static_cast<uint32_t>(std::min<uint64_t>(rows, memRows));
    span = rows;
  }
  const uint32_t row = static_cast<uint32_t>(uniform(0, memRows - span));
  // full on an accumulator destination is legal and ignored (Gemmini's acc | full mvins).
  const uint32_t local = toAcc ? accAddr(row, chance(0.4), chance(0.15)) : spAddr(row);

  uint64_t dram = 0; // zero fill unless a source is chosen
  if (!chance(0.12)) {
    const uint64_t rowBytes = cols * elemBytes;
    uint64_t footprint = (rows - 1) * lc.stride + rowBytes;
    if (footprint > layout_.input.size) { // restride the channel so that the rows fit
      ConfigLdArgs a;
      a.channel = ch;
      a.stride = rowBytes;
      a.blockStride = lc.blockStride;
      a.shrink = lc.shrink;
      emitConfigLd(a, "mvin: restride");
      footprint = rows * rowBytes;
    }
    if (footprint <= layout_.input.size) {
      uint64_t offset = uniform(0, layout_.input.size - footprint);
      if (chance(0.7))
        offset -= offset % elemBytes;
      dram = layout_.input.base + offset;
    }
  }
  emit(mvin(ch, dram, local, rows, cols), dram == 0 ? "mvin: zero fill" : "mvin");
}

void Generation::opMvout() {
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t ib = static_cast<uint32_t>(p_.inputBytes);
  const uint32_t ab = static_cast<uint32_t>(p_.accBytes);
  const uint64_t kind = uniform(0, 99);
  uint64_t addr = 0;

  if (kind < 65) { // plain: scratchpad, scaled accumulator, full accumulator
    const bool acc = kind >= 25;
    const bool full = kind >= 50;
    const uint32_t elemBytes = full ? ab : ib;
    const uint32_t width = acc ? dim : static_cast<uint32_t>(p_.spRowElems); // a local row
    uint32_t cols = pickSize(full  ? dim
                             : acc ? static_cast<uint32_t>(p_.maxColsAccElems)
                                   : static_cast<uint32_t>(p_.maxBlockLen) * width);
    uint32_t rows = pickSize(chance(0.05) ? 8 * dim : 2 * dim);
    const uint64_t memRows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
    uint64_t span = (ceilDiv(cols, width) - 1) * dim + rows;
    if (span > memRows) {
      cols = std::min(cols, width);
      rows = static_cast<uint32_t>(std::min<uint64_t>(rows, memRows));
      span = rows;
    }
    const uint32_t row = static_cast<uint32_t>(uniform(0, memRows - span));
    const uint32_t rowBytes = cols * elemBytes;
    // DRAM rows of one mvout must not overlap: stride >= row bytes (unless one row).
    if (st_.pool.pooling() || st_.pool.strided() || (rows > 1 && st_.stride < rowBytes) ||
        chance(0.3))
      emitConfigSt(plainConfigSt(rowBytes), "mvout: config");
    if (!allocOutput(uint64_t(rows - 1) * st_.stride + rowBytes, static_cast<int>(elemBytes), addr))
      return;
    // Gemmini programs mvout from the address they accumulated into: accumulate is ignored.
    const uint32_t local = acc ? accAddr(row, gemminiFlag(0.2), full) : spAddr(row);
    emit(mvout(addr, local, rows, cols), acc ? (full ? "mvout: full" : "mvout: scaled") : "mvout");
    return;
  }

  if (kind < 82) { // max-pooling from the accumulator
    const uint32_t cols = pickSize(dim);
    const PoolConfig& pc = st_.pool;
    const bool reuse = pc.pooling() && pc.size != 0 && pc.porows != 0 && pc.pocols != 0 &&
                       pc.orows * pc.ocols != 0 && pc.outDim >= pc.pocols &&
                       uint64_t(pc.orows) * pc.ocols <= uint64_t(p_.accRows) &&
                       st_.stride >= cols * ib && chance(0.5);
    if (!reuse) {
      ConfigStArgs a;
      a.poolStride = static_cast<uint32_t>(uniform(1, 3));
      a.poolSize = static_cast<uint32_t>(uniform(1, 3));
      const uint32_t maxPad = chance(0.8) ? a.poolSize - 1 : 3;
      a.upad = static_cast<uint32_t>(uniform(0, maxPad));
      a.lpad = static_cast<uint32_t>(uniform(0, maxPad));
      const uint64_t side = std::min<uint64_t>(8, uint64_t(p_.accRows));
      a.orows = static_cast<uint32_t>(uniform(1, side));
      a.ocols = static_cast<uint32_t>(uniform(1, std::min<uint64_t>(8, p_.accRows / a.orows)));
      // Gemmini's pooled size; sometimes anything (windows beyond the image read padding).
      auto pooled = [&](uint32_t in, uint32_t pad) -> uint32_t {
        if (chance(0.2) || in + 2 * pad < a.poolSize)
          return static_cast<uint32_t>(uniform(1, 4));
        return (in + 2 * pad - a.poolSize) / a.poolStride + 1;
      };
      a.porows = pooled(a.orows, a.upad);
      a.pocols = pooled(a.ocols, a.lpad);
      a.poolOutDim = a.pocols + static_cast<uint32_t>(uniform(0, 2));
      a.stride = cols * ib + (chance(0.5) ? 0 : static_cast<uint32_t>(uniform(1, 8)));
      a.activation = chance(0.3) ? hw::isa::kActRelu : hw::isa::kActNone;
      a.accScaleBits = pickScaleBits();
      emitConfigSt(a, "mvout: pooling config");
    }
    const uint64_t pixels = uint64_t(pc.orows) * pc.ocols;
    const uint32_t row = static_cast<uint32_t>(uniform(0, p_.accRows - pixels));
    const uint64_t lastPixel = uint64_t(pc.porows - 1) * pc.outDim + (pc.pocols - 1);
    if (!allocOutput(lastPixel * st_.stride + cols * ib, static_cast<int>(ib), addr))
      return;
    const uint32_t rows = static_cast<uint32_t>(uniform(0, dim)); // ignored by pooling
    emit(mvout(addr, accAddr(row, gemminiFlag(0.2)), rows, cols), "mvout: max-pool");
    return;
  }

  // Strided ("1-D") mvout: pool_stride 0, pool_size != 0.
  const uint64_t source = uniform(0, 2); // scratchpad, scaled accumulator, full accumulator
  const bool acc = source != 0;
  const bool full = source == 2;
  const uint32_t elemBytes = full ? ab : ib;
  const uint32_t cols = pickSize(dim);
  const uint64_t memRows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
  const PoolConfig& pc = st_.pool;
  const bool reuse = pc.strided() && pc.orows * pc.ocols != 0 && pc.outDim >= pc.ocols &&
                     uint64_t(pc.orows) * pc.ocols <= memRows && st_.stride >= cols * elemBytes &&
                     chance(0.5);
  if (!reuse) {
    ConfigStArgs a;
    a.poolSize = static_cast<uint32_t>(uniform(1, 3));
    a.orows = static_cast<uint32_t>(uniform(1, std::min<uint64_t>(8, memRows)));
    a.ocols = static_cast<uint32_t>(uniform(1, std::min<uint64_t>(8, memRows / a.orows)));
    a.poolOutDim = a.ocols + static_cast<uint32_t>(uniform(0, 2));
    if (chance(0.3)) { // pooling-only fields, unused by a strided mvout
      a.upad = static_cast<uint32_t>(uniform(0, 3));
      a.lpad = static_cast<uint32_t>(uniform(0, 3));
      a.porows = static_cast<uint32_t>(uniform(0, 255));
      a.pocols = static_cast<uint32_t>(uniform(0, 255));
    }
    a.stride = cols * elemBytes + (chance(0.5) ? 0 : static_cast<uint32_t>(uniform(1, 8)));
    a.activation = chance(0.3) ? hw::isa::kActRelu : hw::isa::kActNone;
    a.accScaleBits = pickScaleBits();
    emitConfigSt(a, "mvout: strided config");
  }
  const uint64_t pixels = uint64_t(pc.orows) * pc.ocols;
  const uint32_t row = static_cast<uint32_t>(uniform(0, memRows - pixels));
  const uint64_t lastPixel = uint64_t(pc.orows - 1) * pc.outDim + (pc.ocols - 1);
  if (!allocOutput(lastPixel * st_.stride + cols * elemBytes, static_cast<int>(elemBytes), addr))
    return;
  const uint32_t local = acc ? accAddr(row, false, full) : spAddr(row);
  const uint32_t rows = static_cast<uint32_t>(uniform(0, dim)); // ignored
  emit(mvout(addr, local, rows, cols), "mvout: strided");
}

// --- The array ------------------------------------------------------------------------------

Operand Generation::sourceOperand(bool acc, uint32_t rows, uint32_t cols, uint32_t stride,
                                  std::vector<Busy>& busy) {
  Operand op{garbageAddr(), rows, cols};
  uint32_t row;
  if (placeOperand(acc, rows, stride, {}, row)) {
    op.addr = acc ? accAddr(row) : spAddr(row);
    busy.push_back({acc, row, row + uint64_t(rows - 1) * stride});
  }
  return op;
}

// A transposed operand's command gives its logical rows and columns (docs/isa.md, "Transposes").
Operand Generation::logical(Operand stored, bool transposed) {
  if (transposed)
    std::swap(stored.rows, stored.cols);
  return stored;
}

// A (m x k) for a COMPUTE, sometimes GARBAGE; stored transposed (one lane: k rows of m
// elements) under CONFIG_EX's a_transpose, the command giving m x k.
Operand Generation::operandA(uint32_t m, uint32_t k, std::vector<Busy>& busy) {
  const uint32_t rows = ex_.aTranspose ? k : m, cols = ex_.aTranspose ? m : k;
  return logical(chance(0.05) ? Operand{garbageAddr(), rows, cols}
                              : sourceOperand(false, rows, cols, ex_.aStride, busy),
                 ex_.aTranspose);
}

void Generation::useDataflow(int dataflow, const std::string& what) {
  if (ex_.dataflow != dataflow || (hasTransposer() && chance(0.1))) {
    ConfigExArgs a = randomConfigEx(dataflow);
    // Transposes the transposer takes (docs/isa.md "Transposes"): WS A or B; OS A, or A and B.
    if (hasTransposer() && chance(0.3)) {
      const bool b = chance(0.5);
      a.aTranspose = dataflow == hw::kDataflowOS || !b;
      a.bTranspose = b;
    }
    emitConfigEx(a, what + ": config_ex");
  } else if (chance(0.15)) {
    ConfigExArgs a = randomConfigEx(dataflow);
    a.setOnlyStrides = true;
    emitConfigEx(a, what + ": strides");
  }
}

void Generation::opMatmulWs() {
  if (!p_.hasWs) {
    opMatmulOs();
    return;
  }
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t spWidth = static_cast<uint32_t>(p_.spRowElems);
  useDataflow(hw::kDataflowWS, "ws");
  const int pairs = uniformInt(1, 4);
  for (int t = 0; t < pairs; ++t) {
    const bool accumulated = arrayValid_ && chance(t == 0 ? 0.3 : 0.5);
    // A: m x k, k <= DIM*lanes; W lane-packed: ceil(k/lanes) rows of n*lanes elements.
    const uint32_t m = pickSize(dim), k = pickSize(spWidth), n = pickSize(dim);
    std::vector<Busy> busy; // rows this pair reads: C must avoid them
    const Operand a = operandA(m, k, busy);
    uint32_t wRows = chance(0.8) ? packedRows(k) : pickSize(dim);
    uint32_t wCols = packedCols(n);
    if (ex_.bTranspose) // stored transposed (one lane): n rows of k elements
      std::swap(wRows, wCols);
    const bool wGarbage = accumulated ? chance(0.8) : chance(0.1); // ignored when accumulated
    const Operand w = logical(wGarbage ? Operand{garbageAddr(), wRows, wCols}
                                       : sourceOperand(false, wRows, wCols, 1, busy),
                              ex_.bTranspose);
    const uint32_t dRows = chance(0.8) ? m : pickSize(dim);
    const uint32_t dCols = chance(0.8) ? n : pickSize(dim);
    const uint64_t dKind = uniform(0, 99);
    const Operand d = dKind < 50 ? Operand{garbageAddr(), dRows, dCols}
                                 : sourceOperand(dKind >= 75, dRows, dCols, 1, busy);
    Operand c{garbageAddr(), chance(0.8) ? m : static_cast<uint32_t>(uniform(1, m)),
              chance(0.8) ? n : pickSize(dim)};
    const uint64_t cKind = uniform(0, 99);
    uint32_t row;
    if (cKind < 85 && placeOperand(cKind < 60, c.rows, ex_.cStride, busy, row))
      c.addr = cKind < 60 ? accAddr(row, cKind >= 30, gemminiFlag(0.1)) : spAddr(row);
    pair(!accumulated, w, c, a, d, "ws");
    arrayValid_ = true;
  }
}

void Generation::opMatmulOs() {
  if (!p_.hasOs) {
    opMatmulWs();
    return;
  }
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t spWidth = static_cast<uint32_t>(p_.spRowElems);
  useDataflow(hw::kDataflowOS, "os");
  const bool resume = arrayValid_ && chance(0.3); // continue an unfinished accumulation
  const int length = uniformInt(1, 4);
  for (int t = 0; t < length; ++t) {
    const bool preloaded = t == 0 && !resume;
    const bool last = t == length - 1;
    std::vector<Busy> busy; // rows this pair reads: C must avoid them
    // A: m x k, k <= DIM*lanes; B lane-packed: ceil(k/lanes) rows of n*lanes elements.
    const uint32_t m = pickSize(dim), k = pickSize(spWidth), n = pickSize(dim);
    const Operand a = operandA(m, k, busy);
    // B stored transposed (one lane): n rows of k elements; the command gives k x n.
    uint32_t bRows = chance(0.8) ? packedRows(k) : pickSize(dim);
    uint32_t bCols = packedCols(n);
    if (ex_.bTranspose)
      std::swap(bRows, bCols);
    const Operand b = logical(chance(0.05) ? Operand{garbageAddr(), bRows, bCols}
                                           : sourceOperand(false, bRows, bCols, 1, busy),
                              ex_.bTranspose);
    Operand d{garbageAddr(), pickSize(dim), pickSize(dim)};
    const uint64_t dKind = uniform(0, 99);
    if (preloaded ? dKind >= 40 : dKind >= 90) // ignored unless preloaded
      d = sourceOperand(dKind >= 70, d.rows, d.cols, 1, busy);
    Operand c{garbageAddr(), pickSize(dim), pickSize(dim)};
    const uint64_t cKind = uniform(0, 99);
    uint32_t row;
    if (last && cKind < 85 && placeOperand(cKind < 60, c.rows, ex_.cStride, busy, row))
      c.addr = cKind < 60 ? accAddr(row, cKind >= 30, gemminiFlag(0.1)) : spAddr(row);
    pair(preloaded, d, c, a, b, "os");
    arrayValid_ = true;
  }
}

// --- Illegal commands -----------------------------------------------------------------------

ConfigExArgs Generation::legalConfigEx() {
  return randomConfigEx(p_.hasWs ? hw::kDataflowWS : hw::kDataflowOS);
}

// UNKNOWN_FUNCT: a funct no command of this hardware has.
void Generation::illegalUnknownFunct() {
  const IsaFields& f = isaFields();
  std::vector<uint32_t> unused;
  for (uint32_t funct = 0; funct < 128; ++funct) {
    bool used = false;
    for (const hw::isa::Command& c : hw::isa::commands())
      used = used || (static_cast<uint32_t>(c.funct) == funct &&
                      (p_.loopWs || c.queue != hw::isa::Queue::Loop) &&
                      (p_.loopConv || c.queue != hw::isa::Queue::LoopConv));
    if (!used)
      unused.push_back(funct);
  }
  emit(Instruction{unused[uniform(0, unused.size() - 1)], rng_(), rng_()}, "illegal: UNKNOWN_FUNCT",
       f.err.unknownFunct);
}

// UNSUPPORTED: a feature the hardware lacks (transposes, activations, pixel repeats, mvin
// scaling, a dataflow not built, TensorDash's scheduled side).
void Generation::illegalUnsupported() {
  const IsaFields& f = isaFields();
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint64_t v = uniform(0, 7);
  Instruction i;
  if (v == 0 || v == 1) {
    ConfigExArgs a = legalConfigEx();
    if (hasTransposer()) { // two operands for the transposer: WS A and B, OS B without A
      a.dataflow = p_.hasWs && (v == 0 || !p_.hasOs) ? hw::kDataflowWS : hw::kDataflowOS;
      a.bTranspose = true;
      a.aTranspose = a.dataflow == hw::kDataflowWS;
    } else {
      (v == 0 ? a.aTranspose : a.bTranspose) = true;
    }
    i = configEx(a);
  } else if (v == 2) {
    ConfigExArgs a = legalConfigEx();
    a.activation = uniformInt(2, 3);
    i = configEx(a);
  } else if (v == 3) {
    ConfigLdArgs a = randomConfigLd(uniformInt(0, 2));
    a.pixelRepeats = static_cast<uint32_t>(uniform(2, 255));
    i = configLd(a);
  } else if (v == 4) {
    ConfigLdArgs a = randomConfigLd(uniformInt(0, 2));
    a.scaleBits = chance(0.5) ? floatBits(2.0f) : floatBits(0.5f);
    i = configLd(a);
  } else if (v == 5 && p_.hasWs != p_.hasOs) {
    ConfigExArgs a = legalConfigEx();
    a.dataflow = p_.hasWs ? hw::kDataflowOS : hw::kDataflowWS; // not built
    i = configEx(a);
  } else if (v == 7 && !p_.tensordash) {
    ConfigExArgs a = legalConfigEx();
    a.tdSide = 1; // choosing the scheduled operand needs TensorDash
    i = configEx(a);
  } else {
    ConfigStArgs a = plainConfigSt(dim);
    a.activation = uniformInt(2, 3);
    i = configSt(a);
  }
  emit(i, "illegal: UNSUPPORTED", f.err.unsupported);
}

// BAD_SIZE: no rows, no columns, or too many columns (with the range in bounds)
void Generation::illegalBadSize() {
  const IsaFields& f = isaFields();
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const int ch = uniformInt(0, 2);
  const bool acc = chance(0.5);
  const uint32_t local = acc ? accAddr(0) : spAddr(0);
  const uint64_t v = uniform(0, 2);
  const uint64_t width = acc ? dim : static_cast<uint64_t>(p_.spRowElems); // a local row
  const uint64_t maxCols = maxMvinCols(acc, !acc || ld_[ch].shrink);
  const uint64_t memRows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
  const bool tooManyFits =
      maxCols < 0xffff && ceilDiv(maxCols + 1, width) * ld_[ch].blockStride + 1 <= memRows;
  Instruction i;
  if (v == 0)
    i = mvin(ch, 0, local, 0, pickSize(dim));
  else if (v == 1 || !tooManyFits)
    i = mvin(ch, 0, local, 1, 0);
  else
    i = mvin(ch, 0, local, 1, static_cast<uint32_t>(maxCols + 1));
  emit(i, "illegal: BAD_SIZE", f.err.badSize);
}

// BAD_POOL: a pooled mvout from the scratchpad, at full width, or too wide
void Generation::illegalBadPool() {
  const IsaFields& f = isaFields();
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const PoolConfig& pc = st_.pool;
  if (!pc.pooling()) {
    ConfigStArgs a;
    a.poolStride = 1;
    a.poolSize = 2;
    a.orows = 2;
    a.ocols = 2;
    a.porows = 1;
    a.pocols = 1;
    a.poolOutDim = 1;
    a.stride = dim * static_cast<uint32_t>(p_.accBytes);
    a.accScaleBits = hw::isa::kAccScaleKeep;
    emitConfigSt(a, "illegal: BAD_POOL setup (legal)");
  }
  const uint64_t pixels = uint64_t(pc.orows) * pc.ocols;
  const bool spFits = pixels <= uint64_t(p_.spRows);
  const uint64_t v = uniform(0, 2);
  Instruction i;
  if (v == 0 && spFits)
    i = mvout(layout_.output.base, spAddr(0), 1, pickSize(dim));
  else if (v == 1)
    i = mvout(layout_.output.base, accAddr(0, false, true), 1, pickSize(dim));
  else
    i = mvout(layout_.output.base, accAddr(0), 1, dim + static_cast<uint32_t>(uniform(1, 100)));
  emit(i, "illegal: BAD_POOL", f.err.badPool);
}

void Generation::opIllegal(int errorClass) {
  const IsaFields& f = isaFields();
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  switch (errorClass) {
  case 0: // UNKNOWN_FUNCT
    illegalUnknownFunct();
    return;
  case 1: { // BAD_CONFIG_TYPE
    const uint64_t rs1 = rng_();
    const uint64_t rs2 = rng_();
    emit(configRaw(3, rs1, rs2), "illegal: BAD_CONFIG_TYPE", f.err.badConfigType);
    return;
  }
  case 2: // UNSUPPORTED
    illegalUnsupported();
    return;
  case 3: { // LOCAL_RANGE: a zero fill (no DMA) past the end of a memory
    const bool acc = chance(0.5);
    const uint64_t memRows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
    const uint32_t rows = pickSize(dim), cols = pickSize(dim);
    const uint64_t row = chance(0.8) ? memRows - rows + 1 + uniform(0, 64)
                                     : uniform(memRows, (1u << hw::isa::kLocalRowBits) - 1);
    const uint32_t r = static_cast<uint32_t>(row);
    emit(mvin(uniformInt(0, 2), 0, acc ? accAddr(r) : spAddr(r), rows, cols),
         "illegal: LOCAL_RANGE", f.err.localRange);
    return;
  }
  case 4: { // BAD_LOCAL_ADDR
    const uint64_t v = uniform(0, 2);
    const uint32_t local = v == 0   ? garbageAddr()
                           : v == 1 ? spAddr(0) | (1u << hw::isa::kLocalAccumulateBit)
                                    : spAddr(0) | (1u << hw::isa::kLocalFullBit);
    const int ch = uniformInt(0, 2);
    const uint32_t cols = pickSize(dim);
    emit(mvin(ch, 0, local, 1, cols), "illegal: BAD_LOCAL_ADDR", f.err.badLocalAddr);
    return;
  }
  case 5: // BAD_SIZE
    illegalBadSize();
    return;
  case 6: { // BAD_SHIFT
    ConfigExArgs a = legalConfigEx();
    a.inShift =
        static_cast<uint32_t>(chance(0.5) ? p_.accWidth : uniform(p_.accWidth, 0xffffffffu));
    emit(configEx(a), "illegal: BAD_SHIFT", f.err.badShift);
    return;
  }
  case 7: { // UNPAIRED: a COMPUTE without PRELOAD, or a PRELOAD left dangling
    const Operand a{spAddr(0), pickSize(dim), pickSize(dim)};
    const Operand b{garbageAddr(), pickSize(dim), pickSize(dim)};
    if (chance(0.5)) {
      emit(compute(true, a, b), "illegal: UNPAIRED compute", f.err.unpaired);
    } else {
      const Operand c{accAddr(0), 1, pickSize(dim)};
      emit(preload(b, c), "illegal: UNPAIRED dangling preload", f.err.unpaired);
      forceMatmul_ = true; // rejected when the next (execute-queue) command arrives
    }
    return;
  }
  case 8: { // DMA_ERROR: a source beyond 32 bits
    const uint64_t dram = (uint64_t{1} << 32) + uniform(0, 1u << 20);
    const int ch = uniformInt(0, 2);
    const uint32_t rows = pickSize(dim), cols = pickSize(dim);
    emit(mvin(ch, dram, spAddr(0), rows, cols), "illegal: DMA_ERROR", f.err.dmaError);
    return;
  }
  default: // BAD_POOL
    illegalBadPool();
    return;
  }
}

} // namespace by::fuzzer
