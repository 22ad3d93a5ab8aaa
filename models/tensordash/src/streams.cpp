#include "tensordash/streams.h"

#include <stdexcept>
#include <string>

namespace by::tensordash {

Streams::Streams(int count, int steps, int lanes) : count_(count), steps_(steps), lanes_(lanes) {
  if (count < 0 || steps < 0 || lanes < 1)
    throw std::invalid_argument("tensordash: streams: bad shape " + std::to_string(count) + "x" +
                                std::to_string(steps) + "x" + std::to_string(lanes));
  v_.assign(static_cast<size_t>(count) * steps * lanes, 0);
}

uint64_t Streams::nonZeroMask(int stream, int step) const {
  uint64_t mask = 0;
  const int32_t* p = &v_[index(stream, step, 0)];
  for (int l = 0; l < lanes_; ++l)
    if (p[l] != 0)
      mask |= uint64_t{1} << l;
  return mask;
}

int64_t Streams::nonZeros() const {
  int64_t n = 0;
  for (int32_t x : v_)
    n += x != 0;
  return n;
}

} // namespace by::tensordash
