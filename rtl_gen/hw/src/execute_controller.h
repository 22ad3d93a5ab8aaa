#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See execute_controller.cpp.
class ExecuteControllerGenerator {
public:
  explicit ExecuteControllerGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
