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
// memories. An operation completes (to the reservation station, op_table.h) when all its beats
// have been issued and all its result rows written.
#include "execute_controller.h"

#include "execute_td.h"
#include "op_layouts.h"
#include "op_table.h"
#include "text_util.h"

#include <functional>
#include <map>

namespace by::hw {

using vlog::Type;

namespace {

// Operations in the execute controller at once (its op table): the current one, the lookahead
// and those whose results are still in the mesh. A short operation (a 7-pixel output row is 7
// beats) leaves the array's pipeline (about 2 x DIM beats) after several more have started, so
// with too few entries the lookahead slot stays empty and the next flip cannot be planned early.
constexpr int kExecSlots = 8;

// Where a beat's operand comes from (the stage D registers d_a_src_q, d_b_src_q, d_d_src_q).
void declareSources(vlog::Body& b) {
  b.enumType(
      {"src_e",
       2,
       {{"SrcZero", "nothing: zero"},
        {"SrcSp", "a scratchpad row"},
        {"SrcAcc", "an accumulator row"},
        {"SrcTransposer", "a transposer column (A, or a transposed OS B; D: B-scheduled preload)"}},
       {}});
}

} // namespace

ExecuteControllerGenerator::ExecuteControllerGenerator(const AccelParams& p)
    : p_(p), ex_(execOpLayout(p)), td_(p.config.tensordash.enabled),
      tdB_(td_ && p.config.tensordash.scheduleB), lookahead_(td_ ? 1 : 3) {
  const int rb = p.localRowBits, db = p.dimBits, ib = std::max(1, config::log2Exact(p.dim));
  // Tag of a beat's result: {we, acc, accumulate, relu, row, cols, entry}.
  tag_.field("we", 1).field("acc", 1).field("accumulate", 1).field("relu", 1);
  tag_.field("row", rb).field("cols", db).field("entry", config::log2Exact(kExecSlots));
  if (tdB_) // a drain of a B-scheduled accumulation collects columns of C (execute_td.cpp)
    tag_.field("tr", 1).field("col", ib).field("c_rows", db).field("c_stride", 16);
  drainFields_ = {{"c_row", Type::bits("RowBits")},
                  {"c_rows", Type::bits("DimBits")},
                  {"c_cols", Type::bits("DimBits")},
                  {"c_stride", Type::bits("StrideBits")},
                  {"acc", Type::bit()},
                  {"accumulate", Type::bit()},
                  {"relu", Type::bit()},
                  {"entry", Type::bits("OpBits")}};
  if (p_.array.hasOs) // the OS results' shift: a WS-only mesh has none
    drainFields_.push_back({"shift", Type::bits("ShiftBits")});
  if (tdB_) // the ended accumulation scheduled B: its drained rows are columns of C
    drainFields_.push_back({"tr", Type::bit()});
}

vlog::Module ExecuteControllerGenerator::build() const {
  vlog::Module m(names::kExecController,
                 "Execute controller: PRELOAD+COMPUTE operations to mesh beats (WS and OS, "
                 "lookahead of " +
                     num(lookahead_) +
                     " operation(s), flip planning, OS drains, transposer for OS "
                     "A operands) and result write-back. Operation {" +
                     ex_.describe() + "}. Result tag {" + tag_.describe() + "}.");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  StateRegs regs(b);
  operations(b, regs);
  intake(b);
  if (!td_) // TensorDash configs read OS operands through the feeder instead
    transposerFill(b, regs);
  flipState(b, regs);
  beatSelection(b);
  reads(b, regs);
  resultTag(b);
  planning(b, regs);
  stageD(b);
  array(b);
  writeBack(b);
  status(b);
  b.comment("Next state.");
  nextState(regs.next());
  stageDRegisters(b);
  b.blank();
  std::string preUnused; // the queued operations' words: only some fields are read early
  for (int i = 0; i + 1 < lookahead_; ++i)
    preUnused += ", pre" + num(i) + "_q, pre" + num(i) + "_a_rows";
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", "^{tag_valid, tag_ready, op_payload_i, a_row, b_row, d_row, cur_c_cols, "
                          "stream_idx, nxt_q, cur_q, wb_row, acc_rdata_i, b_rdata, d_rdata" +
                              std::string(p_.array.hasOs ? "" : ", cur_shift") + preUnused + "}");
  return m;
}

void ExecuteControllerGenerator::ports(vlog::Module& m) const {
  const AccelParams& p = p_;
  optable::params(m, p);
  m.param("MacBits", num(macCountBits(p)), "MAC slots of a beat");
  if (td_)
    m.param("SpWordRows", num(p.spWordRows), "scratchpad rows per SRAM word");
  m.clockAndReset();
  optable::ports(m);
  auto readClient = [&](const std::string& n, const std::string& rowBits, const std::string& width,
                        const std::string& doc) {
    m.portGroup(doc);
    m.output(n + "_valid_o", Type::bit());
    m.input(n + "_ready_i", Type::bit());
    m.output(n + "_row_o", Type::bits(rowBits));
    m.input(n + "_rdata_i", Type::bits(width));
  };
  readClient("spa", "SpRowBits", "SpElems*ElemWidth",
             "Scratchpad read client a: A rows (WS) and transposer fills (OS).");
  readClient("spb", "SpRowBits", "SpElems*ElemWidth",
             "Scratchpad read client b: bias D (WS) or B (OS) rows.");
  readClient("spd", "SpRowBits", "SpElems*ElemWidth", "Scratchpad read client d: stationary rows.");
  readClient("acc", "AccRowBits", "Dim*AccWidth",
             "Accumulator read client: bias D (WS) or OS preload D.");
  m.portGroup("Scratchpad and accumulator write clients (always granted).");
  m.output("spw_valid_o", Type::bit());
  m.output("spw_row_o", Type::bits("SpRowBits"));
  m.output("spw_data_o", Type::bits("SpElems*ElemWidth"));
  m.output("spw_mask_o", Type::bits("SpElems"));
  m.output("accw_valid_o", Type::bit());
  m.output("accw_row_o", Type::bits("AccRowBits"));
  m.output("accw_data_o", Type::bits("Dim*AccWidth"));
  m.output("accw_mask_o", Type::bits("Dim"));
  m.output("accw_accumulate_o", Type::bit());
  m.input("accw_done_i", Type::bit());
  m.portGroup("Status for the performance counters.");
  m.output("busy_o", Type::bit());
  m.output("beat_o", Type::bit(), "a valid beat enters the array");
  m.output("compute_beat_o", Type::bit(), "... and it is a compute beat");
  m.output("macs_o", Type::bits("MacBits"), "MAC slots it issues (DIM*DIM*lanes if dense)");
  m.output("bank_stall_o", Type::bit(), "a beat waits for an SRAM bank");
  if (td_) {
    m.output("macs_skipped_o", Type::bits("MacBits"),
             "MAC slots the dense array would have spent on the steps this beat retired, minus "
             "the ones it issues");
    m.output("window_stall_o", Type::bit(), "the beat's window was held back by the lockstep");
    m.output("feed_stall_o", Type::bit(), "a TensorDash beat waits for its window's first step");
    m.output("short_beat_o", Type::bit(),
             "a TensorDash beat goes with a window short of steps the feeder has not brought");
    addTdReadPorts(m);
  }
}

void ExecuteControllerGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
  const ArrayParams& a = p.array;
  optable::localParams(b, kExecSlots);
  b.localParam("Lanes", num(p.lanes), "MACs per PE: reduction elements per PE per beat");
  b.localParam("OutWidth", num(p.ow), "spatial output width");
  b.localParam("BWidth", num(a.bWidth()));
  b.localParam("DWidth", num(a.dWidth()));
  if (a.hasOs)
    b.localParam("ShiftBits", num(p.shiftBits), "the OS output shift");
  b.localParam("DimBits", num(p.dimBits), "holds 0..DIM");
  // Beats to a flip: up to DIM + the compute beats of the operations before the flipping one.
  b.localParam("DistBits", num(p.dimBits + (lookahead_ > 1 ? 2 : 1)),
               lookahead_ > 1 ? "holds 0..4*DIM: beats to a flip"
                              : "holds 0..2*DIM: beats to a flip");
  if (!td_ || tdB_) // the transposers' columns
    b.localParam("IdxBits", num(std::max(1, config::log2Exact(p.dim))), "an index 0..DIM-1");
  b.localParam("RowBits", num(p.localRowBits), "a local row of either memory");
  b.localParam("RowAddrBits", "RowBits+1", "a local row read (may run past the memory)");
  b.localParam("StrideBits", num(ex_.at("a_stride").width), "rows between A or C rows");
  b.localParam("RowCalcBits", "RowBits+StrideBits", "row + index * stride");
  b.localParam("ColBits", num(p.spElemBits), "holds 0..DIM*lanes: A and B columns");
  b.localParam("ColCalcBits", "ColBits+1");
  if (p.lanes > 1)
    b.localParam("LaneLog2", num(config::log2Exact(p.lanes)));
  b.localParam("ExWidth", num(ex_.width()), "the operation word");
  b.localParam("TagWidth", num(tag_.width()), "a result tag");
  b.localParam("TagDepth", num(a.latency() + 3), "result tags in flight: the mesh latency + 3");
  b.localParam("PendBits", "8", "result rows of an operation not yet written");
  b.localParam("SpRowWidth", "SpElems*ElemWidth");
  b.localParam("RowWidth", num(std::max(p.spElems * p.iw, p.dim * p.aw)),
               "a scratchpad or an accumulator row");
  b.localParam("DenseMacs", num(static_cast<long long>(p.dim) * p.dim * p.lanes),
               "MAC slots of a dense beat");
  if (td_) {
    b.localParam("TdDoneBits", num(tdDoneBits(p)), "operations one TensorDash beat completes");
    b.localParam("TdSelectMacs", num(p.array.tdRowsPerScheduler * p.dim),
                 "MACs of one lane select: its group's PE rows x the PE columns");
  } else {
    b.localParam("AWidth", num(a.aWidth()), "a mesh row's a: Lanes elements");
  }
  declareSources(b);
  b.blank();
}

