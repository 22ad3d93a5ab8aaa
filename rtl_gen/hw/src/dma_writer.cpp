// The DMA writer (docs/dma.md): an AXI4 write master.
//
// A request takes a completion slot (MaxInflight slots: tag, length, bursts outstanding,
// error) and one of two queue entries holding its data, pre-shifted to beat alignment, and
// its beat range. Two independent consumers walk the queue in order: the AW side cuts the
// entry into INCR bursts (at most MaxBurst beats, never across a 4 KiB boundary), each under a
// free ID that remembers the slot; the W side streams the entry's beats, with WSTRB marking
// exactly the request's bytes and WLAST where the AW side cut, by the same rule. W never runs
// ahead of AW: a burst's beats are offered only once its address is in the AW register, so
// W may still complete before AW (legal AXI4) but never refers to an address not yet offered.
// Every B response retires its ID and decrements its slot's count; a slot whose bursts are
// all issued and answered is finished, and finished slots are reported in round-robin order.
// An entry is free once both sides are past it, so a second request queues behind the first
// and W beats flow back to back across requests; an idle AW side splits an arriving request
// straight from the request port, so its first burst reaches the AW register in the cycle of
// the request and its first W beat can follow in the next cycle. Cost: 2 * (BufBeats beats + ~60
// bits) of flops for the queue, ~30 bits per slot and per ID, and one request-wide shifter.
#include "dma_common.h"

namespace by::hw {

using vlog::Type;

namespace {
const char* kWires = "mem2reg";
} // namespace

vlog::Module DmaWriterGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  requests(b);
  awSide(b);
  wSide(b);
  completions(b);
  return m;
}

vlog::Module DmaWriterGenerator::ports() const {

  vlog::Module m(names::kDmaWriter,
                 "DMA writer: an AXI4 write master. Each request (byte address, 1..MaxBytes "
                 "bytes of data, tag) is written with INCR bursts of full-width beats, at most "
                 "MaxBurst beats and never across a 4 KiB boundary, WSTRB marking exactly the "
                 "request's bytes, with up to MaxInflight bursts outstanding, each under its own "
                 "ID. W beats follow AW order without interleaving. Each request is reported "
                 "once, in any order, after all its B responses, with an error flag (some BRESP "
                 "!= OKAY). See docs/dma.md.");
  dma::declareParams(m, p_);
  m.clockAndReset();
  m.portGroup("Requests: write req_len_i bytes (1..MaxBytes) to byte address req_addr_i.");
  m.input("req_valid_i", Type::bit());
  m.output("req_ready_o", Type::bit());
  m.input("req_addr_i", Type::bits("AddrWidth"), "any byte address");
  m.input("req_len_i", Type::bits(dma::kLenPortWidth), "bytes");
  m.input("req_data_i", Type::bits("MaxBytes*8"), "byte k goes to req_addr_i + k");
  m.input("req_tag_i", Type::bits("TagWidth"), "returned with the completion");
  m.portGroup("Completions: one per request, in any order, after all its B responses.");
  m.output("done_valid_o", Type::bit());
  m.input("done_ready_i", Type::bit());
  m.output("done_tag_o", Type::bits("TagWidth"));
  m.output("done_error_o", Type::bit(), "a B response had BRESP != OKAY");
  m.portGroup("Status for performance counters.");
  m.output("busy_o", Type::bit(), "a request is in progress");
  m.output("bytes_written_o", Type::bits(dma::kLenPortWidth),
           "bytes of the request completed in the previous cycle");
  dma::addressChannelPorts(m, "aw", "write");
  m.portGroup("AXI4 write data channel.");
  m.output("m_axi_wvalid_o", Type::bit());
  m.input("m_axi_wready_i", Type::bit());
  m.output("m_axi_wdata_o", Type::bits("DataWidth"));
  m.output("m_axi_wstrb_o", Type::bits("DataWidth/8"), "exactly the request's bytes");
  m.output("m_axi_wlast_o", Type::bit());
  m.portGroup("AXI4 write response channel.");
  m.input("m_axi_bvalid_i", Type::bit());
  m.output("m_axi_bready_o", Type::bit(), "always 1");
  m.input("m_axi_bid_i", Type::bits("IdWidth"));
  m.input("m_axi_bresp_i", Type::bits(2));

  return m;
}

