// The accelerator slot of the SoC. An accelerator model (the Verilated RTL in a SystemC
// wrapper, or a fast TLM model) is an sc_module that also implements AcceleratorDevice;
// the platform creates it through an AcceleratorFactory during elaboration and wires it:
//
//   control socket  <- router, window accel_ctrl at 0x1001_0000 (64 KiB, 32-bit registers,
//                      addresses in transactions are offsets into the window)
//   DMA socket      -> router -> DRAM (global addresses; other regions answer address error)
//   interrupt port  -> the irq status register (bit ACCEL)
//   rocc()/waitIdle() <- the host CPU (custom-3 instructions and RISC-V `fence`)
//
// Timing follows TLM-2.0 loosely-timed rules: rocc() and waitIdle() are called from the
// host CPU's thread with `delay` = how far the CPU runs ahead of sc_time_stamp(), exactly
// like b_transport. They may call wait() (e.g. back-pressure while the command queue is
// full, or until idle); on return, sc_time_stamp() + delay is when the CPU continues.
//
// A model may also run on the host's thread instead of its own processes, advanced lazily
// to the host's time whenever the host calls it (the Verilated RTL does, to avoid a SystemC
// context switch per clock cycle). hostSync() gives it the host's quantum boundaries, so that
// it keeps up while the host does not call it.
#pragma once

#include "soc_core/rocc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace by::soc {

/// A named performance counter reported under "accelerator.counters" in the stats.
struct AcceleratorCounter {
  std::string name;
  uint64_t value = 0;
};

/// What simulating the model cost (for the stats): the clock cycles it evaluated (a model may
/// skip cycles in which nothing can happen) and the wall-clock time spent evaluating them.
struct ModelActivity {
  uint64_t clockedCycles = 0;
  double wallSeconds = 0;
};

class AcceleratorDevice {
public:
  virtual ~AcceleratorDevice() = default;

  /// Short model name for stats and messages ("rtl", "tlm", ...).
  virtual std::string modelKind() const = 0;

  /// Target for the control registers (AXI4-Lite side). Transactions carry window offsets.
  virtual tlm::tlm_target_socket<>& controlSocket() = 0;
  /// Initiator for DMA; bound to the router, which sends DRAM addresses to the DRAM model.
  virtual tlm::tlm_initiator_socket<>& dmaSocket() = 0;
  /// Level-sensitive interrupt line.
  virtual sc_core::sc_out<bool>& interruptPort() = 0;

  /// One RoCC command. Returns the response written to rd when command.xd is set (ignored
  /// otherwise). May wait() while the command queue is full.
  virtual uint64_t rocc(const RoccCommand& command, sc_core::sc_time& delay) = 0;
  /// Returns once every command issued so far has completed (the host's `fence`).
  virtual void waitIdle(sc_core::sc_time& delay) = 0;

  /// Called on the host's thread just before the host waits at a quantum boundary:
  /// sc_time_stamp() + delay is the host's time. Must not wait(). Default: nothing.
  virtual void hostSync(const sc_core::sc_time& delay) { (void)delay; }

  /// Counters read once when the simulation ends.
  virtual std::vector<AcceleratorCounter> counters() const = 0;
  /// Read once when the simulation ends. Default: nothing to report.
  virtual ModelActivity activity() const { return {}; }
};

} // namespace by::soc
