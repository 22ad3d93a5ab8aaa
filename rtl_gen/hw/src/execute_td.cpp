// The execute controller's TensorDash parts (docs/tensordash.md, "In the accelerator").
//
// Every OS compute of a TensorDash config goes through the operand feeder (by_td_feeder) and
// the front end of by_td_array: the controller still decides every beat (flips, preloads,
// drains, WS beats), and a TensorDash compute beat is simply a beat whose a and b come from
// the front end. The feeder must see operations early to read their operands ahead, so the
// controller takes them from the reservation station into a two-entry pre-queue before its
// lookahead slot; each OS compute entering the pre-queue becomes a feeder job.
#include "execute_td.h"

#include "hw/generators.h"
#include "op_layouts.h"
#include "state_regs.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

int tdDoneBits(const AccelParams& p) {
  const int reach = std::min(p.array.tdDepth, p.tdJobs);
  int bits = 1;
  while ((1 << bits) <= reach)
    ++bits;
  return bits;
}

void addTdReadPorts(vlog::Module& m) {
  for (const char* n : {"spfa", "spfb"}) {
    const std::string c = n;
    m.portGroup(std::string("Scratchpad wide read client ") + n + ": the TensorDash feeder's " +
                (c == "spfa" ? "A tiles" : "B rows") + " (whole SRAM words).");
    m.output(c + "_valid_o", Type::bit());
    m.input(c + "_ready_i", Type::bit());
    m.output(c + "_row_o", Type::bits("SpRowBits"));
    m.input(c + "_rdata_i", Type::bits("SpWordRows*SpElems*ElemWidth"));
  }
}

void emitTdIntake(vlog::Body& b, const AccelParams& p, const PackedLayout& ex) {
  b.comment("TensorDash pre-queue: operations wait here (two deep) before the lookahead slot; "
            "every OS compute entering it is handed to the operand feeder as a job, so that "
            "its operands are read while the operations before it compute.");
  b.localParam("PqDepth", "2", "the pre-queue");
  b.localParam("PqBits", "$clog2(PqDepth+1)");
  StateRegs regs(b);
  regs.add("pq_count", Type::bits("PqBits"), "'0")
      .add("pass_open", Type::bit(), "1'b0",
           "the last operation taken was an OS compute that did not end its accumulation");
  b.logicArray("pq_payload_q", Type::bits("ExWidth"), "PqDepth", "", "mem2reg");
  b.logicArray("pq_id_q", Type::bits("IdBits"), "PqDepth", "", "mem2reg");
  b.logic("pq_take", Type::bit(), "an operation enters from the reservation station");
  b.logic("pq_push", Type::bit(), "... into entry pq_count_q - (pop this cycle)");
  b.logic("rs_os", Type::bit(), "the entering operation is an OS compute: a feeder job");
  b.logic("job_ready", Type::bit(), "the feeder has a free job slot");
  b.logic("rs_op", Type::bits("ExWidth"), "the operation entering");
  b.assign("rs_op", "op_payload_i[ExWidth-1:0]");
  std::vector<std::string> rsFields = {"ws",        "flip",   "c_garbage", "a_garbage",
                                       "a_row",     "a_rows", "a_cols",    "a_stride",
                                       "d_garbage", "d_row",  "d_rows",    "d_cols"};
  if (p.config.tensordash.scheduleB)
    rsFields.push_back("td_side");
  if (hasAStep(p))
    rsFields.push_back("a_step");
  ex.unpack(b, "rs_op", "rs_", rsFields);
  b.assign("rs_os", "!rs_ws");
  b.assign("op_ready_o", "pq_count_q != PqBits'(PqDepth) && (!rs_os || job_ready)");
  b.assign("pq_take", "op_valid_i && op_ready_o");
  b.assign("pq_push", "pq_take");
  b.assign("in_valid", "pq_count_q != '0");
  b.assign("in_payload", "pq_payload_q[0]");
  b.assign("in_id", "pq_id_q[0]");
  b.comment("The job: A is the COMPUTE's rs1, B its rs2 (payload fields a and d); its steps "
            "are the dense beats of the operation (A's steps or B's rows, the larger).");
  b.logic("job_a_steps", Type::bits("DimBits"));
  b.assign("job_a_steps", "DimBits'((ColCalcBits'(rs_a_cols) + ColCalcBits'(Lanes-1)) >> " +
                              num(config::log2Exact(p.lanes)) + ")");
  b.logic("job_steps", Type::bits("DimBits"));
  b.assign("job_steps", "job_a_steps > rs_d_rows ? job_a_steps : rs_d_rows");
  b.logic("job_new_pass", Type::bit(), "a flip, or the first compute after another kind");
  b.assign("job_new_pass", "rs_flip || !pass_open_q");
  regs.next()
      .line("pq_count_d = pq_count_q + PqBits'(pq_take) - PqBits'(accept);")
      .ifElse("pq_take", [](vlog::Stmts& s) { s.line("pass_open_d = rs_os && rs_c_garbage;"); });
  b.comment("The pre-queue's entries: the head leaves on accept, a new one lands behind.");
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("accept", [](vlog::Stmts& s) {
    s.line("pq_payload_q[0] <= pq_payload_q[1];").line("pq_id_q[0] <= pq_id_q[1];");
  });
  d.clocked.ifElse("pq_push", [](vlog::Stmts& s) {
    s.line("pq_payload_q[1'(pq_count_q - PqBits'(accept))] <= rs_op;");
    s.line("pq_id_q[1'(pq_count_q - PqBits'(accept))] <= op_id_i;");
  });
  // The feeder's job port is driven here (its instance is in emitTdArray).
  b.logic("job_valid", Type::bit());
  b.assign("job_valid", "pq_take && rs_os");
  b.logic("unused_rs", Type::bit(), "row fields wider than a scratchpad row address");
  b.assign("unused_rs", "^{rs_a_row, rs_d_row}");
}

