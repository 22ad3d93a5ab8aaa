// Weight-stationary computes merged in the reservation station: up to kMaxComputePieces computes
// of DIM rows that continue one another take one station entry, so that its 32 entries look
// eight times as many beats ahead (the loops' output rows are computes of DIM pixels each).
//
// The merger sits between the decoder and the station. It holds back a WS compute that could
// start a run (DIM rows of A and C, no D, A not transposed) and folds in each following compute
// that continues it exactly: the same configuration, operands and columns, the array's weights
// kept (COMPUTE_ACCUMULATED with a GARBAGE B and D), and A's and C's first rows DIM rows (times
// their strides) after the previous piece's. The entry's ranges are the union of its pieces'
// (an interval from the first piece's start to the last one's end). Any other operation, or a
// command that is no PRELOAD or COMPUTE at the decoder (including none: a fence then sees the
// held entry as busy and it goes at once), sends the held entry to the station first.
//
// The splitter sits between the station and the execute controller. It hands an entry to the
// controller piece by piece, each piece exactly the operation word the decoder made of that
// compute: so the controller, and what the array computes, are unchanged. The controller may
// report its operations complete out of order; the splitter counts each entry's pieces in
// flight and reports the entry complete to the station when its last piece is done.
#include "exec_merge.h"

#include "encodings.h"
#include "op_layouts.h"
#include "state_regs.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {

// The fields a continuation must share with the run's first piece: everything but the rows
// that move on (a_row, c_row), the rows of the last piece, the weights' flip and operand (a
// continuation keeps them: GARBAGE) and the GARBAGE D.
bool sharedField(const std::string& name) {
  static const char* const own[] = {"flip",   "a_row",      "c_row",  "a_rows",
                                    "c_rows", "bd_garbage", "bd_acc", "bd_row"};
  for (const char* o : own)
    if (name == o)
      return false;
  return true;
}

} // namespace

ExecMergerGenerator::ExecMergerGenerator(const AccelParams& p)
    : p_(p), ex_(execOpLayout(p)), merged_(mergedExecLayout(p)), range_(rangeLayout(p)) {}

