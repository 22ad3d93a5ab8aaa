// The arithmetic of docs/arithmetic.md, written once in plain C++. It is the reference that
// the RTL, the fast model, the driver's CPU fallbacks and the generated headers must match.
#pragma once

#include <cstdint>

namespace by::golden {

/// Two's-complement wrap of v to `bits` bits (1..64), returned sign-extended.
int64_t wrap(int64_t v, int bits);
/// Clamps v to the signed range of `bits` bits.
int64_t saturate(int64_t v, int bits);
/// Arithmetic right shift by `shift` (0..63) rounding half to even (RISC-V vxrm = rne).
int64_t roundingShift(int64_t v, int shift);
/// mvout scaling: acc * scale in IEEE single precision, rounded half to even to an integer,
/// saturated to the signed range of accBits. A NaN product gives 0.
int64_t accScale(int64_t acc, float scale, int accBits);
/// max(v, 0).
inline int64_t relu(int64_t v) {
  return v < 0 ? 0 : v;
}

} // namespace by::golden
