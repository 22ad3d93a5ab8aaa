// A fixed-width bit vector stored as 32-bit words, least significant word first: the layout
// Verilator uses for ports wider than 64 bits, so testbenches copy words directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace by::golden {

class BitVec {
public:
  BitVec() = default;
  explicit BitVec(int width) : width_(width), words_(static_cast<size_t>((width + 31) / 32), 0) {}

  int width() const { return width_; }
  /// Bits [lsb, lsb+bits) as an unsigned value; bits <= 64.
  uint64_t get(int lsb, int bits) const;
  /// Bits [lsb, lsb+bits) sign-extended from bit lsb+bits-1; bits <= 64.
  int64_t getSigned(int lsb, int bits) const;
  /// Writes the low `bits` bits of value at [lsb, lsb+bits); bits <= 64.
  void set(int lsb, int bits, uint64_t value);
  /// Copies `bits` bits (any number) from src[srcLsb..] to this[dstLsb..].
  void copyFrom(const BitVec& src, int srcLsb, int dstLsb, int bits);
  /// Sets [lsb, lsb+bits) to all ones or all zeros (any number of bits).
  void fill(int lsb, int bits, bool one);

  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint32_t>& words() { return words_; }

  bool operator==(const BitVec& o) const { return width_ == o.width_ && words_ == o.words_; }
  bool operator!=(const BitVec& o) const { return !(*this == o); }
  std::string hex() const;

private:
  bool bit(int i) const { return (words_[static_cast<size_t>(i / 32)] >> (i % 32)) & 1u; }
  void setBit(int i, bool v);

  int width_ = 0;
  std::vector<uint32_t> words_;
};

} // namespace by::golden
