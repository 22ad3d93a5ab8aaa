#include "hw/generators.h"
#include "param_list.h"

namespace by::hw {

using vlog::Type;

vlog::Module TileGenerator::build() const {
  vlog::Module m(names::kTile,
                 "Tile: a combinational grid of TileRows x TileCols PEs. a moves right, b and "
                 "the preload chain move down, without registers; all PEs see the same control.");
  declarePeParams(m, p_);
  m.param("TileRows", std::to_string(p_.tileRows), "PE rows");
  m.param("TileCols", std::to_string(p_.tileCols), "PE columns");
  m.clockAndReset();
  m.portGroup("Operand a, one AWidth slice per PE row.");
  m.input("in_a_i", Type::bits("TileRows*AWidth"));
  m.output("out_a_o", Type::bits("TileRows*AWidth"));
  m.portGroup("b chain and preload chain, one slice per PE column.");
  m.input("in_b_i", Type::bits("TileCols*BWidth"));
  m.output("out_b_o", Type::bits("TileCols*BWidth"));
  m.input("in_d_i", Type::bits("TileCols*DWidth"));
  m.output("out_c_o", Type::bits("TileCols*DWidth"));
  m.portGroup("Control of the beat in this tile.");
  m.input("in_valid_i", Type::bit());
  m.input("in_prop_i", Type::bit());
  if (p_.both())
    m.input("in_dataflow_i", Type::bit(), "1 = weight-stationary, 0 = output-stationary");
  if (p_.hasOs)
    m.input("in_shift_i", Type::bits("ShiftWidth"));

  vlog::Body& b = m.body();
  b.comment("a_wire[r*(TileCols+1)+c] enters PE (r, c) from the left (c = TileCols is the right "
            "edge); b_wire/d_wire[r*TileCols+c] enter PE (r, c) from above (r = TileRows is the "
            "bottom edge). Arrays of per-PE words; mem2reg: plain wires for Yosys.");
  b.logicArray("a_wire", Type::bits("AWidth"), "TileRows*(TileCols+1)", "", "mem2reg");
  b.logicArray("b_wire", Type::bits("BWidth"), "(TileRows+1)*TileCols", "", "mem2reg");
  b.logicArray("d_wire", Type::bits("DWidth"), "(TileRows+1)*TileCols", "", "mem2reg");
  b.blank();

  vlog::Body& rows = b.genFor("r", "TileRows", "gen_row_edges");
  rows.assign("a_wire[r*(TileCols+1)]", "in_a_i[r*AWidth +: AWidth]");
  rows.assign("out_a_o[r*AWidth +: AWidth]", "a_wire[r*(TileCols+1)+TileCols]");
  vlog::Body& cols = b.genFor("c", "TileCols", "gen_col_edges");
  cols.assign("b_wire[c]", "in_b_i[c*BWidth +: BWidth]");
  cols.assign("d_wire[c]", "in_d_i[c*DWidth +: DWidth]");
  cols.assign("out_b_o[c*BWidth +: BWidth]", "b_wire[TileRows*TileCols+c]");
  cols.assign("out_c_o[c*DWidth +: DWidth]", "d_wire[TileRows*TileCols+c]");
  b.blank();

  vlog::Body& peRow = b.genFor("r", "TileRows", "gen_pe_row");
  vlog::Body& pe = peRow.genFor("c", "TileCols", "gen_pe_col");
  pe.localParam("AIn", "r*(TileCols+1)+c", "a entering from the left");
  pe.localParam("VIn", "r*TileCols+c", "b and d entering from above");
  pe.localParam("VOut", "(r+1)*TileCols+c", "b and c leaving below");
  vlog::InstanceItem& inst = pe.instance(names::kPe, "u_pe");
  inst.params = forwardPeParams(p_);
  inst.conns = {{"clk_i", "clk_i"},           {"rst_ni", "rst_ni"},
                {"in_a_i", "a_wire[AIn]"},    {"out_a_o", "a_wire[AIn+1]"},
                {"in_b_i", "b_wire[VIn]"},    {"out_b_o", "b_wire[VOut]"},
                {"in_d_i", "d_wire[VIn]"},    {"out_c_o", "d_wire[VOut]"},
                {"in_valid_i", "in_valid_i"}, {"in_prop_i", "in_prop_i"}};
  if (p_.both())
    inst.conns.emplace_back("in_dataflow_i", "in_dataflow_i");
  if (p_.hasOs)
    inst.conns.emplace_back("in_shift_i", "in_shift_i");
  return m;
}

} // namespace by::hw
