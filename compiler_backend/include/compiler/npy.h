// NumPy .npy files (format 1.0-3.0, C order, little-endian): the tensors `brickyard run`
// reads (inputs, calibration samples) and writes (outputs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace by::compiler {

struct NpyArray {
  std::string dtype; // "f4", "f8", "i1", "u1", "i4", "i8"
  std::vector<int64_t> shape;
  std::vector<double> values; // converted
  int64_t numel() const;
};

/// Reads a .npy file. Throws CompileError naming the file for anything else (wrong magic,
/// Fortran order, big-endian, an unsupported dtype, truncated data).
NpyArray readNpy(const std::string& path);

/// Writes float32 / int8 arrays (atomically: a temporary file renamed into place).
void writeNpyFloat(const std::string& path, const std::vector<int64_t>& shape,
                   const std::vector<float>& values);
void writeNpyInt8(const std::string& path, const std::vector<int64_t>& shape,
                  const std::vector<int8_t>& values);

} // namespace by::compiler
