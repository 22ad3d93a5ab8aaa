// The Verilated accelerator in the SoC: an sc_module implementing AcceleratorDevice around a
// model library (model_abi.h), with
//   - the AXI4 master port served by AxiSlaveBridge (bursts -> TLM -> router -> DRAM),
//   - the control socket driven through the AXI4-Lite slave by axi::LiteMaster (one 32-bit
//     register access per TLM transaction),
//   - RoCC commands on cmd_*/resp_* with valid/ready back-pressure,
//   - the interrupt line, and axi::Checker / axi::LiteChecker on both buses in every cycle
//     (the first violation ends the run as a guest fault).
//
// Time: the model is advanced on the host CPU's thread, lazily. It keeps its own cycle count;
// whenever the host calls it (rocc, waitIdle, a register access, hostSync at each quantum
// boundary) it first clocks itself up to the host's time, one clock cycle per call of the
// library, then serves the call in further cycles and returns the time it finished as the
// delay annotation. The host is never behind the model, and SystemC time never passes the
// model while it is behind (the host only yields after hostSync), so DRAM transactions are
// never issued in the past and the results do not depend on the quantum. No SystemC context
// switch happens per cycle. Long waits (a fence on a busy accelerator) wait() once per quantum
// so that the rest of the SoC (the --max-cycles watchdog) keeps running.
//
// Clock gating: once two consecutive cycles had nothing on any input and the accelerator was
// idle on every output, its state cannot change but for the free-running CYCLES counter, so
// catching up over such a stretch skips the clock altogether. This is what makes a host that
// computes for millions of cycles cost nothing on the RTL side.
#pragma once

#include "axi/axi_checker.h"
#include "axi/axi_lite.h"
#include "axi_slave_bridge.h"
#include "model_library.h"
#include "rtlmodel/rtl_accelerator.h"
#include "soc/accelerator.h"

#include <functional>
#include <memory>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace by::rtlmodel {

class RtlAccelerator : public sc_core::sc_module, public soc::AcceleratorDevice {
public:
  tlm_utils::simple_target_socket<RtlAccelerator> control;
  tlm_utils::simple_initiator_socket<RtlAccelerator> dma;
  sc_core::sc_out<bool> irq;

  RtlAccelerator(const sc_core::sc_module_name& name, const config::Config& config,
                 const RtlOptions& options);
  ~RtlAccelerator() override;

  std::string modelKind() const override { return "rtl"; }
  tlm::tlm_target_socket<>& controlSocket() override { return control; }
  tlm::tlm_initiator_socket<>& dmaSocket() override { return dma; }
  sc_core::sc_out<bool>& interruptPort() override { return irq; }
  uint64_t rocc(const soc::RoccCommand& command, sc_core::sc_time& delay) override;
  void waitIdle(sc_core::sc_time& delay) override;
  void hostSync(const sc_core::sc_time& delay) override;
  std::vector<soc::AcceleratorCounter> counters() const override;
  soc::ModelActivity activity() const override;

private:
  /// Cycles without any activity on the ports while something is pending that count as a
  /// hang of the RTL (far beyond the longest quiet stretch of a working accelerator).
  static constexpr uint64_t kHangCycles = 1'000'000;

  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  void end_of_simulation() override;

  /// Runs the reset sequence (before time 0).
  void reset();
  /// One clock cycle: bus models drive, the model evaluates, checkers observe, handshakes.
  void clock();
  /// Clocks (or skips, when gated) up to the cycle that contains sc_time_stamp() + delay.
  void catchUp(const sc_core::sc_time& delay);
  /// Clocks until `done()`; `what` names the wait in a hang report.
  void clockUntil(const char* what, const std::function<bool()>& done);
  /// Nothing on the inputs or outputs for two cycles: the clock may be gated.
  bool quiet() const { return quietRun_ >= 2; }
  /// Ends a host call: the host continues at the model's time (never earlier than it came).
  void finishCall(sc_core::sc_time& delay, const sc_core::sc_time& arrived);
  /// A 32-bit register access over AXI4-Lite; false if the slave answered an error.
  bool registerAccess(bool write, uint32_t offset, uint32_t& data);
  void publishIrq();
  void checkProtocol();
  uint64_t nowCycle(const sc_core::sc_time& delay) const;
  sc_core::sc_time cycleTime() const;

  const uint64_t periodPs_;
  uint64_t syncCycles_ = 1000; // the global quantum in cycles (waits in long loops)
  std::unique_ptr<ModelLibrary> library_;
  std::unique_ptr<ModelInstance> model_;
  Ports ports_;
  AxiSlaveBridge bridge_;
  axi::LiteMaster lite_;
  axi::Checker axiChecker_;
  axi::LiteChecker liteChecker_;
  const bool gating_;
  bool tracing_ = false;
  uint64_t traceFirst_ = 0, traceLast_ = 0;

  uint64_t cycle_ = 0; // clock cycles since time 0 (clocked or gated)
  uint64_t clockedCycles_ = 0;
  double wallSeconds_ = 0;
  int quietRun_ = 0;          // consecutive quiet cycles
  uint64_t lastActivity_ = 0; // last cycle with progress (hang check)
  bool lastBusy_ = false;
  bool ending_ = false; // end of simulation: clock without wait()
  bool irqPublished_ = false;
  bool irqDelta_ = false; // the irq signal changed: let a delta pass before the host reads it
  std::string waitingFor_;
  bool responsePending_ = false;
  uint64_t response_ = 0;

  uint64_t roccCommands_ = 0, roccResponses_ = 0, registerReads_ = 0, registerWrites_ = 0;
  uint64_t checkedViolations_ = 0;
  std::vector<soc::AcceleratorCounter> rtlCounters_; // read at the end of the simulation
};

} // namespace by::rtlmodel
