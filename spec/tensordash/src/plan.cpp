#include "tensordash_spec/plan.h"

#include <algorithm>
#include <stdexcept>

namespace by::tensordash {

SchedulerPlan::SchedulerPlan(const TensorDashParams& params)
    : lanes_(params.lanes), depth_(params.depth()) {
  params.validate();
  const int k = params.candidates();
  source_.resize(static_cast<size_t>(lanes_) * k);
  for (int l = 0; l < lanes_; ++l)
    for (int c = 0; c < k; ++c)
      source_[l * k + c] = {params.pattern[c].dt, ringLane(l, params.pattern[c].dl, lanes_)};

  // Aliases are lane-independent (the ring is symmetric), so lane 0 decides.
  aliasOf_.assign(k, -1);
  for (int c = 0; c < k; ++c)
    for (int e = 0; e < c && aliasOf_[c] < 0; ++e)
      if (source(0, e) == source(0, c))
        aliasOf_[c] = e;

  // Conflict graph: O(lanes^2 * k^2), at most a few million comparisons, once.
  conflict_.assign(static_cast<size_t>(lanes_) * lanes_, false);
  for (int a = 0; a < lanes_; ++a)
    for (int b = 0; b < lanes_; ++b) {
      if (a == b)
        continue;
      bool shared = false;
      for (int ca = 0; ca < k && !shared; ++ca)
        for (int cb = 0; cb < k && !shared; ++cb)
          shared = source(a, ca) == source(b, cb);
      conflict_[a * lanes_ + b] = shared;
    }

  // Conflicts depend on the ring distance only (the candidate sets are rotations of each
  // other), so the span bounds every conflicting pair.
  for (int a = 0; a < lanes_; ++a)
    for (int b = 0; b < lanes_; ++b)
      if (a != b && conflict(a, b))
        span_ = std::max(span_, 1 + std::min((a - b + lanes_) % lanes_, (b - a + lanes_) % lanes_));

  // Blocks of consecutive lanes, the first `larger` of them one lane longer. Two lanes with
  // the same position in different blocks are at least one block (>= span lanes) apart in
  // both directions around the ring.
  const int blocks = std::max(1, lanes_ / span_);
  const int size = lanes_ / blocks;
  const int larger = lanes_ % blocks;
  levels_.resize(size + (larger > 0 ? 1 : 0));
  levelOf_.assign(lanes_, 0);
  int lane = 0;
  for (int b = 0; b < blocks; ++b)
    for (int pos = 0; pos < size + (b < larger ? 1 : 0); ++pos, ++lane) {
      levelOf_[lane] = pos;
      levels_[pos].push_back(lane);
    }
  for (const std::vector<int>& level : levels_)
    for (int a : level)
      for (int b : level)
        if (a != b && conflict(a, b))
          throw std::logic_error("tensordash: plan: conflicting lanes share a level");
}

} // namespace by::tensordash