// The current operation (issuing compute beats) and the next one (lookahead), and the
// operation table. Registers cur_*, nxt_*, opt_*; drives cur_nbeats, cur_ends_acc,
// cur_a_steps and the unpacked fields cur_* / nxt_*.
void ExecuteControllerGenerator::operations(vlog::Body& b, StateRegs& regs) const {
  b.comment("Current operation (issuing compute beats) and the next one (lookahead).");
  regs.add("cur_valid", Type::bit(), "1'b0")
      .add("cur", Type::bits("ExWidth"), "'0")
      .add("cur_entry", Type::bits("OpBits"), "'0", "its op-table entry")
      .add("cur_flipped", Type::bit(), "1'b0",
           "its flip beat has been issued (or it does not flip)")
      .add("cur_beat", Type::bits("DimBits"), "'0", "compute beats issued")
      .add("nxt_valid", Type::bit(), "1'b0")
      .add("nxt", Type::bits("ExWidth"), "'0")
      .add("nxt_entry", Type::bits("OpBits"), "'0");
  if (!td_)
    regs.add("cur_buf", Type::bit(), "1'b0", "its transposer buffer (OS)")
        .add("nxt_buf", Type::bit(), "1'b0");
  for (int i = 0; i + 1 < lookahead_; ++i) {
    const std::string pre = "pre" + num(i);
    regs.add(pre + "_valid", Type::bit(), "1'b0",
             i == 0 ? "operations behind the next one (never one through the transposer)" : "")
        .add(pre, Type::bits("ExWidth"), "'0")
        .add(pre + "_entry", Type::bits("OpBits"), "'0");
  }
  optable::registers(regs, "IdBits", "PendBits");
  std::vector<std::string> curFields;
  for (const auto& f : ex_.fields()) // (a_step: the TensorDash feeder reads A, not this)
    if (f.name != "a_acc" && f.name != "a_step")
      curFields.push_back(f.name);
  ex_.unpack(b, "cur_q", "cur_", curFields);
  std::vector<std::string> nxtFields = {"flip",   "ws",      "bd_garbage", "bd_acc",
                                        "bd_row", "bd_rows", "bd_cols"};
  if (!td_) // the transposer fills the next operation's A (or B) early
    nxtFields.insert(nxtFields.end(), {"a_garbage", "a_row", "a_rows", "a_stride", "a_t", "b_t",
                                       "d_garbage", "d_row", "d_rows"});
  ex_.unpack(b, "nxt_q", "nxt_", nxtFields);
  for (int i = 0; i + 1 < lookahead_; ++i)
    ex_.unpack(b, "pre" + num(i) + "_q", "pre" + num(i) + "_",
               {"flip", "ws", "a_t", "b_t", "a_rows", "bd_garbage", "bd_acc", "bd_row", "bd_rows",
                "bd_cols"});
  b.logic("cur_a_tr", Type::bit(), "A reaches the array through the transposer");
  b.logic("cur_b_tr", Type::bit(), "OS: B reaches the array through the transposer");
  if (td_) { // OS operands come through the TensorDash feeder
    b.assign("cur_a_tr", "!cur_ws");
    b.assign("cur_b_tr", "1'b0");
  } else { // OS takes A's columns; a transposed operand is stored as rows of the other index
    b.assign("cur_a_tr", "cur_ws ? cur_a_t : !cur_a_t");
    b.assign("cur_b_tr", "!cur_ws && cur_b_t");
  }
  b.logic("cur_nbeats", Type::bits("DimBits"), "compute beats of the current operation");
  b.logic("cur_ends_acc", Type::bit(), "OS, and C is real: the accumulation ends here");
  b.logic("cur_a_steps", Type::bits("DimBits"),
          "OS: reduction steps of A (columns / lanes, rounded up)");
  b.logic("cur_b_steps", Type::bits("DimBits"), "OS: reduction steps of B (its rows)");
  b.logic("cur_out_rows", Type::bits("DimBits"), "WS: rows of A, one output row each");
  // A transposed operand is stored as K rows (A) or K columns (B) of the reduction.
  const std::string aCols =
      td_ ? "DimBits'(cur_a_cols)" : "(cur_a_t ? cur_a_rows : DimBits'(cur_a_cols))";
  b.assign("cur_a_steps", p_.lanes == 1 ? aCols
                                        : "DimBits'((ColCalcBits'(cur_a_cols) + "
                                          "ColCalcBits'(Lanes-1)) >> LaneLog2)");
  b.assign("cur_b_steps", td_ ? "cur_d_rows" : "cur_b_t ? DimBits'(cur_d_cols) : cur_d_rows");
  b.assign("cur_out_rows", td_ ? "cur_a_rows" : "cur_a_t ? DimBits'(cur_a_cols) : cur_a_rows");
  b.assign("cur_nbeats", "cur_ws ? cur_out_rows : (cur_a_steps > cur_b_steps ? cur_a_steps : "
                         "cur_b_steps)");
  b.assign("cur_ends_acc", "!cur_ws && !cur_c_garbage");
  b.blank();
}

// Operations enter the lookahead slot: in_valid / in_payload / in_id (from the reservation
// station, or through the TensorDash pre-queue), accept; the op-table searches.
void ExecuteControllerGenerator::intake(vlog::Body& b) const {
  optable::searches(b);
  b.logic("accept", Type::bit());
  b.logic("in_valid", Type::bit(), "an operation for the lookahead slot");
  b.logic("in_ready", Type::bit());
  b.logic("in_payload", Type::bits("ExWidth"));
  b.logic("in_id", Type::bits("IdBits"));
  if (lookahead_ == 1) // (else transposerFill: it needs accept_needs_buf)
    b.assign("in_ready", "!nxt_valid_q && opt_free");
  b.assign("accept", "in_valid && in_ready");
  if (td_) {
    emitTdIntake(b, p_, ex_); // through the pre-queue that hands OS computes to the feeder
  } else {
    b.assign("in_valid", "op_valid_i");
    b.assign("in_payload", "op_payload_i[ExWidth-1:0]");
    b.assign("in_id", "op_id_i");
    b.assign("op_ready_o", "in_ready");
  }
  ex_.unpack(b, "in_payload", "in_",
             td_ ? std::vector<std::string>{"flip"}
                 : std::vector<std::string>{"flip", "ws", "a_garbage", "a_t", "b_t", "d_garbage",
                                            "bd_garbage"});
  b.blank();
}

// Transposer buffers (non-TensorDash): operations with an operand through the transposer (OS:
// A, or B when transposed; WS: A when transposed) take them in turn. Registers buf_sel,
// buf_ready, fill_row; drives fill_* (the buffer being filled).
void ExecuteControllerGenerator::transposerFill(vlog::Body& b, StateRegs& regs) const {
  b.comment("Transposer buffers: operations with an operand through the transposer take them "
            "in turn.");
  regs.add("buf_sel", Type::bit(), "1'b0", "buffer of the next OS operation accepted")
      .add("buf_ready", Type::bits("2"), "'0", "buffer holds its operation's A")
      .add("fill_row", Type::bits("DimBits"), "'0", "rows of the buffer already requested");
  b.logic("nxt_needs_buf", Type::bit());
  b.logic("cur_needs_buf", Type::bit());
  b.logic("accept_needs_buf", Type::bit());
  auto needsBuf = [](const std::string& o) {
    return "(((" + o + "ws ? " + o + "a_t : !" + o + "a_t) && !" + o + "a_garbage) ||\n" +
           "       (!" + o + "ws && " + o + "b_t && !" + o + "d_garbage) ||\n" + "       (" + o +
           "ws && " + o + "b_t && " + o + "flip && !" + o + "bd_garbage))";
  };
  b.assign("accept_needs_buf", needsBuf("in_"));
  if (lookahead_ > 1) { // one through the transposer enters only the next slot (two buffers)
    b.assign("in_ready", "opt_free && (!nxt_valid_q || (!accept_needs_buf && !pre" +
                             num(lookahead_ - 2) + "_valid_q))");
  }
  b.assign("cur_needs_buf", "cur_valid_q && " + needsBuf("cur_"));
  b.assign("nxt_needs_buf", "nxt_valid_q && " + needsBuf("nxt_"));
  b.comment("The operand a buffer holds: A, or a transposed B (OS: the COMPUTE's; WS: the "
            "stationary rows of a flip), stored as rows 1 apart.");
  for (const char* o : {"cur", "nxt"}) {
    const std::string op = o;
    b.logic(op + "_fill_b", Type::bit(), "the buffer holds B, not A");
    b.logic(op + "_fill_row", Type::bits("RowBits"));
    b.logic(op + "_fill_rows", Type::bits("DimBits"));
    b.assign(op + "_fill_b", op + "_b_t");
    b.assign(op + "_fill_row", op + "_ws ? " + op + "_bd_row : " + op + "_d_row");
    b.assign(op + "_fill_rows", op + "_ws ? " + op + "_bd_rows : " + op + "_d_rows");
  }
  b.comment("Fill: the current operation's buffer first, then the next one's.");
  b.logic("fill_cur", Type::bit());
  b.logic("fill_nxt", Type::bit());
  b.logic("fill_want", Type::bit(), "a buffer needs rows");
  b.logic("fill_buf", Type::bit());
  b.logic("fill_rows", Type::bits("DimBits"));
  b.logic("fill_base", Type::bits("RowBits"));
  b.logic("fill_stride", Type::bits("StrideBits"));
  b.assign("fill_cur", "cur_needs_buf && !buf_ready_q[cur_buf_q]");
  b.assign("fill_nxt", "!fill_cur && nxt_needs_buf && !buf_ready_q[nxt_buf_q]");
  b.assign("fill_want", "fill_cur || fill_nxt");
  b.assign("fill_buf", "fill_cur ? cur_buf_q : nxt_buf_q");
  b.assign("fill_rows", "fill_cur ? (cur_fill_b ? cur_fill_rows : cur_a_rows) :\n"
                        "      (nxt_fill_b ? nxt_fill_rows : nxt_a_rows)");
  b.assign("fill_base", "fill_cur ? (cur_fill_b ? cur_fill_row : cur_a_row) :\n"
                        "      (nxt_fill_b ? nxt_fill_row : nxt_a_row)");
  b.assign("fill_stride", "fill_cur ? (cur_fill_b ? StrideBits'(1) : cur_a_stride) :\n"
                          "      (nxt_fill_b ? StrideBits'(1) : nxt_a_stride)");
  b.blank();
}

