// A double-buffered transposer: DIM rows are written (one per cycle) into one buffer while
// columns of the other are read. The storage is kept column-major (word k of a buffer holds
// column k), so a row write updates one element of every word and a column read is a plain
// word read.
#include "hw/generators.h"

namespace by::hw {

using vlog::Type;

vlog::Module TransposerGenerator::build() const {
  vlog::Module m(names::kTransposer,
                 "Double-buffered DIM x DIM transposer: write rows into one buffer, read "
                 "columns of either. Column reads are combinational.");
  m.param("Dim", std::to_string(p_.dim), "rows and columns");
  m.param("Width", std::to_string(p_.iw * p_.lanes), "bits per element (a group of lanes values)");
  m.param("IndexWidth",
          std::to_string(config::log2Exact(p_.dim) > 0 ? config::log2Exact(p_.dim) : 1),
          "bits of a row or column index");
  m.input("clk_i", Type::bit(), "clock, rising edge");
  m.portGroup("Row writes.");
  m.input("wr_valid_i", Type::bit());
  m.input("wr_buf_i", Type::bit(), "buffer written");
  m.input("wr_row_i", Type::bits("IndexWidth"));
  m.input("wr_data_i", Type::bits("Dim*Width"));
  m.portGroup("Column reads.");
  m.input("rd_buf_i", Type::bit(), "buffer read");
  m.input("rd_col_i", Type::bits("IndexWidth"));
  m.output("rd_data_o", Type::bits("Dim*Width"), "element i = row i of the column");
  vlog::Body& b = m.body();
  b.logicArray("col", Type::bits("Dim*Width"), "2*Dim", "word buf*Dim + k is column k of buf");
  // Each column is a register of its own, written element by element under a row compare with
  // constant bit indices. Written as col_q[(wr_buf_i ? Dim : 0) + k][wr_row_i*Width +: Width],
  // a variable word times a variable part-select, Yosys elaborated a decision tree over every
  // (word, offset) pair: at Dim 16, 440 s of the default's 645 s of synthesis and 27,012 cells
  // instead of 12,208 (issue 17; the forms are proven equivalent with Yosys equiv_* at Dim 4
  // and 8). One generate block per column keeps the row loop the only procedural loop, which
  // Verilator unrolls at any Dim (a column loop around it is Dim^2 delayed array writes, more
  // than Verilator unrolls at Dim 32).
  vlog::Body& col = b.genFor("k", "Dim", "gen_col");
  col.logic("buf0_q", Type::bits("Dim*Width"), "column k of buffer 0");
  col.logic("buf1_q", Type::bits("Dim*Width"), "column k of buffer 1");
  vlog::SeqItem& q = col.clocked();
  q.clocked.ifElse("wr_valid_i", [](vlog::Stmts& s) {
    s.forLoop("r", "Dim", [](vlog::Stmts& t) {
      t.ifElse("32'(wr_row_i) == r", [](vlog::Stmts& u) {
        u.ifElse(
            "wr_buf_i",
            [](vlog::Stmts& v) {
              v.line("buf1_q[r*Width +: Width] <= wr_data_i[k*Width +: Width];");
            },
            [](vlog::Stmts& v) {
              v.line("buf0_q[r*Width +: Width] <= wr_data_i[k*Width +: Width];");
            });
      });
    });
  });
  col.assign("col[k]", "buf0_q");
  col.assign("col[Dim + k]", "buf1_q");
  b.assign("rd_data_o", "col[(rd_buf_i ? Dim : 0) + 32'(rd_col_i)]");
  return m;
}

} // namespace by::hw
