// The Boveda compressor (docs/boveda.md, "Hardware"): one group of values per cycle is
// encoded combinationally and ORed into a bit buffer above the bits already there; the buffer
// leaves at the bottom one StreamWidth-bit word per cycle. The group width needs no per-value
// encoder: OR the sign-stripped values (v < 0 ? ~v : v), find the leading one. Packing uses
// no variable shifter per value either: for every candidate width c the slots are wired
// side by side at c bits each (constant selects), and the group's width picks one of the
// ElemWidth+1 packings. Zero-aware groups first compact their non-zero lanes into slots
// (slot j takes the lane of rank j). The last group of a block adds the padding up to the
// container boundary to the fill, so zero words follow and the next block starts aligned.
// Cost: one BufBits-wide shifter (append), GroupSize*GroupSize*ElemWidth AND-OR gates for the
// zero-aware compaction, ElemWidth+1 packings of GroupSize*ElemWidth bits.
#include "boveda_common.h"

namespace by::hw {

using vlog::Type;

vlog::Module BovedaCompressorGenerator::build() const {
  vlog::Module m(names::kBovedaCompressor,
                 "Boveda compressor: groups of GroupSize values in, the container stream of "
                 "docs/boveda.md out in StreamWidth-bit words; each block ends on a container "
                 "boundary.");
  boveda::declareParams(m, p_);
  m.clockAndReset();
  m.portGroup("Groups in: value i at bits [i*ElemWidth +: ElemWidth]; lanes from in_count_i "
              "on are ignored. A block is its groups up to the one with in_last_i.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit());
  m.input("in_data_i", Type::bits("GroupSize*ElemWidth"));
  m.input("in_count_i", Type::bits(boveda::kCountType),
          "values in the group: GroupSize, or 1..GroupSize for the last");
  m.input("in_last_i", Type::bit(), "the block's last group");
  m.portGroup("Container stream out, bit 0 of word 0 first.");
  m.output("out_valid_o", Type::bit());
  m.input("out_ready_i", Type::bit());
  m.output("out_data_o", Type::bits("StreamWidth"));
  m.output("out_last_o", Type::bit(), "the block's last word");

  vlog::Body& b = m.body();
  boveda::declareGroupLocals(b, 1);
  b.localParam("FillWidth", "$clog2(BufBits+ContainerBits+1)",
               "the fill also counts a block's padding");
  b.blank();

  b.comment("The group: lanes beyond the count are zero; the width is that of the OR of the "
            "sign-stripped values.");
  b.logic("lanes", Type::bits("GroupSize"), "lanes 0..count-1");
  b.logic("vals", Type::bits("PayloadBits"));
  b.logic("stripped", Type::bits("PayloadBits"), "v < 0 ? ~v : v per lane");
  b.logic("nonzero", Type::bits("GroupSize"), "the zero bitmap");
  b.logic("mag", Type::bits("ElemWidth"), "OR of the stripped values");
  b.logic("msb", Type::bits("WBits"), "bit length of mag");
  b.logic("w", Type::bits("WBits"), "group width");
  vlog::Body& lane = b.genFor("i", "GroupSize", "gen_lane");
  lane.logic("v", Type::bits("ElemWidth"));
  lane.assign("lanes[i]", "32'(i) < 32'(in_count_i)");
  lane.assign("v", "lanes[i] ? in_data_i[i*ElemWidth +: ElemWidth] : '0");
  lane.assign("vals[i*ElemWidth +: ElemWidth]", "v");
  lane.assign("stripped[i*ElemWidth +: ElemWidth]", "v[ElemWidth-1] ? ~v : v");
  lane.assign("nonzero[i]", "v != '0");
  b.comb()
      .line("mag = '0;")
      .forLoop("i", "GroupSize",
               [](vlog::Stmts& s) { s.line("mag = mag | stripped[i*ElemWidth +: ElemWidth];"); })
      .line("msb = '0;")
      .forLoop("k", "ElemWidth", [](vlog::Stmts& s) {
        s.ifElse("mag[k]", [](vlog::Stmts& t) { t.line("msb = WBits'(k + 1);"); });
      });
  b.comment("A non-zero group needs its bit length plus a sign bit (only -1s and 0s: width 1).");
  b.assign("w", "nonzero != '0 ? msb + WBits'(1) : '0");
  boveda::rankLogic(b, "nonzero", "rank", "nonzeros");
  b.blank();

  b.comment("Slots: the values stored, in order (zero-aware: the non-zero lanes only).");
  b.logic("slots", Type::bits("PayloadBits"));
  vlog::Body& slot = b.genFor("j", "GroupSize", "gen_slot");
  slot.logic("picked", Type::bits("ElemWidth"), "the lane of rank j");
  slot.comb().line("picked = '0;").forLoop("i", "GroupSize", [](vlog::Stmts& s) {
    s.ifElse("nonzero[i] && 32'(rank[i*CountWidth +: CountWidth]) == 32'(j)",
             [](vlog::Stmts& t) { t.line("picked = picked | vals[i*ElemWidth +: ElemWidth];"); });
  });
  slot.assign("slots[j*ElemWidth +: ElemWidth]",
              "ZeroAware != 0 ? picked : vals[j*ElemWidth +: ElemWidth]");
  b.comment("Packings: the slots side by side at each width c+1; the group width picks one.");
  b.logicArray("packed_at", Type::bits("PayloadBits"), "ElemWidth+1", "", "mem2reg");
  b.assign("packed_at[0]", "'0");
  vlog::Body& width = b.genFor("c", "ElemWidth", "gen_width");
  width.logic("packing", Type::bits("PayloadBits"));
  width.comb().line("packing = '0;").forLoop("j", "GroupSize", [](vlog::Stmts& s) {
    s.line("packing[j*(c+1) +: c+1] = slots[j*ElemWidth +: c+1];");
  });
  width.assign("packed_at[c+1]", "packing");
  b.blank();

  b.comment("The encoded group: width, [bitmap], payload; and its length in bits.");
  b.logic("bm_len", Type::bits("GroupLenWidth"));
  b.logic("stored", Type::bits("CountWidth"), "values in the payload");
  b.logic("group_len", Type::bits("GroupLenWidth"));
  b.logic("group_bits", Type::bits("MaxGroupBits"));
  b.assign("bm_len", "(ZeroAware != 0 && w != '0) ? GroupLenWidth'(in_count_i) : '0");
  b.assign("stored", "ZeroAware != 0 ? nonzeros : in_count_i");
  b.assign("group_len", "GroupLenWidth'(HeaderBits) + bm_len +\n"
                        "      (w == '0 ? '0 : GroupLenWidth'(stored) * GroupLenWidth'(w))");
  b.assign("group_bits", "MaxGroupBits'(w) |\n"
                         "      (ZeroAware != 0 ? MaxGroupBits'(nonzero) << HeaderBits : '0) |\n"
                         "      (MaxGroupBits'(packed_at[w]) << (GroupLenWidth'(HeaderBits) + "
                         "bm_len))");
  b.blank();

  b.comment("Buffer: fill_q bits from bit 0, zeros above. A word leaves when one is full, or, "
            "once the block's last group is in (closing_q), until the padded block is out. A "
            "group enters while the buffer holds at most one word, so that it fits.");
  b.logic("buf_q", Type::bits("BufBits"));
  b.logic("fill_q", Type::bits("FillWidth"));
  b.logic("pos_q", Type::bits("PosWidth"), "bits of the block so far, modulo ContainerBits");
  b.logic("closing_q", Type::bit(), "the block's last group is in; padding words follow");
  b.logic("emit", Type::bit());
  b.logic("take", Type::bit());
  b.logic("fill_after", Type::bits("FillWidth"), "after this cycle's word left");
  b.logic("pos_next", Type::bits("PosWidth"));
  b.logic("pad", Type::bits("PosWidth"), "padding bits after a block's last group");
  b.assign("out_valid_o", "fill_q >= FillWidth'(StreamWidth)");
  b.assign("out_data_o", "buf_q[StreamWidth-1:0]");
  b.assign("out_last_o", "closing_q && fill_q == FillWidth'(StreamWidth)");
  b.assign("emit", "out_valid_o && out_ready_i");
  b.assign("in_ready_o", "!closing_q && fill_q <= FillWidth'(StreamWidth)");
  b.assign("take", "in_valid_i && in_ready_o");
  b.assign("fill_after", "emit ? fill_q - FillWidth'(StreamWidth) : fill_q");
  b.assign("pos_next", "pos_q + PosWidth'(group_len)");
  b.assign("pad", "in_last_i ? ~pos_next + PosWidth'(1) : '0");

  vlog::SeqItem& q = b.sequential();
  q.reset.line("buf_q <= '0;")
      .line("fill_q <= '0;")
      .line("pos_q <= '0;")
      .line("closing_q <= 1'b0;");
  q.clocked
      .line("buf_q <= (emit ? buf_q >> StreamWidth : buf_q) |\n"
            "         (take ? BufBits'(group_bits) << fill_after : '0);")
      .line("fill_q <= fill_after +\n"
            "          (take ? FillWidth'(group_len) + FillWidth'(pad) : '0);")
      .ifElse(
          "take",
          [](vlog::Stmts& s) {
            s.line("pos_q <= in_last_i ? '0 : pos_next;");
            s.line("closing_q <= in_last_i;");
          },
          [](vlog::Stmts& s) {
            s.ifElse("emit && out_last_o", [](vlog::Stmts& t) { t.line("closing_q <= 1'b0;"); });
          });
  return m;
}

} // namespace by::hw
