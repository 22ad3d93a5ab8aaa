// The value repacker: a FIFO of elements that takes chunks of up to InVals values and hands
// out chunks of exactly out_want_i values (the consumer says how many it takes next). It turns
// scratchpad rows into Boveda groups on the compressed MVOUT path, and decoded groups into
// row pieces on the compressed MVIN path, where row length, DIM and the group size are
// unrelated. Cost: two barrel shifters over the buffer in units of ElemWidth.
#include "boveda_common.h"

namespace by::hw {

using vlog::Type;

vlog::Module ValueRepackerGenerator::build() const {
  vlog::Module m(names::kValueRepacker,
                 "Value repacker: chunks of 1..InVals elements in, chunks of out_want_i "
                 "elements out, in order. Value i of a chunk is at bits [i*ElemWidth +: "
                 "ElemWidth].");
  m.param("ElemWidth", "8", "bits per value");
  m.param("InVals", "4", "values per input chunk (at most)");
  m.param("OutVals", "16", "values per output chunk (at most)");
  m.clockAndReset();
  m.portGroup("Input chunks: lanes from in_count_i on are ignored.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit(), "from flops only");
  m.input("in_data_i", Type::bits("InVals*ElemWidth"));
  m.input("in_count_i", Type::bits("$clog2(InVals+1)"));
  m.portGroup("Output chunks of out_want_i values (1..OutVals); lanes above are 0.");
  m.output("out_valid_o", Type::bit(), "at least out_want_i values are buffered");
  m.input("out_ready_i", Type::bit());
  m.input("out_want_i", Type::bits("$clog2(OutVals+1)"));
  m.output("out_data_o", Type::bits("OutVals*ElemWidth"));

  vlog::Body& b = m.body();
  b.localParam("BufVals", "InVals + 2*OutVals - 1",
               "one input chunk beyond two output chunks: a chunk can enter every cycle while "
               "one leaves");
  b.localParam("FillWidth", "$clog2(BufVals+1)");
  b.localParam("BufBits", "BufVals*ElemWidth");
  b.logic("buf_q", Type::bits("BufBits"), "values 0..fill_q-1, zeros above");
  b.logic("fill_q", Type::bits("FillWidth"));
  b.logic("in_masked", Type::bits("InVals*ElemWidth"));
  b.logic("out_mask", Type::bits("OutVals*ElemWidth"));
  b.comb().forLoop("i", "InVals", [](vlog::Stmts& s) {
    s.line("in_masked[i*ElemWidth +: ElemWidth] = 32'(i) < 32'(in_count_i) ?\n"
           "    in_data_i[i*ElemWidth +: ElemWidth] : '0;");
  });
  b.comb().forLoop("i", "OutVals", [](vlog::Stmts& s) {
    s.line("out_mask[i*ElemWidth +: ElemWidth] = 32'(i) < 32'(out_want_i) ? '1 : '0;");
  });
  b.logic("take_in", Type::bit());
  b.logic("take_out", Type::bit());
  b.logic("fill_after", Type::bits("FillWidth"), "after this cycle's output chunk left");
  b.assign("in_ready_o", "32'(fill_q) <= 32'(2*OutVals - 1)");
  b.assign("take_in", "in_valid_i && in_ready_o");
  b.assign("out_valid_o", "out_want_i != '0 && 32'(fill_q) >= 32'(out_want_i)");
  b.assign("take_out", "out_valid_o && out_ready_i");
  b.assign("out_data_o", "buf_q[OutVals*ElemWidth-1:0] & out_mask");
  b.assign("fill_after", "take_out ? fill_q - FillWidth'(out_want_i) : fill_q");
  vlog::SeqItem& q = b.sequential();
  q.reset.line("buf_q <= '0;").line("fill_q <= '0;");
  q.clocked
      .line("buf_q <= (take_out ? buf_q >> (32'(out_want_i) * ElemWidth) : buf_q) |\n"
            "         (take_in ? BufBits'(in_masked) << (32'(fill_after) * "
            "ElemWidth) : '0);")
      .line("fill_q <= fill_after + (take_in ? FillWidth'(in_count_i) : '0);");
  return m;
}

} // namespace by::hw
