// The Boveda loader: executes compressed MVINs and stands in front of the plain load
// controller, which keeps every other MVIN unchanged (docs/boveda.md, "Hardware").
//
// A compressed MVIN moves one block, the rows x cols values of the move in row-major order
// (docs/isa.md). The loader looks up the block's 8-byte pointer entry {first container,
// containers}, checks it, then reads the block's containers in DMA requests of up to
// max_bytes. Responses may return in any order; a reorder buffer of RobEntries max_bytes
// entries (twice the DMA's max_inflight, at most 64: requests keep going out while the oldest
// response is late) hands them to the decompressor in stream order, one StreamWidth-bit word
// per cycle. Decoded groups go through a value repacker that cuts them into row pieces of DIM*lanes
// values (the last column block of a row: the rest), written to the scratchpad like the plain
// controller's column blocks. The operation completes when the decompressor has consumed the
// block and the last piece is written; a bad pointer entry, an AXI error or a malformed block
// completes it with DMA_ERROR.
//
// Pointer entries come through a pointer-line buffer (docs/boveda.md, "Pointer lines"): Lines
// aligned lines of LineBytes of the table, least recently used replaced, the next line read
// ahead while the moves walk the table in order, all invalidated by the decoder's ptr_inval
// bit (set on the first compressed MVIN after a CONFIG_LD, MVOUT or FLUSH). Consecutive moves
// with consecutive entries so need no DRAM round trip for their entry. An unaligned entry,
// or one whose line read failed, is read alone (8 bytes).
//
// Pipelining: up to OpSlots (16) compressed operations are in the loader at once, in a queue
// that every stage walks in order with its own index: lookups (pf: line reads, tag 8'hE0 +
// line, or entries read alone, tag 8'hC0 + queue entry, before container reads), entries
// taken from their lines (pr), container reads (tag 8'h80 + reorder entry; the reorder
// buffer is shared by all operations in issue order, so the next operation's reads start as
// soon as the current one's are issued and entries are free), block announcements to the
// decompressor (which takes exactly each block's words and may start the next block in the
// cycle the current one ends), decompressor completions, row pieces and completions, all in
// order. So a stream of compressed MVINs overlaps its DRAM round trips; an operation whose
// pointer entry is refused is skipped by every stage and completes with DMA_ERROR in its
// turn. The reservation station has already ordered conflicting operations (it dispatches a
// load only once the loads it depends on completed).
//
// Sharing with the plain controller: operations are routed by their `compressed` bit; DMA
// requests and scratchpad writes are multiplexed (the loader first); DMA responses are routed
// by tag (the loader's tags have bit 7 set, the plain controller's slots never do); the plain
// controller's completions pass straight through and the loader's wait for a free cycle.
// A plain MVIN may run alongside the compressed ones.
//
// On-chip form (compression.boveda.on_chip): the loader also executes DECOMPRESS, a load
// operation whose block's containers lie in scratchpad rows (payload: dram = first row,
// stride = containers). It reads those rows through its own scratchpad read port, one row per
// cycle into the reorder buffer (one entry per row, RowBits / StreamWidth words), and from
// there everything is the compressed MVIN's path: decompressor, row pieces, scratchpad writes.
// A DECOMPRESS needs no pointer entry (its stream is known when it is accepted); it takes its
// queue place like a compressed MVIN. Scratchpad rows and DMA responses share the reorder
// buffer's write port, so its rows are read only while no container read is outstanding.
// The decoder has checked the ranges (source and destination do not overlap) and the count.
#include "boveda_loader.h"

#include "config/derived.h"
#include "hwspec/isa.h"
#include "op_layouts.h"
#include "state_regs.h"
#include "text_util.h"

#include <stdexcept>

