// The Boveda loader: executes compressed MVINs and stands in front of the plain load
// controller, which keeps every other MVIN unchanged (docs/boveda.md, "Hardware").
//
// A compressed MVIN moves one block, the rows x cols values of the move in row-major order
// (docs/isa.md). The loader reads the block's 8-byte pointer entry {first container,
// containers}, checks it, then reads the block's containers with up to RobEntries DMA requests
// of up to max_bytes in flight. Responses may return in any order; a reorder buffer (one
// max_bytes entry per request in flight) hands them to the decompressor in stream order, one
// StreamWidth-bit word per cycle. Decoded groups go through a value repacker that cuts them
// into row pieces of DIM values (the last column block of a row: the rest), written to the
// scratchpad like the plain controller's column blocks. The operation completes when the
// decompressor has consumed the block and the last piece is written; a bad pointer entry, an
// AXI error or a malformed block completes it with DMA_ERROR.
//
// Sharing with the plain controller: operations are routed by their `compressed` bit; DMA
// requests and scratchpad writes are multiplexed (the loader first); DMA responses are routed
// by tag (the loader's tags have bit 7 set, the plain controller's slots never do); the plain
// controller's completions pass straight through and the loader's wait for a free cycle.
// One compressed MVIN is executed at a time; a plain MVIN may run alongside.
//
// On-chip form (compression.boveda.on_chip): the loader also executes DECOMPRESS, a load
// operation whose block's containers lie in scratchpad rows (payload: dram = first row,
// stride = containers). It reads those rows through its own scratchpad read port, one row per
// cycle into the reorder buffer (one entry per row, RowBits / StreamWidth words), and from
// there everything is the compressed MVIN's path: decompressor, row pieces, scratchpad writes.
// The decoder has checked the ranges (source and destination do not overlap) and the count.
#include "boveda_loader.h"

#include "config/derived.h"
#include "op_layouts.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