vlog::Module ExecMergerGenerator::build() const {
  vlog::Module m(names::kExecMerger,
                 "Compute merger: up to " + num(kMaxComputePieces) +
                     " weight-stationary computes that continue one another go to the "
                     "reservation station as one entry (exec_merge.cpp).");
  m.param("PayloadWidth", num(opPayloadWidth(p_)), "operation payload slot");
  m.param("RangesWidth", num(kRangesPerOp * range_.width()), "an operation's four ranges");
  m.param("KindBits", num(opKindEncoding().width), "op_kind_e");
  m.clockAndReset();
  m.portGroup("Operations from the decoder.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit());
  m.input("in_kind_i", Type::bits("KindBits"));
  m.input("in_payload_i", Type::bits("PayloadWidth"));
  m.input("in_ranges_i", Type::bits("RangesWidth"));
  m.input("ex_next_i", Type::bit(), "a PRELOAD or COMPUTE is at the decoder: keep holding");
  m.portGroup("Operations to the reservation station.");
  m.output("out_valid_o", Type::bit());
  m.input("out_ready_i", Type::bit());
  m.output("out_kind_o", Type::bits("KindBits"));
  m.output("out_payload_o", Type::bits("PayloadWidth"));
  m.output("out_ranges_o", Type::bits("RangesWidth"));
  m.output("busy_o", Type::bit(), "an entry is held");

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p_.dim));
  b.localParam("DimLog2", num(config::log2Exact(p_.dim)));
  b.localParam("RowBits", num(p_.localRowBits));
  b.localParam("PieceBits", num(kPieceBits));
  b.localParam("MaxPieces", num(kMaxComputePieces - 1), "pieces after the first");
  declareEnum(b, opKindEncoding());
  StateRegs regs(b);
  regs.add("held_valid", Type::bit(), "1'b0", "an entry is held")
      .add("held", Type::bits(num(merged_.width())), "'0", "its word (mergedExecLayout)")
      .add("held_ranges", Type::bits("RangesWidth"), "'0", "the union of its pieces' ranges")
      .add("next_a_row", Type::bits("RowBits"), "'0", "A's first row of a continuation")
      .add("next_c_row", Type::bits("RowBits"), "'0", "C's first row of a continuation");
  b.blank();
  b.comment("The incoming operation's fields (as an execute operation) and the held entry's.");
  b.logic("x", Type::bits(num(ex_.width())));
  b.assign("x", "in_payload_i[" + num(ex_.width() - 1) + ":0]");
  ex_.unpack(b, "x", "x_");
  std::vector<std::string> held = {"pieces", "last_rows"};
  for (const auto& f : ex_.fields())
    if (sharedField(f.name))
      held.push_back(f.name);
  merged_.unpack(b, "held_q", "h_", held);
  continuation(b);

  b.comment("Ranges: read 0 is A, 3 (the write) is C; a continuation moves their ends (a "
            "concatenation: Icarus takes no constant selects inside always_comb).");
  b.logic("merged_ranges", Type::bits("RangesWidth"));
  const PackedLayout::Field& end = range_.at("end");
  std::vector<std::string> parts; // most significant first
  int top = kRangesPerOp * range_.width();
  auto slice = [](const std::string& vec, int hi, int lo) {
    return vec + "[" + num(hi) + ":" + num(lo) + "]";
  };
  static_assert(kRangeWrite > 0, "the write range lies above read 0");
  for (int r : {kRangeWrite, 0}) {
    const int lo = r * range_.width() + end.lsb;
    const int hi = lo + end.width - 1;
    if (top > hi + 1)
      parts.push_back(slice("held_ranges_q", top - 1, hi + 1));
    parts.push_back(slice("in_ranges_i", hi, lo));
    top = lo;
  }
  if (top > 0)
    parts.push_back(slice("held_ranges_q", top - 1, 0));
  std::string cat;
  for (const auto& part : parts)
    cat += (cat.empty() ? "" : ", ") + part;
  b.assign("merged_ranges", "{" + cat + "}");

  b.comment("A held entry leaves when the next operation does not continue it, or when no "
            "PRELOAD or COMPUTE follows; an operation that can start a run takes its place in "
            "the same cycle, any other waits a cycle. With nothing held, starts are held and "
            "the rest pass through.");
  b.logic("flush", Type::bit(), "the held entry goes to the station");
  b.assign("flush", "held_valid_q && (in_valid_i ? !x_cont : !ex_next_i)");
  b.assign("out_valid_o", "held_valid_q ? flush : in_valid_i && !x_start");
  b.assign("out_kind_o", "held_valid_q ? OpExec : in_kind_i");
  b.assign("out_payload_o", "held_valid_q ? PayloadWidth'(held_q) : in_payload_i");
  b.assign("out_ranges_o", "held_valid_q ? held_ranges_q : in_ranges_i");
  b.assign("in_ready_o", "held_valid_q ? x_cont || (out_ready_i && x_start) :\n"
                         "      x_start || out_ready_i");
  b.assign("busy_o", "held_valid_q");
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", "^{x_bd_acc, x_bd_row}");

  b.logic("a_step", Type::bits("RowBits"), "DIM rows of A: DIM x a_stride");
  b.logic("c_step", Type::bits("RowBits"));
  b.assign("a_step", "RowBits'(x_a_stride) << DimLog2");
  b.assign("c_step", "RowBits'(x_c_stride) << DimLog2");
  const std::map<std::string, std::string> start = [&] {
    std::map<std::string, std::string> v;
    for (const auto& f : ex_.fields())
      v[f.name] = "x_" + f.name;
    v["pieces"] = "PieceBits'(0)";
    v["last_rows"] = "x_a_rows";
    return v;
  }();
  regs.next()
      .ifElse("in_valid_i && x_cont",
              [&](vlog::Stmts& s) {
                s.line(merged_.slice("held_d", "pieces") + " = h_pieces + PieceBits'(1);")
                    .line(merged_.slice("held_d", "last_rows") + " = x_a_rows;")
                    .line("held_ranges_d = merged_ranges;")
                    .line("next_a_row_d = next_a_row_q + a_step;")
                    .line("next_c_row_d = next_c_row_q + c_step;");
              })
      .ifElse("(!held_valid_q || (flush && out_ready_i))", [&](vlog::Stmts& s) {
        s.line("held_valid_d = in_valid_i && x_start;");
        s.ifElse("in_valid_i && x_start", [&](vlog::Stmts& t) {
          t.line("held_d = " + merged_.pack(start) + ";")
              .line("held_ranges_d = in_ranges_i;")
              .line("next_a_row_d = x_a_row + a_step;")
              .line("next_c_row_d = x_c_row + c_step;");
        });
      });
  return m;
}

