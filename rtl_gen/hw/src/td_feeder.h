#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_feeder.cpp.
class TdFeederGenerator {
public:
  explicit TdFeederGenerator(const AccelParams& p) : p_(p) { initSizes(); }
  vlog::Module build() const;

private:
  void initSizes();
  vlog::Module ports() const;
  void jobSlots(vlog::Body& b) const;
  void aFiller(vlog::Body& b) const;
  void bFiller(vlog::Body& b) const;
  void bFifo(vlog::Body& b) const;
  void offers(vlog::Body& b) const;
  void retirement(vlog::Body& b) const;
  void state(vlog::Body& b) const;
  struct SlotField {
    std::string name;
    int width;
    std::string input;
  };
  std::string field(const std::string& name, const std::string& idx) const;
  std::string ringAdd(const std::string& a, const std::string& bExpr) const;
  std::string job(int j) const;

  AccelParams p_;
  int dp_ = {};
  int reach_ = {};
  int jobs_ = {};
  int jb_ = {};
  int db_ = {};
  int words_ = {};
  int rw_ = {};
  int eb_ = {};
  int rb_ = {};
  int fifo_ = {};
  int ib_ = {};
  int cb_ = {};
  int xb_ = {};
  int fcb_ = {};
  int fib_ = {};
  int slotBits_ = {};
  std::string x_;
  std::vector<SlotField> fields_;
};

} // namespace by::hw
