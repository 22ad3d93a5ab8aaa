// Registers in the _d/_q form of the controllers (docs/architecture.md, "Controller RTL"):
// every register is a flop name_q and its next value name_d. The always_ff block holds only the
// reset values and name_q <= name_d; an always_comb block computes the name_d values, starting
// from "hold" (name_d = name_q), so the next-state logic reads as ordinary combinational code.
//
//   StateRegs regs(body);
//   regs.add("cnt", Type::bits("CntBits"), "'0", "beats issued")
//       .add("state", Type::named("state_e"), "StIdle");
//   vlog::Stmts& n = regs.next(); // always_comb: cnt_d = cnt_q; state_d = state_q; ...
//   n.ifElse("go", [](vlog::Stmts& s) { s.line("cnt_d = cnt_q + 1'b1;"); });
//
// A register without a reset value is a datapath register (always_ff without reset). An array
// register (count) is copied element by element, as Icarus and Yosys need.
#pragma once

#include "vlog/ir.h"

#include <string>
#include <vector>

namespace by::hw {

class StateRegs {
public:
  explicit StateRegs(vlog::Body& body) : body_(body) {}

  /// Declares name_q and name_d (an unpacked array of `count` elements when given, with the
  /// mem2reg attribute Yosys needs to keep such arrays in flip-flops).
  StateRegs& add(const std::string& name, const vlog::Type& type, const std::string& reset,
                 const std::string& comment = "", const std::string& count = "");

  /// Declares name_q and name_d of a register whose next value the caller drives itself (an
  /// assign of name_d): the flops load it, the always_comb block leaves it alone.
  StateRegs& addDriven(const std::string& name, const vlog::Type& type, const std::string& reset,
                       const std::string& comment = "");

  /// Emits the flops and the always_comb block of the next values, with every name_d = name_q
  /// written first, and returns that block for the caller to fill. Call once, after add().
  vlog::Stmts& next();

private:
  struct Reg {
    std::string name, reset, count;
    bool driven = false; // the caller drives name_d
  };
  vlog::Body& body_;
  std::vector<Reg> regs_;
  bool emitted_ = false;
};

} // namespace by::hw
