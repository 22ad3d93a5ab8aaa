// Cycle-exact model of the TensorDash staging windows and schedulers of one array.
//
// Per PE row, a staging window holds steps base .. base+lookahead of that row's scheduled
// operand stream. Per group of rowsPerScheduler rows, one scheduler sees the OR of its
// rows' non-zero bitmaps minus what it already consumed ("pending"), and picks per lane one
// candidate by the SchedulerPlan (levels of priority encoders). At the end of the cycle
// every group counts its leading steps with nothing pending; the window of every row moves
// by the minimum of these counts over all groups (the other operand's window is shared by
// all rows, so all rows move in lockstep), refilling from the streams (zeros past the end).
// The run ends when the base passes the last step.
//
// Each cycle every window-0 entry is either zero or candidate 0 = (0,0) of its own lane,
// which has top priority in its level, so the head step always drains: the advance is at
// least 1 and the cycle count never exceeds the dense one. Cost per cycle:
// O(groups * lanes * candidates).
#pragma once

#include "tensordash/schedule.h"
#include "tensordash/streams.h"
#include "tensordash_spec/plan.h"

#include <cstdint>
#include <vector>

namespace by::tensordash {

class WindowScheduler {
public:
  /// `scheduled` holds one stream per PE row (params.rows streams of params.lanes lanes).
  /// Throws std::invalid_argument on invalid params or mismatched streams.
  WindowScheduler(const TensorDashParams& params, const Streams& scheduled);

  const TensorDashParams& params() const { return params_; }
  const SchedulerPlan& plan() const { return plan_; }
  int steps() const { return steps_; }
  bool done() const { return base_ >= steps_; }
  int cycle() const { return cycle_; }
  int base() const { return base_; }
  /// Bit j set: window entry (base + depth, lane j) of `group` is non-zero in some row of
  /// the group and not yet consumed.
  uint64_t pending(int group, int depth) const {
    return pending_[static_cast<size_t>(group) * params_.depth() + depth];
  }

  /// Runs one cycle (requires !done()) and writes what happened into `out` (reusing its
  /// storage).
  void step(CycleRecord& out);

private:
  uint64_t groupMask(int group, int step) const {
    return step < steps_ ? groupMask_[static_cast<size_t>(group) * steps_ + step] : 0;
  }
  void scheduleGroup(int group, int8_t* select);

  TensorDashParams params_;
  SchedulerPlan plan_;
  int steps_;
  int base_ = 0;
  int cycle_ = 0;
  std::vector<uint64_t> groupMask_; // [group * steps + step]: OR of the rows' bitmaps
  std::vector<uint64_t> pending_;   // [group * depth + d]
};

/// Runs the model to completion and records every cycle.
Schedule runScheduler(const TensorDashParams& params, const Streams& scheduled);
/// The cycle count alone (same model, nothing recorded).
int64_t cyclesFor(const TensorDashParams& params, const Streams& scheduled);

} // namespace by::tensordash