void DmaWriterGenerator::requests(vlog::Body& b) const {

  dma::declareLocalParams(b);
  b.localParam("Entries", "2", "request queue entries");
  b.localParam("EntryW", "1", "an entry index");
  b.localParam("TailW", "OffsetW + 1", "bytes of the last beat, 1..BeatBytes");
  b.localParam("PendW", "$clog2(MaxInflight + 1)", "bursts outstanding, 0..MaxInflight");
  b.localParam("BurstBeatW", "MaxBurst > 1 ? $clog2(MaxBurst) : 1", "a beat within a burst");
  b.blank();

  b.comment("Per-slot, per-ID and per-entry state, gathered into arrays for the muxes below.");
  b.logicArray("slot_busy", Type::bit(), "Slots", "taken by a request", kWires);
  b.logicArray("slot_done", Type::bit(), "Slots", "all bursts issued and answered", kWires);
  b.logicArray("slot_error", Type::bit(), "Slots", "", kWires);
  b.logicArray("done_cand", Type::bit(), "Slots", "done and not being reported", kWires);
  b.logicArray("id_busy", Type::bit(), "MaxInflight", "burst outstanding", kWires);
  b.logicArray("id_slot", Type::bits("SlotW"), "MaxInflight", "its request's slot", kWires);
  b.logicArray("entry_valid", Type::bit(), "Entries", "holds a request", kWires);
  b.logicArray("entry_aw_done", Type::bit(), "Entries", "all its bursts are issued", kWires);
  b.logicArray("entry_w_done", Type::bit(), "Entries", "all its beats are sent", kWires);
  b.logic("req_fire", Type::bit());
  b.logic("aw_load", Type::bit(), "a burst enters the AW register");
  b.logic("aw_ptr_q", Type::bits("EntryW"), "entry the AW side works on");
  b.logic("w_fire", Type::bit());
  b.logic("w_end", Type::bit(), "the last beat of a request is sent");
  b.logic("w_ptr_q", Type::bits("EntryW"), "entry the W side works on");
  b.logic("b_fire", Type::bit(), "a B response for an outstanding burst");
  b.logic("b_idx", Type::bits("IdxW"), "its ID");
  b.logic("b_slot", Type::bits("SlotW"), "its slot");
  b.logic("done_fire", Type::bit());
  b.logic("done_valid_q", Type::bit());
  b.logic("done_slot_q", Type::bits("SlotW"), "the slot being reported");
  b.blank();

  // --- Requests.
  b.comment("Requests take the lowest free slot and the next queue entry. The data is stored "
            "shifted up by the start offset, so entry beat j is bus beat j. Lengths above "
            "MaxBytes are clamped to MaxBytes; length 0 completes without bus traffic.");
  dma::requestIntake(b);
  b.logic("entry_wr_q", Type::bits("EntryW"), "next entry to fill");
  b.logic("req_tail", Type::bits("TailW"), "bytes in the last beat");
  b.logic("entry_push", Type::bit(), "a request with bytes enters the queue");
  b.assign("req_ready_o", "slot_free & ~entry_valid[entry_wr_q]");
  b.assign("req_fire", "req_valid_i & req_ready_o");
  b.assign("entry_push", "req_fire & ~req_empty");
  b.assign("req_beats", "BeatW'(req_end >> OffsetW)");
  b.assign("req_tail", "{1'b0, req_end[OffsetW-1:0]} + TailW'(1)");
  b.logicArray("entry_data_q", Type::bits("BufW"), "Entries", "", kWires);
  b.logicArray("entry_base_q", Type::bits("BeatAddrW"), "Entries", "", kWires);
  b.logicArray("entry_offset_q", Type::bits("OffsetW"), "Entries", "", kWires);
  b.logicArray("entry_tail_q", Type::bits("TailW"), "Entries", "", kWires);
  b.logicArray("entry_beats_q", Type::bits("BeatW"), "Entries", "", kWires);
  b.logicArray("entry_slot_q", Type::bits("SlotW"), "Entries", "", kWires);
  b.logicArray("slot_tag_q", Type::bits("TagWidth"), "Slots", "", kWires);
  b.logicArray("slot_len_q", Type::bits("LenW"), "Slots", "", kWires);
  b.flops({{{"entry_data_q[entry_wr_q]", "BufW'(req_data_i) << {req_offset, 3'b000}", ""},
            {"entry_base_q[entry_wr_q]", "req_base", ""},
            {"entry_offset_q[entry_wr_q]", "req_offset", ""},
            {"entry_tail_q[entry_wr_q]", "req_tail", ""},
            {"entry_beats_q[entry_wr_q]", "req_beats", ""},
            {"entry_slot_q[entry_wr_q]", "alloc_slot", ""}},
           "entry_push"});
  b.flops({{{"slot_tag_q[alloc_slot]", "req_tag_i", ""}, {"slot_len_q[alloc_slot]", "req_len", ""}},
           "req_fire"});
  b.flops({{{"entry_wr_q", "entry_wr_q + EntryW'(1)", "'0"}}, "entry_push"});
  b.blank();

  // --- AW side.
}

