// Totals of a schedule (docs/tensordash.md, "Counters"). MAC counts are per PE column: they
// count the multipliers of one PE in every row; the whole array does `columns` times as
// many, since the schedule does not depend on the other operand.
#pragma once

#include "tensordash/schedule.h"
#include "tensordash/streams.h"

#include <cstdint>
#include <vector>

namespace by::tensordash {

struct ScheduleStats {
  int64_t cycles = 0;         // scheduler cycles
  int64_t denseCycles = 0;    // steps: what the dense array takes
  int64_t macSlots = 0;       // cycles * rows * lanes
  int64_t macsIssued = 0;     // slots that multiplied a scheduled pair (select != idle)
  int64_t macsIdle = 0;       // macSlots - macsIssued
  int64_t effectualMacs = 0;  // issued with a non-zero scheduled value of the row itself
  int64_t zeroMacsIssued = 0; // issued with a zero of the row (a group mate's non-zero)
  int64_t macsSkipped = 0;    // zeros of the scheduled operand that never took a slot
  /// Window stalls: cycles in which some group had drained more leading steps than the
  /// common advance, i.e. it was held back by another group (lockstep). The advance is
  /// never 0 (the head step always drains), so these are the only window stalls.
  int64_t windowStalls = 0;
  int64_t groupWaits = 0;                // (cycle, group) pairs held back like that
  std::vector<int64_t> advanceHistogram; // [a]: cycles that advanced a steps, a = 0..depth
  double sparsity = 0;                   // zero fraction of the scheduled operand
  double idealSpeedup = 1;               // min(1 / (1 - sparsity), depth)
  /// A lower bound on cycles: max(ceil(steps / depth), max over groups of
  /// ceil(group non-zero entries / lanes)); each cycle moves at most `depth` steps and a
  /// group consumes at most one entry per lane.
  int64_t lowerBoundCycles = 0;

  double speedup() const {
    return cycles > 0 ? static_cast<double>(denseCycles) / static_cast<double>(cycles) : 1.0;
  }
};

/// Computes the totals of `schedule` for the scheduled operand it was made from.
ScheduleStats summarize(const Schedule& schedule, const Streams& scheduled);

} // namespace by::tensordash
