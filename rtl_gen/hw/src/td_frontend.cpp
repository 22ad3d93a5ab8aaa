// TensorDash front end of the array (docs/tensordash.md): the staging windows, one scheduler
// per row group, the lockstep advance, and the A-side multiplexers. It turns an OS compute
// pass, offered as a stream of reduction steps (per PE row `lanes` elements of A, per PE
// column `lanes` elements of B), into mesh beats: per row the selected A elements with their
// selects, per column the whole B window, from which every PE picks its lanes' operands with
// its row's selects (by_pe). With enable_i low it issues the dense beats: one step per
// cycle, every lane its own value.
//
// Window slot d holds step base+d in one of three states: EMPTY (not loaded yet), LOADED, or
// END (past the last step of the pass: all zeros). Loaded and END slots always form a prefix;
// once the pass's last step has entered (ended_q), every free slot is END.
// Per cycle with a loaded head: every group's scheduler takes its pending entries, each
// group's own advance is its count of leading known slots with nothing left pending, the
// windows move by the smallest own advance (at least 1: the head always drains), and the
// freed slots refill from the offered steps. A head in END state ends the pass (one cycle,
// all slots become EMPTY). The schedule equals tensordash::WindowScheduler's as long as the
// offered steps keep the window full.
//
// hold_i keeps the beat back (the execute controller is not ready for it): nothing is
// scheduled and nothing moves, but free slots still load offered steps. go_o and
// advance_o tell the controller, in the cycle it decides, whether a beat can go and how many
// steps it retires.
#include "td_frontend.h"

#include "tensordash_spec/plan.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {
std::string slot(const std::string& what, int d) {
  return what + num(d) + "_q";
}
} // namespace

void TdFrontendGenerator::initSizes() {
  depth_ = p_.tdDepth;
  lanes_ = p_.lanes;
  iw_ = p_.inputWidth;
  rows_ = p_.dim;
  cols_ = p_.dim;
  sb_ = p_.tdSelBits;
  groups_ = p_.dim / p_.tdRowsPerScheduler;
  stepA_ = rows_ * lanes_ * iw_;
  stepB_ = cols_ * lanes_ * iw_;
  cntBits_ = bitsFor(depth_);
  cnt_ = num(cntBits_) + "'d";
}

vlog::Module TdFrontendGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  window(b);
  schedule(b);
  refillAndBeat(b);
  return m;
}

vlog::Module TdFrontendGenerator::ports() const {

  vlog::Module m(names::kTdFrontend, "TensorDash front end: staging windows of " + num(depth_) +
                                         " steps, " + num(groups_) + " scheduler(s) of " +
                                         num(p_.tdRowsPerScheduler) +
                                         " PE row(s), lockstep advance of 1.." + num(depth_) +
                                         " steps per cycle, A-side multiplexers.");
  m.clockAndReset();
  m.input("enable_i", Type::bit(), "0: dense beats, one step per cycle");
  m.input("hold_i", Type::bit(), "no beat this cycle (the window only refills)");
  m.portGroup("Steps offered: the next in_avail_i steps of the pass, step i in slice i.");
  m.input("in_avail_i", Type::bits(cntBits_), "0.." + num(depth_));
  m.input("in_end_i", Type::bit(), "the pass has no steps beyond the offered ones");
  m.input("in_a_i", Type::bits(depth_ * stepA_),
          "step i, row r, lane l at ((i*Rows+r)*Lanes+l)*IW");
  m.input("in_b_i", Type::bits(depth_ * stepB_), "step i, column c, lane l likewise");
  m.output("in_take_o", Type::bits(cntBits_), "steps taken this cycle (the first ones offered)");
  m.portGroup("Beats for the mesh (registered).");
  m.output("out_valid_o", Type::bit());
  m.output("out_last_o", Type::bit(), "the pass's last beat");
  m.output("out_a_o", Type::bits(rows_ * p_.aWidth()), "per row: selected elements, then selects");
  m.output("out_b_o", Type::bits(cols_ * depth_ * lanes_ * iw_), "per column: the window");
  m.portGroup("Observation: the schedule of the beat (tests, counters).");
  m.output("out_sel_o", Type::bits(groups_ * lanes_ * sb_), "selects of every group");
  m.output("out_advance_o", Type::bits(cntBits_), "steps the windows moved after the beat");
  m.output("out_stall_o", Type::bit(), "a group drained more steps than the common advance");
  m.portGroup("This cycle (combinational): for the caller's beat decision.");
  m.output("go_o", Type::bit(), "the head step is loaded: a beat can go unless held");
  m.output("advance_o", Type::bits(cntBits_), "steps a beat retires this cycle unless held");
  m.output("busy_o", Type::bit(), "a pass is in the window");

  return m;
}

