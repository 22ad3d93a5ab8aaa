#include "golden/arith.h"

#include <cmath>

namespace by::golden {

int64_t wrap(int64_t v, int bits) {
  if (bits >= 64)
    return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if ((u >> (bits - 1)) & 1u)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

int64_t saturate(int64_t v, int bits) {
  if (bits >= 64)
    return v;
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  const int64_t lo = -hi - 1;
  return v > hi ? hi : (v < lo ? lo : v);
}

int64_t roundingShift(int64_t v, int shift) {
  if (shift == 0)
    return v;
  // q = floor(v / 2^shift) (GCC's >> on signed values is arithmetic); rem in [0, 2^shift).
  int64_t q = v >> shift;
  const uint64_t rem = static_cast<uint64_t>(v) & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rem > half || (rem == half && (q % 2 != 0)))
    ++q;
  return q;
}

int64_t accScale(int64_t acc, float scale, int accBits) {
  const float product = static_cast<float>(acc) * scale; // both roundings: to nearest even
  if (std::isnan(product))
    return 0;
  const int64_t hi = static_cast<int64_t>((uint64_t{1} << (accBits - 1)) - 1);
  const int64_t lo = -hi - 1;
  // nearbyint rounds half to even in the default rounding mode, which nothing here changes.
  const double rounded = std::nearbyint(static_cast<double>(product));
  if (rounded >= std::ldexp(1.0, accBits - 1))
    return hi;
  if (rounded <= -std::ldexp(1.0, accBits - 1))
    return lo;
  return static_cast<int64_t>(rounded);
}

} // namespace by::golden
