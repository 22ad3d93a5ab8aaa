// Small schedules worked out by hand from the rules in docs/tensordash.md, independently of
// the code. Notation: T priority order with select indices
//   0 (0,0)  1 (1,0)  2 (1,-1)  3 (1,+1)  4 (1,+3)  5 (2,0)  6 (2,-2)  7 (2,+2)
// Candidate k of lane l reads window entry (depth dt, lane (l+dl) mod lanes). With 4 lanes,
// 4 = (1,+3) is the same entry as 2 = (1,-1) and 7 = (2,+2) the same as 6 = (2,-2), so they
// never win; all 4 lanes conflict pairwise, so the levels are lanes 0, 1, 2, 3 in turn.
// "pending d{..}" lists the lanes with a non-zero, unconsumed entry at window depth d.
#include "td_util.h"
#include "tensordash/executor.h"
#include "tensordash/scheduler.h"
#include "tensordash/stats.h"

#include <gtest/gtest.h>

using namespace by::tensordash;
using by::tdtest::scheduleInvariants;

namespace {

TensorDashParams params(int lanes, int rows = 1, int rowsPerScheduler = 1) {
  TensorDashParams p;
  p.lanes = lanes;
  p.rows = rows;
  p.rowsPerScheduler = rowsPerScheduler;
  return p;
}

// One stream per row, rows[r][t] = the `lanes` values of step t.
Streams streams(const std::vector<std::vector<std::vector<int32_t>>>& rows) {
  Streams s(static_cast<int>(rows.size()), static_cast<int>(rows[0].size()),
            static_cast<int>(rows[0][0].size()));
  for (int r = 0; r < s.count(); ++r)
    for (int t = 0; t < s.steps(); ++t)
      for (int l = 0; l < s.lanes(); ++l)
        s.at(r, t, l) = rows[r][t][l];
  return s;
}

std::vector<int> selects(const Schedule& s, int cycle, int group = 0) {
  std::vector<int> out;
  for (int l = 0; l < s.params().lanes; ++l)
    out.push_back(s.select(cycle, group, l));
  return out;
}

using V = std::vector<int>;

} // namespace

TEST(TensorDashHand, ThreeStepsInOneCycle) {
  // t0 [5 0 0 0], t1 [0 0 0 7], t2 [0 3 0 0]; pending d0{0} d1{3} d2{1}.
  //  lane 0: (0,0) non-zero                                   -> 0
  //  lane 1: (0,1) (1,1) (1,0) (1,2) zero, (2,1) non-zero      -> 5
  //  lane 2: (0,2) (1,2) (1,1) zero, (1,3) non-zero            -> 3
  //  lane 3: (1,3) taken, (2,1) taken, the rest zero           -> idle
  // Nothing pending: advance 3 = depth, done after 1 cycle (3x).
  const Streams a = streams({{{5, 0, 0, 0}, {0, 0, 0, 7}, {0, 3, 0, 0}}});
  const Schedule s = runScheduler(params(4), a);
  ASSERT_EQ(s.cycles(), 1);
  EXPECT_EQ(selects(s, 0), (V{0, 5, 3, kIdle}));
  EXPECT_EQ(s.base(0), 0);
  EXPECT_EQ(s.advance(0), 3);
  EXPECT_TRUE(scheduleInvariants(s, a));
}

TEST(TensorDashHand, OneDenseLaneIsSpreadOverThreeLanes) {
  // Every step [1 0 0 0], 4 steps. Cycle 0, pending d0{0} d1{0} d2{0}:
  //  lane 0: (0,0)                                  -> 0
  //  lane 1: (1,1) zero, (1,0) = entry (1, 1-1)     -> 2
  //  lane 2: (1,2) (1,1) (1,3) (2,2) zero, (2,0)    -> 6
  //  lane 3: (1,3) (1,2) zero, (1,0) taken, (2,3) (2,1) zero -> idle
  // advance 3; cycle 1 has only t3: lane 0 -> 0, advance 3, base 6 >= 4: 2 cycles.
  const Streams a = streams({{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}}});
  const Schedule s = runScheduler(params(4), a);
  ASSERT_EQ(s.cycles(), 2);
  EXPECT_EQ(selects(s, 0), (V{0, 2, 6, kIdle}));
  EXPECT_EQ(selects(s, 1), (V{0, kIdle, kIdle, kIdle}));
  EXPECT_EQ(s.base(1), 3);
  EXPECT_TRUE(scheduleInvariants(s, a));
}

