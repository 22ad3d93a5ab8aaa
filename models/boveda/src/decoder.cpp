// decompress() / decompressBlock(): the streaming unpacker of docs/boveda.md. A block is
// decoded from its pointer alone (random access). Besides decoding, every field is checked
// against the canonical form the encoder produces, so that a stream written by the RTL
// compressor either matches the reference bit for bit or is rejected with a precise reason.
#include "bitstream.h"
#include "boveda/codec.h"
#include "boveda_spec/width.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace by::boveda {

namespace {

using detail::BitReader;

[[noreturn]] void fail(uint64_t block, const std::string& what) {
  throw std::runtime_error("boveda: block " + std::to_string(block) + ": " + what);
}

[[noreturn]] void failGroup(uint64_t block, uint64_t group, const std::string& what) {
  fail(block, "group " + std::to_string(group) + ": " + what);
}

int32_t signExtend(uint32_t raw, int width) {
  const uint32_t sign = uint32_t{1} << (width - 1);
  return static_cast<int32_t>(raw ^ sign) - static_cast<int32_t>(sign);
}

/// Decodes one group of n values into v; returns its width.
int decodeGroup(const BovedaParams& p, BitReader& in, int previousWidth, int n, int16_t* v,
                uint64_t block, uint64_t group) {
  int width = previousWidth;
  const bool same = p.sameWidthShortcut && in.get(1) == 1;
  if (!same) {
    width = static_cast<int>(in.get(p.headerBits));
    if (p.sameWidthShortcut && width == previousWidth)
      failGroup(block, group,
                "explicit width " + std::to_string(width) +
                    " equals the previous width (the same-width flag must be used)");
  }
  if (width > p.elementBits)
    failGroup(block, group,
              "width code " + std::to_string(width) + " exceeds the element width " +
                  std::to_string(p.elementBits));
  if (width == 0) {
    std::fill(v, v + n, int16_t{0});
    return 0;
  }
  uint64_t present = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; // bit i: value i stored
  if (p.zeroAware) {
    present = in.get(std::min(32, n));
    if (n > 32)
      present |= uint64_t{in.get(n - 32)} << 32;
    if (present == 0)
      failGroup(block, group, "empty zero bitmap in a group of width " + std::to_string(width));
  }
  for (int i = 0; i < n; ++i) {
    if (((present >> i) & 1u) == 0) {
      v[i] = 0;
      continue;
    }
    v[i] = static_cast<int16_t>(signExtend(in.get(width), width));
    if (p.zeroAware && v[i] == 0)
      failGroup(block, group, "value " + std::to_string(i) + " is marked non-zero but is 0");
  }
  const int actual = groupWidth(v, n);
  if (actual != width)
    failGroup(block, group,
              "stored at width " + std::to_string(width) + " but its values need width " +
                  std::to_string(actual));
  return width;
}

/// Decodes block b into out (blockLength(b) values). Returns the container boundary that
/// ends the block, after checking that the padding up to it is zero and that it does not
/// run into the next block.
uint64_t decodeBlock(const CompressedTensor& t, uint64_t b, int16_t* out) {
  const BovedaParams& p = t.params;
  const uint64_t c = static_cast<uint64_t>(p.containerBits);
  const uint64_t start = uint64_t{t.blockPointers[b]} * c;
  const uint64_t limit =
      b + 1 < t.blockPointers.size() ? uint64_t{t.blockPointers[b + 1]} * c : t.words.size() * 32;
  if (start >= limit)
    fail(b, "pointer " + std::to_string(t.blockPointers[b]) +
                " leaves no container before the next block or the stream end");
  const uint64_t len = t.blockLength(b);
  BitReader in(t.words, start);
  try {
    int previousWidth = 0;
    for (uint64_t g = 0; g < len; g += static_cast<uint64_t>(p.groupSize)) {
      const int n = static_cast<int>(std::min<uint64_t>(p.groupSize, len - g));
      previousWidth = decodeGroup(p, in, previousWidth, n, out + g, b, g / p.groupSize);
    }
  } catch (const detail::StreamEnd& e) {
    fail(b, e.what()); // give the reader's error the block's context
  }
  const uint64_t end = (in.position() + c - 1) / c * c;
  if (end > limit)
    fail(b, "data runs to bit " + std::to_string(in.position()) +
                ", past the next block or the stream end at bit " + std::to_string(limit));
  while (in.position() < end) {
    const int bits = static_cast<int>(std::min<uint64_t>(32, end - in.position()));
    if (in.get(bits) != 0)
      fail(b, "non-zero padding before bit " + std::to_string(end));
  }
  return end;
}

void checkLayout(const CompressedTensor& t) {
  t.params.validate();
  const uint64_t c = static_cast<uint64_t>(t.params.containerBits);
  if (t.words.size() * 32 % c != 0)
    throw std::runtime_error("boveda: stream of " + std::to_string(t.words.size()) +
                             " words is not a whole number of " + std::to_string(c) +
                             "-bit containers");
  if (t.blockPointers.size() != t.numBlocks())
    throw std::runtime_error("boveda: " + std::to_string(t.blockPointers.size()) +
                             " block pointers for " + std::to_string(t.numBlocks()) + " blocks");
}

} // namespace

std::vector<int16_t> decompress(const CompressedTensor& t) {
  checkLayout(t);
  std::vector<int16_t> out(t.numValues);
  const uint64_t c = static_cast<uint64_t>(t.params.containerBits);
  uint64_t next = 0; // blocks follow each other without gaps
  for (uint64_t b = 0; b < t.numBlocks(); ++b) {
    if (uint64_t{t.blockPointers[b]} * c != next)
      fail(b, "pointer " + std::to_string(t.blockPointers[b]) +
                  " but the previous block ends at container " + std::to_string(next / c));
    next = decodeBlock(t, b, out.data() + b * static_cast<uint64_t>(t.params.blockValues));
  }
  if (next != t.words.size() * 32)
    throw std::runtime_error("boveda: " + std::to_string((t.words.size() * 32 - next) / c) +
                             " unused containers after the last block");
  return out;
}

std::vector<int16_t> decompressBlock(const CompressedTensor& t, uint64_t block) {
  checkLayout(t);
  if (block >= t.numBlocks())
    throw std::out_of_range("boveda: block " + std::to_string(block) + " of a tensor with " +
                            std::to_string(t.numBlocks()) + " blocks");
  std::vector<int16_t> out(t.blockLength(block));
  decodeBlock(t, block, out.data());
  return out;
}

} // namespace by::boveda
