#pragma once

#include "hw/generators.h"
#include "isa_fields.h"
#include "state_regs.h"

namespace by::hw {

/// See loop_conv.cpp.
class LoopConvGenerator {
public:
  explicit LoopConvGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void localParams(vlog::Body& b) const;
  void configRegs(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const;
  void geometry(vlog::Body& b) const;
  void check(vlog::Body& b, IsaFieldWires& f) const;
  void commands(vlog::Body& b) const;
  void dramAddress(vlog::Body& b) const;
  void localRows(vlog::Body& b) const;
  void loopStart(vlog::Body& b) const;
  void commandMux(vlog::Body& b) const;
  int rowBits() const; // RowBits: a row of the scratchpad or the accumulator
  void nextConfig(vlog::Stmts& n) const;
  void nextSequence(vlog::Stmts& n) const;
  // Boveda: the loop may read compressed weights (weights_compressed).
  bool boveda() const { return p_.config.boveda.enabled; }
  // The LOOP_WS unroller sits in front: its moves' block strides come through.
  bool wsInFront() const { return p_.config.loops.ws; }
  // The depthwise mode on vector PEs: the OS loop's computes read A at a column offset
  // (cmd_astep_o), which only the TensorDash feeder takes.
  // (A block of DIM channels must then be whole lane groups: DIM >= lanes.)
  bool depthwiseSteps() const {
    return p_.lanes > 1 && p_.config.tensordash.enabled && p_.dim >= p_.lanes;
  }

  AccelParams p_;
};

} // namespace by::hw
