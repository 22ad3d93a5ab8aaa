// The SoC memory map: the one table of regions, registers and register fields. The TLM
// router, the host CPU's Unicorn mappings, the device models, the generated C header and
// linker-script fragment (layout.h) and the table in docs/soc.md are all derived from it.
// Plain C++ (no SystemC), so that `brickyard gen` can emit the layout files.
#pragma once

#include "config/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::soc {

/// Fixed addresses (everything but the DRAM size is independent of the configuration).
constexpr uint64_t kDramBase = 0x8000'0000;
constexpr uint64_t kUartBase = 0x1000'0000;
constexpr uint64_t kExitBase = 0x1000'1000;
constexpr uint64_t kTimerBase = 0x1000'2000;
constexpr uint64_t kIrqBase = 0x1000'3000;
constexpr uint64_t kAccelControlBase = 0x1001'0000;
constexpr uint64_t kDevicePageSize = 0x1000;     // MMIO windows are whole host pages
constexpr uint64_t kAccelControlSize = 0x1'0000; // 64 KiB AXI4-Lite window

enum class RegionId { Dram, Uart, Exit, Timer, Irq, AccelControl };

/// Register offsets inside each device window. Device models use these constants; the table
/// below lists them (with documentation) for the emitted header and the docs.
namespace reg {
constexpr uint32_t kUartTxData = 0x0; // write: low byte is sent to the console
constexpr uint32_t kUartStatus = 0x4; // read: bit 0 = TX ready (always 1)
constexpr uint32_t kUartStatusTxReady = 1u << 0;
constexpr uint32_t kExitCode = 0x0;      // write: ends the simulation with this code
constexpr uint32_t kTimerCyclesLo = 0x0; // read: low word, latches the high word
constexpr uint32_t kTimerCyclesHi = 0x4; // read: high word latched by the last low read
constexpr uint32_t kIrqPending = 0x0;    // read: level of the interrupt lines
constexpr uint32_t kIrqPendingAccel = 1u << 0;
} // namespace reg

struct FieldDesc {
  const char* name; // C macro suffix, e.g. TX_READY
  uint32_t mask;
  const char* doc;
};

struct RegisterDesc {
  const char* name;   // C macro suffix, e.g. TX_DATA
  uint32_t offset;    // from the region base; every register is 32 bits wide
  const char* access; // "R", "W" or "RW"
  const char* doc;
  std::vector<FieldDesc> fields;
};

struct Region {
  RegionId id;
  const char* name;  // lower-case identifier used in messages, stats and the linker script
  const char* macro; // C macro infix, e.g. UART -> BY_SOC_UART_BASE
  uint64_t base;
  uint64_t size;
  bool memory;       // true: DRAM (host accesses go straight to the backing store)
  const char* owner; // the model that implements the window
  const char* doc;
  std::vector<RegisterDesc> registers;

  uint64_t end() const { return base + size; } // one past the last byte
  bool contains(uint64_t address) const { return address >= base && address - base < size; }
};

/// The memory map for a SoC configuration (DRAM size from soc.dram.size_mib).
class MemoryMap {
public:
  explicit MemoryMap(const config::SocConfig& soc);

  const std::vector<Region>& regions() const { return regions_; }
  const Region& region(RegionId id) const;
  /// The region containing `address`, or nullptr.
  const Region* find(uint64_t address) const;
  int clockMHz() const { return clockMHz_; }

private:
  std::vector<Region> regions_;
  int clockMHz_;
};

} // namespace by::soc
