// ProgramGenerator and the parts of a generation that are not DMA or array operations:
// random choices, tracked CONFIG state, initialisation, the final dump, CONFIG_EX and
// COUNTER_OP operations.
#include "fuzzer/program_generator.h"

#include "funcmodel/int_math.h"
#include "funcmodel/isa_fields.h"
#include "generator.h"
#include "hwspec/array_params.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace by::fuzzer {

using namespace funcmodel;

namespace {

constexpr uint64_t kRegionAlign = 4096;

uint64_t alignUp(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

void checkRegion(const DramRegion& r, const char* name) {
  if (r.size == 0 || r.base == 0 || r.end() < r.base || r.end() > (uint64_t{1} << 32))
    throw std::invalid_argument(std::string("ProgramGenerator: the ") + name +
                                " region must be non-empty, above address 0 and below 2^32");
}

bool overlap(const DramRegion& a, const DramRegion& b) {
  return a.base < b.end() && b.base < a.end();
}

} // namespace

// --- ProgramGenerator ---------------------------------------------------------------------

ProgramGenerator::ProgramGenerator(const config::Config& config, const DramLayout& layout,
                                   GeneratorOptions options)
    : params_(ModelParams::from(config)), layout_(layout), options_(options) {
  checkRegion(layout.input, "input");
  checkRegion(layout.output, "output");
  checkRegion(layout.dump, "dump");
  if (overlap(layout.input, layout.output) || overlap(layout.input, layout.dump) ||
      overlap(layout.output, layout.dump))
    throw std::invalid_argument("ProgramGenerator: the DRAM regions overlap");
  if (layout.dump.size < dumpBytes(config))
    throw std::invalid_argument("ProgramGenerator: the dump region needs " +
                                std::to_string(dumpBytes(config)) + " bytes");
  if (options.operations < 0 || !(options.illegalFraction >= 0 && options.illegalFraction <= 1))
    throw std::invalid_argument("ProgramGenerator: bad options");
}

GeneratedProgram ProgramGenerator::generate(uint64_t seed) const {
  return Generation(params_, layout_, options_, seed).run();
}

uint64_t ProgramGenerator::dumpBytes(const config::Config& config) {
  const ModelParams p = ModelParams::from(config);
  return uint64_t(p.spRows) * p.spRowElems * p.inputBytes +
         uint64_t(p.accRows) * p.dim * p.accBytes;
}

uint64_t ProgramGenerator::spDumpAddr(int row) const {
  return layout_.dump.base + uint64_t(row) * params_.spRowElems * params_.inputBytes;
}

uint64_t ProgramGenerator::accDumpAddr(int row) const {
  return spDumpAddr(params_.spRows) + uint64_t(row) * params_.dim * params_.accBytes;
}

DramLayout ProgramGenerator::layoutAt(const config::Config& config, uint64_t base,
                                      uint64_t inputBytes, uint64_t outputBytes) {
  DramLayout l;
  l.input = {base, inputBytes};
  l.output = {alignUp(l.input.end(), kRegionAlign), outputBytes};
  l.dump = {alignUp(l.output.end(), kRegionAlign), dumpBytes(config)};
  return l;
}

// --- Generation: randomness and bookkeeping -------------------------------------------------

Generation::Generation(const ModelParams& params, const DramLayout& layout,
                       const GeneratorOptions& options, uint64_t seed)
    : p_(params), layout_(layout), options_(options), rng_(seed) {
  out_.seed = seed;
  ex_.dataflow = p_.hasWs ? hw::kDataflowWS : hw::kDataflowOS;
  for (LoadChannel& ch : ld_)
    ch.blockStride = static_cast<uint32_t>(p_.dim);
  outputNext_ = layout_.output.base;
  // Every error class once, in a random order, before any repeats.
  illegalOrder_ = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (size_t i = illegalOrder_.size() - 1; i > 0; --i)
    std::swap(illegalOrder_[i], illegalOrder_[uniform(0, i)]);
}

uint64_t Generation::uniform(uint64_t lo, uint64_t hi) {
  if (hi <= lo)
    return lo;
  const uint64_t range = hi - lo + 1; // 0 when the range is all of uint64_t
  const uint64_t r = rng_();
  return range == 0 ? r : lo + r % range; // the modulo bias is irrelevant here
}

bool Generation::chance(double p) {
  return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p;
}

uint32_t Generation::pickSize(uint32_t max) {
  const uint64_t r = uniform(0, 99);
  if (max <= 1 || r < 15)
    return 1;
  if (r < 40)
    return std::min<uint32_t>(static_cast<uint32_t>(p_.dim), max);
  if (r < 55)
    return max;
  return static_cast<uint32_t>(uniform(1, max));
}

uint32_t Generation::packedRows(uint32_t k) const {
  return static_cast<uint32_t>(ceilDiv(k, static_cast<uint64_t>(p_.lanes)));
}

uint32_t Generation::packedCols(uint32_t n) {
  if (p_.lanes == 1) // keeps the programs of lanes = 1 configs as they were
    return n;
  return chance(0.8) ? n * static_cast<uint32_t>(p_.lanes)
                     : pickSize(static_cast<uint32_t>(p_.spRowElems));
}

uint32_t Generation::pickScaleBits() {
  const uint64_t r = uniform(0, 99);
  if (r < 30)
    return floatBits(1.0f);
  if (r < 40)
    return floatBits(0.5f);
  if (r < 45)
    return floatBits(0.25f);
  if (r < 50)
    return floatBits(2.0f);
  if (r < 55)
    return floatBits(1.0f / 3.0f);
  if (r < 70) { // anything in (-16, 16), including the ties of accScale's rounding
    const float m = static_cast<float>(uniform(0, 1u << 24)) / float(1u << 23) - 1.0f;
    return floatBits(std::ldexp(m, static_cast<int>(uniform(0, 12)) - 8));
  }
  if (r < 75)
    return floatBits(1e-3f);
  if (r < 78)
    return floatBits(1e6f);
  if (r < 88)
    return hw::isa::kAccScaleKeep;
  if (r < 91)
    return floatBits(0.0f);
  if (r < 93)
    return floatBits(std::numeric_limits<float>::quiet_NaN());
  if (r < 95)
    return floatBits(std::numeric_limits<float>::infinity());
  if (r < 96)
    return floatBits(-std::numeric_limits<float>::infinity());
  if (r < 97)
    return 1u; // the smallest subnormal
  return floatBits(-1.0f);
}

void Generation::emit(const Instruction& i, const std::string& comment, int expectedError) {
  out_.program.push_back(i);
  out_.comments.push_back(comment);
  out_.expectedError.push_back(expectedError);
}

void Generation::emitConfigEx(const ConfigExArgs& a, const std::string& why) {
  emit(configEx(a), why);
  ex_.aStride = a.aStride == 0 ? 1 : a.aStride;
  ex_.cStride = a.cStride == 0 ? 1 : a.cStride;
  if (a.setOnlyStrides)
    return;
  ex_.dataflow = a.dataflow;
  ex_.activation = a.activation;
  ex_.inShift = a.inShift;
  ex_.aTranspose = a.aTranspose;
  ex_.bTranspose = a.bTranspose;
  arrayValid_ = false;
}

void Generation::emitConfigLd(const ConfigLdArgs& a, const std::string& why) {
  emit(configLd(a), why);
  LoadChannel& ch = ld_[a.channel];
  ch.stride = a.stride;
  ch.blockStride = a.blockStride == 0 ? static_cast<uint32_t>(p_.dim) : a.blockStride;
  ch.shrink = a.shrink;
}

void Generation::emitConfigSt(const ConfigStArgs& a, const std::string& why) {
  emit(configSt(a), why);
  st_.stride = a.stride;
  st_.activation = a.activation;
  if (a.accScaleBits != hw::isa::kAccScaleKeep)
    st_.accScaleBits = a.accScaleBits;
  st_.pool = {a.poolStride, a.poolSize, a.upad,  a.lpad, a.poolOutDim,
              a.porows,     a.pocols,   a.orows, a.ocols};
}

ConfigExArgs Generation::randomConfigEx(int dataflow) {
  ConfigExArgs a;
  a.dataflow = dataflow;
  a.activation = chance(0.3) ? hw::isa::kActRelu : hw::isa::kActNone;
  const uint64_t r = uniform(0, 99);
  const uint64_t maxShift = static_cast<uint64_t>(p_.accWidth) - 1;
  a.inShift = static_cast<uint32_t>(r < 50   ? 0
                                    : r < 85 ? uniform(1, 8)
                                    : r < 95 ? uniform(9, maxShift)
                                             : maxShift);
  const uint32_t strides[] = {0, 1, 1, 1, 2, 3};
  a.aStride = strides[uniform(0, 5)];
  a.cStride = strides[uniform(0, 5)];
  // Fields Brickyard accepts and ignores.
  a.accScaleBits = static_cast<uint32_t>(uniform(0, 0xffffffffu));
  a.relu6Shift = static_cast<uint32_t>(uniform(0, 0xffff));
  if (p_.tensordash) { // only here, so that other configs keep their programs
    a.tdOff = chance(0.25);
    a.tdSide = chance(0.5) ? 1 : 0;
  }
  return a;
}

ConfigLdArgs Generation::randomConfigLd(int channel) {
  ConfigLdArgs a;
  a.channel = channel;
  const uint64_t rowSp = uint64_t(p_.spRowElems) * p_.inputBytes;
  const uint64_t rowAcc = uint64_t(p_.dim) * p_.accBytes;
  const uint64_t r = uniform(0, 99);
  a.stride = r < 10   ? 0
             : r < 40 ? rowSp
             : r < 55 ? rowAcc
             : r < 85 ? uniform(1, 4 * rowAcc)
                      : uniform(1, 4096);
  const uint64_t b = uniform(0, 99);
  a.blockStride = static_cast<uint32_t>(b < 40 ? 0 : b < 60 ? p_.dim : uniform(1, 3 * p_.dim));
  a.shrink = chance(0.3);
  a.scaleBits = chance(0.5) ? 0 : hw::isa::kFloatOne;
  a.pixelRepeats = static_cast<uint32_t>(uniform(0, 1));
  return a;
}

ConfigStArgs Generation::plainConfigSt(uint32_t minStride) {
  ConfigStArgs a;
  a.stride = minStride + (chance(0.4) ? 0 : static_cast<uint32_t>(uniform(1, 16)));
  a.activation = chance(0.3) ? hw::isa::kActRelu : hw::isa::kActNone;
  a.accScaleBits = pickScaleBits();
  return a;
}

// --- Generation: the program ----------------------------------------------------------------

GeneratedProgram Generation::run() {
  initLocalMemories();
  for (int op = 0; op < options_.operations; ++op) {
    if (forceMatmul_) {
      forceMatmul_ = false;
      chance(0.5) ? opMatmulWs() : opMatmulOs();
      continue;
    }
    if (chance(options_.illegalFraction)) {
      opIllegal(illegalOrder_[illegalNext_++ % illegalOrder_.size()]);
      continue;
    }
    // Only Boveda configs draw this (other configs' programs stay as they were).
    if (p_.boveda && chance(0.08)) {
      opCompressed();
      continue;
    }
    if (p_.loopWs && chance(0.06)) {
      opLoopWs();
      continue;
    }
    if (p_.loopConv && chance(0.05)) {
      opLoopConv();
      continue;
    }
    const uint64_t r = uniform(0, 99);
    if (r < 22)
      opMvin();
    else if (r < 40)
      opMvout();
    else if (r < 55)
      opMatmulWs();
    else if (r < 70)
      opMatmulOs();
    else if (r < 76)
      opConfigEx();
    else if (r < 84)
      opCounter();
    else if (r < 87 && p_.table && chance(0.5))
      opConfigTable();
    else if (r < 87)
      emit(flush(), "flush");
    else if (r < 93)
      emitConfigLd(randomConfigLd(uniformInt(0, 2)), "config_ld");
    else
      emitConfigSt(plainConfigSt(static_cast<uint32_t>(uniform(0, 64))), "config_st");
  }
  if (forceMatmul_) // a dangling PRELOAD must be followed by an execute-queue command
    opMatmulWs();
  dumpLocalMemories();
  return std::move(out_);
}

void Generation::initLocalMemories() {
  // Zero-fill every row: hardware SRAMs power up with unknown contents.
  for (int acc = 0; acc < 2; ++acc) {
    const uint64_t rows = static_cast<uint64_t>(acc ? p_.accRows : p_.spRows);
    for (uint64_t row = 0; row < rows;) {
      const uint32_t n =
          static_cast<uint32_t>(std::min<uint64_t>(rows - row, uniform(1, 8 * p_.dim)));
      const uint32_t local =
          acc ? accAddr(static_cast<uint32_t>(row)) : spAddr(static_cast<uint32_t>(row));
      emit(mvin(uniformInt(0, 2), 0, local, n, static_cast<uint32_t>(acc ? p_.dim : p_.spRowElems)),
           "init: zero fill");
      row += n;
    }
  }
}

void Generation::dumpLocalMemories() {
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  ConfigStArgs st;
  const uint32_t spWidth = static_cast<uint32_t>(p_.spRowElems);
  st.stride = spWidth * static_cast<uint32_t>(p_.inputBytes);
  st.accScaleBits = hw::isa::kAccScaleKeep;
  emitConfigSt(st, "dump: scratchpad rows");
  const uint64_t spBytes = uint64_t(p_.spRows) * st.stride;
  for (uint64_t row = 0; row < uint64_t(p_.spRows);) {
    const uint32_t n =
        static_cast<uint32_t>(std::min<uint64_t>(p_.spRows - row, uniform(1, 8 * dim)));
    emit(mvout(layout_.dump.base + row * st.stride, spAddr(static_cast<uint32_t>(row)), n, spWidth),
         "dump: scratchpad");
    row += n;
  }
  st.stride = dim * static_cast<uint32_t>(p_.accBytes);
  emitConfigSt(st, "dump: accumulator rows, full width");
  for (uint64_t row = 0; row < uint64_t(p_.accRows);) {
    const uint32_t n =
        static_cast<uint32_t>(std::min<uint64_t>(p_.accRows - row, uniform(1, 8 * dim)));
    emit(mvout(layout_.dump.base + spBytes + row * st.stride,
               accAddr(static_cast<uint32_t>(row), false, true), n, dim),
         "dump: accumulator");
    row += n;
  }
}

void Generation::opConfigEx() {
  if (chance(0.5)) {
    // Only the strides change; the other fields hold legal values that must be ignored.
    ConfigExArgs a =
        randomConfigEx(p_.hasWs && (!p_.hasOs || chance(0.5)) ? hw::kDataflowWS : hw::kDataflowOS);
    a.setOnlyStrides = true;
    emitConfigEx(a, "config_ex: strides only");
    return;
  }
  const int df = p_.hasWs && (!p_.hasOs || chance(0.5)) ? hw::kDataflowWS : hw::kDataflowOS;
  emitConfigEx(randomConfigEx(df), "config_ex");
}

// CONFIG_TABLE (activations.table): a chunk of random entries, or the enable bit alone; it
// acts in program order, so the MVOUTs around it show whether the hardware keeps that order.
void Generation::opConfigTable() {
  const bool write = chance(0.7);
  emit(configTable(static_cast<uint32_t>(uniform(0, 31)), write, chance(0.5), rng_()),
       write ? "config_table: write a chunk" : "config_table: enable bit");
}

void Generation::opCounter() {
  const auto& events = hw::isa::counterEvents();
  auto pickEvent = [&](bool external, bool bytes) {
    std::vector<int> ids;
    for (const hw::isa::CounterEvent& e : events) {
      const bool isBytes = e.name == "RDMA_BYTES_REC" || e.name == "WDMA_BYTES_SENT";
      if (e.external == external && (!external || isBytes == bytes) && (external || e.id != 0))
        ids.push_back(e.id);
    }
    return ids[uniform(0, ids.size() - 1)];
  };
  CounterOpArgs a;
  a.index = uniformInt(0, kCounters - 1);
  const uint64_t r = uniform(0, 99);
  std::string what;
  if (r < 40) {
    a.configure = true;
    const uint64_t kind = uniform(0, 99);
    if (kind < 50) {
      a.external = true;
      a.event = pickEvent(true, true);
    } else if (kind < 60) {
      a.event = 0; // DISABLE
    } else if (kind < 90) {
      a.event = pickEvent(false, false);
    } else {
      a.external = true;
      a.event = pickEvent(true, false);
    }
    what = "counter: configure";
  } else if (r < 70) {
    what = "counter: read";
  } else if (r < 80) {
    a.snapshot = true;
    what = "counter: snapshot";
  } else if (r < 90) {
    a.snapshotReset = true;
    what = "counter: snapshot reset";
  } else {
    a.reset = true;
    what = "counter: reset";
  }
  emit(counterOp(a), what);
}

} // namespace by::fuzzer
