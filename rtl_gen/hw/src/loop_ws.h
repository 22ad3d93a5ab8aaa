#pragma once

#include "hw/generators.h"
#include "isa_fields.h"
#include "state_regs.h"

namespace by::hw {

/// See loop_ws.cpp.
class LoopWsGenerator {
public:
  explicit LoopWsGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void configRegs(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const;
  void check(vlog::Body& b, IsaFieldWires& f) const;
  void iterators(vlog::Body& b) const;
  void commands(vlog::Body& b) const;
  void nextConfig(vlog::Stmts& n) const;
  void nextSequence(vlog::Stmts& n) const;
  void nextLoads(vlog::Stmts& n) const;
  void nextArray(vlog::Stmts& n) const;
  // Boveda: LOOP_WS may move compressed operands (a/b/c_compressed).
  bool boveda() const { return p_.config.boveda.enabled; }

  AccelParams p_;
};

} // namespace by::hw