namespace by::hw {

using vlog::Type;

BovedaLoaderGenerator::BovedaLoaderGenerator(const AccelParams& p, const BovedaHwParams& h)
    : p_(p), boveda_(h) {
  ld_ = loadOpLayout(p);
  payload_ = opPayloadWidth(p);
  rob_ = std::min(64, 2 * p.maxInflight); // reorder entries (tags 8'h80..8'hBF)
  robBits_ = config::log2Exact(rob_);
  dataBits_ = p.maxBytes * 8;
  wordsPerEntry_ = dataBits_ / h.streamWidth;
  wordBits_ = std::max(1, config::log2Exact(wordsPerEntry_) + 1);
  lenBits_ = config::log2Exact(p.maxBytes) + 1;
  spRow_ = p.spElems * p.iw; // a scratchpad row: DIM*lanes elements
  maxGroupBits_ = h.headerBits + (h.zeroAware ? h.groupSize : 0) + h.groupSize * h.elementBits;
  tagBits_ = p.dmaTagBits;
  onChip_ = p.config.boveda.onChip;
  rowsPerContainer_ = h.containerBits / spRow_;
  kOps_ = 16; // compressed operations in the loader at once
  opBits_ = config::log2Exact(kOps_);
  kLines_ = isa::kBovedaPtrLines; // pointer-line buffer (docs/boveda.md)
  lineBits_ = config::log2Exact(kLines_);
  lineBytes_ = isa::bovedaPtrLineBytes(p.maxBytes);
  lineLog_ = config::log2Exact(lineBytes_);
  lineAddrBits_ = 32 - lineLog_;
  wordIdxBits_ = config::log2Exact(lineBytes_ / 8);
  pageLineBits_ = config::log2Exact(static_cast<int>(isa::kBovedaPtrPageBytes)) - lineLog_;
  if (kOps_ > 32 || kLines_ > 32)
    throw std::logic_error("boveda loader: DMA tags 8'h80 + reorder entry, 8'hC0 + queue entry "
                           "and 8'hE0 + line must not overlap");
}

vlog::Module BovedaLoaderGenerator::build() const {
  vlog::Module m = ports();
  vlog::Body& b = m.body();
  StateRegs regs(b);
  localParams(b, regs);
  routing(b, regs);
  operationQueue(b, regs);
  pointerLines(b, regs);
  pointerEntries(b, regs);
  containerReads(b, regs);
  decompressor(b, regs);
  writer(b, regs);
  completion(b, regs);
  return m;
}

// The module and its ports.
vlog::Module BovedaLoaderGenerator::ports() const {
  const AccelParams& p = p_;

  vlog::Module m(names::kBovedaLoader,
                 "Boveda loader: compressed MVINs (pointer entry, container reads through a "
                 "reorder buffer, decompressor, row pieces to the scratchpad), in front of the "
                 "plain load controller, with which it shares the DMA reader and the scratchpad "
                 "write port.");
  m.clockAndReset();
  m.portGroup("Load operations from the reservation station.");
  m.input("op_valid_i", Type::bit());
  m.output("op_ready_o", Type::bit());
  m.input("op_id_i", Type::bits(p.rsIdBits));
  m.input("op_payload_i", Type::bits(payload_));
  m.output("done_valid_o", Type::bit());
  m.output("done_id_o", Type::bits(p.rsIdBits));
  m.output("err_valid_o", Type::bit(), "a load operation saw an AXI error or a bad block");
  m.output("err_ch_o", Type::bits(2), "its channel field (the funct the error reports)");
  m.portGroup("The plain load controller (its op id and payload are op_id_i / op_payload_i).");
  m.output("pl_op_valid_o", Type::bit());
  m.input("pl_op_ready_i", Type::bit());
  m.input("pl_done_valid_i", Type::bit());
  m.input("pl_done_id_i", Type::bits(p.rsIdBits));
  m.input("pl_err_i", Type::bit());
  m.input("pl_err_ch_i", Type::bits(2));
  m.portGroup("DMA reader, shared.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits(32));
  m.output("dma_req_len_o", Type::bits(lenBits_));
  m.output("dma_req_tag_o", Type::bits(tagBits_));
  m.input("pl_dma_req_valid_i", Type::bit());
  m.output("pl_dma_req_ready_o", Type::bit());
  m.input("pl_dma_req_addr_i", Type::bits(32));
  m.input("pl_dma_req_len_i", Type::bits(lenBits_));
  m.input("pl_dma_req_tag_i", Type::bits(tagBits_));
  m.input("dma_resp_valid_i", Type::bit());
  m.output("dma_resp_ready_o", Type::bit());
  m.input("dma_resp_tag_i", Type::bits(tagBits_));
  m.input("dma_resp_data_i", Type::bits(dataBits_));
  m.input("dma_resp_error_i", Type::bit());
  m.output("pl_dma_resp_valid_o", Type::bit(), "a response for the plain controller");
  m.input("pl_dma_resp_ready_i", Type::bit());
  m.portGroup("Scratchpad write client, shared.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits(p.spRowBits));
  m.output("sp_data_o", Type::bits(spRow_));
  m.output("sp_mask_o", Type::bits(p.spElems));
  m.input("pl_sp_valid_i", Type::bit());
  m.output("pl_sp_ready_o", Type::bit());
  m.input("pl_sp_row_i", Type::bits(p.spRowBits));
  m.input("pl_sp_data_i", Type::bits(spRow_));
  m.input("pl_sp_mask_i", Type::bits(p.spElems));
  if (onChip_) {
    m.portGroup("Scratchpad read client (DECOMPRESS): data returns the cycle after ready.");
    m.output("sp_rd_valid_o", Type::bit());
    m.input("sp_rd_ready_i", Type::bit());
    m.output("sp_rd_row_o", Type::bits(p.spRowBits));
    m.input("sp_rd_rvalid_i", Type::bit());
    m.input("sp_rd_rdata_i", Type::bits(spRow_));
  }
  m.portGroup("Status (the loader's own).");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit());
  m.output("stream_bytes_o", Type::bits(lenBits_), "container bytes requested this cycle");
  return m;
}

void BovedaLoaderGenerator::localParams(vlog::Body& b, StateRegs&) const {
  const AccelParams& p = p_;
  const BovedaHwParams& h = boveda_;
  b.localParam("RowElems", num(p.spElems), "elements of a scratchpad row: DIM*lanes");
  b.localParam("OpSlots", num(kOps_), "compressed operations in the loader at once");
  b.localParam("RobEntries", num(rob_),
               "reorder entries: container requests in flight or waiting for the decompressor");
  b.localParam("RobBits", num(robBits_));
  b.localParam("MaxBytes", num(p.maxBytes));
  b.localParam("StreamWidth", num(h.streamWidth));
  b.localParam("ContainerBytes", num(h.containerBits / 8));
  b.localParam("Lines", num(kLines_), "pointer-line buffer: lines");
  b.localParam("LineBytes", num(lineBytes_), "pointer-line buffer: bytes per line");
  b.localParam("LineLog", num(lineLog_), "log2(LineBytes)");
  b.localParam("LineAddrBits", num(lineAddrBits_), "a line's address: AddrBits - LineLog");
  b.localParam("AddrBits", "32", "a DRAM byte address; block lengths and counts");
  b.localParam("LenBits", num(lenBits_), "a DMA request length in bytes");
  b.localParam("TagBits", num(tagBits_), "a DMA tag");
  b.localParam("WordBits", num(wordBits_), "stream words of a reorder entry");
  b.localParam("CountBits", "16", "rows and columns of a move");
  b.localParam("BlockBits", "8", "column blocks of a row");
  b.localParam("PtrBits", "64", "a pointer entry and the sizes computed from it");
  b.localParam("PtrEntryBytes", "8", "a pointer entry");
  b.localParam("TagRob", Type::bits("TagBits"), num(tagBits_) + "'h80",
               "DMA tag of a container read: TagRob | reorder entry");
  b.localParam("TagEntry", Type::bits("TagBits"), num(tagBits_) + "'hC0",
               "... of a pointer entry read alone: TagEntry | queue entry");
  b.localParam("TagLine", Type::bits("TagBits"), num(tagBits_) + "'hE0",
               "... of a pointer line: TagLine | line");
  b.localParam("GroupSize", num(h.groupSize));
  b.localParam("MaxGroupBits", num(maxGroupBits_), "the largest group a block can hold");
  b.localParam("ContainerBits", num(h.containerBits));
  b.localParam("DmaLimit", Type::bits("PtrBits"), "64'h100000000", "the DMA reaches the low 4 GiB");
  if (onChip_) {
    b.localParam("RowsPerContainer", num(rowsPerContainer_), "scratchpad rows of a container");
    b.localParam("RowWords", num(spRow_ / h.streamWidth), "stream words of a scratchpad row");
    b.localParam("ContainerWords", num(h.containerBits / h.streamWidth),
                 "stream words of a container");
  }
  b.blank();
}

void BovedaLoaderGenerator::routing(vlog::Body& b, StateRegs&) const {
  b.comment("Routing: compressed operations to the loader's queue, the others to the plain "
            "controller.");
  b.logic("op_comp", Type::bit(), onChip_ ? "compressed MVIN or DECOMPRESS" : "");
  if (onChip_) {
    b.logic("op_onchip", Type::bit(), "DECOMPRESS");
    b.logic("op_src_row", Type::bits(32), "DECOMPRESS: first container row");
    b.logic("op_containers", Type::bits(32), "DECOMPRESS: containers");
    b.assign("op_onchip", ld_.slice("op_payload_i", "onchip"));
    b.assign("op_src_row", ld_.slice("op_payload_i", "dram"));
    b.assign("op_containers", ld_.slice("op_payload_i", "stride"));
  }
  b.assign("op_comp", ld_.slice("op_payload_i", "compressed") + (onChip_ ? " || op_onchip" : ""));
  b.logic("accept", Type::bit());
  b.logic("q_full", Type::bit());
  b.assign("op_ready_o", "op_comp ? !q_full : pl_op_ready_i");
  b.assign("pl_op_valid_o", "op_valid_i && !op_comp");
  b.assign("accept", "op_valid_i && op_comp && !q_full");
  b.blank();
}

void BovedaLoaderGenerator::operationQueue(vlog::Body& b, StateRegs& regs) const {
  const AccelParams& p = p_;
  b.comment("Operation queue, in order. Each stage walks it with its own index (an entry "
            "number plus a wrap bit): tail (accept), pf (pointer entry looked up), pr (pointer "
            "entry taken from its line), rd (container reads), an (block announced to the "
            "decompressor), dd (decompressor done), wr (row pieces written), head "
            "(completion). An entry whose pointer entry was refused (bad) is skipped by every "
            "stage and completes with an error.");
  for (const char* idx : {"tail", "pf", "pr", "rd", "an", "dd", "wr", "head"})
    regs.add(idx, Type::bits(opBits_ + 1), "'0");
  b.comment("Each index's queue entry (the index without its wrap bit).");
  for (const char* idx : {"tail", "pf", "pr", "rd", "an", "dd", "wr", "head"}) {
    b.logic(std::string(idx) + "_ent", Type::bits(opBits_));
    b.assign(std::string(idx) + "_ent", std::string(idx) + "_q[" + num(opBits_ - 1) + ":0]");
  }
  b.logicArray("e_payload_q", Type::bits(ld_.width()), "OpSlots", "the operation", "mem2reg");
  ;
  b.logicArray("e_id_q", Type::bits(p.rsIdBits), "OpSlots", "", "mem2reg");
  ;
  b.logicArray("e_start_q", Type::bits(32), "OpSlots",
               onChip_ ? "stream byte address (DECOMPRESS: first row)" : "stream byte address",
               "mem2reg");
  ;
  b.logicArray("e_left_q", Type::bits(32), "OpSlots",
               onChip_ ? "stream bytes (DECOMPRESS: rows)" : "stream bytes", "mem2reg");
  ;
  b.logicArray("e_words_q", Type::bits(32), "OpSlots", "stream words of the block", "mem2reg");
  ;
  regs.add("e_ptr", Type::bits("OpSlots"), "'0", "pointer entry read and checked");
  regs.add("e_bad", Type::bits("OpSlots"), "'0", "pointer entry refused");
  regs.add("e_err", Type::bits("OpSlots"), "'0", "AXI error or malformed block");
  regs.add("e_dec", Type::bits("OpSlots"), "'0", "the decompressor consumed the block");
  regs.add("e_wr", Type::bits("OpSlots"), "'0", "every row piece is written");
  regs.add("e_wait", Type::bits("OpSlots"), "'0", "looked up in a line, entry not yet taken");
  b.logicArray("e_line_q", Type::bits(lineBits_), "OpSlots", "its line", "mem2reg");
  ;
  b.logicArray("e_word_q", Type::bits(wordIdxBits_), "OpSlots", "its 8-byte word in the line",
               "mem2reg");
  ;
  b.assign("q_full", "tail_q[" + num(opBits_) + "] != head_q[" + num(opBits_) + "] && tail_q[" +
                         num(opBits_ - 1) + ":0] == head_q[" + num(opBits_ - 1) + ":0]");
  b.comment("The fields each stage needs, of its own entry.");
  if (onChip_) {
    ld_.unpack(b, "e_payload_q[" + entry("pf") + "]", "pf_", {"dram", "ptr_inval", "onchip"});
    ld_.unpack(b, "e_payload_q[" + entry("rd") + "]", "rd_", {"onchip"});
  } else {
    ld_.unpack(b, "e_payload_q[" + entry("pf") + "]", "pf_", {"dram", "ptr_inval"});
  }
  ld_.unpack(b, "e_payload_q[" + entry("pr") + "]", "pr_", {"dram"});
  ld_.unpack(b, "e_payload_q[" + entry("head") + "]", "head_", {"channel"});
  ld_.unpack(b, "e_payload_q[" + entry("an") + "]", "an_", {"rows", "cols"});
  ld_.unpack(b, "e_payload_q[" + entry("wr") + "]", "wr_",
             {"row", "rows", "cols", "blocks", "block_stride"});
  b.blank();
}

void BovedaLoaderGenerator::pointerLines(vlog::Body& b, StateRegs& regs) const {
  b.comment("Pointer-line buffer (docs/boveda.md, \"Pointer lines\"): Lines aligned lines of "
            "LineBytes, read whole (tag 8'hE0 + line). The pf stage looks each entry up in "
            "order: an entry whose ptr_inval bit is set first invalidates every line (one "
            "cycle); an unaligned entry is read alone (tag 8'hC0 + queue entry); otherwise a "
            "hit takes its line, a miss reads its line into the least recently used one "
            "(waiting while that line is still read or an entry still needs it), and then, "
            "when the moves walk the table in order (a hit, or the line after the last "
            "lookup's), the next line of the same 4 KiB page is read ahead into the least "
            "recently used line if absent.");
  regs.add("ln_valid", Type::bits("Lines"), "'0", "holds (or is reading) line ln_addr_q");
  regs.add("ln_fill", Type::bits("Lines"), "'0", "its read is in flight");
  regs.add("ln_err", Type::bits("Lines"), "'0",
           "its read had an AXI error: entries are read alone");
  b.logicArray("ln_addr_q", Type::bits(lineAddrBits_), "Lines", "address / LineBytes", "mem2reg");
  ;
  regs.add("ln_age", Type::bits(lineBits_), num(lineBits_) + "'(i)",
           "0: most recently used (a permutation)", "Lines");
  b.logicArray("ln_data_q", Type::bits(lineBytes_ * 8), "Lines", "", "mem2reg");
  ;
  regs.add("last_valid", Type::bit(), "1'b0", "last_q holds the line of the last lookup");
  regs.add("last", Type::bits(lineAddrBits_), "'0");
  regs.add("pf_inv_done", Type::bit(), "1'b0", "the pf entry's invalidation is done");
  regs.add("pf_pref", Type::bit(), "1'b0", "the pf entry's lookup is done, its read-ahead is due");
  regs.add("pf_pref_line", Type::bits(lineAddrBits_), "'0", "the line to read ahead");
  b.logic("pf_valid", Type::bit(), "the pf entry is a compressed MVIN");
  b.assign("pf_valid", pending("pf") + (onChip_ ? " && !pf_onchip" : ""));
  if (onChip_) {
    b.logic("pf_skip", Type::bit(), "the pf entry is a DECOMPRESS");
    b.assign("pf_skip", pending("pf") + " && pf_onchip");
  }
  b.logic("pf_inv", Type::bit(), "invalidate every line for the pf entry");
  b.logic("pf_look", Type::bit(), "look the pf entry up");
  b.logic("pf_unal", Type::bit(), "its entry is not 8-byte aligned: read it alone");
  b.logic("pf_line", Type::bits(lineAddrBits_));
  b.logic("ln_hit", Type::bits("Lines"), "line i holds pf_line");
  b.logic("ln_next", Type::bits("Lines"), "line i holds pf_line + 1");
  b.logic("ln_lock", Type::bits("Lines"), "line i is being read or an entry still needs it");
  b.logic("pf_hit", Type::bit());
  b.logic("pf_hit_line", Type::bits(lineBits_));
  b.logic("vic", Type::bits(lineBits_), "the least recently used line");
  b.logic("pf_seq", Type::bit(), "a hit, or the line after the last lookup's");
  b.logic("pf_want_pref", Type::bit(), "read pf_line + 1 ahead");
  b.assign("pf_inv", "pf_valid && pf_ptr_inval && !pf_inv_done_q");
  b.assign("pf_look", "pf_valid && !pf_inv && !pf_pref_q");
  b.assign("pf_unal", "pf_dram[2:0] != '0");
  b.assign("pf_line", "pf_dram[31:" + num(lineLog_) + "]");
  b.comb()
      .line("pf_hit = 1'b0;")
      .line("pf_hit_line = '0;")
      .line("vic = '0;")
      .line("ln_lock = ln_fill_q;")
      .forLoop("i", "Lines",
               [&](vlog::Stmts& t) {
                 t.line("ln_hit[i] = ln_valid_q[i] && ln_addr_q[i] == pf_line;");
                 t.line("ln_next[i] = ln_valid_q[i] && ln_addr_q[i] == pf_line + "
                        "LineAddrBits'(1);");
                 t.ifElse("ln_hit[i]", [&](vlog::Stmts& u) {
                   u.line("pf_hit = 1'b1;").line("pf_hit_line = " + num(lineBits_) + "'(i);");
                 });
                 t.ifElse("ln_age_q[i] == " + num(lineBits_) + "'(Lines-1)",
                          [&](vlog::Stmts& u) { u.line("vic = " + num(lineBits_) + "'(i);"); });
               })
      .forLoop("e", "OpSlots", [](vlog::Stmts& t) {
        t.ifElse("e_wait_q[e]", [](vlog::Stmts& u) { u.line("ln_lock[e_line_q[e]] = 1'b1;"); });
      });
  b.assign("pf_seq", "pf_hit || (last_valid_q && last_q + LineAddrBits'(1) == pf_line)");
  b.assign("pf_want_pref",
           "pf_seq && pf_line[" + num(pageLineBits_ - 1) + ":0] != '1 && ln_next == '0");
  b.logic("pf_req_direct", Type::bit(), "read the pf entry alone");
  b.logic("pf_req_fill", Type::bit(), "read the pf entry's line (a miss)");
  b.logic("pf_req_pref", Type::bit(), "read the next line ahead");
  b.logic("pf_req", Type::bit());
  b.assign("pf_req_direct", "pf_look && pf_unal");
  b.assign("pf_req_fill", "pf_look && !pf_unal && !pf_hit && !ln_lock[vic]");
  b.assign("pf_req_pref", "pf_valid && pf_pref_q && !ln_lock[vic]");
  b.assign("pf_req", "pf_req_direct || pf_req_fill || pf_req_pref");
  b.logic("pf_fire", Type::bit());
  b.logic("pf_a_done", Type::bit(), "the aligned lookup is done: the entry has its line");
  b.logic("pf_a_line", Type::bits(lineBits_));
  b.logic("pf_adv", Type::bit(), "the pf stage moves on");
  b.logic("alloc", Type::bit(), "line vic starts reading a new line");
  b.logic("touch", Type::bit(), "a line becomes the most recently used");
  b.logic("touch_line", Type::bits(lineBits_));
  b.assign("pf_a_done", "pf_look && !pf_unal && (pf_hit || pf_fire)");
  b.assign("pf_a_line", "pf_hit ? pf_hit_line : vic");
  b.assign("pf_adv", std::string(onChip_ ? "pf_skip || " : "") +
                         "(pf_req_direct && pf_fire) || (pf_a_done && !pf_want_pref) ||\n"
                         "      (pf_req_pref && pf_fire)");
  b.assign("alloc", "(pf_req_fill || pf_req_pref) && pf_fire");
  b.assign("touch", "pf_a_done || alloc");
  b.assign("touch_line", "pf_a_done ? pf_a_line : vic");
  b.blank();

  b.comment("The pr stage takes the looked-up entries' words from their lines, in order, once "
            "the line is read; an entry whose line read failed is read alone.");
  b.logic("pr_pending", Type::bit());
  b.logic("pr_e", Type::bits(opBits_));
  b.logic("pr_line", Type::bits(lineBits_));
  b.logic("pr_ready", Type::bit(), "the pr entry's line is read");
  b.logic("pr_fallback", Type::bit(), "read the pr entry alone");
  b.logic("pr_fb_fire", Type::bit());
  b.logic("res_fire", Type::bit(), "the pr entry's word is taken this cycle");
  b.logic("pr_adv", Type::bit());
  b.logic("ln_word", Type::bits(64));
  b.assign("pr_pending", "pr_q != pf_q");
  b.assign("pr_e", entry("pr"));
  b.assign("pr_line", "e_line_q[pr_e]");
  b.assign("pr_ready", "pr_pending && e_wait_q[pr_e] && !ln_fill_q[pr_line]");
  b.assign("pr_fallback", "pr_ready && ln_err_q[pr_line]");
  b.assign("res_fire", "pr_ready && !ln_err_q[pr_line] && !ptr_resp");
  b.assign("pr_adv", "(pr_pending && !e_wait_q[pr_e]) || res_fire || pr_fb_fire");
  b.assign("ln_word", "PtrBits'(ln_data_q[pr_line] >> (AddrBits'(e_word_q[pr_e]) * PtrBits))");
  b.blank();
}

void BovedaLoaderGenerator::pointerEntries(vlog::Body& b, StateRegs&) const {
  b.comment("Pointer entries {first container, containers}: a word taken from a line, or the "
            "response of an entry read alone (tag 8'hC0 + entry). The stream lies at stride + "
            "first * ContainerBytes. A count of 0, more containers than a block of its values "
            "can need (every group at full width), an AXI error or a stream past 4 GiB refuse "
            "the operation unread." +
            std::string(onChip_ ? " DECOMPRESS has no pointer entry." : ""));
  b.logic("ptr_resp", Type::bit(), "an entry read alone arrives");
  b.logic("line_resp", Type::bit(), "a line arrives");
  b.logic("ptr_set", Type::bit(), "an entry is known this cycle");
  b.logic("ptr_e", Type::bits(opBits_), "its queue entry");
  b.logic("ptr_word", Type::bits(64));
  b.logic("ptr_first", Type::bits(32));
  b.logic("ptr_count", Type::bits(32));
  b.logic("ptr_values", Type::bits(32));
  b.logic("ptr_start", Type::bits(64));
  b.logic("ptr_bytes", Type::bits(64));
  b.logic("max_containers", Type::bits(64));
  b.logic("ptr_bad", Type::bit());
  ld_.unpack(b, "e_payload_q[ptr_e]", "pe_", {"rows", "cols", "stride"});
  b.assign("ptr_resp", "dma_resp_valid_i && dma_resp_tag_i[" + num(tagBits_ - 1) + ":" +
                           num(tagBits_ - 3) + "] == 3'b110");
  b.assign("line_resp", "dma_resp_valid_i && dma_resp_tag_i[" + num(tagBits_ - 1) + ":" +
                            num(tagBits_ - 3) + "] == 3'b111");
  b.assign("ptr_set", "ptr_resp || res_fire");
  b.assign("ptr_e", "ptr_resp ? " + num(opBits_) + "'(dma_resp_tag_i) : pr_e");
  b.assign("ptr_word", "ptr_resp ? dma_resp_data_i[63:0] : ln_word");
  b.assign("ptr_first", "ptr_word[31:0]");
  b.assign("ptr_count", "ptr_word[63:32]");
  b.assign("ptr_values", "32'(pe_rows) * 32'(pe_cols)");
  b.assign("ptr_start", "64'(pe_stride) + 64'(ptr_first) * 64'(ContainerBytes)");
  b.assign("ptr_bytes", "64'(ptr_count) * 64'(ContainerBytes)");
  b.assign("max_containers",
           "((PtrBits'(ptr_values) + PtrBits'(GroupSize) - 1) / PtrBits'(GroupSize) *\n"
           "      PtrBits'(MaxGroupBits) + PtrBits'(ContainerBits) - 1) / PtrBits'(ContainerBits)");
  b.assign("ptr_bad", "(ptr_resp && dma_resp_error_i) || ptr_count == '0 ||\n"
                      "      64'(ptr_count) > max_containers || ptr_start + ptr_bytes > DmaLimit");
  b.blank();
}

void BovedaLoaderGenerator::containerReads(vlog::Body& b, StateRegs& regs) const {
  const AccelParams& p = p_;
  b.comment("Container reads: the rd entry's stream in requests of up to MaxBytes, at most "
            "RobEntries issued and not yet fed (the DMA itself takes at most max_inflight); "
            "request i uses reorder entry i mod RobEntries whatever operation it belongs to.");
  regs.add("rd_active", Type::bit(), "1'b0", "rd_addr_q / rd_left_q hold the rd entry's stream");
  regs.add("rd_addr", Type::bits(32), "'0");
  regs.add("rd_left", Type::bits(32), "'0", "stream bytes not yet requested");
  regs.add("seq_issue", Type::bits(robBits_ + 1), "'0");
  regs.add("seq_feed", Type::bits(robBits_ + 1), "'0");
  b.logic("rd_len", Type::bits(lenBits_));
  b.logic("rob_full", Type::bit());
  b.logic("rd_valid", Type::bit(), "a container read to issue");
  b.logic("rd_start", Type::bit(), "the rd entry's pointer is known: start or skip it");
  b.assign("rd_len", "rd_left_q > 32'(MaxBytes) ? " + num(lenBits_) +
                         "'(MaxBytes) : " + num(lenBits_) + "'(rd_left_q)");
  b.assign("rob_full", "seq_issue_q[RobBits] != seq_feed_q[RobBits] && "
                       "seq_issue_q[RobBits-1:0] == seq_feed_q[RobBits-1:0]");
  b.assign("rd_valid", std::string("rd_active_q && !rob_full") + (onChip_ ? " && !rd_onchip" : ""));
  b.assign("rd_start", "!rd_active_q && " + known("rd"));
  b.comment("Requests: entries read alone after a failed line read first, then the pf stage's "
            "reads, then container reads; the loader before the plain controller.");
  b.logic("eng_req_valid", Type::bit());
  b.logic("rd_fire", Type::bit());
  b.logic("pf_addr", Type::bits(32));
  b.assign("eng_req_valid", "pr_fallback || pf_req || rd_valid");
  b.assign("pr_fb_fire", "pr_fallback && dma_req_ready_i");
  b.assign("pf_fire", "!pr_fallback && pf_req && dma_req_ready_i");
  b.assign("rd_fire", "!pr_fallback && !pf_req && rd_valid && dma_req_ready_i");
  b.assign("pf_addr", "pf_req_direct ? pf_dram : {pf_req_pref ? pf_pref_line_q : pf_line, "
                      "LineLog'(0)}");
  b.assign("dma_req_valid_o", "eng_req_valid || pl_dma_req_valid_i");
  b.assign("dma_req_addr_o", "!eng_req_valid ? pl_dma_req_addr_i : pr_fallback ? pr_dram :\n"
                             "      pf_req ? pf_addr : rd_addr_q");
  b.assign("dma_req_len_o", "!eng_req_valid ? pl_dma_req_len_i :\n"
                            "      (pr_fallback || pf_req_direct) ? LenBits'(PtrEntryBytes) :\n"
                            "      pf_req ? LenBits'(LineBytes) : rd_len");
  b.assign("dma_req_tag_o", "!eng_req_valid ? pl_dma_req_tag_i :\n"
                            "      pr_fallback ? TagEntry | TagBits'(pr_e) :\n"
                            "      pf_req_direct ? TagEntry | TagBits'(" +
                                entry("pf") +
                                ") :\n"
                                "      pf_req ? TagLine | TagBits'(vic) :\n"
                                "      TagRob | TagBits'(seq_issue_q[RobBits-1:0])");
  b.assign("pl_dma_req_ready_o", "dma_req_ready_i && !eng_req_valid");
  b.assign("dma_wait_o", "eng_req_valid && !dma_req_ready_i");
  b.assign("stream_bytes_o", "rd_fire ? rd_len : '0");
  b.blank();

  b.comment("Responses: the loader's (tag bit 7) are always taken.");
  b.logic("resp_mine", Type::bit());
  b.logic("data_resp", Type::bit());
  b.assign("resp_mine", "dma_resp_tag_i[" + num(tagBits_ - 1) + "]");
  b.assign("data_resp",
           "dma_resp_valid_i && resp_mine && !dma_resp_tag_i[" + num(tagBits_ - 2) + "]");
  b.assign("dma_resp_ready_o", "resp_mine || pl_dma_resp_ready_i");
  b.assign("pl_dma_resp_valid_o", "dma_resp_valid_i && !resp_mine");
  regs.add("rob_valid", Type::bits("RobEntries"), "'0");
  b.logicArray("rob_data_q", Type::bits(dataBits_), "RobEntries", "", "mem2reg");
  ;
  b.logicArray("rob_words_q", Type::bits(wordBits_), "RobEntries", "stream words of the entry",
               "mem2reg");
  ;
  b.logicArray("rob_op_q", Type::bits(opBits_), "RobEntries", "operation of the entry", "mem2reg");
  ;
  b.blank();

  if (onChip_) {
    b.comment("DECOMPRESS: one container row read per cycle (rd_addr_q: next row, rd_left_q: "
              "rows left), each into reorder entry i mod RobEntries; data returns the cycle "
              "after the grant, in order. Rows and DMA responses share the reorder buffer's "
              "write port, so rows are read only while no container read is outstanding.");
    b.logic("sp_rd_fire", Type::bit());
    regs.add("sp_rsp_slot", Type::bits(robBits_), "'0", "entry of the row granted last cycle");
    regs.add("dma_out", Type::bits(robBits_ + 1), "'0", "container reads outstanding");
    b.assign("sp_rd_valid_o", "rd_active_q && rd_onchip && !rob_full && dma_out_q == '0");
    b.assign("sp_rd_row_o", num(p.spRowBits) + "'(rd_addr_q)");
    b.assign("sp_rd_fire", "sp_rd_valid_o && sp_rd_ready_i");
    b.blank();
  }
}

void BovedaLoaderGenerator::decompressor(vlog::Body& b, StateRegs& regs) const {
  const BovedaHwParams& h = boveda_;
  b.comment("The head of the reorder buffer feeds the decompressor one word per cycle; the "
            "decompressor takes exactly each block's words, so the feed need not know where "
            "one block ends.");
  b.logic("head_rob", Type::bits(robBits_));
  regs.add("feed_w", Type::bits(wordBits_), "'0", "word of the head entry fed next");
  b.logic("feed_valid", Type::bit());
  b.logic("feed_ready", Type::bit());
  b.logic("feed_last", Type::bit(), "the head entry's last word");
  b.logic("feed_data", Type::bits(h.streamWidth));
  b.assign("head_rob", "seq_feed_q[RobBits-1:0]");
  b.assign("feed_valid", "rob_valid_q[head_rob]");
  b.assign("feed_last", "feed_w_q == rob_words_q[head_rob] - WordBits'(1)");
  b.assign("feed_data", num(h.streamWidth) + "'(rob_data_q[head_rob] >> (32'(feed_w_q) * " +
                            "32'(StreamWidth)))");
  b.logic("an_valid", Type::bit(), "announce the an entry's block");
  b.logic("an_skip", Type::bit(), "the an entry was refused: no block");
  b.logic("an_values", Type::bits(32));
  b.logic("dec_blk_ready", Type::bit());
  b.assign("an_valid", known("an") + " && !e_bad_q[" + entry("an") + "]");
  b.assign("an_skip", known("an") + " && e_bad_q[" + entry("an") + "]");
  b.assign("an_values", "32'(an_rows) * 32'(an_cols)");
  b.logic("dec_out_valid", Type::bit());
  b.logic("dec_out_ready", Type::bit());
  b.logic("dec_out_data", Type::bits(h.groupSize * h.elementBits));
  b.logic("dec_out_count", Type::bits(config::log2Exact(h.groupSize) + 1));
  b.logic("dec_out_last", Type::bit());
  b.logic("dec_done", Type::bit());
  b.logic("dec_error", Type::bit());
  {
    auto& d = b.instance(names::kBovedaDecompressor, "u_decompressor");
    d.params = {{"ElemWidth", num(h.elementBits)},
                {"GroupSize", num(h.groupSize)},
                {"HeaderBits", num(h.headerBits)},
                {"ContainerBits", num(h.containerBits)},
                {"ZeroAware", h.zeroAware ? "1" : "0"},
                {"StreamWidth", num(h.streamWidth)},
                {"LenWidth", "32"}};
    d.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"blk_valid_i", "an_valid"},
               {"blk_ready_o", "dec_blk_ready"},
               {"blk_len_i", "an_values"},
               {"blk_words_i", "e_words_q[" + entry("an") + "]"},
               {"in_valid_i", "feed_valid"},
               {"in_ready_o", "feed_ready"},
               {"in_data_i", "feed_data"},
               {"out_valid_o", "dec_out_valid"},
               {"out_ready_i", "dec_out_ready"},
               {"out_data_o", "dec_out_data"},
               {"out_count_o", "dec_out_count"},
               {"out_last_o", "dec_out_last"},
               {"done_valid_o", "dec_done"},
               {"done_error_o", "dec_error"}};
  }
  b.logic("dd_skip", Type::bit(), "the dd entry was refused: no done pulse will come");
  b.assign("dd_skip", known("dd") + " && e_bad_q[" + entry("dd") + "]");
  b.blank();
}

