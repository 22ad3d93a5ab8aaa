#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See cmd_frontend.cpp.
class CmdFrontendGenerator {
public:
  explicit CmdFrontendGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

/// Performance-counter events fed into the frontend, in the order of the 64-bit counter
/// registers (the ISA table's *_LO/_HI registers from 0x100) and the increment width.
struct PerfEvent {
  std::string name; // register base name, e.g. "MACS"
  std::string port; // input port of the frontend, e.g. "ev_macs_i"
  int width;        // increment bits
};
std::vector<PerfEvent> perfEvents(const AccelParams& p);

} // namespace by::hw
