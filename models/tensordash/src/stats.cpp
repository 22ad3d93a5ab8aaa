#include "tensordash/stats.h"

#include <algorithm>
#include <stdexcept>

namespace by::tensordash {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

} // namespace

ScheduleStats summarize(const Schedule& schedule, const Streams& scheduled) {
  const TensorDashParams& p = schedule.params();
  if (scheduled.count() != p.rows || scheduled.lanes() != p.lanes ||
      scheduled.steps() != schedule.steps())
    throw std::invalid_argument("tensordash: summarize: operand does not match the schedule");
  const int groups = p.groups();
  const int steps = schedule.steps();
  ScheduleStats s;
  s.cycles = schedule.cycles();
  s.denseCycles = steps;
  s.macSlots = s.cycles * p.rows * p.lanes;
  s.advanceHistogram.assign(p.depth() + 1, 0);

  for (int c = 0; c < schedule.cycles(); ++c) {
    const int advance = schedule.advance(c);
    ++s.advanceHistogram[std::clamp(advance, 0, p.depth())];
    bool stalled = false;
    for (int g = 0; g < groups; ++g) {
      if (schedule.groupAdvance(c, g) > advance) {
        stalled = true;
        ++s.groupWaits;
      }
      for (int l = 0; l < p.lanes; ++l) {
        const int k = schedule.select(c, g, l);
        if (k == kIdle)
          continue;
        const int t = schedule.base(c) + p.pattern[k].dt;
        const int j = ringLane(l, p.pattern[k].dl, p.lanes);
        for (int r = g * p.rowsPerScheduler; r < (g + 1) * p.rowsPerScheduler; ++r) {
          ++s.macsIssued;
          if (t < steps && scheduled.at(r, t, j) != 0)
            ++s.effectualMacs;
          else
            ++s.zeroMacsIssued;
        }
      }
    }
    s.windowStalls += stalled;
  }
  s.macsIdle = s.macSlots - s.macsIssued;
  const int64_t values = scheduled.size();
  const int64_t zeros = values - scheduled.nonZeros();
  s.macsSkipped = zeros - s.zeroMacsIssued;
  s.sparsity = values > 0 ? static_cast<double>(zeros) / static_cast<double>(values) : 0.0;
  s.idealSpeedup = s.sparsity >= 1.0
                       ? p.depth()
                       : std::min(1.0 / (1.0 - s.sparsity), static_cast<double>(p.depth()));

  s.lowerBoundCycles = ceilDiv(steps, p.depth());
  for (int g = 0; g < groups; ++g) {
    int64_t entries = 0;
    for (int t = 0; t < steps; ++t) {
      uint64_t mask = 0;
      for (int r = g * p.rowsPerScheduler; r < (g + 1) * p.rowsPerScheduler; ++r)
        mask |= scheduled.nonZeroMask(r, t);
      entries += __builtin_popcountll(mask);
    }
    s.lowerBoundCycles = std::max(s.lowerBoundCycles, ceilDiv(entries, p.lanes));
  }
  return s;
}

} // namespace by::tensordash
