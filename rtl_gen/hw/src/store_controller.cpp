// The store controller: executes MVOUT operations. A sequencer walks the rows (StoreRows), the
// pooling windows (StorePool) or the image pixels (StoreStrided) of the current operation and
// reads the local rows one by one (padding pixels of a pooling window read nothing and count
// as zero). Read data is transformed on return (accumulator rows: scale, saturate, ReLU through
// DIM by_acc_scale units, or raw acc_t values for full-width reads), max-reduced over a pooling
// window, packed into bytes and queued as a DMA write. The column blocks of a StoreRows row are
// gathered into one write of the whole DRAM row (at most max_bytes, as the column limits
// guarantee): the DMA's cost is per request (max_inflight over the latency), so a 64-byte row
// written as eight 8-byte blocks would take eight times as long. Writes of several operations are
// in flight; an operation completes (op_table.h) when all of its writes are acknowledged.
#include "store_controller.h"

#include "dma_common.h"
#include "encodings.h"
#include "op_layouts.h"
#include "op_table.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

StoreControllerGenerator::StoreControllerGenerator(const AccelParams& p)
    : p_(p), st_(storeOpLayout(p)), boveda_(p.config.boveda.enabled),
      table_(p.config.activations.table) {}

vlog::Module StoreControllerGenerator::build() const {
  vlog::Module m(names::kStoreController,
                 "Store controller: MVOUT operations (rows, max-pooling, strided 1-D) from the "
                 "scratchpad or the accumulator to DMA writes. Operation {" +
                     st_.describe() + "}.");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  StateRegs regs(b);
  walk(b, regs);
  slotIssue(b, regs);
  returnStage(b);
  writeQueue(b);
  optable::registers(regs, "IdBits", "PendBits");
  regs.add("opt_error", Type::bits("OpSlots"), "'0", "a DMA write reported an error");
  if (boveda_)
    regs.add("opt_open", Type::bits("OpSlots"), "'0",
             "compressed: its pointer entry is not queued");
  operations(b);
  if (boveda_) {
    addCompressedStorePath(b, p_, bovedaHwParams(p_.config));
    b.comment("DMA writes: the compressed write queue first.");
    b.logic("dq", Type::bits("QueueWidth"), "the write going to the DMA");
    b.assign("q_pop_ready", "dma_req_ready_i && !cq_valid");
    b.assign("dq", "cq_valid ? cq_data : q_data");
    b.assign("dma_req_valid_o", "q_valid || cq_valid");
    dmaRequest(b, "dq");
    b.assign("dma_wait_o", "dma_req_valid_o && !dma_req_ready_i");
    b.blank();
  }
  b.comment("Next state.");
  nextState(regs.next());
  returnRegisters(b);
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign(
      "unused_bits",
      std::string(
          "^{sp_rvalid_i, acc_rvalid_i, q_ready, op_payload_i, "
          "dma_done_tag_i, y, x, pixel_row, read_row, out_elems, write_elems, cur_block_stride") +
          (boveda_ ? ", cur_epoch}" : "}"));
  return m;
}

