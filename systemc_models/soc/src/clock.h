// The SoC clock: one period for the host CPU, the bus devices, the DRAM model and the
// accelerator. Times are whole picoseconds (SystemC's default resolution); the period is
// 1e6 / clock_mhz rounded to the nearest picosecond (333 MHz -> 3003 ps).
#pragma once

#include <cstdint>
#include <systemc>

namespace by::soc {

class Clock {
public:
  explicit Clock(int mhz);

  int mhz() const { return mhz_; }
  uint64_t periodPs() const { return periodPs_; }
  sc_core::sc_time period() const { return picoseconds(periodPs_); }
  sc_core::sc_time cycles(uint64_t n) const { return picoseconds(n * periodPs_); }
  /// Whole cycles elapsed at time `t` (rounded down).
  uint64_t cyclesAt(const sc_core::sc_time& t) const { return toPs(t) / periodPs_; }
  /// The first clock edge at or after `t`.
  sc_core::sc_time edgeAtOrAfter(const sc_core::sc_time& t) const;

  static sc_core::sc_time picoseconds(uint64_t ps) { return sc_core::sc_time::from_value(ps); }
  static uint64_t toPs(const sc_core::sc_time& t) { return t.value(); }

private:
  int mhz_;
  uint64_t periodPs_;
};

} // namespace by::soc