vlog::Module BovedaLoaderGenerator::build() const {
  const AccelParams& p = p_;
  const BovedaHwParams& h = boveda_;
  const PackedLayout ld = loadOpLayout(p);
  const int payload = opPayloadWidth(p);
  const int rob = std::max(2, p.maxInflight);
  const int robBits = config::log2Exact(rob);
  const int dataBits = p.maxBytes * 8;
  const int wordsPerEntry = dataBits / h.streamWidth;
  const int wordBits = std::max(1, config::log2Exact(wordsPerEntry) + 1);
  const int lenBits = config::log2Exact(p.maxBytes) + 1;
  const int spRow = p.dim * p.iw;
  const int maxGroupBits =
      h.headerBits + (h.zeroAware ? h.groupSize : 0) + h.groupSize * h.elementBits;
  const int tagBits = p.dmaTagBits;
  const bool onChip = p.config.boveda.onChip;
  const int rowsPerContainer = h.containerBits / spRow;

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
  m.input("op_payload_i", Type::bits(payload));
  m.output("done_valid_o", Type::bit());
  m.output("done_id_o", Type::bits(p.rsIdBits));
  m.output("err_valid_o", Type::bit(), "a load operation saw an AXI error or a bad block");
  m.portGroup("The plain load controller (its op id and payload are op_id_i / op_payload_i).");
  m.output("pl_op_valid_o", Type::bit());
  m.input("pl_op_ready_i", Type::bit());
  m.input("pl_done_valid_i", Type::bit());
  m.input("pl_done_id_i", Type::bits(p.rsIdBits));
  m.input("pl_err_i", Type::bit());
  m.portGroup("DMA reader, shared.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits(32));
  m.output("dma_req_len_o", Type::bits(lenBits));
  m.output("dma_req_tag_o", Type::bits(tagBits));
  m.input("pl_dma_req_valid_i", Type::bit());
  m.output("pl_dma_req_ready_o", Type::bit());
  m.input("pl_dma_req_addr_i", Type::bits(32));
  m.input("pl_dma_req_len_i", Type::bits(lenBits));
  m.input("pl_dma_req_tag_i", Type::bits(tagBits));
  m.input("dma_resp_valid_i", Type::bit());
  m.output("dma_resp_ready_o", Type::bit());
  m.input("dma_resp_tag_i", Type::bits(tagBits));
  m.input("dma_resp_data_i", Type::bits(dataBits));
  m.input("dma_resp_error_i", Type::bit());
  m.output("pl_dma_resp_valid_o", Type::bit(), "a response for the plain controller");
  m.input("pl_dma_resp_ready_i", Type::bit());
  m.portGroup("Scratchpad write client, shared.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits(p.spRowBits));
  m.output("sp_data_o", Type::bits(spRow));
  m.output("sp_mask_o", Type::bits(p.dim));
  m.input("pl_sp_valid_i", Type::bit());
  m.output("pl_sp_ready_o", Type::bit());
  m.input("pl_sp_row_i", Type::bits(p.spRowBits));
  m.input("pl_sp_data_i", Type::bits(spRow));
  m.input("pl_sp_mask_i", Type::bits(p.dim));
  if (onChip) {
    m.portGroup("Scratchpad read client (DECOMPRESS): data returns the cycle after ready.");
    m.output("sp_rd_valid_o", Type::bit());
    m.input("sp_rd_ready_i", Type::bit());
    m.output("sp_rd_row_o", Type::bits(p.spRowBits));
    m.input("sp_rd_rvalid_i", Type::bit());
    m.input("sp_rd_rdata_i", Type::bits(spRow));
    m.output("err_dc_o", Type::bit(), "err_valid_o comes from a DECOMPRESS");
  }
  m.portGroup("Status (the loader's own).");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit());
  m.output("stream_bytes_o", Type::bits(lenBits), "container bytes requested this cycle");

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("RobEntries", num(rob), "container requests in flight");
  b.localParam("RobBits", num(robBits));
  b.localParam("MaxBytes", num(p.maxBytes));
  b.localParam("StreamWidth", num(h.streamWidth));
  b.localParam("ContainerBytes", num(h.containerBits / 8));
  b.localParam("PtrTag", Type::bits(tagBits), num(tagBits) + "'h" + "C0",
               "the pointer-entry read (data tags are 8'h80 + entry)");
  b.blank();

  // ---------------------------------------------------------------- routing
  b.comment("Routing: compressed operations to the loader, the others to the plain controller.");
  b.logic("op_comp", Type::bit(), onChip ? "compressed MVIN or DECOMPRESS" : "");
  if (onChip) {
    b.logic("op_onchip", Type::bit(), "DECOMPRESS");
    b.logic("op_src_row", Type::bits(32), "DECOMPRESS: first container row");
    b.logic("op_containers", Type::bits(32), "DECOMPRESS: containers");
    b.assign("op_onchip", ld.slice("op_payload_i", "onchip"));
    b.assign("op_src_row", ld.slice("op_payload_i", "dram"));
    b.assign("op_containers", ld.slice("op_payload_i", "stride"));
  }
  b.assign("op_comp", ld.slice("op_payload_i", "compressed") + (onChip ? " || op_onchip" : ""));
  b.logic("accept", Type::bit());
  b.enumType({"state_e",
              3,
              {{"StIdle", "no compressed operation"},
               {"StPtr", "request the pointer entry"},
               {"StPtrWait", "wait for it and check it"},
               {"StStream", "read, decompress and write the block"},
               {"StDone", "report completion (when the plain controller does not)"}},
              {"state_d", "state_q"}});
  b.assign("op_ready_o", "op_comp ? state_q == StIdle : pl_op_ready_i");
  b.assign("pl_op_valid_o", "op_valid_i && !op_comp");
  b.assign("accept", "op_valid_i && op_comp && state_q == StIdle");
  b.blank();

  b.comment("The operation being executed.");
  b.logic("cur_q", Type::bits(ld.width()));
  b.logic("cur_id_q", Type::bits(p.rsIdBits));
  ld.unpack(b, "cur_q", "cur_");
  b.logic("err_q", Type::bit(), "AXI error or malformed block");
  b.logic("n_values", Type::bits(32), "values in the block");
  b.assign("n_values", "32'(cur_rows) * 32'(cur_cols)");
  b.blank();

  // ---------------------------------------------------------------- pointer entry
  b.comment("Pointer entry {first container, containers}: the stream lies at stride + first * "
            "ContainerBytes. A count of 0, more containers than a block of n_values can need "
            "(every group at full width), or a stream past 4 GiB is refused unread.");
  b.logic("ptr_resp", Type::bit());
  b.logic("ptr_first", Type::bits(32));
  b.logic("ptr_count", Type::bits(32));
  b.logic("ptr_start", Type::bits(64));
  b.logic("ptr_bytes", Type::bits(64));
  b.logic("max_containers", Type::bits(64));
  b.logic("ptr_bad", Type::bit());
  b.assign("ptr_resp", "dma_resp_valid_i && dma_resp_tag_i == PtrTag");
  b.assign("ptr_first", "dma_resp_data_i[31:0]");
  b.assign("ptr_count", "dma_resp_data_i[63:32]");
  b.assign("ptr_start", "64'(cur_stride) + 64'(ptr_first) * 64'(ContainerBytes)");
  b.assign("ptr_bytes", "64'(ptr_count) * 64'(ContainerBytes)");
  b.assign("max_containers", "((64'(n_values) + 64'd" + num(h.groupSize - 1) + ") / 64'd" +
                                 num(h.groupSize) + " * 64'd" + num(maxGroupBits) + " + 64'd" +
                                 num(h.containerBits - 1) + ") / 64'd" + num(h.containerBits));
  b.assign("ptr_bad", "dma_resp_error_i || ptr_count == '0 || 64'(ptr_count) > max_containers ||\n"
                      "      ptr_start + ptr_bytes > 64'h100000000");
  b.blank();

  // ---------------------------------------------------------------- container reads
  b.comment("Container reads: requests of up to MaxBytes, at most RobEntries in flight (issued "
            "minus handed to the decompressor); request i uses reorder entry i mod RobEntries.");
  b.logic("rd_addr_q", Type::bits(32));
  b.logic("rd_left_q", Type::bits(32), "stream bytes not yet requested");
  b.logic("seq_issue_q", Type::bits(robBits + 1));
  b.logic("seq_feed_q", Type::bits(robBits + 1));
  b.logic("rd_len", Type::bits(lenBits));
  b.logic("rob_full", Type::bit());
  b.logic("eng_req_valid", Type::bit());
  b.logic("eng_req_fire", Type::bit());
  b.assign("rd_len", "rd_left_q > 32'(MaxBytes) ? " + num(lenBits) +
                         "'(MaxBytes) : " + num(lenBits) + "'(rd_left_q)");
  b.assign("rob_full", "seq_issue_q[RobBits] != seq_feed_q[RobBits] && "
                       "seq_issue_q[RobBits-1:0] == seq_feed_q[RobBits-1:0]");
  b.assign("eng_req_valid",
           std::string("state_q == StPtr || (state_q == StStream && rd_left_q != '0 && !rob_full") +
               (onChip ? " &&\n      !cur_onchip)" : ")"));
  b.assign("eng_req_fire", "eng_req_valid && dma_req_ready_i");
  b.assign("dma_req_valid_o", "eng_req_valid || pl_dma_req_valid_i");
  b.assign("dma_req_addr_o",
           "!eng_req_valid ? pl_dma_req_addr_i : state_q == StPtr ? cur_dram : rd_addr_q");
  b.assign("dma_req_len_o", "!eng_req_valid ? pl_dma_req_len_i : state_q == StPtr ? " +
                                num(lenBits) + "'d8 : rd_len");
  b.assign("dma_req_tag_o", "!eng_req_valid ? pl_dma_req_tag_i : state_q == StPtr ? PtrTag :\n"
                            "      " +
                                num(tagBits) + "'h80 | " + num(tagBits) +
                                "'(seq_issue_q[RobBits-1:0])");
  b.assign("pl_dma_req_ready_o", "dma_req_ready_i && !eng_req_valid");
  b.assign("dma_wait_o", "eng_req_valid && !dma_req_ready_i");
  b.assign("stream_bytes_o", "(eng_req_fire && state_q == StStream) ? rd_len : '0");
  b.blank();

  if (onChip) {
    b.comment("DECOMPRESS: one container row read per cycle (rd_addr_q: next row, rd_left_q: "
              "rows left), each into reorder entry i mod RobEntries; data returns the cycle "
              "after the grant, in order.");
    b.logic("sp_rd_fire", Type::bit());
    b.logic("sp_rsp_slot_q", Type::bits(robBits), "entry of the row granted last cycle");
    b.assign("sp_rd_valid_o", "state_q == StStream && cur_onchip && rd_left_q != '0 && !rob_full");
    b.assign("sp_rd_row_o", num(p.spRowBits) + "'(rd_addr_q)");
    b.assign("sp_rd_fire", "sp_rd_valid_o && sp_rd_ready_i");
  }
  b.comment("Responses: the loader's (tag bit 7) are always taken.");
  b.logic("resp_mine", Type::bit());
  b.logic("data_resp", Type::bit());
  b.assign("resp_mine", "dma_resp_tag_i[" + num(tagBits - 1) + "]");
  b.assign("data_resp", "dma_resp_valid_i && resp_mine && dma_resp_tag_i != PtrTag");
  b.assign("dma_resp_ready_o", "resp_mine || pl_dma_resp_ready_i");
  b.assign("pl_dma_resp_valid_o", "dma_resp_valid_i && !resp_mine");
  b.logic("rob_valid_q", Type::bits("RobEntries"));
  b.logicArray("rob_data_q", Type::bits(dataBits), "RobEntries", "", "mem2reg");
  b.logicArray("rob_words_q", Type::bits(wordBits), "RobEntries", "stream words of the entry",
               "mem2reg");
  b.blank();

  // ---------------------------------------------------------------- decompressor
  b.comment("The head entry feeds the decompressor one word per cycle.");
  b.logic("head", Type::bits(robBits));
  b.logic("feed_w_q", Type::bits(wordBits), "word of the head entry fed next");
  b.logic("feed_valid", Type::bit());
  b.logic("feed_ready", Type::bit());
  b.logic("feed_last", Type::bit(), "the head entry's last word");
  b.logic("feed_data", Type::bits(h.streamWidth));
  b.assign("head", "seq_feed_q[RobBits-1:0]");
  b.assign("feed_valid", "state_q == StStream && rob_valid_q[head]");
  b.assign("feed_last", "feed_w_q == rob_words_q[head] - " + num(wordBits) + "'d1");
  b.assign("feed_data",
           num(h.streamWidth) + "'(rob_data_q[head] >> (32'(feed_w_q) * " + "32'(StreamWidth)))");
  b.logic("announce_q", Type::bit(), "the block's length is still to be given");
  b.logic("blk_words_q", Type::bits(32), "stream words of the block");
  b.logic("dec_blk_ready", Type::bit());
  b.logic("dec_out_valid", Type::bit());
  b.logic("dec_out_ready", Type::bit());
  b.logic("dec_out_data", Type::bits(h.groupSize * h.elementBits));
  b.logic("dec_out_count", Type::bits(config::log2Exact(h.groupSize) + 1));
  b.logic("dec_out_last", Type::bit());
  b.logic("dec_done", Type::bit());
  b.logic("dec_error", Type::bit());
  b.logic("dec_done_q", Type::bit(), "the decompressor consumed the block");
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
               {"blk_valid_i", "announce_q"},
               {"blk_ready_o", "dec_blk_ready"},
               {"blk_len_i", "n_values"},
               {"blk_words_i", "blk_words_q"},
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
  b.blank();

  // ---------------------------------------------------------------- writer
  b.comment("Row pieces: for row r, column block blk takes DIM values (the last block the rest) "
            "and goes to local row row + blk*block_stride + r.");
  b.logic("wr_r_q", Type::bits(16));
  b.logic("wr_blk_q", Type::bits(8));
  b.logic("wr_done_q", Type::bit(), "every piece is written");
  b.logic("wr_last_blk", Type::bit());
  b.logic("want", Type::bits(config::log2Exact(p.dim) + 1));
  b.logic("piece_valid", Type::bit());
  b.logic("piece_ready", Type::bit());
  b.logic("piece_data", Type::bits(spRow));
  b.logic("eng_sp_valid", Type::bit());
  b.logic("eng_sp_row", Type::bits(p.spRowBits));
  b.logic("eng_sp_mask", Type::bits(p.dim));
  b.assign("wr_last_blk", "wr_blk_q == cur_blocks - 8'd1");
  b.assign("want", "!(state_q == StStream && !wr_done_q) ? '0 :\n"
                   "      wr_last_blk ? " +
                       num(config::log2Exact(p.dim) + 1) +
                       "'(cur_cols - 16'(wr_blk_q) * 16'(Dim)) : " +
                       num(config::log2Exact(p.dim) + 1) + "'(Dim)");
  {
    auto& r = b.instance(names::kValueRepacker, "u_pieces");
    r.params = {
        {"ElemWidth", num(h.elementBits)}, {"InVals", num(h.groupSize)}, {"OutVals", "Dim"}};
    r.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "dec_out_valid"},
               {"in_ready_o", "dec_out_ready"},
               {"in_data_i", "dec_out_data"},
               {"in_count_i", "dec_out_count"},
               {"out_valid_o", "piece_valid"},
               {"out_ready_i", "piece_ready"},
               {"out_want_i", "want"},
               {"out_data_o", "piece_data"}};
  }
  b.assign("eng_sp_valid", "piece_valid");
  b.assign("piece_ready", "sp_ready_i");
  b.assign("eng_sp_row", num(p.spRowBits) +
                             "'(32'(cur_row) + 32'(wr_blk_q) * 32'(cur_block_stride) + "
                             "32'(wr_r_q))");
  b.comb().forLoop("e", "Dim",
                   [](vlog::Stmts& s) { s.line("eng_sp_mask[e] = 32'(e) < 32'(want);"); });
  b.assign("sp_valid_o", "eng_sp_valid || pl_sp_valid_i");
  b.assign("sp_row_o", "eng_sp_valid ? eng_sp_row : pl_sp_row_i");
  b.assign("sp_data_o", "eng_sp_valid ? piece_data : pl_sp_data_i");
  b.assign("sp_mask_o", "eng_sp_valid ? eng_sp_mask : pl_sp_mask_i");
  b.assign("pl_sp_ready_o", "sp_ready_i && !eng_sp_valid");
  b.logic("piece_fire", Type::bit());
  b.assign("piece_fire", "piece_valid && sp_ready_i");
  b.blank();

  // ---------------------------------------------------------------- completion
  b.comment("Completion: the plain controller's pass straight through; the loader's waits for "
            "a cycle without one.");
  b.logic("eng_done", Type::bit());
  b.assign("eng_done", "state_q == StDone && !pl_done_valid_i");
  b.assign("done_valid_o", "pl_done_valid_i || eng_done");
  b.assign("done_id_o", "pl_done_valid_i ? pl_done_id_i : cur_id_q");
  b.assign("err_valid_o", "pl_err_i || (eng_done && err_q)");
  b.assign("busy_o", "state_q != StIdle");
  if (onChip)
    b.assign("err_dc_o", "eng_done && err_q && cur_onchip");
  b.blank();

  b.comment("Next state.");
  b.comb()
      .line("state_d = state_q;")
      .caseOf("state_q",
              {{"StIdle",
                [&](vlog::Stmts& s) {
                  if (onChip)
                    s.ifElse("accept", [&](vlog::Stmts& t) {
                      t.ifElse(
                          "op_onchip", [](vlog::Stmts& u) { u.line("state_d = StStream;"); },
                          [](vlog::Stmts& u) { u.line("state_d = StPtr;"); });
                    });
                  else
                    s.ifElse("accept", [](vlog::Stmts& t) { t.line("state_d = StPtr;"); });
                }},
               {"StPtr",
                [](vlog::Stmts& s) {
                  s.ifElse("eng_req_fire", [](vlog::Stmts& t) { t.line("state_d = StPtrWait;"); });
                }},
               {"StPtrWait",
                [](vlog::Stmts& s) {
                  s.ifElse("ptr_resp", [](vlog::Stmts& t) {
                    t.ifElse(
                        "ptr_bad", [](vlog::Stmts& u) { u.line("state_d = StDone;"); },
                        [](vlog::Stmts& u) { u.line("state_d = StStream;"); });
                  });
                }},
               {"StStream",
                [](vlog::Stmts& s) {
                  s.ifElse("dec_done_q && wr_done_q",
                           [](vlog::Stmts& t) { t.line("state_d = StDone;"); });
                }},
               {"StDone",
                [](vlog::Stmts& s) {
                  s.ifElse("eng_done", [](vlog::Stmts& t) { t.line("state_d = StIdle;"); });
                }}},
              [](vlog::Stmts& s) { s.line("state_d = StIdle;"); });

  vlog::SeqItem& q = b.sequential();
  q.reset.line("state_q <= StIdle;")
      .line("cur_q <= '0;")
      .line("cur_id_q <= '0;")
      .line("err_q <= 1'b0;")
      .line("rd_addr_q <= '0;")
      .line("rd_left_q <= '0;")
      .line("seq_issue_q <= '0;")
      .line("seq_feed_q <= '0;")
      .line("rob_valid_q <= '0;")
      .line("feed_w_q <= '0;")
      .line("announce_q <= 1'b0;")
      .line("blk_words_q <= '0;")
      .line("dec_done_q <= 1'b0;")
      .line("wr_r_q <= '0;")
      .line("wr_blk_q <= '0;")
      .line("wr_done_q <= 1'b0;");
  if (onChip)
    q.reset.line("sp_rsp_slot_q <= '0;");
  q.clocked.line("state_q <= state_d;")
      .ifElse("accept",
              [&](vlog::Stmts& s) {
                s.line("cur_q <= op_payload_i[" + num(ld.width() - 1) + ":0];")
                    .line("cur_id_q <= op_id_i;")
                    .line("err_q <= 1'b0;")
                    .line("dec_done_q <= 1'b0;")
                    .line("wr_r_q <= '0;")
                    .line("wr_blk_q <= '0;")
                    .line("wr_done_q <= 1'b0;");
                if (onChip)
                  s.ifElse("op_onchip", [&](vlog::Stmts& t) {
                    t.comment("DECOMPRESS: straight to the stream, rows from the scratchpad.")
                        .line("rd_addr_q <= op_src_row;")
                        .line("rd_left_q <= op_containers * 32'd" + num(rowsPerContainer) + ";")
                        .line("announce_q <= 1'b1;")
                        .line("blk_words_q <= op_containers * 32'd" +
                              num(h.containerBits / h.streamWidth) + ";");
                  });
              })
      .ifElse("state_q == StPtrWait && ptr_resp",
              [](vlog::Stmts& s) {
                s.line("err_q <= ptr_bad;")
                    .line("rd_addr_q <= ptr_start[31:0];")
                    .line("rd_left_q <= ptr_bad ? '0 : ptr_bytes[31:0];")
                    .line("announce_q <= !ptr_bad;")
                    .line("blk_words_q <= 32'(ptr_bytes * 64'd8 / 64'(StreamWidth));");
              })
      .ifElse("announce_q && dec_blk_ready", [](vlog::Stmts& s) { s.line("announce_q <= 1'b0;"); })
      .ifElse("eng_req_fire && state_q == StStream",
              [](vlog::Stmts& s) {
                s.line("rd_addr_q <= rd_addr_q + 32'(rd_len);")
                    .line("rd_left_q <= rd_left_q - 32'(rd_len);")
                    .line("seq_issue_q <= seq_issue_q + 1'b1;");
              })
      .ifElse("data_resp", [](vlog::Stmts& s) {
        s.line("rob_valid_q[dma_resp_tag_i[RobBits-1:0]] <= 1'b1;")
            .line("err_q <= err_q | dma_resp_error_i;");
      });
  if (onChip)
    q.clocked
        .ifElse("sp_rd_fire",
                [](vlog::Stmts& s) {
                  s.line("rd_addr_q <= rd_addr_q + 32'd1;")
                      .line("rd_left_q <= rd_left_q - 32'd1;")
                      .line("seq_issue_q <= seq_issue_q + 1'b1;")
                      .line("sp_rsp_slot_q <= seq_issue_q[RobBits-1:0];");
                })
        .ifElse("sp_rd_rvalid_i",
                [](vlog::Stmts& s) { s.line("rob_valid_q[sp_rsp_slot_q] <= 1'b1;"); });
  q.clocked
      .ifElse("feed_valid && feed_ready",
              [](vlog::Stmts& s) {
                s.ifElse(
                    "feed_last",
                    [](vlog::Stmts& t) {
                      t.line("rob_valid_q[head] <= 1'b0;")
                          .line("seq_feed_q <= seq_feed_q + 1'b1;")
                          .line("feed_w_q <= '0;");
                    },
                    [](vlog::Stmts& t) { t.line("feed_w_q <= feed_w_q + 1'b1;"); });
              })
      .ifElse(
          "dec_done",
          [](vlog::Stmts& s) { s.line("dec_done_q <= 1'b1;").line("err_q <= err_q | dec_error;"); })
      .ifElse("piece_fire", [](vlog::Stmts& s) {
        s.ifElse(
            "wr_last_blk",
            [](vlog::Stmts& t) {
              t.line("wr_blk_q <= '0;")
                  .ifElse(
                      "wr_r_q == cur_rows - 16'd1",
                      [](vlog::Stmts& u) { u.line("wr_done_q <= 1'b1;"); },
                      [](vlog::Stmts& u) { u.line("wr_r_q <= wr_r_q + 16'd1;"); });
            },
            [](vlog::Stmts& t) { t.line("wr_blk_q <= wr_blk_q + 8'd1;"); });
      });
  if (onChip) {
    // One write port per reorder-buffer array: DMA responses and scratchpad rows never arrive
    // for the same operation (one compressed operation at a time), so they share it.
    b.comment("Reorder-buffer writes: a DMA response or a scratchpad row (DECOMPRESS), never "
              "both in one cycle.");
    b.logic("rob_wr", Type::bit());
    b.logic("rob_wr_slot", Type::bits(robBits));
    b.logic("rob_wr_data", Type::bits(dataBits));
    b.logic("rob_issue", Type::bit(), "a container request or row read takes an entry");
    b.logic("rob_issue_words", Type::bits(wordBits));
    b.assign("rob_wr", "data_resp || sp_rd_rvalid_i");
    b.assign("rob_wr_slot", "sp_rd_rvalid_i ? sp_rsp_slot_q : dma_resp_tag_i[RobBits-1:0]");
    b.assign("rob_wr_data",
             "sp_rd_rvalid_i ? " + num(dataBits) + "'(sp_rd_rdata_i) : dma_resp_data_i");
    b.assign("rob_issue", "(eng_req_fire && state_q == StStream) || sp_rd_fire");
    b.assign("rob_issue_words", "sp_rd_fire ? " + num(wordBits) + "'d" +
                                    num(spRow / h.streamWidth) + " : " + num(wordBits) +
                                    "'(32'(rd_len) * 8 / StreamWidth)");
  }
  vlog::SeqItem& d = b.clocked();
  if (onChip)
    d.clocked
        .ifElse("rob_wr", [](vlog::Stmts& s) { s.line("rob_data_q[rob_wr_slot] <= rob_wr_data;"); })
        .ifElse("rob_issue", [](vlog::Stmts& s) {
          s.line("rob_words_q[seq_issue_q[RobBits-1:0]] <= rob_issue_words;");
        });
  else
    d.clocked
        .ifElse("data_resp",
                [](vlog::Stmts& s) {
                  s.line("rob_data_q[dma_resp_tag_i[RobBits-1:0]] <= dma_resp_data_i;");
                })
        .ifElse("eng_req_fire && state_q == StStream", [&](vlog::Stmts& s) {
          s.line("rob_words_q[seq_issue_q[RobBits-1:0]] <= " + num(wordBits) +
                 "'(32'(rd_len) * 8 / StreamWidth);");
        });
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", "^{cur_zero, cur_acc, cur_accumulate, cur_shrink, cur_compressed, "
                          "dec_out_last, op_payload_i, ptr_start[63:32], ptr_bytes[63:32]}");
  return m;
}

} // namespace by::hw
