#include "support/hash.h"

#include <cstdio>

namespace by::support {

Fnv1a& Fnv1a::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    h_ ^= c;
    h_ *= 1099511628211ull;
  }
  return *this;
}

Fnv1a& Fnv1a::addField(std::string_view text) {
  return add(std::to_string(text.size()) + ":").add(text);
}

std::string Fnv1a::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

std::string hashHex(std::string_view bytes) {
  return Fnv1a().add(bytes).hex();
}

} // namespace by::support