void emitTdArray(vlog::Body& b, const AccelParams& p, const PackedLayout&) {
  const ArrayParams& a = p.array;
  const int depth = a.tdDepth, groups = p.dim / a.tdRowsPerScheduler, lanes = p.lanes;
  int cntBits = 1;
  while ((1 << cntBits) <= depth)
    ++cntBits;
  b.comment("TensorDash: the operand feeder and the array (front end + mesh). A compute beat "
            "of an OS operation goes when the front end has a step (td_go); the feeder says "
            "how many operations a beat completes (td_done).");
  b.localParam("TdDepth", num(depth), "window steps: lookahead + 1");
  b.localParam("TdStepBits", num(cntBits), "holds 0..TdDepth");
  b.localParam("TdSelBits", num(a.tdSelBits), "a lane's select");
  b.localParam("TdLaneSelects", num(groups * lanes), "selects of a beat: groups x lanes");
  b.localParam("TdIdleSelect", Type::bits("TdSelBits"),
               num(a.tdSelBits) + "'d" + num(a.tdIdleSelect()), "a lane that does nothing");
  b.logic("td_retire", Type::bits("TdStepBits"), "steps it retires");
  b.logic("td_avail", Type::bits("TdStepBits"));
  b.logic("td_take", Type::bits("TdStepBits"));
  b.logic("td_step_a", Type::bits("TdDepth*SpRowWidth"));
  b.logic("td_step_b", Type::bits("TdDepth*SpRowWidth"));
  b.logic("td_feeder_busy", Type::bit());
  b.logic("td_fe_busy", Type::bit());
  b.logic("td_short", Type::bit(), "the window is short of steps the feeder has not brought");
  b.assign("td_beat_go", "beat_go && is_compute && !cur_ws");
  {
    auto& i = b.instance(names::kTdFeeder, "u_feeder");
    i.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"job_valid_i", "job_valid"},
               {"job_ready_o", "job_ready"},
               {"job_a_zero_i", "rs_a_garbage"},
               {"job_a_row_i", "SpRowBits'(rs_a_row)"},
               {"job_a_rows_i", "rs_a_rows"},
               {"job_a_cols_i", "rs_a_cols"},
               {"job_a_stride_i", "rs_a_stride"},
               {"job_b_zero_i", "rs_d_garbage"},
               {"job_b_row_i", "SpRowBits'(rs_d_row)"},
               {"job_b_rows_i", "rs_d_rows"},
               {"job_b_cols_i", "rs_d_cols"},
               {"job_steps_i", "job_steps"},
               {"job_new_pass_i", "job_new_pass"},
               {"spa_valid_o", "spfa_valid_o"},
               {"spa_ready_i", "spfa_ready_i"},
               {"spa_row_o", "spfa_row_o"},
               {"spa_rdata_i", "spfa_rdata_i"},
               {"spb_valid_o", "spfb_valid_o"},
               {"spb_ready_i", "spfb_ready_i"},
               {"spb_row_o", "spfb_row_o"},
               {"spb_rdata_i", "spfb_rdata_i"},
               {"step_avail_o", "td_avail"},
               {"step_a_o", "td_step_a"},
               {"step_b_o", "td_step_b"},
               {"step_take_i", "td_take"},
               {"beat_i", "td_beat_go"},
               {"retire_i", "td_retire"},
               {"done_o", "td_done"},
               {"short_o", "td_short"},
               {"busy_o", "td_feeder_busy"}};
    if (p.config.tensordash.scheduleB)
      i.conns.emplace_back("job_side_i", "rs_td_side");
    if (hasAStep(p))
      i.conns.emplace_back("job_a_step_i", "rs_a_step");
  }
  b.logic("td_sel", Type::bits("TdLaneSelects*TdSelBits"), "selects of the beat in the mesh");
  b.logic("td_adv", Type::bits("TdStepBits"), "steps its window moved");
  b.logic("td_stall", Type::bit(), "... held back by the lockstep");
  b.logic("td_out_beat", Type::bit());
  b.logic("td_out_last", Type::bit());
  {
    auto& i = b.instance(names::kTdArray, "u_array");
    i.conns = {{"clk_i", "clk_i"},       {"rst_ni", "rst_ni"},      {"enable_i", "!cur_td_off"},
               {"mode_i", "d_td_q"},     {"hold_i", "!td_beat_go"}, {"in_valid_i", "d_valid_q"},
               {"in_prop_i", "d_prop_q"}};
    if (a.both())
      i.conns.emplace_back("in_dataflow_i", "d_ws_q");
    i.conns.insert(i.conns.end(), {{"in_shift_i", "d_shift_q"},
                                   {"in_a_i", "mesh_a"},
                                   {"in_b_i", "mesh_b"},
                                   {"in_d_i", "mesh_d"},
                                   {"step_avail_i", "td_avail"},
                                   {"step_end_i", "1'b0"},
                                   {"step_a_i", "td_step_a"},
                                   {"step_b_i", "td_step_b"},
                                   {"step_take_o", "td_take"},
                                   {"out_valid_o", "res_valid"},
                                   {"out_result_o", "res_data"},
                                   {"td_beat_o", "td_out_beat"},
                                   {"td_last_o", "td_out_last"},
                                   {"td_sel_o", "td_sel"},
                                   {"td_advance_o", "td_adv"},
                                   {"td_stall_o", "td_stall"},
                                   {"td_busy_o", "td_fe_busy"},
                                   {"td_go_o", "td_go"},
                                   {"td_retire_o", "td_retire"}});
  }
  b.blank();

  // A group's selects apply to its rows_per_scheduler PE rows and, through them, to every PE
  // column; a beat that retires `adv` steps spent adv*groups*lanes lane-steps of the dense
  // array's time on them, of which the non-idle lanes did products.
  b.comment("MAC counters of the beat in the mesh: a non-idle lane select is one product in "
            "each of its group's PE rows and in every PE column.");
  b.localParam("TdIssuedBits", "$clog2(TdLaneSelects+1)");
  b.logic("td_issued", Type::bits("TdIssuedBits"), "non-idle lane selects of the beat");
  b.comb().line("td_issued = '0;").forLoop("k", "TdLaneSelects", [](vlog::Stmts& s) {
    s.line("td_issued = td_issued + TdIssuedBits'(td_sel[k*TdSelBits +: TdSelBits] != "
           "TdIdleSelect);");
  });
  b.logic("td_beat_in_mesh", Type::bit());
  b.assign("td_beat_in_mesh", "d_valid_q && d_td_q");
  b.assign("macs_skipped_o",
           "td_beat_in_mesh ?\n"
           "      MacBits'((MacBits'(td_adv) * MacBits'(TdLaneSelects) - MacBits'(td_issued)) *\n"
           "               MacBits'(TdSelectMacs)) : '0");
  b.assign("window_stall_o", "td_beat_in_mesh && td_stall");
  b.assign("feed_stall_o", "is_compute && !cur_ws && !td_go");
  b.assign("short_beat_o", "td_beat_go && td_short");
  b.logic("unused_td", Type::bits("2"));
  b.assign("unused_td", "{td_out_beat, td_out_last}");
}

