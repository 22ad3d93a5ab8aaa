// Named wires for the ISA fields of a command's operands (spec/hw/src/isa.cpp): "<prefix>_<field>"
// = its bits of <vec>rs1_i / <vec>rs2_i, declared on first use, so the RTL names fields instead
// of slicing operands where they are used (and always_comb blocks read whole signals, which
// Icarus needs).
#pragma once

#include "vlog/ir.h"

#include <set>
#include <string>

namespace by::hw {

class IsaFieldWires {
public:
  /// Operands are `<vec>rs1_i` and `<vec>rs2_i` (e.g. vec "cmd_": cmd_rs1_i).
  explicit IsaFieldWires(vlog::Body& b, std::string vec = "cmd_") : b_(b), vec_(std::move(vec)) {}

  /// The wire of field `name` of `command`'s operand `reg` ("rs1"/"rs2").
  std::string operator()(const std::string& prefix, const std::string& command,
                         const std::string& reg, const std::string& name);

  /// The slice "<vec><reg>_i[hi:lo]" itself, for expressions that need no wire.
  std::string slice(const std::string& command, const std::string& reg,
                    const std::string& name) const;

private:
  vlog::Body& b_;
  std::string vec_;
  std::set<std::string> declared_;
};

/// "<vec><reg>_i[hi:lo]": the bits of field `name` of `command`'s operand `reg`.
std::string isaFieldSlice(const std::string& vec, const std::string& command,
                          const std::string& reg, const std::string& name);

/// "ComputePreloaded" from "COMPUTE_PRELOADED" (ISA and register names to RTL constants).
std::string upperCamel(const std::string& name);

} // namespace by::hw
