// The mesh with its skew: callers present one aligned beat per cycle (a row of A, a row of
// B or D, control) and receive one aligned result beat per cycle, Latency cycles later.
// Inside, tile row tr sees a beat tr cycles late (a skew), tile column tc sees it tc cycles
// late (b/d/control skew), which is exactly when the pipeline registers between tiles bring
// the other operand, so each beat meets itself at every tile.
//
// Per-tile signals are arrays of per-tile words indexed by t = tr*MeshCols + tc. Wide flat
// vectors written slice by slice from generate loops make Verilator rebuild the whole vector
// per slice (quadratic in the tile count); arrays keep simulation linear. mem2reg tells Yosys
// the arrays are plain wires, not memories.
#include "hw/generators.h"
#include "param_list.h"

namespace by::hw {

using vlog::Type;

namespace {
const char* kWires = "mem2reg";
} // namespace

void MeshGenerator::initSizes() {
  both_ = p_.both();
}

vlog::Module MeshGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  tileSignals(b);
  inputSkew(b);
  tileGrid(b);
  outputDeskew(b);
  return m;
}

vlog::Module MeshGenerator::ports() const {

  vlog::Module m(names::kMesh,
                 "Mesh: MeshRows x MeshCols tiles with pipeline registers between tiles, input "
                 "skew and output de-skew. A beat entering at cycle t leaves at t + Latency, "
                 "Latency = (MeshRows-1) + (MeshCols-1), at least 1, = " +
                     std::to_string(p_.latency()) +
                     ". Results are WS partial sums (b chain) or OS results (preload chain), "
                     "selected by the beat's dataflow.");
  declarePeParams(m, p_);
  m.param("TileRows", std::to_string(p_.tileRows), "PE rows per tile");
  m.param("TileCols", std::to_string(p_.tileCols), "PE columns per tile");
  m.param("MeshRows", std::to_string(p_.meshRows), "tile rows");
  m.param("MeshCols", std::to_string(p_.meshCols), "tile columns");
  m.clockAndReset();
  m.portGroup("Input beat, aligned: the mesh skews it internally.");
  m.input("in_valid_i", Type::bit());
  m.input("in_prop_i", Type::bit(), "shadow register select, see by_pe");
  if (both_)
    m.input("in_dataflow_i", Type::bit(), "1 = weight-stationary, 0 = output-stationary");
  if (p_.hasOs)
    m.input("in_shift_i", Type::bits("ShiftWidth"), "OS result rounding right shift");
  m.input("in_a_i", Type::bits("MeshRows*TileRows*AWidth"), "a per PE row");
  m.input("in_b_i", Type::bits("MeshCols*TileCols*BWidth"), "b per PE column");
  m.input("in_d_i", Type::bits("MeshCols*TileCols*DWidth"), "preload per PE column");
  m.portGroup("Output beat, de-skewed.");
  m.output("out_valid_o", Type::bit());
  m.output("out_result_o", Type::bits("MeshCols*TileCols*OutputWidth"), "per PE column");

  return m;
}

void MeshGenerator::tileSignals(vlog::Body& b) const {

  b.localParam("Tiles", "MeshRows*MeshCols");
  b.localParam("TileA", "TileRows*AWidth", "a bits entering a tile");
  b.localParam("TileB", "TileCols*BWidth", "b bits entering a tile");
  b.localParam("TileD", "TileCols*DWidth", "preload bits entering a tile");
  b.localParam("TileOut", "TileCols*OutputWidth", "result bits leaving a tile column");
  // Control word layout: {valid, prop[, dataflow][, shift]}.
  const int ctrlWidth = 2 + (both_ ? 1 : 0) + (p_.hasOs ? p_.shiftWidth : 0);
  b.localParam("CtrlWidth", std::to_string(ctrlWidth), "{valid, prop, dataflow?, shift?}");
  b.localParam("ValidBit", "CtrlWidth-1");
  b.localParam("PropBit", "CtrlWidth-2");
  if (both_)
    b.localParam("DataflowBit", p_.hasOs ? "ShiftWidth" : "0");
  b.blank();

  b.comment("Per-tile signals, indexed by t = tr*MeshCols + tc.");
  b.logic("in_ctrl", Type::bits("CtrlWidth"), "control word of the input beat");
  b.logicArray("tile_a_in", Type::bits("TileA"), "Tiles", "", kWires);
  b.logicArray("tile_a_out", Type::bits("TileA"), "Tiles", "", kWires);
  b.logicArray("tile_b_in", Type::bits("TileB"), "Tiles", "", kWires);
  b.logicArray("tile_b_out", Type::bits("TileB"), "Tiles", "", kWires);
  b.logicArray("tile_d_in", Type::bits("TileD"), "Tiles", "", kWires);
  b.logicArray("tile_c_out", Type::bits("TileD"), "Tiles", "", kWires);
  b.logicArray("tile_ctrl_in", Type::bits("CtrlWidth"), "Tiles", "", kWires);
  b.logicArray("result_skewed", Type::bits("TileOut"), "MeshCols", "results before de-skew",
               kWires);
  std::string ctrlConcat = "{in_valid_i, in_prop_i";
  if (both_)
    ctrlConcat += ", in_dataflow_i";
  if (p_.hasOs)
    ctrlConcat += ", in_shift_i";
  b.assign("in_ctrl", ctrlConcat + "}");
  b.blank();
}