// x_start: the incoming operation can begin a run; x_cont: it continues the held one.
void ExecMergerGenerator::continuation(vlog::Body& b) const {
  b.logic("x_exec", Type::bit(), "an execute operation");
  b.logic("x_start", Type::bit(), "a WS compute of DIM rows, no D, A as stored: a run's first");
  b.logic("x_shared", Type::bit(), "it has the held entry's shared fields");
  b.logic("x_cont", Type::bit(), "it continues the held entry");
  b.assign("x_exec", "in_valid_i && in_kind_i == OpExec");
  std::string start = "x_exec && x_ws && !x_a_garbage && !x_c_garbage && x_d_garbage &&\n"
                      "      x_a_rows == " +
                      num(p_.dimBits) + "'(Dim) && x_c_rows == " + num(p_.dimBits) + "'(Dim)";
  if (ex_.has("a_t"))
    start += " && !x_a_t";
  b.assign("x_start", start);
  std::string shared;
  for (const auto& f : ex_.fields())
    if (sharedField(f.name))
      shared +=
          std::string(shared.empty() ? "" : " &&\n      ") + "x_" + f.name + " == h_" + f.name;
  b.assign("x_shared", shared);
  b.assign("x_cont", "held_valid_q && x_exec && x_shared && !x_flip && x_bd_garbage &&\n"
                     "      h_pieces != PieceBits'(MaxPieces) && h_last_rows == " +
                         num(p_.dimBits) + "'(Dim) && x_a_rows == x_c_rows &&\n" +
                         "      x_a_row == next_a_row_q && x_c_row == next_c_row_q");
}

ExecSplitterGenerator::ExecSplitterGenerator(const AccelParams& p)
    : p_(p), ex_(execOpLayout(p)), merged_(mergedExecLayout(p)) {}

