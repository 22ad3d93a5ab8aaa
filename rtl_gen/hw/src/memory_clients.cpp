#include "memory_clients.h"

namespace by::hw {

MemoryClients scratchpadClients(const AccelParams& p) {
  MemoryClients c;
  c.reads = {"exe_a", "exe_b", "exe_d", "st"};
  if (p.config.tensordash.enabled) { // the TensorDash feeder's A tiles and B rows
    c.reads.insert(c.reads.begin() + 3, {"exe_fa", "exe_fb"});
    c.wide = {"exe_fa", "exe_fb"};
  }
  if (p.config.boveda.enabled && p.config.boveda.onChip)
    c.reads.push_back("ld"); // the Boveda loader's DECOMPRESS
  c.writes = {"exe", "ld"};
  return c;
}

MemoryClients accumulatorClients() {
  return {{"exe", "st"}, {"exe", "ld"}, {}};
}

} // namespace by::hw
