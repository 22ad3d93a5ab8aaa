#pragma once

#include "hw/generators.h"
#include "packed_layout.h"

namespace by::hw {

/// See accelerator.cpp.
class AcceleratorGenerator {
public:
  explicit AcceleratorGenerator(const AccelParams& p) : p_(p) { initSizes(); }
  vlog::Module build() const;

private:
  void initSizes();
  vlog::Module ports() const;
  void controlWires(vlog::Body& b) const;
  void memoryAndDmaWires(vlog::Body& b) const;
  void frontendAndDecoder(vlog::Body& b) const;
  void computeMerger(vlog::Body& b) const;
  void loopUnrollers(vlog::Body& b) const;
  void controllers(vlog::Body& b) const;
  void executeMemoriesDma(vlog::Body& b) const;
  void statusAndEvents(vlog::Body& b) const;
  AccelParams p_;
  DmaParams dma_;
  PackedLayout range_;
  int payload_ = {};
  int rangesWidth_ = {};
  int lenBits_ = {};
  int idBits_ = {};
  int spRow_ = {};
  int accRow_ = {};
  int byteBits_ = {};
  bool boveda_ = {};
  bool td_ = {};
  bool loops_ = {}; // loops.ws: the LOOP_WS unroller between frontend and decoder
  bool conv_ = {};  // loops.conv: the LOOP_CONV_WS unroller, after LOOP_WS's
  bool table_ = {}; // activations.table: the mvout's function table
  std::vector<std::string> spReads_;
};

} // namespace by::hw
