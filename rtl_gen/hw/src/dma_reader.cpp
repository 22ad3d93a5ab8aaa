// The DMA reader (docs/dma.md): an AXI4 read master answering byte-addressed requests.
//
// A request takes a free slot (MaxInflight slots), which holds its fields and a buffer of
// BufBeats bus beats, and its slot number enters the split queue (unless the queue is empty
// and the splitter finishes it in the cycle it arrives). The splitter cuts the request at the
// queue's head (or the arriving one) into INCR bursts of full-width beats (at most MaxBurst beats,
// never across a 4 KiB boundary); each burst takes a free ID from the pool, which remembers
// the slot and the buffer position of the burst's next beat, so R beats of any ID, in any
// interleaving, land directly in place; RREADY is always high because every issued beat has
// its room. A slot whose beats have all arrived is finished; finished slots are answered in
// round-robin order, the response being the slot buffer shifted down by the start offset with
// the bytes past the length cleared. Cost: MaxInflight * (BufBeats beats + ~60 bits) of flops,
// one BufW-bit shifter and a MaxInflight-way response mux.
#include "dma_common.h"

namespace by::hw {

using vlog::Type;

namespace {
const char* kWires = "mem2reg";
} // namespace

vlog::Module DmaReaderGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  slots(b);
  splitQueue(b);
  channels(b);
  return m;
}

vlog::Module DmaReaderGenerator::ports() const {

  vlog::Module m(names::kDmaReader,
                 "DMA reader: an AXI4 read master. Each request (byte address, 1..MaxBytes "
                 "bytes, tag) is split into INCR bursts of full-width beats, at most MaxBurst "
                 "beats and never across a 4 KiB boundary, with up to MaxInflight bursts "
                 "outstanding, each under its own ID. Beats may return in any order across IDs. "
                 "Each request is answered once, in any order, with its bytes in place (byte k "
                 "of resp_data_o is the byte at req_addr_i + k, zero from req_len_i on) and an "
                 "error flag (some beat had RRESP != OKAY or a misplaced RLAST). See "
                 "docs/dma.md.");
  dma::declareParams(m, p_);
  m.clockAndReset();
  m.portGroup("Requests: read req_len_i bytes (1..MaxBytes) from byte address req_addr_i.");
  m.input("req_valid_i", Type::bit());
  m.output("req_ready_o", Type::bit(), "a request slot is free");
  m.input("req_addr_i", Type::bits("AddrWidth"), "any byte address");
  m.input("req_len_i", Type::bits(dma::kLenPortWidth), "bytes");
  m.input("req_tag_i", Type::bits("TagWidth"), "returned with the response");
  m.portGroup("Responses: one per request, in any order.");
  m.output("resp_valid_o", Type::bit());
  m.input("resp_ready_i", Type::bit());
  m.output("resp_tag_o", Type::bits("TagWidth"));
  m.output("resp_data_o", Type::bits("MaxBytes*8"), "byte k = byte at req_addr_i + k");
  m.output("resp_error_o", Type::bit(), "a beat had RRESP != OKAY");
  m.portGroup("Status for performance counters.");
  m.output("busy_o", Type::bit(), "a request is in progress");
  m.output("bytes_read_o", Type::bits(dma::kLenPortWidth),
           "bytes of the response handed over in the previous cycle");
  dma::addressChannelPorts(m, "ar", "read");
  m.portGroup("AXI4 read data channel.");
  m.input("m_axi_rvalid_i", Type::bit());
  m.output("m_axi_rready_o", Type::bit(), "always 1: every beat has its room");
  m.input("m_axi_rid_i", Type::bits("IdWidth"));
  m.input("m_axi_rdata_i", Type::bits("DataWidth"));
  m.input("m_axi_rresp_i", Type::bits(2));
  m.input("m_axi_rlast_i", Type::bit());

  return m;
}