TEST(TensorDashHand, SixStepsPartialAdvanceAndExecution) {
  // t0 [0 2 0 0]  t1 [3 0 0 4]  t2 [0 5 6 0]  t3 [7 0 0 0]  t4 [0 0 0 8]  t5 [0 9 0 0]
  // Cycle 0, base 0, pending d0{1} d1{0,3} d2{1,2}:
  //  lane 0: (0,0) zero, (1,0)                       -> 1   d1{3}
  //  lane 1: (0,1)                                   -> 0   d0{}
  //  lane 2: (0,2) (1,2) (1,1) zero, (1,3)           -> 3   d1{}
  //  lane 3: (0,3) zero, (1,3) taken, (1,2) zero, (1,0) taken, (2,3) zero, (2,1) -> 6  d2{2}
  //  t0, t1 drained, t2 lane 2 pending: advance 2.
  // Cycle 1, base 2, pending d0{2} (t2) d1{0} (t3) d2{3} (t4):
  //  lane 0: (0,0) zero, (1,0)                       -> 1
  //  lane 1: (0,1) consumed, (1,1) zero, (1,0) taken, (1,2) zero, (2,1) zero, (2,3) -> 6
  //  lane 2: (0,2)                                   -> 0
  //  lane 3: nothing left                            -> idle; advance 3.
  // Cycle 2, base 5, t5 only: lane 1 -> 0; advance 3. 3 cycles for 6 steps.
  const Streams a = streams(
      {{{0, 2, 0, 0}, {3, 0, 0, 4}, {0, 5, 6, 0}, {7, 0, 0, 0}, {0, 0, 0, 8}, {0, 9, 0, 0}}});
  const Schedule s = runScheduler(params(4), a);
  ASSERT_EQ(s.cycles(), 3);
  EXPECT_EQ(selects(s, 0), (V{1, 0, 3, 6}));
  EXPECT_EQ(selects(s, 1), (V{1, 6, 0, kIdle}));
  EXPECT_EQ(selects(s, 2), (V{kIdle, 0, kIdle, kIdle}));
  EXPECT_EQ((V{s.base(0), s.base(1), s.base(2)}), (V{0, 2, 5}));
  EXPECT_EQ((V{s.advance(0), s.advance(1), s.advance(2)}), (V{2, 3, 3}));
  EXPECT_TRUE(scheduleInvariants(s, a));

  // One column with b(t, l) = 4t + l + 1: the dot product is
  // 2*2 + 3*5 + 4*8 + 5*10 + 6*11 + 7*13 + 8*20 + 9*22 = 616.
  Streams b(1, 6, 4);
  for (int t = 0; t < 6; ++t)
    for (int l = 0; l < 4; ++l)
      b.at(0, t, l) = 4 * t + l + 1;
  EXPECT_EQ(execute(s, a, b).at(0, 0), 616);

  const ScheduleStats st = summarize(s, a);
  EXPECT_EQ(st.macSlots, 12);
  EXPECT_EQ(st.macsIssued, 8);
  EXPECT_EQ(st.effectualMacs, 8);
  EXPECT_EQ(st.macsIdle, 4);
  EXPECT_EQ(st.macsSkipped, 16);
  EXPECT_EQ(st.windowStalls, 0);
  EXPECT_EQ(st.advanceHistogram, (std::vector<int64_t>{0, 0, 1, 2}));
}

