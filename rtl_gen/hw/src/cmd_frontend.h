#pragma once

#include "hw/generators.h"
#include "isa_fields.h"
#include "state_regs.h"

namespace by::hw {

/// Performance-counter events fed into the frontend, in the order of the 64-bit counter
/// registers (the ISA table's *_LO/_HI registers from 0x100) and the increment width.
struct PerfEvent {
  std::string name; // register base name, e.g. "MACS"
  std::string port; // input port of the frontend, e.g. "ev_macs_i"
  int width;        // increment bits
};
std::vector<PerfEvent> perfEvents(const AccelParams& p);

/// Increment bits of the SRAM access counters (SP_READS ... ACC_WRITES): at most one access
/// per memory client and cycle (up to 6 scratchpad read clients; the accumulator's read
/// clients plus its read-modify-write reads).
constexpr int kAccessBits = 4;

/// See cmd_frontend.cpp.
class CmdFrontendGenerator {
public:
  explicit CmdFrontendGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void commandQueue(vlog::Body& b, StateRegs& regs) const;
  void axiLite(vlog::Body& b, StateRegs& regs) const;
  void errors(vlog::Body& b, StateRegs& regs) const;
  void perfCounters(vlog::Body& b, StateRegs& regs) const;
  void counterFile(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const;
  void readMux(vlog::Body& b) const;
  void nextState(vlog::Stmts& n) const;
  void nextCounters(vlog::Stmts& n) const;

  AccelParams p_;
};

} // namespace by::hw