void DmaReaderGenerator::slots(vlog::Body& b) const {

  dma::declareLocalParams(b);
  b.localParam("RespW", "MaxBytes * 8", "bits of a response");
  b.localParam("SplitCntW", "SlotW + 1", "split queue fill, 0..Slots");
  b.blank();

  b.comment("Per-slot and per-ID state, gathered into arrays for the muxes below.");
  b.logicArray("slot_busy", Type::bit(), "Slots", "taken by a request", kWires);
  b.logicArray("slot_done", Type::bit(), "Slots", "all beats arrived", kWires);
  b.logicArray("slot_error", Type::bit(), "Slots", "", kWires);
  b.logicArray("resp_cand", Type::bit(), "Slots", "done and not being answered", kWires);
  b.logicArray("id_busy", Type::bit(), "MaxInflight", "burst outstanding", kWires);
  b.logicArray("id_slot", Type::bits("SlotW"), "MaxInflight", "its request's slot", kWires);
  b.logicArray("id_pos", Type::bits("BeatW"), "MaxInflight", "buffer beat of its next beat",
               kWires);
  b.logicArray("id_last", Type::bit(), "MaxInflight", "its next beat is its last", kWires);
  b.logic("req_fire", Type::bit());
  b.logic("ar_load", Type::bit(), "a burst enters the AR register");
  b.logic("r_fire", Type::bit(), "an R beat for an outstanding burst");
  b.logic("r_idx", Type::bits("IdxW"), "the R beat's ID");
  b.logic("r_slot", Type::bits("SlotW"), "its slot");
  b.logic("r_pos", Type::bits("BeatW"), "its buffer beat");
  b.logic("r_bad", Type::bit(), "RRESP != OKAY or RLAST misplaced");
  b.logic("resp_fire", Type::bit());
  b.logic("resp_valid_q", Type::bit());
  b.logic("resp_slot_q", Type::bits("SlotW"), "the slot being answered");
  b.blank();

  // --- Requests.
  b.comment("Requests take the lowest free slot; a request's fields stay in its slot until it "
            "is answered. Lengths above MaxBytes are clamped to MaxBytes; length 0 is answered "
            "with no data.");
  dma::requestIntake(b);
  b.assign("req_ready_o", "slot_free");
  b.assign("req_fire", "req_valid_i & slot_free");
  b.assign("req_beats", "req_empty ? '0 : BeatW'(req_end >> OffsetW)");
  b.logicArray("slot_base_q", Type::bits("BeatAddrW"), "Slots", "", kWires);
  b.logicArray("slot_offset_q", Type::bits("OffsetW"), "Slots", "", kWires);
  b.logicArray("slot_len_q", Type::bits("LenW"), "Slots", "", kWires);
  b.logicArray("slot_beats_q", Type::bits("BeatW"), "Slots", "", kWires);
  b.logicArray("slot_tag_q", Type::bits("TagWidth"), "Slots", "", kWires);
  b.flops({{{"slot_base_q[alloc_slot]", "req_base", ""},
            {"slot_offset_q[alloc_slot]", "req_offset", ""},
            {"slot_len_q[alloc_slot]", "req_len", ""},
            {"slot_beats_q[alloc_slot]", "req_beats", ""},
            {"slot_tag_q[alloc_slot]", "req_tag_i", ""}},
           "req_fire"});
  b.blank();

  // --- Split queue and splitter.
}