void emitTdDTransposer(vlog::Body& b, const AccelParams&) {
  b.comment("D transposer (B-scheduled flips): the array accumulates C transposed, so row s "
            "of its preload is column s of D. The flipping operation's D rows are read into "
            "dt_q first (one per cycle through the spd / acc clients, as OutWidth values, zero "
            "past D's rows and cols); its flip is planned once they are all there.");
  StateRegs regs(b);
  regs.add("dt_i", Type::bits("DimBits"), "'0", "next row to load")
      .add("dt_ret", Type::bit(), "1'b0", "a D row arrives this cycle");
  b.logicArray("dt_q", Type::bits("Dim*OutWidth"), "Dim", "row c holds D[c][.]", "mem2reg");
  b.logic("dt_want", Type::bit(), "the current operation needs its D transposed");
  b.logic("dt_real", Type::bit(), "row dt_i_q is one of D's (else zero)");
  b.logic("dt_go", Type::bit(), "row dt_i_q is read (granted) or zeroed this cycle");
  b.logic("dt_ret_row_q", Type::bits("IdxBits"));
  b.logic("dt_ret_acc_q", Type::bit());
  b.logic("dt_in", Type::bits("Dim*OutWidth"), "the arriving row, as OutWidth values");
  b.logic("dt_col", Type::bits("Dim*OutWidth"), "column d_dt_col_q: element c is D[c][s]");
  b.assign("ev_tr", "ev_on_cur && !cur_ws && cur_td_side");
  b.assign("dt_want", "cur_valid_q && !cur_ws && cur_td_side && cur_flip && !cur_flipped_q &&\n"
                      "      !cur_bd_garbage && !dt_ready_q && dt_i_q != DimBits'(Dim)");
  b.assign("dt_real", "dt_i_q < cur_bd_rows");
  b.assign("dt_rd_sp", "dt_want && dt_real && !cur_bd_acc");
  b.assign("dt_rd_acc", "dt_want && dt_real && cur_bd_acc");
  b.assign("dt_row", "RowAddrBits'(cur_bd_row) + RowAddrBits'(dt_i_q)");
  b.assign("dt_go", "dt_want && (!dt_real || (cur_bd_acc ? acc_ready_i : spd_ready_i))");
  vlog::Body& e = b.genFor("c", "Dim", "gen_dt");
  e.logic("sp", Type::sbits("ElemWidth"), "element c of a scratchpad row");
  e.assign("sp", "spd_rdata_i[c*ElemWidth +: ElemWidth]");
  e.assign("dt_in[c*OutWidth +: OutWidth]",
           "32'(c) >= 32'(cur_bd_cols) ? '0 : dt_ret_acc_q ? acc_rdata_i[c*AccWidth +: OutWidth] "
           ":\n        OutWidth'(sp)");
  e.logic("row", Type::bits("Dim*OutWidth"));
  e.assign("row", "dt_q[c]");
  e.assign("dt_col[c*OutWidth +: OutWidth]", "row[32'(d_dt_col_q)*OutWidth +: OutWidth]");
  vlog::Stmts& n = regs.next();
  n.line("dt_ready_d = dt_ready_q;");
  n.line("dt_ret_d = dt_go && dt_real;");
  n.ifElse("dt_go", [](vlog::Stmts& s) { s.line("dt_i_d = dt_i_q + DimBits'(1);"); });
  n.comment("All rows in (the last read has arrived): the flip can be planned.");
  n.ifElse("dt_i_q == DimBits'(Dim) && !dt_ret_q && !dt_ready_q",
           [](vlog::Stmts& s) { s.line("dt_ready_d = 1'b1;").line("dt_i_d = '0;"); });
  n.ifElse("beat_go && flip_op && ev_tr", [](vlog::Stmts& s) { s.line("dt_ready_d = 1'b0;"); });
  b.comment("D's rows, stored as they arrive (a row past D's is zeroed without a read).");
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("dt_go", [](vlog::Stmts& s) {
    s.line("dt_ret_row_q <= IdxBits'(dt_i_q);").line("dt_ret_acc_q <= cur_bd_acc;");
    s.ifElse("!dt_real", [](vlog::Stmts& t) { t.line("dt_q[IdxBits'(dt_i_q)] <= '0;"); });
  });
  d.clocked.ifElse("dt_ret_q", [](vlog::Stmts& s) { s.line("dt_q[dt_ret_row_q] <= dt_in;"); });
}

