// Console UART: bytes written to TX_DATA go to the simulator's stdout (or another stream).
#pragma once

#include "register_device.h"

#include <cstdio>

namespace by::soc {

class Uart : public RegisterDevice {
public:
  Uart(const sc_core::sc_module_name& name, const Clock& clock, std::FILE* out);
  ~Uart() override;

  uint64_t bytesWritten() const { return bytes_; }

private:
  tlm::tlm_response_status read(uint32_t offset, uint32_t& value,
                                const sc_core::sc_time& now) override;
  tlm::tlm_response_status write(uint32_t offset, uint32_t value,
                                 const sc_core::sc_time& now) override;

  std::FILE* out_;
  uint64_t bytes_ = 0;
};

} // namespace by::soc
