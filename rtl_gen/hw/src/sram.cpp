// Behavioural SRAMs. Each memory of the design is one of these two modules, so replacing them
// with foundry macros means replacing two small files; `brickyard synth` treats them as black
// boxes and prices them with the SRAM area model (docs/area.md). Contents are not reset.
#include "hw/generators.h"

namespace by::hw {

using vlog::Type;

namespace {

void commonParams(vlog::Module& m) {
  m.param("Depth", "1024", "words");
  m.param("Width", "128", "bits per word");
  m.param("MaskWidth", "16", "write-mask bits per word (one per element)");
  m.param("AddrWidth", "10", "address bits, at least $clog2(Depth)");
}

// The element mask spread to one bit per data bit, so that a masked write is one assignment
// of the whole word (a loop of per-element assignments is not unrolled by Verilator for wide
// words, and it is the same logic).
void bitMask(vlog::Body& b, const std::string& mask) {
  b.logic("wbits", Type::bits("Width"), "the write mask, one bit per data bit");
  vlog::Body& g = b.genFor("e", "MaskWidth", "gen_mask");
  g.assign("wbits[e*ElemWidth +: ElemWidth]", "{ElemWidth{" + mask + "[e]}}");
}

void maskedWrite(vlog::Stmts& s, const std::string& enable, const std::string& addr,
                 const std::string& data) {
  s.ifElse(enable, [&](vlog::Stmts& t) {
    t.line("mem_q[" + addr + "] <= (mem_q[" + addr + "] & ~wbits) | (" + data + " & wbits);");
  });
}

} // namespace

vlog::Module SramGenerator::buildSinglePort() const {
  vlog::Module m(names::kSramSp,
                 "Single-port SRAM: one read or one masked write per cycle. Read data is valid "
                 "the cycle after the read request and holds until the next read.");
  commonParams(m);
  m.input("clk_i", Type::bit(), "clock, rising edge");
  m.input("req_i", Type::bit(), "access this cycle");
  m.input("we_i", Type::bit(), "1: write, 0: read");
  m.input("addr_i", Type::bits("AddrWidth"));
  m.input("wdata_i", Type::bits("Width"));
  m.input("wmask_i", Type::bits("MaskWidth"), "per-element write enable");
  m.output("rdata_o", Type::bits("Width"));
  vlog::Body& b = m.body();
  b.localParam("ElemWidth", "Width / MaskWidth");
  b.logicArray("mem_q", Type::bits("Width"), "Depth", "the storage");
  b.logic("rdata_q", Type::bits("Width"));
  bitMask(b, "wmask_i");
  vlog::SeqItem& q = b.clocked();
  maskedWrite(q.clocked, "req_i && we_i", "addr_i", "wdata_i");
  q.clocked.ifElse("req_i && !we_i", [](vlog::Stmts& t) { t.line("rdata_q <= mem_q[addr_i];"); });
  b.assign("rdata_o", "rdata_q");
  return m;
}

vlog::Module SramGenerator::buildDualPort() const {
  vlog::Module m(names::kSramDp,
                 "Two-port SRAM: one read and one masked write per cycle. Read data is valid the "
                 "cycle after the read request; a read of the address being written returns the "
                 "old word.");
  commonParams(m);
  m.input("clk_i", Type::bit(), "clock, rising edge");
  m.portGroup("Read port.");
  m.input("re_i", Type::bit());
  m.input("raddr_i", Type::bits("AddrWidth"));
  m.output("rdata_o", Type::bits("Width"));
  m.portGroup("Write port.");
  m.input("we_i", Type::bit());
  m.input("waddr_i", Type::bits("AddrWidth"));
  m.input("wdata_i", Type::bits("Width"));
  m.input("wmask_i", Type::bits("MaskWidth"), "per-element write enable");
  vlog::Body& b = m.body();
  b.localParam("ElemWidth", "Width / MaskWidth");
  b.logicArray("mem_q", Type::bits("Width"), "Depth", "the storage");
  b.logic("rdata_q", Type::bits("Width"));
  bitMask(b, "wmask_i");
  vlog::SeqItem& q = b.clocked();
  maskedWrite(q.clocked, "we_i", "waddr_i", "wdata_i");
  q.clocked.ifElse("re_i", [](vlog::Stmts& t) { t.line("rdata_q <= mem_q[raddr_i];"); });
  b.assign("rdata_o", "rdata_q");
  return m;
}

} // namespace by::hw
