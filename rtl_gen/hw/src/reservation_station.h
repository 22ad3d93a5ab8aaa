#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See reservation_station.cpp.
class ReservationStationGenerator {
public:
  explicit ReservationStationGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

} // namespace by::hw
