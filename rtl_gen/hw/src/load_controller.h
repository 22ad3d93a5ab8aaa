#pragma once

#include "hw/generators.h"
#include "packed_layout.h"
#include "state_regs.h"

namespace by::hw {

/// See load_controller.cpp.
class LoadControllerGenerator {
public:
  explicit LoadControllerGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void current(vlog::Body& b, StateRegs& regs) const;
  void requestTable(vlog::Body& b, StateRegs& regs) const;
  void issue(vlog::Body& b) const;
  void writeBack(vlog::Body& b, StateRegs& regs) const;
  void memoryWrites(vlog::Body& b) const;
  void completion(vlog::Body& b) const;
  void nextState(vlog::Stmts& n) const;
  void storeRequests(vlog::Body& b) const;

  AccelParams p_;
  PackedLayout ld_;
  int reqSlots_;
};

} // namespace by::hw
