#include "fm_util.h"

#include "config/loader.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace by::test {

config::Config shippedConfig(const std::string& name) {
  if (name == "tiny64")
    return tinyWith({{"  acc_width: 32", "  acc_width: 64"},
                     {"  spatial_output_width: 20", "  spatial_output_width: 64"}});
  if (name == "tiny16")
    return tinyWith(
        {{"  input_width: 8", "  input_width: 16"},
         {"  spatial_output_width: 20", "  spatial_output_width: 24"},
         {"  table: true # the mvout's function table (docs/isa.md, \"Function table\")",
          "  table: false # 2^16 entries for 16-bit inputs"}});
  const std::string shipped = std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml";
  if (std::ifstream(shipped).good())
    return config::loadConfigFile(shipped);
  return config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/testbenches/configs/" + name +
                                ".yaml");
}

config::Config tinyWith(const std::vector<std::pair<std::string, std::string>>& replacements) {
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
  std::ostringstream out;
  for (std::string line; std::getline(in, line);) {
    for (const auto& [from, to] : replacements)
      if (line == from)
        line = to;
    out << line << '\n';
  }
  return config::loadConfigText(out.str(), "tiny(modified)");
}

Machine::Machine(const config::Config& c) : config(c), dram(kDramBase, kDramSize), model(c, dram) {}

funcmodel::ExecResult Machine::ok(const funcmodel::Instruction& i) {
  const funcmodel::ExecResult r = model.execute(i);
  EXPECT_TRUE(r.accepted) << funcmodel::formatInstruction(i) << " rejected with error " << r.error;
  return r;
}

void Machine::put(uint64_t addr, int bytes, const std::vector<int64_t>& values) {
  for (size_t k = 0; k < values.size(); ++k) {
    const uint64_t v = static_cast<uint64_t>(values[k]);
    for (int b = 0; b < bytes; ++b)
      dram.at(addr + k * bytes + b) = static_cast<uint8_t>(v >> (8 * b));
  }
}

std::vector<int64_t> Machine::get(uint64_t addr, int bytes, size_t count) const {
  std::vector<int64_t> out;
  for (size_t k = 0; k < count; ++k) {
    uint64_t v = 0;
    for (int b = 0; b < bytes; ++b)
      v |= uint64_t{dram.at(addr + k * bytes + b)} << (8 * b);
    const int bits = 8 * bytes;
    if (bits < 64 && ((v >> (bits - 1)) & 1))
      v |= ~((uint64_t{1} << bits) - 1); // sign-extend
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

} // namespace by::test
