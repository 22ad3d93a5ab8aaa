#include "tensordash/executor.h"

#include <stdexcept>
#include <string>

namespace by::tensordash {

Execution execute(const Schedule& schedule, const Streams& a, const Streams& b) {
  const TensorDashParams& p = schedule.params();
  if (a.count() != p.rows || a.lanes() != p.lanes || a.steps() != schedule.steps() ||
      b.lanes() != p.lanes || b.steps() != schedule.steps())
    throw std::invalid_argument("tensordash: execute: operands do not match the schedule");
  Execution x;
  x.rows = p.rows;
  x.columns = b.count();
  x.groups = p.groups();
  x.steps = schedule.steps();
  x.lanes = p.lanes;
  // Unsigned accumulators: wrap-around is defined, and equal to int32 two's complement.
  std::vector<uint32_t> acc(static_cast<size_t>(x.rows) * x.columns, 0);
  x.uses.assign(static_cast<size_t>(x.groups) * x.steps * x.lanes, 0);

  for (int c = 0; c < schedule.cycles(); ++c)
    for (int g = 0; g < x.groups; ++g)
      for (int l = 0; l < x.lanes; ++l) {
        const int k = schedule.select(c, g, l);
        if (k == kIdle)
          continue;
        if (k < 0 || k >= p.candidates())
          throw std::out_of_range("tensordash: cycle " + std::to_string(c) + " selects " +
                                  std::to_string(k) + ", not a candidate");
        const int t = schedule.base(c) + p.pattern[k].dt;
        const int j = ringLane(l, p.pattern[k].dl, x.lanes);
        if (t < 0 || t >= x.steps)
          throw std::out_of_range("tensordash: cycle " + std::to_string(c) + " lane " +
                                  std::to_string(l) + " reads step " + std::to_string(t) +
                                  " outside the stream");
        ++x.uses[(static_cast<size_t>(g) * x.steps + t) * x.lanes + j];
        for (int r = g * p.rowsPerScheduler; r < (g + 1) * p.rowsPerScheduler; ++r) {
          const int64_t av = a.at(r, t, j);
          for (int col = 0; col < x.columns; ++col)
            acc[static_cast<size_t>(r) * x.columns + col] +=
                static_cast<uint32_t>(av * b.at(col, t, j));
        }
      }
  x.result.resize(acc.size());
  for (size_t i = 0; i < acc.size(); ++i)
    x.result[i] = static_cast<int32_t>(acc[i]);
  return x;
}

} // namespace by::tensordash
