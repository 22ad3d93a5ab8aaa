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

#include "encodings.h"
#include "op_layouts.h"
#include "search.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {

// The controllers, in the order of opKindEncoding(): port prefix and operation kind.
const std::vector<std::pair<std::string, std::string>>& kinds() {
  static const std::vector<std::pair<std::string, std::string>> k = {
      {"ld", "OpLoad"}, {"st", "OpStore"}, {"ex", "OpExec"}};
  return k;
}

// The four ranges of an operation word: three reads, then the write (kRangeWrite).
const char* const kRangeNames[kRangesPerOp] = {"rd0", "rd1", "rd2", "wr"};

} // namespace

ReservationStationGenerator::ReservationStationGenerator(const AccelParams& p)
    : p_(p), range_(rangeLayout(p)) {}

vlog::Module ReservationStationGenerator::build() const {
  vlog::Module m(names::kReservationStation,
                 "Reservation station with " + num(p_.rsEntries) +
                     " slots: dependency tracking across the load, store and execute queues "
                     "(in order within each queue). Range layout {" +
                     range_.describe() + "}; the ranges word holds reads 0-2 then the write.");
  ports(m);
  vlog::Body& b = m.body();
  b.localParam("Entries", num(p_.rsEntries));
  b.localParam("CountBits", "IdBits+1", "holds 0..Entries");
  declareEnum(b, opKindEncoding());
  StateRegs regs(b);
  regs.add("valid", Type::bits("Entries"), "'0", "slot holds an operation");
  b.logicArray("deps_q", Type::bits("Entries"), "Entries", "older operations to wait for",
               "mem2reg");
  b.logicArray("kind_q", Type::bits("KindBits"), "Entries", "", "mem2reg");
  b.logicArray("payload_q", Type::bits("PayloadWidth"), "Entries", "", "mem2reg");
  b.logicArray("ranges_q", Type::bits("RangesWidth"), "Entries", "", "mem2reg");
  b.blank();

  b.comment("Slots completed this cycle (by any controller).");
  b.logic("done_mask", Type::bits("Entries"));
  b.assign("done_mask", "(ld_done_i ? Entries'(1) << ld_done_id_i : '0) |\n"
                        "      (st_done_i ? Entries'(1) << st_done_id_i : '0) |\n"
                        "      (ex_done_i ? Entries'(1) << ex_done_id_i : '0)");
  b.blank();
  b.comment("Allocation: the lowest free slot; dependencies against every live slot.");
  firstIndex(b, "Entries", "!valid_q[i]", "any_free", "free_slot", "IdBits");
  conflicts(b);
  queues(b);

  b.comment("Next state: completions clear their slot and dependency bit everywhere; an "
            "allocation takes the free slot, with the live slots it conflicts with.");
  regs.next().line("valid_d = valid_q & ~done_mask;").ifElse("alloc_fire", [](vlog::Stmts& s) {
    s.line("valid_d[free_slot] = 1'b1;");
  });
  // The search runs in the clocked block, under alloc_fire: the same logic to synthesis, but a
  // Verilated model compares the slots only in a cycle that allocates.
  vlog::SeqItem& deps = b.sequential();
  deps.reset.forLoop("i", "Entries", [](vlog::Stmts& s) { s.line("deps_q[i] <= '0;"); });
  deps.clocked
      .forLoop("i", "Entries",
               [](vlog::Stmts& s) { s.line("deps_q[i] <= deps_q[i] & ~done_mask;"); })
      .ifElse("alloc_fire", [](vlog::Stmts& s) {
        s.forLoop("i", "Entries", [](vlog::Stmts& t) {
          t.line("deps_q[free_slot][i] <= valid_q[i] && !done_mask[i] &&\n"
                 "    conflicts(ranges_q[i], kind_q[i], alloc_ranges_i, alloc_kind_i);");
        });
      });
  b.comment("The slot's operation, stored at allocation.");
  b.clocked().clocked.ifElse("alloc_fire", [](vlog::Stmts& s) {
    s.line("kind_q[free_slot] <= alloc_kind_i;")
        .line("payload_q[free_slot] <= alloc_payload_i;")
        .line("ranges_q[free_slot] <= alloc_ranges_i;");
  });
  b.blank();
  status(b);
  return m;
}

