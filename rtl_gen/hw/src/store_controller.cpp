// The store controller: executes MVOUT operations. A sequencer walks the rows (mode 0), the
// pooling windows (mode 1) or the image pixels (mode 2) of the current operation and reads
// the local rows one by one (padding pixels of a pooling window read nothing and count as
// zero). Read data is transformed on return (accumulator rows: scale, saturate, ReLU through
// DIM by_acc_scale units, or raw acc_t values for full-width reads), max-reduced over a
// pooling window, packed into bytes and queued as a DMA write. Writes of several operations
// are in flight; an operation completes when all of its writes are acknowledged.
#include "store_controller.h"

#include "op_layouts.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

vlog::Module StoreControllerGenerator::build() const {
  const AccelParams& p = p_;
  const PackedLayout st = storeOpLayout(p);
  const int payload = opPayloadWidth(p);
  const int lenBits = config::log2Exact(p.maxBytes) + 1;
  const int dataBits = p.maxBytes * 8;
  const int opSlots = 4;
  const int fifoDepth = 4;
  const int spRow = p.spElems * p.iw, accRow = p.dim * p.aw;
  // A queued DMA write: {op entry, len, addr, data}.
  const int qWidth = 2 + lenBits + 32 + dataBits;
  // Boveda: compressed MVOUTs take a path of their own after the ret stage (boveda_store.cpp).
  const bool boveda = p.config.boveda.enabled;
  const std::string room = boveda ? "slot_room" : "(!win_last || credits_q != '0)";

  vlog::Module m(names::kStoreController,
                 "Store controller: MVOUT operations (rows, max-pooling, strided 1-D) from the "
                 "scratchpad or the accumulator to DMA writes.");
  m.clockAndReset();
  m.portGroup("Operations from the reservation station.");
  m.input("op_valid_i", Type::bit());
  m.output("op_ready_o", Type::bit());
  m.input("op_id_i", Type::bits(p.rsIdBits));
  m.input("op_payload_i", Type::bits(payload));
  m.output("done_valid_o", Type::bit());
  m.output("done_id_o", Type::bits(p.rsIdBits));
  m.portGroup("Scratchpad and accumulator read clients.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits(p.spRowBits));
  m.input("sp_rvalid_i", Type::bit());
  m.input("sp_rdata_i", Type::bits(spRow));
  m.output("acc_valid_o", Type::bit());
  m.input("acc_ready_i", Type::bit());
  m.output("acc_row_o", Type::bits(p.accRowBits));
  m.input("acc_rvalid_i", Type::bit());
  m.input("acc_rdata_i", Type::bits(accRow));
  m.portGroup("DMA writes.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits(32));
  m.output("dma_req_len_o", Type::bits(lenBits));
  m.output("dma_req_data_o", Type::bits(dataBits));
  m.output("dma_req_tag_o", Type::bits(p.dmaTagBits));
  m.input("dma_done_valid_i", Type::bit());
  m.output("dma_done_ready_o", Type::bit());
  m.input("dma_done_tag_i", Type::bits(p.dmaTagBits));
  m.input("dma_done_error_i", Type::bit());
  m.portGroup("Status and errors.");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit());
  m.output("pooling_o", Type::bit(), "busy with a max-pooling operation");
  m.output("err_valid_o", Type::bit(), "an operation saw an AXI error");
  if (boveda)
    m.output("stream_bytes_o", Type::bits(lenBits), "compressed bytes queued this cycle");

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("SpElems", num(p.spElems), "elem_t per scratchpad row: DIM * lanes");
  b.localParam("ElemWidth", num(p.iw));
  b.localParam("AccWidth", num(p.aw));
  b.localParam("OpSlots", num(opSlots));
  b.localParam("FifoDepth", num(fifoDepth));
  b.blank();

  // ---------------------------------------------------------------- current operation
  b.comment("The operation being sequenced.");
  b.logic("cur_valid_q", Type::bit());
  b.logic("cur_q", Type::bits(st.width()));
  b.logic("cur_op_q", Type::bits(2));
  st.unpack(b, "cur_q", "cur_");
  b.comment("Mode 0 walks rows (r) and blocks (blk); modes 1 and 2 walk pixels (py, px) and, "
            "when pooling, the window (wy, wx).");
  b.logic("r_q", Type::bits(16));
  b.logic("blk_q", Type::bits(8));
  b.logic("py_q", Type::bits(8));
  b.logic("px_q", Type::bits(8));
  b.logic("wy_q", Type::bits(2));
  b.logic("wx_q", Type::bits(2));
  b.logic("pooling", Type::bit());
  b.logic("win_last", Type::bit(), "last element of the pooling window (always, unpooled)");
  b.logic("win_first", Type::bit());
  b.logic("last_slot", Type::bit(), "the operation's last read slot");
  b.logic("y", Type::sbits(11), "image row of the pixel read (pooling: can be padding)");
  b.logic("x", Type::sbits(11));
  b.logic("in_image", Type::bit());
  b.logic("pixel_row", Type::bits(p.localRowBits + 1), "local row of the pixel");
  b.logic("read_row", Type::bits(p.localRowBits + 1), "local row read by this slot");
  b.logic("out_addr", Type::bits(32), "DRAM address written by this slot's row");
  b.logic("out_elems", Type::bits(16), "elements written by this slot's row");
  b.logic("out_bytes", Type::bits(3));
  b.logic("blk_width", Type::bits(16), "elements per column block: a local row");
  b.logic("pixel_index", Type::bits(17), "DRAM pixel index (modes 1 and 2)");
  b.assign("pooling", "cur_mode == 2'd1");
  b.assign("win_last",
           "!pooling || (wy_q == cur_pool_size - 2'd1 && wx_q == cur_pool_size - 2'd1)");
  b.assign("win_first", "!pooling || (wy_q == '0 && wx_q == '0)");
  b.assign("y", "pooling ? 11'(py_q) * 11'(cur_pool_stride) + 11'(wy_q) - 11'(cur_upad) : "
                "11'(py_q)");
  b.assign("x", "pooling ? 11'(px_q) * 11'(cur_pool_stride) + 11'(wx_q) - 11'(cur_lpad) : "
                "11'(px_q)");
  b.assign("in_image", "!pooling || (y >= 11'sd0 && x >= 11'sd0 && y < $signed(11'(cur_orows)) "
                       "&&\n      x < $signed(11'(cur_ocols)))");
  b.assign("pixel_row", num(p.localRowBits + 1) + "'(cur_row) + " + num(p.localRowBits + 1) +
                            "'(y[7:0]) * " + num(p.localRowBits + 1) + "'(cur_ocols) + " +
                            num(p.localRowBits + 1) + "'(x[7:0])");
  b.assign("read_row", "cur_mode == 2'd0 ? " + num(p.localRowBits + 1) + "'(cur_row) + " +
                           num(p.localRowBits + 1) + "'(blk_q) * " + num(p.localRowBits + 1) +
                           "'(Dim) + " + num(p.localRowBits + 1) + "'(r_q) :\n      pixel_row");
  b.logic("pix_row", Type::bits(8), "DRAM pixel row: pooled row or image row");
  b.logic("pix_col", Type::bits(8));
  b.assign("pix_row", "pooling ? py_q : y[7:0]");
  b.assign("pix_col", "pooling ? px_q : x[7:0]");
  b.assign("pixel_index", "17'(pix_row) * 17'(cur_pool_out_dim) + 17'(pix_col)");
  b.assign("out_bytes", "(cur_acc && cur_full) ? 3'd" + num(p.aw / 8) + " : 3'd" + num(p.iw / 8));
  b.assign("blk_width", "cur_acc ? 16'(Dim) : 16'(SpElems)");
  b.assign("out_elems", "cur_mode != 2'd0 ? cur_cols :\n"
                        "      (blk_q == cur_blocks - 8'd1 ? cur_cols - 16'(blk_q) * blk_width : "
                        "blk_width)");
  b.assign("out_addr", "cur_mode == 2'd0 ?\n"
                       "      cur_dram + 32'(r_q) * cur_stride + 32'(blk_q) * 32'(blk_width) * "
                       "32'(out_bytes) :\n"
                       "      cur_dram + 32'(pixel_index) * cur_stride");
  b.assign("last_slot", "cur_mode == 2'd0 ? (r_q == cur_rows - 16'd1 && blk_q == cur_blocks - "
                        "8'd1) :\n"
                        "      (py_q == (pooling ? cur_porows : cur_orows) - 8'd1 &&\n"
                        "       px_q == (pooling ? cur_pocols : cur_ocols) - 8'd1 && win_last)");
  b.blank();

  // ---------------------------------------------------------------- issue a slot
  b.comment("A slot reads one row (or, for a padding pixel, nothing) and travels one cycle to "
            "the return stage. Slots that end a window need a place in the write queue.");
  b.logic("credits_q", Type::bits(3), "write-queue places not yet promised");
  b.logic("needs_read", Type::bit());
  b.logic("read_granted", Type::bit());
  b.logic("slot_go", Type::bit(), "a slot leaves the sequencer this cycle");
  b.assign("needs_read", "cur_valid_q && in_image");
  if (boveda) {
    b.comment("A compressed row piece needs a place in the piece FIFO instead.");
    b.logic("credits_c_q", Type::bits(2), "piece-FIFO places not yet promised");
    b.logic("slot_room", Type::bit());
    b.assign("slot_room", "cur_compressed ? credits_c_q != '0 : (!win_last || credits_q != '0)");
  }
  b.assign("sp_valid_o", "needs_read && !cur_acc && " + room);
  b.assign("acc_valid_o", "needs_read && cur_acc && " + room);
  b.assign("sp_row_o", num(p.spRowBits) + "'(read_row)");
  b.assign("acc_row_o", num(p.accRowBits) + "'(read_row)");
  b.assign("read_granted", "(sp_valid_o && sp_ready_i) || (acc_valid_o && acc_ready_i)");
  b.assign("slot_go", "cur_valid_q && " + room + " && (in_image ? read_granted : 1'b1)");
  b.blank();

  // ---------------------------------------------------------------- return stage
  b.comment("Return stage: the slot issued last cycle, its row data, transformed.");
  b.logic("ret_valid_q", Type::bit());
  b.logic("ret_zero_q", Type::bit(), "padding pixel");
  b.logic("ret_acc_q", Type::bit());
  b.logic("ret_full_q", Type::bit());
  b.logic("ret_relu_q", Type::bit());
  b.logic("ret_scale_q", Type::bits(32));
  b.logic("ret_first_q", Type::bit());
  b.logic("ret_last_q", Type::bit());
  b.logic("ret_addr_q", Type::bits(32));
  b.logic("ret_len_q", Type::bits(lenBits));
  b.logic("ret_op_q", Type::bits(2));
  if (boveda) {
    b.logic("ret_comp_q", Type::bit(), "a piece of a compressed MVOUT");
    b.logic("ret_count_q", Type::bits(config::log2Exact(p.dim) + 1), "values of the piece");
  }
  b.logic("scaled", Type::bits(accRow), "by_acc_scale outputs");
  b.logic("pooled", Type::bits(spRow), "max over the window so far");
  b.logic("pool_q", Type::bits(p.dim * p.iw), "pooling runs on accumulator rows (DIM)");
  b.logic("ret_data", Type::bits(dataBits), "the bytes to write");
  vlog::Body& lane = b.genFor("e", "Dim", "gen_lane");
  {
    auto& inst = lane.instance(names::kAccScale, "u_scale");
    inst.params = {{"AccWidth", "AccWidth"}};
    inst.conns = {{"acc_i", "acc_rdata_i[e*AccWidth +: AccWidth]"},
                  {"scale_i", "ret_scale_q"},
                  {"result_o", "scaled[e*AccWidth +: AccWidth]"}};
    lane.logic("value", Type::sbits("AccWidth"), "scaled accumulator value");
    lane.logic("sat", Type::sbits("ElemWidth"), "saturated to elem_t");
    lane.logic("elem", Type::sbits("ElemWidth"), "after the activation");
    lane.logic("prev", Type::sbits("ElemWidth"));
    lane.assign("value", "scaled[e*AccWidth +: AccWidth]");
    lane.assign("sat", "value > AccWidth'($signed({1'b0, {(ElemWidth-1){1'b1}}})) ?\n"
                       "        {1'b0, {(ElemWidth-1){1'b1}}} :\n"
                       "        value < AccWidth'($signed({1'b1, {(ElemWidth-1){1'b0}}})) ?\n"
                       "        {1'b1, {(ElemWidth-1){1'b0}}} : value[ElemWidth-1:0]");
    lane.assign("elem", "ret_zero_q ? '0 : !ret_acc_q ? sp_rdata_i[e*ElemWidth +: ElemWidth] :\n"
                        "        (ret_relu_q && sat < 0) ? '0 : sat");
    lane.assign("prev", "pool_q[e*ElemWidth +: ElemWidth]");
    lane.assign("pooled[e*ElemWidth +: ElemWidth]", "(ret_first_q || elem > prev) ? elem : prev");
  }
  if (p.spElems > p.dim) {
    b.comment("Scratchpad elements beyond DIM (vector PEs): only plain moves read them.");
    b.assign("pooled[SpElems*ElemWidth-1:Dim*ElemWidth]",
             "sp_rdata_i[SpElems*ElemWidth-1:Dim*ElemWidth]");
  }
  b.assign("ret_data", "(ret_acc_q && ret_full_q) ? " + num(dataBits) +
                           "'(acc_rdata_i) : " + num(dataBits) + "'(pooled)");
  b.blank();

  // ---------------------------------------------------------------- write queue
  b.logic("q_push", Type::bit());
  b.logic("q_ready", Type::bit());
  b.logic("q_valid", Type::bit());
  b.logic("q_data", Type::bits(qWidth));
  if (boveda)
    b.logic("q_pop_ready", Type::bit(), "the compressed write queue goes first");
  b.assign("q_push",
           boveda ? "ret_valid_q && ret_last_q && !ret_comp_q" : "ret_valid_q && ret_last_q");
  {
    auto& f = b.instance(names::kFifo, "u_write_queue");
    f.params = {{"Width", num(qWidth)}, {"Depth", "FifoDepth"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "q_push"},
               {"in_ready_o", "q_ready"},
               {"in_data_i", "{ret_op_q, ret_len_q, ret_addr_q, ret_data}"},
               {"out_valid_o", "q_valid"},
               {"out_ready_i", boveda ? "q_pop_ready" : "dma_req_ready_i"},
               {"out_data_o", "q_data"}};
  }
  auto dmaRequest = [&](const std::string& dq) {
    b.assign("dma_req_data_o", dq + "[" + num(dataBits - 1) + ":0]");
    b.assign("dma_req_addr_o", dq + "[" + num(dataBits + 31) + ":" + num(dataBits) + "]");
    b.assign("dma_req_len_o",
             dq + "[" + num(dataBits + 32 + lenBits - 1) + ":" + num(dataBits + 32) + "]");
    b.assign("dma_req_tag_o",
             num(p.dmaTagBits) + "'(" + dq + "[" + num(qWidth - 1) + ":" + num(qWidth - 2) + "])");
  };
  if (!boveda) {
    b.assign("dma_req_valid_o", "q_valid");
    dmaRequest("q_data");
    b.assign("dma_wait_o", "q_valid && !dma_req_ready_i");
  }
  b.assign("dma_done_ready_o", "1'b1");
  b.blank();

  // ---------------------------------------------------------------- operations
  b.comment("Operation table: RS id, writes not yet acknowledged, all slots issued, error.");
  b.logic("opt_valid_q", Type::bits("OpSlots"));
  b.logicArray("opt_id_q", Type::bits(p.rsIdBits), "OpSlots", "", "mem2reg");
  b.logicArray("opt_pending_q", Type::bits(17), "OpSlots", "", "mem2reg");
  b.logic("opt_issued_q", Type::bits("OpSlots"));
  b.logic("opt_error_q", Type::bits("OpSlots"));
  if (boveda)
    b.logic("opt_open_q", Type::bits("OpSlots"), "compressed: its pointer entry is not queued");
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
  b.comment("An operation is done when all its slots were issued, none is still on its way to "
            "the write queue (ret stage) and the DMA acknowledged every write.");
  b.logic("fin_valid", Type::bit());
  b.logic("fin_op", Type::bits(2));
  b.comb()
      .line("fin_valid = 1'b0;")
      .line("fin_op = '0;")
      .forLoop("i", "OpSlots", [&](vlog::Stmts& s) {
        s.ifElse(std::string("opt_valid_q[i] && opt_issued_q[i] && opt_pending_q[i] == '0 &&\n"
                             "    !(ret_valid_q && ret_op_q == 2'(i))") +
                     (boveda ? " && !opt_open_q[i]" : ""),
                 [](vlog::Stmts& t) { t.line("fin_valid = 1'b1;").line("fin_op = 2'(i);"); });
      });
  b.logic("ack_op", Type::bits(2));
  b.assign("ack_op", "dma_done_tag_i[1:0]");
  b.assign("done_valid_o", "fin_valid");
  b.assign("done_id_o", "opt_id_q[fin_op]");
  b.assign("err_valid_o", "fin_valid && opt_error_q[fin_op]");
  b.assign("busy_o", "cur_valid_q || ret_valid_q || opt_valid_q != '0");
  b.assign("pooling_o", "cur_valid_q && pooling");
  b.blank();
  if (boveda) {
    addCompressedStorePath(b, p, bovedaHwParams(p.config));
    b.comment("DMA writes: the compressed write queue first.");
    b.logic("dq", Type::bits(qWidth), "the write going to the DMA");
    b.assign("q_pop_ready", "dma_req_ready_i && !cq_valid");
    b.assign("dq", "cq_valid ? cq_data : q_data");
    b.assign("dma_req_valid_o", "q_valid || cq_valid");
    dmaRequest("dq");
    b.assign("dma_wait_o", "dma_req_valid_o && !dma_req_ready_i");
    b.blank();
  }

  // ---------------------------------------------------------------- state
  vlog::SeqItem& q = b.sequential();
  q.reset.line("cur_valid_q <= 1'b0;")
      .line("cur_q <= '0;")
      .line("cur_op_q <= '0;")
      .line("r_q <= '0;")
      .line("blk_q <= '0;")
      .line("py_q <= '0;")
      .line("px_q <= '0;")
      .line("wy_q <= '0;")
      .line("wx_q <= '0;")
      .line("credits_q <= 3'(FifoDepth);")
      .line("ret_valid_q <= 1'b0;")
      .line("opt_valid_q <= '0;")
      .line("opt_issued_q <= '0;")
      .line("opt_error_q <= '0;")
      .forLoop("i", "OpSlots", [](vlog::Stmts& s) { s.line("opt_pending_q[i] <= '0;"); });
  if (boveda)
    q.reset.line("credits_c_q <= 2'd2;").line("opt_open_q <= '0;");
  q.clocked.ifElse("accept", [&](vlog::Stmts& s) {
    s.line("cur_valid_q <= 1'b1;")
        .line("cur_q <= op_payload_i[" + num(st.width() - 1) + ":0];")
        .line("cur_op_q <= free_op;")
        .line("r_q <= '0;")
        .line("blk_q <= '0;")
        .line("py_q <= '0;")
        .line("px_q <= '0;")
        .line("wy_q <= '0;")
        .line("wx_q <= '0;")
        .line("opt_valid_q[free_op] <= 1'b1;")
        .line("opt_id_q[free_op] <= op_id_i;")
        .line("opt_issued_q[free_op] <= 1'b0;")
        .line("opt_error_q[free_op] <= 1'b0;");
    if (boveda)
      s.line("opt_open_q[free_op] <= " + st.slice("op_payload_i", "compressed") + ";");
  });
  q.clocked.comment("Advance the walk: (r, blk) in mode 0; (py, px, wy, wx) otherwise.");
  q.clocked.ifElse("slot_go", [&](vlog::Stmts& s) {
    s.ifElse(
        "last_slot",
        [](vlog::Stmts& t) {
          t.line("cur_valid_q <= 1'b0;").line("opt_issued_q[cur_op_q] <= 1'b1;");
        },
        [&](vlog::Stmts& t) {
          t.ifElse(
              "cur_mode == 2'd0",
              [](vlog::Stmts& u) {
                u.ifElse(
                    "blk_q == cur_blocks - 8'd1",
                    [](vlog::Stmts& v) { v.line("blk_q <= '0;").line("r_q <= r_q + 16'd1;"); },
                    [](vlog::Stmts& v) { v.line("blk_q <= blk_q + 8'd1;"); });
              },
              [](vlog::Stmts& u) {
                u.ifElse(
                    "!win_last",
                    [](vlog::Stmts& v) {
                      v.ifElse(
                          "wx_q == cur_pool_size - 2'd1",
                          [](vlog::Stmts& w) {
                            w.line("wx_q <= '0;").line("wy_q <= wy_q + 2'd1;");
                          },
                          [](vlog::Stmts& w) { w.line("wx_q <= wx_q + 2'd1;"); });
                    },
                    [](vlog::Stmts& v) {
                      v.line("wx_q <= '0;").line("wy_q <= '0;");
                      v.ifElse(
                          "px_q == (pooling ? cur_pocols : cur_ocols) - 8'd1",
                          [](vlog::Stmts& w) {
                            w.line("px_q <= '0;").line("py_q <= py_q + 8'd1;");
                          },
                          [](vlog::Stmts& w) { w.line("px_q <= px_q + 8'd1;"); });
                    });
              });
        });
  });
  q.clocked.comment("Write-queue credits: taken by a window's last slot, returned when the "
                    "DMA takes the write.");
  q.clocked.line(boveda ? "credits_q <= credits_q - 3'(slot_go && win_last && !cur_compressed) +\n"
                          "             3'(q_valid && q_pop_ready);"
                        : "credits_q <= credits_q - 3'(slot_go && win_last) + 3'(q_valid && "
                          "dma_req_ready_i);");
  if (boveda) {
    q.clocked.comment("Piece credits: taken by a compressed slot, returned when the piece FIFO "
                      "pops.");
    q.clocked.line("credits_c_q <= credits_c_q - 2'(slot_go && cur_compressed) +\n"
                   "               2'(piece_valid && piece_ready);");
    q.clocked.ifElse("cq_push && pk_ptr_q",
                     [](vlog::Stmts& s) { s.line("opt_open_q[info_op] <= 1'b0;"); });
  }
  q.clocked.line("ret_valid_q <= slot_go;");
  q.clocked.forLoop("i", "OpSlots", [&](vlog::Stmts& s) {
    s.line("opt_pending_q[i] <= opt_pending_q[i] + 17'(q_push && ret_op_q == 2'(i))");
    if (boveda)
      s.line("    + 17'(cq_push && info_op == 2'(i))");
    s.line("    - 17'(dma_done_valid_i && ack_op == 2'(i));");
  });
  q.clocked.ifElse("dma_done_valid_i && dma_done_error_i",
                   [](vlog::Stmts& s) { s.line("opt_error_q[ack_op] <= 1'b1;"); });
  q.clocked.ifElse("fin_valid", [](vlog::Stmts& s) { s.line("opt_valid_q[fin_op] <= 1'b0;"); });
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("slot_go", [&](vlog::Stmts& s) {
    s.line("ret_zero_q <= !in_image;")
        .line("ret_acc_q <= cur_acc;")
        .line("ret_full_q <= cur_full;")
        .line("ret_relu_q <= cur_relu;")
        .line("ret_scale_q <= cur_scale;")
        .line("ret_first_q <= win_first;")
        .line("ret_last_q <= win_last;")
        .line("ret_addr_q <= out_addr;")
        .line("ret_len_q <= " + num(lenBits) + "'(out_elems) * " + num(lenBits) + "'(out_bytes);")

        .line("ret_op_q <= cur_op_q;");
    if (boveda)
      s.line("ret_comp_q <= cur_compressed;")
          .line("ret_count_q <= " + num(config::log2Exact(p.dim) + 1) + "'(out_elems);");
  });
  d.clocked.ifElse("ret_valid_q",
                   [](vlog::Stmts& s) { s.line("pool_q <= pooled[Dim*ElemWidth-1:0];"); });
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits", std::string("^{sp_rvalid_i, acc_rvalid_i, q_ready, op_payload_i, "
                                      "dma_done_tag_i, y, x, pixel_row, read_row, out_elems") +
                              (boveda ? ", cur_epoch}" : "}"));
  return m;
}

} // namespace by::hw
