// The load controller: executes MVIN operations. For every DRAM row it issues one DMA read of
// all the row's column blocks (at most max_bytes, which is what MAX_BLOCK_LEN guarantees), or,
// for DRAM address 0, a row of zeros, and writes the returned blocks into the scratchpad or the
// accumulator, one local row per block and cycle. With DRAM stride 0 every row is the same
// DRAM row (a bias broadcast): one request reads it once and the write-back writes it to all
// the operation's rows, so the broadcast costs DMA bandwidth for one row, not `rows`. Rows that
// touch or overlap in DRAM (0 < stride <= the row's bytes) go several to a request, as many as
// a power of two whose span fits max_bytes, each read from its own offset in the response: the
// DMA's cost is per request (max_inflight over the latency), so 16-byte rows one to a request
// moved a quarter of the bus rate, and a folded stem's 9-byte windows 3 bytes apart (a
// convolution's kernel columns folded into the channels) moved at a tenth of it. Reads of
// several operations are in flight at once: a tag names a slot of the request table, which
// remembers where the data goes, and each slot belongs to an entry of the operation table
// (op_table.h), which counts the operation's outstanding requests and reports it complete to the
// reservation station once every block has been written.
#include "load_controller.h"

#include "dma_common.h"
#include "op_layouts.h"
#include "op_table.h"
#include "search.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {
constexpr int kOpSlots = 8; // operations in flight (see localParams)
} // namespace

LoadControllerGenerator::LoadControllerGenerator(const AccelParams& p)
    : p_(p), ld_(loadOpLayout(p)), reqSlots_(p.maxInflight * 2) {}

vlog::Module LoadControllerGenerator::build() const {
  vlog::Module m(names::kLoadController,
                 "Load controller: MVIN operations to DMA reads and scratchpad / accumulator "
                 "writes, with up to " +
                     num(reqSlots_) + " rows from up to " + num(kOpSlots) +
                     " operations in flight. Operation {" + ld_.describe() + "}.");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  StateRegs regs(b);
  current(b, regs);
  optable::registers(regs, "IdBits", "PendBits");
  regs.add("opt_ch", Type::bits("ChannelBits"), "", "its channel (the funct an error reports)",
           "OpSlots")
      .add("opt_error", Type::bits("OpSlots"), "'0", "an AXI error was seen");
  requestTable(b, regs);
  b.blank();
  issue(b);
  writeBack(b, regs);
  memoryWrites(b);
  completion(b);
  optable::searches(b);
  b.logic("accept", Type::bit(), "an operation enters");
  b.assign("op_ready_o", "!cur_valid_q && opt_free");
  b.assign("accept", "op_valid_i && op_ready_o");
  b.assign("err_valid_o", "opt_fin && opt_error_q[opt_fin_idx]");
  b.assign("err_ch_o", "opt_ch_q[opt_fin_idx]");
  b.assign("busy_o", "cur_valid_q || opt_valid_q != '0");
  b.blank();
  b.comment("Next state.");
  vlog::Stmts& n = regs.next();
  nextState(n);
  storeRequests(b);
  b.blank();
  b.logic("unused_bits", Type::bit());
  b.assign("unused_bits",
           std::string("^{cur_dram, cur_channel, acc_pend_ready, acc_pend_valid, op_payload_i, "
                       "dma_resp_tag_i, in_op") +
               (ld_.has("compressed") ? ", cur_compressed, cur_ptr_inval" : "") +
               (ld_.has("onchip") ? ", cur_onchip}" : "}"));
  return m;
}

