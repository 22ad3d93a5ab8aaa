#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_feeder.cpp.
class TdFeederGenerator {
public:
  explicit TdFeederGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
