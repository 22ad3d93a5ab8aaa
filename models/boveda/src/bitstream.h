// LSB-first bit packing into little-endian 32-bit words (docs/boveda.md, "Bit order"): the
// software twin of the hardware's barrel-shift packer and unpacker. Private to the codec.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace by::boveda::detail {

inline uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

/// Appends fields at increasing bit positions; field bit j lands on stream bit pos+j.
class BitWriter {
public:
  /// Writes the low `bits` (0..32) bits of value.
  void put(uint32_t value, int bits) {
    if (bits == 0)
      return;
    const uint64_t v = value & lowMask(bits);
    const uint64_t word = pos_ / 32;
    const int offset = static_cast<int>(pos_ % 32);
    if (word + 1 >= words_.size())
      words_.resize(std::max<size_t>(words_.size() * 2, word + 2), 0); // new words are zero
    words_[word] |= static_cast<uint32_t>(v << offset);
    if (offset + bits > 32)
      words_[word + 1] |= static_cast<uint32_t>(v >> (32 - offset));
    pos_ += static_cast<uint64_t>(bits);
  }
  /// Zero fill up to the next multiple of `multiple` bits (a multiple of 32); returns the
  /// number of padding bits.
  uint64_t padTo(uint64_t multiple) {
    const uint64_t padded = (pos_ + multiple - 1) / multiple * multiple;
    const uint64_t pad = padded - pos_;
    pos_ = padded;
    return pad;
  }
  uint64_t position() const { return pos_; }
  /// The stream, cut to the written length (position() must be a multiple of 32).
  std::vector<uint32_t> take() {
    words_.resize(pos_ / 32);
    return std::move(words_);
  }

private:
  std::vector<uint32_t> words_;
  uint64_t pos_ = 0;
};

/// Thrown by BitReader when a field runs past the end of the stream.
class StreamEnd : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads fields back in the order BitWriter wrote them; reading past the end throws StreamEnd.
class BitReader {
public:
  BitReader(const std::vector<uint32_t>& words, uint64_t pos) : words_(words), pos_(pos) {}

  /// Reads `bits` (0..32) bits as an unsigned value.
  uint32_t get(int bits) {
    if (pos_ + static_cast<uint64_t>(bits) > words_.size() * 32ull)
      throw StreamEnd("stream ends at bit " + std::to_string(words_.size() * 32ull) +
                      " but a field needs bits up to " + std::to_string(pos_ + bits));
    if (bits == 0)
      return 0;
    const uint64_t word = pos_ / 32;
    const int offset = static_cast<int>(pos_ % 32);
    uint64_t window = words_[word];
    if (word + 1 < words_.size())
      window |= uint64_t{words_[word + 1]} << 32;
    pos_ += static_cast<uint64_t>(bits);
    return static_cast<uint32_t>((window >> offset) & lowMask(bits));
  }
  uint64_t position() const { return pos_; }

private:
  const std::vector<uint32_t>& words_;
  uint64_t pos_;
};

} // namespace by::boveda::detail
