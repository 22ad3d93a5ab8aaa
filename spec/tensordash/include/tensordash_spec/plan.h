// The scheduler's structure, derived once from TensorDashParams: what every multiplexer
// input reads, which candidates are dead aliases, and the priority-encoder levels. The C++
// model executes this plan; the RTL generator is to emit exactly this plan, so that both
// choose the same candidates (docs/tensordash.md, "Scheduler").
//
// Definition:
//  * Window entry (d, j): step base+d, lane j (d in 0..lookahead, j in 0..lanes-1).
//  * Candidate k of lane l reads entry (pattern[k].dt, (l + pattern[k].dl) mod lanes).
//  * Priority: every lane tries its candidates in pattern order, k = 0 first, and takes the
//    first that is still pending (non-zero in the group bitmap and not yet taken).
//  * Candidate k is a dead alias if an earlier candidate k' < k reads the same entry for
//    every lane (same dt, dl congruent mod lanes): it can never win and the RTL may prune it.
//  * Two lanes conflict if their candidate sets share an entry. On the ring this depends
//    only on their ring distance; let `span` be 1 + the largest distance at which lanes
//    conflict (T with 10 or more lanes: 5; its dt = 1 offsets {-1,0,+1,+3} differ by <= 4).
//  * Levels: cut the ring into m = max(1, floor(lanes / span)) blocks of consecutive lanes,
//    as equal in size as possible, the larger ones first; a lane's level is its position in
//    its block. Lanes of one level are >= span apart, so their candidate sets are disjoint
//    and they choose in parallel without arbitration; level n+1 sees what levels 0..n took.
//    ceil(lanes / m) levels: T with 16 lanes has 6, with 8 or fewer lanes one per lane.
//    For conflicts at every distance below span (T's case) no assignment has fewer levels:
//    a level holds at most m lanes.
#pragma once

#include "tensordash_spec/params.h"

#include <vector>

namespace by::tensordash {

/// One entry of a group's staging window.
struct WindowEntry {
  int depth = 0; // steps ahead of the window base
  int lane = 0;
  bool operator==(const WindowEntry& o) const { return depth == o.depth && lane == o.lane; }
};

class SchedulerPlan {
public:
  explicit SchedulerPlan(const TensorDashParams& params); // validates params

  int lanes() const { return lanes_; }
  int depth() const { return depth_; }
  int candidates() const { return static_cast<int>(aliasOf_.size()); }
  /// The window entry candidate k of `lane` reads.
  WindowEntry source(int lane, int k) const { return source_[lane * candidates() + k]; }
  /// The earlier candidate that k duplicates for every lane, or -1 if k is live.
  int aliasOf(int k) const { return aliasOf_[k]; }
  bool live(int k) const { return aliasOf_[k] < 0; }
  /// True if the candidate sets of lanes a and b share a window entry (a != b).
  bool conflict(int a, int b) const { return conflict_[a * lanes_ + b]; }
  /// 1 + the largest ring distance at which two lanes conflict (1 if none do).
  int span() const { return span_; }

  int levels() const { return static_cast<int>(levels_.size()); }
  /// Lanes of level n, ascending.
  const std::vector<int>& level(int n) const { return levels_[n]; }
  int levelOf(int lane) const { return levelOf_[lane]; }

private:
  int lanes_;
  int depth_;
  std::vector<WindowEntry> source_; // [lane * candidates + k]
  std::vector<int> aliasOf_;        // [k]
  std::vector<bool> conflict_;      // [a * lanes + b]
  int span_ = 1;
  std::vector<std::vector<int>> levels_;
  std::vector<int> levelOf_;
};

} // namespace by::tensordash