void StoreControllerGenerator::ports(vlog::Module& m) const {
  const AccelParams& p = p_;
  optable::params(m, p);
  dma::clientParams(m, p, "DMA write data: max_bytes bytes");
  m.clockAndReset();
  optable::ports(m);
  m.portGroup("Scratchpad and accumulator read clients.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits("SpRowBits"));
  m.input("sp_rvalid_i", Type::bit());
  m.input("sp_rdata_i", Type::bits("SpElems*ElemWidth"));
  m.output("acc_valid_o", Type::bit());
  m.input("acc_ready_i", Type::bit());
  m.output("acc_row_o", Type::bits("AccRowBits"));
  m.input("acc_rvalid_i", Type::bit());
  m.input("acc_rdata_i", Type::bits("Dim*AccWidth"));
  m.portGroup("DMA writes.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits("AddrBits"));
  m.output("dma_req_len_o", Type::bits("LenBits"));
  m.output("dma_req_data_o", Type::bits("DmaDataWidth"));
  m.output("dma_req_tag_o", Type::bits("TagBits"));
  m.input("dma_done_valid_i", Type::bit());
  m.output("dma_done_ready_o", Type::bit());
  m.input("dma_done_tag_i", Type::bits("TagBits"));
  m.input("dma_done_error_i", Type::bit());
  if (table_) {
    m.portGroup("The function table (mvout_table.cpp).");
    m.input("table_i", Type::bits("256*8"), "entry v in bits 8v+7:8v");
    m.input("table_en_i", Type::bit(), "accumulator MVOUTs apply the table");
  }
  m.portGroup("Status and errors.");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit());
  m.output("pooling_o", Type::bit(), "busy with a max-pooling operation");
  m.output("err_valid_o", Type::bit(), "an operation saw an AXI error");
  if (boveda_)
    m.output("stream_bytes_o", Type::bits("LenBits"), "compressed bytes queued this cycle");
}

void StoreControllerGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
  optable::localParams(b);
  b.localParam("StWidth", num(st_.width()), "the MVOUT operation word");
  b.localParam("RowBits", num(p.localRowBits), "a local row of either memory");
  b.localParam("ReadRowBits", "RowBits+1", "a local row read (may run past the memory)");
  b.localParam("CountBits", num(st_.at("rows").width), "rows, columns, elements");
  b.localParam("BlockBits", num(st_.at("blocks").width), "column blocks of a row");
  b.localParam("PixBits", num(st_.at("porows").width), "pixel rows and columns");
  b.localParam("WinBits", num(st_.at("pool_size").width), "pooling window rows and columns");
  b.localParam("CoordBits", "PixBits+3", "a signed image coordinate (pooling: with padding)");
  b.localParam("PixelBits", "2*PixBits+1", "a DRAM pixel index");
  b.localParam("ScaleBits", num(st_.at("scale").width));
  b.localParam("PendBits", "CountBits+1", "writes of an operation in flight");
  b.localParam("ElemBytes", num(p.iw / 8));
  b.localParam("AccBytes", num(p.aw / 8));
  b.localParam("BytesBits", "$clog2(AccBytes+1)", "holds ElemBytes or AccBytes");
  b.localParam("FifoDepth", "4", "write queue");
  b.localParam("ShiftBits", "$clog2(DmaDataWidth)+1", "a block's bit offset in its row's write");
  b.localParam("CreditBits", "$clog2(FifoDepth+1)");
  b.localParam("QueueWidth", "OpBits+LenBits+AddrBits+DmaDataWidth",
               "a queued DMA write: {op entry, len, addr, data}");
  b.localParam("SpRowWidth", "SpElems*ElemWidth");
  b.localParam("AccRowWidth", "Dim*AccWidth");
  if (boveda_) {
    b.localParam("PieceCredits", "2", "compressed row pieces on their way (the piece FIFO)");
    b.localParam("PieceCreditBits", "$clog2(PieceCredits+1)");
    b.localParam("PieceCountBits", "$clog2(SpElems)+1",
                 "values of a row piece: 1..DIM (accumulator), 1..DIM*lanes (scratchpad)");
  }
  declareEnum(b, storeModeEncoding());
  b.blank();
}

