#include "boveda/codec.h"

#include <algorithm>

namespace by::boveda {

double CompressionStats::ratio() const {
  const uint64_t c = compressedBits();
  return c == 0 ? 1.0 : static_cast<double>(rawBits) / static_cast<double>(c);
}

bool CompressionStats::operator==(const CompressionStats& o) const {
  return values == o.values && blocks == o.blocks && groups == o.groups &&
         containers == o.containers && rawBits == o.rawBits && headerBits == o.headerBits &&
         bitmapBits == o.bitmapBits && payloadBits == o.payloadBits &&
         paddingBits == o.paddingBits && pointerBits == o.pointerBits &&
         groupsByWidth == o.groupsByWidth;
}

uint64_t CompressedTensor::numBlocks() const {
  const auto b = static_cast<uint64_t>(params.blockValues);
  return b == 0 ? 0 : (numValues + b - 1) / b;
}

uint64_t CompressedTensor::numContainers() const {
  return params.containerBits <= 0
             ? 0
             : words.size() * 32 / static_cast<uint64_t>(params.containerBits);
}

uint64_t CompressedTensor::blockLength(uint64_t block) const {
  const auto b = static_cast<uint64_t>(params.blockValues);
  const uint64_t first = block * b;
  return first >= numValues ? 0 : std::min(b, numValues - first);
}

std::vector<uint8_t> CompressedTensor::bytes() const {
  std::vector<uint8_t> out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i)
      out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  return out;
}

} // namespace by::boveda