// Module parameters (the widths of the ports) and the ports.
void LoadControllerGenerator::ports(vlog::Module& m) const {
  const AccelParams& p = p_;
  optable::params(m, p);
  dma::clientParams(m, p, "DMA response: max_bytes bytes");
  m.param("ChannelBits", "2", "the funct an error reports: MVIN, MVIN2, MVIN3, DECOMPRESS");
  m.clockAndReset();
  optable::ports(m);
  m.portGroup("DMA reads.");
  m.output("dma_req_valid_o", Type::bit());
  m.input("dma_req_ready_i", Type::bit());
  m.output("dma_req_addr_o", Type::bits("AddrBits"));
  m.output("dma_req_len_o", Type::bits("LenBits"), "bytes");
  m.output("dma_req_tag_o", Type::bits("TagBits"));
  m.input("dma_resp_valid_i", Type::bit());
  m.output("dma_resp_ready_o", Type::bit());
  m.input("dma_resp_tag_i", Type::bits("TagBits"));
  m.input("dma_resp_data_i", Type::bits("DmaDataWidth"));
  m.input("dma_resp_error_i", Type::bit());
  m.portGroup("Scratchpad write client.");
  m.output("sp_valid_o", Type::bit());
  m.input("sp_ready_i", Type::bit());
  m.output("sp_row_o", Type::bits("SpRowBits"));
  m.output("sp_data_o", Type::bits("SpElems*ElemWidth"));
  m.output("sp_mask_o", Type::bits("SpElems"));
  m.portGroup("Accumulator write client.");
  m.output("acc_valid_o", Type::bit());
  m.input("acc_ready_i", Type::bit());
  m.output("acc_row_o", Type::bits("AccRowBits"));
  m.output("acc_data_o", Type::bits("Dim*AccWidth"));
  m.output("acc_mask_o", Type::bits("Dim"));
  m.output("acc_accumulate_o", Type::bit());
  m.input("acc_done_i", Type::bit(), "an accumulator write of this client is visible");
  m.portGroup("Status and errors.");
  m.output("busy_o", Type::bit());
  m.output("dma_wait_o", Type::bit(), "a request waits for the DMA");
  m.output("err_valid_o", Type::bit(), "an operation saw an AXI error");
  m.output("err_ch_o", Type::bits("ChannelBits"), "its channel field (the funct it reports)");
}

void LoadControllerGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
  // 8 operations in flight: a bias broadcast is one request that holds its entry for a DRAM
  // latency and its rows' writes, and LOOP_WS issues one per (I tile, column group); with 4
  // entries they queued behind each other (docs/BENCHMARKS.md, "Bias moves off the critical
  // path").
  optable::localParams(b, kOpSlots);
  b.localParam("LdWidth", num(ld_.width()), "the MVIN operation word");
  b.localParam("RowBits", num(p.localRowBits), "a local row of either memory");
  b.localParam("CountBits", num(ld_.at("rows").width), "rows, columns, row strides");
  b.localParam("BlockBits", num(ld_.at("blocks").width), "column blocks of a row");
  b.localParam("PendBits", num(ld_.at("rows").width + 1), "requests of an operation in flight");
  b.localParam("ReqSlots", num(reqSlots_), "request table: rows in flight");
  b.localParam("SlotBits", num(std::max(1, config::log2Exact(reqSlots_))));
  b.localParam("ElemBytes", num(p.iw / 8));
  b.localParam("AccBytes", num(p.aw / 8));
  b.localParam("BytesBits", "$clog2(AccBytes+1)", "holds ElemBytes or AccBytes");
  b.localParam("SpRowWidth", "SpElems*ElemWidth");
  b.localParam("AccRowWidth", "Dim*AccWidth");
  b.localParam("PendEntryWidth", "1+OpBits", "{last block, operation entry}");
  b.blank();
}

