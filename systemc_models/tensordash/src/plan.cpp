#include "tensordash/plan.h"

namespace by::tensordash {

namespace {

int ringLane(int lane, int offset, int lanes) {
  return ((lane + offset) % lanes + lanes) % lanes;
}

} // namespace

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

  // Conflict graph: O(lanes^2 * k^2), tiny for lanes <= 64 and k <= 32, done once.
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

  // First-fit colouring in lane order. Deterministic and trivially reproduced by the RTL
  // generator; optimal for the T pattern at 2, 4, 8 and 16 lanes (see docs/tensordash.md).
  levelOf_.assign(lanes_, -1);
  for (int l = 0; l < lanes_; ++l) {
    std::vector<bool> used(lanes_, false);
    for (int o = 0; o < l; ++o)
      if (conflict(l, o))
        used[levelOf_[o]] = true;
    int level = 0;
    while (used[level])
      ++level;
    levelOf_[l] = level;
    if (level == static_cast<int>(levels_.size()))
      levels_.emplace_back();
    levels_[level].push_back(l);
  }
}

} // namespace by::tensordash
