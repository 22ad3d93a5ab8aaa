#include "hw/generators.h"

namespace by::hw {

using vlog::Type;

vlog::Module DelayLineGenerator::build() const {
  vlog::Module m(names::kDelayLine,
                 "Delay line: data_o is data_i delayed by Depth clock cycles (Depth 0 is a "
                 "wire). Used for the mesh's input skew and output de-skew. Resets to zero.");
  m.param("Width", "1", "bits per stage");
  m.param("Depth", "1", "stages (cycles of delay)");
  m.clockAndReset();
  m.input("data_i", Type::bits("Width"));
  m.output("data_o", Type::bits("Width"));

  vlog::Body& b = m.body();
  auto [wire, registered] = b.genIf("Depth == 0", "gen_wire", "gen_registered");
  wire->logic("unused_clock", Type::bit(), "no state: clock and reset are not needed");
  wire->assign("unused_clock", "clk_i ^ rst_ni");
  wire->assign("data_o", "data_i");

  registered->comment("One register per stage, stage_q[0] the newest. An unpacked array so that "
                      "simulators move whole stages; mem2reg tells Yosys these are flip-flops.");
  registered->logicArray("stage_q", Type::bits("Width"), "Depth", "", "mem2reg");
  vlog::SeqItem& seq = registered->sequential();
  seq.reset.forLoop("s", "Depth", [](vlog::Stmts& st) { st.line("stage_q[s] <= '0;"); });
  seq.clocked.line("stage_q[0] <= data_i;").forLoop("s", "Depth-1", [](vlog::Stmts& st) {
    st.line("stage_q[s+1] <= stage_q[s];");
  });
  registered->assign("data_o", "stage_q[Depth-1]");
  return m;
}

} // namespace by::hw
