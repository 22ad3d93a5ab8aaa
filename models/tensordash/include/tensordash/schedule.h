// The output of the scheduler: for every cycle, the window base, the advance, and per
// group and lane the chosen candidate. Everything else (the executor, the statistics, an
// RTL testbench comparing cycle by cycle) is derived from these records.
#pragma once

#include "tensordash_spec/params.h"

#include <cstdint>
#include <vector>

namespace by::tensordash {

constexpr int kIdle = -1; // select of a lane that multiplies nothing this cycle

/// One scheduler cycle.
struct CycleRecord {
  int base = 0;                  // step held at window depth 0 during this cycle
  int advance = 0;               // steps the window moves at the end of this cycle
  std::vector<int> groupAdvance; // [group]: leading steps that group alone had drained
  std::vector<int8_t> select;    // [group * lanes + lane]: pattern index or kIdle
};

class Schedule {
public:
  Schedule(TensorDashParams params, int steps); // validates params

  const TensorDashParams& params() const { return params_; }
  int steps() const { return steps_; } // the dense cycle count
  int cycles() const { return static_cast<int>(base_.size()); }

  int base(int cycle) const { return base_[cycle]; }
  int advance(int cycle) const { return advance_[cycle]; }
  int groupAdvance(int cycle, int group) const {
    return groupAdvance_[static_cast<size_t>(cycle) * params_.groups() + group];
  }
  int select(int cycle, int group, int lane) const {
    return select_[(static_cast<size_t>(cycle) * params_.groups() + group) * params_.lanes + lane];
  }

  /// Appends one cycle; throws std::invalid_argument if its sizes do not match the params.
  void append(const CycleRecord& record);

private:
  TensorDashParams params_;
  int steps_;
  std::vector<int> base_, advance_, groupAdvance_;
  std::vector<int8_t> select_;
};

} // namespace by::tensordash
