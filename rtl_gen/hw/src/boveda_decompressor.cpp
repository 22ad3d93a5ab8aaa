// The Boveda decompressor (docs/boveda.md, "Hardware"): a bit buffer that StreamWidth-bit
// words of the container stream enter at the top, and that one group at a time leaves at the
// bottom. The group at bit 0 is decoded combinationally: width code, zero bitmap (zero-aware),
// then its payload. Every candidate width c extracts slot j as payload[j*c +: c] with
// constant selects, and the group's width picks one candidate per slot (a (W+1)-way mux per
// slot instead of a variable shifter per value); zero-aware groups then route slot rank(i)
// to lane i. After a block's last value the padding up to the container boundary is dropped
// (and checked to be zero), so the next block's words follow without a gap.
// Cost: two BufBits-wide barrel shifters (consume, append; BufBits = one group and two
// words), GroupSize (W+1)-way muxes of W bits, and for zero-aware GroupSize GroupSize-way
// muxes. Throughput: one group per cycle while StreamWidth bits per cycle arrive (a buffer of
// one group and one word took a group every other cycle once groups were nearly a word).
#include "boveda_common.h"

namespace by::hw {

using vlog::Type;

vlog::Module BovedaDecompressorGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  groupDecode(b);
  consume(b);
  return m;
}

vlog::Module BovedaDecompressorGenerator::ports() const {

  vlog::Module m(names::kBovedaDecompressor,
                 "Boveda decompressor: container-stream words in, decoded groups of GroupSize "
                 "values out (docs/boveda.md). A block is announced with its length in values "
                 "and in stream words; it takes exactly that many words and always ends, "
                 "flagging a stream that does not fit (too short, trailing bits, bad code).");
  boveda::declareParams(m, p_);
  m.param("LenWidth", std::to_string(p_.lenWidth), "bits of a block length in values");
  m.clockAndReset();
  m.portGroup("Block: its values (at least 1) and its stream words (containers * "
              "ContainerBits / StreamWidth).");
  m.input("blk_valid_i", Type::bit());
  m.output("blk_ready_o", Type::bit());
  m.input("blk_len_i", Type::bits("LenWidth"));
  m.input("blk_words_i", Type::bits("LenWidth"));
  m.portGroup("Container stream in, bit 0 of word 0 first.");
  m.input("in_valid_i", Type::bit());
  m.output("in_ready_o", Type::bit());
  m.input("in_data_i", Type::bits("StreamWidth"));
  m.portGroup("Decoded groups out: value i at bits [i*ElemWidth +: ElemWidth], lanes from "
              "out_count_o on are 0.");
  m.output("out_valid_o", Type::bit());
  m.input("out_ready_i", Type::bit());
  m.output("out_data_o", Type::bits("GroupSize*ElemWidth"));
  m.output("out_count_o", Type::bits(boveda::kCountType), "values in this group");
  m.output("out_last_o", Type::bit(), "the block's last group");
  m.portGroup("Block end: one pulse once all its words were taken and its last group left.");
  m.output("done_valid_o", Type::bit());
  m.output("done_error_o", Type::bit(),
           "malformed: a width code above ElemWidth, too few words for its values, or padding "
           "that is not zero or not exactly up to the container boundary");

  return m;
}

