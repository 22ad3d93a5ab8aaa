#include "soc_core/memory_map.h"

#include <algorithm>
#include <stdexcept>

namespace by::soc {

MemoryMap::MemoryMap(const config::SocConfig& soc) : clockMHz_(soc.clockMHz) {
  const uint64_t dramSize = static_cast<uint64_t>(soc.dram.sizeMiB) << 20;
  // The table. Order is the order of the docs and of the emitted header.
  regions_ = {
      {RegionId::Dram,
       "dram",
       "DRAM",
       kDramBase,
       dramSize,
       true,
       "DRAM model",
       "Program, data and stack (stack top = end of DRAM); shared by the host CPU and the "
       "accelerator's DMA. Size from soc.dram.size_mib.",
       {}},
      {RegionId::Uart,
       "uart",
       "UART",
       kUartBase,
       kDevicePageSize,
       false,
       "UART",
       "Console: bytes written appear on the simulator's stdout.",
       {{"TX_DATA", reg::kUartTxData, "W", "low byte is sent to the console", {}},
        {"STATUS",
         reg::kUartStatus,
         "R",
         "transmitter status",
         {{"TX_READY", reg::kUartStatusTxReady, "always 1: the console never stalls"}}}}},
      {RegionId::Exit,
       "exit",
       "EXIT",
       kExitBase,
       kDevicePageSize,
       false,
       "exit device",
       "Ends the simulation; the simulator exits with the program's code.",
       {{"CODE", reg::kExitCode, "W", "exit code (0-255; other values are taken modulo 256)", {}}}},
      {RegionId::Timer,
       "timer",
       "TIMER",
       kTimerBase,
       kDevicePageSize,
       false,
       "cycle timer",
       "Simulated clock cycles since reset (64 bits as two 32-bit registers).",
       {{"CYCLES_LO", reg::kTimerCyclesLo, "R", "low word; reading it latches the high word", {}},
        {"CYCLES_HI",
         reg::kTimerCyclesHi,
         "R",
         "high word latched by the last CYCLES_LO read",
         {}}}},
      {RegionId::Irq,
       "irq",
       "IRQ",
       kIrqBase,
       kDevicePageSize,
       false,
       "interrupt status",
       "Levels of the interrupt lines (the host polls them; see docs/soc.md).",
       {{"PENDING",
         reg::kIrqPending,
         "R",
         "current level of each interrupt line",
         {{"ACCEL", reg::kIrqPendingAccel, "accelerator interrupt line"}}}}},
      {RegionId::AccelControl,
       "accel_ctrl",
       "ACCEL_CTRL",
       kAccelControlBase,
       kAccelControlSize,
       false,
       "accelerator",
       "The accelerator's 32-bit control registers (AXI4-Lite side); layout in docs/isa.md "
       "(brickyard_isa.h).",
       {}},
  };
  // The table is hand-written: check it once here rather than trusting it everywhere.
  std::vector<const Region*> sorted;
  for (const Region& r : regions_)
    sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const Region* a, const Region* b) { return a->base < b->base; });
  for (size_t i = 0; i < sorted.size(); ++i) {
    const Region& r = *sorted[i];
    if (r.base % kDevicePageSize != 0 || r.size == 0 || r.size % kDevicePageSize != 0)
      throw std::logic_error(std::string("memory map: region ") + r.name +
                             " is not made of whole 4 KiB pages");
    if (i + 1 < sorted.size() && r.end() > sorted[i + 1]->base)
      throw std::logic_error(std::string("memory map: regions ") + r.name + " and " +
                             sorted[i + 1]->name + " overlap");
    for (const RegisterDesc& reg : r.registers)
      if (reg.offset % 4 != 0 || reg.offset + 4 > r.size)
        throw std::logic_error(std::string("memory map: register ") + r.name + "." + reg.name +
                               " is misplaced");
  }
}

const Region& MemoryMap::region(RegionId id) const {
  for (const Region& r : regions_)
    if (r.id == id)
      return r;
  throw std::logic_error("memory map: unknown region id");
}

const Region* MemoryMap::find(uint64_t address) const {
  for (const Region& r : regions_)
    if (r.contains(address))
      return &r;
  return nullptr;
}

} // namespace by::soc