// The sequencer's walk of the current operation: StoreRows walks rows (r) and blocks (blk);
// the pixel modes walk pixels (py, px) and, when pooling, the window (wy, wx). Drives the
// slot's address and extent (read_row, out_addr, out_elems, out_bytes), its window position
// (win_first, win_last) and last_slot; reads cur_* and the walk registers.
void StoreControllerGenerator::walk(vlog::Body& b, StateRegs& regs) const {
  b.comment("The operation being sequenced.");
  regs.add("cur_valid", Type::bit(), "1'b0")
      .add("cur", Type::bits("StWidth"), "'0")
      .add("cur_op", Type::bits("OpBits"), "'0", "its operation-table entry");
  st_.unpack(b, "cur_q", "cur_");
  b.logic("in_op", Type::bits("StWidth"), "the operation entering");
  b.assign("in_op", "op_payload_i[StWidth-1:0]");
  if (boveda_)
    st_.unpack(b, "in_op", "in_", {"compressed"});
  b.comment("StoreRows walks rows (r) and blocks (blk); the pixel modes walk pixels (py, px) "
            "and, when pooling, the window (wy, wx).");
  regs.add("r", Type::bits("CountBits"), "'0")
      .add("blk", Type::bits("BlockBits"), "'0")
      .add("py", Type::bits("PixBits"), "'0")
      .add("px", Type::bits("PixBits"), "'0")
      .add("wy", Type::bits("WinBits"), "'0")
      .add("wx", Type::bits("WinBits"), "'0");
  b.logic("rows_mode", Type::bit(), "cur_mode is StoreRows");
  b.logic("pooling", Type::bit(), "cur_mode is StorePool");
  b.logic("win_last", Type::bit(), "last element of the pooling window (always, unpooled)");
  b.logic("win_first", Type::bit());
  b.logic("last_slot", Type::bit(), "the operation's last read slot");
  b.logic("write_last", Type::bit(), "the slot ends a DMA write (a window's, a row's last)");
  b.logic("write_first", Type::bit(), "the slot starts a DMA write");
  b.logic("blk_shift", Type::bits("ShiftBits"), "the block's bit offset in its row's write");
  b.logic("y", Type::sbits("CoordBits"), "image row of the pixel read (pooling: can be padding)");
  b.logic("x", Type::sbits("CoordBits"));
  b.logic("in_image", Type::bit());
  b.logic("pixel_row", Type::bits("ReadRowBits"), "local row of the pixel");
  b.logic("read_row", Type::bits("ReadRowBits"), "local row read by this slot");
  b.logic("out_addr", Type::bits("AddrBits"), "DRAM address written by this slot's row");
  b.logic("out_elems", Type::bits("CountBits"), "elements of this slot's block or pixel");
  b.logic("write_elems", Type::bits("CountBits"), "elements of the write the slot belongs to");
  b.logic("out_bytes", Type::bits("BytesBits"));
  b.logic("blk_width", Type::bits("CountBits"), "elements per column block: a local row");
  b.logic("pixel_index", Type::bits("PixelBits"), "DRAM pixel index (pixel modes)");
  b.logic("pool_last", Type::bits("WinBits"), "last window row and column");
  b.logic("pix_rows", Type::bits("PixBits"), "pixel rows of the walk");
  b.logic("pix_cols", Type::bits("PixBits"), "pixel columns of the walk");
  b.assign("rows_mode", "cur_mode == StoreRows");
  b.assign("pooling", "cur_mode == StorePool");
  b.assign("pool_last", "cur_pool_size - WinBits'(1)");
  b.assign("pix_rows", "pooling ? cur_porows : cur_orows");
  b.assign("pix_cols", "pooling ? cur_pocols : cur_ocols");
  b.assign("win_last", "!pooling || (wy_q == pool_last && wx_q == pool_last)");
  b.assign("win_first", "!pooling || (wy_q == '0 && wx_q == '0)");
  b.assign("y", "pooling ? CoordBits'(py_q) * CoordBits'(cur_pool_stride) + CoordBits'(wy_q) - "
                "CoordBits'(cur_upad) :\n      CoordBits'(py_q)");
  b.assign("x", "pooling ? CoordBits'(px_q) * CoordBits'(cur_pool_stride) + CoordBits'(wx_q) - "
                "CoordBits'(cur_lpad) :\n      CoordBits'(px_q)");
  b.assign("in_image", "!pooling || (y >= $signed(CoordBits'(0)) && x >= $signed(CoordBits'(0)) "
                       "&&\n      y < $signed(CoordBits'(cur_orows)) && "
                       "x < $signed(CoordBits'(cur_ocols)))");
  b.assign("pixel_row", "ReadRowBits'(cur_row) + ReadRowBits'(y[PixBits-1:0]) * "
                        "ReadRowBits'(cur_ocols) +\n      ReadRowBits'(x[PixBits-1:0])");
  b.assign("read_row", "rows_mode ? ReadRowBits'(cur_row) + ReadRowBits'(blk_q) * "
                       "ReadRowBits'(cur_block_stride) + ReadRowBits'(r_q) :\n      pixel_row");
  b.logic("pix_row", Type::bits("PixBits"), "DRAM pixel row: pooled row or image row");
  b.logic("pix_col", Type::bits("PixBits"));
  b.assign("pix_row", "pooling ? py_q : y[PixBits-1:0]");
  b.assign("pix_col", "pooling ? px_q : x[PixBits-1:0]");
  b.assign("pixel_index", "PixelBits'(pix_row) * PixelBits'(cur_pool_out_dim) + "
                          "PixelBits'(pix_col)");
  b.assign("out_bytes", "(cur_acc && cur_full) ? BytesBits'(AccBytes) : BytesBits'(ElemBytes)");
  b.assign("blk_width", "cur_acc ? CountBits'(Dim) : CountBits'(SpElems)");
  b.logic("last_blk", Type::bit(), "the row's last column block");
  b.assign("last_blk", "blk_q == cur_blocks - BlockBits'(1)");
  b.assign("out_elems", "!rows_mode ? cur_cols :\n"
                        "      (last_blk ? cur_cols - CountBits'(blk_q) * blk_width : blk_width)");
  b.assign("write_elems", "rows_mode ? cur_cols : out_elems");
  b.assign("out_addr", "rows_mode ? cur_dram + AddrBits'(r_q) * cur_stride :\n"
                       "      cur_dram + AddrBits'(pixel_index) * cur_stride");
  // A compressed MVOUT hands every block to its path as a piece of its own.
  b.assign("write_last", std::string("rows_mode ? last_blk") +
                             (boveda_ ? " || cur_compressed" : "") + " : win_last");
  b.assign("write_first", "!rows_mode || blk_q == '0");
  b.assign("blk_shift", "rows_mode ? ShiftBits'(32'(blk_q) * 32'(blk_width) * 32'(out_bytes) * "
                        "32'(8)) : '0");
  b.assign("last_slot", "rows_mode ? (r_q == cur_rows - CountBits'(1) && last_blk) :\n"
                        "      (py_q == pix_rows - PixBits'(1) && px_q == pix_cols - PixBits'(1) "
                        "&& win_last)");
  b.blank();
}

