#include "soc_core/rocc.h"

namespace by::soc {

std::optional<RoccCommand> decodeRocc(uint32_t instruction) {
  if ((instruction & 0x7f) != kRoccOpcode)
    return std::nullopt;
  RoccCommand c;
  const uint32_t funct3 = (instruction >> 12) & 0x7;
  c.rd = (instruction >> 7) & 0x1f;
  c.xd = funct3 & kRoccFunct3Xd;
  c.xs1 = funct3 & kRoccFunct3Xs1;
  c.xs2 = funct3 & kRoccFunct3Xs2;
  c.rs1 = (instruction >> 15) & 0x1f;
  c.rs2 = (instruction >> 20) & 0x1f;
  c.funct7 = instruction >> 25;
  c.instruction = instruction;
  return c;
}

} // namespace by::soc