void BovedaLoaderGenerator::writer(vlog::Body& b, StateRegs& regs) const {
  const AccelParams& p = p_;
  const BovedaHwParams& h = boveda_;
  b.comment("Row pieces of the wr entry: for row r, column block blk takes RowElems values (the "
            "last block the rest) and goes to local row row + blk*block_stride + r.");
  regs.add("wr_active", Type::bit(), "1'b0");
  b.logic("wr_start", Type::bit());
  regs.add("wr_r", Type::bits(16), "'0");
  regs.add("wr_blk", Type::bits(8), "'0");
  b.logic("wr_last_blk", Type::bit());
  b.logic("wr_last_piece", Type::bit());
  b.logic("want", Type::bits(config::log2Exact(p.spElems) + 1));
  b.logic("piece_valid", Type::bit());
  b.logic("piece_data", Type::bits(spRow_));
  b.logic("piece_fire", Type::bit());
  b.logic("eng_sp_row", Type::bits(p.spRowBits));
  b.logic("eng_sp_mask", Type::bits(p.spElems));
  b.assign("wr_start", "!wr_active_q && " + known("wr"));
  b.assign("wr_last_blk", "wr_blk_q == wr_blocks - BlockBits'(1)");
  b.assign("wr_last_piece", "wr_last_blk && wr_r_q == wr_rows - CountBits'(1)");
  b.assign("want", "!wr_active_q ? '0 :\n"
                   "      wr_last_blk ? " +
                       num(config::log2Exact(p.spElems) + 1) +
                       "'(wr_cols - 16'(wr_blk_q) * 16'(RowElems)) : " +
                       num(config::log2Exact(p.spElems) + 1) + "'(RowElems)");
  {
    auto& r = b.instance(names::kValueRepacker, "u_pieces");
    r.params = {
        {"ElemWidth", num(h.elementBits)}, {"InVals", num(h.groupSize)}, {"OutVals", "RowElems"}};
    r.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "dec_out_valid"},
               {"in_ready_o", "dec_out_ready"},
               {"in_data_i", "dec_out_data"},
               {"in_count_i", "dec_out_count"},
               {"out_valid_o", "piece_valid"},
               {"out_ready_i", "sp_ready_i"},
               {"out_want_i", "want"},
               {"out_data_o", "piece_data"}};
  }
  b.assign("piece_fire", "piece_valid && sp_ready_i");
  b.assign("eng_sp_row", num(p.spRowBits) +
                             "'(32'(wr_row) + 32'(wr_blk_q) * 32'(wr_block_stride) + 32'(wr_r_q))");
  b.comb().forLoop("e", "RowElems",
                   [](vlog::Stmts& s) { s.line("eng_sp_mask[e] = 32'(e) < 32'(want);"); });
  b.assign("sp_valid_o", "piece_valid || pl_sp_valid_i");
  b.assign("sp_row_o", "piece_valid ? eng_sp_row : pl_sp_row_i");
  b.assign("sp_data_o", "piece_valid ? piece_data : pl_sp_data_i");
  b.assign("sp_mask_o", "piece_valid ? eng_sp_mask : pl_sp_mask_i");
  b.assign("pl_sp_ready_o", "sp_ready_i && !piece_valid");
  b.blank();
}

