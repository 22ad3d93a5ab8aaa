// Interrupt status: the level of the interrupt lines, for the host to poll. Unicorn offers
// no way to inject an external interrupt into the emulated hart, so the lines are not
// delivered as traps; rising edges are counted for the statistics.
#pragma once

#include "register_device.h"

namespace by::soc {

class IrqStatus : public RegisterDevice {
public:
  sc_core::sc_in<bool> accelerator;

  IrqStatus(const sc_core::sc_module_name& name, const Clock& clock);

  uint64_t acceleratorRisingEdges() const { return acceleratorEdges_; }

private:
  SC_HAS_PROCESS(IrqStatus);
  void countEdge() { ++acceleratorEdges_; }

  tlm::tlm_response_status read(uint32_t offset, uint32_t& value,
                                const sc_core::sc_time& now) override;
  tlm::tlm_response_status write(uint32_t offset, uint32_t value,
                                 const sc_core::sc_time& now) override;

  uint64_t acceleratorEdges_ = 0;
};

} // namespace by::soc