// The operation being issued (cur_*), from the payload accepted into it (in_*). Drives
// elem_bytes, req_row, last_req; registers cur_valid, cur, cur_op, row, row_addr.
void LoadControllerGenerator::current(vlog::Body& b, StateRegs& regs) const {
  b.comment("The operation being issued.");
  regs.add("cur_valid", Type::bit(), "1'b0")
      .add("cur", Type::bits("LdWidth"), "'0")
      .add("cur_op", Type::bits("OpBits"), "'0", "its operation-table entry")
      .add("row", Type::bits("CountBits"), "'0", "row being issued")
      .add("row_addr", Type::bits("AddrBits"), "'0", "DRAM address of row row_q");
  ld_.unpack(b, "cur_q", "cur_");
  b.logic("in_op", Type::bits("LdWidth"), "the operation entering");
  b.assign("in_op", "op_payload_i[LdWidth-1:0]");
  ld_.unpack(b, "in_op", "in_", {"dram", "channel"});
  b.logic("elem_bytes", Type::bits("BytesBits"), "bytes per DRAM element");
  b.logic("req_row", Type::bits("RowBits"), "local row of the request's first block");
  b.logic("last_req", Type::bit(), "this is the operation's last request");
  b.logic("cur_repeat", Type::bit(), "stride 0: one request writes every row");
  b.logic("row_bytes", Type::bits("LenBits"), "bytes of one DRAM row (at most MaxBytes)");
  b.logic("cur_packs", Type::bit(), "rows touch or overlap in DRAM: several to a request");
  b.logic("pitch", Type::bits("LenBits"), "packed rows: DRAM bytes from one row to the next");
  b.logic("pack_max", Type::bits("CountBits"), "rows a request holds: a power of two");
  b.logic("rows_left", Type::bits("CountBits"), "rows not yet requested");
  b.logic("req_rows", Type::bits("CountBits"), "DRAM rows of this request");
  b.assign("elem_bytes", "(!cur_acc || cur_shrink) ? BytesBits'(ElemBytes) : BytesBits'(AccBytes)");
  b.assign("req_row", "cur_row + RowBits'(row_q)");
  b.assign("cur_repeat", "cur_stride == '0");
  b.assign("row_bytes", "LenBits'(cur_cols) * LenBits'(elem_bytes)");
  b.assign("cur_packs", "!cur_zero && cur_stride != '0 && cur_stride <= AddrBits'(row_bytes)");
  b.assign("pitch", "cur_packs ? LenBits'(cur_stride) : '0");
  // The largest power of two n whose rows span at most max_bytes, (n-1) x pitch + row_bytes
  // (1 when rows do not pack): hw::isa::mvinRowsPerRead, which the functional model follows
  // (the DMA byte counters see it). 16 bits hold the span: n, pitch <= max_bytes.
  std::string packMax = "CountBits'(1)";
  for (int n = 2; n <= p_.maxBytes && n < (1 << ld_.at("rows").width); n *= 2)
    packMax = "16'(" + num(n - 1) + ") * 16'(pitch) + 16'(row_bytes) <= 16'(" + num(p_.maxBytes) +
              ") ? CountBits'(" + num(n) + ") :\n      " + packMax;
  b.assign("pack_max", "!cur_packs ? CountBits'(1) :\n      " + packMax);
  b.assign("rows_left", "cur_rows - row_q");
  b.assign("req_rows", "rows_left < pack_max ? rows_left : pack_max");
  b.assign("last_req", "cur_repeat || req_rows == rows_left");
}

// The request table: one slot per row in flight. Registers req_valid; the slot's fields are
// storage written on issue (storeRequests).
void LoadControllerGenerator::requestTable(vlog::Body& b, StateRegs& regs) const {
  b.comment("Request table: one slot per row in flight.");
  regs.add("req_valid", Type::bits("ReqSlots"), "'0");
  b.logicArray("req_row_q", Type::bits("RowBits"), "ReqSlots", "", "mem2reg");
  b.logicArray("req_cols_q", Type::bits("CountBits"), "ReqSlots",
               "elements of the row (all blocks)", "mem2reg");
  b.logicArray("req_blocks_q", Type::bits("BlockBits"), "ReqSlots", "column blocks", "mem2reg");
  b.logicArray("req_bstride_q", Type::bits("CountBits"), "ReqSlots", "local rows between blocks",
               "mem2reg");
  b.logicArray("req_reps_q", Type::bits("CountBits"), "ReqSlots",
               "local rows the data goes to (stride 0: all the operation's)", "mem2reg");
  b.logicArray("req_pitch_q", Type::bits("LenBits"), "ReqSlots",
               "bytes between its rows in the response (packed rows; else 0)", "mem2reg");
  b.logicArray("req_op_q", Type::bits("OpBits"), "ReqSlots", "operation-table entry", "mem2reg");
  b.logic("req_acc_q", Type::bits("ReqSlots"));
  b.logic("req_accumulate_q", Type::bits("ReqSlots"));
  b.logic("req_shrink_q", Type::bits("ReqSlots"));
  b.logic("req_zero_q", Type::bits("ReqSlots"), "write zeros, no DMA");
}

// Issue: a free request slot, then the DMA (or the zero path) takes the request. Drives
// free_slot, any_free, issue, dma_req_*, dma_wait_o; reads cur_*, row_addr_q, req_valid_q.
void LoadControllerGenerator::issue(vlog::Body& b) const {
  b.comment("Issue: a free request slot, then the DMA (or the zero path) takes the request.");
  firstIndex(b, "ReqSlots", "!req_valid_q[i]", "any_free", "free_slot", "SlotBits");
  b.logic("issue", Type::bit(), "a request leaves this cycle");
  b.assign("dma_req_valid_o", "cur_valid_q && any_free && !cur_zero");
  b.assign("dma_req_addr_o", "row_addr_q");
  b.assign("dma_req_len_o", "LenBits'(req_rows - CountBits'(1)) * pitch + row_bytes");
  b.assign("dma_req_tag_o", "TagBits'(free_slot)");
  b.assign("issue", "cur_valid_q && any_free && (cur_zero || dma_req_ready_i)");
  b.assign("dma_wait_o", "dma_req_valid_o && !dma_req_ready_i");
  b.blank();
}