// The planned flip (ev_*), the beats since the last one, and the OS drain: the accumulation
// waiting for its flip (pend_*) and the one leaving the array (drain_*); dr_* is the set this
// beat uses.
void ExecuteControllerGenerator::flipState(vlog::Body& b, StateRegs& regs) const {
  b.comment("The planned flip: beats until it (ev_dist_q), whose it is, and the OS drain.");
  regs.add("prop", Type::bit(), "1'b0")
      .addDriven("since_flip", Type::bits("DimBits"), "DimBits'(Dim)",
                 "beats since the last flip beat (saturates at DIM)")
      .add("ev_valid", Type::bit(), "1'b0")
      .add("ev_drain", Type::bit(), "1'b0", "a flip without compute, to drain OS results")
      .add("ev_dist", Type::bits("DistBits"), "'0", "beats still to issue before the flip beat")
      .add("drain_pend", Type::bit(), "1'b0", "an ended OS accumulation waits for a flip")
      .add("drain_act", Type::bit(), "1'b0", "its rows are leaving the array")
      .add("drain_j", Type::bits("DimBits"), "'0", "beats since the draining flip")
      .add("acc_wr_entry", Type::bits("OpBits"), "'0", "entry of last cycle's accumulator write");
  if (lookahead_ > 1) {
    b.comment("A flip planned for an operation behind the next one keeps its stationary rows' "
              "fields (evf_*) until it happens.");
    regs.add("ev_far", Type::bit(), "1'b0", "the planned flip was planned from pre<i>")
        .add("evf_bd_garbage", Type::bit(), "1'b0")
        .add("evf_bd_acc", Type::bit(), "1'b0")
        .add("evf_bd_row", Type::bits("RowBits"), "'0")
        .add("evf_bd_rows", Type::bits("DimBits"), "'0")
        .add("evf_bd_cols", Type::bits("ColBits"), "'0");
  }
  b.comment("Where drained rows go: pend_* for the ended accumulation waiting for its flip, "
            "drain_* for the one leaving the array (an operation can end while the previous "
            "drain starts), dr_* the set this beat uses.");
  for (const auto& [f, t] : drainFields_) {
    regs.add("pend_" + f, t, "").add("drain_" + f, t, "");
    b.logic("dr_" + f, t);
    b.assign("dr_" + f, "drain_act_q ? drain_" + f + "_q : pend_" + f + "_q");
  }
  if (td_) {
    regs.add("td_done", Type::bits("TdDoneBits"), "'0",
             "operations the feeder has completed and this controller has not yet");
  }
  if (tdB_) {
    regs.addDriven("dt_ready", Type::bit(), "1'b0",
                   "the D transposer holds the current operation's D")
        .addDriven("wo_hold", Type::bits("DimBits"), "'0",
                   "cycles writing beats wait for a write-out");
  }
  b.blank();
}

// This cycle's beat: is_compute, flip_now / flip_op, beat_want, beat_idx, the stationary row it
// streams (stream_on, stream_idx) and the flipping operation's fields (ev_*).
void ExecuteControllerGenerator::beatSelection(vlog::Body& b) const {
  b.comment("This cycle's beat.");
  b.logic("cur_computing", Type::bit(), "the current operation has compute beats to issue");
  b.logic("flip_now", Type::bit(), "this beat is the planned flip");
  b.logic("flip_op", Type::bit(), "... of the current operation (its compute beat 0)");
  b.logic("is_compute", Type::bit());
  b.logic("beat_want", Type::bit(), "a beat should go this cycle");
  b.logic("beat_idx", Type::bits("DimBits"), "compute beat index");
  b.logic("stream_on", Type::bit(), "this beat carries a stationary row");
  b.logic("stream_idx", Type::bits("DistBits"), "which row (ev_dist_q - 1)");
  b.logic("ev_ws", Type::bit(), "dataflow of the flipping operation");
  b.logic("ev_bd_garbage", Type::bit());
  b.logic("ev_bd_acc", Type::bit());
  b.logic("ev_bd_row", Type::bits("RowBits"));
  b.logic("ev_bd_rows", Type::bits("DimBits"));
  b.logic("ev_bd_cols", Type::bits("ColBits"));
  b.logic("ev_on_cur", Type::bit(), "the planned flip is the current operation's");
  if (td_) {
    b.logic("td_go", Type::bit(), "the TensorDash front end has a step for a beat");
    b.logic("td_beat_go", Type::bit(), "a TensorDash beat goes this cycle");
    b.logic("td_done", Type::bits("TdDoneBits"), "operations whose last step it retires");
  }
  if (tdB_) {
    b.logic("beat_writes", Type::bit(), "this beat's result is written when it leaves the array");
    b.comment("B-scheduled accumulations (execute_td.cpp): their stationary rows come from the "
              "D transposer, their results leave through the C transposer's write-out.");
    b.logic("ev_tr", Type::bit(), "the planned flip is a B-scheduled one");
    b.logic("dt_rd_sp", Type::bit(), "the D transposer reads a scratchpad row");
    b.logic("dt_rd_acc", Type::bit(), "... an accumulator row");
    b.logic("dt_row", Type::bits("RowAddrBits"), "... this one");
  }
  b.comment("An OS operation that does not flip (COMPUTE_ACCUMULATED) after an ended "
            "accumulation waits for that accumulation's drain flip, which starts it from zero.");
  // A TensorDash operation (every OS one on such a config) computes until the feeder says its
  // last step has left the window; it does not count beats. While completions the feeder
  // reported are still being applied (td_done_q), no beat goes: the window may already hold
  // the steps of an operation that must flip first.
  b.assign("cur_computing",
           "cur_valid_q && cur_flipped_q && " +
               std::string(td_ ? "(cur_ws ? cur_beat_q < cur_nbeats : td_done_q == '0)"
                               : "cur_beat_q < cur_nbeats") +
               " &&\n      !(!cur_ws && drain_pend_q)");
  b.assign("flip_now", "ev_valid_q && ev_dist_q == '0");
  b.assign("ev_on_cur", "cur_valid_q && !cur_flipped_q");
  b.assign("flip_op", "flip_now && !ev_drain_q");
  b.assign("is_compute", "cur_computing || flip_op");
  b.assign("beat_want", "is_compute || flip_now || (ev_valid_q && ev_dist_q != '0) || drain_act_q");
  b.assign("beat_idx", "flip_op ? '0 : cur_beat_q");
  for (const char* f : {"ws", "bd_garbage", "bd_acc", "bd_row", "bd_rows", "bd_cols"}) {
    const std::string near = std::string("ev_on_cur ? cur_") + f + " : nxt_" + f;
    if (lookahead_ == 1)
      b.assign(std::string("ev_") + f, near);
    else if (std::string(f) == "ws") // a far flip is always WS
      b.assign("ev_ws", "ev_far_q || (" + near + ")");
    else
      b.assign(std::string("ev_") + f, std::string("ev_far_q ? evf_") + f + "_q : " + near);
  }
  b.logic("ev_d_tr", Type::bit(), "WS: the flip's stationary rows come from the transposer");
  if (td_) {
    b.assign("ev_d_tr", "1'b0");
  } else { // a transposed B is stored as K columns
    b.logic("ev_steps", Type::bits("DimBits"), "the flip's stationary rows (K)");
    b.logic("ev_buf", Type::bit(), "the flipping operation's transposer buffer");
    // (a far flip's stationary rows never come through the transposer)
    const std::string bT = lookahead_ > 1 ? "!ev_far_q && (ev_on_cur ? cur_b_t : nxt_b_t)"
                                          : "(ev_on_cur ? cur_b_t : nxt_b_t)";
    b.assign("ev_d_tr", "ev_ws && !ev_bd_garbage && " + bT);
    b.assign("ev_steps", "(ev_ws && " + bT +
                             ") ? DimBits'(ev_bd_cols) : "
                             "ev_bd_rows");
    b.assign("ev_buf", "ev_on_cur ? cur_buf_q : nxt_buf_q");
  }
  b.assign("stream_idx", "ev_dist_q - DistBits'(1)");
  b.assign("stream_on",
           "ev_valid_q && !ev_drain_q && ev_dist_q != '0 && ev_dist_q <= DistBits'(Dim)");
  b.blank();
}