void TdFrontendGenerator::window(vlog::Body& b) const {

  b.localParam("Lanes", num(lanes_));
  b.localParam("InputWidth", num(iw_));
  b.localParam("StepA", num(stepA_), "A bits of one step");
  b.localParam("StepB", num(stepB_), "B bits of one step");
  b.localParam("Bitmap", num(groups_ * lanes_), "a step's non-zero bitmap per group");
  b.localParam("Empty", Type::bits(2), "2'd0", "slot states");
  b.localParam("Loaded", Type::bits(2), "2'd1");
  b.localParam("End", Type::bits(2), "2'd2");
  b.blank();

  b.comment("Window slots.");
  for (int d = 0; d < depth_; ++d) {
    b.logic(slot("slot", d), Type::bits(2), "Empty, Loaded or End");
    b.logic(slot("wa", d), Type::bits("StepA"));
    b.logic(slot("wb", d), Type::bits("StepB"));
    b.logic(slot("pend", d), Type::bits("Bitmap"), "entries still pending, per group");
  }
  b.blank();

  b.comment("Non-zero bitmaps of the offered steps: per group, OR over its rows.");
  for (int i = 0; i < depth_; ++i) {
    const std::string bm = "in_bitmap" + num(i);
    b.logic(bm, Type::bits("Bitmap"));
    for (int g = 0; g < groups_; ++g)
      for (int l = 0; l < lanes_; ++l) {
        std::string any;
        for (int r = g * p_.tdRowsPerScheduler; r < (g + 1) * p_.tdRowsPerScheduler; ++r)
          any += (any.empty() ? "" : " || ") + std::string("in_a_i[") +
                 num((i * rows_ + r) * lanes_ * iw_ + l * iw_) + " +: InputWidth] != '0";
        b.assign(bm + "[" + num(g * lanes_ + l) + "]", any);
      }
  }
  b.blank();
}

void TdFrontendGenerator::schedule(vlog::Body& b) const {

  b.comment("Schedule: one scheduler per group over the group's window bitmap.");
  b.logic("go", Type::bit(), "the head slot is loaded and not held: a beat this cycle");
  b.logic("pass_over", Type::bit(), "the head is past the pass's last step");
  b.assign("go_o", slot("slot", 0) + " == Loaded");
  b.assign("go", "go_o && !hold_i");
  b.assign("pass_over", slot("slot", 0) + " == End");
  b.logic("sel", Type::bits(groups_ * lanes_ * sb_), "the schedulers' selects");
  b.logic("sel_eff", Type::bits(groups_ * lanes_ * sb_), "dense mode: every lane its own (0)");
  b.assign("sel_eff", "enable_i ? sel : '0");
  std::string minAdv, ownAdvances;
  for (int g = 0; g < groups_; ++g) {
    const std::string gp = "g" + num(g) + "_";
    b.logic(gp + "pending", Type::bits(depth_ * lanes_));
    b.logic(gp + "remaining", Type::bits(depth_ * lanes_));
    b.logic(gp + "advance", Type::bits(cntBits_), "leading known slots with nothing pending");
    b.logic(gp + "left", Type::bits(depth_ * lanes_),
            "pending after this cycle: the scheduler's picks only if a beat goes");
    std::string window;
    for (int d = depth_ - 1; d >= 0; --d)
      window +=
          (window.empty() ? "{" : ", ") + slot("pend", d) + "[" + num(g * lanes_) + " +: Lanes]";
    b.assign(gp + "pending", window + "}");
    b.assign(gp + "left", "go ? " + gp + "remaining : " + gp + "pending");
    auto& inst = b.instance(names::kTdScheduler, "u_sched_" + num(g));
    inst.conns = {{"pending_i", gp + "pending"},
                  {"sel_o", "sel[" + num(g * lanes_ * sb_) + " +: " + num(lanes_ * sb_) + "]"},
                  {"remaining_o", gp + "remaining"}};
    // own advance = number of leading slots that are known (Loaded or End) and drained
    std::string adv = cnt_ + num(depth_);
    for (int d = depth_ - 1; d >= 0; --d)
      adv = "(" + slot("slot", d) + " != Empty && " + gp + "remaining[" + num(d * lanes_) +
            " +: Lanes] == '0) ? " + (d == depth_ - 1 ? cnt_ + num(depth_) : adv) + " : " + cnt_ +
            num(d);
    b.assign(gp + "advance", adv);
    minAdv = minAdv.empty()
                 ? gp + "advance"
                 : "(" + gp + "advance < " + minAdv + " ? " + gp + "advance : " + minAdv + ")";
    ownAdvances += (ownAdvances.empty() ? "" : " || ") + gp + "advance > advance";
  }
  b.logic("retire", Type::bits(cntBits_), "lockstep: the smallest own advance, if a beat goes");
  b.logic("advance", Type::bits(cntBits_), "the steps the windows move this cycle");
  b.assign("retire", "!go_o ? '0 : !enable_i ? " + cnt_ + "1 : " + minAdv);
  b.assign("advance", "hold_i ? '0 : retire");
  b.assign("advance_o", "retire");
  b.logic("stall", Type::bit(), "a group is held back by the lockstep (TensorDash on)");
  b.assign("stall", "go && enable_i && (" + ownAdvances + ")");
  b.blank();
}

