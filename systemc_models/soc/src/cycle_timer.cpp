#include "cycle_timer.h"

#include "soc_core/memory_map.h"

namespace by::soc {

CycleTimer::CycleTimer(const sc_core::sc_module_name& name, const Clock& clock)
    : RegisterDevice(name, clock) {}

tlm::tlm_response_status CycleTimer::read(uint32_t offset, uint32_t& value,
                                          const sc_core::sc_time& now) {
  if (offset == reg::kTimerCyclesLo) {
    const uint64_t cycles = clock_.cyclesAt(now);
    latchedHigh_ = static_cast<uint32_t>(cycles >> 32);
    value = static_cast<uint32_t>(cycles);
    return tlm::TLM_OK_RESPONSE;
  }
  if (offset == reg::kTimerCyclesHi) {
    value = latchedHigh_;
    return tlm::TLM_OK_RESPONSE;
  }
  return tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

tlm::tlm_response_status CycleTimer::write(uint32_t offset, uint32_t, const sc_core::sc_time&) {
  return offset == reg::kTimerCyclesLo || offset == reg::kTimerCyclesHi
             ? tlm::TLM_COMMAND_ERROR_RESPONSE
             : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

} // namespace by::soc
