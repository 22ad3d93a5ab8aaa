#include "funcmodel/isa_fields.h"
#include "funcmodel/program.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace by::funcmodel {

namespace {

const char* const kConfigName = "CONFIG";  // a CONFIG word with no CONFIG command type
const char* const kFunctPrefix = "FUNCT_"; // a funct that is no command

bool parseHex(const std::string& token, uint64_t& value) {
  size_t start = 0;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X'))
    start = 2;
  const size_t digits = token.size() - start;
  if (digits == 0 || digits > 16)
    return false;
  value = 0;
  for (size_t k = start; k < token.size(); ++k) {
    const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(token[k])));
    int d;
    if (ch >= '0' && ch <= '9')
      d = ch - '0';
    else if (ch >= 'a' && ch <= 'f')
      d = ch - 'a' + 10;
    else
      return false;
    value = (value << 4) | static_cast<uint64_t>(d);
  }
  return true;
}

} // namespace

std::string instructionName(const Instruction& instr) {
  const IsaFields& f = isaFields();
  if (instr.funct == static_cast<uint32_t>(f.functConfig)) {
    const int type = static_cast<int>(f.cmdType.extract(instr.rs1));
    for (const hw::isa::Command& c : hw::isa::commands())
      if (c.funct == f.functConfig && c.configType == type)
        return c.name;
    return kConfigName;
  }
  for (const hw::isa::Command& c : hw::isa::commands())
    if (c.configType < 0 && static_cast<uint32_t>(c.funct) == instr.funct)
      return c.name;
  return kFunctPrefix + std::to_string(instr.funct);
}

std::string formatInstruction(const Instruction& instr) {
  char words[48];
  std::snprintf(words, sizeof words, " 0x%016llx 0x%016llx",
                static_cast<unsigned long long>(instr.rs1),
                static_cast<unsigned long long>(instr.rs2));
  return instructionName(instr) + words;
}

std::string formatProgram(const Program& program, const std::vector<std::string>& comments) {
  std::string out;
  for (size_t i = 0; i < program.size(); ++i) {
    out += formatInstruction(program[i]);
    if (i < comments.size() && !comments[i].empty())
      out += " # " + comments[i];
    out += '\n';
  }
  return out;
}

ProgramParseError::ProgramParseError(int line, const std::string& message)
    : std::runtime_error("line " + std::to_string(line) + ": " + message), line_(line) {}

Program parseProgram(const std::string& text) {
  const IsaFields& f = isaFields();
  Program program;
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const size_t hash = line.find('#');
    if (hash != std::string::npos)
      line.erase(hash);
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string t; fields >> t;)
      tokens.push_back(t);
    if (tokens.empty())
      continue;
    if (tokens.size() != 3)
      throw ProgramParseError(lineNo, "expected 'NAME rs1 rs2', got " +
                                          std::to_string(tokens.size()) + " fields");
    Instruction instr;
    if (!parseHex(tokens[1], instr.rs1) || !parseHex(tokens[2], instr.rs2))
      throw ProgramParseError(lineNo, "rs1 and rs2 must be hexadecimal numbers of at most 64 bits");
    const std::string& name = tokens[0];
    bool known = false;
    for (const hw::isa::Command& c : hw::isa::commands()) {
      if (c.name != name)
        continue;
      known = true;
      instr.funct = static_cast<uint32_t>(c.funct);
      if (c.configType >= 0 && static_cast<int>(f.cmdType.extract(instr.rs1)) != c.configType)
        throw ProgramParseError(lineNo, name + " needs rs1[1:0] = " + std::to_string(c.configType));
    }
    if (!known && name == kConfigName) {
      known = true;
      instr.funct = static_cast<uint32_t>(f.functConfig);
    }
    if (!known && name.rfind(kFunctPrefix, 0) == 0) {
      const std::string digits = name.substr(std::string(kFunctPrefix).size());
      known = !digits.empty() && digits.size() <= 9 &&
              digits.find_first_not_of("0123456789") == std::string::npos;
      if (known)
        instr.funct = static_cast<uint32_t>(std::stoul(digits));
    }
    if (!known)
      throw ProgramParseError(lineNo, "unknown command '" + name + "'");
    program.push_back(instr);
  }
  return program;
}

} // namespace by::funcmodel