void emitTdTransposedDrain(vlog::Body& b, const AccelParams&) {
  b.comment("C transposer (B-scheduled accumulations): their drained rows are columns of C. "
            "Each is collected into a buffer (two, so a drain can collect while the previous "
            "one is written out); the last one starts the write-out of the rows of C, one per "
            "cycle. Beats whose result is written wait while their write could meet it.");
  StateRegs regs(b);
  regs.add("wo_fill", Type::bit(), "1'b0", "the buffer collecting")
      .add("wo_act", Type::bit(), "1'b0", "a write-out is running")
      .add("wo_i", Type::bits("DimBits"), "'0", "row of C written this cycle")
      .add("wo_buf", Type::bit(), "", "the buffer written out");
  b.logicArray("wo_q", Type::bits("Dim*OutWidth"), "2*Dim", "row i of buffer k at k*Dim + i",
               "mem2reg");
  b.logic("wo_row_q", Type::bits("RowBits"));
  b.logic("wo_stride_q", Type::bits("StrideBits"));
  b.logic("wo_rows_q", Type::bits("DimBits"));
  b.logic("wo_cols_q", Type::bits("DimBits"));
  b.logic("wo_acc_q", Type::bit());
  b.logic("wo_accumulate_q", Type::bit());
  b.logic("wo_relu_q", Type::bit());
  b.logic("wo_entry_q", Type::bits("OpBits"));
  b.logic("collect", Type::bit(), "a transposed drain's column arrives");
  b.logic("wo_start", Type::bit(), "... its last one (column 0)");
  b.assign("collect", "res_valid && t_tr");
  b.assign("wo_start", "collect && t_col == '0");
  b.assign("wb_valid", "wo_act_q || (res_valid && t_we)");
  b.assign("wb_acc", "wo_act_q ? wo_acc_q : t_acc");
  b.assign("wb_accumulate", "wo_act_q ? wo_accumulate_q : t_accumulate");
  b.assign("wb_relu", "wo_act_q ? wo_relu_q : t_relu");
  b.assign("wb_row", "wo_act_q ? RowBits'(RowCalcBits'(wo_row_q) + RowCalcBits'(wo_i_q) * "
                     "RowCalcBits'(wo_stride_q)) :\n      t_row");
  b.assign("wb_cols", "wo_act_q ? wo_cols_q : t_cols");
  b.assign("wb_entry", "wo_act_q ? wo_entry_q : t_entry");
  b.logic("wo_out", Type::bits("Dim*OutWidth"));
  b.assign("wo_out", "wo_q[{wo_buf_q, IdxBits'(wo_i_q)}]");
  b.assign("wb_data", "wo_act_q ? wo_out : res_data");
  b.clocked().clocked.ifElse("collect", [&](vlog::Stmts& s) {
    s.comment("Row i of C takes element i of the drained row, in its column t_col.");
    s.forLoop("i", "Dim", [](vlog::Stmts& t) {
      t.line("wo_q[32'(wo_fill_q)*Dim + i][32'(t_col)*OutWidth +: OutWidth] <=");
      t.line("    res_data[i*OutWidth +: OutWidth];");
    });
  });
  vlog::Stmts& n = regs.next();
  n.line("wo_hold_d = wo_hold_q;");
  n.ifElse("wo_act_q", [](vlog::Stmts& s) {
    s.ifElse(
        "wo_i_q + DimBits'(1) == wo_rows_q", [](vlog::Stmts& t) { t.line("wo_act_d = 1'b0;"); },
        [](vlog::Stmts& t) { t.line("wo_i_d = wo_i_q + DimBits'(1);"); });
  });
  n.ifElse("wo_start", [](vlog::Stmts& s) {
    s.line("wo_act_d = 1'b1;").line("wo_buf_d = wo_fill_q;").line("wo_fill_d = !wo_fill_q;");
    s.line("wo_i_d = '0;");
  });
  n.comment("The last collecting beat's result starts a write-out of up to DIM rows when it "
            "leaves the array: beats that write wait DIM cycles after it.");
  n.ifElse(
      "beat_go && draining && dr_tr && drain_row_idx == '0",
      [](vlog::Stmts& s) { s.line("wo_hold_d = DimBits'(Dim);"); },
      [](vlog::Stmts& s) {
        s.ifElse("wo_hold_q != '0",
                 [](vlog::Stmts& t) { t.line("wo_hold_d = wo_hold_q - DimBits'(1);"); });
      });
  b.comment("The write-out's destination, from the last column's tag.");
  b.flops(vlog::FlopsItem({{"wo_row_q", "t_row"},
                           {"wo_stride_q", "t_c_stride"},
                           {"wo_rows_q", "t_c_rows"},
                           {"wo_cols_q", "t_cols"},
                           {"wo_acc_q", "t_acc"},
                           {"wo_accumulate_q", "t_accumulate"},
                           {"wo_relu_q", "t_relu"},
                           {"wo_entry_q", "t_entry"}},
                          "wo_start"));
}

} // namespace by::hw
