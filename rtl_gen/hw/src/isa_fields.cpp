#include "isa_fields.h"

#include "hwspec/isa.h"
#include "text_util.h"

#include <cctype>

namespace by::hw {

namespace {
const isa::Field& isaField(const std::string& command, const std::string& reg,
                           const std::string& name) {
  const isa::Command& c = isa::command(command);
  return reg == "rs1" ? c.rs1Field(name) : c.rs2Field(name);
}
} // namespace

std::string isaFieldSlice(const std::string& vecPrefix, const std::string& command,
                          const std::string& reg, const std::string& name) {
  const isa::Field& f = isaField(command, reg, name);
  const std::string vec = vecPrefix + reg + "_i";
  if (f.width == 1)
    return vec + "[" + num(f.lsb) + "]";
  return vec + "[" + num(f.lsb + f.width - 1) + ":" + num(f.lsb) + "]";
}

std::string IsaFieldWires::slice(const std::string& command, const std::string& reg,
                                 const std::string& name) const {
  return isaFieldSlice(vec_, command, reg, name);
}

std::string IsaFieldWires::operator()(const std::string& prefix, const std::string& command,
                                      const std::string& reg, const std::string& name) {
  const std::string wire = prefix + "_" + name;
  if (declared_.insert(wire).second) {
    const isa::Field& f = isaField(command, reg, name);
    b_.logic(wire, vlog::Type::bits(f.width), command + " " + reg + "." + name);
    b_.assign(wire, slice(command, reg, name));
  }
  return wire;
}

std::string upperCamel(const std::string& name) {
  std::string s;
  bool up = true;
  for (char ch : name) {
    if (ch == '_') {
      up = true;
      continue;
    }
    s += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch)))
            : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    up = false;
  }
  return s;
}

} // namespace by::hw
