// Processing element. Follows Gemmini's PE semantics (preload/propagate with two stationary
// registers c1/c2), generalised to `lanes` MACs per PE: the MAC becomes a dot product of
// `lanes` reduction-dimension elements. Only the datapaths of the configured dataflows are
// emitted. The arithmetic is specified in docs/arithmetic.md.
#include "hw/generators.h"
#include "param_list.h"
#include "tensordash_spec/plan.h"

namespace by::hw {

using vlog::Type;

// TensorDash: lane l multiplies its a with the window entry its select names, candidate k of
// lane l being entry source(l, k) of the scheduler plan; an idle lane's a is zero, so its b
// does not matter. Dead aliases are never selected and get no mux input.
void PeGenerator::emitTensorDashMux(vlog::Body& b) const {
  const tensordash::SchedulerPlan plan(tensorDashParams(p_));
  const int iw = p_.inputWidth, selBase = p_.lanes * iw;
  b.comment("TensorDash: each lane's b is the window entry its select names (docs/tensordash.md); "
            "window entry (d, j) is bits [(d*Lanes + j)*InputWidth +: InputWidth] of in_b_i.");
  b.logic("td_b", Type::bits("Lanes*InputWidth"), "the selected b of every lane");
  for (int l = 0; l < p_.lanes; ++l) {
    const std::string sel = "in_a_i[" + std::to_string(selBase + l * p_.tdSelBits) +
                            " +: " + std::to_string(p_.tdSelBits) + "]";
    std::string mux;
    for (int k = 0; k < plan.candidates(); ++k) {
      if (!plan.live(k))
        continue;
      const tensordash::WindowEntry e = plan.source(l, k);
      mux += sel + " == " + std::to_string(p_.tdSelBits) + "'d" + std::to_string(k) + " ? in_b_i[" +
             std::to_string((e.depth * p_.lanes + e.lane) * iw) + " +: InputWidth] :\n      ";
    }
    b.assign("td_b[" + std::to_string(l * iw) + " +: InputWidth]", mux + "'0");
  }
}

namespace {

// Expressions the PE uses as assigns (one dataflow) or in the dataflow's branch (both).
const char* const kWsPsum = "OutputWidth'(in_b_i) + OutputWidth'(dot)";
const char* const kOsAcc = "AccWidth'(active_reg) + dot";
const char* const kShiftAmount = "(in_prop_i != last_prop_q) ? in_shift_i : '0";

// The OS result's rounding shift and saturation, as (signal, expression) steps in order.
const std::vector<std::pair<std::string, std::string>>& osRoundingSteps() {
  // Casts and shifts rather than part-selects: the steps also run in an always_comb, where
  // Icarus cannot take constant selects into the sensitivity list.
  static const std::vector<std::pair<std::string, std::string>> steps = {
      {"os_shifted", "os_value >>> shift_amount"},
      {"unit_at_shift", "AccWidth'(1) << shift_amount"},
      {"discarded", "os_value & (unit_at_shift - AccWidth'(1))"},
      {"half_unit", "unit_at_shift >> 1"},
      {"round_tie", "discarded == half_unit && half_unit != '0"},
      {"round_up", "(discarded > half_unit) || (round_tie && 1'(os_shifted))"},
      {"os_rounded", "os_shifted + AccWidth'(round_up)"},
      {"os_high", "(AccWidth-OutputWidth+1)'(os_rounded >>> (OutputWidth-1))"},
      {"os_fits", "(&os_high) | ~(|os_high)"},
      {"os_saturated", "1'(os_rounded >>> (AccWidth-1)) ? {1'b1, {(OutputWidth-1){1'b0}}} : "
                       "{1'b0, {(OutputWidth-1){1'b1}}}"},
      {"os_out", "os_fits ? OutputWidth'(os_rounded) : os_saturated"}};
  return steps;
}

} // namespace

void PeGenerator::initSizes() {
  both_ = p_.both();
}

vlog::Module PeGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  dotProduct(b);
  weightStationary(b);
  outputStationary(b);
  outputsAndNextState(b);
  return m;
}