void MeshGenerator::inputSkew(vlog::Body& b) const {

  // --- Input skew.
  b.comment("Input skew: tile row tr receives its a slice tr cycles late.");
  vlog::Body& skewA = b.genFor("tr", "MeshRows", "gen_skew_a");
  {
    auto& inst = skewA.instance(names::kDelayLine, "u_skew_a");
    inst.params = {{"Width", "TileA"}, {"Depth", "tr"}};
    inst.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"data_i", "in_a_i[tr*TileA +: TileA]"},
                  {"data_o", "tile_a_in[tr*MeshCols]"}};
  }
  b.comment("Input skew: tile column tc receives its b, preload and control tc cycles late.");
  vlog::Body& skewTop = b.genFor("tc", "MeshCols", "gen_skew_top");
  {
    skewTop.logic("top_in", Type::bits("CtrlWidth+TileD+TileB"));
    skewTop.logic("top_skewed", Type::bits("CtrlWidth+TileD+TileB"));
    skewTop.assign("top_in", "{in_ctrl, in_d_i[tc*TileD +: TileD], in_b_i[tc*TileB +: TileB]}");
    auto& inst = skewTop.instance(names::kDelayLine, "u_skew_top");
    inst.params = {{"Width", "CtrlWidth+TileD+TileB"}, {"Depth", "tc"}};
    inst.conns = {
        {"clk_i", "clk_i"}, {"rst_ni", "rst_ni"}, {"data_i", "top_in"}, {"data_o", "top_skewed"}};
    skewTop.assign("tile_b_in[tc]", "top_skewed[TileB-1:0]");
    skewTop.assign("tile_d_in[tc]", "top_skewed[TileB +: TileD]");
    skewTop.assign("tile_ctrl_in[tc]", "top_skewed[TileB+TileD +: CtrlWidth]");
  }
  b.blank();
}

