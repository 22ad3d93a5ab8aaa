#pragma once

#include "hw/generators.h"
#include "packed_layout.h"
#include "state_regs.h"

namespace by::hw {

/// See reservation_station.cpp.
class ReservationStationGenerator {
public:
  explicit ReservationStationGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void ports(vlog::Module& m) const;
  void conflicts(vlog::Body& b) const;
  void queues(vlog::Body& b) const;
  void status(vlog::Body& b) const;

  AccelParams p_;
  PackedLayout range_;
};

} // namespace by::hw
