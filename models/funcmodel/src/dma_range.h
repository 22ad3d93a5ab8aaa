// Address and element arithmetic shared by the commands, with overflow checks (row counts,
// strides and 64-bit accumulators can exceed 64 bits when multiplied or added).
#pragma once

#include <cstdint>

namespace by::funcmodel {

/// DRAM addresses must stay below 2^32 (a wider address is DMA_ERROR).
constexpr uint64_t kDramAddrLimit = uint64_t{1} << 32;

/// a * b + c, or false on 64-bit overflow.
inline bool mulAdd(uint64_t a, uint64_t b, uint64_t c, uint64_t& out) {
  uint64_t product;
  return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(product, c, &out);
}

/// True when every byte of [base + offset, base + offset + bytes) lies below 2^32, where the
/// largest offset is `lastUnit * unit`.
inline bool dramSpanOk(uint64_t base, uint64_t lastUnit, uint64_t unit, uint64_t bytes) {
  uint64_t start, end;
  return mulAdd(lastUnit, unit, base, start) && !__builtin_add_overflow(start, bytes, &end) &&
         end <= kDramAddrLimit;
}

/// wrap(a + b, bits) without signed overflow (acc_width may be 64).
int64_t addWrap(int64_t a, int64_t b, int bits);

/// Little-endian two's complement element of `bytes` bytes, sign-extended.
int64_t loadElement(const uint8_t* p, int bytes);
void storeElement(uint8_t* p, int bytes, int64_t value);

} // namespace by::funcmodel
