// The window/scheduler model against (1) a literal re-statement of the scheduling rule and
// (2) the dense array: bit-exact results and the schedule invariants for random operands
// at every sparsity and for adversarial patterns.
#include "seed.h"
#include "td_util.h"
#include "tensordash/executor.h"
#include "tensordash/scheduler.h"
#include "tensordash/stats.h"
#include "tensordash_spec/plan.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <tuple>

using namespace by;
using namespace by::tensordash;
using tdtest::bitExact;
using tdtest::makeStreams;
using tdtest::randomStreams;

namespace {

TensorDashParams params(int lanes, int lookahead, int rows, int rowsPerScheduler) {
  TensorDashParams p;
  p.lanes = lanes;
  p.lookahead = lookahead;
  p.pattern = tPattern(lookahead);
  p.rows = rows;
  p.rowsPerScheduler = rowsPerScheduler;
  return p;
}

// The rule of docs/tensordash.md stated as plainly as possible: explicit sets of pending
// (group, step, lane) entries, lanes one at a time in (level, lane) order, every candidate
// tried in pattern order (aliases included: they read an entry already tried), then the
// advance as the minimum over groups of their leading drained steps.
Schedule referenceSchedule(const TensorDashParams& p, const Streams& a) {
  const SchedulerPlan plan(p);
  std::set<std::tuple<int, int, int>> pending;
  for (int r = 0; r < p.rows; ++r)
    for (int t = 0; t < a.steps(); ++t)
      for (int l = 0; l < p.lanes; ++l)
        if (a.at(r, t, l) != 0)
          pending.insert({p.groupOf(r), t, l});
  Schedule out(p, a.steps());
  for (int base = 0; base < a.steps();) {
    CycleRecord rec;
    rec.base = base;
    rec.select.assign(static_cast<size_t>(p.groups()) * p.lanes, kIdle);
    rec.groupAdvance.assign(p.groups(), 0);
    for (int g = 0; g < p.groups(); ++g) {
      for (int n = 0; n < plan.levels(); ++n)
        for (int lane : plan.level(n))
          for (int k = 0; k < p.candidates(); ++k) {
            const int t = base + p.pattern[k].dt;
            const int j = ((lane + p.pattern[k].dl) % p.lanes + p.lanes) % p.lanes;
            if (pending.erase({g, t, j})) {
              rec.select[static_cast<size_t>(g) * p.lanes + lane] = static_cast<int8_t>(k);
              break;
            }
          }
      int own = 0;
      while (own < p.depth()) {
        auto it = pending.lower_bound({g, base + own, 0});
        if (it != pending.end() && std::get<0>(*it) == g && std::get<1>(*it) == base + own)
          break;
        ++own;
      }
      rec.groupAdvance[g] = own;
    }
    rec.advance = *std::min_element(rec.groupAdvance.begin(), rec.groupAdvance.end());
    if (rec.advance == 0)
      throw std::logic_error("reference: no progress");
    out.append(rec);
    base += rec.advance;
  }
  return out;
}

void expectSameSchedule(const Schedule& model, const Schedule& ref) {
  ASSERT_EQ(model.cycles(), ref.cycles());
  const TensorDashParams& p = model.params();
  for (int c = 0; c < model.cycles(); ++c) {
    ASSERT_EQ(model.base(c), ref.base(c)) << "cycle " << c;
    ASSERT_EQ(model.advance(c), ref.advance(c)) << "cycle " << c;
    for (int g = 0; g < p.groups(); ++g) {
      ASSERT_EQ(model.groupAdvance(c, g), ref.groupAdvance(c, g)) << "cycle " << c;
      for (int l = 0; l < p.lanes; ++l)
        ASSERT_EQ(model.select(c, g, l), ref.select(c, g, l))
            << "cycle " << c << " group " << g << " lane " << l;
    }
  }
}

struct Shape {
  int lanes, lookahead, rows, rowsPerScheduler, columns;
};

// lanes, lookahead, rows, rows per scheduler, columns: powers of two and odd ring sizes,
// single rows, several groups and groups of several rows.
const Shape kShapes[] = {{2, 1, 2, 1, 2},   {4, 2, 4, 1, 3},   {4, 1, 4, 2, 2},  {8, 2, 4, 4, 3},
                         {8, 1, 2, 1, 2},   {16, 2, 4, 2, 2},  {16, 2, 1, 1, 1}, {5, 2, 3, 1, 2},
                         {16, 2, 16, 1, 4}, {16, 2, 16, 4, 4}, {32, 2, 2, 1, 2}, {12, 1, 6, 3, 2}};

} // namespace