void DmaReaderGenerator::splitQueue(vlog::Body& b) const {

  b.comment("Split queue: slots in request order, waiting for their bursts to be issued. It "
            "holds each busy slot at most once, so Slots entries never overflow. When it is "
            "empty the splitter takes a new request straight from the request port, so that its "
            "first burst reaches the AR register in the cycle of the request; the request "
            "enters the queue only if bursts remain.");
  b.logicArray("split_queue_q", Type::bits("SlotW"), "Slots", "", kWires);
  b.logic("split_wr_q", Type::bits("SlotW"));
  b.logic("split_rd_q", Type::bits("SlotW"));
  b.logic("split_count_q", Type::bits("SplitCntW"));
  b.logic("split_issued_q", Type::bits("BeatW"), "beats of the head request already issued");
  b.logic("split_bypass", Type::bit(), "the queue is empty: split the arriving request");
  b.logic("split_new", Type::bit(), "a request with bytes arrives");
  b.logic("split_valid", Type::bit(), "a request waits for bursts");
  b.logic("split_slot", Type::bits("SlotW"), "its slot");
  b.logic("split_addr", Type::bits("BeatAddrW"), "beat address of its next burst");
  b.logic("split_left", Type::bits("BeatW"), "beats still to issue");
  b.logic("split_push", Type::bit(), "a request enters the queue");
  b.logic("split_pop", Type::bit(), "the head's last burst is issued");
  b.assign("split_bypass", "split_count_q == '0");
  b.assign("split_new", "req_fire & ~req_empty");
  b.assign("split_valid", "split_bypass ? split_new : 1'b1");
  b.assign("split_slot", "split_bypass ? alloc_slot : split_queue_q[split_rd_q]");
  b.assign("split_addr",
           "split_bypass ? req_base : slot_base_q[split_slot] + BeatAddrW'(split_issued_q)");
  b.assign("split_left", "split_bypass ? req_beats : slot_beats_q[split_slot] - split_issued_q");
  dma::burstSplitter(b, "split");
  b.assign("split_push", "split_new & ~(split_bypass & ar_load & split_final)");
  b.assign("split_pop", "ar_load & split_final & ~split_bypass");
  b.flops({{{"split_queue_q[split_wr_q]", "alloc_slot", ""}}, "split_push"});
  b.flops(
      {{{"split_wr_q", "(split_wr_q == SlotW'(Slots - 1)) ? '0 : split_wr_q + SlotW'(1)", "'0"}},
       "split_push"});
  b.flops(
      {{{"split_rd_q", "(split_rd_q == SlotW'(Slots - 1)) ? '0 : split_rd_q + SlotW'(1)", "'0"}},
       "split_pop"});
  b.flops({{{"split_count_q", "split_count_q + SplitCntW'(split_push) - SplitCntW'(split_pop)",
             "'0"}}});
  b.flops({{{"split_issued_q", "split_final ? '0 : split_issued_q + BeatW'(split_beats)", "'0"}},
           "ar_load"});
  b.blank();

  // --- ID pool and AR.
  dma::freeIdSearch(b);
  b.comment("Per ID: the burst's slot, the buffer beat of its next beat and of its last beat.");
  // The ID events decoded once a cycle (dma::eventVector), as the slots' below.
  dma::eventVector(b, "id_alloc", "MaxInflight", "ar_load", "free_id",
                   "the ID takes the burst entering the AR register");
  dma::eventVector(b, "id_beat", "MaxInflight", "r_fire", "r_idx", "an R beat for the ID");
  vlog::Body& id = b.genFor("i", "MaxInflight", "gen_id");
  id.logic("busy_q", Type::bit());
  id.logic("pos_q", Type::bits("BeatW"));
  id.logic("last_q", Type::bits("BeatW"));
  id.logic("slot_q", Type::bits("SlotW"));
  // Loaded under an enable rather than through _d signals: the same logic to synthesis, but a
  // Verilated model skips the IDs with nothing to do (most of them, every cycle).
  id.flops({{{"busy_q", "id_alloc[i] | (pos_q != last_q)", "1'b0"},
             {"pos_q", "id_alloc[i] ? split_issued_q : pos_q + BeatW'(1)", "'0"}},
            "id_alloc[i] | id_beat[i]"});
  id.flops({{{"slot_q", "split_slot", ""},
             {"last_q", "split_issued_q + BeatW'(split_beats) - BeatW'(1)", ""}},
            "id_alloc[i]"});
  id.assign("id_busy[i]", "busy_q");
  id.assign("id_slot[i]", "slot_q");
  id.assign("id_pos[i]", "pos_q");
  id.assign("id_last[i]", "pos_q == last_q");
  b.blank();
}

