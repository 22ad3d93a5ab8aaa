#include "tensordash/scheduler.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace by::tensordash {

namespace {

const TensorDashParams& checked(const TensorDashParams& params, const Streams& scheduled) {
  params.validate();
  if (scheduled.count() != params.rows || scheduled.lanes() != params.lanes)
    throw std::invalid_argument(
        "tensordash: scheduled operand has " + std::to_string(scheduled.count()) + " streams of " +
        std::to_string(scheduled.lanes()) + " lanes; expected " + std::to_string(params.rows) +
        " (rows) of " + std::to_string(params.lanes));
  return params;
}

} // namespace

WindowScheduler::WindowScheduler(const TensorDashParams& params, const Streams& scheduled)
    : params_(checked(params, scheduled)), plan_(params_), steps_(scheduled.steps()) {
  const int groups = params_.groups();
  groupMask_.assign(static_cast<size_t>(groups) * steps_, 0);
  for (int r = 0; r < params_.rows; ++r)
    for (int t = 0; t < steps_; ++t)
      groupMask_[static_cast<size_t>(params_.groupOf(r)) * steps_ + t] |=
          scheduled.nonZeroMask(r, t);
  pending_.assign(static_cast<size_t>(groups) * params_.depth(), 0);
  for (int g = 0; g < groups; ++g)
    for (int d = 0; d < params_.depth(); ++d)
      pending_[static_cast<size_t>(g) * params_.depth() + d] = groupMask(g, d);
}

void WindowScheduler::scheduleGroup(int group, int8_t* select) {
  uint64_t* pending = &pending_[static_cast<size_t>(group) * params_.depth()];
  std::array<uint64_t, kMaxLookahead + 1> seen{};
  for (int n = 0; n < plan_.levels(); ++n) {
    // All lanes of a level look at the same snapshot (they decide in parallel in hardware);
    // their candidate sets are disjoint, so no two of them can pick the same entry.
    std::copy(pending, pending + params_.depth(), seen.begin());
    for (int lane : plan_.level(n)) {
      for (int k = 0; k < plan_.candidates(); ++k) {
        if (!plan_.live(k))
          continue;
        const WindowEntry e = plan_.source(lane, k);
        const uint64_t bit = uint64_t{1} << e.lane;
        if (seen[e.depth] & bit) {
          if (!(pending[e.depth] & bit))
            throw std::logic_error("tensordash: two lanes of one level took the same entry");
          pending[e.depth] &= ~bit;
          select[lane] = static_cast<int8_t>(k);
          break;
        }
      }
    }
  }
}

void WindowScheduler::step(CycleRecord& out) {
  if (done())
    throw std::logic_error("tensordash: step() after the last step");
  const int groups = params_.groups();
  const int depth = params_.depth();
  out.base = base_;
  out.select.assign(static_cast<size_t>(groups) * params_.lanes, static_cast<int8_t>(kIdle));
  out.groupAdvance.assign(groups, 0);

  int advance = depth;
  for (int g = 0; g < groups; ++g) {
    scheduleGroup(g, &out.select[static_cast<size_t>(g) * params_.lanes]);
    int own = 0;
    while (own < depth && pending(g, own) == 0)
      ++own;
    out.groupAdvance[g] = own;
    advance = std::min(advance, own);
  }
  if (advance < 1)
    throw std::logic_error("tensordash: the head step did not drain"); // see header comment
  out.advance = advance;

  // Move every window by `advance`: kept entries keep their pending bits, new steps enter
  // with their full group bitmap.
  for (int g = 0; g < groups; ++g) {
    uint64_t* w = &pending_[static_cast<size_t>(g) * depth];
    for (int d = 0; d < depth; ++d)
      w[d] = d + advance < depth ? w[d + advance] : groupMask(g, base_ + advance + d);
  }
  base_ += advance;
  ++cycle_;
}

Schedule runScheduler(const TensorDashParams& params, const Streams& scheduled) {
  WindowScheduler s(params, scheduled);
  Schedule out(params, s.steps());
  CycleRecord r;
  while (!s.done()) {
    s.step(r);
    out.append(r);
  }
  return out;
}

int64_t cyclesFor(const TensorDashParams& params, const Streams& scheduled) {
  WindowScheduler s(params, scheduled);
  CycleRecord r;
  while (!s.done())
    s.step(r);
  return s.cycle();
}

} // namespace by::tensordash