TEST(TensorDashModel, AgreesWithReferenceCycleByCycle) {
  std::mt19937_64 rng(test::testSeed(601, "tensordash reference agreement"));
  for (const Shape& sh : kShapes)
    for (int iter = 0; iter < 30; ++iter) {
      const TensorDashParams p = params(sh.lanes, sh.lookahead, sh.rows, sh.rowsPerScheduler);
      const double sparsity = static_cast<double>(rng() % 11) / 10.0;
      const int steps = 1 + static_cast<int>(rng() % 120);
      const Streams a = randomStreams(rng, p.rows, steps, p.lanes, sparsity);
      SCOPED_TRACE(testing::Message() << sh.lanes << " lanes, lookahead " << sh.lookahead << ", "
                                      << sh.rows << " rows / " << sh.rowsPerScheduler
                                      << ", sparsity " << sparsity << ", iteration " << iter);
      expectSameSchedule(runScheduler(p, a), referenceSchedule(p, a));
    }
}

TEST(TensorDashModel, BitExactAtEverySparsity) {
  std::mt19937_64 rng(test::testSeed(602, "tensordash bit-exact sweep"));
  for (const Shape& sh : kShapes)
    for (int tenths = 0; tenths <= 10; ++tenths)
      for (int iter = 0; iter < 4; ++iter) {
        const TensorDashParams p = params(sh.lanes, sh.lookahead, sh.rows, sh.rowsPerScheduler);
        const int steps = 1 + static_cast<int>(rng() % 100);
        const Streams a = randomStreams(rng, p.rows, steps, p.lanes, tenths / 10.0);
        const Streams b = randomStreams(rng, sh.columns, steps, p.lanes, 0.2);
        EXPECT_TRUE(bitExact(p, a, b))
            << sh.lanes << " lanes, lookahead " << sh.lookahead << ", " << sh.rows << " rows / "
            << sh.rowsPerScheduler << ", sparsity " << tenths * 10 << "%, steps " << steps;
      }
}

TEST(TensorDashModel, WrapsLikeInt32) {
  // Products of full-range int32 values: the executor must wrap exactly like the dense sum.
  std::mt19937_64 rng(test::testSeed(603, "tensordash int32 wrap"));
  const TensorDashParams p = params(8, 2, 2, 1);
  auto big = [&](int, int, int) {
    return rng() % 3 == 0 ? 0 : static_cast<int32_t>(static_cast<uint32_t>(rng()));
  };
  const Streams a = makeStreams(2, 30, 8, big);
  const Streams b = makeStreams(2, 30, 8, big);
  EXPECT_TRUE(bitExact(p, a, b));
}

TEST(TensorDashModel, Adversarial) {
  std::mt19937_64 rng(test::testSeed(604, "tensordash adversarial"));
  for (const Shape& sh : kShapes) {
    const TensorDashParams p = params(sh.lanes, sh.lookahead, sh.rows, sh.rowsPerScheduler);
    const int steps = 23, depth = p.depth();
    const int fastest = (steps + depth - 1) / depth;
    const Streams b = randomStreams(rng, sh.columns, steps, p.lanes, 0.0);
    SCOPED_TRACE(testing::Message() << sh.lanes << " lanes, lookahead " << sh.lookahead << ", "
                                    << sh.rows << " rows / " << sh.rowsPerScheduler);

    const Streams zero(p.rows, steps, p.lanes);
    EXPECT_TRUE(bitExact(p, zero, b));
    EXPECT_EQ(cyclesFor(p, zero), fastest) << "all zero";

    const Streams dense = makeStreams(p.rows, steps, p.lanes, [](int, int, int) { return -3; });
    EXPECT_TRUE(bitExact(p, dense, b));
    EXPECT_EQ(cyclesFor(p, dense), steps) << "every lane dense";

    // Zeros only in the other operand: nothing to skip on the scheduled side.
    const Streams bSparse = randomStreams(rng, sh.columns, steps, p.lanes, 0.9);
    EXPECT_TRUE(bitExact(p, dense, bSparse));
    EXPECT_EQ(runScheduler(p, dense).cycles(), steps) << "zeros only in B";

    for (int t : {0, steps / 2, steps - 1})
      for (int l : {0, p.lanes - 1}) {
        Streams single(p.rows, steps, p.lanes);
        single.at(p.rows - 1, t, l) = 77;
        EXPECT_TRUE(bitExact(p, single, b)) << "single non-zero at " << t << "," << l;
        EXPECT_EQ(cyclesFor(p, single), fastest) << "single non-zero at " << t << "," << l;
      }

    const Streams checker =
        makeStreams(p.rows, steps, p.lanes, [](int, int t, int l) { return (t + l) % 2 ? 5 : 0; });
    EXPECT_TRUE(bitExact(p, checker, b)) << "checkerboard";

    for (int lane = 0; lane < p.lanes; ++lane) {
      const Streams oneLane = makeStreams(p.rows, steps, p.lanes,
                                          [lane](int, int, int l) { return l == lane ? 9 : 0; });
      EXPECT_TRUE(bitExact(p, oneLane, b)) << "dense lane " << lane;
    }

    // One dense row holds every group back: no speedup at all.
    Streams oneRow = randomStreams(rng, p.rows, steps, p.lanes, 0.9);
    for (int t = 0; t < steps; ++t)
      for (int l = 0; l < p.lanes; ++l)
        oneRow.at(0, t, l) = 1;
    EXPECT_TRUE(bitExact(p, oneRow, b));
    EXPECT_EQ(cyclesFor(p, oneRow), steps) << "one dense row";
  }
}

