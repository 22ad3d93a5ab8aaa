#include "uart.h"

#include "soc_core/memory_map.h"

namespace by::soc {

Uart::Uart(const sc_core::sc_module_name& name, const Clock& clock, std::FILE* out)
    : RegisterDevice(name, clock), out_(out) {}

Uart::~Uart() {
  std::fflush(out_);
}

tlm::tlm_response_status Uart::read(uint32_t offset, uint32_t& value, const sc_core::sc_time&) {
  if (offset == reg::kUartStatus) {
    value = reg::kUartStatusTxReady;
    return tlm::TLM_OK_RESPONSE;
  }
  return offset == reg::kUartTxData ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                    : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

tlm::tlm_response_status Uart::write(uint32_t offset, uint32_t value, const sc_core::sc_time&) {
  if (offset != reg::kUartTxData)
    return offset == reg::kUartStatus ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                      : tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const char c = static_cast<char>(value & 0xff);
  std::fputc(c, out_);
  // Line-buffered so that the console interleaves sensibly with the simulator's stderr.
  if (c == '\n')
    std::fflush(out_);
  ++bytes_;
  return tlm::TLM_OK_RESPONSE;
}

} // namespace by::soc