void BovedaLoaderGenerator::completion(vlog::Body& b, StateRegs& regs) const {
  b.comment("Completion, in order: the plain controller's pass straight through; the "
            "loader's wait for a cycle without one.");
  b.logic("head_e", Type::bits(opBits_));
  b.logic("head_done", Type::bit());
  b.logic("eng_done", Type::bit());
  b.assign("head_e", entry("head"));
  b.assign("head_done", pending("head") + " && e_ptr_q[head_e] && (e_bad_q[head_e] ||\n"
                                          "      (e_dec_q[head_e] && e_wr_q[head_e]))");
  b.assign("eng_done", "head_done && !pl_done_valid_i");
  b.assign("done_valid_o", "pl_done_valid_i || eng_done");
  b.assign("done_id_o", "pl_done_valid_i ? pl_done_id_i : e_id_q[head_e]");
  b.assign("err_valid_o", "pl_err_i || (eng_done && e_err_q[head_e])");
  b.assign("err_ch_o", "pl_err_i ? pl_err_ch_i : head_channel");
  b.assign("busy_o", "head_q != tail_q || ln_fill_q != '0");
  b.blank();

  b.comment("The reorder entries of the response arriving and of the next request.");
  b.logic("resp_rob", Type::bits(robBits_));
  b.logic("issue_rob", Type::bits(robBits_));
  b.assign("resp_rob", "dma_resp_tag_i[RobBits-1:0]");
  b.assign("issue_rob", "seq_issue_q[RobBits-1:0]");
  nextState(regs.next());
  storage(b);
}

