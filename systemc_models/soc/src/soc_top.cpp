#include "soc_top.h"

#include "soc_core/format.h"

namespace by::soc {

HostCpu::Setup SocTop::cpuSetup(const SimOptions& options, const MemoryMap& map, const Clock& clock,
                                Dram& dram, RunControl& control, AcceleratorDevice* accelerator) {
  HostCpu::Setup s;
  s.map = &map;
  s.clock = &clock;
  s.cpiTenths = options.config.soc.hostCpiTenths;
  s.dram = dram.data();
  s.accelerator = accelerator;
  s.timeLimit = clock.cycles(options.maxCycles);
  s.control = &control;
  for (const Region& r : map.regions())
    if (!r.memory && (r.id != RegionId::AccelControl || accelerator))
      s.mmioRegions.push_back(r.id);
  return s;
}

SocTop::SocTop(const sc_core::sc_module_name& name, const SimOptions& options, const MemoryMap& map,
               const Clock& clock, const ElfImage& program)
    : sc_core::sc_module(name), clock_(clock), timeLimit_(clock.cycles(options.maxCycles)),
      router_("router", map),
      dram_("dram", map.region(RegionId::Dram), options.config.soc.dram, clock),
      uart_("uart", clock, options.console), exit_("exit", clock, control_), timer_("timer", clock),
      irq_("irq", clock), accelIrq_("accel_irq"),
      accelerator_(options.accelerator ? options.accelerator(options.config) : nullptr),
      cpu_("cpu", cpuSetup(options, map, clock, dram_, control_, accelerator_.get())) {
  // Initiators, in the order the statistics list them.
  router_.bindInitiator(cpu_.bus, "host");
  if (accelerator_)
    router_.bindInitiator(accelerator_->dmaSocket(), "accelerator");
  // Targets, by region.
  router_.bindTarget(RegionId::Dram, dram_.socket);
  router_.bindTarget(RegionId::Uart, uart_.socket);
  router_.bindTarget(RegionId::Exit, exit_.socket);
  router_.bindTarget(RegionId::Timer, timer_.socket);
  router_.bindTarget(RegionId::Irq, irq_.socket);
  if (accelerator_) {
    router_.bindTarget(RegionId::AccelControl, accelerator_->controlSocket());
    accelerator_->interruptPort().bind(accelIrq_);
  }
  irq_.accelerator.bind(accelIrq_);

  loadElf(program, dram_.region(), dram_.data());
  cpu_.setEntry(program.entry);
  if (options.maxCycles != 0)
    SC_THREAD(watchdog);
}

void SocTop::watchdog() {
  wait(timeLimit_);
  std::string message = "the cycle limit was reached";
  if (!cpu_.blockedOn().empty())
    message += " while the host CPU was blocked on " + cpu_.blockedOn();
  control_.end(SimEnd::Timeout, 0, message + " (pc " + hex(cpu_.lastPc()) + ")", timeLimit_);
}

} // namespace by::soc