// Write-back, one block per cycle. Drives wb_* (the block written this cycle) and
// dma_resp_ready_o; registers wb_busy, wb_dma, wb_slot, wb_blk, wb_row (nextState); reads the
// request table and the DMA response.
void LoadControllerGenerator::writeBack(vlog::Body& b, StateRegs& regs) const {
  b.comment("Write-back, one block per cycle: a DMA response, or else a zero row whose slot is "
            "ready. A request of several blocks or rows holds the write-back (wb_busy_q) until "
            "its last block of its last row is written; only then is the DMA response taken.");
  firstIndex(b, "ReqSlots", "req_valid_q[i] && req_zero_q[i]", "zero_pending", "zero_slot",
             "SlotBits");
  regs.add("wb_busy", Type::bit(), "1'b0", "blocks of the held request are still to be written")
      .add("wb_dma", Type::bit(), "1'b0", "the held request came from the DMA")
      .add("wb_slot", Type::bits("SlotBits"), "'0")
      .add("wb_blk", Type::bits("BlockBits"), "'0", "block of the held request written next")
      .add("wb_rep", Type::bits("CountBits"), "'0", "row of the held request written now")
      .add("wb_row", Type::bits("RowBits"), "'0", "its local row");
  b.logic("wb_valid", Type::bit());
  b.logic("wb_slot", Type::bits("SlotBits"));
  b.logic("wb_from_dma", Type::bit());
  b.logic("wb_blk", Type::bits("BlockBits"));
  b.logic("wb_last_blk", Type::bit(), "the row's last block");
  b.logic("wb_rep", Type::bits("CountBits"));
  b.logic("wb_last", Type::bit(), "the request's last block of its last row");
  b.logic("wb_acc", Type::bit());
  b.logic("wb_shrink", Type::bit());
  b.logic("wb_cols", Type::bits("CountBits"), "elements of this block");
  b.logic("wb_row", Type::bits("RowBits"));
  b.logic("wb_width", Type::bits("CountBits"), "elements per block: a local row");
  b.logic("wb_fire", Type::bit(), "the memory took the block");
  b.assign("wb_from_dma", "wb_busy_q ? wb_dma_q : dma_resp_valid_i");
  b.assign("wb_valid", "wb_busy_q || dma_resp_valid_i || zero_pending");
  b.assign("wb_slot",
           "wb_busy_q ? wb_slot_q : dma_resp_valid_i ? SlotBits'(dma_resp_tag_i) : zero_slot");
  b.assign("wb_blk", "wb_busy_q ? wb_blk_q : '0");
  b.assign("wb_last_blk", "wb_blk == req_blocks_q[wb_slot] - BlockBits'(1)");
  b.assign("wb_rep", "wb_busy_q ? wb_rep_q : '0");
  b.assign("wb_last", "wb_last_blk && wb_rep == req_reps_q[wb_slot] - CountBits'(1)");
  b.assign("wb_row", "wb_busy_q ? wb_row_q : req_row_q[wb_slot]");
  b.assign("wb_width", "wb_acc ? CountBits'(Dim) : CountBits'(SpElems)");
  b.assign("wb_acc", "req_acc_q[wb_slot]");
  b.assign("wb_shrink", "req_shrink_q[wb_slot]");
  b.assign("wb_cols",
           "wb_last_blk ? req_cols_q[wb_slot] - CountBits'(wb_blk) * wb_width : wb_width");
  b.assign("wb_fire", "wb_valid && (wb_acc ? acc_ready_i : sp_ready_i)");
  b.assign("dma_resp_ready_o", "wb_from_dma && wb_last && (wb_acc ? acc_ready_i : sp_ready_i)");
}

