// RoCC custom instructions as the host CPU sees them. Gemmini's encoding: opcode custom-3,
// `.insn r CUSTOM_3, funct3, funct7, rd, rs1, rs2`, where funct3 = {xd, xs1, xs2}
// (0b011: two source registers, 0b111: also writes rd).
#pragma once

#include <cstdint>
#include <optional>

namespace by::soc {

constexpr uint32_t kRoccOpcode = 0x7b; // custom-3
constexpr uint32_t kRoccFunct3Xd = 0b100;
constexpr uint32_t kRoccFunct3Xs1 = 0b010;
constexpr uint32_t kRoccFunct3Xs2 = 0b001;

/// One RoCC instruction, decoded, with its operand values.
struct RoccCommand {
  uint32_t funct7 = 0;                 // the command
  bool xd = false;                     // rd receives the accelerator's response
  bool xs1 = false;                    // rs1Value is read from register rs1
  bool xs2 = false;                    // rs2Value is read from register rs2
  uint32_t rd = 0, rs1 = 0, rs2 = 0;   // register numbers
  uint64_t rs1Value = 0, rs2Value = 0; // 0 when xs1 / xs2 is clear
  uint32_t instruction = 0;
  uint64_t pc = 0;
};

/// Decodes the fields of a 32-bit custom-3 instruction (values and pc are left 0), or
/// nothing if `instruction` is not custom-3.
std::optional<RoccCommand> decodeRocc(uint32_t instruction);

} // namespace by::soc
