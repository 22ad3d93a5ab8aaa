#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See load_controller.cpp.
class LoadControllerGenerator {
public:
  explicit LoadControllerGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