// A slot reads one row (or, for a padding pixel, nothing) and travels one cycle to the return
// stage. Slots that end a write need a place in the write queue (credits). Drives the read
// clients' requests, read_granted and slot_go.
void StoreControllerGenerator::slotIssue(vlog::Body& b, StateRegs& regs) const {
  b.comment("A slot reads one row (or, for a padding pixel, nothing) and travels one cycle to "
            "the return stage. Slots that end a write need a place in the write queue.");
  regs.add("credits", Type::bits("CreditBits"), "CreditBits'(FifoDepth)",
           "write-queue places not yet promised");
  b.logic("needs_read", Type::bit());
  b.logic("read_granted", Type::bit());
  b.logic("slot_go", Type::bit(), "a slot leaves the sequencer this cycle");
  b.logic("slot_room", Type::bit(), "the slot has a place to go");
  b.assign("needs_read", "cur_valid_q && in_image");
  if (boveda_) {
    b.comment("A compressed row piece needs a place in the piece FIFO instead.");
    regs.add("credits_c", Type::bits("PieceCreditBits"), "PieceCreditBits'(PieceCredits)",
             "piece-FIFO places not yet promised");
    b.assign("slot_room", "cur_compressed ? credits_c_q != '0 : (!write_last || credits_q != '0)");
  } else {
    b.assign("slot_room", "!write_last || credits_q != '0");
  }
  b.assign("sp_valid_o", "needs_read && !cur_acc && slot_room");
  b.assign("acc_valid_o", "needs_read && cur_acc && slot_room");
  b.assign("sp_row_o", "SpRowBits'(read_row)");
  b.assign("acc_row_o", "AccRowBits'(read_row)");
  b.assign("read_granted", "(sp_valid_o && sp_ready_i) || (acc_valid_o && acc_ready_i)");
  b.assign("slot_go", "cur_valid_q && slot_room && (in_image ? read_granted : 1'b1)");
  b.blank();
}

