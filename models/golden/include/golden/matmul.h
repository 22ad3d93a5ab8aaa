// Plain matrix arithmetic: what a WS or OS pass of the array computes, written as loops
// over the definition in docs/arithmetic.md. Independent of the mesh model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace by::golden {

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<int64_t> v;
  Matrix() = default;
  Matrix(int r, int c) : rows(r), cols(c), v(static_cast<size_t>(r) * c, 0) {}
  int64_t& at(int r, int c) { return v[static_cast<size_t>(r) * cols + c]; }
  int64_t at(int r, int c) const { return v[static_cast<size_t>(r) * cols + c]; }
  bool operator==(const Matrix& o) const { return rows == o.rows && cols == o.cols && v == o.v; }
};

/// Weight-stationary: C = D + A*B, wrapping at outputWidth bits (partial sums travel at the
/// array's output width).
Matrix matmulWs(const Matrix& a, const Matrix& b, const Matrix& d, int outputWidth);

/// Output-stationary: acc = D + A*B wrapping at accWidth (D taken as an outputWidth-bit
/// value), then C = saturate(roundingShift(acc, shift), outputWidth).
Matrix matmulOs(const Matrix& a, const Matrix& b, const Matrix& d, int accWidth, int outputWidth,
                int shift);

} // namespace by::golden