TEST(TensorDashHand, GroupsAdvanceInLockstep) {
  // Two rows, one scheduler each. Row 0 dense (3 steps of [1 1 1 1]); row 1 only t0 lane 0.
  // Cycle 0: group 0 takes its head (all 0), t1 t2 still full -> own advance 1; group 1
  //   takes (0,0) on lane 0, its window is then empty -> own 3. Common advance 1: a stall.
  // Cycle 1 (base 1): group 0 all 0, own 1; group 1 idle, own 3. Advance 1, a stall.
  // Cycle 2 (base 2): group 0 all 0, then nothing left -> 3; advance 3. 3 cycles.
  const Streams a = streams(
      {{{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}}, {{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}});
  const Schedule s = runScheduler(params(4, 2, 1), a);
  ASSERT_EQ(s.cycles(), 3);
  for (int c = 0; c < 3; ++c)
    EXPECT_EQ(selects(s, c, 0), (V{0, 0, 0, 0}));
  EXPECT_EQ(selects(s, 0, 1), (V{0, kIdle, kIdle, kIdle}));
  EXPECT_EQ(selects(s, 1, 1), (V{kIdle, kIdle, kIdle, kIdle}));
  EXPECT_EQ((V{s.groupAdvance(0, 0), s.groupAdvance(0, 1)}), (V{1, 3}));
  EXPECT_EQ((V{s.advance(0), s.advance(1), s.advance(2)}), (V{1, 1, 3}));
  EXPECT_TRUE(scheduleInvariants(s, a));
  const ScheduleStats st = summarize(s, a);
  EXPECT_EQ(st.windowStalls, 2);
  EXPECT_EQ(st.groupWaits, 2);
  EXPECT_EQ(st.macSlots, 24);
  EXPECT_EQ(st.macsIssued, 13);
  EXPECT_EQ(st.zeroMacsIssued, 0);
  EXPECT_EQ(st.macsSkipped, 11);

  // The same rows under one scheduler: it schedules the OR (row 0's dense bitmap), so row 1
  // issues its 11 zeros too, and there is nobody to wait for.
  const Schedule one = runScheduler(params(4, 2, 2), a);
  ASSERT_EQ(one.cycles(), 3);
  const ScheduleStats so = summarize(one, a);
  EXPECT_EQ(so.windowStalls, 0);
  EXPECT_EQ(so.macsIssued, 24);
  EXPECT_EQ(so.effectualMacs, 13);
  EXPECT_EQ(so.zeroMacsIssued, 11);
  EXPECT_EQ(so.macsSkipped, 0);
}

TEST(TensorDashHand, EarlierLevelWinsOverOwnLane) {
  // 16 lanes; levels {0,6,11} {1,7,12} {2,8,13} {3,9,14} {4,10,15} {5}. Two steps: t0 all
  // zero, t1 only lane 1. Level 0 runs first: lane 0 finds (0,0) (1,0) (1,-1)=(1,15) zero
  // and (1,+1) = entry (1,1) non-zero -> select 3. When level 1 runs, lane 1's own (1,0) is
  // already taken -> idle. Everything drained: 1 cycle.
  Streams a(1, 2, 16);
  a.at(0, 1, 1) = 5;
  const Schedule s = runScheduler(params(16), a);
  ASSERT_EQ(s.cycles(), 1);
  V expect(16, kIdle);
  expect[0] = 3;
  EXPECT_EQ(selects(s, 0), expect);
  EXPECT_TRUE(scheduleInvariants(s, a));
}

TEST(TensorDashHand, LookasideWrapsAroundTheRing) {
  // 16 lanes, t0 and t1 non-zero only on lane 15. Level 0: lane 0 takes (1,-1) = entry
  // (1,15) -> select 2 (lane 12 by (1,+3) and lane 14 by (1,+1) could reach it too, but are
  // in levels 1 and 3). Level 4: lane 15 takes its own (0,0) -> 0.
  Streams a(1, 2, 16);
  a.at(0, 0, 15) = 4;
  a.at(0, 1, 15) = 6;
  const Schedule s = runScheduler(params(16), a);
  ASSERT_EQ(s.cycles(), 1);
  V expect(16, kIdle);
  expect[0] = 2;
  expect[15] = 0;
  EXPECT_EQ(selects(s, 0), expect);
}

TEST(TensorDashHand, LookaheadOne) {
  // lookahead 1, pattern 0 (0,0) 1 (1,0) 2 (1,-1) 3 (1,+1) 4 (1,+3); 4 lanes, 4 steps
  // t0 [1 0 0 0] t1 [0 1 1 0] t2 [1 1 0 0] t3 [0 0 0 0].
  // Cycle 0, pending d0{0} d1{1,2}: lane 0 -> 0; lane 1 -> (1,1) = 1; lane 2 -> (1,2) = 1;
  //   lane 3 -> (1,3) (1,2) (1,0) zero/taken -> idle. Advance 2 (= depth).
  // Cycle 1, base 2, pending d0{0,1} d1{}: lane 0 -> 0, lane 1 -> 0. Advance 2. 2 cycles.
  TensorDashParams p = params(4);
  p.lookahead = 1;
  p.pattern = tPattern(1);
  const Streams a = streams({{{1, 0, 0, 0}, {0, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}});
  const Schedule s = runScheduler(p, a);
  ASSERT_EQ(s.cycles(), 2);
  EXPECT_EQ(selects(s, 0), (V{0, 1, 1, kIdle}));
  EXPECT_EQ(selects(s, 1), (V{0, 0, kIdle, kIdle}));
  EXPECT_TRUE(scheduleInvariants(s, a));
}
