// The mvout's function table (activations.table; docs/isa.md, "Function table"): 256 int8
// entries and an enable bit, written by CONFIG_TABLE through the command decoder. The store
// controller maps each output element x of an accumulator MVOUT to entry x + 128 while it is
// enabled. The decoder accepts a CONFIG_TABLE only when no MVOUT waits or runs, so the command
// takes effect (the cycle after) in program order.
#include "hw/generators.h"
#include "isa_fields.h"

namespace by::hw {

using vlog::Type;

vlog::Module MvoutTableGenerator::build() const {
  vlog::Module m(names::kMvoutTable,
                 "The mvout's function table: 256 int8 entries and an enable bit, written by "
                 "CONFIG_TABLE (8 entries a command); accumulator MVOUTs map an output x to "
                 "entry x + 128 while enabled.");
  m.clockAndReset();
  m.input("cmd_valid_i", Type::bit(), "an accepted CONFIG_TABLE");
  m.input("cmd_rs1_i", Type::bits("64"));
  m.input("cmd_rs2_i", Type::bits("64"));
  m.output("table_o", Type::bits("256*8"), "entry v in bits 8v+7:8v");
  m.output("enable_o", Type::bit());

  vlog::Body& b = m.body();
  IsaFieldWires f(b);
  const std::string chunk = f("tbl", "CONFIG_TABLE", "rs1", "chunk");
  const std::string write = f("tbl", "CONFIG_TABLE", "rs1", "write");
  const std::string enable = f("tbl", "CONFIG_TABLE", "rs1", "enable");
  const std::string entries = f("tbl", "CONFIG_TABLE", "rs2", "entries");
  b.comment("The table as 32 chunks of 8 entries; a chunk is written whole.");
  b.logicArray("chunk_q", Type::bits("64"), "32", "", "mem2reg");
  b.logic("enable_q", Type::bit());
  b.logic("unused_rs1", Type::bit(), "rs1 bits no field uses");
  b.assign("unused_rs1", "^{cmd_rs1_i[63:10], cmd_rs1_i[7:5]}");
  vlog::SeqItem& seq = b.sequential();
  seq.reset.forLoop("c", "32", [](vlog::Stmts& s) { s.line("chunk_q[c] <= '0;"); })
      .line("enable_q <= 1'b0;");
  seq.clocked.ifElse("cmd_valid_i", [&](vlog::Stmts& s) {
    s.line("enable_q <= " + enable + ";");
    s.ifElse(write, [&](vlog::Stmts& t) { t.line("chunk_q[" + chunk + "] <= " + entries + ";"); });
  });
  vlog::Body& out = b.genFor("c", "32", "gen_chunk");
  out.assign("table_o[c*64 +: 64]", "chunk_q[c]");
  b.assign("enable_o", "enable_q");
  return m;
}

} // namespace by::hw
