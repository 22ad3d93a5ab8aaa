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

  auto [single, chain] = registered->genIf("Depth == 1", "gen_single", "gen_chain");
  single->logic("stage_q", Type::bits("Width"));
  single->flops({{{"stage_q", "data_i", "'0"}}});
  single->assign("data_o", "stage_q");

  chain->comment("stage_q holds the newest value in its low Width bits.");
  chain->logic("stage_q", Type::bits("Depth*Width"));
  chain->flops({{{"stage_q", "{stage_q[(Depth-1)*Width-1:0], data_i}", "'0"}}});
  chain->assign("data_o", "stage_q[Depth*Width-1 -: Width]");
  return m;
}

} // namespace by::hw
