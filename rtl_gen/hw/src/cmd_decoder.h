#pragma once

#include "hw/generators.h"
#include "isa_fields.h"
#include "packed_layout.h"
#include "state_regs.h"

#include <map>
#include <set>
#include <string>

namespace by::hw {

/// See cmd_decoder.cpp.
class CmdDecoderGenerator {
public:
  explicit CmdDecoderGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void configState(vlog::Body& b, StateRegs& regs) const;
  void commandClass(vlog::Body& b, IsaFieldWires& f) const;
  void localOperands(vlog::Body& b, IsaFieldWires& f) const;
  void mvinChecks(vlog::Body& b, IsaFieldWires& f) const;
  void decompressChecks(vlog::Body& b, IsaFieldWires& f) const;
  void mvoutChecks(vlog::Body& b) const;
  void configChecks(vlog::Body& b, IsaFieldWires& f) const;
  void computeChecks(vlog::Body& b) const;
  void outcome(vlog::Body& b) const;
  void operationOut(vlog::Body& b) const;
  void ranges(vlog::Body& b) const;
  /// The CONFIG fields the next-state logic loads (their wires).
  struct ConfigFields {
    std::string aStride, cStride, exAct, shift, onlyStrides, ws, aT, bT, tdOff, tdSide;
    std::string state, bstride, ldStride, shrink, ldComp;
    std::string stStride, stAct, stScale, stComp;
    std::map<std::string, std::string> pool;
  };
  ConfigFields configFields(IsaFieldWires& f) const;
  void nextState(vlog::Stmts& n, const ConfigFields& c) const;
  void nextConfig(vlog::Stmts& n, const ConfigFields& c) const;

  /// CONFIG_EX td_side = 1 (schedule B) is built (sparsity.tensordash.schedule_b).
  bool tdSideB() const { return td_ && p_.config.tensordash.scheduleB; }
  /// CONFIG_EX's transposes are built: the execute controller's transposer takes any operand
  /// of a one-lane, non-TensorDash array (docs/isa.md, "Transposes").
  bool transposer() const { return !td_ && p_.lanes == 1; }

  AccelParams p_;
  PackedLayout ld_, st_, ex_, range_;
  bool boveda_, td_, onChip_, loops_, conv_, table_;
};

} // namespace by::hw
