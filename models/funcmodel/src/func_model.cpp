// Command dispatch, the error register, and the CONFIG commands.
#include "funcmodel/func_model.h"

#include "counters.h"
#include "funcmodel/isa_fields.h"
#include "funcmodel/loop_conv.h"
#include "funcmodel/loop_ws.h"
#include "hwspec/array_params.h"

#include <algorithm>
#include <stdexcept>

namespace by::funcmodel {

FuncModel::FuncModel(const config::Config& config, DramPort& dram)
    : params_(ModelParams::from(config)), dram_(dram) {
  const size_t dim = static_cast<size_t>(params_.dim);
  state_.sp.assign(static_cast<size_t>(params_.spRows) * params_.spRowElems, 0);
  state_.acc.assign(static_cast<size_t>(params_.accRows) * dim, 0);
  state_.ex.dataflow = params_.hasWs ? hw::kDataflowWS : hw::kDataflowOS;
  for (LoadChannel& ch : state_.ld)
    ch.blockStride = static_cast<uint32_t>(params_.dim);
  state_.array.w.assign(dim * static_cast<size_t>(params_.spRowElems), 0); // K x DIM
  state_.array.p.assign(dim * dim, 0);
  ptrLines_.resize(static_cast<size_t>(hw::isa::kBovedaPtrLines));
  for (size_t i = 0; i < ptrLines_.size(); ++i)
    ptrLines_[i].age = static_cast<int>(i);
}

ExecResult FuncModel::execute(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  ExecResult result;
  const bool isCompute = funct == static_cast<uint32_t>(f.functComputePreloaded) ||
                         funct == static_cast<uint32_t>(f.functComputeAccumulated);
  // A PRELOAD is paired with the command right after it; any other command leaves it
  // dangling, and it is rejected before that command executes.
  if (state_.preload && !isCompute) {
    state_.preload.reset();
    reject(f.err.unpaired, static_cast<uint32_t>(f.functPreload));
    result.preloadRejected = true;
  }

  // Boveda: the pointer lines are invalidated before the next compressed MVIN's lookup.
  if (funct == static_cast<uint32_t>(f.functMvout) ||
      funct == static_cast<uint32_t>(f.functFlush) ||
      (funct == static_cast<uint32_t>(f.functConfig) &&
       static_cast<int>(f.cmdType.extract(rs1)) == f.configLd))
    ptrInvalidate_ = true;

  int error = 0;
  if (funct == static_cast<uint32_t>(f.functConfig)) {
    error = execConfig(rs1, rs2);
  } else if (funct == static_cast<uint32_t>(f.functMvout)) {
    error = execMvout(rs1, rs2);
  } else if (funct == static_cast<uint32_t>(f.functPreload)) {
    error = checkPreload(rs1, rs2);
    if (error == 0)
      state_.preload = PendingPreload{rs1, rs2};
  } else if (isCompute) {
    error = execCompute(funct == static_cast<uint32_t>(f.functComputePreloaded), rs1, rs2);
  } else if (funct == static_cast<uint32_t>(f.functFlush)) {
    // No TLB: nothing to flush.
  } else if (funct == static_cast<uint32_t>(f.functDecompress) && params_.bovedaOnChip) {
    error = execDecompress(rs1, rs2);
  } else if (funct == static_cast<uint32_t>(hw::isa::kConfigTable) && params_.table) {
    execConfigTable(rs1, rs2);
  } else if (params_.loopWs && funct >= static_cast<uint32_t>(hw::isa::kLoopWs) &&
             funct <= static_cast<uint32_t>(hw::isa::kLoopWsConfigStridesDc)) {
    error = execLoopWs(funct, rs1, rs2);
  } else if (params_.loopConv && ((funct >= static_cast<uint32_t>(hw::isa::kLoopConvWs) &&
                                   funct <= static_cast<uint32_t>(hw::isa::kLoopConvWsConfig6)) ||
                                  funct == static_cast<uint32_t>(hw::isa::kLoopConvOs))) {
    error = execLoopConv(funct, rs1, rs2);
  } else if (funct == static_cast<uint32_t>(f.functCounterOp)) {
    result.hasRd = true;
    result.rd = execCounterOp(rs1, result.rdDeterministic);
  } else {
    error = f.err.unknownFunct;
    for (int ch = 0; ch < 3; ++ch)
      if (funct == static_cast<uint32_t>(f.functMvin[ch]))
        error = execMvin(ch, rs1, rs2);
  }
  if (error != 0) {
    reject(error, funct);
    result.accepted = false;
    result.error = error;
  }
  return result;
}

void FuncModel::execConfigTable(uint64_t rs1, uint64_t rs2) {
  const hw::isa::Command& c = hw::isa::command("CONFIG_TABLE");
  StoreConfig& st = state_.st;
  if (c.rs1Field("write").extract(rs1)) {
    const uint64_t chunk = c.rs1Field("chunk").extract(rs1);
    const uint64_t entries = c.rs2Field("entries").extract(rs2);
    for (int k = 0; k < 8; ++k)
      st.table[size_t(chunk * 8 + uint64_t(k))] = int8_t(uint8_t(entries >> (8 * k)));
  }
  st.tableEnabled = c.rs1Field("enable").extract(rs1) != 0;
}

void FuncModel::reject(int code, uint32_t funct) {
  if (error_.code == 0) {
    error_.code = code;
    error_.funct = static_cast<int>(funct & 0x7f); // ERROR[14:8] holds funct7
  }
  ++error_.count;
}

void FuncModel::clearError() {
  error_.code = 0;
  error_.funct = 0;
}

int64_t FuncModel::sp(int row, int col) const {
  if (row < 0 || row >= params_.spRows || col < 0 || col >= params_.spRowElems)
    throw std::out_of_range("FuncModel::sp: element outside the scratchpad");
  return state_.sp[static_cast<size_t>(row) * params_.spRowElems + col];
}

int64_t FuncModel::acc(int row, int col) const {
  if (row < 0 || row >= params_.accRows || col < 0 || col >= params_.dim)
    throw std::out_of_range("FuncModel::acc: element outside the accumulator");
  return state_.acc[static_cast<size_t>(row) * params_.dim + col];
}

int64_t& FuncModel::spAt(uint64_t row, int col) {
  return state_.sp[row * static_cast<uint64_t>(params_.spRowElems) + static_cast<uint64_t>(col)];
}

int64_t& FuncModel::accAt(uint64_t row, int col) {
  return state_.acc[row * static_cast<uint64_t>(params_.dim) + static_cast<uint64_t>(col)];
}

bool FuncModel::dramRead(uint64_t addr, uint8_t* dst, size_t n) {
  if (!dram_.read(addr, dst, n))
    return false;
  bytesRead_ += n;
  countBytes(state_.counters, ByteEvent::DmaRead, n);
  return true;
}

bool FuncModel::dramWrite(uint64_t addr, const uint8_t* src, size_t n) {
  if (!dram_.write(addr, src, n))
    return false;
  bytesWritten_ += n;
  countBytes(state_.counters, ByteEvent::DmaWrite, n);
  return true;
}

int FuncModel::execLoopWs(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  LoopWsState& s = state_.loop;
  auto get = [&](const char* cmd, bool second, const char* name) {
    const hw::isa::Command& c = hw::isa::command(cmd);
    return (second ? c.rs2Field(name) : c.rs1Field(name)).extract(second ? rs2 : rs1);
  };
  switch (funct) {
  case hw::isa::kLoopWsConfigBounds:
    s.maxI = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", true, "I"));
    s.maxJ = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", true, "J"));
    s.maxK = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", true, "K"));
    s.padI = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", false, "pad_I"));
    s.padJ = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", false, "pad_J"));
    s.padK = static_cast<uint32_t>(get("LOOP_WS_CONFIG_BOUNDS", false, "pad_K"));
    return 0;
  case hw::isa::kLoopWsConfigAddrsAb:
    s.a = rs1, s.b = rs2;
    return 0;
  case hw::isa::kLoopWsConfigAddrsDc:
    s.d = rs1, s.c = rs2;
    return 0;
  case hw::isa::kLoopWsConfigStridesAb:
    s.aStride = rs1, s.bStride = rs2;
    return 0;
  case hw::isa::kLoopWsConfigStridesDc:
    s.dStride = rs1, s.cStride = rs2;
    return 0;
  default:
    break;
  }
  const int error = loopWsCheck(params_, state_, rs1, rs2);
  if (error != 0)
    return error;
  // The loop's commands run like host commands (their own checks and errors), in the
  // hardware unroller's order; the next loop uses the other halves.
  const std::vector<Instruction> commands = loopWsUnroll(params_, s, rs1, rs2);
  const LoopWsBlockStrides strides = loopWsBlockStrides(params_, s, rs2);
  s.spHalf ^= 1;
  if (s.c != 0)
    s.accHalf ^= 1;
  runLoopCommands(commands, strides.a, strides.b, strides.d, strides.c);
  return 0;
}

int FuncModel::execLoopConv(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  LoopConvState& s = state_.conv;
  const bool os = funct == static_cast<uint32_t>(hw::isa::kLoopConvOs);
  if (funct != static_cast<uint32_t>(hw::isa::kLoopConvWs) && !os) {
    const size_t n = funct - static_cast<uint32_t>(hw::isa::kLoopConvWsConfig1);
    s.words[2 * n] = rs1, s.words[2 * n + 1] = rs2;
    return 0;
  }
  const int error = loopConvCheck(params_, s, state_, os, rs1, rs2);
  if (error != 0)
    return error;
  const std::vector<Instruction> commands = loopConvUnroll(params_, s, state_.ex, os, rs1, rs2);
  s.spHalf ^= 1;
  if (s.words[9] != 0) // an output address: C leaves, the next loop takes the other half
    s.accHalf ^= 1;
  const LoopConvBlockStrides strides = loopConvBlockStrides(params_, s, rs1);
  runLoopCommands(commands, strides.input, strides.weights, 0, strides.output);
  return 0;
}

void FuncModel::runLoopCommands(const std::vector<Instruction>& commands, uint32_t mvin,
                                uint32_t mvin2, uint32_t mvin3, uint32_t mvout) {
  const uint32_t own[3] = {mvin, mvin2, mvin3};
  uint32_t host[3];
  for (int c = 0; c < 3; ++c) {
    host[c] = state_.ld[c].blockStride;
    if (own[c] != 0)
      state_.ld[c].blockStride = own[c];
  }
  loopMvoutBlockStride_ = mvout;
  for (const Instruction& i : commands)
    execute(i);
  for (int c = 0; c < 3; ++c)
    state_.ld[c].blockStride = host[c];
  loopMvoutBlockStride_ = 0;
}

uint64_t FuncModel::execCounterOp(uint64_t rs1, bool& deterministic) {
  return counterOp(state_.counters, rs1, deterministic);
}

int FuncModel::execConfig(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const int type = static_cast<int>(f.cmdType.extract(rs1));
  if (type == f.configEx)
    return execConfigEx(rs1, rs2);
  if (type == f.configLd)
    return execConfigLd(rs1, rs2);
  if (type == f.configSt)
    return execConfigSt(rs1, rs2);
  return f.err.badConfigType;
}

bool FuncModel::transposesOk(int dataflow, bool aT, bool bT) const {
  if (!aT && !bT)
    return true;
  // One transposer, in the execute path of one-lane, non-TensorDash arrays. It takes A in WS
  // when transposed and in OS when not, and B when transposed: two operands for it are refused.
  if (params_.lanes != 1 || params_.tensordash)
    return false;
  return dataflow == hw::kDataflowWS ? !(aT && bT) : aT;
}

int FuncModel::execConfigEx(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  auto effective = [](uint64_t stride) { return static_cast<uint32_t>(stride == 0 ? 1 : stride); };
  const uint32_t aStride = effective(f.ex.aStride.extract(rs1));
  const uint32_t cStride = effective(f.ex.cStride.extract(rs2));
  // set_only_strides reads nothing but the strides: nothing else rejects it.
  if (f.ex.setOnlyStrides.extract(rs1)) {
    state_.ex.aStride = aStride;
    state_.ex.cStride = cStride;
    return 0;
  }
  const int dataflow = static_cast<int>(f.ex.dataflow.extract(rs1));
  const int activation = static_cast<int>(f.ex.activation.extract(rs1));
  const uint64_t inShift = f.ex.inShift.extract(rs2);
  const int tdSide = static_cast<int>(f.ex.tdSide.extract(rs1));
  const bool aT = f.ex.aTranspose.extract(rs1) != 0, bT = f.ex.bTranspose.extract(rs1) != 0;
  if ((dataflow == hw::kDataflowWS && !params_.hasWs) ||
      (dataflow == hw::kDataflowOS && !params_.hasOs) ||
      (activation != hw::isa::kActNone && activation != hw::isa::kActRelu) ||
      (tdSide != 0 && !params_.tdScheduleB) || !transposesOk(dataflow, aT, bT))
    return f.err.unsupported;
  if (inShift >= static_cast<uint64_t>(params_.accWidth))
    return f.err.badShift;
  state_.ex = {dataflow, activation, static_cast<uint32_t>(inShift),
               aStride,  cStride,    f.ex.tdOff.extract(rs1) != 0,
               tdSide,   aT,         bT};
  // A new execute configuration invalidates the stationary data, discarding an OS
  // accumulation that was not written out.
  state_.array.valid = false;
  std::fill(state_.array.w.begin(), state_.array.w.end(), 0);
  std::fill(state_.array.p.begin(), state_.array.p.end(), 0);
  return 0;
}

int FuncModel::execConfigLd(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const uint64_t channel = f.ld.stateId.extract(rs1);
  const uint64_t scale = f.ld.scale.extract(rs1);
  if (channel >= state_.ld.size() || f.ld.pixelRepeats.extract(rs1) > 1 ||
      (scale != 0 && scale != hw::isa::kFloatOne))
    return f.err.unsupported;
  const bool compressed = f.ld.compressed.extract(rs1) != 0;
  if (compressed && !params_.boveda)
    return f.err.unsupported;
  const uint64_t stride = f.ld.stride.extract(rs2);
  if (stride > 0xffffffffu) // DRAM addresses are 32 bits; so are the DMA's strides
    return f.err.badSize;
  const uint64_t blockStride = f.ld.blockStride.extract(rs1);
  LoadChannel& ch = state_.ld[channel];
  ch.stride = stride;
  ch.blockStride = static_cast<uint32_t>(blockStride == 0 ? params_.dim : blockStride);
  ch.shrink = f.ld.shrink.extract(rs1) != 0;
  ch.compressed = compressed;
  return 0;
}

int FuncModel::execConfigSt(uint64_t rs1, uint64_t rs2) {
  const IsaFields& f = isaFields();
  const int activation = static_cast<int>(f.st.activation.extract(rs1));
  const bool compressed = f.st.compressed.extract(rs1) != 0;
  if ((activation != hw::isa::kActNone && activation != hw::isa::kActRelu) ||
      (compressed && !params_.boveda))
    return f.err.unsupported;
  StoreConfig& st = state_.st;
  st.compressed = compressed;
  if (compressed) // a new compressed stream: its first block goes to container 0
    st.nextContainer = 0;
  st.stride = static_cast<uint32_t>(f.st.stride.extract(rs2));
  st.activation = activation;
  const uint32_t scale = static_cast<uint32_t>(f.st.accScale.extract(rs2));
  if (scale != hw::isa::kAccScaleKeep)
    st.accScaleBits = scale;
  // Pooling parameters are checked by the MVOUT that uses them (BAD_POOL).
  auto get = [&](const Field& field) { return static_cast<uint32_t>(field.extract(rs1)); };
  st.pool = {get(f.st.poolStride), get(f.st.poolSize),   get(f.st.upad),
             get(f.st.lpad),       get(f.st.poolOutDim), get(f.st.porows),
             get(f.st.pocols),     get(f.st.orows),      get(f.st.ocols)};
  return 0;
}

} // namespace by::funcmodel
