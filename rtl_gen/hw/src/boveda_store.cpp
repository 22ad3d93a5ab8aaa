// The compressed-MVOUT path of the store controller (Boveda configs only; docs/boveda.md,
// "Hardware"). A compressed MVOUT walks its rows like a plain one (mode 0: row r, column
// block blk), and its read data is transformed the same way (scale, ReLU, saturation). Instead
// of a DMA write per row piece, the ret stage hands each piece (out_elems values) to this path:
//
//   piece FIFO -> value repacker (pieces to groups of GroupSize, the block's last group
//   shorter) -> by_boveda_compressor -> packer (stream words into max_bytes chunks) ->
//   compressed write queue -> DMA writer, then the block's 8-byte pointer entry.
//
// Blocks follow each other through the path in operation order; two small FIFOs filled when
// an operation is accepted tell the regrouper each block's length and the packer its pointer
// entry, stream base and epoch. The packer keeps the container counter: a block starts at
// container 0 when its epoch differs from the previous block's (a compressed CONFIG_ST came
// in between), else where the previous block ended. Piece credits keep the ret stage, which
// cannot stall, from overrunning the piece FIFO.
#include "boveda_common.h"
#include "op_layouts.h"
#include "store_controller.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

void addCompressedStorePath(vlog::Body& b, const AccelParams& p, const BovedaHwParams& h) {
  const int lenBits = config::log2Exact(p.maxBytes) + 1;
  const int dataBits = p.maxBytes * 8;
  const int wordsPerChunk = dataBits / h.streamWidth;
  const int chunkWordBits = config::log2Exact(wordsPerChunk) + 1;
  const int dimCount = config::log2Exact(p.dim) + 1;
  const int groupCount = config::log2Exact(h.groupSize) + 1;
  const int containerBytes = h.containerBits / 8;
  const int spRow = p.dim * p.iw;
  const int pieceWidth = spRow + dimCount;
  const int infoWidth = 2 + 1 + 32 + 32; // {op entry, epoch, stream base, entry address}
  const int cqWidth = 2 + lenBits + 32 + dataBits;

  b.comment("---- Boveda: compressed MVOUTs (boveda_store.cpp).");
  b.comment("Row pieces from the ret stage; credits_c_q places are promised at slot issue.");
  b.logic("piece_valid", Type::bit());
  b.logic("piece_ready", Type::bit());
  b.logic("piece", Type::bits(pieceWidth), "{values, count}");
  b.logic("piece_in_ready", Type::bit());
  {
    auto& f = b.instance(names::kFifo, "u_pieces");
    f.params = {{"Width", num(pieceWidth)}, {"Depth", "2"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "ret_valid_q && ret_comp_q"},
               {"in_ready_o", "piece_in_ready"},
               {"in_data_i", "{" + num(spRow) + "'(pooled), ret_count_q}"},
               {"out_valid_o", "piece_valid"},
               {"out_ready_i", "piece_ready"},
               {"out_data_o", "piece"}};
  }
  b.blank();

  b.comment("Block lengths (values) for the regrouper, block pointers for the packer.");
  b.logic("len_valid", Type::bit());
  b.logic("len_pop", Type::bit());
  b.logic("len_head", Type::bits(32));
  b.logic("len_in_ready", Type::bit());
  b.logic("info_valid", Type::bit());
  b.logic("info_pop", Type::bit());
  b.logic("info_head", Type::bits(infoWidth), "{op entry, epoch, stream base, entry address}");
  b.logic("info_in_ready", Type::bit());
  b.logic("open_block", Type::bit(), "a compressed operation is accepted");
  const PackedLayout st = storeOpLayout(p);
  b.assign("open_block", "accept && " + st.slice("op_payload_i", "compressed"));
  {
    auto& f = b.instance(names::kFifo, "u_block_lengths");
    f.params = {{"Width", "32"}, {"Depth", "OpSlots"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "open_block"},
               {"in_ready_o", "len_in_ready"},
               {"in_data_i", "32'(" + st.slice("op_payload_i", "rows") + ") * 32'(" +
                                 st.slice("op_payload_i", "cols") + ")"},
               {"out_valid_o", "len_valid"},
               {"out_ready_i", "len_pop"},
               {"out_data_o", "len_head"}};
  }
  {
    auto& f = b.instance(names::kFifo, "u_block_info");
    f.params = {{"Width", num(infoWidth)}, {"Depth", "OpSlots"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "open_block"},
               {"in_ready_o", "info_in_ready"},
               {"in_data_i", "{free_op, " + st.slice("op_payload_i", "epoch") + ", " +
                                 st.slice("op_payload_i", "stride") + ", " +
                                 st.slice("op_payload_i", "dram") + "}"},
               {"out_valid_o", "info_valid"},
               {"out_ready_i", "info_pop"},
               {"out_data_o", "info_head"}};
  }
  b.blank();

  b.comment("Regrouper: pieces to groups; the block's last group holds the rest.");
  b.logic("rg_active_q", Type::bit());
  b.logic("rg_left_q", Type::bits(32), "values of the block not yet grouped");
  b.logic("rg_want", Type::bits(groupCount));
  b.logic("grp_valid", Type::bit());
  b.logic("grp_ready", Type::bit());
  b.logic("grp_data", Type::bits(h.groupSize * h.elementBits));
  b.logic("grp_last", Type::bit());
  b.assign("rg_want", "!rg_active_q ? '0 : rg_left_q < 32'd" + num(h.groupSize) + " ? " +
                          num(groupCount) + "'(rg_left_q) : " + num(groupCount) + "'d" +
                          num(h.groupSize));
  b.assign("grp_last", "rg_left_q == 32'(rg_want)");
  b.assign("len_pop", "!rg_active_q && len_valid");
  {
    auto& r = b.instance(names::kValueRepacker, "u_groups");
    r.params = {
        {"ElemWidth", num(h.elementBits)}, {"InVals", "Dim"}, {"OutVals", num(h.groupSize)}};
    r.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "piece_valid"},
               {"in_ready_o", "piece_ready"},
               {"in_data_i", "piece[" + num(pieceWidth - 1) + ":" + num(dimCount) + "]"},
               {"in_count_i", "piece[" + num(dimCount - 1) + ":0]"},
               {"out_valid_o", "grp_valid"},
               {"out_ready_i", "grp_ready"},
               {"out_want_i", "rg_want"},
               {"out_data_o", "grp_data"}};
  }
  b.blank();

  b.comment("Compressor.");
  b.logic("word_valid", Type::bit());
  b.logic("word_ready", Type::bit());
  b.logic("word", Type::bits(h.streamWidth));
  b.logic("word_last", Type::bit(), "the block's last word");
  {
    auto& c = b.instance(names::kBovedaCompressor, "u_compressor");
    c.params = {{"ElemWidth", num(h.elementBits)},      {"GroupSize", num(h.groupSize)},
                {"HeaderBits", num(h.headerBits)},      {"ContainerBits", num(h.containerBits)},
                {"ZeroAware", h.zeroAware ? "1" : "0"}, {"StreamWidth", num(h.streamWidth)}};
    c.conns = {
        {"clk_i", "clk_i"},          {"rst_ni", "rst_ni"},          {"in_valid_i", "grp_valid"},
        {"in_ready_o", "grp_ready"}, {"in_data_i", "grp_data"},     {"in_count_i", "rg_want"},
        {"in_last_i", "grp_last"},   {"out_valid_o", "word_valid"}, {"out_ready_i", "word_ready"},
        {"out_data_o", "word"},      {"out_last_o", "word_last"}};
  }
  b.blank();

  b.comment("Packer: words into a max_bytes chunk written at stream base + first container * "
            "ContainerBytes + offset; after the block's last chunk, its pointer entry "
            "{first, containers}.");
  b.logic("pk_active_q", Type::bit(), "info_head is the block being packed");
  b.logic("pk_first_q", Type::bits(32), "the block's first container");
  b.logic("pk_off_q", Type::bits(32), "bytes of the block already queued");
  b.logic("pk_words_q", Type::bits(chunkWordBits), "words in the chunk buffer");
  b.logic("pk_buf_q", Type::bits(dataBits));
  b.logic("pk_full_q", Type::bit(), "the chunk is ready to be queued");
  b.logic("pk_last_q", Type::bit(), "the chunk ends the block");
  b.logic("pk_ptr_q", Type::bit(), "the pointer entry is to be queued");
  b.logic("next_cont_q", Type::bits(32), "where the next block of the same stream starts");
  b.logic("last_epoch_q", Type::bit(), "epoch of the previous block");
  b.logic("info_op", Type::bits(2));
  b.logic("info_epoch", Type::bit());
  b.logic("info_base", Type::bits(32));
  b.logic("info_entry", Type::bits(32));
  b.assign("info_op", "info_head[" + num(infoWidth - 1) + ":" + num(infoWidth - 2) + "]");
  b.assign("info_epoch", "info_head[64]");
  b.assign("info_base", "info_head[63:32]");
  b.assign("info_entry", "info_head[31:0]");
  b.logic("chunk_bytes", Type::bits(lenBits));
  b.logic("chunk_addr", Type::bits(32));
  b.logic("block_conts", Type::bits(32), "containers of the finished block");
  b.assign("chunk_bytes", num(lenBits) + "'(32'(pk_words_q) * 32'd" + num(h.streamWidth / 8) + ")");
  b.assign("chunk_addr", "info_base + pk_first_q * 32'd" + num(containerBytes) + " + pk_off_q");
  b.assign("block_conts", "pk_off_q / 32'd" + num(containerBytes));
  b.assign("word_ready", "pk_active_q && !pk_full_q && !pk_ptr_q");
  b.logic("cq_push", Type::bit());
  b.logic("cq_ready", Type::bit());
  b.logic("cq_valid", Type::bit());
  b.logic("cq_data", Type::bits(cqWidth));
  b.logic("cq_in", Type::bits(cqWidth), "{op entry, len, addr, data}");
  b.assign("cq_push", "(pk_full_q || pk_ptr_q) && cq_ready");
  b.assign("cq_in", "pk_ptr_q ? {info_op, " + num(lenBits) + "'d8, info_entry, " + num(dataBits) +
                        "'({block_conts, pk_first_q})} :\n"
                        "      {info_op, chunk_bytes, chunk_addr, pk_buf_q}");
  b.assign("info_pop", "pk_ptr_q && cq_ready");
  {
    auto& f = b.instance(names::kFifo, "u_stream_queue");
    f.params = {{"Width", num(cqWidth)}, {"Depth", "2"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "pk_full_q || pk_ptr_q"},
               {"in_ready_o", "cq_ready"},
               {"in_data_i", "cq_in"},
               {"out_valid_o", "cq_valid"},
               {"out_ready_i", "dma_req_ready_i"},
               {"out_data_o", "cq_data"}};
  }
  b.assign("stream_bytes_o", "(cq_push && !pk_ptr_q) ? chunk_bytes : '0");
  b.blank();

  vlog::SeqItem& q = b.sequential();
  q.reset.line("rg_active_q <= 1'b0;")
      .line("rg_left_q <= '0;")
      .line("pk_active_q <= 1'b0;")
      .line("pk_first_q <= '0;")
      .line("pk_off_q <= '0;")
      .line("pk_words_q <= '0;")
      .line("pk_full_q <= 1'b0;")
      .line("pk_last_q <= 1'b0;")
      .line("pk_ptr_q <= 1'b0;")
      .line("next_cont_q <= '0;")
      .line("last_epoch_q <= 1'b0;");
  q.clocked
      .ifElse("len_pop",
              [](vlog::Stmts& s) { s.line("rg_active_q <= 1'b1;").line("rg_left_q <= len_head;"); })
      .ifElse("grp_valid && grp_ready",
              [](vlog::Stmts& s) {
                s.line("rg_left_q <= rg_left_q - 32'(rg_want);");
                s.ifElse("grp_last", [](vlog::Stmts& t) { t.line("rg_active_q <= 1'b0;"); });
              })
      .comment("A new block: its first container.")
      .ifElse("!pk_active_q && info_valid",
              [](vlog::Stmts& s) {
                s.line("pk_active_q <= 1'b1;")
                    .line("pk_first_q <= info_epoch != last_epoch_q ? '0 : next_cont_q;")
                    .line("pk_off_q <= '0;")
                    .line("pk_words_q <= '0;");
              })
      .ifElse("word_valid && word_ready",
              [&](vlog::Stmts& s) {
                s.line("pk_words_q <= pk_words_q + 1'b1;")
                    .line("pk_full_q <= word_last || 32'(pk_words_q) == 32'd" +
                          num(wordsPerChunk - 1) + ";")
                    .line("pk_last_q <= word_last;");
              })
      .ifElse("cq_push && !pk_ptr_q",
              [](vlog::Stmts& s) {
                s.line("pk_full_q <= 1'b0;")
                    .line("pk_words_q <= '0;")
                    .line("pk_off_q <= pk_off_q + 32'(chunk_bytes);")
                    .line("pk_ptr_q <= pk_last_q;");
              })
      .ifElse("cq_push && pk_ptr_q", [](vlog::Stmts& s) {
        s.line("pk_ptr_q <= 1'b0;")
            .line("pk_active_q <= 1'b0;")
            .line("next_cont_q <= pk_first_q + block_conts;")
            .line("last_epoch_q <= info_epoch;");
      });
  vlog::SeqItem& d = b.clocked();
  d.clocked.ifElse("word_valid && word_ready", [&](vlog::Stmts& s) {
    s.line("pk_buf_q[32'(pk_words_q) * " + num(h.streamWidth) + " +: " + num(h.streamWidth) +
           "] <= word;");
  });
  b.blank();
  b.logic("unused_boveda", Type::bit());
  b.assign("unused_boveda", "^{piece_in_ready, len_in_ready, info_in_ready}");
}

} // namespace by::hw
