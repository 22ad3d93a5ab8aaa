#pragma once

#include "hw/generators.h"
#include "packed_layout.h"
#include "state_regs.h"

namespace by::hw {

/// See boveda_loader.cpp.
class BovedaLoaderGenerator {
public:
  BovedaLoaderGenerator(const AccelParams& p, const BovedaHwParams& boveda);
  vlog::Module build() const;

private:
  vlog::Module ports() const;
  void localParams(vlog::Body& b, StateRegs& regs) const;
  void routing(vlog::Body& b, StateRegs& regs) const;
  void operationQueue(vlog::Body& b, StateRegs& regs) const;
  void pointerLines(vlog::Body& b, StateRegs& regs) const;
  void pointerEntries(vlog::Body& b, StateRegs& regs) const;
  void containerReads(vlog::Body& b, StateRegs& regs) const;
  void decompressor(vlog::Body& b, StateRegs& regs) const;
  void writer(vlog::Body& b, StateRegs& regs) const;
  void completion(vlog::Body& b, StateRegs& regs) const;
  void nextState(vlog::Stmts& n) const;
  void nextFeed(vlog::Stmts& n) const;
  void storage(vlog::Body& b) const;
  std::string entry(const std::string& idx) const;
  std::string pending(const std::string& idx) const;
  std::string known(const std::string& idx) const;

  AccelParams p_;
  BovedaHwParams boveda_;
  PackedLayout ld_;
  int payload_, rob_, robBits_, dataBits_, wordsPerEntry_, wordBits_, lenBits_, spRow_;
  int maxGroupBits_, tagBits_, rowsPerContainer_, kOps_, opBits_, kLines_, lineBits_;
  int lineBytes_, lineLog_, lineAddrBits_, wordIdxBits_, pageLineBits_;
  bool onChip_;
};

} // namespace by::hw
