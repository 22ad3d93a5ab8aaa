// The Boveda reference codec: bit-exact compression of signed 8/16-bit tensors into the
// container stream of docs/boveda.md ("Bit format"), whole-tensor and per-block (random
// access) decompression, and a fast size-only estimate for evaluation.
#pragma once

#include "boveda_spec/params.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace by::boveda {

/// Where the bits of a compressed tensor go. Every stream bit is counted exactly once:
/// streamBits() = headerBits + bitmapBits + payloadBits + paddingBits = containers * containerBits.
struct CompressionStats {
  uint64_t values = 0;
  uint64_t blocks = 0;
  uint64_t groups = 0;
  uint64_t containers = 0;
  uint64_t rawBits = 0;                     // values * elementBits (the uncompressed tensor)
  uint64_t headerBits = 0;                  // width headers, including same-width flags
  uint64_t bitmapBits = 0;                  // zero bitmaps (zero-aware only)
  uint64_t payloadBits = 0;                 // stored value bits
  uint64_t paddingBits = 0;                 // zero fill up to each block's last container boundary
  uint64_t pointerBits = 0;                 // pointer table: blocks * pointerBits
  std::array<uint64_t, 17> groupsByWidth{}; // number of groups of each width 0..16

  uint64_t streamBits() const { return headerBits + bitmapBits + payloadBits + paddingBits; }
  /// Everything the compressed tensor occupies: stream + pointer table.
  uint64_t compressedBits() const { return streamBits() + pointerBits; }
  /// rawBits / compressedBits (> 1 means smaller); 1.0 for an empty tensor.
  double ratio() const;

  bool operator==(const CompressionStats& o) const;
  bool operator!=(const CompressionStats& o) const { return !(*this == o); }
};

/// A compressed tensor: the container stream, the block pointer table and the parameters
/// needed to read it back. Plain data, so a stream produced elsewhere (e.g. by the RTL
/// compressor) can be loaded into it and checked by the decoder.
struct CompressedTensor {
  BovedaParams params;
  uint64_t numValues = 0;
  /// The stream, little-endian 32-bit words: stream bit k is bit k%32 of words[k/32].
  /// Always a whole number of containers.
  std::vector<uint32_t> words;
  /// First container of each block (container c = stream bits [c*C, (c+1)*C)).
  std::vector<uint32_t> blockPointers;
  CompressionStats stats;

  uint64_t numBlocks() const;
  uint64_t numContainers() const;
  /// Values in block b: blockValues, except for a shorter last block.
  uint64_t blockLength(uint64_t block) const;
  /// The stream as DRAM bytes (stream bit k is bit k%8 of byte k/8).
  std::vector<uint8_t> bytes() const;
};

/// Compresses `n` values in tensor order (blocks are consecutive runs of blockValues).
/// Throws std::invalid_argument for invalid params or a value outside the signed range of
/// elementBits, std::length_error if a container index does not fit pointerBits.
CompressedTensor compress(const BovedaParams& params, const int8_t* values, size_t n);
CompressedTensor compress(const BovedaParams& params, const int16_t* values, size_t n);
inline CompressedTensor compress(const BovedaParams& params, const std::vector<int8_t>& values) {
  return compress(params, values.data(), values.size());
}
inline CompressedTensor compress(const BovedaParams& params, const std::vector<int16_t>& values) {
  return compress(params, values.data(), values.size());
}

/// Decompresses the whole tensor. The decoder accepts only the canonical stream that
/// compress() produces (smallest widths, consistent bitmaps, zero padding, tight pointers)
/// and throws std::runtime_error naming the block and group otherwise, so it doubles as a
/// checker for streams produced by the RTL.
std::vector<int16_t> decompress(const CompressedTensor& tensor);
/// Decompresses block `block` alone, reading only the containers from its pointer on.
/// Throws std::out_of_range for a bad index, std::runtime_error for a malformed block.
std::vector<int16_t> decompressBlock(const CompressedTensor& tensor, uint64_t block);

/// The stats compress() would report, computed from group widths alone without building the
/// stream (the fast path for footprint and traffic evaluation). Same exceptions as compress().
CompressionStats measure(const BovedaParams& params, const int8_t* values, size_t n);
CompressionStats measure(const BovedaParams& params, const int16_t* values, size_t n);
inline CompressionStats measure(const BovedaParams& params, const std::vector<int8_t>& values) {
  return measure(params, values.data(), values.size());
}
inline CompressionStats measure(const BovedaParams& params, const std::vector<int16_t>& values) {
  return measure(params, values.data(), values.size());
}

/// Total compressed size (stream + pointer table) in bits: measure(...).compressedBits().
template <typename T> uint64_t compressedBits(const BovedaParams& params, const std::vector<T>& v) {
  return measure(params, v).compressedBits();
}

} // namespace by::boveda