// The reads this beat needs. Two of them may hit the same scratchpad bank, or both need the
// accumulator port, so they cannot always be granted in one cycle: each read is taken when
// granted (got_*_q), data read before the beat goes waits in a hold register, and the beat goes
// once all its operands have been read. Drives need_*, want_*, gnt_*, bank_ok, buf_ok,
// beat_go; registers got_*, cap_*, hold_*.
void ExecuteControllerGenerator::reads(vlog::Body& b, StateRegs& regs) const {
  b.comment("Reads this beat needs. Two of them may hit the same scratchpad bank, or both "
            "need the accumulator port, so they cannot always be granted in one cycle: each "
            "read is taken when granted (got_*_q), data read before the beat goes waits in a "
            "hold register, and the beat goes once all its operands have been read.");
  b.logic("need_a", Type::bit());
  b.logic("need_b", Type::bit());
  b.logic("need_d", Type::bit());
  for (const char* o : {"a", "b", "d"}) {
    const std::string op = o;
    regs.addDriven("got_" + op, Type::bit(), "1'b0",
                   "this beat's " + op + " was read in an earlier cycle")
        .addDriven("cap_" + op, Type::bit(), "1'b0", "hold the " + op + " data arriving now");
  }
  regs.addDriven("cap_b_acc", Type::bit(), "1'b0", "the held b comes from the accumulator")
      .addDriven("cap_d_acc", Type::bit(), "1'b0");
  b.logic("hold_a_q", Type::bits("SpRowWidth"));
  b.logic("hold_b_q", Type::bits("RowWidth"), "a scratchpad row or an accumulator row");
  b.logic("hold_d_q", Type::bits("RowWidth"));
  b.logic("want_a", Type::bit(), "needed and not read yet");
  b.logic("want_b", Type::bit());
  b.logic("want_d", Type::bit());
  b.logic("gnt_a", Type::bit(), "read granted this cycle");
  b.logic("gnt_b", Type::bit());
  b.logic("gnt_d", Type::bit());
  b.logic("b_from_acc", Type::bit());
  b.logic("acc_for_b", Type::bit(), "the accumulator port serves b this cycle (b before d)");
  b.logic("a_row", Type::bits("RowCalcBits"));
  b.logic("b_row", Type::bits("RowAddrBits"));
  b.logic("d_row", Type::bits("RowAddrBits"));
  b.logic("bank_ok", Type::bit(), "every operand of the beat read (earlier or now)");
  b.logic("buf_ok", Type::bit(),
          td_ ? "OS: the TensorDash window has a step for the beat"
              : "OS: the transposer holds this operation's A");
  b.logic("beat_go", Type::bit());
  b.assign("need_a", "is_compute && !cur_a_tr && !cur_a_garbage && beat_idx < cur_a_rows");
  b.assign("need_b", std::string(td_ ? "is_compute && cur_ws" : "is_compute && !cur_b_tr") +
                         " && !cur_d_garbage && beat_idx < cur_d_rows");
  b.assign("b_from_acc", "cur_d_acc");
  b.assign("need_d",
           "stream_on && !ev_bd_garbage && !ev_d_tr && DistBits'(ev_bd_rows) > stream_idx" +
               std::string(tdB_ ? " && !ev_tr" : ""));
  if (!td_) {
    b.logic("stream_t", Type::bit(), "this beat streams a transposer column (WS, B transposed)");
    b.assign("stream_t", "stream_on && ev_d_tr && DistBits'(ev_steps) > stream_idx");
  }
  b.assign("want_a", "need_a && !got_a_q");
  b.logic("a_reads", Type::bit(), "the beat asks for its A row this cycle");
  b.assign("a_reads", "beat_want && want_a");
  b.assign("want_b", "need_b && !got_b_q");
  b.assign("want_d", "need_d && !got_d_q");
  b.assign("acc_for_b", "want_b && b_from_acc");
  b.assign("a_row",
           "RowCalcBits'(cur_a_row) + RowCalcBits'(beat_idx) * RowCalcBits'(cur_a_stride)");
  b.assign("b_row", "RowAddrBits'(cur_d_row) + RowAddrBits'(beat_idx)");
  b.assign("d_row", "RowAddrBits'(ev_bd_row) + RowAddrBits'(stream_idx)");
  readClients(b);
  b.assign("gnt_a", "beat_want && want_a && spa_ready_i");
  b.assign("gnt_b", "beat_want && buf_ok && want_b && (b_from_acc ? acc_ready_i : spb_ready_i)");
  b.assign("gnt_d", "beat_want && buf_ok && want_d &&\n"
                    "      (ev_bd_acc ? acc_ready_i && !acc_for_b : spd_ready_i)");
  b.assign("bank_ok", "(!need_a || got_a_q || gnt_a) && (!need_b || got_b_q || gnt_b) &&\n"
                      "      (!need_d || got_d_q || gnt_d)");
  b.assign("beat_go", "beat_want && buf_ok && bank_ok");
  b.assign("bank_stall_o", "beat_want && buf_ok && !bank_ok");
  for (const char* o : {"a", "b", "d"}) {
    const std::string op = o;
    b.assign("got_" + op + "_d", "!beat_go && (got_" + op + "_q || gnt_" + op + ")");
    b.assign("cap_" + op + "_d", "gnt_" + op + " && !beat_go");
  }
  b.assign("cap_b_acc_d", "b_from_acc");
  b.assign("cap_d_acc_d", "ev_bd_acc");
  b.flops(vlog::FlopsItem({{"hold_a_q", "spa_rdata_i"}}, "cap_a_q"));
  b.flops(vlog::FlopsItem(
      {{"hold_b_q", "cap_b_acc_q ? RowWidth'(acc_rdata_i) : RowWidth'(spb_rdata_i)"}}, "cap_b_q"));
  b.flops(vlog::FlopsItem(
      {{"hold_d_q", "cap_d_acc_q ? RowWidth'(acc_rdata_i) : RowWidth'(spd_rdata_i)"}}, "cap_d_q"));
  if (!td_) {
    b.logic("fill_go", Type::bit(), "a transposer row read is granted");
    // Fills take the port whenever the beat does not ask for its A row this cycle: a beat
    // whose A is read directly can wait (A held) for its B to fill the transposer (OS, B
    // transposed).
    b.assign("fill_go", "!a_reads && fill_want && fill_row_q < fill_rows && spa_ready_i");
  }
  b.blank();
}

// The read clients' requests (spa, spb, spd, acc): the beat's operands, transposer fills and
// (TensorDash) the D transposer's reads.
void ExecuteControllerGenerator::readClients(vlog::Body& b) const {
  if (td_) {
    b.assign("buf_ok", "(!is_compute || cur_ws || td_go)" +
                           std::string(tdB_ ? " && (!beat_writes || wo_hold_q == '0)" : ""));
    b.assign("spa_valid_o", "a_reads");
    b.assign("spa_row_o", "SpRowBits'(a_row)");
  } else {
    b.assign("buf_ok", "(!is_compute || !cur_needs_buf || buf_ready_q[cur_buf_q]) &&\n"
                       "      (!stream_t || buf_ready_q[ev_buf])");
    b.assign("spa_valid_o", "a_reads || (fill_want && fill_row_q < fill_rows)");
    b.assign("spa_row_o", "a_reads ? SpRowBits'(a_row) :\n"
                          "      SpRowBits'(RowCalcBits'(fill_base) + RowCalcBits'(fill_row_q) * "
                          "RowCalcBits'(fill_stride))");
  }
  b.assign("spb_valid_o", "beat_want && buf_ok && want_b && !b_from_acc");
  b.assign("spb_row_o", "SpRowBits'(b_row)");
  // TensorDash: a B-scheduled flip reads its stationary rows ahead, into the D transposer
  // (execute_td.cpp), through the same clients while nothing else uses them.
  const std::string dtSp = tdB_ ? " || dt_rd_sp" : "", dtAcc = tdB_ ? " || dt_rd_acc" : "";
  b.assign("spd_valid_o", "beat_want && buf_ok && want_d && !ev_bd_acc" + dtSp);
  b.assign("spd_row_o", "SpRowBits'(" + std::string(tdB_ ? "dt_rd_sp ? dt_row : " : "") + "d_row)");
  b.assign("acc_valid_o", "beat_want && buf_ok && (acc_for_b || (want_d && ev_bd_acc))" + dtAcc);
  b.assign("acc_row_o", "AccRowBits'(" + std::string(tdB_ ? "dt_rd_acc ? dt_row : " : "") +
                            "acc_for_b ? b_row : d_row)");
}

// What happens to this beat's result: a WS compute row, a drained OS row, or nothing. Drives
// beat_tag (and its fields bt_*), draining, drain_row_idx, ws_write, os_write.
void ExecuteControllerGenerator::resultTag(vlog::Body& b) const {
  b.comment("What happens to this beat's result: a WS compute row, a drained OS row, or "
            "nothing.");
  b.logic("beat_tag", Type::bits("TagWidth"));
  b.logic("drain_row_idx", Type::bits("DimBits"), "DIM-1-j");
  b.logic("ws_write", Type::bit());
  b.logic("os_write", Type::bit());
  b.assign("drain_row_idx", "DimBits'(Dim-1) - (flip_now ? '0 : drain_j_q)");
  b.comment("At a flip beat the pending drain starts (j = 0).");
  b.logic("draining", Type::bit(), "this beat carries a drained row");
  b.assign("draining", "drain_act_q || (flip_now && drain_pend_q)");
  b.assign("ws_write", "is_compute && cur_ws && !cur_c_garbage && beat_idx < cur_c_rows");
  b.assign("os_write",
           "draining && drain_row_idx < dr_c_rows" + std::string(tdB_ ? " && !dr_tr" : ""));
  const std::string drainRow = "RowBits'(RowCalcBits'(dr_c_row) + RowCalcBits'(drain_row_idx) * "
                               "RowCalcBits'(dr_c_stride))";
  std::map<std::string, std::string> drainTag = {
      {"we", "os_write"},   {"acc", "dr_acc"}, {"accumulate", "dr_accumulate"},
      {"relu", "dr_relu"},  {"row", drainRow}, {"cols", "dr_c_cols"},
      {"entry", "dr_entry"}};
  if (tdB_) { // a transposed drain collects column DIM-1-j of C; its rows are written later
    drainTag["row"] = "dr_tr ? dr_c_row : " + drainRow;
    drainTag["tr"] = "draining && dr_tr";
    drainTag["col"] = "IdxBits'(drain_row_idx)";
    drainTag["c_rows"] = "dr_c_rows";
    drainTag["c_stride"] = "dr_c_stride";
  }
  if (tdB_)
    b.assign("beat_writes", "ws_write || os_write");
  b.assign("beat_tag",
           "ws_write ? " +
               tag_.pack({{"we", "1'b1"},
                          {"acc", "cur_c_acc"},
                          {"accumulate", "cur_c_accumulate"},
                          {"relu", "cur_relu"},
                          {"row", "RowBits'(RowCalcBits'(cur_c_row) + "
                                  "RowCalcBits'(beat_idx) * RowCalcBits'(cur_c_stride))"},
                          {"cols", "DimBits'(cur_c_cols)"},
                          {"entry", "cur_entry_q"}}) +
               " :\n      " + tag_.pack(drainTag));
  tag_.unpack(b, "beat_tag", "bt_",
              tdB_ ? std::vector<std::string>{"we", "entry", "tr", "col", "c_rows"}
                   : std::vector<std::string>{"we", "entry"});
  b.blank();
}

