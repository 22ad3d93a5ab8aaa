// SchedulerPlan: window sources, dead aliases and priority-encoder levels, checked against
// values worked out by hand from the definition in plan.h.
#include "tensordash_spec/plan.h"

#include <gtest/gtest.h>
#include <set>

using namespace by::tensordash;

namespace {

TensorDashParams tParams(int lanes) {
  TensorDashParams p;
  p.lanes = lanes;
  return p;
}

int ringDistance(int a, int b, int lanes) {
  const int d = ((a - b) % lanes + lanes) % lanes;
  return std::min(d, lanes - d);
}

} // namespace

TEST(TensorDashPlan, SourcesWrapAroundTheRing) {
  const SchedulerPlan plan(tParams(16));
  // T order: 0 (0,0) 1 (1,0) 2 (1,-1) 3 (1,1) 4 (1,3) 5 (2,0) 6 (2,-2) 7 (2,2).
  EXPECT_EQ(plan.source(0, 0), (WindowEntry{0, 0}));
  EXPECT_EQ(plan.source(0, 2), (WindowEntry{1, 15}));
  EXPECT_EQ(plan.source(15, 3), (WindowEntry{1, 0}));
  EXPECT_EQ(plan.source(14, 4), (WindowEntry{1, 1}));
  EXPECT_EQ(plan.source(1, 6), (WindowEntry{2, 15}));
  EXPECT_EQ(plan.source(15, 7), (WindowEntry{2, 1}));
  for (int k = 0; k < plan.candidates(); ++k)
    EXPECT_TRUE(plan.live(k)) << k;
}

TEST(TensorDashPlan, SixteenLanesHaveSixLevels) {
  // With T, two lanes share an entry iff their ring distance is 1..4: the dt=1 lane offsets
  // {-1,0,1,3} differ by up to 4, the dt=2 offsets {-2,0,2} by 2 or 4. So span = 5, and the
  // ring is cut into floor(16/5) = 3 blocks of 6, 5, 5 lanes: 0-5, 6-10, 11-15. Levels are
  // positions in a block; lanes 11 and 0 (level 0) are 5 apart around the ring.
  const SchedulerPlan plan(tParams(16));
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b)
      if (a != b) {
        EXPECT_EQ(plan.conflict(a, b), ringDistance(a, b, 16) <= 4) << a << " " << b;
      }
  EXPECT_EQ(plan.span(), 5);
  ASSERT_EQ(plan.levels(), 6);
  EXPECT_EQ(plan.level(0), (std::vector<int>{0, 6, 11}));
  EXPECT_EQ(plan.level(1), (std::vector<int>{1, 7, 12}));
  EXPECT_EQ(plan.level(2), (std::vector<int>{2, 8, 13}));
  EXPECT_EQ(plan.level(3), (std::vector<int>{3, 9, 14}));
  EXPECT_EQ(plan.level(4), (std::vector<int>{4, 10, 15}));
  EXPECT_EQ(plan.level(5), (std::vector<int>{5}));
}

TEST(TensorDashPlan, LevelCountIsMinimalForT) {
  // span 5 from 10 lanes on: ceil(lanes / floor(lanes / 5)) levels, and no fewer are
  // possible since at most floor(lanes / 5) lanes of a ring are pairwise >= 5 apart.
  const std::vector<std::pair<int, int>> lanesLevels = {{10, 5}, {11, 6}, {12, 6}, {16, 6},
                                                        {24, 6}, {32, 6}, {64, 6}};
  for (const auto& [lanes, levels] : lanesLevels)
    EXPECT_EQ(SchedulerPlan(tParams(lanes)).levels(), levels) << lanes << " lanes";
  // 32 lanes: 6 blocks of 6, 6, 5, 5, 5, 5 lanes.
  EXPECT_EQ(SchedulerPlan(tParams(32)).level(5), (std::vector<int>{5, 11}));
}

TEST(TensorDashPlan, EightLanesAreFullySequential) {
  // Every ring distance of 8 lanes is <= 4, so all lanes conflict: one lane per level.
  const SchedulerPlan plan(tParams(8));
  EXPECT_EQ(plan.span(), 5);
  ASSERT_EQ(plan.levels(), 8);
  for (int n = 0; n < 8; ++n)
    EXPECT_EQ(plan.level(n), (std::vector<int>{n}));
}

TEST(TensorDashPlan, FourLanesHaveDeadAliases) {
  // Modulo 4, (1,+3) reads the same entry as (1,-1) and (2,+2) the same as (2,-2).
  const SchedulerPlan plan(tParams(4));
  EXPECT_EQ(plan.aliasOf(4), 2);
  EXPECT_EQ(plan.aliasOf(7), 6);
  for (int k : {0, 1, 2, 3, 5, 6})
    EXPECT_TRUE(plan.live(k)) << k;
  EXPECT_EQ(plan.levels(), 4);
}

TEST(TensorDashPlan, TwoLanes) {
  // Modulo 2, +1, -1 and +3 are all "the other lane", and -2, +2 are "this lane".
  const SchedulerPlan plan(tParams(2));
  EXPECT_EQ(plan.aliasOf(3), 2);
  EXPECT_EQ(plan.aliasOf(4), 2);
  EXPECT_EQ(plan.aliasOf(6), 5);
  EXPECT_EQ(plan.aliasOf(7), 5);
  EXPECT_EQ(plan.levels(), 2);
}

TEST(TensorDashPlan, LevelsPartitionLanesIntoConflictFreeSets) {
  for (int lanes = 2; lanes <= 64; ++lanes)
    for (int lookahead = 1; lookahead <= 2; ++lookahead) {
      TensorDashParams p = tParams(lanes);
      p.lookahead = lookahead;
      p.pattern = tPattern(lookahead);
      const SchedulerPlan plan(p);
      std::vector<int> seen(lanes, 0);
      for (int n = 0; n < plan.levels(); ++n) {
        ASSERT_FALSE(plan.level(n).empty());
        std::set<std::pair<int, int>> entries;
        for (int lane : plan.level(n)) {
          ++seen[lane];
          EXPECT_EQ(plan.levelOf(lane), n);
          std::set<std::pair<int, int>> own;
          for (int k = 0; k < plan.candidates(); ++k)
            own.insert({plan.source(lane, k).depth, plan.source(lane, k).lane});
          for (const auto& e : own)
            EXPECT_TRUE(entries.insert(e).second)
                << lanes << " lanes: level " << n << " shares an entry at lane " << lane;
        }
      }
      for (int l = 0; l < lanes; ++l)
        EXPECT_EQ(seen[l], 1) << lanes << " lanes, lane " << l;
    }
}
