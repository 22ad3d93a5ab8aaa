#include "golden/matmul.h"

#include "golden/arith.h"

#include <stdexcept>

namespace by::golden {

namespace {
void checkShapes(const Matrix& a, const Matrix& b, const Matrix& d) {
  if (a.cols != b.rows || d.rows != a.rows || d.cols != b.cols)
    throw std::invalid_argument("matmul: inconsistent matrix shapes");
}
} // namespace

Matrix matmulWs(const Matrix& a, const Matrix& b, const Matrix& d, int outputWidth) {
  checkShapes(a, b, d);
  Matrix c(a.rows, b.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < b.cols; ++j) {
      int64_t sum = d.at(i, j);
      for (int k = 0; k < a.cols; ++k)
        sum += a.at(i, k) * b.at(k, j);
      c.at(i, j) = wrap(sum, outputWidth);
    }
  return c;
}

Matrix matmulOs(const Matrix& a, const Matrix& b, const Matrix& d, int accWidth, int outputWidth,
                int shift) {
  checkShapes(a, b, d);
  Matrix c(a.rows, b.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < b.cols; ++j) {
      int64_t sum = wrap(d.at(i, j), outputWidth);
      for (int k = 0; k < a.cols; ++k)
        sum += a.at(i, k) * b.at(k, j);
      c.at(i, j) = saturate(roundingShift(wrap(sum, accWidth), shift), outputWidth);
    }
  return c;
}

} // namespace by::golden
