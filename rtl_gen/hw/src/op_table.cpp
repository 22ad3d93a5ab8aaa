#include "op_table.h"

#include "op_layouts.h"
#include "search.h"
#include "text_util.h"

namespace by::hw::optable {

using vlog::Type;

void params(vlog::Module& m, const AccelParams& p) {
  m.param("IdBits", num(p.rsIdBits), "reservation-station id");
  m.param("PayloadWidth", num(opPayloadWidth(p)), "operation payload slot");
  m.param("SpRowBits", num(p.spRowBits), "scratchpad row address");
  m.param("AccRowBits", num(p.accRowBits), "accumulator row address");
  m.param("Dim", num(p.dim));
  m.param("SpElems", num(p.spElems), "elem_t per scratchpad row: DIM * lanes");
  m.param("ElemWidth", num(p.iw), "bits of elem_t");
  m.param("AccWidth", num(p.aw), "bits of acc_t");
}

void ports(vlog::Module& m) {
  m.portGroup("Operations from the reservation station, and their completions.");
  m.input("op_valid_i", Type::bit());
  m.output("op_ready_o", Type::bit());
  m.input("op_id_i", Type::bits("IdBits"));
  m.input("op_payload_i", Type::bits("PayloadWidth"));
  m.output("done_valid_o", Type::bit(), "operation done_id_o completed");
  m.output("done_id_o", Type::bits("IdBits"));
}

void localParams(vlog::Body& b, int slots) {
  b.localParam("OpSlots", num(slots), "operations in the controller at once");
  b.localParam("OpBits", "$clog2(OpSlots)");
}

void registers(StateRegs& regs, const std::string& idWidth, const std::string& pendingWidth) {
  regs.add("opt_valid", Type::bits("OpSlots"), "'0", "operation table: entry in use")
      .add("opt_id", Type::bits(idWidth), "", "its reservation-station id", "OpSlots")
      .add("opt_issued", Type::bits("OpSlots"), "'0", "all its work issued")
      .add("opt_pending", Type::bits(pendingWidth), "'0", "pieces issued, not finished", "OpSlots");
}

void searches(vlog::Body& b, const std::string& doneAlso, bool reportDone) {
  b.comment("Operation table: the lowest free entry takes the next operation; the highest "
            "complete one is reported done and released.");
  firstIndex(b, "OpSlots", "!opt_valid_q[i]", "opt_free", "opt_free_idx", "OpBits");
  firstIndex(b, "OpSlots",
             "opt_valid_q[i] && opt_issued_q[i] && opt_pending_q[i] == '0" +
                 (doneAlso.empty() ? "" : " &&\n        " + doneAlso),
             "opt_fin", "opt_fin_idx", "OpBits", true);
  if (!reportDone)
    return;
  b.assign("done_valid_o", "opt_fin");
  b.assign("done_id_o", "opt_id_q[opt_fin_idx]");
}

void alloc(vlog::Stmts& n, const std::string& id) {
  n.line("opt_valid_d[opt_free_idx] = 1'b1;")
      .line("opt_id_d[opt_free_idx] = " + id + ";")
      .line("opt_issued_d[opt_free_idx] = 1'b0;");
}

void release(vlog::Stmts& n) {
  n.ifElse("opt_fin", [](vlog::Stmts& s) { s.line("opt_valid_d[opt_fin_idx] = 1'b0;"); });
}

} // namespace by::hw::optable
