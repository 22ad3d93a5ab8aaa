// Applies a schedule to real operands the way the array would: in cycle c, PE(r, col)
// multiplies, for every lane l whose group select is k != idle, the scheduled value at
// window entry (base + dt_k, (l + dl_k) mod lanes) of row r with the other operand's value
// at the same entry of column col (its window moves with the same select), and adds the
// dot product to its output-stationary accumulator, wrapping at 32 bits.
//
// It also counts how often every (group, step, lane) entry was issued, which is what proves
// a schedule right: each entry non-zero in the group exactly once, every other entry never.
// Cost: O(cycles * lanes * rows * columns).
#pragma once

#include "tensordash/schedule.h"
#include "tensordash/streams.h"

#include <cstdint>
#include <vector>

namespace by::tensordash {

struct Execution {
  int rows = 0, columns = 0, groups = 0, steps = 0, lanes = 0;
  std::vector<int32_t> result; // [row * columns + column]
  std::vector<int32_t> uses;   // [(group * steps + step) * lanes + lane]

  int32_t at(int row, int column) const {
    return result[static_cast<size_t>(row) * columns + column];
  }
  int32_t usesOf(int group, int step, int lane) const {
    return uses[(static_cast<size_t>(group) * steps + step) * lanes + lane];
  }
};

/// `a`: the scheduled operand, one stream per PE row; `b`: the other operand, one stream per
/// PE column; both with the schedule's steps and lanes. Throws std::invalid_argument on
/// mismatched shapes and std::out_of_range on a select outside the pattern or the stream.
Execution execute(const Schedule& schedule, const Streams& a, const Streams& b);

} // namespace by::tensordash