vlog::Module PeGenerator::ports() const {

  vlog::Module m(names::kPe,
                 "Processing element: a dot product of Lanes input pairs per beat and two "
                 "stationary registers c1/c2. The register selected by prop is the shadow, "
                 "filled through the preload chain (d in, c out); the other is active: the WS "
                 "weights or the OS accumulator. Dataflows: " +
                     std::string(both_      ? "WS and OS (run-time select)"
                                 : p_.hasWs ? "WS"
                                            : "OS") +
                     ".");
  declarePeParams(m, p_);
  m.clockAndReset();
  m.portGroup(p_.tensordash
                  ? "Operand a: Lanes elements of the reduction dimension and, above "
                    "them, the TensorDash select of every lane, moving right."
                  : "Operand a: Lanes elements of the reduction dimension, moving right.");
  m.input("in_a_i", Type::bits("AWidth"));
  m.output("out_a_o", Type::bits("AWidth"));
  const std::string osOperand = p_.tensordash ? "OS operand window (" + std::to_string(p_.tdDepth) +
                                                    " steps of Lanes elements)"
                                              : "OS operands (Lanes elements)";
  m.portGroup(both_ ? "b chain, moving down: WS partial sums (low OutputWidth bits) or " +
                          osOperand + "."
              : p_.hasWs ? "b chain, moving down: WS partial sums."
                         : "b chain, moving down: " + osOperand + ".");
  m.input("in_b_i", Type::bits("BWidth"));
  m.output("out_b_o", Type::bits("BWidth"));
  m.portGroup("Preload chain, moving down: enters as d, leaves as c.");
  m.input("in_d_i", Type::bits("DWidth"));
  m.output("out_c_o", Type::bits("DWidth"));
  m.portGroup("Control of the beat at this PE; valid gates every state update.");
  m.input("in_valid_i", Type::bit());
  m.input("in_prop_i", Type::bit(), "shadow register: 1 = c1, 0 = c2");
  if (both_)
    m.input("in_dataflow_i", Type::bit(), "1 = weight-stationary, 0 = output-stationary");
  if (p_.hasOs)
    m.input("in_shift_i", Type::bits("ShiftWidth"), "OS result rounding right shift");

  return m;
}

void PeGenerator::dotProduct(vlog::Body& b) const {

  b.comment("Stationary registers.");
  b.logic("c1_q", Type::bits("RegWidth"));
  b.logic("c2_q", Type::bits("RegWidth"));
  b.logic("active_reg", Type::bits("RegWidth"), "used by the MACs");
  b.logic("shadow_reg", Type::bits("RegWidth"), "being filled through the preload chain");
  b.assign("active_reg", "in_prop_i ? c2_q : c1_q");
  b.assign("shadow_reg", "in_prop_i ? c1_q : c2_q");
  b.blank();

  b.comment("Dot product of the lanes: sum of a[l] * mul_b[l], wrapping at AccWidth bits.");
  b.logic("mul_b", Type::bits("Lanes*InputWidth"),
          both_      ? "WS: active weights, OS: operand b"
          : p_.hasWs ? "active weights"
                     : "operand b");
  b.logic("a_lane", Type::sbits("InputWidth"));
  b.logic("b_lane", Type::sbits("InputWidth"));
  b.logic("dot", Type::sbits("AccWidth"));
  std::string osB = "in_b_i[Lanes*InputWidth-1:0]";
  if (p_.tensordash) {
    emitTensorDashMux(b);
    osB = "td_b";
  }
  if (both_)
    b.assign("mul_b", "in_dataflow_i ? active_reg[Lanes*InputWidth-1:0] : " + osB);
  else if (p_.hasWs)
    b.assign("mul_b", "active_reg");
  else
    b.assign("mul_b", osB);
  b.comb()
      .line("dot = '0;")
      .line("a_lane = '0;")
      .line("b_lane = '0;")
      .forLoop("l", "Lanes", [](vlog::Stmts& s) {
        s.line("a_lane = in_a_i[l*InputWidth +: InputWidth];")
            .line("b_lane = mul_b[l*InputWidth +: InputWidth];")
            .line("dot = dot + AccWidth'(a_lane * b_lane);");
      });
  b.blank();
}

void PeGenerator::weightStationary(vlog::Body& b) const {

  if (p_.hasWs) {
    b.comment("Weight-stationary: the partial sum from above plus the dot product, wrapping at "
              "OutputWidth bits.");
    b.logic("ws_psum", Type::bits("OutputWidth"));
    if (!both_)
      b.assign("ws_psum", kWsPsum);
    b.logic("d_weights", Type::bits("Lanes*InputWidth"), "WS weights entering the shadow");
    b.assign("d_weights", "in_d_i[Lanes*InputWidth-1:0]");
    b.blank();
  }
}

