#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See store_controller.cpp.
class StoreControllerGenerator {
public:
  explicit StoreControllerGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