// Next-state helpers and the planning of the next flip (when none is planned): beats before it
// = the larger of the current operation's remaining compute beats (when the next one flips),
// the spacing after the last flip, and DIM if it has stationary rows to stream (GARBAGE
// stationary data is zeros, which the DIM beats since the last flip have already shifted in).
// Drives since_flip_d, cur_beat_next, cur_last, plan_*, ev_dist_plan.
void ExecuteControllerGenerator::planning(vlog::Body& b, StateRegs&) const {
  b.logic("cur_beat_next", Type::bits("DimBits"), "cur_beat_q after this cycle's beat");
  b.logic("cur_last", Type::bit(), "the current operation issues its last compute beat");
  b.assign("since_flip_d", "!beat_go ? since_flip_q : flip_now ? DimBits'(1) :\n"
                           "      (since_flip_q == DimBits'(Dim) ? since_flip_q : "
                           "since_flip_q + DimBits'(1))");
  b.assign("cur_beat_next", "beat_go && is_compute ? beat_idx + DimBits'(1) : cur_beat_q");
  const std::string lastBeat = "beat_idx + DimBits'(1) == cur_nbeats";
  // A TensorDash operation is done once the feeder reports its last step gone; one beat can
  // complete several, which finish here one per cycle (td_done_q), beat or not.
  b.assign("cur_last",
           td_ ? "cur_ws ? beat_go && is_compute && " + lastBeat +
                     " :\n      cur_valid_q && (td_done_q != '0 || (td_beat_go && td_done != '0))"
               : "beat_go && is_compute && " + lastBeat);
  if (lookahead_ > 1) {
    b.logic("queue_shift", Type::bit(), "the lookahead queue moves up into the current slot");
    b.assign("queue_shift", "(!cur_valid_q || cur_last) && nxt_valid_q");
  }
  b.comment("Planning the next flip (when none is planned): beats before it = the larger of "
            "the current operation's remaining compute beats (when the next one flips), the "
            "spacing after the last flip, and DIM if it has stationary rows to stream (GARBAGE "
            "stationary data is zeros, which the DIM beats since the last flip have already "
            "shifted in).");
  b.logic("spacing_next", Type::bits("DistBits"), "DIM - since_flip_d");
  b.logic("remaining_next", Type::bits("DistBits"),
          "compute beats the current operation still issues");
  b.logic("plan_cur", Type::bit());
  b.logic("plan_nxt", Type::bit());
  b.logic("plan_drain", Type::bit());
  b.logic("drain_blocks", Type::bit(), "a drain must finish before a WS flip");
  b.logic("ev_dist_plan", Type::bits("DistBits"));
  b.assign("spacing_next", "DistBits'(Dim) - DistBits'(since_flip_d)");
  b.assign("remaining_next", "cur_last ? '0 : DistBits'(cur_nbeats) - DistBits'(cur_beat_next)");
  b.assign("drain_blocks", "drain_pend_q || drain_act_q || (cur_last && cur_ends_acc)");
  b.comment("The current operation flips next (it has not started).");
  b.assign("plan_cur", "!ev_valid_q && !flip_now && cur_valid_q && !cur_flipped_q && cur_flip &&\n"
                       "      !(cur_ws && drain_blocks)" +
                           std::string(tdB_ ? " && (cur_ws || !cur_td_side || cur_bd_garbage || "
                                              "dt_ready_q)"
                                            : ""));
  b.comment("The next operation flips after the current one (and drains it, same dataflow). Not "
            "while the current one's beats wait for a drain (OS): that drain's own flip comes "
            "first, or the next operation's would land on the current one's first beat.");
  if (td_)
    b.comment("A TensorDash operation's beats are not known ahead: the next flip is planned "
              "once it has finished.");
  b.assign("plan_nxt",
           "!ev_valid_q && !flip_now && cur_valid_q && cur_flipped_q && nxt_valid_q "
           "&& nxt_flip &&\n"
           "      !cur_last && !(nxt_ws && drain_blocks) && nxt_ws == cur_ws &&\n"
           "      !(!cur_ws && drain_pend_q)" +
               std::string(td_ ? " && cur_ws" : " &&\n      !(cur_ws && cur_a_t && nxt_b_t)"));
  if (!td_)
    b.comment("(The transposer has one read port: a compute beat reading A from it cannot carry "
              "a transposed stationary row. Such a flip waits until the current operation ends.)");
  planFar(b);
  b.comment("An ended accumulation with no flipping operation behind it gets its own flip.");
  b.assign("plan_drain", "!ev_valid_q && !flip_now && !plan_cur && !plan_nxt && !plan_far && "
                         "drain_pend_q");
  b.logic("plan_gap", Type::bits("DistBits"), "compute beats before the flip");
  b.logic("plan_rows", Type::bits("DistBits"), "stationary rows streamed before the flip");
  b.logic("plan_beats", Type::bits("DistBits"), "the larger of the two");
  b.assign("plan_gap", "plan_nxt ? remaining_next : plan_far ? far_gap : '0");
  b.assign("plan_rows", "(plan_far ? far_bd_garbage : ev_bd_garbage) ? '0 : DistBits'(Dim)");
  b.assign("plan_beats", "plan_gap > plan_rows ? plan_gap : plan_rows");
  b.assign("ev_dist_plan", "plan_drain ? (since_flip_d == DimBits'(Dim) ? '0 : spacing_next) :\n"
                           "      (plan_beats > spacing_next ? plan_beats : spacing_next)");
  b.blank();
}

// A flip planned further ahead (plan_far): the first flipping operation behind the next one,
// when the current operation and every one before it are plain WS computes (no transposer, no
// OS drain), so their compute beats are known; the flip's stationary rows then ride on them
// instead of on filler beats. Drives plan_far, far_gap and the flip's fields far_*.
void ExecuteControllerGenerator::planFar(vlog::Body& b) const {
  const std::vector<std::string> fields = {"bd_garbage", "bd_acc", "bd_row", "bd_rows", "bd_cols"};
  const std::vector<vlog::Type> types = {Type::bit(), Type::bit(), Type::bits("RowBits"),
                                         Type::bits("DimBits"), Type::bits("ColBits")};
  b.logic("plan_far", Type::bit(), "plan the flip of an operation behind the next one");
  b.logic("far_gap", Type::bits("DistBits"), "compute beats before it");
  if (lookahead_ == 1) { // (the planning reads these three)
    b.logic("far_bd_garbage", Type::bit());
    b.assign("plan_far", "1'b0");
    b.assign("far_gap", "'0");
    b.assign("far_bd_garbage", "1'b0");
    return;
  }
  for (size_t f = 0; f < fields.size(); ++f)
    b.logic("far_" + fields[f], types[f]);
  b.comment("A flip planned further ahead: the first flipping operation behind the next one, "
            "when the current one and those before it are plain WS computes (their beats are "
            "known), so its stationary rows ride on their compute beats.");
  // Slot 0 is nxt, slot k > 0 is pre<k-1>.
  auto slot = [](int k) { return k == 0 ? std::string("nxt") : "pre" + num(k - 1); };
  std::string before = "!ev_valid_q && !flip_now && cur_valid_q && cur_flipped_q && cur_ws && "
                       "!drain_blocks";
  std::string gap = "remaining_next";
  std::string planAny, gapSel = "'0";
  std::vector<std::string> fieldSel(fields.size(), "'0");
  for (int k = 1; k < lookahead_; ++k) {
    const std::string j = slot(k - 1), o = slot(k), far = "far_at" + num(k);
    before += " &&\n      " + j + "_valid_q && !" + j + "_flip && " + j + "_ws && !" + j + "_a_t";
    gap += " + DistBits'(" + j + "_a_rows)";
    b.logic(far, Type::bit(), "the flip to plan is " + o + "'s");
    b.assign(far, before + " &&\n      " + o + "_valid_q && " + o + "_flip && " + o + "_ws && !" +
                      o + "_a_t && !" + o + "_b_t");
    planAny += (planAny.empty() ? "" : " || ") + far;
    gapSel = far + " ? " + gap + " :\n      " + gapSel;
    for (size_t f = 0; f < fields.size(); ++f)
      fieldSel[f] = far + " ? " + o + "_" + fields[f] + " : " + fieldSel[f];
  }
  b.assign("plan_far", planAny);
  b.assign("far_gap", gapSel);
  for (size_t f = 0; f < fields.size(); ++f)
    b.assign("far_" + fields[f], fieldSel[f]);
}

