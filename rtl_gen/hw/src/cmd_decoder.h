#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See cmd_decoder.cpp.
class CmdDecoderGenerator {
public:
  explicit CmdDecoderGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