// The return stage: the slot issued last cycle (ret_*), its row data transformed. Drives
// scaled, pooled and ret_data; reads the read data and ret_* (returnRegisters).
void StoreControllerGenerator::returnStage(vlog::Body& b) const {
  b.comment("Return stage: the slot issued last cycle, its row data, transformed.");
  b.logic("ret_valid_q", Type::bit());
  b.logic("ret_zero_q", Type::bit(), "padding pixel");
  b.logic("ret_acc_q", Type::bit());
  b.logic("ret_full_q", Type::bit());
  b.logic("ret_relu_q", Type::bit());
  b.logic("ret_scale_q", Type::bits("ScaleBits"));
  b.logic("ret_first_q", Type::bit());
  b.logic("ret_last_q", Type::bit(), "ends a DMA write");
  b.logic("ret_wfirst_q", Type::bit(), "starts a DMA write");
  b.logic("ret_shift_q", Type::bits("ShiftBits"), "bit offset of the block in its write");
  b.logic("ret_addr_q", Type::bits("AddrBits"));
  b.logic("ret_len_q", Type::bits("LenBits"));
  b.logic("ret_op_q", Type::bits("OpBits"));
  if (boveda_) {
    b.logic("ret_comp_q", Type::bit(), "a piece of a compressed MVOUT");
    b.logic("ret_count_q", Type::bits("PieceCountBits"), "values of the piece");
  }
  b.logic("scaled", Type::bits("AccRowWidth"), "by_acc_scale outputs");
  b.logic("pooled", Type::bits("SpRowWidth"), "max over the window so far");
  b.logic("pool_q", Type::bits("Dim*ElemWidth"), "pooling runs on accumulator rows (DIM)");
  b.logic("out_vals", Type::bits("SpRowWidth"),
          "the values written: pooled, accumulator values through the function table");
  b.logic("ret_block", Type::bits("DmaDataWidth"), "the slot's bytes");
  b.logic("row_q", Type::bits("DmaDataWidth"), "the blocks of the row gathered so far");
  b.logic("ret_data", Type::bits("DmaDataWidth"), "the bytes to write");
  vlog::Body& lane = b.genFor("e", "Dim", "gen_lane");
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
  if (p_.spElems > p_.dim) {
    b.comment("Scratchpad elements beyond DIM (vector PEs): only plain moves read them.");
    b.assign("pooled[SpElems*ElemWidth-1:Dim*ElemWidth]",
             "sp_rdata_i[SpElems*ElemWidth-1:Dim*ElemWidth]");
  }
  if (table_) {
    b.comment("The function table (activations.table): an accumulator value x (after the "
              "activation and the pooling) leaves as entry x + 128, while enabled.");
    b.logic("tabled", Type::bits("Dim*ElemWidth"));
    vlog::Body& t = b.genFor("e", "Dim", "gen_table");
    t.logic("index", Type::bits("8"), "x + 128: x with its sign bit flipped");
    t.assign("index", "{~pooled[e*ElemWidth+7], pooled[e*ElemWidth +: 7]}");
    t.assign("tabled[e*ElemWidth +: ElemWidth]", "table_i[{index, 3'b000} +: 8]");
    // Scratchpad elements beyond DIM (vector PEs) are never an accumulator's.
    b.assign("out_vals",
             std::string("(ret_acc_q && table_en_i) ? ") +
                 (p_.spElems > p_.dim ? "{pooled[SpRowWidth-1:Dim*ElemWidth], tabled}" : "tabled") +
                 " : pooled");
  } else {
    b.assign("out_vals", "pooled");
  }
  b.assign("ret_block", "(ret_acc_q && ret_full_q) ? DmaDataWidth'(acc_rdata_i) :\n"
                        "      ret_acc_q ? DmaDataWidth'(out_vals[Dim*ElemWidth-1:0]) : "
                        "DmaDataWidth'(out_vals)");
  b.assign("ret_data", "(ret_wfirst_q ? '0 : row_q) | (ret_block << ret_shift_q)");
  b.blank();
}

// The write queue (q_*) of plain writes; drives dma_req_* when there is no compressed path.
void StoreControllerGenerator::writeQueue(vlog::Body& b) const {
  b.logic("q_push", Type::bit());
  b.logic("q_ready", Type::bit());
  b.logic("q_valid", Type::bit());
  b.logic("q_data", Type::bits("QueueWidth"));
  if (boveda_)
    b.logic("q_pop_ready", Type::bit(), "the compressed write queue goes first");
  b.assign("q_push",
           boveda_ ? "ret_valid_q && ret_last_q && !ret_comp_q" : "ret_valid_q && ret_last_q");
  auto& f = b.instance(names::kFifo, "u_write_queue");
  f.params = {{"Width", "QueueWidth"}, {"Depth", "FifoDepth"}};
  f.conns = {{"clk_i", "clk_i"},
             {"rst_ni", "rst_ni"},
             {"in_valid_i", "q_push"},
             {"in_ready_o", "q_ready"},
             {"in_data_i", "{ret_op_q, ret_len_q, ret_addr_q, ret_data}"},
             {"out_valid_o", "q_valid"},
             {"out_ready_i", boveda_ ? "q_pop_ready" : "dma_req_ready_i"},
             {"out_data_o", "q_data"}};
  if (!boveda_) {
    b.assign("dma_req_valid_o", "q_valid");
    dmaRequest(b, "q_data");
    b.assign("dma_wait_o", "q_valid && !dma_req_ready_i");
  }
  b.assign("dma_done_ready_o", "1'b1");
  b.blank();
}

