#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_frontend.cpp.
class TdFrontendGenerator {
public:
  explicit TdFrontendGenerator(const ArrayParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

} // namespace by::hw