void DmaWriterGenerator::awSide(vlog::Body& b) const {

  b.comment("AW side: the splitter cuts the entry at aw_ptr_q into bursts. When it has nothing "
            "to do, it takes a new request straight from the request port (the entry it is "
            "written to is then entry aw_ptr_q), so that its first burst reaches the AW register "
            "in the cycle of the request.");
  b.logic("aw_idle", Type::bit(), "no entry has bursts left to issue");
  b.comment("(The entry at aw_ptr_q may be valid and done with AW when the AW side has lapped the "
            "W side; then the queue is full and no request arrives.)");
  b.logic("split_issued_q", Type::bits("BeatW"), "beats of the entry already issued");
  b.logic("split_valid", Type::bit(), "the entry has bursts to issue");
  b.logic("split_addr", Type::bits("BeatAddrW"), "beat address of its next burst");
  b.logic("split_left", Type::bits("BeatW"), "beats still to issue");
  b.logic("aw_slot", Type::bits("SlotW"), "the entry's slot");
  b.assign("aw_idle", "~entry_valid[aw_ptr_q] | entry_aw_done[aw_ptr_q]");
  b.assign("split_valid", "aw_idle ? entry_push : 1'b1");
  b.assign("split_addr",
           "aw_idle ? req_base : entry_base_q[aw_ptr_q] + BeatAddrW'(split_issued_q)");
  b.assign("split_left", "aw_idle ? req_beats : entry_beats_q[aw_ptr_q] - split_issued_q");
  b.assign("aw_slot", "aw_idle ? alloc_slot : entry_slot_q[aw_ptr_q]");
  dma::burstSplitter(b, "split");
  b.flops({{{"split_issued_q", "split_final ? '0 : split_issued_q + BeatW'(split_beats)", "'0"}},
           "aw_load"});
  b.flops({{{"aw_ptr_q", "aw_ptr_q + EntryW'(1)", "'0"}}, "aw_load & split_final"});
  b.blank();
  b.comment("Per entry: valid from the request until both the AW and the W side are past it.");
  vlog::Body& entry = b.genFor("e", "Entries", "gen_entry");
  entry.logic("push", Type::bit());
  entry.logic("aw_finish", Type::bit(), "its last burst enters the AW register");
  entry.logic("w_finish", Type::bit(), "its last beat is sent");
  entry.logic("valid_q", Type::bit());
  entry.logic("valid_d", Type::bit());
  entry.logic("aw_done_q", Type::bit());
  entry.logic("aw_done_d", Type::bit());
  entry.logic("w_done_q", Type::bit());
  entry.logic("w_done_d", Type::bit());
  entry.assign("push", "entry_push && entry_wr_q == EntryW'(e)");
  entry.assign("aw_finish", "aw_load && split_final && aw_ptr_q == EntryW'(e)");
  entry.assign("w_finish", "w_end && w_ptr_q == EntryW'(e)");
  entry.comb()
      .line("valid_d = valid_q;")
      .line("aw_done_d = aw_done_q | aw_finish;")
      .line("w_done_d = w_done_q | w_finish;")
      .ifElse(
          "push",
          [](vlog::Stmts& s) {
            s.line("valid_d = 1'b1;").line("aw_done_d = aw_finish;").line("w_done_d = 1'b0;");
          },
          [](vlog::Stmts& s) {
            s.ifElse("aw_done_d && w_done_d", [](vlog::Stmts& t) {
              t.line("valid_d = 1'b0;").line("aw_done_d = 1'b0;").line("w_done_d = 1'b0;");
            });
          });
  entry.flops({{{"valid_q", "valid_d", "1'b0"},
                {"aw_done_q", "aw_done_d", "1'b0"},
                {"w_done_q", "w_done_d", "1'b0"}}});
  entry.assign("entry_valid[e]", "valid_q");
  entry.assign("entry_aw_done[e]", "aw_done_q");
  entry.assign("entry_w_done[e]", "w_done_q");
  b.blank();

  dma::freeIdSearch(b);
  b.comment("Per ID: busy from its burst's entry into the AW register until its B response.");
  vlog::Body& id = b.genFor("i", "MaxInflight", "gen_id");
  id.logic("busy_q", Type::bit());
  id.logic("slot_q", Type::bits("SlotW"));
  id.flops(
      {{{"busy_q", "(aw_load && free_id == IdxW'(i)) | (busy_q & ~(b_fire && b_idx == IdxW'(i)))",
         "1'b0"}}});
  id.flops({{{"slot_q", "aw_slot", ""}}, "aw_load && free_id == IdxW'(i)"});
  id.assign("id_busy[i]", "busy_q");
  id.assign("id_slot[i]", "slot_q");
  b.blank();
}

