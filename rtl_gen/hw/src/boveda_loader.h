#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See boveda_loader.cpp.
class BovedaLoaderGenerator {
public:
  BovedaLoaderGenerator(const AccelParams& p, const BovedaHwParams& boveda)
      : p_(p), boveda_(boveda) {}
  vlog::Module build() const;

private:
  AccelParams p_;
  BovedaHwParams boveda_;
};

} // namespace by::hw
