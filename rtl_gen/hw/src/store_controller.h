#pragma once

#include "hw/generators.h"
#include "packed_layout.h"
#include "state_regs.h"

namespace by::hw {

/// See store_controller.cpp.
class StoreControllerGenerator {
public:
  explicit StoreControllerGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void walk(vlog::Body& b, StateRegs& regs) const;
  void slotIssue(vlog::Body& b, StateRegs& regs) const;
  void returnStage(vlog::Body& b) const;
  void writeQueue(vlog::Body& b) const;
  void dmaRequest(vlog::Body& b, const std::string& queued) const;
  void operations(vlog::Body& b) const;
  void nextState(vlog::Stmts& n) const;
  void nextWalk(vlog::Stmts& n) const;
  void returnRegisters(vlog::Body& b) const;

  AccelParams p_;
  PackedLayout st_;
  bool boveda_, table_;
};

/// Boveda configs: the compressed-MVOUT path (boveda_store.cpp), added to the store
/// controller's body; it uses the controller's ret stage, accept and op-table signals.
void addCompressedStorePath(vlog::Body& b, const AccelParams& p, const BovedaHwParams& h);

} // namespace by::hw