// The DMA request fields of a queued write {op entry, len, addr, data}; the tag is its
// operation-table entry.
void StoreControllerGenerator::dmaRequest(vlog::Body& b, const std::string& queued) const {
  b.logic(queued + "_op", Type::bits("OpBits"));
  b.assign("{" + queued + "_op, dma_req_len_o, dma_req_addr_o, dma_req_data_o}", queued);
  b.assign("dma_req_tag_o", "TagBits'(" + queued + "_op)");
}

// Operation table searches and the status outputs. An operation leaves the table when all its
// slots were issued, none is still on its way to the write queue (ret stage) and the DMA
// acknowledged every write. The reservation station hears of it earlier, when its last row is
// read (the slot granted its read; the data returns the next cycle, before any later write can
// reach the row): what waits for a store in the reservation station is a write of the rows it
// reads (write-after-read), never its DRAM writes (the program orders DRAM with fences, and
// busy_o stays up until the DMA acknowledged them). So the next loop's bias moves into an
// accumulator half do not wait for the DMA to take the MVOUTs out of it.
void StoreControllerGenerator::operations(vlog::Body& b) const {
  b.logic("accept", Type::bit());
  optable::searches(b,
                    std::string("!(ret_valid_q && ret_op_q == OpBits'(i))") +
                        (boveda_ ? " && !opt_open_q[i]" : ""),
                    false);
  b.assign("done_valid_o", "slot_go && last_slot");
  b.assign("done_id_o", "opt_id_q[cur_op_q]");
  b.assign("op_ready_o", "!cur_valid_q && opt_free");
  b.assign("accept", "op_valid_i && op_ready_o");
  b.logic("ack_op", Type::bits("OpBits"), "the operation a write acknowledgement belongs to");
  b.assign("ack_op", "OpBits'(dma_done_tag_i)");
  b.assign("err_valid_o", "opt_fin && opt_error_q[opt_fin_idx]");
  b.assign("busy_o", "cur_valid_q || ret_valid_q || opt_valid_q != '0");
  b.assign("pooling_o", "cur_valid_q && pooling");
  b.blank();
}

void StoreControllerGenerator::nextState(vlog::Stmts& n) const {
  n.ifElse("accept", [&](vlog::Stmts& s) {
    s.line("cur_valid_d = 1'b1;")
        .line("cur_d = in_op;")
        .line("cur_op_d = opt_free_idx;")
        .line("r_d = '0;")
        .line("blk_d = '0;")
        .line("py_d = '0;")
        .line("px_d = '0;")
        .line("wy_d = '0;")
        .line("wx_d = '0;");
    optable::alloc(s, "op_id_i");
    s.line("opt_error_d[opt_free_idx] = 1'b0;");
    if (boveda_)
      s.line("opt_open_d[opt_free_idx] = in_compressed;");
  });
  nextWalk(n);
  n.comment("Write-queue credits: taken by a window's last slot, returned when the DMA takes "
            "the write.");
  n.line(boveda_
             ? "credits_d = credits_q - CreditBits'(slot_go && write_last && !cur_compressed) +\n"
               "            CreditBits'(q_valid && q_pop_ready);"
             : "credits_d = credits_q - CreditBits'(slot_go && write_last) +\n"
               "            CreditBits'(q_valid && dma_req_ready_i);");
  if (boveda_) {
    n.comment("Piece credits: taken by a compressed slot, returned when the piece FIFO pops.");
    n.line("credits_c_d = credits_c_q - PieceCreditBits'(slot_go && cur_compressed) +\n"
           "              PieceCreditBits'(piece_valid && piece_ready);");
    n.ifElse("cq_push && pk_ptr_q", [](vlog::Stmts& s) { s.line("opt_open_d[info_op] = 1'b0;"); });
  }
  n.forLoop("i", "OpSlots", [&](vlog::Stmts& s) {
    s.line("opt_pending_d[i] = opt_pending_q[i] + PendBits'(q_push && ret_op_q == OpBits'(i))");
    if (boveda_)
      s.line("    + PendBits'(cq_push && info_op == OpBits'(i))");
    s.line("    - PendBits'(dma_done_valid_i && ack_op == OpBits'(i));");
  });
  n.ifElse("dma_done_valid_i && dma_done_error_i",
           [](vlog::Stmts& s) { s.line("opt_error_d[ack_op] = 1'b1;"); });
  optable::release(n);
}

