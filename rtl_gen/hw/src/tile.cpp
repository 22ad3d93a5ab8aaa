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
  m.portGroup("Operand a, one Lanes*InputWidth slice per PE row.");
  m.input("in_a_i", Type::bits("TileRows*Lanes*InputWidth"));
  m.output("out_a_o", Type::bits("TileRows*Lanes*InputWidth"));
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
  b.localParam("AWidth", "Lanes*InputWidth");
  b.comment("a_wire[r][c] enters PE (r, c) from the left (c = TileCols is the right edge); "
            "b_wire/d_wire[r][c] enter PE (r, c) from above (r = TileRows is the bottom edge).");
  b.logic("a_wire", Type::bits("TileRows*(TileCols+1)*AWidth"));
  b.logic("b_wire", Type::bits("(TileRows+1)*TileCols*BWidth"));
  b.logic("d_wire", Type::bits("(TileRows+1)*TileCols*DWidth"));
  b.blank();

  vlog::Body& rows = b.genFor("r", "TileRows", "gen_row_edges");
  rows.assign("a_wire[r*(TileCols+1)*AWidth +: AWidth]", "in_a_i[r*AWidth +: AWidth]");
  rows.assign("out_a_o[r*AWidth +: AWidth]", "a_wire[(r*(TileCols+1)+TileCols)*AWidth +: AWidth]");
  vlog::Body& cols = b.genFor("c", "TileCols", "gen_col_edges");
  cols.assign("b_wire[c*BWidth +: BWidth]", "in_b_i[c*BWidth +: BWidth]");
  cols.assign("d_wire[c*DWidth +: DWidth]", "in_d_i[c*DWidth +: DWidth]");
  cols.assign("out_b_o[c*BWidth +: BWidth]", "b_wire[(TileRows*TileCols+c)*BWidth +: BWidth]");
  cols.assign("out_c_o[c*DWidth +: DWidth]", "d_wire[(TileRows*TileCols+c)*DWidth +: DWidth]");
  b.blank();

  vlog::Body& peRow = b.genFor("r", "TileRows", "gen_pe_row");
  vlog::Body& pe = peRow.genFor("c", "TileCols", "gen_pe_col");
  pe.localParam("AIn", "(r*(TileCols+1)+c)*AWidth", "a entering from the left");
  pe.localParam("BIn", "(r*TileCols+c)*BWidth", "b entering from above");
  pe.localParam("BOut", "((r+1)*TileCols+c)*BWidth", "b leaving below");
  pe.localParam("DIn", "(r*TileCols+c)*DWidth");
  pe.localParam("DOut", "((r+1)*TileCols+c)*DWidth");
  vlog::InstanceItem& inst = pe.instance(names::kPe, "u_pe");
  inst.params = forwardPeParams(p_);
  inst.conns = {{"clk_i", "clk_i"},
                {"rst_ni", "rst_ni"},
                {"in_a_i", "a_wire[AIn +: AWidth]"},
                {"out_a_o", "a_wire[AIn+AWidth +: AWidth]"},
                {"in_b_i", "b_wire[BIn +: BWidth]"},
                {"out_b_o", "b_wire[BOut +: BWidth]"},
                {"in_d_i", "d_wire[DIn +: DWidth]"},
                {"out_c_o", "d_wire[DOut +: DWidth]"},
                {"in_valid_i", "in_valid_i"},
                {"in_prop_i", "in_prop_i"}};
  if (p_.both())
    inst.conns.emplace_back("in_dataflow_i", "in_dataflow_i");
  if (p_.hasOs)
    inst.conns.emplace_back("in_shift_i", "in_shift_i");
  return m;
}

} // namespace by::hw