void BovedaDecompressorGenerator::groupDecode(vlog::Body& b) const {

  boveda::declareGroupLocals(b, 2);
  b.localParam("FillWidth", "$clog2(BufBits+1)");
  b.localParam("SlotBits", "$clog2(GroupSize)", "a lane index");
  b.blank();

  b.comment("State: the bit buffer (fill_q valid bits from bit 0, zeros above), the block being "
            "decoded and the output register.");
  b.logic("buf_q", Type::bits("BufBits"));
  b.logic("fill_q", Type::bits("FillWidth"));
  b.logic("active_q", Type::bit(), "a block is being decoded (groups, then padding)");
  b.logic("left_q", Type::bits("LenWidth"), "values of the block not yet decoded");
  b.logic("words_q", Type::bits("LenWidth"), "words of the block not yet taken");
  b.logic("pos_q", Type::bits("PosWidth"), "bits of the block consumed, modulo ContainerBits");
  b.logic("pad_q", Type::bits("PosWidth"), "padding bits still expected (left_q = 0)");
  b.logic("err_q", Type::bit());
  b.logic("out_valid_q", Type::bit());
  b.logic("out_data_q", Type::bits("PayloadBits"));
  b.logic("out_count_q", Type::bits("CountWidth"));
  b.logic("out_last_q", Type::bit());
  b.blank();

  b.comment("The group at bit 0: its length n, width code, bitmap and size in bits.");
  b.logic("n", Type::bits("CountWidth"), "values in the group (fewer in a block's last group)");
  b.logic("code", Type::bits("HeaderBits"));
  b.logic("bad_code", Type::bit(), "a width above ElemWidth: not a stream of this format");
  b.logic("w", Type::bits("WBits"), "group width");
  b.logic("lanes", Type::bits("GroupSize"), "lanes 0..n-1");
  b.logic("bitmap", Type::bits("GroupSize"), "lanes holding a stored value");
  b.logic("bm_len", Type::bits("GroupLenWidth"), "bits of the zero bitmap in the stream");
  b.logic("group_len", Type::bits("GroupLenWidth"), "bits of the whole group");
  b.assign("n", "left_q < LenWidth'(GroupSize) ? CountWidth'(left_q) : CountWidth'(GroupSize)");
  b.assign("code", "buf_q[HeaderBits-1:0]");
  b.assign("bad_code", "32'(code) > 32'(ElemWidth)");
  b.assign("w", "bad_code ? WBits'(ElemWidth) : WBits'(code)");
  b.comb().forLoop("i", "GroupSize", [](vlog::Stmts& s) { s.line("lanes[i] = 32'(i) < 32'(n);"); });
  b.assign("bitmap", "ZeroAware != 0 ? buf_q[HeaderBits +: GroupSize] & lanes : lanes");
  boveda::rankLogic(b, "bitmap", "rank", "stored");
  b.assign("bm_len", "(ZeroAware != 0 && w != '0) ? GroupLenWidth'(n) : '0");
  b.assign("group_len", "GroupLenWidth'(HeaderBits) + bm_len +\n"
                        "      (w == '0 ? '0 : GroupLenWidth'(stored) * GroupLenWidth'(w))");
  b.blank();

  b.comment("Payload slots: slot j is the j-th stored value at the group's width.");
  b.logic("payload", Type::bits("PayloadBits"), "the group's payload bits and beyond");
  b.assign("payload", "PayloadBits'(buf_q >> (GroupLenWidth'(HeaderBits) + bm_len))");
  b.logicArray("slot", Type::bits("ElemWidth"), "GroupSize", "", "mem2reg");
  vlog::Body& slot = b.genFor("j", "GroupSize", "gen_slot");
  slot.logicArray("cand", Type::bits("ElemWidth"), "ElemWidth+1", "slot j at each width",
                  "mem2reg");
  slot.assign("cand[0]", "'0");
  vlog::Body& cand = slot.genFor("c", "ElemWidth", "gen_width");
  cand.comment("Width c+1: the low c+1 bits, sign-extended.");
  cand.assign("cand[c+1]", "ElemWidth'($signed(payload[j*(c+1) +: c+1]))");
  slot.assign("slot[j]", "cand[w]");
  b.comment("Lane i: plain groups store every lane in order; zero-aware groups store the "
            "non-zero lanes only, lane i in slot rank(i).");
  b.logic("values", Type::bits("PayloadBits"));
  vlog::Body& lane = b.genFor("i", "GroupSize", "gen_lane");
  lane.logic("src", Type::bits("SlotBits"));
  lane.assign("src", "ZeroAware != 0 ? SlotBits'(rank[i*CountWidth +: CountWidth]) : "
                     "SlotBits'(i)");
  lane.assign("values[i*ElemWidth +: ElemWidth]", "bitmap[i] ? slot[src] : '0");
  b.blank();
}

