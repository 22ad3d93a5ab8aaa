// compress(): the streaming packer of docs/boveda.md. Per block: reset the previous width,
// then per group emit [same flag] [width] [zero bitmap] [values], then zero-pad to the
// container boundary. Cost: one pass over the values, O(n).
#include "bitstream.h"
#include "boveda/codec.h"
#include "boveda_spec/width.h"
#include "input.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace by::boveda {

namespace {

using detail::BitWriter;

/// Emits one group and counts its bits; returns the group's width.
int encodeGroup(const BovedaParams& p, const int16_t* v, int n, int previousWidth, BitWriter& out,
                CompressionStats& stats) {
  const int width = groupWidth(v, n);
  const uint64_t start = out.position();
  if (p.sameWidthShortcut && width == previousWidth) {
    out.put(1, 1);
  } else {
    if (p.sameWidthShortcut)
      out.put(0, 1);
    out.put(static_cast<uint32_t>(width), p.headerBits);
  }
  stats.headerBits += out.position() - start;
  ++stats.groupsByWidth[static_cast<size_t>(width)];
  if (width == 0)
    return 0; // all zero: the header says it all

  if (p.zeroAware) {
    // Bit i = value i is non-zero; written in 32-bit pieces because groups reach 64 values.
    for (int base = 0; base < n; base += 32) {
      uint32_t bitmap = 0;
      const int len = std::min(32, n - base);
      for (int i = 0; i < len; ++i)
        bitmap |= static_cast<uint32_t>(v[base + i] != 0) << i;
      out.put(bitmap, len);
    }
    stats.bitmapBits += static_cast<uint64_t>(n);
  }
  for (int i = 0; i < n; ++i) {
    if (p.zeroAware && v[i] == 0)
      continue;
    // The low `width` bits of the two's-complement value; the decoder sign-extends them.
    out.put(static_cast<uint32_t>(static_cast<uint16_t>(v[i])), width);
    stats.payloadBits += static_cast<uint64_t>(width);
  }
  return width;
}

CompressedTensor compressChecked(const BovedaParams& p, const std::vector<int16_t>& values) {
  CompressedTensor t;
  t.params = p;
  t.numValues = values.size();
  CompressionStats& stats = t.stats;
  BitWriter out;
  const uint64_t n = values.size();
  const uint64_t blocks = detail::blockCount(p, n);
  const uint64_t containerBits = static_cast<uint64_t>(p.containerBits);
  t.blockPointers.reserve(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t container = out.position() / containerBits;
    if (p.pointerBits < 32 && container >> p.pointerBits != 0)
      throw std::length_error("boveda: block " + std::to_string(b) + " starts at container " +
                              std::to_string(container) + ", which does not fit a " +
                              std::to_string(p.pointerBits) + "-bit pointer");
    if (container > UINT32_MAX)
      throw std::length_error("boveda: more than 2^32 containers");
    t.blockPointers.push_back(static_cast<uint32_t>(container));

    const uint64_t first = b * static_cast<uint64_t>(p.blockValues);
    const uint64_t end = std::min(n, first + static_cast<uint64_t>(p.blockValues));
    int previousWidth = 0; // reset per block so that every block decodes on its own
    for (uint64_t g = first; g < end; g += static_cast<uint64_t>(p.groupSize)) {
      const int len = static_cast<int>(std::min<uint64_t>(p.groupSize, end - g));
      previousWidth = encodeGroup(p, values.data() + g, len, previousWidth, out, stats);
      ++stats.groups;
    }
    stats.paddingBits += out.padTo(containerBits);
  }
  t.words = out.take();
  stats.values = n;
  stats.blocks = blocks;
  stats.containers = out.position() / containerBits;
  stats.rawBits = n * static_cast<uint64_t>(p.elementBits);
  stats.pointerBits = blocks * static_cast<uint64_t>(p.pointerBits);
  return t;
}

} // namespace

CompressedTensor compress(const BovedaParams& params, const int8_t* values, size_t n) {
  return compressChecked(params, detail::checkedValues(params, values, n));
}

CompressedTensor compress(const BovedaParams& params, const int16_t* values, size_t n) {
  return compressChecked(params, detail::checkedValues(params, values, n));
}

} // namespace by::boveda
