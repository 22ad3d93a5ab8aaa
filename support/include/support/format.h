// Numbers for people, in the tables Brickyard prints: 406087 -> "406.1k", 33950000 -> "33.95M".
#pragma once

#include <string>

namespace by::support {

/// `v` with G, M or k from 10^4 up ("%.2fG", "%.2fM", "%.1fk"), else with `small` ("%.0f":
/// a count; "%.4g": a figure that may have a fraction).
std::string humanNumber(double v, const char* small = "%.0f");

} // namespace by::support
