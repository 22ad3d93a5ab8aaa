// The TensorDash array: the front end (staging windows, schedulers, A multiplexers) feeding
// the mesh, whose PEs pick their B operands from the window with their row's selects. Beats
// come either from the front end (mode_i = 1: an OS compute pass offered as reduction steps)
// or as dense beats from the caller (mode_i = 0: preloads, drains, WS), exactly as for
// by_mesh; a dense beat's a gets every lane's own select (0) and its OS operand is step 0 of
// the window, so dense beats mean what they mean on by_mesh.
#include "td_array.h"

#include "param_list.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

vlog::Module TdArrayGenerator::build() const {
  const ArrayParams& p = p_;
  const int rows = p.dim, lanes = p.lanes, iw = p.inputWidth, depth = p.tdDepth;
  const int groups = p.dim / p.tdRowsPerScheduler;
  int cntBits = 1;
  while ((1 << cntBits) <= depth)
    ++cntBits;
  const int denseA = lanes * iw, window = depth * lanes * iw;

  vlog::Module m(names::kTdArray, "TensorDash array: by_td_frontend feeding by_mesh (" +
                                      num(p.dim) + "x" + num(p.dim) + " PEs of " + num(lanes) +
                                      " lanes, window of " + num(depth) + " steps).");
  m.clockAndReset();
  m.input("enable_i", Type::bit(), "TensorDash on; off: compute passes issue dense beats");
  m.input("mode_i", Type::bit(), "1: beats from the front end, 0: the dense beat below");
  m.input("hold_i", Type::bit(), "the front end issues no beat this cycle (see go_o)");
  m.portGroup("Dense beat (as on by_mesh, a without selects); its control also applies to the "
              "front end's beats.");
  m.input("in_valid_i", Type::bit());
  m.input("in_prop_i", Type::bit());
  if (p.both())
    m.input("in_dataflow_i", Type::bit(), "1 = WS; front-end beats are always OS");
  m.input("in_shift_i", Type::bits(p.shiftWidth));
  m.input("in_a_i", Type::bits(rows * denseA), "per row Lanes elements");
  m.input("in_b_i", Type::bits(p.dim * p.bWidth()), "per column, as by_mesh's b");
  m.input("in_d_i", Type::bits(p.dim * p.dWidth()));
  m.portGroup("Reduction steps of a compute pass (see by_td_frontend).");
  m.input("step_avail_i", Type::bits(cntBits));
  m.input("step_end_i", Type::bit());
  m.input("step_a_i", Type::bits(depth * rows * denseA));
  m.input("step_b_i", Type::bits(depth * p.dim * denseA));
  m.output("step_take_o", Type::bits(cntBits));
  m.portGroup("Results (by_mesh) and the schedule of the front end's beats.");
  m.output("out_valid_o", Type::bit());
  m.output("out_result_o", Type::bits(p.dim * p.outputWidth));
  m.output("td_beat_o", Type::bit(), "the front end issues a beat this cycle");
  m.output("td_last_o", Type::bit(), "... the last of its pass");
  m.output("td_sel_o", Type::bits(groups * lanes * p.tdSelBits));
  m.output("td_advance_o", Type::bits(cntBits));
  m.output("td_stall_o", Type::bit(), "... a lockstep window stall");
  m.output("td_busy_o", Type::bit());
  m.portGroup("This cycle, before the beat decision (by_td_frontend's go_o and advance_o).");
  m.output("td_go_o", Type::bit(), "a front-end beat can go this cycle unless held");
  m.output("td_retire_o", Type::bits(cntBits), "steps it retires if it goes");

  vlog::Body& b = m.body();
  b.logic("fe_a", Type::bits(rows * p.aWidth()));
  b.logic("fe_b", Type::bits(p.dim * window));
  {
    auto& f = b.instance(names::kTdFrontend, "u_frontend");
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"enable_i", "enable_i"},
               {"hold_i", "hold_i"},
               {"in_avail_i", "step_avail_i"},
               {"in_end_i", "step_end_i"},
               {"in_a_i", "step_a_i"},
               {"in_b_i", "step_b_i"},
               {"in_take_o", "step_take_o"},
               {"out_valid_o", "td_beat_o"},
               {"out_last_o", "td_last_o"},
               {"out_a_o", "fe_a"},
               {"out_b_o", "fe_b"},
               {"out_sel_o", "td_sel_o"},
               {"out_advance_o", "td_advance_o"},
               {"out_stall_o", "td_stall_o"},
               {"go_o", "td_go_o"},
               {"advance_o", "td_retire_o"},
               {"busy_o", "td_busy_o"}};
  }
  b.comment("Mesh inputs: the front end's beat, or the dense beat with own selects (0).");
  b.logic("mesh_a", Type::bits(rows * p.aWidth()));
  b.logic("mesh_b", Type::bits(p.dim * p.bWidth()));
  for (int r = 0; r < rows; ++r) {
    const std::string dense =
        "{" + num(p.selWidth()) + "'d0, in_a_i[" + num(r * denseA) + " +: " + num(denseA) + "]}";
    b.assign("mesh_a[" + num(r * p.aWidth()) + " +: " + num(p.aWidth()) + "]",
             "mode_i ? fe_a[" + num(r * p.aWidth()) + " +: " + num(p.aWidth()) + "] : " + dense);
  }
  for (int c = 0; c < p.dim; ++c)
    b.assign("mesh_b[" + num(c * p.bWidth()) + " +: " + num(p.bWidth()) + "]",
             "mode_i ? " + num(p.bWidth()) + "'(fe_b[" + num(c * window) + " +: " + num(window) +
                 "]) : in_b_i[" + num(c * p.bWidth()) + " +: " + num(p.bWidth()) + "]");
  {
    auto& mesh = b.instance(names::kMesh, "u_mesh");
    mesh.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"in_valid_i", "mode_i ? td_beat_o : in_valid_i"},
                  {"in_prop_i", "in_prop_i"},
                  {"in_a_i", "mesh_a"},
                  {"in_b_i", "mesh_b"},
                  {"in_d_i", "in_d_i"},
                  {"out_valid_o", "out_valid_o"},
                  {"out_result_o", "out_result_o"}};
    if (p.both())
      mesh.conns.emplace_back("in_dataflow_i", "mode_i ? 1'b0 : in_dataflow_i");
    mesh.conns.emplace_back("in_shift_i", "in_shift_i");
  }
  return m;
}

} // namespace by::hw
