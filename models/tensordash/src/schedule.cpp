#include "tensordash/schedule.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace by::tensordash {

Schedule::Schedule(TensorDashParams params, int steps) : params_(std::move(params)), steps_(steps) {
  params_.validate();
  if (steps < 0)
    throw std::invalid_argument("tensordash: schedule: negative step count");
}

void Schedule::append(const CycleRecord& r) {
  const size_t groups = static_cast<size_t>(params_.groups());
  if (r.groupAdvance.size() != groups || r.select.size() != groups * params_.lanes)
    throw std::invalid_argument("tensordash: schedule: cycle record does not match " +
                                std::to_string(groups) + " groups of " +
                                std::to_string(params_.lanes) + " lanes");
  base_.push_back(r.base);
  advance_.push_back(r.advance);
  groupAdvance_.insert(groupAdvance_.end(), r.groupAdvance.begin(), r.groupAdvance.end());
  select_.insert(select_.end(), r.select.begin(), r.select.end());
}

} // namespace by::tensordash
