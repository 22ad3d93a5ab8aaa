#pragma once

#include <random>

namespace by::test {

template <class Rng> Matrix randomMatrix(Rng& rng, int rows, int cols, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  Matrix m(rows, cols);
  for (auto& x : m.v)
    x = dist(rng);
  return m;
}

} // namespace by::test
