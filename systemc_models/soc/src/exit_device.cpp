#include "exit_device.h"

#include "soc_core/memory_map.h"

namespace by::soc {

ExitDevice::ExitDevice(const sc_core::sc_module_name& name, const Clock& clock, RunControl& control)
    : RegisterDevice(name, clock), control_(control) {}

tlm::tlm_response_status ExitDevice::read(uint32_t offset, uint32_t&, const sc_core::sc_time&) {
  return offset == reg::kExitCode ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                  : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

tlm::tlm_response_status ExitDevice::write(uint32_t offset, uint32_t value,
                                           const sc_core::sc_time& now) {
  if (offset != reg::kExitCode)
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  control_.end(SimEnd::Exit, static_cast<int>(value), "", now);
  return tlm::TLM_OK_RESPONSE;
}

} // namespace by::soc
