// Weights pre-compressed offline by the Boveda reference codec (boveda/codec.h) in the layout
// the driver's compressed matrices read (brickyard/boveda.h, by_boveda_matrix_t): blocks of
// DIM rows x blockCols columns, each compressed alone and starting on a container boundary,
// entry band * colBlocks + colBlock = {first container, containers} little-endian.
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

/// Compresses a rows x cols int8 matrix (row-major) for the config's Boveda format.
BovedaMatrix compressMatrix(const std::vector<int8_t>& m, int64_t rows, int64_t cols, int blockCols,
                            int dim, const config::Config& config);

} // namespace by::compiler