void PeGenerator::outputStationary(vlog::Body& b) const {

  if (p_.hasOs) {
    b.comment("Output-stationary: the active register accumulates; the shadow register leaves "
              "through the preload chain. A result is shifted (rounding half to even) only on "
              "the first beat after prop flips, when it leaves its own PE, so every result is "
              "shifted exactly once on its way down; then it saturates to OutputWidth.");
    b.logic("os_acc", Type::bits("AccWidth"), "active accumulator + dot");
    if (!both_)
      b.assign("os_acc", kOsAcc);
    b.logic("last_prop_q", Type::bit(), "prop of the previous valid beat");
    b.logic("shift_amount", Type::bits("ShiftWidth"));
    if (!both_)
      b.assign("shift_amount", kShiftAmount);
    b.logic("os_value", Type::sbits("AccWidth"));
    b.logic("os_shifted", Type::sbits("AccWidth"));
    b.logic("unit_at_shift", Type::bits("AccWidth"), "1 << shift_amount");
    b.logic("discarded", Type::bits("AccWidth"), "the bits shifted out");
    b.logic("half_unit", Type::bits("AccWidth"), "a discarded value of exactly one half");
    b.logic("round_tie", Type::bit(), "discarded is exactly one half");
    b.logic("round_up", Type::bit());
    b.logic("os_rounded", Type::sbits("AccWidth"));
    b.logic("os_high", Type::bits("AccWidth-OutputWidth+1"), "sign bit of OutputWidth and above");
    b.logic("os_fits", Type::bit(), "os_rounded is representable in OutputWidth bits");
    b.logic("os_saturated", Type::bits("OutputWidth"), "largest magnitude of os_rounded's sign");
    b.logic("os_out", Type::bits("OutputWidth"));
    b.assign("os_value", "shadow_reg[AccWidth-1:0]");
    if (!both_)
      for (const auto& [name, expr] : osRoundingSteps())
        b.assign(name, expr);
    b.logic("d_result", Type::sbits("OutputWidth"), "OS result entering the shadow");
    b.assign("d_result", "in_d_i[OutputWidth-1:0]");
    b.blank();
  }
}

void PeGenerator::outputsAndNextState(vlog::Body& b) const {

  b.assign("out_a_o", "in_a_i");
  b.logic("shadow_next", Type::bits("RegWidth"));
  b.logic("active_next", Type::bits("RegWidth"));
  if (both_) {
    // One block under the dataflow's branch rather than muxed assigns: a Verilated model
    // then computes only the running dataflow's datapath (WS beats skip the OS rounding);
    // synthesis builds the same muxes (docs/BENCHMARKS.md, "Simulation speed").
    b.comment("Outputs and next state: WS passes the partial sum down and keeps its weights; "
              "OS passes b down, rounds the leaving result and accumulates.");
    b.logic("shadow_weights", Type::bits("Lanes*InputWidth"), "WS weights leaving the shadow");
    b.assign("shadow_weights", "shadow_reg[Lanes*InputWidth-1:0]");
    vlog::Stmts& c = b.comb();
    c.line("ws_psum = '0;").line("os_acc = '0;").line("shift_amount = '0;");
    for (const auto& [name, expr] : osRoundingSteps())
      c.line(name + " = '0;");
    c.ifElse(
        "in_dataflow_i",
        [](vlog::Stmts& ws) {
          ws.line(std::string("ws_psum = ") + kWsPsum + ";")
              .line("out_b_o = BWidth'(ws_psum);")
              .line("out_c_o = DWidth'(shadow_weights);")
              .line("shadow_next = RegWidth'(d_weights);")
              .line("active_next = active_reg;");
        },
        [](vlog::Stmts& os) {
          os.line(std::string("os_acc = ") + kOsAcc + ";")
              .line(std::string("shift_amount = ") + kShiftAmount + ";");
          for (const auto& [name, expr] : osRoundingSteps())
            os.line(name + " = " + expr + ";");
          os.line("out_b_o = in_b_i;")
              .line("out_c_o = DWidth'(os_out);")
              .line("shadow_next = RegWidth'(d_result);")
              .line("active_next = RegWidth'(os_acc);");
        });
  } else {
    b.comment("Outputs and next state: the shadow loads from the preload chain, the active "
              "register accumulates (OS) or holds (WS).");
    if (p_.hasWs) {
      b.assign("out_b_o", "BWidth'(ws_psum)");
      b.assign("out_c_o", "DWidth'(shadow_reg)");
      b.assign("shadow_next", "RegWidth'(d_weights)");
      b.assign("active_next", "active_reg");
    } else {
      b.assign("out_b_o", "in_b_i");
      b.assign("out_c_o", "DWidth'(os_out)");
      b.assign("shadow_next", "RegWidth'(d_result)");
      b.assign("active_next", "RegWidth'(os_acc)");
    }
  }
  b.blank();

  b.comment("The register prop selects takes the shadow's next value, the other the active's.");
  b.flops({{{"c1_q", "in_prop_i ? shadow_next : active_next", "'0"},
            {"c2_q", "in_prop_i ? active_next : shadow_next", "'0"}},
           "in_valid_i"});
  if (p_.hasOs)
    b.flops({{{"last_prop_q", "in_prop_i", "1'b0"}}, "in_valid_i"});
}

} // namespace by::hw
