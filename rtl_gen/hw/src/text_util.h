// Small text helpers shared by the RTL generators.
#pragma once

#include <string>

namespace by::hw {

// A decimal literal for parameter values, widths and indices in emitted expressions.
inline std::string num(long long v) {
  return std::to_string(v);
}

} // namespace by::hw
