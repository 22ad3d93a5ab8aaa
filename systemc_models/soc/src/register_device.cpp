#include "register_device.h"

#include <cstring>

namespace by::soc {

RegisterDevice::RegisterDevice(const sc_core::sc_module_name& name, const Clock& clock)
    : sc_core::sc_module(name), socket("socket"), clock_(clock) {
  socket.register_b_transport(this, &RegisterDevice::b_transport);
}

void RegisterDevice::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  const uint64_t offset = payload.get_address();
  if (payload.get_data_length() != 4 || payload.get_streaming_width() != 4 || offset % 4 != 0) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (payload.get_byte_enable_ptr()) {
    payload.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  delay += clock_.cycles(kAccessCycles);
  const sc_core::sc_time now = sc_core::sc_time_stamp() + delay;
  uint32_t value = 0;
  tlm::tlm_response_status status = tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (payload.is_read()) {
    status = read(static_cast<uint32_t>(offset), value, now);
    std::memcpy(payload.get_data_ptr(), &value, 4);
  } else if (payload.is_write()) {
    std::memcpy(&value, payload.get_data_ptr(), 4);
    status = write(static_cast<uint32_t>(offset), value, now);
  }
  payload.set_response_status(status);
}

} // namespace by::soc
