#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_frontend.cpp.
class TdFrontendGenerator {
public:
  explicit TdFrontendGenerator(const ArrayParams& p) : p_(p) { initSizes(); }
  vlog::Module build() const;

private:
  void initSizes();
  vlog::Module ports() const;
  void window(vlog::Body& b) const;
  void schedule(vlog::Body& b) const;
  void refillAndBeat(vlog::Body& b) const;
  ArrayParams p_;
  int depth_ = {};
  int lanes_ = {};
  int iw_ = {};
  int rows_ = {};
  int cols_ = {};
  int sb_ = {};
  int groups_ = {};
  int stepA_ = {};
  int stepB_ = {};
  int cntBits_ = {};
  std::string cnt_;
};

} // namespace by::hw