void DmaWriterGenerator::wSide(vlog::Body& b) const {

  b.comment("AW register: the next burst of the entry, under a free ID.");
  dma::addressChannelRegister(b, "aw");
  b.assign("aw_load", "split_valid & id_free & (~aw_valid_q | m_axi_awready_i)");
  b.blank();

  // --- W side.
  b.comment("W side: the beats of the entry at w_ptr_q, in order. A burst ends after MaxBurst "
            "beats, at the last beat of a 4 KiB page or at the request's last beat: the "
            "splitter's rule, so WLAST falls where AWLEN says. w_ahead_q counts bursts whose "
            "address is in or past the AW register and whose beats are not all sent; W waits "
            "for it to be non-zero.");
  b.logic("w_beat_q", Type::bits("BeatW"), "beat within the entry");
  b.logic("w_burst_beat_q", Type::bits("BurstBeatW"), "beat within the burst");
  b.logic("w_ahead_q", Type::bits("PendW"));
  b.logic("w_buf", Type::bits("BufW"), "the entry's beats");
  b.logic("w_offset", Type::bits("OffsetW"));
  b.logic("w_tail", Type::bits("TailW"));
  b.logic("w_page_pos", Type::bits("PageW"), "beat within its 4 KiB page");
  b.logic("w_first", Type::bit(), "first beat of the request");
  b.logic("w_last_of_req", Type::bit(), "last beat of the request");
  b.logic("w_burst_end", Type::bit(), "WLAST");
  b.logic("w_burst_sent", Type::bit(), "the last beat of a burst is sent");
  b.logic("w_lo", Type::bits("OffsetW"), "first byte of the beat to write");
  b.logic("w_hi", Type::bits("TailW"), "one past the last byte to write");
  b.assign("w_buf", "entry_data_q[w_ptr_q]");
  b.assign("w_offset", "entry_offset_q[w_ptr_q]");
  b.assign("w_tail", "entry_tail_q[w_ptr_q]");
  b.assign("w_page_pos", "entry_base_q[w_ptr_q][PageW-1:0] + PageW'(w_beat_q)");
  b.assign("w_first", "w_beat_q == '0");
  b.assign("w_last_of_req", "w_beat_q == entry_beats_q[w_ptr_q] - BeatW'(1)");
  b.assign("w_burst_end", "w_last_of_req | (w_burst_beat_q == BurstBeatW'(MaxBurst - 1)) | "
                          "(w_page_pos == '1)");
  b.assign("w_lo", "w_first ? w_offset : '0");
  b.assign("w_hi", "w_last_of_req ? w_tail : TailW'(BeatBytes)");
  b.assign("m_axi_wvalid_o", "entry_valid[w_ptr_q] & ~entry_w_done[w_ptr_q] & (w_ahead_q != '0)");
  b.assign("m_axi_wdata_o", "w_buf[w_beat_q*DataWidth +: DataWidth]");
  b.assign("m_axi_wstrb_o", "(~BeatBytes'(0) << w_lo) & ~(~BeatBytes'(0) << w_hi)");
  b.assign("m_axi_wlast_o", "w_burst_end");
  b.assign("w_fire", "m_axi_wvalid_o & m_axi_wready_i");
  b.assign("w_end", "w_fire & w_last_of_req");
  b.assign("w_burst_sent", "w_fire & w_burst_end");
  b.flops({{{"w_beat_q", "w_last_of_req ? '0 : w_beat_q + BeatW'(1)", "'0"},
            {"w_burst_beat_q", "w_burst_end ? '0 : w_burst_beat_q + BurstBeatW'(1)", "'0"}},
           "w_fire"});
  b.flops({{{"w_ptr_q", "w_ptr_q + EntryW'(1)", "'0"}}, "w_end"});
  b.flops({{{"w_ahead_q", "w_ahead_q + PendW'(aw_load) - PendW'(w_burst_sent)", "'0"}}});
  b.blank();

  // --- B.
  b.comment("B: each response retires its ID and counts against its slot. Responses for IDs "
            "not outstanding are dropped (a protocol error of the slave).");
  b.logic("b_ours", Type::bit(), "the ID bits above IdxW are zero");
  b.assign("b_idx", "m_axi_bid_i[IdxW-1:0]");
  auto [wideId, exactId] = b.genIf("IdWidth > IdxW", "gen_wide_bid", "gen_exact_bid");
  wideId->assign("b_ours", "m_axi_bid_i[IdWidth-1:IdxW] == '0");
  exactId->assign("b_ours", "1'b1");
  b.assign("b_fire", "m_axi_bvalid_i & b_ours & id_busy[b_idx]");
  b.assign("b_slot", "id_slot[b_idx]");
  b.assign("m_axi_bready_o", "1'b1");
  b.blank();

  // --- Completion slots.
}