// The next state of the operation queue, the pointer lines, the reads, the reorder buffer, the
// decompressor feed and the writer.
void BovedaLoaderGenerator::nextState(vlog::Stmts& n) const {
  n.comment("Accept into the tail entry.")
      .ifElse("accept",
              [&](vlog::Stmts& s) {
                s.line("tail_d = tail_q + 1'b1;")
                    .line("e_ptr_d[" + entry("tail") +
                          "] = " + (onChip_ ? std::string("op_onchip;") : std::string("1'b0;")))
                    .line("e_bad_d[" + entry("tail") + "] = 1'b0;")
                    .line("e_err_d[" + entry("tail") + "] = 1'b0;")
                    .line("e_dec_d[" + entry("tail") + "] = 1'b0;")
                    .line("e_wr_d[" + entry("tail") + "] = 1'b0;")
                    .line("e_wait_d[" + entry("tail") + "] = 1'b0;");
              })
      .comment("Lookups (pf), lines, entries taken from lines (pr).")
      .ifElse(
          "pf_adv",
          [](vlog::Stmts& s) {
            s.line("pf_d = pf_q + 1'b1;").line("pf_inv_done_d = 1'b0;").line("pf_pref_d = 1'b0;");
          })
      .ifElse(
          "pf_inv",
          [](vlog::Stmts& s) {
            s.line("pf_inv_done_d = 1'b1;").line("ln_valid_d = '0;").line("last_valid_d = 1'b0;");
          })
      .ifElse("pf_a_done",
              [&](vlog::Stmts& s) {
                s.line("e_wait_d[" + entry("pf") + "] = 1'b1;")
                    .line("last_d = pf_line;")
                    .line("last_valid_d = 1'b1;");
                s.ifElse("pf_want_pref", [&](vlog::Stmts& t) {
                  t.line("pf_pref_d = 1'b1;").line("pf_pref_line_d = pf_line + LineAddrBits'(1);");
                });
              })
      .ifElse("alloc",
              [](vlog::Stmts& s) {
                s.line("ln_valid_d[vic] = 1'b1;")
                    .line("ln_fill_d[vic] = 1'b1;")
                    .line("ln_err_d[vic] = 1'b0;");
              })
      .ifElse("line_resp",
              [&](vlog::Stmts& s) {
                s.line("ln_fill_d[" + num(lineBits_) + "'(dma_resp_tag_i)] = 1'b0;")
                    .line("ln_err_d[" + num(lineBits_) + "'(dma_resp_tag_i)] = dma_resp_error_i;");
              })
      .ifElse("touch",
              [](vlog::Stmts& s) {
                s.forLoop("i", "Lines", [](vlog::Stmts& t) {
                  t.ifElse("ln_age_q[i] < ln_age_q[touch_line]",
                           [](vlog::Stmts& u) { u.line("ln_age_d[i] = ln_age_q[i] + 1'b1;"); });
                });
                s.line("ln_age_d[touch_line] = '0;");
              })
      .ifElse("pr_adv", [](vlog::Stmts& s) { s.line("pr_d = pr_q + 1'b1;"); })
      .ifElse("res_fire || pr_fb_fire", [](vlog::Stmts& s) { s.line("e_wait_d[pr_e] = 1'b0;"); })
      .ifElse("ptr_set",
              [](vlog::Stmts& s) {
                s.line("e_ptr_d[ptr_e] = 1'b1;")
                    .line("e_bad_d[ptr_e] = ptr_bad;")
                    .line("e_err_d[ptr_e] = ptr_bad;");
              })
      .comment("Container reads.")
      .ifElse("rd_start",
              [&](vlog::Stmts& s) {
                s.ifElse(
                    "e_bad_q[" + entry("rd") + "]",
                    [](vlog::Stmts& t) { t.line("rd_d = rd_q + 1'b1;"); },
                    [&](vlog::Stmts& t) {
                      t.line("rd_active_d = 1'b1;")
                          .line("rd_addr_d = e_start_q[" + entry("rd") + "];")
                          .line("rd_left_d = e_left_q[" + entry("rd") + "];");
                    });
              })
      .ifElse("rd_fire",
              [](vlog::Stmts& s) {
                s.line("rd_addr_d = rd_addr_q + 32'(rd_len);")
                    .line("rd_left_d = rd_left_q - 32'(rd_len);")
                    .line("seq_issue_d = seq_issue_q + 1'b1;");
                s.ifElse("rd_left_q == 32'(rd_len)", [](vlog::Stmts& t) {
                  t.line("rd_active_d = 1'b0;").line("rd_d = rd_q + 1'b1;");
                });
              })
      .ifElse("data_resp", [](vlog::Stmts& s) {
        s.line("rob_valid_d[resp_rob] = 1'b1;");
        s.ifElse("dma_resp_error_i",
                 [](vlog::Stmts& t) { t.line("e_err_d[rob_op_q[resp_rob]] = 1'b1;"); });
      });
  nextFeed(n);
}

