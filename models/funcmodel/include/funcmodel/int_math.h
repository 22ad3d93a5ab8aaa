// Integer helpers shared by the model's command implementations and its program generator.
#pragma once

#include <cstdint>

namespace by::funcmodel {

/// a / b rounded up (b > 0): column blocks of a move, containers of a stream.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

} // namespace by::funcmodel