void DmaWriterGenerator::completions(vlog::Body& b) const {

  // The slot events decoded once a cycle (dma::eventVector): the slots' state, under enables, is
  // then computed only at the clock edge.
  dma::eventVector(b, "slot_alloc", "Slots", "req_fire", "alloc_slot", "taken by the request");
  dma::eventVector(b, "slot_issue", "Slots", "aw_load", "aw_slot",
                   "one of its bursts enters the AW register");
  dma::eventVector(b, "slot_answer", "Slots", "b_fire", "b_slot",
                   "a B response for one of its bursts");
  dma::eventVector(b, "slot_retire", "Slots", "done_fire", "done_slot_q", "reported");
  b.logic("b_bad", Type::bit(), "the B response is an error");
  b.assign("b_bad", "m_axi_bresp_i != 2'b00");
  b.comment("Per slot: taken at the request; done when all its bursts are issued and "
            "answered; free again when reported.");
  vlog::Body& slot = b.genFor("s", "Slots", "gen_slot");
  slot.logic("busy_q", Type::bit());
  slot.logic("issued_q", Type::bit(), "all its bursts are issued");
  slot.logic("error_q", Type::bit());
  slot.logic("pending_q", Type::bits("PendW"), "bursts issued and not answered");
  // An allocation loads the request's start (a request's first burst may be issued, and a
  // retire free the slot, in the cycle it arrives).
  slot.flops({{{"busy_q", "!slot_retire[s]", "1'b0"}}, "slot_alloc[s] | slot_retire[s]"});
  slot.flops({{{"issued_q",
                "(slot_alloc[s] ? req_empty : issued_q) | (slot_issue[s] & split_final)", "1'b0"}},
              "slot_alloc[s] | slot_issue[s]"});
  slot.flops({{{"error_q", "(slot_alloc[s] ? 1'b0 : error_q) | (slot_answer[s] & b_bad)", "1'b0"}},
              "slot_alloc[s] | slot_answer[s]"});
  slot.flops({{{"pending_q",
                "(slot_alloc[s] ? '0 : pending_q) + PendW'(slot_issue[s]) -\n"
                "            PendW'(slot_answer[s])",
                "'0"}},
              "slot_alloc[s] | slot_issue[s] | slot_answer[s]"});
  slot.assign("slot_busy[s]", "busy_q");
  slot.assign("slot_done[s]", "busy_q && issued_q && pending_q == '0");
  slot.assign("slot_error[s]", "error_q");
  slot.assign("done_cand[s]", "slot_done[s] && !(done_valid_q && done_slot_q == SlotW'(s))");
  b.blank();

  // --- Completions.
  b.comment("Completions: finished slots in round-robin order.");
  b.logic("done_advance", Type::bit(), "the completion register may take the next slot");
  dma::roundRobin(b, "done_cand", "done_slot_q", "pick");
  b.assign("done_fire", "done_valid_q & done_ready_i");
  b.assign("done_advance", "~done_valid_q | done_ready_i");
  b.flops({{{"done_valid_q", "pick_valid", "1'b0"}}, "done_advance"});
  b.flops({{{"done_slot_q", "pick_slot", "'0"}}, "done_advance & pick_valid"});
  b.assign("done_valid_o", "done_valid_q");
  b.assign("done_tag_o", "slot_tag_q[done_slot_q]");
  b.assign("done_error_o", "slot_error[done_slot_q]");
  b.blank();

  // --- Status.
  b.logic("bytes_written_q", Type::bits("LenW"));
  b.flops({{{"bytes_written_q", "done_fire ? slot_len_q[done_slot_q] : '0", "'0"}}});
  b.assign("bytes_written_o", "bytes_written_q");
  b.comb().line("busy_o = 1'b0;").forLoop("i", "Slots", [](vlog::Stmts& s) {
    s.line("busy_o = busy_o | slot_busy[i];");
  });
}

} // namespace by::hw