void MeshGenerator::tileGrid(vlog::Body& b) const {

  // --- Tile grid.
  b.comment("Tile grid with pipeline registers between tiles. Data registers load only with "
            "the valid beat that carries them; the control word always loads.");
  vlog::Body& row = b.genFor("tr", "MeshRows", "gen_tile_row");
  vlog::Body& tile = row.genFor("tc", "MeshCols", "gen_tile_col");
  tile.localParam("T", "tr*MeshCols + tc", "this tile");
  tile.logic("ctrl", Type::bits("CtrlWidth"));
  tile.assign("ctrl", "tile_ctrl_in[T]");
  {
    auto& inst = tile.instance(names::kTile, "u_tile");
    inst.params = forwardPeParams(p_);
    inst.params.emplace_back("TileRows", "TileRows");
    inst.params.emplace_back("TileCols", "TileCols");
    inst.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"in_a_i", "tile_a_in[T]"},
                  {"out_a_o", "tile_a_out[T]"},
                  {"in_b_i", "tile_b_in[T]"},
                  {"out_b_o", "tile_b_out[T]"},
                  {"in_d_i", "tile_d_in[T]"},
                  {"out_c_o", "tile_c_out[T]"},
                  {"in_valid_i", "ctrl[ValidBit]"},
                  {"in_prop_i", "ctrl[PropBit]"}};
    if (both_)
      inst.conns.emplace_back("in_dataflow_i", "ctrl[DataflowBit]");
    if (p_.hasOs)
      inst.conns.emplace_back("in_shift_i", "ctrl[ShiftWidth-1:0]");
  }

  vlog::Body* aPipe = tile.genIf("tc > 0", "gen_a_pipe").first;
  aPipe->comment("a from the tile on the left, registered.");
  aPipe->logic("a_q", Type::bits("TileA"));
  aPipe->flops({{{"a_q", "tile_a_out[T-1]", ""}}, "tile_ctrl_in[T-1][ValidBit]"});
  aPipe->assign("tile_a_in[T]", "a_q");

  vlog::Body* topPipe = tile.genIf("tr > 0", "gen_top_pipe").first;
  topPipe->comment("b, preload and control from the tile above, registered.");
  topPipe->localParam("Above", "T - MeshCols");
  topPipe->logic("b_q", Type::bits("TileB"));
  topPipe->logic("d_q", Type::bits("TileD"));
  topPipe->logic("ctrl_q", Type::bits("CtrlWidth"));
  topPipe->flops({{{"b_q", "tile_b_out[Above]", ""}, {"d_q", "tile_c_out[Above]", ""}},
                  "tile_ctrl_in[Above][ValidBit]"});
  topPipe->flops({{{"ctrl_q", "tile_ctrl_in[Above]", "'0"}}});
  topPipe->assign("tile_b_in[T]", "b_q");
  topPipe->assign("tile_d_in[T]", "d_q");
  topPipe->assign("tile_ctrl_in[T]", "ctrl_q");

  vlog::Body* rightEdge = tile.genIf("tc == MeshCols-1", "gen_right_edge").first;
  rightEdge->logic("unused_a_right", Type::bit(), "a leaving the mesh is not needed");
  rightEdge->assign("unused_a_right", "^tile_a_out[T]");

  vlog::Body* bottom = tile.genIf("tr == MeshRows-1", "gen_bottom_edge").first;
  bottom->logic("unused_chains", Type::bit(), "chain bits other than the results");
  bottom->logic("result", Type::bits("TileOut"));
  bottom->assign("unused_chains", "^{tile_b_out[T], tile_c_out[T]}");
  bottom->assign("result_skewed[tc]", "result");
  vlog::Body& col = bottom->genFor("j", "TileCols", "gen_result");
  // The result of PE column j: the WS partial sum or the OS result, low OutputWidth bits.
  col.localParam("ResultLsb", "j*OutputWidth");
  if (p_.hasWs)
    col.localParam("PsumLsb", "j*BWidth", "WS partial sum in the b chain");
  if (p_.hasOs)
    col.localParam("OsLsb", "j*DWidth", "OS result in the preload chain");
  if (both_) {
    col.logic("ws_result", Type::bits("OutputWidth"));
    col.logic("os_result", Type::bits("OutputWidth"));
    col.assign("ws_result", "tile_b_out[T][PsumLsb +: OutputWidth]");
    col.assign("os_result", "tile_c_out[T][OsLsb +: OutputWidth]");
    col.assign("result[ResultLsb +: OutputWidth]", "ctrl[DataflowBit] ? ws_result : os_result");
  } else if (p_.hasWs) {
    col.assign("result[ResultLsb +: OutputWidth]", "tile_b_out[T][PsumLsb +: OutputWidth]");
  } else {
    col.assign("result[ResultLsb +: OutputWidth]", "tile_c_out[T][OsLsb +: OutputWidth]");
  }
  b.blank();
}

void MeshGenerator::outputDeskew(vlog::Body& b) const {

  // --- Output de-skew.
  b.comment("Output de-skew: tile column tc is delayed by MeshCols-1-tc cycles so that all "
            "columns of a beat leave together, with column 0's valid. A mesh of one tile has "
            "no pipeline register: its results leave one cycle late (OutStage), as the "
            "execute controller's result tags are there a cycle after the beat.");
  b.localParam("OutStage", p_.meshRows == 1 && p_.meshCols == 1 ? "1" : "0");
  vlog::Body& deskew = b.genFor("tc", "MeshCols", "gen_deskew");
  {
    auto& inst = deskew.instance(names::kDelayLine, "u_deskew");
    inst.params = {{"Width", "TileOut"}, {"Depth", "MeshCols-1-tc+OutStage"}};
    inst.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"data_i", "result_skewed[tc]"},
                  {"data_o", "out_result_o[tc*TileOut +: TileOut]"}};
  }
  {
    auto& inst = b.instance(names::kDelayLine, "u_deskew_valid");
    inst.params = {{"Width", "1"}, {"Depth", "MeshCols-1+OutStage"}};
    inst.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"data_i", "tile_ctrl_in[(MeshRows-1)*MeshCols][ValidBit]"},
                  {"data_o", "out_valid_o"}};
  }
}

} // namespace by::hw
