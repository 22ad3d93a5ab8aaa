// A command program and its text form, so that a failing fuzz program can be saved and
// replayed. One command per line:
//
//   FUNCT_NAME rs1_hex rs2_hex   # optional comment
//
// FUNCT_NAME is a command name of the ISA table (MVIN, CONFIG_EX, ...). CONFIG words whose
// rs1[1:0] names no CONFIG command print as CONFIG, and funct values that are no command
// print as FUNCT_<decimal>, so that deliberately illegal commands survive the round trip.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace by::funcmodel {

struct Instruction {
  uint32_t funct = 0;
  uint64_t rs1 = 0;
  uint64_t rs2 = 0;
  // A loop's COMPUTE in depthwise mode on vector PEs: A's columns start this many elements into
  // its rows (host commands cannot express it: always 0 for them).
  uint32_t aColOffset = 0;
  bool operator==(const Instruction& o) const {
    return funct == o.funct && rs1 == o.rs1 && rs2 == o.rs2 && aColOffset == o.aColOffset;
  }
  bool operator!=(const Instruction& o) const { return !(*this == o); }
};

using Program = std::vector<Instruction>;

/// The name printed for an instruction (see above).
std::string instructionName(const Instruction& instr);

/// One line without newline: "MVIN 0x0000000080001000 0x0004000400000010".
std::string formatInstruction(const Instruction& instr);

/// The whole program, one line per instruction; `comments[i]`, when given and non-empty, is
/// appended to line i after " # ".
std::string formatProgram(const Program& program, const std::vector<std::string>& comments = {});

/// A syntax error in a program text, with its 1-based line.
class ProgramParseError : public std::runtime_error {
public:
  ProgramParseError(int line, const std::string& message);
  int line() const { return line_; }

private:
  int line_;
};

/// Parses the text form: blank lines and everything after '#' are ignored. Throws
/// ProgramParseError for an unknown name, a malformed number, a wrong field count, or a
/// CONFIG_* name whose rs1[1:0] disagrees with it.
Program parseProgram(const std::string& text);

} // namespace by::funcmodel