void BovedaDecompressorGenerator::consume(vlog::Body& b) const {

  b.comment("Consume a group once all its bits are in: the header first, then the bitmap (so "
            "that the popcount is of real bits), then the whole group. Once every word of the "
            "block is in (starved), a group that needs more bits than are left is read with "
            "zeros above them and flagged, so that a short stream still ends.");
  b.logic("starved", Type::bit(), "all words of the block are in");
  b.assign("starved", "words_q == '0");
  b.logic("group_ready", Type::bit());
  b.logic("out_free", Type::bit());
  b.logic("take_group", Type::bit());
  b.logic("last_group", Type::bit());
  b.assign("group_ready",
           "active_q && left_q != '0 && (starved || (fill_q >= FillWidth'(HeaderBits) &&\n"
           "      fill_q >= FillWidth'(HeaderBits) + FillWidth'(bm_len) && fill_q >= "
           "FillWidth'(group_len)))");
  b.logic("short_group", Type::bit(), "the group runs past the block's last word");
  b.assign("short_group", "32'(group_len) > 32'(fill_q)");
  b.assign("out_free", "!out_valid_q || out_ready_i");
  b.assign("take_group", "group_ready && out_free");
  b.assign("last_group", "left_q <= LenWidth'(GroupSize)");
  b.comment("After the last group: drop everything else of the block (all of the buffer each "
            "cycle, the block's remaining words as they come). It must be zeros, exactly up "
            "to the container boundary.");
  b.logic("padding", Type::bit());
  b.logic("drop", Type::bits("FillWidth"));
  b.logic("pad_done", Type::bit(),
          "the last padding bits leave this cycle and the last group has left the output");
  b.logic("pad_bad", Type::bit(), "a dropped padding bit is 1, or too many or too few of them");
  b.assign("padding", "active_q && left_q == '0");
  b.assign("drop", "padding ? fill_q : '0");
  b.assign("pad_done", "padding && starved && out_free");
  b.assign("pad_bad", "padding && (buf_q != '0 || 32'(drop) > 32'(pad_q) ||\n"
                      "      (pad_done && 32'(drop) != 32'(pad_q)))");
  b.logic("pos_next", Type::bits("PosWidth"), "position after the group");
  b.assign("pos_next", "pos_q + PosWidth'(group_len)");
  b.blank();

  b.comment("Buffer: shift out what was consumed, append a word above the rest. Words are "
            "taken while a whole group and two words fit (from flops only, no path from "
            "out_ready_i): with one word in reserve a group can leave and a word enter in "
            "the same cycle, so groups of up to a word's bits flow at one per cycle.");
  b.logic("shift", Type::bits("FillWidth"));
  b.logic("fill_after", Type::bits("FillWidth"));
  b.logic("take_in", Type::bit());
  b.assign("in_ready_o",
           "active_q && !starved && fill_q <= FillWidth'(MaxGroupBits + StreamWidth)");
  b.assign("take_in", "in_valid_i && in_ready_o");
  b.assign("shift", "take_group ? (short_group ? fill_q : FillWidth'(group_len)) : drop");
  b.assign("fill_after", "fill_q - shift");
  b.blank();

  b.comment("The next block may start in the cycle the current one ends.");
  b.assign("blk_ready_o", "!active_q || pad_done");
  b.assign("out_valid_o", "out_valid_q");
  b.assign("out_data_o", "out_data_q");
  b.assign("out_count_o", "out_count_q");
  b.assign("out_last_o", "out_last_q");
  b.assign("done_valid_o", "pad_done");
  b.assign("done_error_o", "err_q || pad_bad");

  vlog::SeqItem& q = b.sequential();
  q.reset.line("buf_q <= '0;")
      .line("fill_q <= '0;")
      .line("active_q <= 1'b0;")
      .line("left_q <= '0;")
      .line("words_q <= '0;")
      .line("pos_q <= '0;")
      .line("pad_q <= '0;")
      .line("err_q <= 1'b0;")
      .line("out_valid_q <= 1'b0;")
      .line("out_data_q <= '0;")
      .line("out_count_q <= '0;")
      .line("out_last_q <= 1'b0;");
  q.clocked.line("buf_q <= (buf_q >> shift) | (take_in ? BufBits'(in_data_i) << fill_after : '0);")
      .line("fill_q <= fill_after + (take_in ? FillWidth'(StreamWidth) : '0);")
      .line("words_q <= words_q - LenWidth'(take_in);")
      .ifElse("padding",
              [](vlog::Stmts& s) {
                s.line("pad_q <= pad_q - PosWidth'(drop);");
                s.line("err_q <= err_q | pad_bad;");
                s.ifElse("pad_done", [](vlog::Stmts& t) { t.line("active_q <= 1'b0;"); });
              })
      .ifElse("blk_valid_i && blk_ready_o",
              [](vlog::Stmts& s) {
                s.line("active_q <= 1'b1;")
                    .line("left_q <= blk_len_i;")
                    .line("words_q <= blk_words_i;")
                    .line("pos_q <= '0;")
                    .line("err_q <= 1'b0;");
              })
      .ifElse(
          "take_group",
          [](vlog::Stmts& s) {
            s.line("left_q <= left_q - LenWidth'(n);")
                .line("pos_q <= pos_next;")
                .line("pad_q <= ~pos_next + PosWidth'(1);")
                .line("err_q <= err_q | bad_code | (starved && short_group);")
                .line("out_valid_q <= 1'b1;")
                .line("out_data_q <= values;")
                .line("out_count_q <= n;")
                .line("out_last_q <= last_group;");
          },
          [](vlog::Stmts& s) {
            s.ifElse("out_ready_i", [](vlog::Stmts& t) { t.line("out_valid_q <= 1'b0;"); });
          });
}

} // namespace by::hw