// Stage D: the beat issued last cycle (d_*_q, stageDRegisters), with its read data, enters the
// mesh. Drives a_rdata, b_rdata, d_rdata and (operandLanes) mesh_a, mesh_b, mesh_d.
void ExecuteControllerGenerator::stageD(vlog::Body& b) const {
  b.comment("Stage D: the beat issued last cycle, with its read data, enters the mesh.");
  b.logic("d_valid_q", Type::bit());
  b.logic("d_prop_q", Type::bit());
  b.logic("d_ws_q", Type::bit());
  if (p_.array.hasOs) // the OS results' shift (a WS-only mesh has no such input)
    b.logic("d_shift_q", Type::bits("ShiftBits"));
  if (td_)
    b.logic("d_td_q", Type::bit(), "a TensorDash beat: a and b come from the front end");
  b.logic("d_compute_q", Type::bit());
  b.logic("d_a_src_q", Type::named("src_e"), "SrcZero, SrcSp (a row) or SrcTransposer (column)");
  b.logic("d_a_cols_q", Type::bits("ColBits"), "A columns (elements of the reduction)");
  if (!td_) {
    b.logic("d_a_rows_q", Type::bits("DimBits"), "transposer: valid rows of the column");
    b.logic("d_b_rows_q", Type::bits("DimBits"), "transposer (B): valid rows of the column");
    b.logic("d_d_trows_q", Type::bits("DimBits"), "transposer (WS B): valid rows of the column");
    b.logic("d_col_q", Type::bits("IdxBits"), "transposer column: reduction step");
    b.logic("d_tbuf_q", Type::bit());
  }
  b.logic("d_b_src_q", Type::named("src_e"), "SrcZero, SrcSp or SrcAcc");
  b.logic("d_b_cols_q", Type::bits("ColBits"));
  b.logic("d_d_src_q", Type::named("src_e"),
          tdB_ ? "SrcZero, SrcSp, SrcAcc or SrcTransposer (the D transposer's column)"
               : "SrcZero, SrcSp or SrcAcc");
  b.logic("d_d_cols_q", Type::bits("ColBits"));
  if (tdB_) {
    b.logic("d_dt_col_q", Type::bits("IdxBits"),
            "the D transposer column a B-scheduled flip streams");
    emitTdDTransposer(b, p_);
  }
  b.logic("d_a_held_q", Type::bit(), "take a from its hold register, not the read port");
  b.logic("d_b_held_q", Type::bit());
  b.logic("d_d_held_q", Type::bit());
  b.logic("b_rdata", Type::bits("RowWidth"), "b as read: the hold register or the live port");
  b.logic("d_rdata", Type::bits("RowWidth"));
  b.logic("a_rdata", Type::bits("SpRowWidth"));
  b.assign("a_rdata", "d_a_held_q ? hold_a_q : spa_rdata_i");
  b.assign("b_rdata", "d_b_held_q ? hold_b_q : d_b_src_q == SrcAcc ? RowWidth'(acc_rdata_i) :\n"
                      "      RowWidth'(spb_rdata_i)");
  b.assign("d_rdata", "d_d_held_q ? hold_d_q : d_d_src_q == SrcAcc ? RowWidth'(acc_rdata_i) :\n"
                      "      RowWidth'(spd_rdata_i)");
  b.logic("d_tag_q", Type::bits("TagWidth"));
  // The dense beat's a: per row Lanes elements (by_td_array appends the selects itself).
  b.logic("mesh_a", Type::bits("Dim*" + std::string(td_ ? "Lanes*ElemWidth" : "AWidth")));
  b.logic("mesh_b", Type::bits("Dim*BWidth"));
  b.logic("mesh_d", Type::bits("Dim*DWidth"));
  if (!td_) {
    b.logic("t_col", Type::bits("SpRowWidth"), "transposer column");
    b.logic("fill_wr_q", Type::bit(), "a transposer row arrives this cycle");
    b.logic("fill_wr_buf_q", Type::bit());
    b.logic("fill_wr_row_q", Type::bits("IdxBits"));
    auto& t = b.instance(names::kTransposer, "u_transposer");
    t.comment = "elements are groups of Lanes values: column t holds A[.][t*Lanes +: Lanes]";
    t.params = {{"Dim", "Dim"}, {"Width", "Lanes*ElemWidth"}, {"IndexWidth", "IdxBits"}};
    t.conns = {{"clk_i", "clk_i"},
               {"wr_valid_i", "fill_wr_q"},
               {"wr_buf_i", "fill_wr_buf_q"},
               {"wr_row_i", "fill_wr_row_q"},
               {"wr_data_i", "spa_rdata_i"},
               {"rd_buf_i", "d_tbuf_q"},
               {"rd_col_i", "d_col_q"},
               {"rd_data_o", "t_col"}};
  }
  operandLanes(b);
}

// Operand c of each input (a: row c of the mesh; b, d: column c): a group of Lanes values (A,
// B and WS weights: docs/isa.md, "Vector PEs") or one element (WS bias, OS initial
// accumulators), masked to the operand's rows and columns.
void ExecuteControllerGenerator::operandLanes(vlog::Body& b) const {
  const std::string g = "Lanes*ElemWidth"; // a group: the Lanes values one PE takes per beat
  vlog::Body& lane = b.genFor("c", "Dim", "gen_lane");
  lane.comment("Operand c of each input (a: row c of the mesh; b, d: column c): a group of Lanes "
               "values (A, B and WS weights: docs/isa.md, \"Vector PEs\") or one element (WS "
               "bias, OS initial accumulators).");
  lane.logic("a_sp_g", Type::bits(g), "WS: A[i][c*Lanes +: Lanes]");
  if (!td_)
    lane.logic("a_t_g", Type::bits(g), "OS: A[c][t*Lanes +: Lanes] from the transposer");
  lane.logic("b_g", Type::bits(g), "OS: lane-packed B row, group c");
  lane.logic("d_g", Type::bits(g), "WS: lane-packed weight row, group c");
  lane.logic("a_val", Type::bits(g));
  lane.logic("b_pk", Type::bits(g), "b_g with the columns beyond B masked");
  lane.logic("d_pk", Type::bits(g));
  lane.logic("b_val", Type::bits("BWidth"));
  lane.logic("d_val", Type::bits("DWidth"));
  lane.assign("a_sp_g", "a_rdata[c*" + g + " +: " + g + "]");
  if (!td_)
    lane.assign("a_t_g", "t_col[c*" + g + " +: " + g + "]");
  lane.assign("b_g", "b_rdata[c*" + g + " +: " + g + "]");
  lane.assign("d_g", "d_rdata[c*" + g + " +: " + g + "]");
  vlog::Body& el = lane.genFor("l", "Lanes", "gen_elem");
  el.comment("Element l of the group: column c*Lanes+l of a scratchpad row; a WS A element "
             "beyond A's columns, an OS A element beyond A's rows or columns, and B / weight "
             "elements beyond their columns are zero.");
  el.logic("idx", Type::bits("ColCalcBits"), "c*Lanes + l");
  el.assign("idx", "ColCalcBits'(c*Lanes + l)");
  const std::string aSp = "(d_a_src_q == SrcSp && idx < ColCalcBits'(d_a_cols_q)) ?\n"
                          "        a_sp_g[l*ElemWidth +: ElemWidth] :\n        ";
  if (td_) { // OS operands reach the array through the TensorDash front end
    el.assign("a_val[l*ElemWidth +: ElemWidth]", aSp + "'0");
  } else {
    el.logic("t_idx", Type::bits("ColCalcBits"), "OS: reduction index of the transposer element");
    el.assign("t_idx", "ColCalcBits'(d_col_q) * ColCalcBits'(Lanes) + ColCalcBits'(l)");
    el.assign("a_val[l*ElemWidth +: ElemWidth]",
              aSp +
                  "(d_a_src_q == SrcTransposer && DimBits'(c) < d_a_rows_q &&\n"
                  "         t_idx < ColCalcBits'(d_a_cols_q)) ? a_t_g[l*ElemWidth +: ElemWidth] : "
                  "'0");
  }
  el.assign("b_pk[l*ElemWidth +: ElemWidth]",
            "idx < ColCalcBits'(d_b_cols_q) ? b_g[l*ElemWidth +: ElemWidth] : '0");
  el.assign("d_pk[l*ElemWidth +: ElemWidth]",
            "idx < ColCalcBits'(d_d_cols_q) ? d_g[l*ElemWidth +: ElemWidth] : '0");
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
  if (!td_) { // OS with a transposed B: element c of the transposer column is B[t][c]
    lane.logic("b_t_val", Type::bits("BWidth"));
    lane.assign("b_t_val", "(DimBits'(c) < d_b_rows_q && ColCalcBits'(d_col_q) < "
                           "ColCalcBits'(d_b_cols_q)) ?\n"
                           "        BWidth'(t_col[c*ElemWidth +: ElemWidth]) : '0");
  }
  lane.assign("b_val", std::string(td_ ? "" : "d_b_src_q == SrcTransposer ? b_t_val :\n        ") +
                           "d_b_src_q == SrcZero ? '0 : !d_ws_q ? BWidth'(b_pk) :\n"
                           "        ColBits'(c) >= d_b_cols_q ? '0 :\n"
                           "        d_b_src_q == SrcAcc ? BWidth'(b_acc_out) : BWidth'(b_sp_out)");
  if (!td_) { // WS with a transposed B: element c of the transposer column is B[t][c]
    lane.logic("d_t_val", Type::bits("DWidth"));
    lane.assign("d_t_val", "(DimBits'(c) < d_d_trows_q && ColCalcBits'(d_col_q) < "
                           "ColCalcBits'(d_d_cols_q)) ?\n"
                           "        DWidth'(t_col[c*ElemWidth +: ElemWidth]) : '0");
  }
  lane.assign("d_val",
              std::string(tdB_  ? "d_d_src_q == SrcTransposer ? DWidth'(dt_col[c*OutWidth +: "
                                  "OutWidth]) :\n        "
                          : td_ ? ""
                                : "d_d_src_q == SrcTransposer ? d_t_val :\n        ") +
                  "d_d_src_q == SrcZero ? '0 : d_ws_q ? DWidth'(d_pk) :\n"
                  "        ColBits'(c) >= d_d_cols_q ? '0 :\n"
                  "        d_d_src_q == SrcAcc ? DWidth'(d_acc_out) : DWidth'(d_sp_out)");
  lane.assign("mesh_a[c*" + g + " +: " + g + "]", "a_val");
  lane.logic("unused_lane", Type::bit(), "widths a dataflow-only config does not use");
  lane.assign("unused_lane", "^{b_sp_out, b_acc_out, d_sp_out, d_acc_out, b_pk, d_pk}");
  lane.assign("mesh_b[c*BWidth +: BWidth]", "b_val");
  lane.assign("mesh_d[c*DWidth +: DWidth]", "d_val");
  b.blank();
}

