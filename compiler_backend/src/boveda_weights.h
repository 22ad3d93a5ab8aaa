// Boveda layouts the compiler makes. Weights pre-compressed offline by the Boveda reference codec
// (boveda/codec.h) in the layout the driver's compressed matrices read (brickyard/boveda.h,
// by_boveda_matrix_t): blocks of DIM rows x blockCols columns, each compressed alone and starting
// on a container boundary, entry band * colBlocks + colBlock = {first container, containers}
// little-endian; and the DRAM an activation tensor the loops compress at run time needs.
#pragma once

#include "config/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::compiler {

struct BovedaMatrix {
  std::string stream; // the containers of every block
  std::string table;  // 8-byte pointer entries
  int blockCols = 0;
};

/// The DRAM a compressed activation tensor takes (brickyard/boveda.h, by_boveda_tensor_t: one
/// block per image row and channel group of `group` channels): its pointer table, and its stream
/// in the worst case (every group at full width), as by_boveda_tensor_stream_bytes computes it.
struct BovedaTensorBytes {
  int64_t table = 0, stream = 0;
};
BovedaTensorBytes activationTensorBytes(int64_t images, int64_t rows, int64_t cols,
                                        int64_t channels, int64_t group,
                                        const config::Config& config);

/// The bytes an NHWC int8 tensor of `images` x `rows` x `cols` x `channels` takes as a compressed
/// activation tensor (blocks of one image row and `group` channels, each compressed alone and
/// padded to whole containers, plus one pointer entry each), by the reference codec.
int64_t activationStoredBytes(const std::vector<int8_t>& nhwc, int64_t images, int64_t rows,
                              int64_t cols, int64_t channels, int64_t group,
                              const config::Config& config);

/// Activations are stored compressed only where the calibration sample shrinks to at most this
/// share (compressed moves cost the loader a pointer entry and a block's padding; a tensor
/// without ReLU zeros, as MobileNetV2's linear bottlenecks, compresses to more than raw).
constexpr int64_t kActivationsMaxPercent = 90;

/// Whether storing `rawBytes` of weights as `m` pays: stream and table together at most
/// `maxPercent` of the raw bytes. A convolution loop's compressed weight moves cost cycles (a
/// compressed MVIN per DIM x DIM block, the decompressor's group a cycle: ResNet's 512-channel
/// 3x3 layer took 1.13x the default's cycles), so there weights that barely compress (random
/// ones: 0.995 zero-aware) stay raw (kConvWeightsMaxPercent); a batch-1 dense layer is bound by
/// its weight bytes (wide blocks, one per LOOP_WS move), so any saving pays there.
constexpr int64_t kConvWeightsMaxPercent = 90, kDenseWeightsMaxPercent = 99;
inline bool compressionPays(const BovedaMatrix& m, int64_t rawBytes, int64_t maxPercent) {
  return 100 * int64_t(m.stream.size() + m.table.size()) <= maxPercent * rawBytes;
}

/// Compresses a rows x cols int8 matrix (row-major) for the config's Boveda format.
BovedaMatrix compressMatrix(const std::vector<int8_t>& m, int64_t rows, int64_t cols, int blockCols,
                            int dim, const config::Config& config);

} // namespace by::compiler
