#include "support/format.h"

#include <cmath>
#include <cstdio>

namespace by::support {

std::string humanNumber(double v, const char* small) {
  char b[64];
  if (std::abs(v) >= 1e9)
    std::snprintf(b, sizeof b, "%.2fG", v / 1e9);
  else if (std::abs(v) >= 1e6)
    std::snprintf(b, sizeof b, "%.2fM", v / 1e6);
  else if (std::abs(v) >= 1e4)
    std::snprintf(b, sizeof b, "%.1fk", v / 1e3);
  else
    std::snprintf(b, sizeof b, small, v);
  return b;
}

} // namespace by::support
