// Operand streams in the output-stationary reduction layout: `count` streams of `steps`
// steps of `lanes` values; value (s, t, l) is reduction index k = t*lanes + l of stream s.
// The scheduled operand has one stream per PE row (A[r][k]), the other operand one per PE
// column (B[k][c]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace by::tensordash {

class Streams {
public:
  Streams() = default;
  Streams(int count, int steps, int lanes); // zero-filled; throws std::invalid_argument

  int count() const { return count_; }
  int steps() const { return steps_; }
  int lanes() const { return lanes_; }

  int32_t& at(int stream, int step, int lane) { return v_[index(stream, step, lane)]; }
  int32_t at(int stream, int step, int lane) const { return v_[index(stream, step, lane)]; }

  /// Non-zero bitmap of one step: bit l set if value (stream, step, l) != 0. lanes <= 64.
  uint64_t nonZeroMask(int stream, int step) const;
  /// Number of non-zero values in all streams.
  int64_t nonZeros() const;
  int64_t size() const { return static_cast<int64_t>(v_.size()); }

private:
  size_t index(int stream, int step, int lane) const {
    return (static_cast<size_t>(stream) * steps_ + step) * lanes_ + lane;
  }

  int count_ = 0;
  int steps_ = 0;
  int lanes_ = 0;
  std::vector<int32_t> v_;
};

} // namespace by::tensordash
