// The load controller: executes MVIN operations. For every DRAM row it issues one DMA read of
// all the row's column blocks (at most max_bytes, which is what MAX_BLOCK_LEN guarantees), or,
// for DRAM address 0, a row of zeros, and writes the returned blocks into the scratchpad or the
// accumulator, one local row per block and cycle. Reads of several operations are in flight
// at once: a tag names a slot of the request table, which remembers where the data goes, and
// each slot belongs to an entry of the operation table, which counts the operation's
// outstanding requests and reports it complete to the reservation station once every block
// has been written.
#include "load_controller.h"

#include "op_layouts.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

vlog::Module LoadControllerGenerator::build() const {
  const AccelParams& p = p_;
  const PackedLayout ld = loadOpLayout(p);
  const int payload = opPayloadWidth(p);
  const int reqSlots = p.maxInflight * 2; // request table entries
  const int slotBits = config::log2Exact(reqSlots) > 0 ? config::log2Exact(reqSlots) : 1;
  const int opSlots = 4;
  const int lenBits = config::log2Exact(p.maxBytes) + 1;
  const int spRow = p.spElems * p.iw, accRow = p.dim * p.aw;

  vlog::Module m(names::kLoadController,
                 "Load controller: MVIN operations to DMA reads and scratchpad / accumulator "
                 "writes, with up to " +
                     num(reqSlots) + " rows from up to " + num(opSlots) + " operations in flight.");
  m.clockAndReset();
  m.portGroup("Operations from the reservation station.");
  m.input("op_valid_i", Type::bit());
  m.output("op_ready_o", Type::bit());
  m.input("op_id_i", Type::bits(p.rsIdBits));
  m.input("op_payload_i", Type::bits(payload));
  m.output("done_valid_o", Type::bit(), "operation done_id_o completed");
  m.output("done_id_o", Type::bits(p.rsIdBits));
  m.portGroup("DMA reads.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits(32));
  m.output("dma_req_len_o", Type::bits(lenBits), "bytes");
  m.output("dma_req_tag_o", Type::bits(p.dmaTagBits));
  m.input("dma_resp_valid_i", Type::bit());
  m.output("dma_resp_ready_o", Type::bit());
  m.input("dma_resp_tag_i", Type::bits(p.dmaTagBits));
  m.input("dma_resp_data_i", Type::bits(p.maxBytes * 8));
  m.input("dma_resp_error_i", Type::bit());
  m.portGroup("Scratchpad write client.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits(p.spRowBits));
  m.output("sp_data_o", Type::bits(spRow));
  m.output("sp_mask_o", Type::bits(p.spElems));
  m.portGroup("Accumulator write client.");
  m.output("acc_valid_o", Type::bit());
  m.input("acc_ready_i", Type::bit());
  m.output("acc_row_o", Type::bits(p.accRowBits));
  m.output("acc_data_o", Type::bits(accRow));
  m.output("acc_mask_o", Type::bits(p.dim));
  m.output("acc_accumulate_o", Type::bit());
  m.input("acc_done_i", Type::bit(), "an accumulator write of this client is visible");
  m.portGroup("Status and errors.");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit(), "a request waits for the DMA");
  m.output("err_valid_o", Type::bit(), "an operation saw an AXI error");
  m.output("err_ch_o", Type::bits(2), "its channel field (the funct the error reports)");

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("SpElems", num(p.spElems), "elem_t per scratchpad row: DIM * lanes");
  b.localParam("ReqSlots", num(reqSlots));
  b.localParam("SlotBits", num(slotBits));
  b.localParam("OpSlots", num(opSlots));
  b.localParam("ElemWidth", num(p.iw));
  b.localParam("AccWidth", num(p.aw));
  b.blank();

  // ---------------------------------------------------------------- current operation
  b.comment("The operation being issued.");
  b.logic("cur_valid_q", Type::bit());
  b.logic("cur_q", Type::bits(ld.width()));
  b.logic("cur_op_q", Type::bits(2), "its operation-table entry");
  ld.unpack(b, "cur_q", "cur_");
  b.logic("row_q", Type::bits(16), "row being issued");
  b.logic("row_addr_q", Type::bits(32), "DRAM address of row row_q");
  b.logic("elem_bytes", Type::bits(3));
  b.logic("req_row", Type::bits(p.localRowBits), "local row of the request's first block");
  b.logic("last_req", Type::bit(), "this is the operation's last request");
  b.assign("elem_bytes",
           "(!cur_acc || cur_shrink) ? 3'd" + num(p.iw / 8) + " : 3'd" + num(p.aw / 8));
  b.assign("req_row", "cur_row + " + num(p.localRowBits) + "'(row_q)");
  b.assign("last_req", "row_q == cur_rows - 16'd1");
  b.blank();

  // ---------------------------------------------------------------- tables
  b.comment("Operation table: RS id, channel, rows not yet written, all requests issued, error "
            "seen.");
  b.logic("opt_valid_q", Type::bits("OpSlots"));
  b.logicArray("opt_id_q", Type::bits(p.rsIdBits), "OpSlots", "", "mem2reg");
  b.logicArray("opt_ch_q", Type::bits(2), "OpSlots", "channel (the funct an error reports)",
               "mem2reg");
  b.logicArray("opt_pending_q", Type::bits(17), "OpSlots", "rows issued, not written", "mem2reg");
  b.logic("opt_issued_q", Type::bits("OpSlots"), "every request issued");
  b.logic("opt_error_q", Type::bits("OpSlots"));
  b.comment("Request table: one slot per row in flight.");
  b.logic("req_valid_q", Type::bits("ReqSlots"));
  b.logicArray("req_row_q", Type::bits(p.localRowBits), "ReqSlots", "", "mem2reg");
  b.logicArray("req_cols_q", Type::bits(16), "ReqSlots", "elements of the row (all blocks)",
               "mem2reg");
  b.logicArray("req_blocks_q", Type::bits(8), "ReqSlots", "column blocks", "mem2reg");
  b.logicArray("req_bstride_q", Type::bits(16), "ReqSlots", "local rows between blocks", "mem2reg");
  b.logicArray("req_op_q", Type::bits(2), "ReqSlots", "operation-table entry", "mem2reg");
  b.logic("req_acc_q", Type::bits("ReqSlots"));
  b.logic("req_accumulate_q", Type::bits("ReqSlots"));
  b.logic("req_shrink_q", Type::bits("ReqSlots"));
  b.logic("req_zero_q", Type::bits("ReqSlots"), "write zeros, no DMA");
  b.blank();

  // ---------------------------------------------------------------- issue
  b.comment("Issue: a free request slot, then the DMA (or the zero path) takes the request.");
  b.logic("free_slot", Type::bits("SlotBits"));
  b.logic("any_free", Type::bit());
  b.comb()
      .line("free_slot = '0;")
      .line("any_free = 1'b0;")
      .forLoop("i", "ReqSlots", [](vlog::Stmts& s) {
        s.ifElse("!req_valid_q[ReqSlots-1-i]", [](vlog::Stmts& t) {
          t.line("free_slot = SlotBits'(ReqSlots-1-i);").line("any_free = 1'b1;");
        });
      });
  b.logic("issue", Type::bit(), "a request leaves this cycle");
  b.assign("dma_req_valid_o", "cur_valid_q && any_free && !cur_zero");
  b.assign("dma_req_addr_o", "row_addr_q");
  b.assign("dma_req_len_o", num(lenBits) + "'(cur_cols) * " + num(lenBits) + "'(elem_bytes)");
  b.assign("dma_req_tag_o", num(p.dmaTagBits) + "'(free_slot)");
  b.assign("issue", "cur_valid_q && any_free && (cur_zero || dma_req_ready_i)");
  b.assign("dma_wait_o", "dma_req_valid_o && !dma_req_ready_i");
  b.blank();

  // ---------------------------------------------------------------- write back
  b.comment("Write-back, one block per cycle: a DMA response, or else a zero row whose slot is "
            "ready. A request of several blocks holds the write-back (wb_busy_q) until its "
            "last block is written; only then is the DMA response taken.");
  b.logic("zero_pending", Type::bit());
  b.logic("zero_slot", Type::bits("SlotBits"));
  b.comb()
      .line("zero_pending = 1'b0;")
      .line("zero_slot = '0;")
      .forLoop("i", "ReqSlots", [](vlog::Stmts& s) {
        s.ifElse("req_valid_q[ReqSlots-1-i] && req_zero_q[ReqSlots-1-i]", [](vlog::Stmts& t) {
          t.line("zero_pending = 1'b1;").line("zero_slot = SlotBits'(ReqSlots-1-i);");
        });
      });
  b.logic("wb_busy_q", Type::bit(), "blocks of the held request are still to be written");
  b.logic("wb_dma_q", Type::bit(), "the held request came from the DMA");
  b.logic("wb_slot_q", Type::bits("SlotBits"));
  b.logic("wb_blk_q", Type::bits(8), "block of the held request written next");
  b.logic("wb_row_q", Type::bits(p.localRowBits), "its local row");
  b.logic("wb_valid", Type::bit());
  b.logic("wb_slot", Type::bits("SlotBits"));
  b.logic("wb_from_dma", Type::bit());
  b.logic("wb_blk", Type::bits(8));
  b.logic("wb_last_blk", Type::bit(), "the request's last block");
  b.logic("wb_sp_block", Type::bits(spRow), "the block's elements (scratchpad or shrink)");
  b.logic("wb_acc_block", Type::bits(accRow), "the block's elements as acc_t");
  b.logic("wb_acc", Type::bit());
  b.logic("wb_shrink", Type::bit());
  b.logic("wb_cols", Type::bits(16), "elements of this block");
  b.logic("wb_row", Type::bits(p.localRowBits));
  b.logic("wb_mask", Type::bits(p.spElems), "elements written (accumulator: the low DIM)");
  b.logic("wb_width", Type::bits(16), "elements per block: a local row");
  b.logic("wb_fire", Type::bit(), "the memory took the block");
  b.logic("sp_row_data", Type::bits(spRow));
  b.logic("acc_row_data", Type::bits(accRow));
  b.assign("wb_from_dma", "wb_busy_q ? wb_dma_q : dma_resp_valid_i");
  b.assign("wb_valid", "wb_busy_q || dma_resp_valid_i || zero_pending");
  b.assign("wb_slot",
           "wb_busy_q ? wb_slot_q : dma_resp_valid_i ? SlotBits'(dma_resp_tag_i) : zero_slot");
  b.assign("wb_blk", "wb_busy_q ? wb_blk_q : '0");
  b.assign("wb_last_blk", "wb_blk == req_blocks_q[wb_slot] - 8'd1");
  b.assign("wb_row", "wb_busy_q ? wb_row_q : req_row_q[wb_slot]");
  b.assign("wb_width", "wb_acc ? 16'(Dim) : 16'(SpElems)");
  b.assign("wb_sp_block",
           "!wb_from_dma ? '0 : " + num(spRow) +
               "'(dma_resp_data_i >> (32'(wb_blk) * 32'(wb_width) * 32'(ElemWidth)))");
  b.assign("wb_acc_block", "!wb_from_dma ? '0 : " + num(accRow) +
                               "'(dma_resp_data_i >> (32'(wb_blk) * 32'(Dim*AccWidth)))");
  b.assign("wb_acc", "req_acc_q[wb_slot]");
  b.assign("wb_shrink", "req_shrink_q[wb_slot]");
  b.assign("wb_cols", "wb_last_blk ? req_cols_q[wb_slot] - 16'(wb_blk) * wb_width : wb_width");
  b.comb().forLoop("e", "SpElems",
                   [&](vlog::Stmts& s) { s.line("wb_mask[e] = 16'(e) < wb_cols;"); });
  b.assign("sp_row_data", "wb_sp_block");
  b.comb().forLoop("e", "Dim", [&](vlog::Stmts& s) {
    s.line("acc_row_data[e*AccWidth +: AccWidth] = wb_shrink ?");
    s.line("    AccWidth'($signed(wb_sp_block[e*ElemWidth +: ElemWidth])) :");
    s.line("    wb_acc_block[e*AccWidth +: AccWidth];");
  });
  b.assign("sp_valid_o", "wb_valid && !wb_acc");
  b.assign("sp_row_o", num(p.spRowBits) + "'(wb_row)");
  b.assign("sp_data_o", "sp_row_data");
  b.assign("sp_mask_o", "wb_mask");
  b.assign("acc_valid_o", "wb_valid && wb_acc");
  b.assign("acc_row_o", num(p.accRowBits) + "'(wb_row)");
  b.assign("acc_data_o", "acc_row_data");
  b.assign("acc_mask_o", "wb_mask[Dim-1:0]");
  b.assign("acc_accumulate_o", "req_accumulate_q[wb_slot]");
  b.assign("wb_fire", "wb_valid && (wb_acc ? acc_ready_i : sp_ready_i)");
  b.assign("dma_resp_ready_o", "wb_from_dma && wb_last_blk && (wb_acc ? acc_ready_i : sp_ready_i)");
  b.comment("A scratchpad row is written when granted; an accumulator row when acc_done_i "
            "pulses (in grant order, so a FIFO of {operation entry, last block} matches them "
            "up). A request is done with its last block.");
  b.logic("acc_pend_valid", Type::bit());
  b.logic("acc_pend", Type::bits(3), "{last block, operation entry}");
  b.logic("acc_pend_op", Type::bits(2));
  b.assign("acc_pend_op", "acc_pend[1:0]");
  b.logic("acc_pend_ready", Type::bit());
  {
    auto& f = b.instance(names::kFifo, "u_acc_pending");
    f.params = {{"Width", "3"}, {"Depth", "4"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "wb_fire && wb_acc"},
               {"in_ready_o", "acc_pend_ready"},
               {"in_data_i", "{wb_last_blk, req_op_q[wb_slot]}"},
               {"out_valid_o", "acc_pend_valid"},
               {"out_ready_i", "acc_done_i"},
               {"out_data_o", "acc_pend"}};
  }
  b.logic("sp_done", Type::bit(), "a request's last scratchpad block is written");
  b.logic("acc_done", Type::bit(), "a request's last accumulator block is written");
  b.assign("sp_done", "wb_fire && !wb_acc && wb_last_blk");
  b.assign("acc_done", "acc_done_i && acc_pend[2]");
  b.logic("row_done", Type::bit(), "a request of an operation is now in memory");
  b.logic("row_done_op", Type::bits(2));
  b.assign("row_done", "sp_done || acc_done");
  b.logic("sp_done_twice", Type::bit(), "a scratchpad request and an accumulator one at once");
  b.assign("sp_done_twice", "sp_done && acc_done");
  b.assign("row_done_op", "acc_done ? acc_pend_op : req_op_q[wb_slot]");
  b.blank();

  // ---------------------------------------------------------------- accept, complete
  b.logic("free_op", Type::bits(2));
  b.logic("any_free_op", Type::bit());
  b.comb()
      .line("free_op = '0;")
      .line("any_free_op = 1'b0;")
      .forLoop("i", "OpSlots", [](vlog::Stmts& s) {
        s.ifElse("!opt_valid_q[OpSlots-1-i]", [](vlog::Stmts& t) {
          t.line("free_op = 2'(OpSlots-1-i);").line("any_free_op = 1'b1;");
        });
      });
  b.logic("accept", Type::bit());
  b.assign("op_ready_o", "!cur_valid_q && any_free_op");
  b.assign("accept", "op_valid_i && op_ready_o");
  b.logic("fin_valid", Type::bit(), "an operation has finished");
  b.logic("fin_op", Type::bits(2));
  b.comb()
      .line("fin_valid = 1'b0;")
      .line("fin_op = '0;")
      .forLoop("i", "OpSlots", [](vlog::Stmts& s) {
        s.ifElse("opt_valid_q[i] && opt_issued_q[i] && opt_pending_q[i] == '0",
                 [](vlog::Stmts& t) { t.line("fin_valid = 1'b1;").line("fin_op = 2'(i);"); });
      });
  b.assign("done_valid_o", "fin_valid");
  b.assign("done_id_o", "opt_id_q[fin_op]");
  b.assign("err_valid_o", "fin_valid && opt_error_q[fin_op]");
  b.assign("err_ch_o", "opt_ch_q[fin_op]");
  b.assign("busy_o", "cur_valid_q || opt_valid_q != '0");
  b.blank();

  // ---------------------------------------------------------------- state
  vlog::SeqItem& q = b.sequential();
  q.reset.line("cur_valid_q <= 1'b0;")
      .line("cur_q <= '0;")
      .line("cur_op_q <= '0;")
      .line("row_q <= '0;")
      .line("row_addr_q <= '0;")
      .line("wb_busy_q <= 1'b0;")
      .line("wb_dma_q <= 1'b0;")
      .line("wb_slot_q <= '0;")
      .line("wb_blk_q <= '0;")
      .line("wb_row_q <= '0;")
      .line("opt_valid_q <= '0;")
      .line("opt_issued_q <= '0;")
      .line("opt_error_q <= '0;")
      .line("req_valid_q <= '0;")
      .forLoop("i", "OpSlots", [](vlog::Stmts& s) { s.line("opt_pending_q[i] <= '0;"); });
  q.clocked.comment("Accept an operation into a free operation-table entry.")
      .ifElse("accept",
              [&](vlog::Stmts& s) {
                s.line("cur_valid_q <= 1'b1;")
                    .line("cur_q <= op_payload_i[" + num(ld.width() - 1) + ":0];")
                    .line("cur_op_q <= free_op;")
                    .line("row_q <= '0;")
                    .line("row_addr_q <= " + ld.slice("op_payload_i", "dram") + ";")
                    .line("opt_valid_q[free_op] <= 1'b1;")
                    .line("opt_id_q[free_op] <= op_id_i;")
                    .line("opt_ch_q[free_op] <= " + ld.slice("op_payload_i", "channel") + ";")
                    .line("opt_issued_q[free_op] <= 1'b0;")
                    .line("opt_error_q[free_op] <= 1'b0;");
              })
      .comment("Issue a request: the next row.")
      .ifElse(
          "issue",
          [&](vlog::Stmts& s) {
            s.line("req_valid_q[free_slot] <= 1'b1;");
            s.ifElse(
                "last_req",
                [](vlog::Stmts& t) {
                  t.line("cur_valid_q <= 1'b0;").line("opt_issued_q[cur_op_q] <= 1'b1;");
                },
                [&](vlog::Stmts& t) {
                  t.line("row_q <= row_q + 16'd1;").line("row_addr_q <= row_addr_q + cur_stride;");
                });
          })
      .comment("Write-back of a request of several blocks: hold it until its last block.")
      .ifElse("wb_fire",
              [&](vlog::Stmts& s) {
                s.line("wb_busy_q <= !wb_last_blk;")
                    .line("wb_dma_q <= wb_from_dma;")
                    .line("wb_slot_q <= wb_slot;")
                    .line("wb_blk_q <= wb_blk + 8'd1;")
                    .line("wb_row_q <= wb_row + " + num(p.localRowBits) +
                          "'(req_bstride_q[wb_slot]);");
              })
      .comment("Requests in flight per operation: +1 on issue, -1 when written.")
      .forLoop("i", "OpSlots",
               [&](vlog::Stmts& s) {
                 s.line("opt_pending_q[i] <= opt_pending_q[i] + 17'(issue && cur_op_q == 2'(i))");
                 s.line("    - 17'(row_done && row_done_op == 2'(i))");
                 s.line("    - 17'(sp_done_twice && req_op_q[wb_slot] == 2'(i));");
               })
      .ifElse("wb_fire && wb_last_blk",
              [](vlog::Stmts& s) { s.line("req_valid_q[wb_slot] <= 1'b0;"); })
      .ifElse("wb_fire && wb_from_dma && dma_resp_error_i",
              [](vlog::Stmts& s) { s.line("opt_error_q[req_op_q[wb_slot]] <= 1'b1;"); })
      .ifElse("fin_valid", [](vlog::Stmts& s) { s.line("opt_valid_q[fin_op] <= 1'b0;"); });
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("issue", [&](vlog::Stmts& s) {
    s.line("req_row_q[free_slot] <= req_row;")
        .line("req_cols_q[free_slot] <= cur_cols;")
        .line("req_blocks_q[free_slot] <= cur_blocks;")
        .line("req_bstride_q[free_slot] <= cur_block_stride;")
        .line("req_op_q[free_slot] <= cur_op_q;")
        .line("req_acc_q[free_slot] <= cur_acc;")
        .line("req_accumulate_q[free_slot] <= cur_accumulate;")
        .line("req_shrink_q[free_slot] <= cur_shrink;")
        .line("req_zero_q[free_slot] <= cur_zero;");
  });
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits",
           std::string("^{cur_dram, cur_channel, acc_pend_ready, acc_pend_valid, op_payload_i, "
                       "dma_resp_tag_i") +
               (ld.has("compressed") ? ", cur_compressed, cur_ptr_inval" : "") +
               (ld.has("onchip") ? ", cur_onchip}" : "}"));
  return m;
}

} // namespace by::hw
