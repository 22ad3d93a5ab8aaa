#include "funcmodel/registers.h"

#include "hwspec/isa.h"

namespace by::funcmodel {
namespace {

namespace isa = hw::isa;

uint32_t reg(const char* name) {
  return isa::registerOffset(name);
}

/// value placed into field `field` of register `r`.
uint32_t field(const char* r, const char* f, uint32_t value) {
  for (const isa::RegisterField& rf : isa::registerFields())
    if (rf.reg == r && rf.name == f)
      return (value & ((1u << rf.width) - 1u)) << rf.lsb;
  return 0;
}

uint32_t fieldOf(const char* r, const char* f, uint32_t word) {
  for (const isa::RegisterField& rf : isa::registerFields())
    if (rf.reg == r && rf.name == f)
      return (word >> rf.lsb) & ((1u << rf.width) - 1u);
  return 0;
}

} // namespace

FuncRegisters::FuncRegisters(FuncModel& model) : model_(model) {}

uint64_t FuncRegisters::execute(uint32_t funct, uint64_t rs1, uint64_t rs2) {
  const ExecResult r = model_.execute(funct, rs1, rs2);
  ++commandsByFunct_[funct & 127u];
  if (r.accepted)
    ++commandsAccepted_;
  return r.hasRd ? r.rd : 0;
}

uint64_t FuncRegisters::counter64(uint32_t lo) const {
  if (lo == reg("DMA_READ_BYTES_LO"))
    return model_.dramBytesRead() - baseRead_;
  if (lo == reg("DMA_WRITE_BYTES_LO"))
    return model_.dramBytesWritten() - baseWritten_;
  if (lo == reg("COMMANDS_LO"))
    return commandsAccepted_ - baseCommands_;
  return 0; // timing: the functional model has none
}

uint32_t FuncRegisters::read(uint32_t offset) {
  const ModelParams& p = model_.params();
  if (offset == reg("ID"))
    return isa::kIdValue;
  if (offset == reg("VERSION"))
    return isa::kVersion;
  if (offset == reg("STATUS"))
    return field("STATUS", "RESP_VALID", respValid_) |
           field("STATUS", "ERROR_PENDING", model_.error().code != 0);
  if (offset == reg("ERROR"))
    return field("ERROR", "CODE", uint32_t(model_.error().code)) |
           field("ERROR", "FUNCT", uint32_t(model_.error().funct));
  if (offset == reg("ERROR_COUNT"))
    return model_.error().count;
  if (offset == reg("CMD_FUNCT"))
    return cmdFunct_;
  if (offset == reg("RESP_LO"))
    return uint32_t(resp_);
  if (offset == reg("RESP_HI")) {
    respValid_ = false;
    return uint32_t(resp_ >> 32);
  }
  if (offset == reg("HW_DIM"))
    return uint32_t(p.dim);
  if (offset == reg("HW_LANES"))
    return uint32_t(p.lanes);
  if (offset == reg("HW_SP_ROWS"))
    return uint32_t(p.spRows);
  if (offset == reg("HW_ACC_ROWS"))
    return uint32_t(p.accRows);
  if (offset == reg("HW_FEATURES"))
    return field("HW_FEATURES", "WS", p.hasWs) | field("HW_FEATURES", "OS", p.hasOs) |
           field("HW_FEATURES", "TENSORDASH", p.tensordash) |
           field("HW_FEATURES", "BOVEDA", p.boveda) | field("HW_FEATURES", "LOOP_WS", p.loopWs) |
           field("HW_FEATURES", "LOOP_CONV_WS", p.loopConv && p.hasWs) |
           field("HW_FEATURES", "LOOP_CONV_OS", p.loopConv && p.hasOs) |
           field("HW_FEATURES", "TD_SCHEDULE_B", p.tdScheduleB) |
           field("HW_FEATURES", "TRANSPOSER", p.lanes == 1 && !p.tensordash) |
           field("HW_FEATURES", "TABLE", p.table);
  if (offset >= reg("CYCLES_LO") && offset <= reg("SHORT_BEATS_HI")) {
    if ((offset & 4u) == 0) { // LO latches HI
      const uint64_t v = counter64(offset);
      latchedHi_ = uint32_t(v >> 32);
      return uint32_t(v);
    }
    return latchedHi_;
  }
  return 0;
}

void FuncRegisters::write(uint32_t offset, uint32_t value) {
  if (offset == reg("ERROR")) {
    if (fieldOf("ERROR", "CODE", value))
      model_.clearError();
  } else if (offset == reg("CMD_FUNCT")) {
    cmdFunct_ = value & 127u;
  } else if (offset == reg("CMD_RS1_LO")) {
    cmdRs1_ = (cmdRs1_ & ~uint64_t(0xffffffffu)) | value;
  } else if (offset == reg("CMD_RS1_HI")) {
    cmdRs1_ = (cmdRs1_ & 0xffffffffu) | (uint64_t(value) << 32);
  } else if (offset == reg("CMD_RS2_LO")) {
    cmdRs2_ = (cmdRs2_ & ~uint64_t(0xffffffffu)) | value;
  } else if (offset == reg("CMD_RS2_HI")) {
    cmdRs2_ = (cmdRs2_ & 0xffffffffu) | (uint64_t(value) << 32);
  } else if (offset == reg("CMD_PUSH")) {
    const uint64_t rd = execute(cmdFunct_, cmdRs1_, cmdRs2_);
    if (int(cmdFunct_) == isa::kCounterOp) {
      resp_ = rd;
      respValid_ = true;
    }
  } else if (offset == reg("COUNTERS_RESET")) {
    if (value & 1u) {
      baseRead_ = model_.dramBytesRead();
      baseWritten_ = model_.dramBytesWritten();
      baseCommands_ = commandsAccepted_;
    }
  }
}

} // namespace by::funcmodel
