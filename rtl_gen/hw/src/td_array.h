#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_array.cpp.
class TdArrayGenerator {
public:
  explicit TdArrayGenerator(const ArrayParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

} // namespace by::hw
