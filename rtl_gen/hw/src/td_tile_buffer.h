#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See td_tile_buffer.cpp.
class TdTileBufferGenerator {
public:
  explicit TdTileBufferGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
