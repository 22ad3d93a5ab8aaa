// Content hashes: FNV-1a, 64 bits, written as 16 hex digits. The one hash of the project: config
// hashes, the keys of every cache, the names of sweep points. It is not cryptographic; a key
// only has to tell apart the inputs one machine sees.
//
//   support::hashHex(bytes)                                  the hash of one text
//   support::Fnv1a().add(a).add(b).hex()                     of a and b, one after the other
//   support::Fnv1a().addField(a).addField(b).hex()           of the pair: ("ab","c") != ("a","bc")
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace by::support {

class Fnv1a {
public:
  /// The bytes as they are: add(a).add(b) is add(a + b).
  Fnv1a& add(std::string_view bytes);
  /// The text's length, ':' and the text, so that a sequence of fields hashes unambiguously.
  Fnv1a& addField(std::string_view text);

  uint64_t value() const { return h_; }
  /// 16 lowercase hex digits.
  std::string hex() const;

private:
  uint64_t h_ = 14695981039346656037ull;
};

/// Fnv1a().add(bytes).hex().
std::string hashHex(std::string_view bytes);

} // namespace by::support