// Advance the walk: (r, blk) for StoreRows; (py, px, wy, wx) otherwise.
void StoreControllerGenerator::nextWalk(vlog::Stmts& n) const {
  n.comment("Advance the walk: (r, blk) for StoreRows; (py, px, wy, wx) otherwise.");
  n.ifElse("slot_go", [&](vlog::Stmts& s) {
    s.ifElse(
        "last_slot",
        [](vlog::Stmts& t) {
          t.line("cur_valid_d = 1'b0;").line("opt_issued_d[cur_op_q] = 1'b1;");
        },
        [&](vlog::Stmts& t) {
          t.ifElse(
              "rows_mode",
              [](vlog::Stmts& u) {
                u.ifElse(
                    "last_blk",
                    [](vlog::Stmts& v) {
                      v.line("blk_d = '0;").line("r_d = r_q + CountBits'(1);");
                    },
                    [](vlog::Stmts& v) { v.line("blk_d = blk_q + BlockBits'(1);"); });
              },
              [](vlog::Stmts& u) {
                u.ifElse(
                    "!win_last",
                    [](vlog::Stmts& v) {
                      v.ifElse(
                          "wx_q == pool_last",
                          [](vlog::Stmts& w) {
                            w.line("wx_d = '0;").line("wy_d = wy_q + WinBits'(1);");
                          },
                          [](vlog::Stmts& w) { w.line("wx_d = wx_q + WinBits'(1);"); });
                    },
                    [](vlog::Stmts& v) {
                      v.line("wx_d = '0;").line("wy_d = '0;");
                      v.ifElse(
                          "px_q == pix_cols - PixBits'(1)",
                          [](vlog::Stmts& w) {
                            w.line("px_d = '0;").line("py_d = py_q + PixBits'(1);");
                          },
                          [](vlog::Stmts& w) { w.line("px_d = px_q + PixBits'(1);"); });
                    });
              });
        });
  });
}

// The return stage's registers: the slot leaving the sequencer (loaded with slot_go), and the
// pooling window's running maximum.
void StoreControllerGenerator::returnRegisters(vlog::Body& b) const {
  b.flops({{{"ret_valid_q", "slot_go", "1'b0"}}});
  std::vector<vlog::Flop> ret = {{"ret_zero_q", "!in_image"},
                                 {"ret_acc_q", "cur_acc"},
                                 {"ret_full_q", "cur_full"},
                                 {"ret_relu_q", "cur_relu"},
                                 {"ret_scale_q", "cur_scale"},
                                 {"ret_first_q", "win_first"},
                                 {"ret_last_q", "write_last"},
                                 {"ret_wfirst_q", "write_first"},
                                 {"ret_shift_q", "blk_shift"},
                                 {"ret_addr_q", "out_addr"},
                                 {"ret_len_q", "LenBits'(write_elems) * LenBits'(out_bytes)"},
                                 {"ret_op_q", "cur_op_q"}};
  if (boveda_) {
    ret.emplace_back("ret_comp_q", "cur_compressed");
    ret.emplace_back("ret_count_q", "PieceCountBits'(out_elems)");
  }
  b.flops(vlog::FlopsItem(ret, "slot_go"));
  b.flops(vlog::FlopsItem({{"pool_q", "pooled[Dim*ElemWidth-1:0]"}, {"row_q", "ret_data"}},
                          "ret_valid_q"));
}

} // namespace by::hw
