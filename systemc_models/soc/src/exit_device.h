// Exit device: a write of the exit code ends the simulation at that access's time.
#pragma once

#include "register_device.h"
#include "run_control.h"

namespace by::soc {

class ExitDevice : public RegisterDevice {
public:
  ExitDevice(const sc_core::sc_module_name& name, const Clock& clock, RunControl& control);

private:
  tlm::tlm_response_status read(uint32_t offset, uint32_t& value,
                                const sc_core::sc_time& now) override;
  tlm::tlm_response_status write(uint32_t offset, uint32_t value,
                                 const sc_core::sc_time& now) override;

  RunControl& control_;
};

} // namespace by::soc
