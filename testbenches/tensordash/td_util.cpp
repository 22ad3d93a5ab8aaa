#include "td_util.h"

#include "golden/matmul.h"
#include "tensordash/executor.h"
#include "tensordash/scheduler.h"

#include <algorithm>

namespace by::tdtest {

using namespace tensordash;

Streams randomStreams(std::mt19937_64& rng, int count, int steps, int lanes, double sparsity) {
  std::bernoulli_distribution zero(std::clamp(sparsity, 0.0, 1.0));
  std::uniform_int_distribution<int32_t> value(-128, 126);
  return makeStreams(count, steps, lanes, [&](int, int, int) {
    if (zero(rng))
      return 0;
    const int32_t v = value(rng);
    return v >= 0 ? v + 1 : v; // skip 0
  });
}

Streams makeStreams(int count, int steps, int lanes,
                    const std::function<int32_t(int, int, int)>& f) {
  Streams s(count, steps, lanes);
  for (int i = 0; i < count; ++i)
    for (int t = 0; t < steps; ++t)
      for (int l = 0; l < lanes; ++l)
        s.at(i, t, l) = f(i, t, l);
  return s;
}

std::vector<int32_t> denseReference(const Streams& a, const Streams& b) {
  const int k = a.steps() * a.lanes();
  golden::Matrix am(a.count(), k), bm(k, b.count()), d(a.count(), b.count());
  for (int r = 0; r < a.count(); ++r)
    for (int t = 0; t < a.steps(); ++t)
      for (int l = 0; l < a.lanes(); ++l)
        am.at(r, t * a.lanes() + l) = a.at(r, t, l);
  for (int c = 0; c < b.count(); ++c)
    for (int t = 0; t < b.steps(); ++t)
      for (int l = 0; l < b.lanes(); ++l)
        bm.at(t * b.lanes() + l, c) = b.at(c, t, l);
  const golden::Matrix out = golden::matmulOs(am, bm, d, 32, 32, 0);
  return std::vector<int32_t>(out.v.begin(), out.v.end());
}

namespace {

int ring(int lane, int offset, int lanes) {
  return ((lane + offset) % lanes + lanes) % lanes;
}

bool groupNonZero(const TensorDashParams& p, const Streams& a, int g, int t, int l) {
  for (int r = g * p.rowsPerScheduler; r < (g + 1) * p.rowsPerScheduler; ++r)
    if (a.at(r, t, l) != 0)
      return true;
  return false;
}

} // namespace

::testing::AssertionResult scheduleInvariants(const Schedule& s, const Streams& a) {
  const TensorDashParams& p = s.params();
  const int steps = a.steps(), depth = p.depth(), groups = p.groups();
  auto fail = [&](int cycle) {
    return ::testing::AssertionFailure() << "cycle " << cycle << " of " << s.cycles() << ": ";
  };
  if (s.steps() != steps)
    return ::testing::AssertionFailure() << "schedule has " << s.steps() << " steps, not " << steps;
  if (s.cycles() > steps)
    return ::testing::AssertionFailure() << s.cycles() << " cycles > " << steps << " dense";
  if (s.cycles() < (steps + depth - 1) / depth)
    return ::testing::AssertionFailure() << s.cycles() << " cycles < ceil(steps/depth)";

  // usedAt[(g * steps + t) * lanes + l]: cycle that issued the entry, -1 if none.
  std::vector<int> usedAt(static_cast<size_t>(groups) * steps * p.lanes, -1);
  int expectBase = 0;
  for (int c = 0; c < s.cycles(); ++c) {
    if (s.base(c) != expectBase)
      return fail(c) << "base " << s.base(c) << ", expected " << expectBase;
    if (s.base(c) >= steps)
      return fail(c) << "cycle after the last step";
    if (s.advance(c) < 1 || s.advance(c) > depth)
      return fail(c) << "advance " << s.advance(c) << " outside 1.." << depth;
    int minOwn = depth;
    for (int g = 0; g < groups; ++g)
      minOwn = std::min(minOwn, s.groupAdvance(c, g));
    if (s.advance(c) != minOwn)
      return fail(c) << "advance " << s.advance(c) << " != min group advance " << minOwn;
    expectBase += s.advance(c);
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < p.lanes; ++l) {
        const int k = s.select(c, g, l);
        if (k == tensordash::kIdle)
          continue;
        if (k < 0 || k >= p.candidates())
          return fail(c) << "group " << g << " lane " << l << " select " << k;
        const int t = s.base(c) + p.pattern[k].dt, j = ring(l, p.pattern[k].dl, p.lanes);
        if (t >= steps || !groupNonZero(p, a, g, t, j))
          return fail(c) << "group " << g << " lane " << l << " schedules a zero (step " << t
                         << " lane " << j << ")";
        int& used = usedAt[(static_cast<size_t>(g) * steps + t) * p.lanes + j];
        if (used >= 0)
          return fail(c) << "group " << g << " step " << t << " lane " << j
                         << " issued twice (cycles " << used << ", " << c << ")";
        used = c;
      }
  }
  if (expectBase < steps)
    return ::testing::AssertionFailure() << "the window stopped at step " << expectBase;

  for (int g = 0; g < groups; ++g)
    for (int t = 0; t < steps; ++t)
      for (int l = 0; l < p.lanes; ++l)
        if (groupNonZero(p, a, g, t, l) &&
            usedAt[(static_cast<size_t>(g) * steps + t) * p.lanes + l] < 0)
          return ::testing::AssertionFailure()
                 << "group " << g << " step " << t << " lane " << l << " never issued";

  // Work conservation: a lane idles only if each of its candidate entries is zero or
  // already issued (in this cycle or before).
  for (int c = 0; c < s.cycles(); ++c)
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < p.lanes; ++l) {
        if (s.select(c, g, l) != tensordash::kIdle)
          continue;
        for (const auto& cand : p.pattern) {
          const int t = s.base(c) + cand.dt, j = ring(l, cand.dl, p.lanes);
          if (t < steps && groupNonZero(p, a, g, t, j) &&
              usedAt[(static_cast<size_t>(g) * steps + t) * p.lanes + j] > c)
            return fail(c) << "group " << g << " lane " << l << " idles although step " << t
                           << " lane " << j << " is pending";
        }
      }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult bitExact(const TensorDashParams& p, const Streams& a, const Streams& b) {
  const Schedule s = runScheduler(p, a);
  if (auto inv = scheduleInvariants(s, a); !inv)
    return inv;
  if (cyclesFor(p, a) != s.cycles())
    return ::testing::AssertionFailure() << "cyclesFor disagrees with runScheduler";
  const Execution x = execute(s, a, b);
  for (int g = 0; g < p.groups(); ++g)
    for (int t = 0; t < a.steps(); ++t)
      for (int l = 0; l < p.lanes; ++l)
        if (x.usesOf(g, t, l) != (groupNonZero(p, a, g, t, l) ? 1 : 0))
          return ::testing::AssertionFailure()
                 << "executor: group " << g << " step " << t << " lane " << l << " used "
                 << x.usesOf(g, t, l) << " times";
  const std::vector<int32_t> ref = denseReference(a, b);
  for (size_t i = 0; i < ref.size(); ++i)
    if (x.result[i] != ref[i])
      return ::testing::AssertionFailure()
             << "result row " << i / b.count() << " column " << i % b.count() << ": " << x.result[i]
             << " != dense " << ref[i];
  return ::testing::AssertionSuccess();
}

} // namespace by::tdtest
