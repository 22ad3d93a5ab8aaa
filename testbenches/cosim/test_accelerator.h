// A small accelerator model for the SoC tests (registers and commands: test_accel.h). It
// exercises every part of the AcceleratorDevice interface and logs what it receives so the
// tests can compare the platform's decoding with expectations written in the test:
//   control registers  ID, scratch, DMA length, IRQ clear, command count
//   RoCC               echo commands answered at once; queued commands with back-pressure
//                      (a worker thread takes TA_QUEUED_CYCLES each); a DMA copy through
//                      the DMA socket that raises the interrupt; sleep; a command that
//                      never completes
//   waitIdle           until the queue is empty and the worker idle
#pragma once

#include "soc/accelerator.h"

#include <cstdint>
#include <deque>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace by::test {

class TestAccelerator : public sc_core::sc_module, public soc::AcceleratorDevice {
public:
  tlm_utils::simple_target_socket<TestAccelerator> control;
  tlm_utils::simple_initiator_socket<TestAccelerator> dma;
  sc_core::sc_out<bool> irq;

  /// `log` receives one line per RoCC command and control-register access.
  TestAccelerator(const sc_core::sc_module_name& name, sc_core::sc_time clockPeriod,
                  std::vector<std::string>& log);

  std::string modelKind() const override { return "test"; }
  tlm::tlm_target_socket<>& controlSocket() override { return control; }
  tlm::tlm_initiator_socket<>& dmaSocket() override { return dma; }
  sc_core::sc_out<bool>& interruptPort() override { return irq; }
  uint64_t rocc(const soc::RoccCommand& command, sc_core::sc_time& delay) override;
  void waitIdle(sc_core::sc_time& delay) override;
  std::vector<soc::AcceleratorCounter> counters() const override;

private:
  SC_HAS_PROCESS(TestAccelerator);

  struct Job {
    uint32_t funct7;
    uint64_t rs1, rs2;
  };
  void worker();
  void copy(uint64_t from, uint64_t to, uint32_t length);
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  const sc_core::sc_time period_;
  std::vector<std::string>& log_;
  std::deque<Job> queue_;
  bool working_ = false;
  sc_core::sc_event queued_, dequeued_, idle_, never_;
  uint32_t scratch_[4] = {};
  uint32_t dmaLength_ = 0;
  uint64_t commands_ = 0, queueFullStalls_ = 0, stallCycles_ = 0, dmaBytes_ = 0;
};

} // namespace by::test
