#include "boveda_weights.h"

#include "boveda/codec.h"
#include "boveda_spec/params.h"
#include "hwspec/isa.h"

#include <algorithm>

namespace by::compiler {

BovedaTensorBytes activationTensorBytes(int64_t images, int64_t rows, int64_t cols,
                                        int64_t channels, int64_t group,
                                        const config::Config& config) {
  const boveda::BovedaParams params =
      boveda::paramsFromConfig(config.boveda, config.types.inputWidth, 1);
  const int64_t container = config.boveda.containerBits;
  // A block of `values` values at its largest: every group at full width.
  auto blockBytes = [&](int64_t values) {
    const int64_t groups = (values + params.groupSize - 1) / params.groupSize;
    return (groups * params.maxGroupBits() + container - 1) / container * (container / 8);
  };
  const int64_t full = channels / group, rest = channels % group;
  const int64_t row = full * blockBytes(cols * group) + (rest ? blockBytes(cols * rest) : 0);
  const int64_t blocks = images * rows * (full + (rest ? 1 : 0));
  return {blocks * int64_t(hw::isa::kBovedaEntryBytes), images * rows * row};
}

int64_t activationStoredBytes(const std::vector<int8_t>& nhwc, int64_t images, int64_t rows,
                              int64_t cols, int64_t channels, int64_t group,
                              const config::Config& config) {
  const int64_t containerBytes = config.boveda.containerBits / 8;
  int64_t bytes = 0;
  std::vector<int8_t> block;
  for (int64_t row = 0; row < images * rows; ++row)
    for (int64_t c0 = 0; c0 < channels; c0 += group) {
      const int64_t width = std::min(group, channels - c0);
      block.clear();
      for (int64_t x = 0; x < cols; ++x) {
        const auto first = nhwc.begin() + (row * cols + x) * channels + c0;
        block.insert(block.end(), first, first + width);
      }
      const boveda::BovedaParams params =
          boveda::paramsFromConfig(config.boveda, config.types.inputWidth, int(block.size()));
      bytes += int64_t(boveda::compress(params, block).numContainers()) * containerBytes +
               int64_t(hw::isa::kBovedaEntryBytes);
    }
  return bytes;
}

BovedaMatrix compressMatrix(const std::vector<int8_t>& m, int64_t rows, int64_t cols, int blockCols,
                            int dim, const config::Config& config) {
  BovedaMatrix out;
  out.blockCols = blockCols;
  const int containerBytes = config.boveda.containerBits / 8;
  uint32_t containers = 0;
  for (int64_t r0 = 0; r0 < rows; r0 += dim)
    for (int64_t c0 = 0; c0 < cols; c0 += blockCols) {
      const int64_t br = std::min<int64_t>(dim, rows - r0),
                    bc = std::min<int64_t>(blockCols, cols - c0);
      std::vector<int8_t> block;
      block.reserve(size_t(br * bc));
      for (int64_t r = 0; r < br; ++r)
        for (int64_t c = 0; c < bc; ++c)
          block.push_back(m[size_t((r0 + r) * cols + c0 + c)]);
      const boveda::BovedaParams params =
          boveda::paramsFromConfig(config.boveda, config.types.inputWidth, int(br * bc));
      const boveda::CompressedTensor t = boveda::compress(params, block);
      const std::vector<uint8_t> bytes = t.bytes();
      const uint32_t count = uint32_t(t.numContainers());
      for (int i = 0; i < 4; ++i)
        out.table.push_back(char(containers >> (8 * i)));
      for (int i = 0; i < 4; ++i)
        out.table.push_back(char(count >> (8 * i)));
      out.stream.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      out.stream.resize(size_t(containers + count) * size_t(containerBytes), '\0');
      containers += count;
    }
  return out;
}

} // namespace by::compiler