void DmaReaderGenerator::channels(vlog::Body& b) const {

  b.comment("AR register: the next burst of the head request, under a free ID.");
  dma::addressChannelRegister(b, "ar");
  b.assign("ar_load", "split_valid & id_free & (~ar_valid_q | m_axi_arready_i)");
  b.blank();

  // --- R.
  b.comment("R: a beat goes straight into its slot's buffer at the position its ID "
            "remembers. Beats for IDs not outstanding are dropped (a protocol error of the "
            "slave). A beat with RRESP != OKAY, or an RLAST that does not match the burst "
            "length, marks the request as failed.");
  b.logic("r_ours", Type::bit(), "the ID bits above IdxW are zero");
  b.assign("r_idx", "m_axi_rid_i[IdxW-1:0]");
  auto [wideId, exactId] = b.genIf("IdWidth > IdxW", "gen_wide_rid", "gen_exact_rid");
  wideId->assign("r_ours", "m_axi_rid_i[IdWidth-1:IdxW] == '0");
  exactId->assign("r_ours", "1'b1");
  b.assign("r_fire", "m_axi_rvalid_i & r_ours & id_busy[r_idx]");
  b.assign("r_slot", "id_slot[r_idx]");
  b.assign("r_pos", "id_pos[r_idx]");
  b.assign("r_bad", "(m_axi_rresp_i != 2'b00) | (m_axi_rlast_i != id_last[r_idx])");
  b.assign("m_axi_rready_o", "1'b1");
  b.logicArray("slot_data", Type::bits("BufW"), "Slots", "each slot's beats", kWires);
  // Each beat of each slot a register of its own, loaded under its own compare: written as
  // slot_data[r_slot][r_pos*DataWidth +: DataWidth], a variable word times a variable
  // part-select, Yosys elaborated a decision tree over every (slot, offset) pair (issue 17).
  // Generate loops, not procedural ones: Verilator does not unroll a procedural loop of more
  // than 64 iterations, and a narrow bus with long requests has more beats than that (32-bit
  // bus, max_bytes 256: 65).
  // The write enables decoded once (a slot's beat, a position): a Verilated model then tests a
  // bit per register rather than two compares.
  dma::eventVector(b, "slot_beat", "Slots", "r_fire", "r_slot", "the R beat is for this slot");
  b.logic("pos_hit", Type::bits("BufBeats"), "the R beat is at this position of its slot");
  b.genFor("q", "BufBeats", "gen_pos_hit").assign("pos_hit[q]", "32'(r_pos) == q");
  vlog::Body& beat = b.genFor("i", "Slots", "gen_slot_data").genFor("p", "BufBeats", "gen_beat");
  beat.logic("data_q", Type::bits("DataWidth"));
  beat.clocked().clocked.ifElse("slot_beat[i] && pos_hit[p]",
                                [](vlog::Stmts& v) { v.line("data_q <= m_axi_rdata_i;"); });
  beat.assign("slot_data[i][p*DataWidth +: DataWidth]", "data_q");
  b.blank();

  // --- Slot state.
  b.comment("Per slot: taken at the request, done when all its beats have arrived, free again "
            "when answered.");
  dma::eventVector(b, "slot_alloc", "Slots", "req_fire", "alloc_slot", "taken by the request");
  dma::eventVector(b, "slot_retire", "Slots", "resp_fire", "resp_slot_q", "answered");
  vlog::Body& slot = b.genFor("s", "Slots", "gen_slot");
  slot.logic("busy_q", Type::bit());
  slot.logic("error_q", Type::bit());
  slot.logic("rcvd_q", Type::bits("BeatW"), "beats arrived");
  // Under enables, as the IDs above: a retire frees the slot even as it is taken again; a beat
  // counts (its error sticks) from the zeros an allocation loads.
  slot.flops({{{"busy_q", "!slot_retire[s]", "1'b0"}}, "slot_alloc[s] | slot_retire[s]"});
  slot.flops({{{"error_q", "slot_beat[s] ? error_q | r_bad : 1'b0", "1'b0"},
               {"rcvd_q", "slot_beat[s] ? rcvd_q + BeatW'(1) : '0", "'0"}},
              "slot_alloc[s] | slot_beat[s]"});
  slot.assign("slot_busy[s]", "busy_q");
  slot.assign("slot_done[s]", "busy_q && rcvd_q == slot_beats_q[s]");
  slot.assign("slot_error[s]", "error_q");
  slot.assign("resp_cand[s]", "slot_done[s] && !(resp_valid_q && resp_slot_q == SlotW'(s))");
  b.blank();

  // --- Responses.
  b.comment("Responses: finished slots in round-robin order. The response register holds a "
            "slot number; the data is read from the slot buffer, shifted down by the start "
            "offset, with the bytes from the length on cleared.");
  b.logic("resp_advance", Type::bit(), "the response register may take the next slot");
  b.logic("resp_keep", Type::bits("RespW"), "bytes below the length");
  dma::roundRobin(b, "resp_cand", "resp_slot_q", "pick");
  b.assign("resp_fire", "resp_valid_q & resp_ready_i");
  b.assign("resp_advance", "~resp_valid_q | resp_ready_i");
  b.flops({{{"resp_valid_q", "pick_valid", "1'b0"}}, "resp_advance"});
  b.flops({{{"resp_slot_q", "pick_slot", "'0"}}, "resp_advance & pick_valid"});
  b.assign("resp_keep", "~(~RespW'(0) << {slot_len_q[resp_slot_q], 3'b000})");
  b.assign("resp_valid_o", "resp_valid_q");
  b.assign("resp_tag_o", "slot_tag_q[resp_slot_q]");
  b.assign("resp_error_o", "slot_error[resp_slot_q]");
  b.assign("resp_data_o",
           "RespW'(slot_data[resp_slot_q] >> {slot_offset_q[resp_slot_q], 3'b000}) & "
           "resp_keep");
  b.blank();

  // --- Status.
  b.logic("bytes_read_q", Type::bits("LenW"));
  b.flops({{{"bytes_read_q", "resp_fire ? slot_len_q[resp_slot_q] : '0", "'0"}}});
  b.assign("bytes_read_o", "bytes_read_q");
  b.comb().line("busy_o = 1'b0;").forLoop("i", "Slots", [](vlog::Stmts& s) {
    s.line("busy_o = busy_o | slot_busy[i];");
  });
}

} // namespace by::hw