void ReservationStationGenerator::ports(vlog::Module& m) const {
  m.param("IdBits", num(p_.rsIdBits), "a slot: the operation's id");
  m.param("PayloadWidth", num(opPayloadWidth(p_)), "operation payload slot");
  m.param("RangesWidth", num(kRangesPerOp * range_.width()), "an operation's four ranges");
  m.param("KindBits", num(opKindEncoding().width), "op_kind_e");
  m.clockAndReset();
  m.portGroup("Allocation (from the decoder).");
  m.input("alloc_valid_i", Type::bit());
  m.output("alloc_ready_o", Type::bit(), "a slot and a queue place are free");
  m.input("alloc_kind_i", Type::bits("KindBits"), "op_kind_e: OpLoad, OpStore or OpExec");
  m.input("alloc_payload_i", Type::bits("PayloadWidth"));
  m.input("alloc_ranges_i", Type::bits("RangesWidth"));
  for (const auto& [k, kind] : kinds()) {
    m.portGroup("Dispatch to and completion from the " + k + " controller (" + kind + ").");
    m.output(k + "_valid_o", Type::bit());
    m.input(k + "_ready_i", Type::bit());
    m.output(k + "_id_o", Type::bits("IdBits"));
    m.output(k + "_payload_o", Type::bits("PayloadWidth"));
    m.input(k + "_done_i", Type::bit(), "operation _done_id_i completed");
    m.input(k + "_done_id_i", Type::bits("IdBits"));
  }
  m.portGroup("Status.");
  m.output("busy_o", Type::bit(), "operations in flight");
  m.output("full_o", Type::bit());
  m.output("ld_count_o", Type::bits("IdBits+1"));
  m.output("st_count_o", Type::bits("IdBits+1"));
  m.output("ex_count_o", Type::bits("IdBits+1"));
  m.output("stall_o", Type::bit(), "a queue head waits for an older operation");
}

// conflicts(old ranges, old kind, new ranges, new kind): the old operation must complete before
// the new one starts.
void ReservationStationGenerator::conflicts(vlog::Body& b) const {
  b.localParam("RangeWidth", num(range_.width()), "one range {" + range_.describe() + "}");
  std::vector<std::pair<std::string, Type>> locals;
  for (const char* side : {"old_", "new_"})
    for (const char* r : kRangeNames)
      locals.emplace_back(side + std::string(r), Type::bits("RangeWidth"));
  locals.emplace_back("raw", Type::bit());
  locals.emplace_back("war", Type::bit());
  locals.emplace_back("waw", Type::bit());
  b.comment("The old operation must complete first: it writes rows the new one reads (raw), or, "
            "unless both are execute operations, reads rows it writes (war) or writes them too "
            "(waw).");
  vlog::Stmts& f = b.function("conflicts", Type::bit(),
                              {{"old_ranges", Type::bits("RangesWidth")},
                               {"old_kind", Type::bits("KindBits")},
                               {"new_ranges", Type::bits("RangesWidth")},
                               {"new_kind", Type::bits("KindBits")}},
                              locals);
  for (int r = 0; r < kRangesPerOp; ++r)
    for (const char* side : {"old", "new"})
      f.line(side + std::string("_") + kRangeNames[r] + " = " + side + "_ranges[" + num(r) +
             "*RangeWidth +: RangeWidth];");
  // Range `a` of the old operation overlaps range `bIdx` of the new one.
  auto overlap = [this](int a, int bIdx) {
    const std::string o = std::string("old_") + kRangeNames[a];
    const std::string n = std::string("new_") + kRangeNames[bIdx];
    auto f = [this](const std::string& vec, const char* field) { return range_.slice(vec, field); };
    return "(" + f(o, "valid") + " && " + f(n, "valid") + " && " + f(o, "acc") +
           " == " + f(n, "acc") + " &&\n        " + f(o, "start") + " < " + f(n, "end") + " && " +
           f(n, "start") + " < " + f(o, "end") + ")";
  };
  std::string raw, war;
  for (int r = 0; r < kRangeWrite; ++r) {
    raw += (r ? " ||\n      " : "") + overlap(kRangeWrite, r);
    war += (r ? " ||\n      " : "") + overlap(r, kRangeWrite);
  }
  f.line("raw = " + raw + ";");
  f.line("war = " + war + ";");
  f.line("waw = " + overlap(kRangeWrite, kRangeWrite) + ";");
  f.line("conflicts = raw || (!(old_kind == OpExec && new_kind == OpExec) && (war || waw));");
  b.blank();
}

