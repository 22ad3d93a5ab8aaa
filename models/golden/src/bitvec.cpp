#include "golden/bitvec.h"

#include <cstdio>
#include <stdexcept>

namespace by::golden {

void BitVec::setBit(int i, bool v) {
  uint32_t& w = words_[static_cast<size_t>(i / 32)];
  const uint32_t m = 1u << (i % 32);
  w = v ? (w | m) : (w & ~m);
}

uint64_t BitVec::get(int lsb, int bits) const {
  if (bits < 0 || bits > 64 || lsb < 0 || lsb + bits > width_)
    throw std::out_of_range("BitVec::get out of range");
  uint64_t v = 0;
  for (int i = bits - 1; i >= 0; --i)
    v = (v << 1) | (bit(lsb + i) ? 1u : 0u);
  return v;
}

int64_t BitVec::getSigned(int lsb, int bits) const {
  uint64_t v = get(lsb, bits);
  if (bits < 64 && bits > 0 && ((v >> (bits - 1)) & 1u))
    v |= ~uint64_t{0} << bits;
  return static_cast<int64_t>(v);
}

void BitVec::set(int lsb, int bits, uint64_t value) {
  if (bits < 0 || bits > 64 || lsb < 0 || lsb + bits > width_)
    throw std::out_of_range("BitVec::set out of range");
  for (int i = 0; i < bits; ++i)
    setBit(lsb + i, (value >> i) & 1u);
}

void BitVec::copyFrom(const BitVec& src, int srcLsb, int dstLsb, int bits) {
  if (srcLsb + bits > src.width_ || dstLsb + bits > width_)
    throw std::out_of_range("BitVec::copyFrom out of range");
  for (int i = 0; i < bits; ++i)
    setBit(dstLsb + i, src.bit(srcLsb + i));
}

void BitVec::fill(int lsb, int bits, bool one) {
  if (lsb + bits > width_)
    throw std::out_of_range("BitVec::fill out of range");
  for (int i = 0; i < bits; ++i)
    setBit(lsb + i, one);
}

std::string BitVec::hex() const {
  std::string s;
  char buf[9];
  for (size_t i = words_.size(); i-- > 0;) {
    std::snprintf(buf, sizeof buf, "%08x", words_[i]);
    s += buf;
  }
  return s;
}

} // namespace by::golden