void TdFrontendGenerator::refillAndBeat(vlog::Body& b) const {
  const tensordash::SchedulerPlan plan(tensorDashParams(p_));
  b.comment("Refill: slots known after the move form a prefix of length `first`; the freed "
            "ones load the offered steps in order, then End if the pass ends with them.");
  b.logic("known", Type::bits(cntBits_), "Loaded or End slots (a prefix)");
  std::string known;
  for (int d = 0; d < depth_; ++d)
    known += (known.empty() ? "" : " + ") +
             (cnt_ + "0 + " + num(cntBits_) + "'(" + slot("slot", d) + " != Empty)");
  b.assign("known", known);
  b.logic("first", Type::bits(cntBits_), "first free slot after the move");
  b.logic("room", Type::bits(cntBits_));
  b.logic("take", Type::bits(cntBits_));
  b.logic("ended_q", Type::bit(), "the pass's last step has entered the window");
  b.logic("ended_next", Type::bit(), "... after this cycle's refill: free slots become End");
  b.assign("first", "known - advance");
  b.assign("room", cnt_ + num(depth_) + " - first");
  b.assign("take", "pass_over ? '0 : (in_avail_i < room ? in_avail_i : room)");
  b.assign("ended_next", "!pass_over && (ended_q || (in_end_i && take == in_avail_i && "
                         "(go || take != '0)))");
  b.assign("in_take_o", "take");
  b.assign("busy_o", "known != '0");
  b.blank();

  // Next state of every slot: refilled, marked End, or the slot `advance` brings down.
  vlog::SeqItem& q = b.sequential();
  vlog::SeqItem& dq = b.clocked();
  for (int d = 0; d < depth_; ++d) {
    const std::string refill = "refill" + num(d), at = cnt_ + num(d);
    b.logic(refill, Type::bit(), "slot " + num(d) + " loads an offered step");
    b.assign(refill, "first <= " + at + " && " + at + " < first + take");
    // the offered step slot d loads is step d - first
    std::string loadA = "'0", loadB = "'0", loadPend = "'0";
    for (int f = 0; f <= d; ++f) {
      const std::string cond = "first == " + cnt_ + num(f) + " ? ";
      loadA = cond + "in_a_i[" + num((d - f) * stepA_) + " +: StepA] : " + loadA;
      loadB = cond + "in_b_i[" + num((d - f) * stepB_) + " +: StepB] : " + loadB;
      loadPend = cond + "in_bitmap" + num(d - f) + " : " + loadPend;
    }
    // the slot that `advance` brings down to slot d
    std::string moveSlot = "Empty", moveA = "'0", moveB = "'0", movePend = "'0";
    for (int a = depth_ - 1 - d; a >= 0; --a) {
      const std::string cond = "advance == " + cnt_ + num(a) + " ? ";
      moveSlot = cond + slot("slot", d + a) + " : " + moveSlot;
      moveA = cond + slot("wa", d + a) + " : " + moveA;
      moveB = cond + slot("wb", d + a) + " : " + moveB;
      std::string rem;
      for (int g = groups_ - 1; g >= 0; --g)
        rem += (rem.empty() ? "{" : ", ") + std::string("g") + num(g) + "_left[" +
               num((d + a) * lanes_) + " +: Lanes]";
      movePend = cond + rem + "} : " + movePend;
    }
    const std::string next = "slot" + num(d) + "_next";
    b.logic(next, Type::bits(2));
    b.assign(next, "pass_over ? Empty : " + refill + " ? Loaded :\n      (ended_next && first <= " +
                       at + ") ? End : " + moveSlot);
    q.reset.line(slot("slot", d) + " <= Empty;").line(slot("pend", d) + " <= '0;");
    q.clocked.line(slot("slot", d) + " <= " + next + ";");
    q.clocked.line(slot("pend", d) + " <= " + refill + " ? (" + loadPend + ") : (" + movePend +
                   ");");
    dq.clocked.line(slot("wa", d) + " <= " + refill + " ? (" + loadA + ") : " + moveA + ";");
    dq.clocked.line(slot("wb", d) + " <= " + refill + " ? (" + loadB + ") : " + moveB + ";");
  }
  b.blank();

  b.comment("The beat: per row the selected A elements (zero for an idle lane) and the "
            "selects; per column the B window as it is.");
  b.logic("beat_a", Type::bits(rows_ * p_.aWidth()));
  b.logic("beat_b", Type::bits(cols_ * depth_ * lanes_ * iw_));
  for (int r = 0; r < rows_; ++r) {
    const int g = r / p_.tdRowsPerScheduler;
    const int base = r * p_.aWidth();
    for (int l = 0; l < lanes_; ++l) {
      const std::string s = "sel_eff[" + num((g * lanes_ + l) * sb_) + " +: " + num(sb_) + "]";
      std::string mux;
      for (int k = 0; k < plan.candidates(); ++k) {
        if (!plan.live(k))
          continue;
        const tensordash::WindowEntry e = plan.source(l, k);
        mux += s + " == " + num(sb_) + "'d" + num(k) + " ? " + slot("wa", e.depth) + "[" +
               num((r * lanes_ + e.lane) * iw_) + " +: InputWidth] :\n      ";
      }
      b.assign("beat_a[" + num(base + l * iw_) + " +: InputWidth]", mux + "'0");
    }
    b.assign("beat_a[" + num(base + lanes_ * iw_) + " +: " + num(lanes_ * sb_) + "]",
             "sel_eff[" + num(g * lanes_ * sb_) + " +: " + num(lanes_ * sb_) + "]");
  }
  for (int c = 0; c < cols_; ++c)
    for (int d = 0; d < depth_; ++d)
      b.assign("beat_b[" + num((c * depth_ + d) * lanes_ * iw_) + " +: " + num(lanes_ * iw_) + "]",
               slot("wb", d) + "[" + num(c * lanes_ * iw_) + " +: " + num(lanes_ * iw_) + "]");
  b.logic("out_valid_q", Type::bit());
  b.logic("out_last_q", Type::bit());
  b.logic("out_a_q", Type::bits(rows_ * p_.aWidth()));
  b.logic("out_b_q", Type::bits(cols_ * depth_ * lanes_ * iw_));
  b.logic("out_sel_q", Type::bits(groups_ * lanes_ * sb_));
  b.logic("out_advance_q", Type::bits(cntBits_));
  b.logic("out_stall_q", Type::bit());
  q.reset.line("out_valid_q <= 1'b0;").line("out_last_q <= 1'b0;").line("ended_q <= 1'b0;");
  q.clocked.line("ended_q <= ended_next;");
  q.clocked.line("out_valid_q <= go;");
  q.clocked.comment("Last beat: after the move the head is past the end.");
  q.clocked.line("out_last_q <= go && slot0_next == End;");
  dq.clocked.ifElse("go", [](vlog::Stmts& s) {
    s.line("out_a_q <= beat_a;")
        .line("out_b_q <= beat_b;")
        .line("out_sel_q <= sel_eff;")
        .line("out_advance_q <= advance;")
        .line("out_stall_q <= stall;");
  });
  b.assign("out_valid_o", "out_valid_q");
  b.assign("out_last_o", "out_last_q");
  b.assign("out_a_o", "out_a_q");
  b.assign("out_b_o", "out_b_q");
  b.assign("out_sel_o", "out_sel_q");
  b.assign("out_advance_o", "out_advance_q");
  b.assign("out_stall_o", "out_stall_q");
}

} // namespace by::hw
