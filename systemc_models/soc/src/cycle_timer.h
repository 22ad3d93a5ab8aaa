// Cycle timer: clock cycles since reset as two 32-bit registers. Reading CYCLES_LO latches
// the high word, so LO-then-HI (or one 64-bit load, which the host splits the same way) is
// a consistent 64-bit value.
#pragma once

#include "register_device.h"

namespace by::soc {

class CycleTimer : public RegisterDevice {
public:
  CycleTimer(const sc_core::sc_module_name& name, const Clock& clock);

private:
  tlm::tlm_response_status read(uint32_t offset, uint32_t& value,
                                const sc_core::sc_time& now) override;
  tlm::tlm_response_status write(uint32_t offset, uint32_t value,
                                 const sc_core::sc_time& now) override;

  uint32_t latchedHigh_ = 0;
};

} // namespace by::soc
