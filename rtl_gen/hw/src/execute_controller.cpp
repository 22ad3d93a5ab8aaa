// The execute controller: turns PRELOAD+COMPUTE operations into a stream of mesh beats
// (docs/architecture.md, "Mesh protocol") and writes the results.
//
// Beats. Every cycle at most one beat enters the mesh. A beat is a compute beat of the
// current operation (WS: a row of A and of the bias D; OS: a column of A from the transposer
// and a row of B), or a filler (a = b = 0). Any beat can also carry, on the preload chain (d),
// one row of the stationary data of the next operation that switches the array (a "flip").
//
// Flips. A flip is planned as an event counting down the beats until it happens. The DIM
// beats just before the flip carry the stationary rows in reverse order (the last beat
// before it carries row 0), two flips are at least DIM beats apart, and the flip beat is the
// flipping operation's first compute beat. When the next operation is known early (a
// lookahead of one), its stationary rows ride on the current operation's compute beats, so
// back-to-back operations keep the array busy.
//
// OS results. An OS accumulation that ends (an operation with a real C address) is written
// out during the DIM beats after the next flip, bottom row first. If the next operation does
// not flip, a flip with no compute ("drain") is inserted; filler beats keep the stream going
// until all DIM rows have left. A change of dataflow waits for the drain to finish.
//
// Results are never back-pressured: the execute write clients have top priority in both
// memories. An operation completes (to the reservation station) when all its beats have been
// issued and all its result rows written.
#include "execute_controller.h"

#include "execute_td.h"
#include "op_layouts.h"
#include "text_util.h"

#include <map>

