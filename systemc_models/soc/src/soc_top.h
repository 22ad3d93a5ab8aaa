// The SoC top module: creates the models, wires them by the memory-map table and loads the
// program. Everything it owns lives as long as the simulation.
//
//   HostCpu.bus ──┐                  ┌── Dram          (dram)
//                 ├─> Router ────────┼── Uart          (uart)
//   Accel.dma ────┘   (memory map)   ├── ExitDevice    (exit)
//                                    ├── CycleTimer    (timer)
//                                    ├── IrqStatus     (irq)   <── Accel.interrupt
//                                    └── Accel.control (accel_ctrl)
//   HostCpu ── rocc()/waitIdle() ──> Accel
#pragma once

#include "clock.h"
#include "cycle_timer.h"
#include "dram.h"
#include "exit_device.h"
#include "host_cpu.h"
#include "irq_status.h"
#include "router.h"
#include "run_control.h"
#include "soc/elf.h"
#include "soc/platform.h"
#include "uart.h"

#include <memory>
#include <systemc>

namespace by::soc {

class SocTop : public sc_core::sc_module {
public:
  SocTop(const sc_core::sc_module_name& name, const SimOptions& options, const MemoryMap& map,
         const Clock& clock, const ElfImage& program);

  const RunControl& control() const { return control_; }
  const HostCpu& cpu() const { return cpu_; }
  const Router& router() const { return router_; }
  const Dram& dram() const { return dram_; }
  const Uart& uart() const { return uart_; }
  const IrqStatus& irq() const { return irq_; }
  const AcceleratorDevice* accelerator() const { return accelerator_.get(); }

private:
  SC_HAS_PROCESS(SocTop);
  /// Ends the run at the cycle limit even if the CPU is blocked (e.g. in a fence).
  void watchdog();
  static HostCpu::Setup cpuSetup(const SimOptions& options, const MemoryMap& map,
                                 const Clock& clock, Dram& dram, RunControl& control,
                                 AcceleratorDevice* accelerator);

  const Clock& clock_;
  const sc_core::sc_time timeLimit_;
  RunControl control_;
  Router router_;
  Dram dram_;
  Uart uart_;
  ExitDevice exit_;
  CycleTimer timer_;
  IrqStatus irq_;
  // Several processes of an accelerator may drive its line (e.g. a worker raises it, a
  // register write from the bus clears it).
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> accelIrq_;
  std::unique_ptr<AcceleratorDevice> accelerator_;
  HostCpu cpu_;
};

} // namespace by::soc
