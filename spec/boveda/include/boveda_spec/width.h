// The width rule of the Boveda format (docs/boveda.md, "Widths"), shared by the encoder, the
// size estimator and the decoder's canonical-form check.
#pragma once

#include <cstdint>

namespace by::boveda {

/// Number of significant bits of an unsigned value (0 for 0).
inline int bitLength(uint32_t m) {
  int n = 0;
  while (m != 0) {
    m >>= 1;
    ++n;
  }
  return n;
}

/// Two's-complement width of v: 0 for v == 0, else the smallest w with
/// -2^(w-1) <= v <= 2^(w-1) - 1 (so -1 -> 1, 1 -> 2, -128 -> 8, 127 -> 8, -32768 -> 16).
inline int valueWidth(int32_t v) {
  if (v == 0)
    return 0;
  // ~v of a negative value clears its redundant sign bits; what is left needs one more bit
  // for the sign.
  return bitLength(static_cast<uint32_t>(v < 0 ? ~v : v)) + 1;
}

/// Width of a group = the largest valueWidth of its values. Computed the way the hardware
/// does it: OR the sign-stripped values, then one leading-one detector per group.
template <typename T> int groupWidth(const T* v, int n) {
  uint32_t magnitudes = 0;
  bool anyNonZero = false;
  for (int i = 0; i < n; ++i) {
    const int32_t x = v[i];
    magnitudes |= static_cast<uint32_t>(x < 0 ? ~x : x);
    anyNonZero |= x != 0;
  }
  return anyNonZero ? bitLength(magnitudes) + 1 : 0;
}

} // namespace by::boveda