namespace by::hw {

using vlog::Type;

vlog::Module ExecuteControllerGenerator::build() const {
  const AccelParams& p = p_;
  const ArrayParams& a = p.array;
  const PackedLayout ex = execOpLayout(p);
  const int payload = opPayloadWidth(p);
  const int db = p.dimBits;                             // holds 0..DIM
  const int cb = p.dimBits + 1;                         // holds 0..2*DIM
  const int ib = std::max(1, config::log2Exact(p.dim)); // an index 0..DIM-1
  const int rb = p.localRowBits;
  const int spRow = p.spElems * p.iw, accRow = p.dim * p.aw;
  const int rowW = std::max(spRow, accRow); // a scratchpad or an accumulator row
  const int eb = p.spElemBits;              // holds 0..DIM*lanes (A and B columns)
  const int laneLog2 = config::log2Exact(p.lanes);
  const bool td = p.config.tensordash.enabled; // OS computes through the TensorDash feeder
  const int tagFifo = a.latency() + 3;
  // Tag of a beat's result: {we, acc, accumulate, relu, row, cols, entry}.
  PackedLayout tag;
  tag.field("we", 1).field("acc", 1).field("accumulate", 1).field("relu", 1);
  tag.field("row", rb).field("cols", db).field("entry", 2);
  if (td) // a drain of a B-scheduled accumulation collects columns of C (execute_td.cpp)
    tag.field("tr", 1).field("col", ib).field("c_rows", db).field("c_stride", 16);

  vlog::Module m(names::kExecController,
                 "Execute controller: PRELOAD+COMPUTE operations to mesh beats (WS and OS, "
                 "lookahead of one operation, flip planning, OS drains, transposer for OS "
                 "A operands) and result write-back. Result tag {" +
                     tag.describe() + "}.");
  m.clockAndReset();
  m.portGroup("Operations from the reservation station.");
  m.input("op_valid_i", Type::bit());
  m.output("op_ready_o", Type::bit());
  m.input("op_id_i", Type::bits(p.rsIdBits));
  m.input("op_payload_i", Type::bits(payload));
  m.output("done_valid_o", Type::bit());
  m.output("done_id_o", Type::bits(p.rsIdBits));
  auto readClient = [&](const std::string& n, int rowBits, int width, const std::string& doc) {
    m.portGroup(doc);
    m.output(n + "_valid_o", Type::bit());
    m.input(n + "_ready_i", Type::bit());
    m.output(n + "_row_o", Type::bits(rowBits));
    m.input(n + "_rdata_i", Type::bits(width));
  };
  readClient("spa", p.spRowBits, spRow,
             "Scratchpad read client a: A rows (WS) and transposer fills (OS).");
  readClient("spb", p.spRowBits, spRow, "Scratchpad read client b: bias D (WS) or B (OS) rows.");
  readClient("spd", p.spRowBits, spRow, "Scratchpad read client d: stationary rows.");
  readClient("acc", p.accRowBits, accRow, "Accumulator read client: bias D (WS) or OS preload D.");
  m.portGroup("Scratchpad and accumulator write clients (always granted).");
  m.output("spw_valid_o", Type::bit());
  m.output("spw_row_o", Type::bits(p.spRowBits));
  m.output("spw_data_o", Type::bits(spRow));
  m.output("spw_mask_o", Type::bits(p.spElems));
  m.output("accw_valid_o", Type::bit());
  m.output("accw_row_o", Type::bits(p.accRowBits));
  m.output("accw_data_o", Type::bits(accRow));
  m.output("accw_mask_o", Type::bits(p.dim));
  m.output("accw_accumulate_o", Type::bit());
  m.input("accw_done_i", Type::bit());
  m.portGroup("Status for the performance counters.");
  m.output("busy_o", Type::bit());
  m.output("beat_o", Type::bit(), "a valid beat enters the array");
  m.output("compute_beat_o", Type::bit(), "... and it is a compute beat");
  m.output("macs_o", Type::bits(macCountBits(p)), "MAC slots it issues (DIM*DIM*lanes if dense)");
  m.output("bank_stall_o", Type::bit(), "a beat waits for an SRAM bank");
  if (td) {
    m.output("macs_skipped_o", Type::bits(macCountBits(p)),
             "MAC slots the dense array would have spent on the steps this beat retired, minus "
             "the ones it issues");
    m.output("window_stall_o", Type::bit(), "the beat's window was held back by the lockstep");
    m.output("feed_stall_o", Type::bit(), "a TensorDash beat waits for its window's first step");
    m.output("short_beat_o", Type::bit(),
             "a TensorDash beat goes with a window short of steps the feeder has not brought");
    addTdReadPorts(m, p);
  }

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("Lanes", num(p.lanes), "MACs per PE: reduction elements per PE per beat");
  if (p.spElems > p.dim)
    b.localParam("SpElems", num(p.spElems), "elem_t per scratchpad row: DIM * lanes");
  b.localParam("OutWidth", num(p.ow), "spatial output width");
  b.localParam("ElemWidth", num(p.iw));
  b.localParam("AccWidth", num(p.aw));
  b.localParam("BWidth", num(a.bWidth()));
  b.localParam("DWidth", num(a.dWidth()));
  b.blank();

  // ================================================================ operations
  b.comment("Current operation (issuing compute beats) and the next one (lookahead).");
  b.logic("cur_valid_q", Type::bit());
  b.logic("cur_q", Type::bits(ex.width()));
  b.logic("cur_entry_q", Type::bits(2), "its op-table entry");
  b.logic("cur_flipped_q", Type::bit(), "its flip beat has been issued (or it does not flip)");
  b.logic("cur_beat_q", Type::bits(db), "compute beats issued");
  if (!td)
    b.logic("cur_buf_q", Type::bit(), "its transposer buffer (OS)");
  b.logic("nxt_valid_q", Type::bit());
  b.logic("nxt_q", Type::bits(ex.width()));
  b.logic("nxt_entry_q", Type::bits(2));
  if (!td)
    b.logic("nxt_buf_q", Type::bit());
  std::vector<std::string> curFields;
  for (const auto& f : ex.fields())
    if (f.name != "a_acc")
      curFields.push_back(f.name);
  ex.unpack(b, "cur_q", "cur_", curFields);
  std::vector<std::string> nxtFields = {"flip",   "ws",      "bd_garbage", "bd_acc",
                                        "bd_row", "bd_rows", "bd_cols"};
  if (!td) // the transposer fills the next operation's A early
    nxtFields.insert(nxtFields.end(), {"a_garbage", "a_row", "a_rows", "a_stride"});
  ex.unpack(b, "nxt_q", "nxt_", nxtFields);
  b.logic("cur_nbeats", Type::bits(db), "compute beats of the current operation");
  b.logic("cur_ends_acc", Type::bit(), "OS, and C is real: the accumulation ends here");
  b.logic("cur_a_steps", Type::bits(db), "OS: reduction steps of A (columns / lanes, rounded up)");
  b.assign("cur_a_steps", laneLog2 == 0
                              ? num(db) + "'(cur_a_cols)"
                              : num(db) + "'((" + num(eb + 1) + "'(cur_a_cols) + " + num(eb + 1) +
                                    "'(Lanes-1)) >> " + num(laneLog2) + ")");
  b.assign("cur_nbeats",
           "cur_ws ? cur_a_rows : (cur_a_steps > cur_d_rows ? cur_a_steps : cur_d_rows)");
  b.assign("cur_ends_acc", "!cur_ws && !cur_c_garbage");
  b.blank();

  // ================================================================ op table
  b.comment("Operation table: RS id, result rows not yet written, all beats issued.");
  b.logic("opt_valid_q", Type::bits(4));
  b.logicArray("opt_id_q", Type::bits(p.rsIdBits), "4", "", "mem2reg");
  b.logicArray("opt_pending_q", Type::bits(8), "4", "", "mem2reg");
  b.logic("opt_final_q", Type::bits(4));
  b.logic("free_entry", Type::bits(2));
  b.logic("any_free_entry", Type::bit());
  b.comb()
      .line("free_entry = '0;")
      .line("any_free_entry = 1'b0;")
      .forLoop("i", "4", [](vlog::Stmts& s) {
        s.ifElse("!opt_valid_q[3-i]", [](vlog::Stmts& t) {
          t.line("free_entry = 2'(3-i);").line("any_free_entry = 1'b1;");
        });
      });
  b.logic("fin_valid", Type::bit());
  b.logic("fin_entry", Type::bits(2));
  b.comb().line("fin_valid = 1'b0;").line("fin_entry = '0;").forLoop("i", "4", [](vlog::Stmts& s) {
    s.ifElse("opt_valid_q[i] && opt_final_q[i] && opt_pending_q[i] == '0",
             [](vlog::Stmts& t) { t.line("fin_valid = 1'b1;").line("fin_entry = 2'(i);"); });
  });
  b.assign("done_valid_o", "fin_valid");
  b.assign("done_id_o", "opt_id_q[fin_entry]");
  b.logic("accept", Type::bit());
  b.logic("in_valid", Type::bit(), "an operation for the lookahead slot");
  b.logic("in_ready", Type::bit());
  b.logic("in_payload", Type::bits(ex.width()));
  b.logic("in_id", Type::bits(p.rsIdBits));
  b.assign("in_ready", "!nxt_valid_q && any_free_entry");
  b.assign("accept", "in_valid && in_ready");
  if (td)
    emitTdIntake(b, p, ex); // through the pre-queue that hands OS computes to the feeder
  else {
    b.assign("in_valid", "op_valid_i");
    b.assign("in_payload", "op_payload_i[" + num(ex.width() - 1) + ":0]");
    b.assign("in_id", "op_id_i");
    b.assign("op_ready_o", "in_ready");
  }
  b.blank();

  // ================================================================ transposer
  if (!td) { // TensorDash configs read OS operands through the feeder instead
    b.comment("Transposer buffers: OS operations with an A operand take them in turn.");
    b.logic("buf_sel_q", Type::bit(), "buffer of the next OS operation accepted");
    b.logic("buf_ready_q", Type::bits(2), "buffer holds its operation's A");
    b.logic("nxt_needs_buf", Type::bit());
    b.logic("cur_needs_buf", Type::bit());
    b.logic("accept_needs_buf", Type::bit());
    b.assign("accept_needs_buf",
             "!" + ex.slice("in_payload", "ws") + " && !" + ex.slice("in_payload", "a_garbage"));
    b.assign("cur_needs_buf", "cur_valid_q && !cur_ws && !cur_a_garbage");
    b.assign("nxt_needs_buf", "nxt_valid_q && !nxt_ws && !nxt_a_garbage");
    b.comment("Fill: the current operation's buffer first, then the next one's.");
    b.logic("fill_cur", Type::bit());
    b.logic("fill_nxt", Type::bit());
    b.logic("fill_want", Type::bit(), "a buffer needs rows");
    b.logic("fill_buf", Type::bit());
    b.logic("fill_row_q", Type::bits(db), "rows of the buffer already requested");
    b.logic("fill_rows", Type::bits(db));
    b.logic("fill_base", Type::bits(rb));
    b.logic("fill_stride", Type::bits(16));
    b.assign("fill_cur", "cur_needs_buf && !buf_ready_q[cur_buf_q]");
    b.assign("fill_nxt", "!fill_cur && nxt_needs_buf && !buf_ready_q[nxt_buf_q]");
    b.assign("fill_want", "fill_cur || fill_nxt");
    b.assign("fill_buf", "fill_cur ? cur_buf_q : nxt_buf_q");
    b.assign("fill_rows", "fill_cur ? cur_a_rows : nxt_a_rows");
    b.assign("fill_base", "fill_cur ? cur_a_row : nxt_a_row");
    b.assign("fill_stride", "fill_cur ? cur_a_stride : nxt_a_stride");
    b.blank();
  }

  // ================================================================ flip planning
  b.comment("The planned flip: beats until it (ev_dist_q), whose it is, and the OS drain.");
  b.logic("prop_q", Type::bit());
  b.logic("since_flip_q", Type::bits(db), "beats since the last flip beat (saturates at DIM)");
  b.logic("ev_valid_q", Type::bit());
  b.logic("ev_drain_q", Type::bit(), "a flip without compute, to drain OS results");
  b.logic("ev_dist_q", Type::bits(cb), "beats still to issue before the flip beat");
  b.logic("drain_pend_q", Type::bit(), "an ended OS accumulation waits for a flip");
  b.logic("drain_act_q", Type::bit(), "its rows are leaving the array");
  b.logic("drain_j_q", Type::bits(db), "beats since the draining flip");
  b.comment("Where drained rows go: pend_* for the ended accumulation waiting for its flip, "
            "drain_* for the one leaving the array (an operation can end while the previous "
            "drain starts), dr_* the set this beat uses.");
  std::vector<std::pair<std::string, vlog::Type>> drainFields = {
      {"c_row", Type::bits(rb)},  {"c_rows", Type::bits(db)},
      {"c_cols", Type::bits(db)}, {"c_stride", Type::bits(16)},
      {"acc", Type::bit()},       {"accumulate", Type::bit()},
      {"relu", Type::bit()},      {"shift", Type::bits(p.shiftBits)},
      {"entry", Type::bits(2)}};
  if (td) // the ended accumulation scheduled B: its drained rows are columns of C
    drainFields.push_back({"tr", Type::bit()});
  for (const auto& [f, t] : drainFields) {
    b.logic("pend_" + f + "_q", t);
    b.logic("drain_" + f + "_q", t);
    b.logic("dr_" + f, t);
    b.assign("dr_" + f, "drain_act_q ? drain_" + f + "_q : pend_" + f + "_q");
  }
  b.blank();

  // ================================================================ beat selection
  b.comment("This cycle's beat.");
  b.logic("cur_computing", Type::bit(), "the current operation has compute beats to issue");
  b.logic("flip_now", Type::bit(), "this beat is the planned flip");
  b.logic("flip_op", Type::bit(), "... of the current operation (its compute beat 0)");
  b.logic("is_compute", Type::bit());
  b.logic("beat_want", Type::bit(), "a beat should go this cycle");
  b.logic("beat_idx", Type::bits(db), "compute beat index");
  b.logic("stream_on", Type::bit(), "this beat carries a stationary row");
  b.logic("stream_idx", Type::bits(cb), "which row (ev_dist_q - 1)");
  b.logic("ev_ws", Type::bit(), "dataflow of the flipping operation");
  b.logic("ev_bd_garbage", Type::bit());
  b.logic("ev_bd_acc", Type::bit());
  b.logic("ev_bd_row", Type::bits(rb));
  b.logic("ev_bd_rows", Type::bits(db));
  b.logic("ev_bd_cols", Type::bits(eb));
  b.logic("ev_on_cur", Type::bit(), "the planned flip is the current operation's");
  if (td) {
    b.logic("td_go", Type::bit(), "the TensorDash front end has a step for a beat");
    b.logic("td_beat_go", Type::bit(), "a TensorDash beat goes this cycle");
    b.logic("td_done", Type::bits(tdDoneBits(p)), "operations whose last step it retires");
    b.logic("td_done_q", Type::bits(tdDoneBits(p)),
            "operations the feeder has completed and this controller has not yet");
    b.comment("B-scheduled accumulations (execute_td.cpp): their stationary rows come from the "
              "D transposer, their results leave through the C transposer's write-out.");
    b.logic("ev_tr", Type::bit(), "the planned flip is a B-scheduled one");
    b.logic("dt_rd_sp", Type::bit(), "the D transposer reads a scratchpad row");
    b.logic("dt_rd_acc", Type::bit(), "... an accumulator row");
    b.logic("dt_row", Type::bits(rb + 1), "... this one");
    b.logic("dt_ready_q", Type::bit(), "the D transposer holds the current operation's D");
    b.logic("beat_writes", Type::bit(), "this beat's result is written when it leaves the array");
    b.logic("wo_hold_q", Type::bits(db), "cycles writing beats wait for a write-out");
  }
  b.comment("An OS operation that does not flip (COMPUTE_ACCUMULATED) after an ended "
            "accumulation waits for that accumulation's drain flip, which starts it from zero.");
  // A TensorDash operation (every OS one on such a config) computes until the feeder says its
  // last step has left the window; it does not count beats. While completions the feeder
  // reported are still being applied (td_done_q), no beat goes: the window may already hold
  // the steps of an operation that must flip first.
  b.assign("cur_computing",
           "cur_valid_q && cur_flipped_q && " +
               std::string(td ? "(cur_ws ? cur_beat_q < cur_nbeats : td_done_q == '0)"
                              : "cur_beat_q < cur_nbeats") +
               " &&\n      !(!cur_ws && drain_pend_q)");
  b.assign("flip_now", "ev_valid_q && ev_dist_q == '0");
  b.assign("ev_on_cur", "cur_valid_q && !cur_flipped_q");
  b.assign("flip_op", "flip_now && !ev_drain_q");
  b.assign("is_compute", "cur_computing || flip_op");
  b.assign("beat_want", "is_compute || flip_now || (ev_valid_q && ev_dist_q != '0) || drain_act_q");
  b.assign("beat_idx", "flip_op ? '0 : cur_beat_q");
  b.assign("ev_ws", "ev_on_cur ? cur_ws : nxt_ws");
  b.assign("ev_bd_garbage", "ev_on_cur ? cur_bd_garbage : nxt_bd_garbage");
  b.assign("ev_bd_acc", "ev_on_cur ? cur_bd_acc : nxt_bd_acc");
  b.assign("ev_bd_row", "ev_on_cur ? cur_bd_row : nxt_bd_row");
  b.assign("ev_bd_rows", "ev_on_cur ? cur_bd_rows : nxt_bd_rows");
  b.assign("ev_bd_cols", "ev_on_cur ? cur_bd_cols : nxt_bd_cols");
  b.assign("stream_idx", "ev_dist_q - " + num(cb) + "'d1");
  b.assign("stream_on",
           "ev_valid_q && !ev_drain_q && ev_dist_q != '0 && ev_dist_q <= " + num(cb) + "'(Dim)");
  b.blank();

  // ---------------------------------------------------------------- reads
  b.comment("Reads this beat needs. Two of them may hit the same scratchpad bank, or both "
            "need the accumulator port, so they cannot always be granted in one cycle: each "
            "read is taken when granted (got_*_q), data read before the beat goes waits in a "
            "hold register, and the beat goes once all its operands have been read.");
  b.logic("need_a", Type::bit());
  b.logic("need_b", Type::bit());
  b.logic("need_d", Type::bit());
  for (const char* o : {"a", "b", "d"}) {
    const std::string op = o;
    b.logic("got_" + op + "_q", Type::bit(), "this beat's " + op + " was read in an earlier cycle");
    b.logic("cap_" + op + "_q", Type::bit(), "hold the " + op + " data arriving now");
  }
  b.logic("cap_b_acc_q", Type::bit(), "the held b comes from the accumulator");
  b.logic("cap_d_acc_q", Type::bit());
  b.logic("hold_a_q", Type::bits(spRow));
  b.logic("hold_b_q", Type::bits(rowW), "a scratchpad row or an accumulator row");
  b.logic("hold_d_q", Type::bits(rowW));
  b.logic("want_a", Type::bit(), "needed and not read yet");
  b.logic("want_b", Type::bit());
  b.logic("want_d", Type::bit());
  b.logic("gnt_a", Type::bit(), "read granted this cycle");
  b.logic("gnt_b", Type::bit());
  b.logic("gnt_d", Type::bit());
  b.logic("b_from_acc", Type::bit());
  b.logic("acc_for_b", Type::bit(), "the accumulator port serves b this cycle (b before d)");
  b.logic("a_row", Type::bits(rb + 16));
  b.logic("b_row", Type::bits(rb + 1));
  b.logic("d_row", Type::bits(rb + 1));
  b.logic("bank_ok", Type::bit(), "every operand of the beat read (earlier or now)");
  b.logic("buf_ok", Type::bit(),
          td ? "OS: the TensorDash window has a step for the beat"
             : "OS: the transposer holds this operation's A");
  b.logic("beat_go", Type::bit());
  b.assign("need_a", "is_compute && cur_ws && !cur_a_garbage && beat_idx < cur_a_rows");
  b.assign("need_b", std::string(td ? "is_compute && cur_ws" : "is_compute") +
                         " && !cur_d_garbage && beat_idx < cur_d_rows");
  b.assign("b_from_acc", "cur_d_acc");
  b.assign("need_d", "stream_on && !ev_bd_garbage && " + num(cb) + "'(ev_bd_rows) > stream_idx" +
                         std::string(td ? " && !ev_tr" : ""));
  b.assign("want_a", "need_a && !got_a_q");
  b.assign("want_b", "need_b && !got_b_q");
  b.assign("want_d", "need_d && !got_d_q");
  b.assign("acc_for_b", "want_b && b_from_acc");
  b.assign("a_row", num(rb + 16) + "'(cur_a_row) + " + num(rb + 16) + "'(beat_idx) * " +
                        num(rb + 16) + "'(cur_a_stride)");
  b.assign("b_row", num(rb + 1) + "'(cur_d_row) + " + num(rb + 1) + "'(beat_idx)");
  b.assign("d_row", num(rb + 1) + "'(ev_bd_row) + " + num(rb + 1) + "'(stream_idx)");
  if (td) {
    b.assign("buf_ok", "(!is_compute || cur_ws || td_go) && (!beat_writes || wo_hold_q == '0)");
    b.assign("spa_valid_o", "beat_want && want_a");
    b.assign("spa_row_o", num(p.spRowBits) + "'(a_row)");
  } else {
    b.assign("buf_ok", "!is_compute || cur_ws || cur_a_garbage || buf_ready_q[cur_buf_q]");
    b.assign("spa_valid_o",
             "beat_want && want_a || (!need_a && fill_want && fill_row_q < fill_rows)");
    b.assign("spa_row_o", "need_a ? " + num(p.spRowBits) + "'(a_row) : " + num(p.spRowBits) + "'(" +
                              num(rb + 16) + "'(fill_base) + " + num(rb + 16) + "'(fill_row_q) * " +
                              num(rb + 16) + "'(fill_stride))");
  }
  b.assign("spb_valid_o", "beat_want && buf_ok && want_b && !b_from_acc");
  b.assign("spb_row_o", num(p.spRowBits) + "'(b_row)");
  // TensorDash: a B-scheduled flip reads its stationary rows ahead, into the D transposer
  // (execute_td.cpp), through the same clients while nothing else uses them.
  const std::string dtSp = td ? " || dt_rd_sp" : "", dtAcc = td ? " || dt_rd_acc" : "";
  b.assign("spd_valid_o", "beat_want && buf_ok && want_d && !ev_bd_acc" + dtSp);
  b.assign("spd_row_o",
           num(p.spRowBits) + "'(" + std::string(td ? "dt_rd_sp ? dt_row : " : "") + "d_row)");
  b.assign("acc_valid_o", "beat_want && buf_ok && (acc_for_b || (want_d && ev_bd_acc))" + dtAcc);
  b.assign("acc_row_o", num(p.accRowBits) + "'(" + std::string(td ? "dt_rd_acc ? dt_row : " : "") +
                            "acc_for_b ? b_row : d_row)");
  b.assign("gnt_a", "beat_want && want_a && spa_ready_i");
  b.assign("gnt_b", "beat_want && buf_ok && want_b && (b_from_acc ? acc_ready_i : spb_ready_i)");
  b.assign("gnt_d", "beat_want && buf_ok && want_d &&\n"
                    "      (ev_bd_acc ? acc_ready_i && !acc_for_b : spd_ready_i)");
  b.assign("bank_ok", "(!need_a || got_a_q || gnt_a) && (!need_b || got_b_q || gnt_b) &&\n"
                      "      (!need_d || got_d_q || gnt_d)");
  b.assign("beat_go", "beat_want && buf_ok && bank_ok");
  b.assign("bank_stall_o", "beat_want && buf_ok && !bank_ok");
  {
    vlog::SeqItem& g = b.sequential();
    for (const char* o : {"a", "b", "d"}) {
      const std::string op = o;
      g.reset.line("got_" + op + "_q <= 1'b0;").line("cap_" + op + "_q <= 1'b0;");
      g.clocked.line("got_" + op + "_q <= !beat_go && (got_" + op + "_q || gnt_" + op + ");");
      g.clocked.line("cap_" + op + "_q <= gnt_" + op + " && !beat_go;");
    }
    g.reset.line("cap_b_acc_q <= 1'b0;").line("cap_d_acc_q <= 1'b0;");
    g.clocked.line("cap_b_acc_q <= b_from_acc;").line("cap_d_acc_q <= ev_bd_acc;");
    vlog::SeqItem& h = b.clocked();
    h.clocked.ifElse("cap_a_q", [](vlog::Stmts& t) { t.line("hold_a_q <= spa_rdata_i;"); });
    h.clocked.ifElse("cap_b_q", [&](vlog::Stmts& t) {
      t.line("hold_b_q <= cap_b_acc_q ? " + num(rowW) + "'(acc_rdata_i) : " + num(rowW) +
             "'(spb_rdata_i);");
    });
    h.clocked.ifElse("cap_d_q", [&](vlog::Stmts& t) {
      t.line("hold_d_q <= cap_d_acc_q ? " + num(rowW) + "'(acc_rdata_i) : " + num(rowW) +
             "'(spd_rdata_i);");
    });
  }
  if (!td) {
    b.logic("fill_go", Type::bit(), "a transposer row read is granted");
    b.assign("fill_go", "!need_a && fill_want && fill_row_q < fill_rows && spa_ready_i");
  }
  b.blank();

  // ---------------------------------------------------------------- result tag
  b.comment("What happens to this beat's result: a WS compute row, a drained OS row, or "
            "nothing.");
  b.logic("tag_d", Type::bits(tag.width()));
  b.logic("drain_row_idx", Type::bits(db), "DIM-1-j");
  b.logic("ws_write", Type::bit());
  b.logic("os_write", Type::bit());
  b.assign("drain_row_idx", num(db) + "'(Dim-1) - (flip_now ? '0 : drain_j_q)");
  b.comment("At a flip beat the pending drain starts (j = 0).");
  b.logic("draining", Type::bit(), "this beat carries a drained row");
  b.assign("draining", "drain_act_q || (flip_now && drain_pend_q)");
  b.assign("ws_write", "is_compute && cur_ws && !cur_c_garbage && beat_idx < cur_c_rows");
  b.assign("os_write",
           "draining && drain_row_idx < dr_c_rows" + std::string(td ? " && !dr_tr" : ""));
  const std::string drainRow = num(rb) + "'(" + num(rb + 16) + "'(dr_c_row) + " + num(rb + 16) +
                               "'(drain_row_idx) * " + num(rb + 16) + "'(dr_c_stride))";
  std::map<std::string, std::string> drainTag = {
      {"we", "os_write"},   {"acc", "dr_acc"}, {"accumulate", "dr_accumulate"},
      {"relu", "dr_relu"},  {"row", drainRow}, {"cols", "dr_c_cols"},
      {"entry", "dr_entry"}};
  if (td) { // a transposed drain collects column DIM-1-j of C; its rows are written later
    drainTag["row"] = "dr_tr ? dr_c_row : " + drainRow;
    drainTag["tr"] = "draining && dr_tr";
    drainTag["col"] = num(ib) + "'(drain_row_idx)";
    drainTag["c_rows"] = "dr_c_rows";
    drainTag["c_stride"] = "dr_c_stride";
  }
  if (td)
    b.assign("beat_writes", "ws_write || os_write");
  b.assign("tag_d",
           "ws_write ? " +
               tag.pack({{"we", "1'b1"},
                         {"acc", "cur_c_acc"},
                         {"accumulate", "cur_c_accumulate"},
                         {"relu", "cur_relu"},
                         {"row", num(rb) + "'(" + num(rb + 16) + "'(cur_c_row) + " + num(rb + 16) +
                                     "'(beat_idx) * " + num(rb + 16) + "'(cur_c_stride))"},
                         {"cols", num(db) + "'(cur_c_cols)"},
                         {"entry", "cur_entry_q"}}) +
               " :\n      " + tag.pack(drainTag));
  b.blank();

  // ---------------------------------------------------------------- next-state helpers
  b.logic("since_flip_d", Type::bits(db));
  b.logic("cur_beat_d", Type::bits(db));
  b.logic("cur_last", Type::bit(), "the current operation issues its last compute beat");
  b.assign("since_flip_d", "!beat_go ? since_flip_q : flip_now ? " + num(db) +
                               "'d1 :\n      (since_flip_q == " + num(db) +
                               "'(Dim) ? since_flip_q : since_flip_q + " + num(db) + "'d1)");
  b.assign("cur_beat_d", "beat_go && is_compute ? beat_idx + " + num(db) + "'d1 : cur_beat_q");
  const std::string lastBeat = "beat_idx + " + num(db) + "'d1 == cur_nbeats";
  // A TensorDash operation is done once the feeder reports its last step gone; one beat can
  // complete several, which finish here one per cycle (td_done_q), beat or not.
  b.assign("cur_last",
           td ? "cur_ws ? beat_go && is_compute && " + lastBeat +
                    " :\n      cur_valid_q && (td_done_q != '0 || (td_beat_go && td_done != '0))"
              : "beat_go && is_compute && " + lastBeat);
  b.comment("Planning the next flip (when none is planned): beats before it = the larger of "
            "the current operation's remaining compute beats (when the next one flips), the "
            "spacing after the last flip, and DIM if it has stationary rows to stream (GARBAGE "
            "stationary data is zeros, which the DIM beats since the last flip have already "
            "shifted in).");
  b.logic("spacing_d", Type::bits(cb), "DIM - since_flip_d");
  b.logic("remaining_d", Type::bits(cb), "compute beats the current operation still issues");
  b.logic("plan_cur", Type::bit());
  b.logic("plan_nxt", Type::bit());
  b.logic("plan_drain", Type::bit());
  b.logic("drain_blocks", Type::bit(), "a drain must finish before a WS flip");
  b.logic("ev_dist_plan", Type::bits(cb));
  b.assign("spacing_d", num(cb) + "'(Dim) - " + num(cb) + "'(since_flip_d)");
  b.assign("remaining_d",
           "cur_last ? '0 : " + num(cb) + "'(cur_nbeats) - " + num(cb) + "'(cur_beat_d)");
  b.assign("drain_blocks", "drain_pend_q || drain_act_q || (cur_last && cur_ends_acc)");
  b.comment("The current operation flips next (it has not started).");
  b.assign("plan_cur", "!ev_valid_q && !flip_now && cur_valid_q && !cur_flipped_q && cur_flip &&\n"
                       "      !(cur_ws && drain_blocks)" +
                           std::string(td ? " && (cur_ws || !cur_td_side || cur_bd_garbage || "
                                            "dt_ready_q)"
                                          : ""));
  b.comment("The next operation flips after the current one (and drains it, same dataflow).");
  if (td)
    b.comment("A TensorDash operation's beats are not known ahead: the next flip is planned "
              "once it has finished.");
  b.assign("plan_nxt", "!ev_valid_q && !flip_now && cur_valid_q && cur_flipped_q && nxt_valid_q "
                       "&& nxt_flip &&\n"
                       "      !cur_last && !(nxt_ws && drain_blocks) && nxt_ws == cur_ws" +
                           std::string(td ? " && cur_ws" : ""));
  b.comment("An ended accumulation with no flipping operation behind it gets its own flip.");
  b.assign("plan_drain", "!ev_valid_q && !flip_now && !plan_cur && !plan_nxt && drain_pend_q");
  b.logic("plan_gap", Type::bits(cb), "compute beats before the flip");
  b.logic("plan_rows", Type::bits(cb), "stationary rows streamed before the flip");
  b.logic("plan_far", Type::bits(cb), "the larger of the two");
  b.assign("plan_gap", "plan_nxt ? remaining_d : '0");
  b.assign("plan_rows", "ev_bd_garbage ? '0 : " + num(cb) + "'(Dim)");
  b.assign("plan_far", "plan_gap > plan_rows ? plan_gap : plan_rows");
  b.assign("ev_dist_plan", "plan_drain ? (since_flip_d == " + num(db) +
                               "'(Dim) ? '0 : spacing_d) :\n"
                               "      (plan_far > spacing_d ? plan_far : spacing_d)");
  b.blank();

  // ================================================================ stage D: into the mesh
  b.comment("Stage D: the beat issued last cycle, with its read data, enters the mesh.");
  b.logic("d_valid_q", Type::bit());
  b.logic("d_prop_q", Type::bit());
  b.logic("d_ws_q", Type::bit());
  b.logic("d_shift_q", Type::bits(p.shiftBits));
  if (td)
    b.logic("d_td_q", Type::bit(), "a TensorDash beat: a and b come from the front end");
  b.logic("d_a_src_q", Type::bits(2), "0 zero, 1 scratchpad row, 2 transposer column");
  b.logic("d_a_cols_q", Type::bits(eb), "A columns (elements of the reduction)");
  if (!td) {
    b.logic("d_a_rows_q", Type::bits(db), "transposer: valid rows of the column");
    b.logic("d_col_q", Type::bits(ib), "transposer column: reduction step");
    b.logic("d_tbuf_q", Type::bit());
  }
  b.logic("d_b_src_q", Type::bits(2), "0 zero, 1 scratchpad, 2 accumulator");
  b.logic("d_b_cols_q", Type::bits(eb));
  b.logic("d_d_src_q", Type::bits(2),
          td ? "0 zero, 1 scratchpad, 2 accumulator, 3 D transposer column"
             : "0 zero, 1 scratchpad, 2 accumulator");
  b.logic("d_d_cols_q", Type::bits(eb));
  if (td) {
    b.logic("d_dt_col_q", Type::bits(ib), "the D transposer column a B-scheduled flip streams");
    emitTdDTransposer(b, p);
  }
  b.logic("d_a_held_q", Type::bit(), "take a from its hold register, not the read port");
  b.logic("d_b_held_q", Type::bit());
  b.logic("d_d_held_q", Type::bit());
  b.logic("b_rdata", Type::bits(rowW), "b as read: the hold register or the live port");
  b.logic("d_rdata", Type::bits(rowW));
  b.logic("a_rdata", Type::bits(spRow));
  b.assign("a_rdata", "d_a_held_q ? hold_a_q : spa_rdata_i");
  b.assign("b_rdata", "d_b_held_q ? hold_b_q : d_b_src_q == 2'd2 ? " + num(rowW) +
                          "'(acc_rdata_i) : " + num(rowW) + "'(spb_rdata_i)");
  b.assign("d_rdata", "d_d_held_q ? hold_d_q : d_d_src_q == 2'd2 ? " + num(rowW) +
                          "'(acc_rdata_i) : " + num(rowW) + "'(spd_rdata_i)");
  b.logic("d_tag_q", Type::bits(tag.width()));
  // The dense beat's a: per row Lanes elements (by_td_array appends the selects itself).
  b.logic("mesh_a", Type::bits(p.dim * (td ? p.lanes * p.iw : a.aWidth())));
  b.logic("mesh_b", Type::bits(p.dim * a.bWidth()));
  b.logic("mesh_d", Type::bits(p.dim * a.dWidth()));
  if (!td) {
    b.logic("t_col", Type::bits(spRow), "transposer column");
    b.logic("fill_wr_q", Type::bit(), "a transposer row arrives this cycle");
    b.logic("fill_wr_buf_q", Type::bit());
    b.logic("fill_wr_row_q", Type::bits(ib));
    auto& t = b.instance(names::kTransposer, "u_transposer");
    t.comment = "elements are groups of Lanes values: column t holds A[.][t*Lanes +: Lanes]";
    t.params = {{"Dim", "Dim"}, {"Width", "Lanes*ElemWidth"}, {"IndexWidth", num(ib)}};
    t.conns = {{"clk_i", "clk_i"},
               {"wr_valid_i", "fill_wr_q"},
               {"wr_buf_i", "fill_wr_buf_q"},
               {"wr_row_i", "fill_wr_row_q"},
               {"wr_data_i", "spa_rdata_i"},
               {"rd_buf_i", "d_tbuf_q"},
               {"rd_col_i", "d_col_q"},
               {"rd_data_o", "t_col"}};
  }
  const std::string g = "Lanes*ElemWidth"; // a group: the Lanes values one PE takes per beat
  vlog::Body& lane = b.genFor("c", "Dim", "gen_lane");
  lane.comment("Operand c of each input (a: row c of the mesh; b, d: column c): a group of Lanes "
               "values (A, B and WS weights: docs/isa.md, \"Vector PEs\") or one element (WS "
               "bias, OS initial accumulators).");
  lane.logic("a_sp_g", Type::bits(g), "WS: A[i][c*Lanes +: Lanes]");
  if (!td)
    lane.logic("a_t_g", Type::bits(g), "OS: A[c][t*Lanes +: Lanes] from the transposer");
  lane.logic("b_g", Type::bits(g), "OS: lane-packed B row, group c");
  lane.logic("d_g", Type::bits(g), "WS: lane-packed weight row, group c");
  lane.logic("a_val", Type::bits(g));
  lane.logic("b_pk", Type::bits(g), "b_g with the columns beyond B masked");
  lane.logic("d_pk", Type::bits(g));
  lane.logic("b_val", Type::bits("BWidth"));
  lane.logic("d_val", Type::bits("DWidth"));
  lane.assign("a_sp_g", "a_rdata[c*" + g + " +: " + g + "]");
  if (!td)
    lane.assign("a_t_g", "t_col[c*" + g + " +: " + g + "]");
  lane.assign("b_g", "b_rdata[c*" + g + " +: " + g + "]");
  lane.assign("d_g", "d_rdata[c*" + g + " +: " + g + "]");
  vlog::Body& el = lane.genFor("l", "Lanes", "gen_elem");
  el.comment("Element l of the group: column c*Lanes+l of a scratchpad row; a WS A element "
             "beyond A's columns, an OS A element beyond A's rows or columns, and B / weight "
             "elements beyond their columns are zero.");
  el.logic("idx", Type::bits(eb + 1), "c*Lanes + l");
  el.assign("idx", num(eb + 1) + "'(c*Lanes + l)");
  const std::string aSp = "(d_a_src_q == 2'd1 && idx < " + num(eb + 1) +
                          "'(d_a_cols_q)) ? a_sp_g[l*ElemWidth +: ElemWidth] :\n        ";
  if (td) { // OS operands reach the array through the TensorDash front end
    el.assign("a_val[l*ElemWidth +: ElemWidth]", aSp + "'0");
  } else {
    el.logic("t_idx", Type::bits(eb + 1), "OS: reduction index of the transposer element");
    el.assign("t_idx",
              num(eb + 1) + "'(d_col_q) * " + num(eb + 1) + "'(Lanes) + " + num(eb + 1) + "'(l)");
    el.assign("a_val[l*ElemWidth +: ElemWidth]",
              aSp + "(d_a_src_q == 2'd2 && " + num(db) + "'(c) < d_a_rows_q && t_idx < " +
                  num(eb + 1) + "'(d_a_cols_q)) ?\n        a_t_g[l*ElemWidth +: ElemWidth] : '0");
  }
  el.assign("b_pk[l*ElemWidth +: ElemWidth]",
            "idx < " + num(eb + 1) + "'(d_b_cols_q) ? b_g[l*ElemWidth +: ElemWidth] : '0");
  el.assign("d_pk[l*ElemWidth +: ElemWidth]",
            "idx < " + num(eb + 1) + "'(d_d_cols_q) ? d_g[l*ElemWidth +: ElemWidth] : '0");
  lane.comment("b: WS bias as an OutWidth partial sum; OS operand B. d: WS weights; OS initial "
               "accumulators as OutWidth values. (Unsigned views: the chains zero-extend.)");
  for (const char* op : {"b", "d"}) {
    const std::string o = op;
    lane.logic(o + "_sp", Type::sbits("ElemWidth"), "element c of a scratchpad row");
    lane.logic(o + "_sp_out", Type::bits("OutWidth"), "sign-extended to OutWidth");
    lane.logic(o + "_acc_out", Type::bits("OutWidth"), "low OutWidth bits (wraps)");
    lane.assign(o + "_sp", o + "_rdata[c*ElemWidth +: ElemWidth]");
    lane.assign(o + "_sp_out", "OutWidth'(" + o + "_sp)");
    lane.assign(o + "_acc_out", o + "_rdata[c*AccWidth +: OutWidth]");
  }
  lane.assign("b_val", "d_b_src_q == 2'd0 ? '0 : !d_ws_q ? BWidth'(b_pk) :\n"
                       "        " +
                           num(eb) +
                           "'(c) >= d_b_cols_q ? '0 :\n"
                           "        d_b_src_q == 2'd2 ? BWidth'(b_acc_out) : BWidth'(b_sp_out)");
  lane.assign("d_val",
              std::string(td ? "d_d_src_q == 2'd3 ? DWidth'(dt_col[c*OutWidth +: OutWidth]) :\n"
                               "        "
                             : "") +
                  "d_d_src_q == 2'd0 ? '0 : d_ws_q ? DWidth'(d_pk) :\n"
                  "        " +
                  num(eb) +
                  "'(c) >= d_d_cols_q ? '0 :\n"
                  "        d_d_src_q == 2'd2 ? DWidth'(d_acc_out) : DWidth'(d_sp_out)");
  lane.assign("mesh_a[c*" + g + " +: " + g + "]", "a_val");
  lane.logic("unused_lane", Type::bit(), "widths a dataflow-only config does not use");
  lane.assign("unused_lane", "^{b_sp_out, b_acc_out, d_sp_out, d_acc_out, b_pk, d_pk}");
  lane.assign("mesh_b[c*BWidth +: BWidth]", "b_val");
  lane.assign("mesh_d[c*DWidth +: DWidth]", "d_val");
  b.blank();

  // ---------------------------------------------------------------- mesh
  b.logic("res_valid", Type::bit());
  b.logic("res_data", Type::bits(p.dim * p.ow));
  if (td) {
    emitTdArray(b, p, ex);
  } else {
    auto& mesh = b.instance(names::kMesh, "u_mesh");
    mesh.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"in_valid_i", "d_valid_q"},
                  {"in_prop_i", "d_prop_q"}};
    if (a.both())
      mesh.conns.emplace_back("in_dataflow_i", "d_ws_q");
    if (a.hasOs)
      mesh.conns.emplace_back("in_shift_i", "d_shift_q");
    mesh.conns.insert(mesh.conns.end(), {{"in_a_i", "mesh_a"},
                                         {"in_b_i", "mesh_b"},
                                         {"in_d_i", "mesh_d"},
                                         {"out_valid_o", "res_valid"},
                                         {"out_result_o", "res_data"}});
  }
  b.blank();

  // ---------------------------------------------------------------- tags and write-back
  b.comment("Result tags wait in a FIFO for their beat's result (every valid beat yields one "
            "result, in order, mesh latency later).");
  b.logic("tag_valid", Type::bit());
  b.logic("tag", Type::bits(tag.width()));
  b.logic("tag_ready", Type::bit());
  {
    auto& f = b.instance(names::kFifo, "u_tags");
    f.params = {{"Width", num(tag.width())}, {"Depth", num(tagFifo)}};
    f.conns = {{"clk_i", "clk_i"},           {"rst_ni", "rst_ni"},     {"in_valid_i", "d_valid_q"},
               {"in_ready_o", "tag_ready"},  {"in_data_i", "d_tag_q"}, {"out_valid_o", "tag_valid"},
               {"out_ready_i", "res_valid"}, {"out_data_o", "tag"}};
  }
  tag.unpack(b, "tag", "t_");
  b.comment("The row written this cycle: a result as its tag says, or (TensorDash) a row of a "
            "transposed drain's write-out.");
  const std::vector<std::pair<std::string, vlog::Type>> wbFields = {
      {"valid", Type::bit()},      {"acc", Type::bit()},
      {"accumulate", Type::bit()}, {"relu", Type::bit()},
      {"row", Type::bits(rb)},     {"cols", Type::bits(db)},
      {"entry", Type::bits(2)},    {"data", Type::bits(p.dim * p.ow)}};
  for (const auto& [f, t] : wbFields)
    b.logic("wb_" + f, t);
  if (td)
    emitTdTransposedDrain(b, p);
  else {
    b.assign("wb_valid", "res_valid && t_we");
    for (const char* f : {"acc", "accumulate", "relu", "row", "cols", "entry"})
      b.assign(std::string("wb_") + f, std::string("t_") + f);
    b.assign("wb_data", "res_data");
  }
  b.logic("write", Type::bit());
  b.assign("write", "wb_valid");
  b.assign("spw_valid_o", "write && !wb_acc");
  b.assign("spw_row_o", num(p.spRowBits) + "'(wb_row)");
  b.assign("accw_valid_o", "write && wb_acc");
  b.assign("accw_row_o", num(p.accRowBits) + "'(wb_row)");
  b.assign("accw_accumulate_o", "wb_accumulate");
  vlog::Body& out = b.genFor("c", "Dim", "gen_out");
  out.logic("r", Type::sbits("OutWidth"));
  out.logic("rl", Type::sbits("OutWidth"), "after the activation");
  out.assign("r", "wb_data[c*OutWidth +: OutWidth]");
  out.assign("rl", "(wb_relu && r < 0) ? '0 : r");
  out.assign(
      "spw_data_o[c*ElemWidth +: ElemWidth]",
      "rl > OutWidth'($signed({1'b0, {(ElemWidth-1){1'b1}}})) ? {1'b0, {(ElemWidth-1){1'b1}}} :\n"
      "        rl < OutWidth'($signed({1'b1, {(ElemWidth-1){1'b0}}})) ? "
      "{1'b1, {(ElemWidth-1){1'b0}}} :\n"
      "        rl[ElemWidth-1:0]");
  out.assign("accw_data_o[c*AccWidth +: AccWidth]", "AccWidth'(r)");
  out.assign("spw_mask_o[c]", num(db) + "'(c) < wb_cols");
  if (p.spElems > p.dim) {
    b.comment("Results fill the first DIM elements of a scratchpad row (vector PEs).");
    b.assign("spw_data_o[SpElems*ElemWidth-1:Dim*ElemWidth]", "'0");
    b.assign("spw_mask_o[SpElems-1:Dim]", "'0");
  }
  out.assign("accw_mask_o[c]", num(db) + "'(c) < wb_cols");
  b.logic("acc_wr_entry_q", Type::bits(2), "entry of last cycle's accumulator write");
  b.blank();

  // ================================================================ state
  b.assign("beat_o", "d_valid_q");
  b.logic("d_compute_q", Type::bit());
  b.assign("compute_beat_o", "d_valid_q && d_compute_q");
  {
    const std::string dense =
        num(macCountBits(p)) + "'d" + num(static_cast<long long>(p.dim) * p.dim * p.lanes);
    b.assign("macs_o", "!(d_valid_q && d_compute_q) ? '0 : " +
                           (td ? "d_td_q ? " + num(macCountBits(p)) + "'(td_issued) * " +
                                     num(macCountBits(p)) + "'d" +
                                     num(p.array.tdRowsPerScheduler * p.dim) + " : " + dense
                               : dense));
  }
  b.assign("busy_o", std::string(td ? "td_feeder_busy || td_fe_busy || pq_count_q != '0 || " : "") +
                         "cur_valid_q || nxt_valid_q || d_valid_q || opt_valid_q != '0 || "
                         "drain_pend_q || drain_act_q");
  vlog::SeqItem& q = b.sequential();
  q.reset.line("cur_valid_q <= 1'b0;").line("cur_q <= '0;").line("cur_entry_q <= '0;");
  q.reset.line("cur_flipped_q <= 1'b0;").line("cur_beat_q <= '0;");
  q.reset.line("nxt_valid_q <= 1'b0;").line("nxt_q <= '0;").line("nxt_entry_q <= '0;");
  q.reset.line("opt_valid_q <= '0;").line("opt_final_q <= '0;");
  q.reset.forLoop("i", "4", [](vlog::Stmts& s) { s.line("opt_pending_q[i] <= '0;"); });
  if (!td)
    q.reset.line("cur_buf_q <= 1'b0;")
        .line("nxt_buf_q <= 1'b0;")
        .line("buf_sel_q <= 1'b0;")
        .line("buf_ready_q <= '0;")
        .line("fill_row_q <= '0;")
        .line("fill_wr_q <= 1'b0;");
  q.reset.line("prop_q <= 1'b0;").line("since_flip_q <= " + num(db) + "'(Dim);");
  q.reset.line("ev_valid_q <= 1'b0;").line("ev_drain_q <= 1'b0;").line("ev_dist_q <= '0;");
  q.reset.line("drain_pend_q <= 1'b0;").line("drain_act_q <= 1'b0;").line("drain_j_q <= '0;");
  q.reset.line("d_valid_q <= 1'b0;");
  if (td)
    q.reset.line("d_td_q <= 1'b0;").line("td_done_q <= '0;");
  q.reset.line("acc_wr_entry_q <= '0;");

  vlog::Stmts& c = q.clocked;
  c.comment("Accept into the lookahead slot.");
  c.ifElse("accept", [&](vlog::Stmts& s) {
    s.line("nxt_q <= in_payload;")
        .line("nxt_entry_q <= free_entry;")
        .line("opt_valid_q[free_entry] <= 1'b1;")
        .line("opt_id_q[free_entry] <= in_id;")
        .line("opt_final_q[free_entry] <= 1'b0;");
    if (!td) {
      s.line("nxt_buf_q <= buf_sel_q;");
      s.ifElse("accept_needs_buf", [](vlog::Stmts& t) { t.line("buf_sel_q <= !buf_sel_q;"); });
    }
  });
  c.comment("Promote the next operation when the current one is done (or absent).");
  c.ifElse(
      "(!cur_valid_q || cur_last) && (nxt_valid_q || accept)",
      [&](vlog::Stmts& s) {
        s.ifElse(
            "nxt_valid_q",
            [&](vlog::Stmts& t) {
              t.line("cur_valid_q <= 1'b1;")
                  .line("cur_q <= nxt_q;")
                  .line("cur_entry_q <= nxt_entry_q;");
              if (!td)
                t.line("cur_buf_q <= nxt_buf_q;");
              t.line("cur_beat_q <= '0;");
              t.line("cur_flipped_q <= !nxt_flip;");
              t.line("nxt_valid_q <= accept;");
            },
            [&](vlog::Stmts& t) {
              t.comment("Straight from the reservation station into the current slot.");
              t.line("cur_valid_q <= 1'b1;")
                  .line("cur_q <= in_payload;")
                  .line("cur_entry_q <= free_entry;")
                  .line("cur_beat_q <= '0;")
                  .line("cur_flipped_q <= !" + ex.slice("in_payload", "flip") + ";")
                  .line("nxt_valid_q <= 1'b0;");
            });
      },
      [&](vlog::Stmts& s) {
        s.ifElse("cur_last", [](vlog::Stmts& t) { t.line("cur_valid_q <= 1'b0;"); });
        s.ifElse("accept", [](vlog::Stmts& t) { t.line("nxt_valid_q <= 1'b1;"); });
        s.ifElse("cur_valid_q && !cur_last",
                 [](vlog::Stmts& t) { t.line("cur_beat_q <= cur_beat_d;"); });
        s.ifElse("flip_op && beat_go", [](vlog::Stmts& t) { t.line("cur_flipped_q <= 1'b1;"); });
      });
  c.comment("A finished current operation: its beats are all issued; an ended OS "
            "accumulation waits for its drain. A transposer buffer is freed.");
  c.ifElse("cur_last", [&](vlog::Stmts& s) {
    s.ifElse(
        "cur_ends_acc",
        [&](vlog::Stmts& t) {
          t.line("drain_pend_q <= 1'b1;")
              .line("pend_c_row_q <= cur_c_row;")
              .line("pend_c_rows_q <= cur_c_rows;")
              .line("pend_c_cols_q <= " + num(db) + "'(cur_c_cols);")
              .line("pend_c_stride_q <= cur_c_stride;")
              .line("pend_acc_q <= cur_c_acc;")
              .line("pend_accumulate_q <= cur_c_accumulate;")
              .line("pend_relu_q <= cur_relu;")
              .line("pend_shift_q <= cur_shift;")
              .line("pend_entry_q <= cur_entry_q;");
          if (td)
            t.line("pend_tr_q <= cur_td_side;");
        },
        [](vlog::Stmts& t) { t.line("opt_final_q[cur_entry_q] <= 1'b1;"); });
    if (!td)
      s.ifElse("cur_needs_buf", [](vlog::Stmts& t) { t.line("buf_ready_q[cur_buf_q] <= 1'b0;"); });
  });
  c.comment("Beats: flip state and the planned flip.");
  c.ifElse("beat_go", [&](vlog::Stmts& s) {
    s.line("since_flip_q <= since_flip_d;");
    s.ifElse(
        "flip_now",
        [&](vlog::Stmts& t) {
          t.line("prop_q <= !prop_q;").line("ev_valid_q <= 1'b0;");
          t.ifElse("drain_pend_q", [&](vlog::Stmts& u) {
            u.comment("The operation ending with this beat (if any) becomes the pending drain.");
            u.line("drain_pend_q <= cur_last && cur_ends_acc;")
                .line("drain_act_q <= 1'b1;")
                .line("drain_j_q <= 'd1;");
            for (const auto& f : drainFields)
              u.line("drain_" + f.first + "_q <= pend_" + f.first + "_q;");
          });
        },
        [&](vlog::Stmts& t) {
          t.ifElse("ev_valid_q", [](vlog::Stmts& u) { u.line("ev_dist_q <= ev_dist_q - 'd1;"); });
          t.ifElse("drain_act_q", [&](vlog::Stmts& u) {
            u.ifElse(
                "drain_j_q == " + std::to_string(p.dimBits) + "'(Dim-1)",
                [](vlog::Stmts& v) {
                  v.line("drain_act_q <= 1'b0;").line("opt_final_q[drain_entry_q] <= 1'b1;");
                },
                [](vlog::Stmts& v) { v.line("drain_j_q <= drain_j_q + 'd1;"); });
          });
        });
  });
  c.comment("A drain of one row (DIM = 1) ends with its flip beat.");
  if (p.dim == 1)
    c.ifElse("beat_go && flip_now && drain_pend_q", [](vlog::Stmts& s) {
      s.line("drain_act_q <= 1'b0;").line("opt_final_q[pend_entry_q] <= 1'b1;");
    });
  c.ifElse("plan_cur || plan_nxt || plan_drain", [](vlog::Stmts& s) {
    s.line("ev_valid_q <= 1'b1;")
        .line("ev_drain_q <= plan_drain;")
        .line("ev_dist_q <= ev_dist_plan;");
  });
  if (!td) {
    c.comment("Transposer fills.");
    c.ifElse("fill_go",
             [&](vlog::Stmts& s) { s.line("fill_row_q <= fill_row_q + " + num(db) + "'d1;"); });
    c.ifElse(
        "fill_want && (fill_row_q == fill_rows || (fill_go && fill_row_q + " + num(db) +
            "'d1 == fill_rows))",
        [](vlog::Stmts& s) { s.line("buf_ready_q[fill_buf] <= 1'b1;").line("fill_row_q <= '0;"); });
    c.line("fill_wr_q <= fill_go;");
  }
  c.comment("Result rows outstanding per operation.");
  c.forLoop("i", "4", [&](vlog::Stmts& s) {
    s.line("opt_pending_q[i] <= opt_pending_q[i]");
    s.line("    + 8'(beat_go && " + tag.slice("tag_d", "we") + " && " +
           tag.slice("tag_d", "entry") + " == 2'(i))");
    if (td) // a transposed drain's rows are pending from its first beat on
      s.line("    + (beat_go && " + tag.slice("tag_d", "tr") + " && " + tag.slice("tag_d", "col") +
             " == " + num(ib) + "'(Dim-1) && " + tag.slice("tag_d", "entry") + " == 2'(i) ? 8'(" +
             tag.slice("tag_d", "c_rows") + ") : 8'd0)");
    s.line("    - 8'(write && !wb_acc && wb_entry == 2'(i))");
    s.line("    - 8'(accw_done_i && acc_wr_entry_q == 2'(i));");
  });
  c.ifElse("accw_valid_o", [](vlog::Stmts& s) { s.line("acc_wr_entry_q <= wb_entry;"); });
  c.ifElse("fin_valid", [](vlog::Stmts& s) { s.line("opt_valid_q[fin_entry] <= 1'b0;"); });
  c.line("d_valid_q <= beat_go;");

  vlog::SeqItem& dq = b.clocked();
  dq.clocked.ifElse("beat_go", [&](vlog::Stmts& s) {
    s.line("d_prop_q <= flip_now ? !prop_q : prop_q;");
    s.comment("A beat that flips for or carries an OS drain runs the array in OS mode.");
    s.line("d_ws_q <= is_compute ? cur_ws : stream_on ? ev_ws : draining ? 1'b0 : cur_ws;");
    s.line("d_shift_q <= dr_shift;");
    if (td) { // OS compute beats come from the TensorDash front end (d_td_q)
      s.line("d_a_src_q <= need_a ? 2'd1 : 2'd0;");
      s.line("d_a_cols_q <= cur_a_cols;");
    } else {
      s.line("d_a_src_q <= need_a ? 2'd1 : (is_compute && !cur_ws && !cur_a_garbage) ? 2'd2 : "
             "2'd0;");
      s.line("d_a_cols_q <= cur_a_cols;");
      s.line("d_a_rows_q <= cur_a_rows;");
      s.line("d_col_q <= " + num(ib) + "'(beat_idx);");
      s.line("d_tbuf_q <= cur_buf_q;");
    }
    s.line("d_b_src_q <= !need_b ? 2'd0 : b_from_acc ? 2'd2 : 2'd1;");
    s.line("d_b_cols_q <= cur_d_cols;");
    if (td) // a B-scheduled flip streams columns of the D transposer
      s.line("d_d_src_q <= stream_on && ev_tr && !ev_bd_garbage ? 2'd3 : !need_d ? 2'd0 : "
             "ev_bd_acc ? 2'd2 : 2'd1;")
          .line("d_dt_col_q <= " + num(ib) + "'(stream_idx);");
    else
      s.line("d_d_src_q <= !need_d ? 2'd0 : ev_bd_acc ? 2'd2 : 2'd1;");
    s.line("d_d_cols_q <= ev_bd_cols;");
    s.line("d_a_held_q <= got_a_q;").line("d_b_held_q <= got_b_q;").line("d_d_held_q <= got_d_q;");
    s.line("d_tag_q <= tag_d;");
    s.line("d_compute_q <= is_compute;");
  });
  if (td) {
    c.line("d_td_q <= td_beat_go;");
    c.line("td_done_q <= td_done_q + (td_beat_go ? td_done : '0) - " + num(tdDoneBits(p)) +
           "'(cur_last && !cur_ws);");
  } else
    dq.clocked.ifElse("fill_go", [&](vlog::Stmts& s) {
      s.line("fill_wr_buf_q <= fill_buf;").line("fill_wr_row_q <= " + num(ib) + "'(fill_row_q);");
    });
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", "^{tag_valid, tag_ready, op_payload_i, a_row, b_row, d_row, cur_c_cols, "
                          "stream_idx, nxt_q, cur_q, wb_row, acc_rdata_i, b_rdata, d_rdata}");
  return m;
}

} // namespace by::hw
