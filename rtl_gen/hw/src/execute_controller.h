#pragma once

#include "hw/generators.h"
#include "packed_layout.h"
#include "state_regs.h"

namespace by::hw {

/// See execute_controller.cpp.
class ExecuteControllerGenerator {
public:
  explicit ExecuteControllerGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void operations(vlog::Body& b, StateRegs& regs) const;
  void intake(vlog::Body& b) const;
  void transposerFill(vlog::Body& b, StateRegs& regs) const;
  void flipState(vlog::Body& b, StateRegs& regs) const;
  void beatSelection(vlog::Body& b) const;
  void reads(vlog::Body& b, StateRegs& regs) const;
  void readClients(vlog::Body& b) const;
  void resultTag(vlog::Body& b) const;
  void planning(vlog::Body& b, StateRegs& regs) const;
  void planFar(vlog::Body& b) const;
  void nextQueue(vlog::Stmts& n) const;
  void stageD(vlog::Body& b) const;
  void operandLanes(vlog::Body& b) const;
  void array(vlog::Body& b) const;
  void writeBack(vlog::Body& b) const;
  void status(vlog::Body& b) const;
  void nextState(vlog::Stmts& n) const;
  void nextOperations(vlog::Stmts& n) const;
  void nextBeat(vlog::Stmts& n) const;
  void nextTables(vlog::Stmts& n) const;
  void stageDRegisters(vlog::Body& b) const;

  AccelParams p_;
  PackedLayout ex_, tag_;
  bool td_;  // OS computes through the TensorDash feeder
  bool tdB_; // ... which may schedule B (the D and C transposers)
  // Operations the controller holds besides the current one: the next (nxt_*) and, without
  // TensorDash, lookahead_-1 more behind it (pre<i>_*), so that a flip is planned far enough
  // ahead for its stationary rows to ride on the compute beats of short operations.
  int lookahead_;
  std::vector<std::pair<std::string, vlog::Type>> drainFields_;
};

} // namespace by::hw
