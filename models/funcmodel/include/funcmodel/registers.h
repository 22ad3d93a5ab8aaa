// The accelerator's control registers (docs/isa.md "Registers") emulated over the functional
// model, as far as an untimed model knows them: ID, VERSION, STATUS (never busy: every
// command executes when it arrives), ERROR / ERROR_COUNT, the CMD_* push path and RESP_*, the
// HW_* identification, COUNTERS_RESET, and the DMA byte and command counters; timing counters
// read 0. Offsets and fields come from the ISA table (hwspec/isa.h). Used by the host build of
// the driver (driver/host) and by the SoC's functional accelerator (`--model func`).
#pragma once

#include "funcmodel/func_model.h"

#include <cstdint>

namespace by::funcmodel {

class FuncRegisters {
public:
  /// `model` must outlive this object.
  explicit FuncRegisters(FuncModel& model);

  /// Executes one command (RoCC or a CMD_PUSH); returns the COUNTER_OP value (else 0).
  uint64_t execute(uint32_t funct, uint64_t rs1, uint64_t rs2);
  uint32_t read(uint32_t offset);
  void write(uint32_t offset, uint32_t value);

  uint64_t commandsAccepted() const { return commandsAccepted_; }
  uint64_t commandsByFunct(uint32_t funct) const { return commandsByFunct_[funct & 127u]; }

private:
  uint64_t counter64(uint32_t loOffset) const;

  FuncModel& model_;
  uint32_t cmdFunct_ = 0;
  uint64_t cmdRs1_ = 0, cmdRs2_ = 0;
  uint64_t resp_ = 0;
  bool respValid_ = false;
  uint32_t latchedHi_ = 0;
  uint64_t commandsAccepted_ = 0;
  uint64_t commandsByFunct_[128] = {};
  uint64_t baseRead_ = 0, baseWritten_ = 0, baseCommands_ = 0; // at COUNTERS_RESET
};

} // namespace by::funcmodel