TEST(TensorDashModel, ZeroSteps) {
  const TensorDashParams p = params(4, 2, 2, 1);
  const Streams a(2, 0, 4), b(1, 0, 4);
  EXPECT_EQ(runScheduler(p, a).cycles(), 0);
  EXPECT_TRUE(bitExact(p, a, b));
}

TEST(TensorDashModel, RejectsMismatchedStreams) {
  const TensorDashParams p = params(4, 2, 2, 1);
  EXPECT_THROW(runScheduler(p, Streams(3, 5, 4)), std::invalid_argument);
  EXPECT_THROW(runScheduler(p, Streams(2, 5, 8)), std::invalid_argument);
  const Schedule s = runScheduler(p, Streams(2, 5, 4));
  EXPECT_THROW(execute(s, Streams(2, 5, 4), Streams(1, 6, 4)), std::invalid_argument);
}

TEST(TensorDashModel, ExecutorCatchesABadSchedule) {
  // A schedule that issues one entry twice: the use count shows it, and the result differs
  // from the dense one.
  const TensorDashParams p = params(4, 2, 1, 1);
  Streams a(1, 1, 4), b(1, 1, 4);
  a.at(0, 0, 0) = 2;
  b.at(0, 0, 0) = 3;
  Schedule bad(p, 1);
  CycleRecord r;
  r.base = 0;
  r.advance = 3;
  r.groupAdvance = {3};
  r.select = {0, 2, kIdle, kIdle}; // lane 1: (1,-1) = step 1, lane 0: past the stream end
  bad.append(r);
  EXPECT_THROW(execute(bad, a, b), std::out_of_range);
  Schedule twice(p, 2);
  Streams a2(1, 2, 4), b2(1, 2, 4);
  a2.at(0, 1, 0) = 2;
  b2.at(0, 1, 0) = 3;
  r.select = {1, 2, kIdle, kIdle}; // lanes 0 and 1 both read entry (1,0)
  twice.append(r);
  const Execution x = execute(twice, a2, b2);
  EXPECT_EQ(x.usesOf(0, 1, 0), 2);
  EXPECT_EQ(x.at(0, 0), 12);
  EXPECT_FALSE(tdtest::scheduleInvariants(twice, a2));
}

TEST(TensorDashModel, StatsAddUp) {
  std::mt19937_64 rng(test::testSeed(605, "tensordash stats"));
  for (const Shape& sh : kShapes) {
    const TensorDashParams p = params(sh.lanes, sh.lookahead, sh.rows, sh.rowsPerScheduler);
    const Streams a = randomStreams(rng, p.rows, 200, p.lanes, 0.6);
    const Schedule s = runScheduler(p, a);
    const ScheduleStats st = summarize(s, a);
    EXPECT_EQ(st.cycles, s.cycles());
    EXPECT_EQ(st.denseCycles, 200);
    EXPECT_EQ(st.macSlots, st.macsIssued + st.macsIdle);
    EXPECT_EQ(st.macsIssued, st.effectualMacs + st.zeroMacsIssued);
    EXPECT_EQ(st.effectualMacs, a.nonZeros());
    EXPECT_EQ(st.macsSkipped + st.zeroMacsIssued + st.effectualMacs, a.size());
    EXPECT_GE(st.cycles, st.lowerBoundCycles);
    EXPECT_LE(st.speedup(), p.depth() + 1e-12);
    int64_t histogramCycles = 0;
    for (int64_t n : st.advanceHistogram)
      histogramCycles += n;
    EXPECT_EQ(histogramCycles, st.cycles);
    EXPECT_EQ(st.advanceHistogram[0], 0);
    if (p.groups() == 1) {
      EXPECT_EQ(st.windowStalls, 0);
    }
    EXPECT_LE(st.windowStalls, st.cycles);
  }
}
