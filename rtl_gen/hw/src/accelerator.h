#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See accelerator.cpp.
class AcceleratorGenerator {
public:
  explicit AcceleratorGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