// The reorder buffer, the decompressor feed, blocks announced and done, and the row pieces.
void BovedaLoaderGenerator::nextFeed(vlog::Stmts& n) const {
  if (onChip_)
    n.ifElse("sp_rd_fire",
             [](vlog::Stmts& s) {
               s.line("rd_addr_d = rd_addr_q + AddrBits'(1);")
                   .line("rd_left_d = rd_left_q - AddrBits'(1);")
                   .line("seq_issue_d = seq_issue_q + 1'b1;")
                   .line("sp_rsp_slot_d = issue_rob;");
               s.ifElse("rd_left_q == AddrBits'(1)", [](vlog::Stmts& t) {
                 t.line("rd_active_d = 1'b0;").line("rd_d = rd_q + 1'b1;");
               });
             })
        .ifElse("sp_rd_rvalid_i",
                [](vlog::Stmts& s) { s.line("rob_valid_d[sp_rsp_slot_q] = 1'b1;"); })
        .line("dma_out_d = dma_out_q + " + num(robBits_ + 1) + "'(rd_fire) - " + num(robBits_ + 1) +
              "'(data_resp);");
  n.ifElse("feed_valid && feed_ready",
           [](vlog::Stmts& s) {
             s.ifElse(
                 "feed_last",
                 [](vlog::Stmts& t) {
                   t.line("rob_valid_d[head_rob] = 1'b0;")
                       .line("seq_feed_d = seq_feed_q + 1'b1;")
                       .line("feed_w_d = '0;");
                 },
                 [](vlog::Stmts& t) { t.line("feed_w_d = feed_w_q + 1'b1;"); });
           })
      .comment("Blocks announced, decompressor done pulses (in the same order).")
      .ifElse("(an_valid && dec_blk_ready) || an_skip",
              [](vlog::Stmts& s) { s.line("an_d = an_q + 1'b1;"); })
      .ifElse(
          "dec_done",
          [&](vlog::Stmts& s) {
            s.line("e_dec_d[" + entry("dd") + "] = 1'b1;")
                .line("e_err_d[" + entry("dd") + "] = e_err_q[" + entry("dd") + "] | dec_error;")
                .line("dd_d = dd_q + 1'b1;");
          },
          [](vlog::Stmts& s) {
            s.ifElse("dd_skip", [](vlog::Stmts& t) { t.line("dd_d = dd_q + 1'b1;"); });
          })
      .comment("Row pieces.")
      .ifElse("wr_start",
              [&](vlog::Stmts& s) {
                s.ifElse(
                    "e_bad_q[" + entry("wr") + "]",
                    [](vlog::Stmts& t) { t.line("wr_d = wr_q + 1'b1;"); },
                    [](vlog::Stmts& t) {
                      t.line("wr_active_d = 1'b1;").line("wr_r_d = '0;").line("wr_blk_d = '0;");
                    });
              })
      .ifElse("piece_fire",
              [&](vlog::Stmts& s) {
                s.ifElse(
                    "wr_last_piece",
                    [&](vlog::Stmts& t) {
                      t.line("wr_active_d = 1'b0;")
                          .line("e_wr_d[" + entry("wr") + "] = 1'b1;")
                          .line("wr_d = wr_q + 1'b1;");
                    },
                    [](vlog::Stmts& t) {
                      t.ifElse(
                          "wr_last_blk",
                          [](vlog::Stmts& u) {
                            u.line("wr_blk_d = '0;").line("wr_r_d = wr_r_q + CountBits'(1);");
                          },
                          [](vlog::Stmts& u) { u.line("wr_blk_d = wr_blk_q + BlockBits'(1);"); });
                    });
              })
      .ifElse("eng_done", [](vlog::Stmts& s) { s.line("head_d = head_q + 1'b1;"); });
}

