// What the loop unrollers' models (loop_ws.cpp, loop_conv.cpp) share: reading a command's
// fields by name from the ISA table and building the local operands of the commands they
// unroll into.
#pragma once

#include "hwspec/isa.h"

#include <cstdint>

namespace by::funcmodel::loopfields {

/// Field `name` of `cmd`'s rs1 (or rs2) in `word`.
inline uint64_t field(const char* cmd, bool rs2, const char* name, uint64_t word) {
  const hw::isa::Command& c = hw::isa::command(cmd);
  return (rs2 ? c.rs2Field(name) : c.rs1Field(name)).extract(word);
}

/// {rows, cols, local address} of a local operand (MVIN/MVOUT rs2, PRELOAD/COMPUTE operands).
inline uint64_t operand(uint64_t rows, uint64_t cols, uint32_t addr) {
  const hw::isa::Command& c = hw::isa::command("MVIN");
  return c.rs2Field("rows").place(rows) | c.rs2Field("cols").place(cols) |
         c.rs2Field("local_addr").place(addr);
}

inline constexpr uint32_t kAcc = 1u << hw::isa::kLocalAccBit;
inline constexpr uint32_t kAccumulate = 1u << hw::isa::kLocalAccumulateBit;
inline constexpr uint32_t kFull = 1u << hw::isa::kLocalFullBit;

} // namespace by::funcmodel::loopfields
