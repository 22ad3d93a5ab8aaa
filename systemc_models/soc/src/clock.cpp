#include "clock.h"

#include <stdexcept>

namespace by::soc {

Clock::Clock(int mhz) : mhz_(mhz) {
  // from_value()/value() below count in units of the time resolution.
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("the SoC models assume SystemC's 1 ps time resolution");
  if (mhz <= 0)
    throw std::invalid_argument("clock frequency must be positive");
  periodPs_ = (1'000'000 + static_cast<uint64_t>(mhz) / 2) / static_cast<uint64_t>(mhz);
}

sc_core::sc_time Clock::edgeAtOrAfter(const sc_core::sc_time& t) const {
  const uint64_t ps = toPs(t);
  return picoseconds((ps + periodPs_ - 1) / periodPs_ * periodPs_);
}

} // namespace by::soc
