// The reservation station: orders operations across the load, store and execute queues.
//
// Each operation gets a slot and, at allocation, the set of older operations it must wait for
// (its dependency vector): those whose local row ranges conflict with its own. A conflict is
// read-after-write, write-after-read or write-after-write on overlapping rows of the same
// memory, except that between two execute operations only read-after-write counts: the
// execute controller reads and writes in program order. An operation is dispatched to its
// controller when it is the oldest waiting operation of its kind and its dependency vector is
// empty; when a controller reports it complete, its bit is cleared in every vector and the
// slot is freed. Allocation compares one operation against all slots (no N x N comparisons).
#include "reservation_station.h"

#include "op_layouts.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {
const char* kKinds[] = {"ld", "st", "ex"};
} // namespace

vlog::Module ReservationStationGenerator::build() const {
  const AccelParams& p = p_;
  const PackedLayout range = rangeLayout(p);
  const int n = p.rsEntries;
  const int payload = opPayloadWidth(p);
  const int rangesWidth = kRangesPerOp * range.width();

  vlog::Module m(names::kReservationStation,
                 "Reservation station with " + num(n) +
                     " slots: dependency tracking across the load, store and execute queues "
                     "(in order within each queue). Range layout {" +
                     range.describe() + "}; the ranges word holds reads 0-2 then the write.");
  m.clockAndReset();
  m.portGroup("Allocation (from the decoder).");
  m.input("alloc_valid_i", Type::bit());
  m.output("alloc_ready_o", Type::bit(), "a slot and a queue place are free");
  m.input("alloc_kind_i", Type::bits(2), "0 load, 1 store, 2 execute");
  m.input("alloc_payload_i", Type::bits(payload));
  m.input("alloc_ranges_i", Type::bits(rangesWidth));
  for (const char* k : kKinds) {
    const std::string K = k;
    m.portGroup("Dispatch to and completion from the " + K + " controller.");
    m.output(K + "_valid_o", Type::bit());
    m.input(K + "_ready_i", Type::bit());
    m.output(K + "_id_o", Type::bits(p.rsIdBits));
    m.output(K + "_payload_o", Type::bits(payload));
    m.input(K + "_done_i", Type::bit(), "operation _done_id_i completed");
    m.input(K + "_done_id_i", Type::bits(p.rsIdBits));
  }
  m.portGroup("Status.");
  m.output("busy_o", Type::bit(), "operations in flight");
  m.output("full_o", Type::bit());
  m.output("ld_count_o", Type::bits(p.rsIdBits + 1));
  m.output("st_count_o", Type::bits(p.rsIdBits + 1));
  m.output("ex_count_o", Type::bits(p.rsIdBits + 1));
  m.output("stall_o", Type::bit(), "a queue head waits for an older operation");

  vlog::Body& b = m.body();
  b.localParam("Entries", num(n));
  b.localParam("IdBits", num(p.rsIdBits));
  b.logic("valid_q", Type::bits("Entries"), "slot holds an operation");
  b.logicArray("kind_q", Type::bits(2), "Entries", "", "mem2reg");
  b.logicArray("payload_q", Type::bits(payload), "Entries", "", "mem2reg");
  b.logicArray("ranges_q", Type::bits(rangesWidth), "Entries", "", "mem2reg");
  b.logicArray("deps_q", Type::bits("Entries"), "Entries", "older operations to wait for",
               "mem2reg");
  b.blank();

  // --- Completions.
  b.comment("Slots completed this cycle (by any controller).");
  b.logic("done_mask", Type::bits("Entries"));
  b.assign("done_mask", "(ld_done_i ? Entries'(1) << ld_done_id_i : '0) |\n"
                        "      (st_done_i ? Entries'(1) << st_done_id_i : '0) |\n"
                        "      (ex_done_i ? Entries'(1) << ex_done_id_i : '0)");
  b.blank();

  // --- Allocation.
  b.comment("Allocation: the lowest free slot; dependencies against every live slot.");
  b.logic("free_slot", Type::bits("IdBits"));
  b.logic("any_free", Type::bit());
  b.comb()
      .line("free_slot = '0;")
      .line("any_free = 1'b0;")
      .forLoop("i", "Entries", [](vlog::Stmts& s) {
        s.ifElse("!valid_q[Entries-1-i]", [](vlog::Stmts& t) {
          t.line("free_slot = IdBits'(Entries-1-i);").line("any_free = 1'b1;");
        });
      });
  // Range words of the new operation.
  auto rangeField = [&](const std::string& vec, int index, const std::string& f) {
    const PackedLayout::Field& fl = range.at(f);
    const int lsb = index * range.width() + fl.lsb;
    if (fl.width == 1)
      return vec + "[" + num(lsb) + "]";
    return vec + "[" + num(lsb + fl.width - 1) + ":" + num(lsb) + "]";
  };
  b.logic("new_deps", Type::bits("Entries"));
  b.logic("overlaps", Type::bits("Entries"), "per slot: a conflicting range");
  vlog::Body& cmp = b.genFor("i", "Entries", "gen_conflict");
  cmp.logic("old_ranges", Type::bits(rangesWidth));
  cmp.logic("same_exec", Type::bit(), "both are execute operations");
  cmp.assign("old_ranges", "ranges_q[i]");
  cmp.assign("same_exec",
             "kind_q[i] == 2'd" + num(kKindExec) + " && alloc_kind_i == 2'd" + num(kKindExec));
  // Overlap of range `a` of the old op and `b` of the new op.
  auto overlap = [&](int a, int bIdx) {
    return "(" + rangeField("old_ranges", a, "valid") + " && " +
           rangeField("alloc_ranges_i", bIdx, "valid") + " && " +
           rangeField("old_ranges", a, "acc") + " == " + rangeField("alloc_ranges_i", bIdx, "acc") +
           " &&\n         " + rangeField("old_ranges", a, "start") + " < " +
           rangeField("alloc_ranges_i", bIdx, "end") + " && " +
           rangeField("alloc_ranges_i", bIdx, "start") + " < " +
           rangeField("old_ranges", a, "end") + ")";
  };
  cmp.logic("raw", Type::bit(), "the old op writes rows the new op reads");
  cmp.logic("war", Type::bit(), "the old op reads rows the new op writes");
  cmp.logic("waw", Type::bit(), "both write the same rows");
  std::string raw, war;
  for (int r = 0; r < 3; ++r) {
    raw += (r ? " ||\n      " : "") + overlap(kRangeWrite, r);
    war += (r ? " ||\n      " : "") + overlap(r, kRangeWrite);
  }
  cmp.assign("raw", raw);
  cmp.assign("war", war);
  cmp.assign("waw", overlap(kRangeWrite, kRangeWrite));
  cmp.assign("overlaps[i]", "raw || (!same_exec && (war || waw))");
  b.assign("new_deps", "overlaps & valid_q & ~done_mask");
  b.blank();

  // --- Per-kind issue queues.
  b.comment("Issue queues: slot ids in program order, one queue per kind.");
  b.logic("alloc_fire", Type::bit());
  const std::vector<std::string> kinds = {"ld", "st", "ex"};
  std::string allQueuesReady;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const std::string K = kinds[k];
    b.logic(K + "_push", Type::bit());
    b.logic(K + "_q_ready", Type::bit());
    b.logic(K + "_head_valid", Type::bit());
    b.logic(K + "_head", Type::bits("IdBits"));
    b.logic(K + "_pop", Type::bit());
    b.assign(K + "_push", "alloc_fire && alloc_kind_i == 2'd" + num(static_cast<int>(k)));
    auto& fifo = b.instance(names::kFifo, "u_" + K + "_queue");
    fifo.params = {{"Width", "IdBits"}, {"Depth", "Entries"}};
    fifo.conns = {{"clk_i", "clk_i"},          {"rst_ni", "rst_ni"},
                  {"in_valid_i", K + "_push"}, {"in_ready_o", K + "_q_ready"},
                  {"in_data_i", "free_slot"},  {"out_valid_o", K + "_head_valid"},
                  {"out_ready_i", K + "_pop"}, {"out_data_o", K + "_head"}};
    b.assign(K + "_valid_o", K + "_head_valid && deps_q[" + K + "_head] == '0");
    b.assign(K + "_id_o", K + "_head");
    b.assign(K + "_payload_o", "payload_q[" + K + "_head]");
    b.assign(K + "_pop", K + "_valid_o && " + K + "_ready_i");
    allQueuesReady += (allQueuesReady.empty() ? "" : " && ") + K + "_q_ready";
  }
  b.comment("Every slot id is in at most one queue, so a queue never overflows; its ready is "
            "checked anyway.");
  b.assign("alloc_ready_o", "any_free && " + allQueuesReady);
  b.assign("alloc_fire", "alloc_valid_i && alloc_ready_o");
  b.blank();

  // --- State.
  vlog::SeqItem& q = b.sequential();
  q.reset.line("valid_q <= '0;").forLoop("i", "Entries", [](vlog::Stmts& s) {
    s.line("deps_q[i] <= '0;");
  });
  q.clocked.line("valid_q <= valid_q & ~done_mask;")
      .forLoop("i", "Entries",
               [](vlog::Stmts& s) { s.line("deps_q[i] <= deps_q[i] & ~done_mask;"); })
      .ifElse("alloc_fire", [](vlog::Stmts& s) {
        s.line("valid_q[free_slot] <= 1'b1;").line("deps_q[free_slot] <= new_deps;");
      });
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("alloc_fire", [](vlog::Stmts& s) {
    s.line("kind_q[free_slot] <= alloc_kind_i;")
        .line("payload_q[free_slot] <= alloc_payload_i;")
        .line("ranges_q[free_slot] <= alloc_ranges_i;");
  });
  b.blank();

  // --- Status.
  b.assign("busy_o", "valid_q != '0");
  b.assign("full_o", "!any_free");
  b.assign("stall_o", "(ld_head_valid && !ld_valid_o) || (st_head_valid && !st_valid_o) ||\n"
                      "      (ex_head_valid && !ex_valid_o)");
  for (size_t k = 0; k < kinds.size(); ++k) {
    vlog::Stmts& s = b.comb();
    const std::string out = kinds[k] + "_count_o";
    s.line(out + " = '0;");
    s.forLoop("i", "Entries", [&](vlog::Stmts& t) {
      t.line(out + " = " + out + " + (IdBits+1)'(valid_q[i] && kind_q[i] == 2'd" +
             num(static_cast<int>(k)) + ");");
    });
  }
  return m;
}

} // namespace by::hw