// Issue queues: slot ids in program order, one per kind; a head goes to its controller when it
// waits for nothing. Drives <k>_valid_o/_id_o/_payload_o, alloc_ready_o and alloc_fire.
void ReservationStationGenerator::queues(vlog::Body& b) const {
  b.comment("Issue queues: slot ids in program order, one queue per kind.");
  b.logic("alloc_fire", Type::bit());
  std::string allQueuesReady;
  for (const auto& [k, kind] : kinds()) {
    b.logic(k + "_push", Type::bit());
    b.logic(k + "_q_ready", Type::bit());
    b.logic(k + "_head_valid", Type::bit());
    b.logic(k + "_head", Type::bits("IdBits"));
    b.logic(k + "_pop", Type::bit());
    b.assign(k + "_push", "alloc_fire && alloc_kind_i == " + kind);
    auto& fifo = b.instance(names::kFifo, "u_" + k + "_queue");
    fifo.params = {{"Width", "IdBits"}, {"Depth", "Entries"}};
    fifo.conns = {{"clk_i", "clk_i"},          {"rst_ni", "rst_ni"},
                  {"in_valid_i", k + "_push"}, {"in_ready_o", k + "_q_ready"},
                  {"in_data_i", "free_slot"},  {"out_valid_o", k + "_head_valid"},
                  {"out_ready_i", k + "_pop"}, {"out_data_o", k + "_head"}};
    b.assign(k + "_valid_o", k + "_head_valid && deps_q[" + k + "_head] == '0");
    b.assign(k + "_id_o", k + "_head");
    b.assign(k + "_payload_o", "payload_q[" + k + "_head]");
    b.assign(k + "_pop", k + "_valid_o && " + k + "_ready_i");
    allQueuesReady += (allQueuesReady.empty() ? "" : " && ") + k + "_q_ready";
  }
  b.comment("Every slot id is in at most one queue, so a queue never overflows; its ready is "
            "checked anyway.");
  b.assign("alloc_ready_o", "any_free && " + allQueuesReady);
  b.assign("alloc_fire", "alloc_valid_i && alloc_ready_o");
  b.blank();
}

// busy_o, full_o, stall_o and the operations of each kind in the station.
void ReservationStationGenerator::status(vlog::Body& b) const {
  b.assign("busy_o", "valid_q != '0");
  b.assign("full_o", "!any_free");
  b.assign("stall_o", "(ld_head_valid && !ld_valid_o) || (st_head_valid && !st_valid_o) ||\n"
                      "      (ex_head_valid && !ex_valid_o)");
  for (const auto& [k, kind] : kinds()) {
    const std::string out = k + "_count_o";
    b.comb().line(out + " = '0;").forLoop("i", "Entries", [&](vlog::Stmts& t) {
      t.line(out + " = " + out + " + CountBits'(valid_q[i] && kind_q[i] == " + kind + ");");
    });
  }
}

} // namespace by::hw
