#include "host_memory.h"

#include <cstring>
#include <unistd.h>

// Linker-defined: the first byte of the program image (GNU ld, non-PIE).
extern "C" char __executable_start[];

namespace by::driverhost {
namespace {

uint64_t lowStackBase = 0;
uint64_t lowStackSize = 0;

bool inside(uint64_t addr, size_t n, uint64_t lo, uint64_t hi) {
  return addr >= lo && addr <= hi && n <= hi - addr;
}

} // namespace

void setLowStack(uint64_t base, uint64_t size) {
  lowStackBase = base;
  lowStackSize = size;
}

bool HostMemory::reachable(uint64_t addr, size_t n) {
  const uint64_t imageStart = reinterpret_cast<uintptr_t>(__executable_start);
  const uint64_t heapEnd = reinterpret_cast<uintptr_t>(sbrk(0));
  return inside(addr, n, imageStart, heapEnd) ||
         inside(addr, n, lowStackBase, lowStackBase + lowStackSize);
}

bool HostMemory::read(uint64_t addr, uint8_t* dst, size_t n) {
  if (!reachable(addr, n))
    return false;
  std::memcpy(dst, reinterpret_cast<const void*>(static_cast<uintptr_t>(addr)), n);
  return true;
}

bool HostMemory::write(uint64_t addr, const uint8_t* src, size_t n) {
  if (!reachable(addr, n))
    return false;
  std::memcpy(reinterpret_cast<void*>(static_cast<uintptr_t>(addr)), src, n);
  return true;
}

} // namespace by::driverhost