// The block's data and mask on the scratchpad and accumulator write clients (sp_*, acc_*).
// Reads wb_* and the DMA response data.
void LoadControllerGenerator::memoryWrites(vlog::Body& b) const {
  b.logic("wb_sp_block", Type::bits("SpRowWidth"), "the block's elements (scratchpad or shrink)");
  b.logic("wb_acc_block", Type::bits("AccRowWidth"), "the block's elements as acc_t");
  b.logic("wb_mask", Type::bits("SpElems"), "elements written (accumulator: the low DIM)");
  b.logic("acc_row_data", Type::bits("AccRowWidth"));
  b.logic("wb_row_data", Type::bits("DmaDataWidth"), "the response from the row's first byte");
  // (rep x pitch < MaxBytes: the product fits the shift's width)
  b.logic("wb_row_shift", Type::bits("$clog2(DmaDataWidth)"), "bit offset of the row in it");
  b.assign("wb_row_shift", "{($clog2(DmaDataWidth)-3)'(wb_rep) * "
                           "($clog2(DmaDataWidth)-3)'(req_pitch_q[wb_slot]), 3'b000}");
  b.assign("wb_row_data", "dma_resp_data_i >> wb_row_shift");
  b.assign("wb_sp_block", "!wb_from_dma ? '0 : SpRowWidth'(wb_row_data >> "
                          "(32'(wb_blk) * 32'(wb_width) * 32'(ElemWidth)))");
  b.assign("wb_acc_block",
           "!wb_from_dma ? '0 : AccRowWidth'(wb_row_data >> (32'(wb_blk) * 32'(AccRowWidth)))");
  // A response with an AXI error writes nothing (its blocks go to memory with an empty mask, so
  // the handshakes stay those of any block): a DMA error changes no local row it would have
  // written, as in the functional model.
  b.logic("wb_error", Type::bit(), "the block's response had an AXI error");
  b.assign("wb_error", "wb_from_dma && dma_resp_error_i");
  b.comb().forLoop("e", "SpElems", [&](vlog::Stmts& s) {
    s.line("wb_mask[e] = !wb_error && CountBits'(e) < wb_cols;");
  });
  b.comb().forLoop("e", "Dim", [&](vlog::Stmts& s) {
    s.line("acc_row_data[e*AccWidth +: AccWidth] = wb_shrink ?");
    s.line("    AccWidth'($signed(wb_sp_block[e*ElemWidth +: ElemWidth])) :");
    s.line("    wb_acc_block[e*AccWidth +: AccWidth];");
  });
  b.assign("sp_valid_o", "wb_valid && !wb_acc");
  b.assign("sp_row_o", "SpRowBits'(wb_row)");
  b.assign("sp_data_o", "wb_sp_block");
  b.assign("sp_mask_o", "wb_mask");
  b.assign("acc_valid_o", "wb_valid && wb_acc");
  b.assign("acc_row_o", "AccRowBits'(wb_row)");
  b.assign("acc_data_o", "acc_row_data");
  b.assign("acc_mask_o", "wb_mask[Dim-1:0]");
  b.assign("acc_accumulate_o", "req_accumulate_q[wb_slot]");
}

// When a request is in memory. A scratchpad row is written when granted; an accumulator row
// when acc_done_i pulses (in grant order, so a FIFO of {last block, operation entry} matches
// them up). Drives sp_done, acc_done, row_done, row_done_op, sp_done_twice.
void LoadControllerGenerator::completion(vlog::Body& b) const {
  b.comment("A scratchpad row is written when granted; an accumulator row when acc_done_i "
            "pulses (in grant order, so a FIFO of {last block, operation entry} matches them "
            "up). A request is done with its last block.");
  b.logic("acc_pend_valid", Type::bit());
  b.logic("acc_pend", Type::bits("PendEntryWidth"), "{last block, operation entry}");
  b.logic("acc_pend_last", Type::bit());
  b.logic("acc_pend_op", Type::bits("OpBits"));
  b.assign("{acc_pend_last, acc_pend_op}", "acc_pend");
  b.logic("acc_pend_ready", Type::bit());
  {
    auto& f = b.instance(names::kFifo, "u_acc_pending");
    f.params = {{"Width", "PendEntryWidth"}, {"Depth", "4"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "wb_fire && wb_acc"},
               {"in_ready_o", "acc_pend_ready"},
               {"in_data_i", "{wb_last, req_op_q[wb_slot]}"},
               {"out_valid_o", "acc_pend_valid"},
               {"out_ready_i", "acc_done_i"},
               {"out_data_o", "acc_pend"}};
  }
  b.logic("sp_done", Type::bit(), "a request's last scratchpad block is written");
  b.logic("acc_done", Type::bit(), "a request's last accumulator block is written");
  b.assign("sp_done", "wb_fire && !wb_acc && wb_last");
  b.assign("acc_done", "acc_done_i && acc_pend_last");
  b.logic("row_done", Type::bit(), "a request of an operation is now in memory");
  b.logic("row_done_op", Type::bits("OpBits"));
  b.assign("row_done", "sp_done || acc_done");
  b.logic("sp_done_twice", Type::bit(), "a scratchpad request and an accumulator one at once");
  b.assign("sp_done_twice", "sp_done && acc_done");
  b.assign("row_done_op", "acc_done ? acc_pend_op : req_op_q[wb_slot]");
  b.blank();
}

