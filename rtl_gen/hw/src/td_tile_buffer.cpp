// The TensorDash feeder's A tiles: one DIM-row tile of A per job, written a few rows at a time
// (the rows of one scratchpad word) and read as columns: column t of a tile is reduction step
// t of every PE row (row r's lanes A[r][t*Lanes +: Lanes]). It replaces the dense path's
// transposer, with a tile per job instead of two and a read port per window slot.
//
// Rows not written since the tile was cleared read as zero, so a tile with fewer than DIM rows
// (or an A operand that is GARBAGE) needs no zero fill. Cost: Tiles*DIM rows of flops; each
// read port is a (Tiles*DIM):1 multiplexer per PE row.
#include "td_tile_buffer.h"

#include "text_util.h"

#include <algorithm>

namespace by::hw {

using vlog::Type;

vlog::Module TdTileBufferGenerator::build() const {
  const AccelParams& p = p_;
  const int ports = p.array.tdDepth, tiles = p.tdJobs, jb = p.tdJobBits;
  const int rb = std::max(1, config::log2Exact(p.dim)); // a row or column index
  vlog::Module m(names::kTdTileBuffer, "TensorDash feeder tiles: " + num(tiles) + " tiles of " +
                                           num(p.dim) + " rows of A, writes of up to " +
                                           num(p.spWordRows) + " rows, column reads through " +
                                           num(ports) + " ports.");
  m.clockAndReset();
  m.portGroup("Row writes: rows first .. first+count-1 of a tile; row k of the data is row "
              "first+k.");
  m.input("wr_valid_i", Type::bit());
  m.input("wr_tile_i", Type::bits(jb));
  m.input("wr_first_i", Type::bits(rb));
  m.input("wr_count_i", Type::bits(p.dimBits), "1.." + num(p.spWordRows));
  m.input("wr_data_i", Type::bits(p.spWordRows * p.spElems * p.iw));
  m.portGroup("Clear: every row of the tile reads as zero until it is written again.");
  m.input("clr_valid_i", Type::bit());
  m.input("clr_tile_i", Type::bits(jb));
  m.portGroup("Column reads (combinational): port k reads column rd_col_i[k] of tile "
              "rd_tile_i[k]; group r of its data is row r's.");
  m.input("rd_tile_i", Type::bits(ports * jb));
  m.input("rd_col_i", Type::bits(ports * rb));
  m.output("rd_data_o", Type::bits(ports * p.spElems * p.iw));

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("Tiles", num(tiles));
  b.localParam("Group", num(p.lanes * p.iw), "one PE's lanes: Lanes elements");
  b.localParam("RowWidth", "Dim*Group");
  b.logicArray("row_q", Type::bits("RowWidth"), "Tiles*Dim", "row r of tile t at t*Dim + r",
               "mem2reg");
  b.logic("valid", Type::bits("Tiles*Dim"), "the row was written since its tile was cleared");
  // The write's rows rotated once by wr_first_i: tile row r then always takes slot r % Words,
  // a wire, instead of every row of every tile choosing among the write's rows (td8: 190 k
  // transistors of multiplexers less).
  const int words = p.spWordRows;
  b.localParam("Words", num(words), "rows a write brings at most");
  // (a tile of fewer rows than a write may bring uses as many slots as it has rows)
  b.localParam("Slots", num(std::min(words, p.dim)), "slots of the rotated write");
  b.logic("wr_rot", Type::bits("Slots*RowWidth"), "slot j: row (j - wr_first_i) % Words");
  if (words == 1) {
    b.assign("wr_rot", "wr_data_i");
  } else {
    const int sb = config::log2Exact(words);
    vlog::Body& slot = b.genFor("j", "Slots", "gen_rot");
    slot.logic("from", Type::bits(sb));
    slot.assign("from", num(sb) + "'(j) - " + num(sb) + "'(wr_first_i)");
    slot.assign("wr_rot[j*RowWidth +: RowWidth]", "wr_data_i[32'(from)*RowWidth +: RowWidth]");
  }
  vlog::Body& row = b.genFor("i", "Tiles*Dim", "gen_row");
  row.comment("Row i is row i % Dim of tile i / Dim; k is its place in this write.");
  row.logic("k", Type::bits(32));
  row.logic("we", Type::bit());
  row.logic("valid_q", Type::bit());
  row.assign("k", "32'(i % Dim) - 32'(wr_first_i)");
  row.comment("(a row before wr_first_i makes k wrap around: no write)");
  row.assign("we", "wr_valid_i && 32'(wr_tile_i) == i / Dim && k < 32'(wr_count_i)");
  row.clocked().clocked.ifElse("we", [](vlog::Stmts& s) {
    s.line("row_q[i] <= wr_rot[((i % Dim) % Words)*RowWidth +: RowWidth];");
  });
  vlog::SeqItem& v = row.sequential();
  v.reset.line("valid_q <= 1'b0;");
  v.clocked.ifElse(
      "clr_valid_i && 32'(clr_tile_i) == i / Dim",
      [](vlog::Stmts& s) { s.line("valid_q <= 1'b0;"); },
      [](vlog::Stmts& s) { s.ifElse("we", [](vlog::Stmts& t) { t.line("valid_q <= 1'b1;"); }); });
  row.assign("valid[i]", "valid_q");
  b.blank();

  vlog::Body& port = b.genFor("k", num(ports), "gen_port");
  port.logic("tile", Type::bits(jb));
  port.logic("col", Type::bits(rb));
  port.assign("tile", "rd_tile_i[k*" + num(jb) + " +: " + num(jb) + "]");
  port.assign("col", "rd_col_i[k*" + num(rb) + " +: " + num(rb) + "]");
  vlog::Body& pr = port.genFor("r", "Dim", "gen_prow");
  const int idxBits = jb + config::log2Exact(p.dim);
  pr.logic("idx", Type::bits(idxBits), "row r of the tile");
  pr.logic("src", Type::bits("RowWidth"));
  pr.assign("idx", num(idxBits) + "'(32'(tile) * Dim + r)");
  pr.assign("src", "row_q[idx]");
  pr.assign("rd_data_o[(k*Dim + r)*Group +: Group]",
            "valid[idx] ? src[32'(col)*Group +: Group] : '0");
  return m;
}

} // namespace by::hw
