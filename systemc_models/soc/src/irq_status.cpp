#include "irq_status.h"

#include "soc_core/memory_map.h"

namespace by::soc {

IrqStatus::IrqStatus(const sc_core::sc_module_name& name, const Clock& clock)
    : RegisterDevice(name, clock), accelerator("accelerator") {
  SC_METHOD(countEdge);
  sensitive << accelerator.pos();
  dont_initialize();
}

tlm::tlm_response_status IrqStatus::read(uint32_t offset, uint32_t& value,
                                         const sc_core::sc_time&) {
  if (offset != reg::kIrqPending)
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  value = accelerator.read() ? reg::kIrqPendingAccel : 0;
  return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status IrqStatus::write(uint32_t offset, uint32_t, const sc_core::sc_time&) {
  return offset == reg::kIrqPending ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                    : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

} // namespace by::soc
