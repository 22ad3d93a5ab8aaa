#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_scheduler.cpp.
class TdSchedulerGenerator {
public:
  explicit TdSchedulerGenerator(const ArrayParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

} // namespace by::hw
