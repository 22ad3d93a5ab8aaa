// TensorDash scheduler of one row group (docs/tensordash.md, "Scheduler"): from the pending
// bitmap of the group's staging window it picks, for every lane, the first pending candidate
// in pattern order. Lanes are evaluated in the plan's levels; the lanes of one level have
// disjoint candidate sets and choose in parallel, the next level sees what they took. Purely
// combinational; emitted from tensordash::SchedulerPlan, the plan the C++ model executes.
#include "td_scheduler.h"

#include "tensordash_spec/plan.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

vlog::Module TdSchedulerGenerator::build() const {
  const tensordash::SchedulerPlan plan(tensorDashParams(p_));
  const int lanes = p_.lanes, entries = p_.tdDepth * lanes, sb = p_.tdSelBits;
  vlog::Module m(names::kTdScheduler,
                 "TensorDash scheduler of one row group: " + num(lanes) + " lanes, window of " +
                     num(p_.tdDepth) + " steps, " + num(plan.candidates()) +
                     " candidates per lane (T pattern), " + num(plan.levels()) +
                     " priority levels. Window entry (d, j) is bit d*" + num(lanes) +
                     " + j of the bitmaps.");
  m.input("pending_i", Type::bits(entries), "non-zero entries not yet consumed");
  m.output("sel_o", Type::bits(lanes * sb),
           "per lane the winning candidate, " + num(p_.tdIdleSelect()) + " if none is pending");
  m.output("remaining_o", Type::bits(entries), "pending_i minus the entries taken");

  vlog::Body& b = m.body();
  std::string pend = "pending_i";
  for (int n = 0; n < plan.levels(); ++n) {
    b.comment("Level " + num(n) + ".");
    std::string takes;
    for (int lane : plan.level(n)) {
      std::string sel, take;
      for (int k = 0; k < plan.candidates(); ++k) {
        if (!plan.live(k))
          continue;
        const tensordash::WindowEntry e = plan.source(lane, k);
        const std::string bit = pend + "[" + num(e.depth * lanes + e.lane) + "]";
        sel += bit + " ? " + num(sb) + "'d" + num(k) + " : ";
        take += bit + " ? " + num(entries) + "'(1) << " + num(e.depth * lanes + e.lane) + " : ";
      }
      const std::string t = "take_" + num(lane);
      b.logic(t, Type::bits(entries), "the entry lane " + num(lane) + " takes");
      b.assign("sel_o[" + num(lane * sb) + " +: " + num(sb) + "]",
               sel + num(sb) + "'d" + num(p_.tdIdleSelect()));
      b.assign(t, take + "'0");
      takes += (takes.empty() ? "" : " | ") + t;
    }
    const std::string next = "pend_" + num(n + 1);
    b.logic(next, Type::bits(entries), "pending after level " + num(n));
    b.assign(next, pend + " & ~(" + takes + ")");
    pend = next;
  }
  b.assign("remaining_o", pend);
  return m;
}

} // namespace by::hw