// The mesh (or, on TensorDash configs, the feeder and the TensorDash array): res_valid and
// res_data, the result rows leaving it.
void ExecuteControllerGenerator::array(vlog::Body& b) const {
  const ArrayParams& a = p_.array;
  b.logic("res_valid", Type::bit());
  b.logic("res_data", Type::bits("Dim*OutWidth"));
  if (td_) {
    emitTdArray(b, p_, ex_);
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
}

// Result tags wait in a FIFO for their beat's result (every valid beat yields one result, in
// order, mesh latency later); the row written this cycle (wb_*) goes to the scratchpad
// (activated, saturated) or the accumulator.
void ExecuteControllerGenerator::writeBack(vlog::Body& b) const {
  b.comment("Result tags wait in a FIFO for their beat's result (every valid beat yields one "
            "result, in order, mesh latency later).");
  b.logic("tag_valid", Type::bit());
  b.logic("tag", Type::bits("TagWidth"));
  b.logic("tag_ready", Type::bit());
  auto& f = b.instance(names::kFifo, "u_tags");
  f.params = {{"Width", "TagWidth"}, {"Depth", "TagDepth"}};
  f.conns = {{"clk_i", "clk_i"},           {"rst_ni", "rst_ni"},     {"in_valid_i", "d_valid_q"},
             {"in_ready_o", "tag_ready"},  {"in_data_i", "d_tag_q"}, {"out_valid_o", "tag_valid"},
             {"out_ready_i", "res_valid"}, {"out_data_o", "tag"}};
  tag_.unpack(b, "tag", "t_");
  b.comment("The row written this cycle: a result as its tag says, or (TensorDash) a row of a "
            "transposed drain's write-out.");
  const std::vector<std::pair<std::string, vlog::Type>> wbFields = {
      {"valid", Type::bit()},          {"acc", Type::bit()},
      {"accumulate", Type::bit()},     {"relu", Type::bit()},
      {"row", Type::bits("RowBits")},  {"cols", Type::bits("DimBits")},
      {"entry", Type::bits("OpBits")}, {"data", Type::bits("Dim*OutWidth")}};
  for (const auto& [name, type] : wbFields)
    b.logic("wb_" + name, type);
  if (tdB_) {
    emitTdTransposedDrain(b, p_);
  } else {
    b.assign("wb_valid", "res_valid && t_we");
    for (const char* name : {"acc", "accumulate", "relu", "row", "cols", "entry"})
      b.assign(std::string("wb_") + name, std::string("t_") + name);
    b.assign("wb_data", "res_data");
  }
  b.logic("write", Type::bit());
  b.assign("write", "wb_valid");
  b.assign("spw_valid_o", "write && !wb_acc");
  b.assign("spw_row_o", "SpRowBits'(wb_row)");
  b.assign("accw_valid_o", "write && wb_acc");
  b.assign("accw_row_o", "AccRowBits'(wb_row)");
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
  out.assign("spw_mask_o[c]", "DimBits'(c) < wb_cols");
  if (p_.spElems > p_.dim) {
    b.comment("Results fill the first DIM elements of a scratchpad row (vector PEs).");
    b.assign("spw_data_o[SpElems*ElemWidth-1:Dim*ElemWidth]", "'0");
    b.assign("spw_mask_o[SpElems-1:Dim]", "'0");
  }
  out.assign("accw_mask_o[c]", "DimBits'(c) < wb_cols");
  b.blank();
}

// beat_o, compute_beat_o, macs_o and busy_o.
void ExecuteControllerGenerator::status(vlog::Body& b) const {
  b.assign("beat_o", "d_valid_q");
  b.assign("compute_beat_o", "d_valid_q && d_compute_q");
  b.assign("macs_o",
           "!(d_valid_q && d_compute_q) ? '0 : " +
               std::string(td_ ? "d_td_q ? MacBits'(td_issued) * MacBits'(TdSelectMacs) : " : "") +
               "MacBits'(DenseMacs)");
  b.assign("busy_o",
           std::string(td_ ? "td_feeder_busy || td_fe_busy || pq_count_q != '0 || " : "") +
               "cur_valid_q || nxt_valid_q || d_valid_q || opt_valid_q != '0 ||\n"
               "      drain_pend_q || drain_act_q");
}

void ExecuteControllerGenerator::nextState(vlog::Stmts& n) const {
  nextOperations(n);
  nextBeat(n);
  nextTables(n);
}

// Accept into the lookahead slot; promote the next operation when the current one is done (or
// absent); a finished current operation's accumulation waits for its drain.
void ExecuteControllerGenerator::nextOperations(vlog::Stmts& n) const {
  if (lookahead_ > 1) {
    nextQueue(n);
  } else {
    n.comment("Accept into the lookahead slot.");
    n.ifElse("accept", [&](vlog::Stmts& s) {
      s.line("nxt_d = in_payload;").line("nxt_entry_d = opt_free_idx;");
      optable::alloc(s, "in_id");
      if (!td_) {
        s.line("nxt_buf_d = buf_sel_q;");
        s.ifElse("accept_needs_buf", [](vlog::Stmts& t) { t.line("buf_sel_d = !buf_sel_q;"); });
      }
    });
    n.comment("Promote the next operation when the current one is done (or absent).");
    n.ifElse(
        "(!cur_valid_q || cur_last) && (nxt_valid_q || accept)",
        [&](vlog::Stmts& s) {
          s.ifElse(
              "nxt_valid_q",
              [&](vlog::Stmts& t) {
                t.line("cur_valid_d = 1'b1;")
                    .line("cur_d = nxt_q;")
                    .line("cur_entry_d = nxt_entry_q;");
                if (!td_)
                  t.line("cur_buf_d = nxt_buf_q;");
                t.line("cur_beat_d = '0;");
                t.line("cur_flipped_d = !nxt_flip;");
                t.line("nxt_valid_d = accept;");
              },
              [&](vlog::Stmts& t) {
                t.comment("Straight from the reservation station into the current slot.");
                t.line("cur_valid_d = 1'b1;")
                    .line("cur_d = in_payload;")
                    .line("cur_entry_d = opt_free_idx;")
                    .line("cur_beat_d = '0;")
                    .line("cur_flipped_d = !in_flip;")
                    .line("nxt_valid_d = 1'b0;");
                if (!td_) // the buffer it was given when accepted
                  t.line("cur_buf_d = buf_sel_q;");
              });
        },
        [&](vlog::Stmts& s) {
          s.ifElse("cur_last", [](vlog::Stmts& t) { t.line("cur_valid_d = 1'b0;"); });
          s.ifElse("accept", [](vlog::Stmts& t) { t.line("nxt_valid_d = 1'b1;"); });
          s.ifElse("cur_valid_q && !cur_last",
                   [](vlog::Stmts& t) { t.line("cur_beat_d = cur_beat_next;"); });
          s.ifElse("flip_op && beat_go", [](vlog::Stmts& t) { t.line("cur_flipped_d = 1'b1;"); });
        });
  }
  n.comment("A finished current operation: its beats are all issued; an ended OS "
            "accumulation waits for its drain. A transposer buffer is freed.");
  n.ifElse("cur_last", [&](vlog::Stmts& s) {
    s.ifElse(
        "cur_ends_acc",
        [&](vlog::Stmts& t) {
          t.line("drain_pend_d = 1'b1;")
              .line("pend_c_row_d = cur_c_row;")
              .line("pend_c_rows_d = cur_c_rows;")
              .line("pend_c_cols_d = DimBits'(cur_c_cols);")
              .line("pend_c_stride_d = cur_c_stride;")
              .line("pend_acc_d = cur_c_acc;")
              .line("pend_accumulate_d = cur_c_accumulate;")
              .line("pend_relu_d = cur_relu;")
              .line("pend_entry_d = cur_entry_q;");
          if (p_.array.hasOs)
            t.line("pend_shift_d = cur_shift;");
          if (tdB_)
            t.line("pend_tr_d = cur_td_side;");
        },
        [](vlog::Stmts& t) { t.line("opt_issued_d[cur_entry_q] = 1'b1;"); });
    if (!td_)
      s.ifElse("cur_needs_buf", [](vlog::Stmts& t) { t.line("buf_ready_d[cur_buf_q] = 1'b0;"); });
  });
}

// The lookahead queue (lookahead_ > 1, never TensorDash): nxt, then pre0, pre1, .. with no
// gaps. When the current operation is done (or absent) the queue moves up one slot into it; an
// accepted operation takes the first free slot after that move (or goes straight into the
// current slot when the queue is empty).
void ExecuteControllerGenerator::nextQueue(vlog::Stmts& n) const {
  auto slot = [](int k) { return k == 0 ? std::string("nxt") : "pre" + num(k - 1); };
  n.comment("The lookahead queue: nxt, pre0, .. without gaps; it moves up one slot when the "
            "current operation is done (or absent); an accepted operation takes the first free "
            "slot after that move.");
  n.ifElse("accept", [&](vlog::Stmts& s) {
    optable::alloc(s, "in_id");
    s.ifElse("accept_needs_buf", [](vlog::Stmts& t) { t.line("buf_sel_d = !buf_sel_q;"); });
  });
  n.ifElse(
      "queue_shift",
      [&](vlog::Stmts& s) {
        s.line("cur_valid_d = 1'b1;")
            .line("cur_d = nxt_q;")
            .line("cur_entry_d = nxt_entry_q;")
            .line("cur_buf_d = nxt_buf_q;")
            .line("cur_beat_d = '0;")
            .line("cur_flipped_d = !nxt_flip;");
        for (int k = 0; k + 1 < lookahead_; ++k) {
          const std::string to = slot(k), from = slot(k + 1);
          s.line(to + "_valid_d = " + from + "_valid_q;")
              .line(to + "_d = " + from + "_q;")
              .line(to + "_entry_d = " + from + "_entry_q;");
        }
        s.line(slot(lookahead_ - 1) + "_valid_d = 1'b0;");
      },
      [&](vlog::Stmts& s) {
        s.ifElse(
            "(!cur_valid_q || cur_last) && accept",
            [](vlog::Stmts& t) {
              t.comment("Straight from the reservation station into the current slot.");
              t.line("cur_valid_d = 1'b1;")
                  .line("cur_d = in_payload;")
                  .line("cur_entry_d = opt_free_idx;")
                  .line("cur_buf_d = buf_sel_q;")
                  .line("cur_beat_d = '0;")
                  .line("cur_flipped_d = !in_flip;");
            },
            [](vlog::Stmts& t) {
              t.ifElse("cur_last", [](vlog::Stmts& u) { u.line("cur_valid_d = 1'b0;"); });
              t.ifElse("cur_valid_q && !cur_last",
                       [](vlog::Stmts& u) { u.line("cur_beat_d = cur_beat_next;"); });
              t.ifElse("flip_op && beat_go",
                       [](vlog::Stmts& u) { u.line("cur_flipped_d = 1'b1;"); });
            });
      });
  // The accepted operation's slot: the first free one after the move (in_ready leaves one).
  std::function<void(vlog::Stmts&, int)> take = [&](vlog::Stmts& s, int k) {
    const std::string o = slot(k);
    auto fill = [&](vlog::Stmts& t) {
      t.line(o + "_valid_d = 1'b1;")
          .line(o + "_d = in_payload;")
          .line(o + "_entry_d = opt_free_idx;");
      if (k == 0) // the buffer it was given (only the next slot takes such operations)
        t.line("nxt_buf_d = buf_sel_q;");
    };
    if (k + 1 == lookahead_)
      fill(s);
    else
      s.ifElse("queue_shift ? !" + slot(k + 1) + "_valid_q : !" + o + "_valid_q", fill,
               [&](vlog::Stmts& t) { take(t, k + 1); });
  };
  n.ifElse("accept && (queue_shift || (cur_valid_q && !cur_last))",
           [&](vlog::Stmts& s) { take(s, 0); });
}

// Beats: the flip state, the planned flip and the drain.
void ExecuteControllerGenerator::nextBeat(vlog::Stmts& n) const {
  n.comment("Beats: flip state and the planned flip.");
  n.ifElse("beat_go", [&](vlog::Stmts& s) {
    s.ifElse(
        "flip_now",
        [&](vlog::Stmts& t) {
          t.line("prop_d = !prop_q;").line("ev_valid_d = 1'b0;");
          if (lookahead_ > 1)
            t.line("ev_far_d = 1'b0;");
          t.ifElse("drain_pend_q", [&](vlog::Stmts& u) {
            u.comment("The operation ending with this beat (if any) becomes the pending drain.");
            u.line("drain_pend_d = cur_last && cur_ends_acc;")
                .line("drain_act_d = 1'b1;")
                .line("drain_j_d = DimBits'(1);");
            for (const auto& f : drainFields_)
              u.line("drain_" + f.first + "_d = pend_" + f.first + "_q;");
          });
        },
        [&](vlog::Stmts& t) {
          t.ifElse("ev_valid_q",
                   [](vlog::Stmts& u) { u.line("ev_dist_d = ev_dist_q - DistBits'(1);"); });
          t.ifElse("drain_act_q", [&](vlog::Stmts& u) {
            u.ifElse(
                "drain_j_q == DimBits'(Dim-1)",
                [](vlog::Stmts& v) {
                  v.line("drain_act_d = 1'b0;").line("opt_issued_d[drain_entry_q] = 1'b1;");
                },
                [](vlog::Stmts& v) { v.line("drain_j_d = drain_j_q + DimBits'(1);"); });
          });
        });
  });
  if (p_.dim == 1) {
    n.comment("A drain of one row (DIM = 1) ends with its flip beat.");
    n.ifElse("beat_go && flip_now && drain_pend_q", [](vlog::Stmts& s) {
      s.line("drain_act_d = 1'b0;").line("opt_issued_d[pend_entry_q] = 1'b1;");
    });
  }
  n.ifElse("plan_cur || plan_nxt || plan_far || plan_drain", [&](vlog::Stmts& s) {
    s.line("ev_valid_d = 1'b1;").line("ev_drain_d = plan_drain;").line("ev_dist_d = ev_dist_plan;");
    if (lookahead_ > 1) {
      s.line("ev_far_d = plan_far;");
      for (const char* f : {"bd_garbage", "bd_acc", "bd_row", "bd_rows", "bd_cols"})
        s.line(std::string("evf_") + f + "_d = far_" + f + ";");
    }
  });
  if (!td_) {
    n.comment("Transposer fills.");
    n.ifElse("fill_go", [](vlog::Stmts& s) { s.line("fill_row_d = fill_row_q + DimBits'(1);"); });
    n.ifElse(
        "fill_want && (fill_row_q == fill_rows || (fill_go && fill_row_q + DimBits'(1) == "
        "fill_rows))",
        [](vlog::Stmts& s) { s.line("buf_ready_d[fill_buf] = 1'b1;").line("fill_row_d = '0;"); });
  }
}

// Result rows outstanding per operation, the accumulator write's entry, completions; the
// TensorDash completions still to apply.
void ExecuteControllerGenerator::nextTables(vlog::Stmts& n) const {
  n.comment("Result rows outstanding per operation.");
  n.forLoop("i", "OpSlots", [&](vlog::Stmts& s) {
    s.line("opt_pending_d[i] = opt_pending_q[i]");
    s.line("    + PendBits'(beat_go && bt_we && bt_entry == OpBits'(i))");
    if (tdB_) // a transposed drain's rows are pending from its first beat on
      s.line("    + (beat_go && bt_tr && bt_col == IdxBits'(Dim-1) && bt_entry == OpBits'(i) ?\n"
             "       PendBits'(bt_c_rows) : '0)");
    s.line("    - PendBits'(write && !wb_acc && wb_entry == OpBits'(i))");
    s.line("    - PendBits'(accw_done_i && acc_wr_entry_q == OpBits'(i));");
  });
  n.ifElse("accw_valid_o", [](vlog::Stmts& s) { s.line("acc_wr_entry_d = wb_entry;"); });
  optable::release(n);
  if (td_)
    n.line("td_done_d = td_done_q + (td_beat_go ? td_done : '0) - TdDoneBits'(cur_last && "
           "!cur_ws);");
}

// Stage D's registers: d_valid (and d_td) with reset, the rest loaded with the beat.
void ExecuteControllerGenerator::stageDRegisters(vlog::Body& b) const {
  std::vector<vlog::Flop> valid = {{"d_valid_q", "beat_go", "1'b0"}};
  if (td_)
    valid.emplace_back("d_td_q", "td_beat_go", "1'b0");
  else
    valid.emplace_back("fill_wr_q", "fill_go", "1'b0");
  b.flops(vlog::FlopsItem(valid));
  std::vector<vlog::Flop> beat = {
      {"d_prop_q", "flip_now ? !prop_q : prop_q"},
      {"d_ws_q", "is_compute ? cur_ws : stream_on ? ev_ws : draining ? 1'b0 : cur_ws"}};
  if (p_.array.hasOs)
    beat.emplace_back("d_shift_q", "dr_shift");
  if (td_) { // OS compute beats come from the TensorDash front end (d_td_q)
    beat.emplace_back("d_a_src_q", "need_a ? SrcSp : SrcZero");
    beat.emplace_back("d_a_cols_q", "cur_a_cols");
  } else {
    beat.emplace_back(
        "d_a_src_q",
        "need_a ? SrcSp :\n"
        "        (is_compute && cur_a_tr && !cur_a_garbage) ? SrcTransposer : SrcZero");
    beat.emplace_back("d_a_cols_q", "cur_a_cols");
    beat.emplace_back("d_a_rows_q", "cur_a_rows");
    beat.emplace_back("d_b_rows_q", "cur_d_rows");
    beat.emplace_back("d_col_q", "stream_t ? IdxBits'(stream_idx) : IdxBits'(beat_idx)");
    beat.emplace_back("d_tbuf_q", "stream_t ? ev_buf : cur_buf_q");
    beat.emplace_back("d_d_trows_q", "ev_bd_rows");
  }
  beat.emplace_back("d_b_src_q", "(is_compute && cur_b_tr && !cur_d_garbage) ? SrcTransposer :\n"
                                 "        !need_b ? SrcZero : b_from_acc ? SrcAcc : SrcSp");
  beat.emplace_back("d_b_cols_q", "cur_d_cols");
  if (tdB_) { // a B-scheduled flip streams columns of the D transposer
    beat.emplace_back("d_d_src_q", "stream_on && ev_tr && !ev_bd_garbage ? SrcTransposer :\n"
                                   "        !need_d ? SrcZero : ev_bd_acc ? SrcAcc : SrcSp");
    beat.emplace_back("d_dt_col_q", "IdxBits'(stream_idx)");
  } else {
    beat.emplace_back("d_d_src_q", std::string(td_ ? "" : "stream_t ? SrcTransposer :\n        ") +
                                       "!need_d ? SrcZero : ev_bd_acc ? SrcAcc : SrcSp");
  }
  beat.emplace_back("d_d_cols_q", "ev_bd_cols");
  beat.emplace_back("d_a_held_q", "got_a_q");
  beat.emplace_back("d_b_held_q", "got_b_q");
  beat.emplace_back("d_d_held_q", "got_d_q");
  beat.emplace_back("d_tag_q", "beat_tag");
  beat.emplace_back("d_compute_q", "is_compute");
  b.comment("A beat that flips for or carries an OS drain runs the array in OS mode.");
  b.flops(vlog::FlopsItem(beat, "beat_go"));
  if (!td_)
    b.flops(vlog::FlopsItem(
        {{"fill_wr_buf_q", "fill_buf"}, {"fill_wr_row_q", "IdxBits'(fill_row_q)"}}, "fill_go"));
}

} // namespace by::hw
