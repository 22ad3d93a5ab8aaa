#include "hw/generators.h"

namespace by::hw {

using vlog::Type;

vlog::Module FifoGenerator::build() const {
  vlog::Module m(names::kFifo,
                 "Synchronous FIFO with valid/ready handshakes on both sides. Holds Depth "
                 "entries; out_data_o is the oldest entry (no fall-through: a pushed entry is "
                 "visible the next cycle).");
  m.param("Width", "8", "bits per entry");
  m.param("Depth", "2", "entries");
  m.clockAndReset();
  m.portGroup("Push side.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit(), "not full");
  m.input("in_data_i", Type::bits("Width"));
  m.portGroup("Pop side.");
  m.output("out_valid_o", Type::bit(), "not empty");
  m.input("out_ready_i", Type::bit());
  m.output("out_data_o", Type::bits("Width"));

  vlog::Body& b = m.body();
  b.localParam("PtrWidth", "Depth > 1 ? $clog2(Depth) : 1");
  b.localParam("CountWidth", "$clog2(Depth + 1)");
  b.logicArray("mem_q", Type::bits("Width"), "Depth", "entries", "mem2reg");
  b.logic("wptr_q", Type::bits("PtrWidth"));
  b.logic("rptr_q", Type::bits("PtrWidth"));
  b.logic("count_q", Type::bits("CountWidth"));
  b.logic("push", Type::bit());
  b.logic("pop", Type::bit());
  b.assign("in_ready_o", "count_q != CountWidth'(Depth)");
  b.assign("out_valid_o", "count_q != '0");
  b.assign("push", "in_valid_i && in_ready_o");
  b.assign("pop", "out_valid_o && out_ready_i");
  b.assign("out_data_o", "mem_q[rptr_q]");
  vlog::SeqItem& q = b.sequential();
  q.reset.line("wptr_q <= '0;").line("rptr_q <= '0;").line("count_q <= '0;");
  q.clocked
      .ifElse("push",
              [](vlog::Stmts& s) {
                s.line("wptr_q <= (wptr_q == PtrWidth'(Depth-1)) ? '0 : wptr_q + PtrWidth'(1);");
              })
      .ifElse("pop",
              [](vlog::Stmts& s) {
                s.line("rptr_q <= (rptr_q == PtrWidth'(Depth-1)) ? '0 : rptr_q + PtrWidth'(1);");
              })
      .ifElse(
          "push && !pop", [](vlog::Stmts& s) { s.line("count_q <= count_q + CountWidth'(1);"); },
          [](vlog::Stmts& s) {
            s.ifElse("pop && !push",
                     [](vlog::Stmts& t) { t.line("count_q <= count_q - CountWidth'(1);"); });
          });
  vlog::SeqItem& data = b.clocked();
  data.clocked.ifElse("push", [](vlog::Stmts& s) { s.line("mem_q[wptr_q] <= in_data_i;"); });
  return m;
}

} // namespace by::hw
