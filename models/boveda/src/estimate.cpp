// measure(): the size of the stream from group widths and non-zero counts alone, without
// packing bits. It is the closed form of the encoder's layout, so tests hold the two equal.
#include "boveda/codec.h"
#include "boveda_spec/width.h"
#include "input.h"

#include <algorithm>

namespace by::boveda {

namespace {

CompressionStats measureChecked(const BovedaParams& p, const std::vector<int16_t>& values) {
  CompressionStats s;
  const uint64_t n = values.size();
  const uint64_t c = static_cast<uint64_t>(p.containerBits);
  const uint64_t header = static_cast<uint64_t>(p.headerBits);
  s.values = n;
  s.blocks = detail::blockCount(p, n);
  s.rawBits = n * static_cast<uint64_t>(p.elementBits);
  s.pointerBits = s.blocks * static_cast<uint64_t>(p.pointerBits);
  for (uint64_t first = 0; first < n; first += static_cast<uint64_t>(p.blockValues)) {
    const uint64_t end = std::min(n, first + static_cast<uint64_t>(p.blockValues));
    uint64_t blockBits = 0;
    int previous = 0;
    for (uint64_t g = first; g < end; g += static_cast<uint64_t>(p.groupSize)) {
      const int len = static_cast<int>(std::min<uint64_t>(p.groupSize, end - g));
      const int16_t* v = values.data() + g;
      const int w = groupWidth(v, len);
      uint64_t headerCost = header;
      if (p.sameWidthShortcut)
        headerCost = w == previous ? 1 : 1 + header;
      previous = w;
      uint64_t stored = 0; // values whose payload is kept
      if (w > 0)
        stored =
            p.zeroAware
                ? static_cast<uint64_t>(std::count_if(v, v + len, [](int16_t x) { return x != 0; }))
                : static_cast<uint64_t>(len);
      const uint64_t bitmap = p.zeroAware && w > 0 ? static_cast<uint64_t>(len) : 0;
      const uint64_t payload = stored * static_cast<uint64_t>(w);
      s.headerBits += headerCost;
      s.bitmapBits += bitmap;
      s.payloadBits += payload;
      ++s.groupsByWidth[static_cast<size_t>(w)];
      ++s.groups;
      blockBits += headerCost + bitmap + payload;
    }
    const uint64_t containers = (blockBits + c - 1) / c;
    s.containers += containers;
    s.paddingBits += containers * c - blockBits;
  }
  return s;
}

} // namespace

CompressionStats measure(const BovedaParams& params, const int8_t* values, size_t n) {
  return measureChecked(params, detail::checkedValues(params, values, n));
}

CompressionStats measure(const BovedaParams& params, const int16_t* values, size_t n) {
  return measureChecked(params, detail::checkedValues(params, values, n));
}

} // namespace by::boveda
