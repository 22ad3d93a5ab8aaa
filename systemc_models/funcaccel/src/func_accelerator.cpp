#include "funcaccel/func_accelerator.h"

#include "funcmodel/func_model.h"
#include "funcmodel/registers.h"

#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace by::funcaccel {
namespace {

class FuncAccelerator;

/// The functional model's DRAM: the SoC's, through the DMA socket's debug transport.
class SocDram : public funcmodel::DramPort {
public:
  explicit SocDram(tlm_utils::simple_initiator_socket<FuncAccelerator>& socket) : socket_(socket) {}
  bool read(uint64_t addr, uint8_t* dst, size_t n) override {
    return transfer(tlm::TLM_READ_COMMAND, addr, dst, n);
  }
  bool write(uint64_t addr, const uint8_t* src, size_t n) override {
    return transfer(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(src), n);
  }

private:
  bool transfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t n) {
    if (n == 0)
      return true;
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(unsigned(n));
    p.set_streaming_width(unsigned(n));
    return socket_->transport_dbg(p) == n;
  }
  tlm_utils::simple_initiator_socket<FuncAccelerator>& socket_;
};

class FuncAccelerator : public sc_core::sc_module, public soc::AcceleratorDevice {
public:
  tlm_utils::simple_target_socket<FuncAccelerator> control;
  tlm_utils::simple_initiator_socket<FuncAccelerator> dma;
  sc_core::sc_out<bool> irq;

  FuncAccelerator(const sc_core::sc_module_name& name, const config::Config& config)
      : sc_module(name), control("control"), dma("dma"), irq("irq"), dram_(dma),
        model_(config, dram_), regs_(model_) {
    control.register_b_transport(this, &FuncAccelerator::b_transport);
  }

  std::string modelKind() const override { return "func"; }
  tlm::tlm_target_socket<>& controlSocket() override { return control; }
  tlm::tlm_initiator_socket<>& dmaSocket() override { return dma; }
  sc_core::sc_out<bool>& interruptPort() override { return irq; }

  uint64_t rocc(const soc::RoccCommand& c, sc_core::sc_time&) override {
    return regs_.execute(c.funct7, c.rs1Value, c.rs2Value);
  }
  void waitIdle(sc_core::sc_time&) override {}

  std::vector<soc::AcceleratorCounter> counters() const override {
    return {{"commands", regs_.commandsAccepted()},
            {"dma_read_bytes", model_.dramBytesRead()},
            {"dma_write_bytes", model_.dramBytesWritten()},
            {"errors", model_.error().count}};
  }

private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    if (p.get_data_length() != 4 || (p.get_address() & 3u) != 0) {
      p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    uint32_t v = 0;
    if (p.is_read()) {
      v = regs_.read(uint32_t(p.get_address()));
      std::memcpy(p.get_data_ptr(), &v, 4);
    } else {
      std::memcpy(&v, p.get_data_ptr(), 4);
      regs_.write(uint32_t(p.get_address()), v);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  SocDram dram_;
  funcmodel::FuncModel model_;
  funcmodel::FuncRegisters regs_;
};

} // namespace

soc::AcceleratorFactory funcAcceleratorFactory() {
  return [](const config::Config& config) -> std::unique_ptr<soc::AcceleratorDevice> {
    return std::make_unique<FuncAccelerator>("accelerator", config);
  };
}

} // namespace by::funcaccel