vlog::Module ExecSplitterGenerator::build() const {
  vlog::Module m(names::kExecSplitter,
                 "Compute splitter: hands a station entry to the execute controller piece by "
                 "piece and reports it complete when its last piece is (exec_merge.cpp).");
  m.param("IdBits", num(p_.rsIdBits), "a station slot");
  m.param("PayloadWidth", num(opPayloadWidth(p_)), "operation payload slot");
  m.clockAndReset();
  m.portGroup("Entries from the reservation station, and their completions.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit());
  m.input("in_id_i", Type::bits("IdBits"));
  m.input("in_payload_i", Type::bits("PayloadWidth"));
  m.output("in_done_valid_o", Type::bit());
  m.output("in_done_id_o", Type::bits("IdBits"));
  m.portGroup("Pieces to the execute controller, and their completions.");
  m.output("out_valid_o", Type::bit());
  m.input("out_ready_i", Type::bit());
  m.output("out_id_o", Type::bits("IdBits"));
  m.output("out_payload_o", Type::bits("PayloadWidth"));
  m.input("out_done_valid_i", Type::bit());
  m.input("out_done_id_i", Type::bits("IdBits"));

  vlog::Body& b = m.body();
  b.localParam("Entries", num(p_.rsEntries));
  b.localParam("Dim", num(p_.dim));
  b.localParam("DimLog2", num(config::log2Exact(p_.dim)));
  b.localParam("RowBits", num(p_.localRowBits));
  b.localParam("PieceBits", num(kPieceBits));
  b.localParam("CountBits", num(kPieceBits + 1), "0 .. kMaxComputePieces pieces");
  StateRegs regs(b);
  regs.add("piece", Type::bits("PieceBits"), "'0", "the head entry's next piece")
      .add("inflight", Type::bits("CountBits"), "'0", "per slot: pieces at the controller",
           "Entries");
  // A later piece's own fields (flip, B's operand, the rows) come from here, not the entry.
  std::vector<std::string> read = {"pieces", "last_rows"};
  for (const auto& f : ex_.fields())
    if (sharedField(f.name) || f.name == "a_row" || f.name == "c_row")
      read.push_back(f.name);
  merged_.unpack(b, "in_payload_i", "e_", read);
  b.blank();
  b.comment("Piece k > 0: the first piece's word with A and C k x DIM rows (times their strides) "
            "on, the weights kept (no flip, B GARBAGE: the address of all ones), DIM rows or "
            "the last piece's.");
  b.logic("last_piece", Type::bit());
  b.logic("a_off", Type::bits("RowBits"), "piece x DIM x a_stride");
  b.logic("c_off", Type::bits("RowBits"), "piece x DIM x c_stride");
  b.logic("piece_rows", Type::bits(num(p_.dimBits)));
  b.assign("last_piece", "piece_q == e_pieces");
  for (const char* o : {"a", "c"}) { // piece x step as a sum of shifted steps, one per piece bit
    const std::string st = std::string("(RowBits'(e_") + o + "_stride) << DimLog2)";
    std::string sum;
    for (int bit = 0; bit < kPieceBits; ++bit)
      sum += std::string(sum.empty() ? "" : " +\n      ") + "(piece_q[" + num(bit) + "] ? " + st +
             (bit ? " << " + num(bit) : "") + " : '0)";
    b.assign(std::string(o) + "_off", sum);
  }
  b.assign("piece_rows", "last_piece ? e_last_rows : " + num(p_.dimBits) + "'(Dim)");
  std::map<std::string, std::string> later;
  for (const std::string& f : read)
    if (ex_.has(f))
      later[f] = "e_" + f;
  later["flip"] = "1'b0";
  later["bd_garbage"] = "1'b1";
  later["bd_acc"] = "1'b1";
  later["bd_row"] = "{" + num(ex_.at("bd_row").width) + "{1'b1}}";
  later["a_row"] = "e_a_row + a_off";
  later["c_row"] = "e_c_row + c_off";
  later["a_rows"] = "piece_rows";
  later["c_rows"] = "piece_rows";
  b.logic("later", Type::bits(num(ex_.width())));
  b.assign("later", ex_.pack(later));
  b.assign("out_valid_o", "in_valid_i");
  b.assign("out_id_o", "in_id_i");
  b.assign("out_payload_o", "piece_q == '0 ? PayloadWidth'(in_payload_i[" + num(ex_.width() - 1) +
                                ":0]) : PayloadWidth'(later)");
  b.assign("in_ready_o", "out_ready_i && last_piece");
  if (opPayloadWidth(p_) > merged_.width()) {
    b.logic("unused_bits", Type::bit(), "the payload slot's bits above an execute entry");
    b.assign("unused_bits", "^in_payload_i[PayloadWidth-1:" + num(merged_.width()) + "]");
  }
  b.blank();
  b.comment("Completions: an entry is done when its last piece is issued and every piece has "
            "completed (the controller may finish them out of order).");
  b.logic("fire", Type::bit(), "a piece goes to the controller");
  b.logic("left", Type::bits("CountBits"),
          "the completing slot's pieces at the controller after this cycle");
  b.assign("fire", "in_valid_i && out_ready_i");
  b.assign("left", "inflight_q[out_done_id_i] - CountBits'(1) +\n"
                   "      CountBits'(fire && in_id_i == out_done_id_i)");
  b.assign("in_done_valid_o",
           "out_done_valid_i && left == '0 && !(in_valid_i && in_id_i == out_done_id_i)");
  b.assign("in_done_id_o", "out_done_id_i");
  regs.next()
      .ifElse("fire",
              [](vlog::Stmts& s) {
                s.line("piece_d = last_piece ? '0 : piece_q + PieceBits'(1);")
                    .line("inflight_d[in_id_i] = inflight_q[in_id_i] + CountBits'(1);");
              })
      .ifElse("out_done_valid_i",
              [](vlog::Stmts& s) { s.line("inflight_d[out_done_id_i] = left;"); });
  return m;
}

} // namespace by::hw