// Storage written in place: the queue entries' operations and streams, the pointer lines' data
// and the reorder buffer.
void BovedaLoaderGenerator::storage(vlog::Body& b) const {
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("accept", [&](vlog::Stmts& s) {
    s.line("e_payload_q[" + entry("tail") + "] <= op_payload_i[" + num(ld_.width() - 1) + ":0];")
        .line("e_id_q[" + entry("tail") + "] <= op_id_i;");
    if (onChip_)
      s.comment("DECOMPRESS: its stream is known at once, rows from the scratchpad.")
          .line("e_start_q[" + entry("tail") + "] <= op_src_row;")
          .line("e_left_q[" + entry("tail") + "] <= op_containers * AddrBits'(RowsPerContainer);")
          .line("e_words_q[" + entry("tail") + "] <= op_containers * AddrBits'(ContainerWords);");
  });
  d.clocked
      .ifElse("pf_a_done",
              [&](vlog::Stmts& s) {
                s.line("e_line_q[" + entry("pf") + "] <= pf_a_line;")
                    .line("e_word_q[" + entry("pf") + "] <= pf_dram[" + num(lineLog_ - 1) + ":3];");
              })
      .ifElse("alloc",
              [](vlog::Stmts& s) {
                s.line("ln_addr_q[vic] <= pf_req_pref ? pf_pref_line_q : pf_line;");
              })
      .ifElse("line_resp", [&](vlog::Stmts& s) {
        s.line("ln_data_q[" + num(lineBits_) + "'(dma_resp_tag_i)] <= dma_resp_data_i[" +
               num(lineBytes_ * 8 - 1) + ":0];");
      });
  d.clocked.ifElse("ptr_set", [](vlog::Stmts& s) {
    s.line("e_start_q[ptr_e] <= ptr_start[31:0];")
        .line("e_left_q[ptr_e] <= ptr_bytes[31:0];")
        .line("e_words_q[ptr_e] <= AddrBits'(ptr_bytes * PtrBits'(8) / PtrBits'(StreamWidth));");
  });
  if (onChip_) {
    b.comment("Reorder-buffer writes: a DMA response or a scratchpad row (DECOMPRESS), never "
              "both in one cycle.");
    b.logic("rob_wr", Type::bit());
    b.logic("rob_wr_slot", Type::bits(robBits_));
    b.logic("rob_wr_data", Type::bits(dataBits_));
    b.logic("rob_issue", Type::bit(), "a container request or row read takes an entry");
    b.logic("rob_issue_words", Type::bits(wordBits_));
    b.assign("rob_wr", "data_resp || sp_rd_rvalid_i");
    b.assign("rob_wr_slot", "sp_rd_rvalid_i ? sp_rsp_slot_q : resp_rob");
    b.assign("rob_wr_data",
             "sp_rd_rvalid_i ? " + num(dataBits_) + "'(sp_rd_rdata_i) : dma_resp_data_i");
    b.assign("rob_issue", "rd_fire || sp_rd_fire");
    b.assign("rob_issue_words",
             "sp_rd_fire ? WordBits'(RowWords) : WordBits'(AddrBits'(rd_len) * 8 / StreamWidth)");
    d.clocked
        .ifElse("rob_wr", [](vlog::Stmts& s) { s.line("rob_data_q[rob_wr_slot] <= rob_wr_data;"); })
        .ifElse("rob_issue", [&](vlog::Stmts& s) {
          s.line("rob_words_q[issue_rob] <= rob_issue_words;")
              .line("rob_op_q[issue_rob] <= " + entry("rd") + ";");
        });
  } else {
    d.clocked
        .ifElse("data_resp",
                [](vlog::Stmts& s) { s.line("rob_data_q[resp_rob] <= dma_resp_data_i;"); })
        .ifElse("rd_fire", [&](vlog::Stmts& s) {
          s.line("rob_words_q[issue_rob] <= " + num(wordBits_) +
                 "'(32'(rd_len) * 8 / StreamWidth);")
              .line("rob_op_q[issue_rob] <= " + entry("rd") + ";");
        });
  }
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", "^{dec_out_last, op_payload_i, dma_resp_tag_i, ptr_start[63:32], "
                          "ptr_bytes[63:32]}");
}

// An operation-queue index's entry: "<idx>_ent" (the index without its wrap bit).
std::string BovedaLoaderGenerator::entry(const std::string& idx) const {
  return idx + "_ent";
}

// The stage's index has an entry to work on.
std::string BovedaLoaderGenerator::pending(const std::string& idx) const {
  return "(" + idx + "_q != tail_q)";
}

// ... and its pointer entry has been read and checked.
std::string BovedaLoaderGenerator::known(const std::string& idx) const {
  return "(" + idx + "_q != tail_q && e_ptr_q[" + entry(idx) + "])";
}

} // namespace by::hw
