// The host build's DRAM: the test program's own memory. The functional model's DMA reads and
// writes host addresses directly, which works because the program keeps everything the
// accelerator touches below 4 GiB (docs/driver.md "Host build"): it is linked non-PIE (static
// data and the brk heap sit low), malloc never uses mmap, and main runs on a stack mapped
// below 4 GiB (host_main.cpp). Addresses outside those regions fail like an AXI error
// (DMA_ERROR) instead of faulting the process.
#pragma once

#include "funcmodel/dram.h"

#include <cstddef>
#include <cstdint>

namespace by::driverhost {

class HostMemory : public funcmodel::DramPort {
public:
  bool read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool write(uint64_t addr, const uint8_t* src, size_t n) override;

  /// True when [addr, addr + n) lies in the program image, the brk heap or the low stack.
  static bool reachable(uint64_t addr, size_t n);
};

/// The stack region host_main.cpp gives main (for reachable()).
void setLowStack(uint64_t base, uint64_t size);

} // namespace by::driverhost
