// Number formatting shared by the SoC's messages and emitted files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace by::soc {

/// 0x-prefixed lower-case hex, zero-padded to at least `digits` digits.
inline std::string hex(uint64_t value, int digits = 1) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(value));
  return buf;
}

} // namespace by::soc