void LoadControllerGenerator::nextState(vlog::Stmts& n) const {
  n.comment("Accept an operation into a free operation-table entry.")
      .ifElse("accept",
              [&](vlog::Stmts& s) {
                s.line("cur_valid_d = 1'b1;")
                    .line("cur_d = in_op;")
                    .line("cur_op_d = opt_free_idx;")
                    .line("row_d = '0;")
                    .line("row_addr_d = in_dram;");
                optable::alloc(s, "op_id_i");
                s.line("opt_ch_d[opt_free_idx] = in_channel;")
                    .line("opt_error_d[opt_free_idx] = 1'b0;");
              })
      .comment("Issue a request: the next row.")
      .ifElse("issue",
              [&](vlog::Stmts& s) {
                s.line("req_valid_d[free_slot] = 1'b1;");
                s.ifElse(
                    "last_req",
                    [](vlog::Stmts& t) {
                      t.line("cur_valid_d = 1'b0;").line("opt_issued_d[cur_op_q] = 1'b1;");
                    },
                    [&](vlog::Stmts& t) {
                      t.line("row_d = row_q + req_rows;")
                          .line("row_addr_d = row_addr_q + (cur_packs ? "
                                "AddrBits'(LenBits'(req_rows) * pitch) : cur_stride);");
                    });
              })
      .comment("Write-back of a request of several blocks or rows: hold it until its last one.")
      .ifElse("wb_fire",
              [&](vlog::Stmts& s) {
                s.line("wb_busy_d = !wb_last;")
                    .line("wb_dma_d = wb_from_dma;")
                    .line("wb_slot_d = wb_slot;");
                s.ifElse(
                    "wb_last_blk",
                    [](vlog::Stmts& t) {
                      t.line("wb_blk_d = '0;")
                          .line("wb_rep_d = wb_rep + CountBits'(1);")
                          .line("wb_row_d = req_row_q[wb_slot] + RowBits'(wb_rep) + RowBits'(1);");
                    },
                    [](vlog::Stmts& t) {
                      t.line("wb_blk_d = wb_blk + BlockBits'(1);")
                          .line("wb_rep_d = wb_rep;")
                          .line("wb_row_d = wb_row + RowBits'(req_bstride_q[wb_slot]);");
                    });
              })
      .comment("Requests in flight per operation: +1 on issue, -1 when written.")
      .forLoop("i", "OpSlots",
               [&](vlog::Stmts& s) {
                 s.line("opt_pending_d[i] = opt_pending_q[i] + "
                        "PendBits'(issue && cur_op_q == OpBits'(i))");
                 s.line("    - PendBits'(row_done && row_done_op == OpBits'(i))");
                 s.line("    - PendBits'(sp_done_twice && req_op_q[wb_slot] == OpBits'(i));");
               })
      .ifElse("wb_fire && wb_last", [](vlog::Stmts& s) { s.line("req_valid_d[wb_slot] = 1'b0;"); })
      .ifElse("wb_fire && wb_from_dma && dma_resp_error_i",
              [](vlog::Stmts& s) { s.line("opt_error_d[req_op_q[wb_slot]] = 1'b1;"); });
  optable::release(n);
}

// The request table's storage: the issued row's destination, written into its slot.
void LoadControllerGenerator::storeRequests(vlog::Body& b) const {
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("issue", [&](vlog::Stmts& s) {
    s.line("req_row_q[free_slot] <= req_row;")
        .line("req_cols_q[free_slot] <= cur_cols;")
        .line("req_blocks_q[free_slot] <= cur_blocks;")
        .line("req_bstride_q[free_slot] <= cur_block_stride;")
        .line("req_reps_q[free_slot] <= cur_repeat ? cur_rows : req_rows;")
        .line("req_pitch_q[free_slot] <= pitch;")
        .line("req_op_q[free_slot] <= cur_op_q;")
        .line("req_acc_q[free_slot] <= cur_acc;")
        .line("req_accumulate_q[free_slot] <= cur_accumulate;")
        .line("req_shrink_q[free_slot] <= cur_shrink;")
        .line("req_zero_q[free_slot] <= cur_zero;");
  });
}

} // namespace by::hw
