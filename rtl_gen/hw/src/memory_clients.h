// The clients of the scratchpad and the accumulator, in priority order: one list that the
// memories' generator (banked_memory.cpp) and the accelerator top (accelerator.cpp) share.
#pragma once

#include "hwspec/accel_params.h"

#include <string>
#include <vector>

namespace by::hw {

struct MemoryClients {
  std::vector<std::string> reads;  // priority order
  std::vector<std::string> writes; // priority order
  std::vector<std::string> wide;   // read clients that get a whole SRAM word
};

/// exe_a, exe_b, exe_d (the execute controller's operands), exe_fa / exe_fb (the TensorDash
/// feeder's words), st (the store controller), ld (the Boveda loader's DECOMPRESS reads);
/// writes exe, ld.
MemoryClients scratchpadClients(const AccelParams& p);
/// Reads exe, st; writes exe, ld.
MemoryClients accumulatorClients();

} // namespace by::hw
