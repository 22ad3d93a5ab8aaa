// Base of the small bus devices: 32-bit registers behind a named TLM target socket.
// Accesses must be single, aligned 32-bit words without byte enables; anything else is
// answered with an error response (the host CPU reports it as a guest fault).
#pragma once

#include "clock.h"

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace by::soc {

class RegisterDevice : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<RegisterDevice> socket;

protected:
  /// Every register access costs this many clock cycles (a bus-side register read/write).
  static constexpr uint64_t kAccessCycles = 1;

  RegisterDevice(const sc_core::sc_module_name& name, const Clock& clock);

  /// Reads register `offset`. Returns TLM_OK_RESPONSE, TLM_ADDRESS_ERROR_RESPONSE (no such
  /// register) or TLM_COMMAND_ERROR_RESPONSE (write-only). `now` is the access time.
  virtual tlm::tlm_response_status read(uint32_t offset, uint32_t& value,
                                        const sc_core::sc_time& now) = 0;
  virtual tlm::tlm_response_status write(uint32_t offset, uint32_t value,
                                         const sc_core::sc_time& now) = 0;

  const Clock& clock_;

private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
};

} // namespace by::soc
