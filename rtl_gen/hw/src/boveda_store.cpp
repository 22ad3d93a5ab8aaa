// The compressed-MVOUT path of the store controller (Boveda configs only; docs/boveda.md,
// "Hardware"). A compressed MVOUT walks its rows like a plain one (StoreRows: row r, column
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
#include "state_regs.h"
#include "store_controller.h"
#include "text_util.h"

namespace by::hw {

using vlog::Type;

namespace {

class CompressedStorePath {
public:
  CompressedStorePath(const AccelParams& p, const BovedaHwParams& h)
      : p_(p), h_(h), st_(storeOpLayout(p)) {}

  void build(vlog::Body& b) const {
    localParams(b);
    b.comment("---- Boveda: compressed MVOUTs (boveda_store.cpp).");
    StateRegs regs(b);
    pieces(b);
    blocks(b);
    regrouper(b, regs);
    compressor(b);
    packer(b, regs);
    nextState(regs.next());
    b.flops(vlog::FlopsItem(
        {{"pk_buf_q[BufIdxBits'(pk_words_q) * StreamWidth +: StreamWidth]", "word"}},
        "word_valid && word_ready"));
    b.blank();
    b.logic("unused_boveda", Type::bit());
    b.assign("unused_boveda", "^{piece_in_ready, len_in_ready, info_in_ready}");
  }

private:
  void localParams(vlog::Body& b) const {
    const int dataBits = p_.maxBytes * 8;
    b.localParam("GroupSize", num(h_.groupSize), "values per Boveda group");
    b.localParam("GroupCountBits", "$clog2(GroupSize)+1", "values of a group: 0..GroupSize");
    b.localParam("StreamWidth", num(h_.streamWidth), "bits of a stream word");
    b.localParam("StreamBytes", "StreamWidth/8");
    b.localParam("WordsPerChunk", num(dataBits / h_.streamWidth), "stream words per DMA write");
    b.localParam("ChunkWordBits", "$clog2(WordsPerChunk)+1");
    b.localParam("BufIdxBits", "32", "index arithmetic of the chunk buffer");
    b.localParam("ContainerBytes", num(h_.containerBits / 8));
    b.localParam("BlockLenBits", "32", "values of a block, containers, byte offsets");
    b.localParam("PtrEntryBytes", "8", "a pointer entry {containers, first container}");
    b.localParam("PieceDataWidth", "SpElems*ElemWidth",
                 "the values of a row piece (a local row: DIM*lanes at most)");
    b.localParam("PieceWidth", "PieceDataWidth+PieceCountBits", "{values, count}");
    b.localParam("InfoWidth", "OpBits+1+AddrBits+AddrBits",
                 "{op entry, epoch, stream base, entry address}");
  }

  // Row pieces from the ret stage (piece_*); credits_c_q places are promised at slot issue.
  void pieces(vlog::Body& b) const {
    b.comment("Row pieces from the ret stage; credits_c_q places are promised at slot issue.");
    b.logic("piece_valid", Type::bit());
    b.logic("piece_ready", Type::bit());
    b.logic("piece", Type::bits("PieceWidth"), "{values, count}");
    b.logic("piece_data", Type::bits("PieceDataWidth"));
    b.logic("piece_count", Type::bits("PieceCountBits"));
    b.logic("piece_in_ready", Type::bit());
    auto& f = b.instance(names::kFifo, "u_pieces");
    f.params = {{"Width", "PieceWidth"}, {"Depth", "PieceCredits"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "ret_valid_q && ret_comp_q"},
               {"in_ready_o", "piece_in_ready"},
               {"in_data_i", "{PieceDataWidth'(out_vals), ret_count_q}"},
               {"out_valid_o", "piece_valid"},
               {"out_ready_i", "piece_ready"},
               {"out_data_o", "piece"}};
    b.assign("{piece_data, piece_count}", "piece");
    b.blank();
  }

  // Block lengths (len_*) for the regrouper and block pointers (info_*) for the packer,
  // queued when a compressed operation is accepted.
  void blocks(vlog::Body& b) const {
    b.comment("Block lengths (values) for the regrouper, block pointers for the packer.");
    b.logic("len_valid", Type::bit());
    b.logic("len_pop", Type::bit());
    b.logic("len_head", Type::bits("BlockLenBits"));
    b.logic("len_in_ready", Type::bit());
    b.logic("info_valid", Type::bit());
    b.logic("info_pop", Type::bit());
    b.logic("info_head", Type::bits("InfoWidth"), "{op entry, epoch, stream base, entry address}");
    b.logic("info_in_ready", Type::bit());
    b.logic("open_block", Type::bit(), "a compressed operation is accepted");
    st_.unpack(b, "in_op", "bin_", {"dram", "rows", "cols", "stride", "epoch"});
    b.assign("open_block", "accept && in_compressed");
    auto& len = b.instance(names::kFifo, "u_block_lengths");
    len.params = {{"Width", "BlockLenBits"}, {"Depth", "OpSlots"}};
    len.conns = {{"clk_i", "clk_i"},
                 {"rst_ni", "rst_ni"},
                 {"in_valid_i", "open_block"},
                 {"in_ready_o", "len_in_ready"},
                 {"in_data_i", "BlockLenBits'(bin_rows) * BlockLenBits'(bin_cols)"},
                 {"out_valid_o", "len_valid"},
                 {"out_ready_i", "len_pop"},
                 {"out_data_o", "len_head"}};
    auto& info = b.instance(names::kFifo, "u_block_info");
    info.params = {{"Width", "InfoWidth"}, {"Depth", "OpSlots"}};
    info.conns = {{"clk_i", "clk_i"},
                  {"rst_ni", "rst_ni"},
                  {"in_valid_i", "open_block"},
                  {"in_ready_o", "info_in_ready"},
                  {"in_data_i", "{opt_free_idx, bin_epoch, bin_stride, bin_dram}"},
                  {"out_valid_o", "info_valid"},
                  {"out_ready_i", "info_pop"},
                  {"out_data_o", "info_head"}};
    b.blank();
  }

  // Regrouper: pieces to groups; the block's last group holds the rest. Drives grp_* and
  // rg_want; registers rg_active, rg_left.
  void regrouper(vlog::Body& b, StateRegs& regs) const {
    b.comment("Regrouper: pieces to groups; the block's last group holds the rest.");
    regs.add("rg_active", Type::bit(), "1'b0")
        .add("rg_left", Type::bits("BlockLenBits"), "'0", "values of the block not yet grouped");
    b.logic("rg_want", Type::bits("GroupCountBits"));
    b.logic("grp_valid", Type::bit());
    b.logic("grp_ready", Type::bit());
    b.logic("grp_data", Type::bits("GroupSize*ElemWidth"));
    b.logic("grp_last", Type::bit());
    b.assign("rg_want", "!rg_active_q ? '0 : rg_left_q < BlockLenBits'(GroupSize) ? "
                        "GroupCountBits'(rg_left_q) :\n      GroupCountBits'(GroupSize)");
    b.assign("grp_last", "rg_left_q == BlockLenBits'(rg_want)");
    b.assign("len_pop", "!rg_active_q && len_valid");
    auto& r = b.instance(names::kValueRepacker, "u_groups");
    r.params = {{"ElemWidth", "ElemWidth"}, {"InVals", "SpElems"}, {"OutVals", "GroupSize"}};
    r.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "piece_valid"},
               {"in_ready_o", "piece_ready"},
               {"in_data_i", "piece_data"},
               {"in_count_i", "piece_count"},
               {"out_valid_o", "grp_valid"},
               {"out_ready_i", "grp_ready"},
               {"out_want_i", "rg_want"},
               {"out_data_o", "grp_data"}};
    b.blank();
  }

  void compressor(vlog::Body& b) const {
    b.comment("Compressor.");
    b.logic("word_valid", Type::bit());
    b.logic("word_ready", Type::bit());
    b.logic("word", Type::bits("StreamWidth"));
    b.logic("word_last", Type::bit(), "the block's last word");
    auto& c = b.instance(names::kBovedaCompressor, "u_compressor");
    c.params = {{"ElemWidth", "ElemWidth"},
                {"GroupSize", "GroupSize"},
                {"HeaderBits", num(h_.headerBits)},
                {"ContainerBits", num(h_.containerBits)},
                {"ZeroAware", h_.zeroAware ? "1" : "0"},
                {"StreamWidth", "StreamWidth"}};
    c.conns = {
        {"clk_i", "clk_i"},          {"rst_ni", "rst_ni"},          {"in_valid_i", "grp_valid"},
        {"in_ready_o", "grp_ready"}, {"in_data_i", "grp_data"},     {"in_count_i", "rg_want"},
        {"in_last_i", "grp_last"},   {"out_valid_o", "word_valid"}, {"out_ready_i", "word_ready"},
        {"out_data_o", "word"},      {"out_last_o", "word_last"}};
    b.blank();
  }

  // Packer: words into a max_bytes chunk written at stream base + first container *
  // ContainerBytes + offset; after the block's last chunk, its pointer entry. Drives the
  // compressed write queue (cq_*), info_pop and stream_bytes_o; registers pk_*, next_cont,
  // last_epoch.
  void packer(vlog::Body& b, StateRegs& regs) const {
    b.comment("Packer: words into a max_bytes chunk written at stream base + first container * "
              "ContainerBytes + offset; after the block's last chunk, its pointer entry "
              "{first, containers}.");
    regs.add("pk_active", Type::bit(), "1'b0", "info_head is the block being packed")
        .add("pk_first", Type::bits("BlockLenBits"), "'0", "the block's first container")
        .add("pk_off", Type::bits("BlockLenBits"), "'0", "bytes of the block already queued")
        .add("pk_words", Type::bits("ChunkWordBits"), "'0", "words in the chunk buffer")
        .add("pk_full", Type::bit(), "1'b0", "the chunk is ready to be queued")
        .add("pk_last", Type::bit(), "1'b0", "the chunk ends the block")
        .add("pk_ptr", Type::bit(), "1'b0", "the pointer entry is to be queued")
        .add("next_cont", Type::bits("BlockLenBits"), "'0",
             "where the next block of the same stream starts")
        .add("last_epoch", Type::bit(), "1'b0", "epoch of the previous block");
    b.logic("pk_buf_q", Type::bits("DmaDataWidth"), "the chunk being filled");
    b.logic("info_op", Type::bits("OpBits"));
    b.logic("info_epoch", Type::bit());
    b.logic("info_base", Type::bits("AddrBits"));
    b.logic("info_entry", Type::bits("AddrBits"));
    b.assign("{info_op, info_epoch, info_base, info_entry}", "info_head");
    b.logic("chunk_bytes", Type::bits("LenBits"));
    b.logic("chunk_addr", Type::bits("AddrBits"));
    b.logic("block_conts", Type::bits("BlockLenBits"), "containers of the finished block");
    b.assign("chunk_bytes", "LenBits'(BlockLenBits'(pk_words_q) * BlockLenBits'(StreamBytes))");
    b.assign("chunk_addr", "info_base + pk_first_q * BlockLenBits'(ContainerBytes) + pk_off_q");
    b.assign("block_conts", "pk_off_q / BlockLenBits'(ContainerBytes)");
    b.assign("word_ready", "pk_active_q && !pk_full_q && !pk_ptr_q");
    b.logic("cq_push", Type::bit());
    b.logic("cq_ready", Type::bit());
    b.logic("cq_valid", Type::bit());
    b.logic("cq_data", Type::bits("QueueWidth"));
    b.logic("cq_in", Type::bits("QueueWidth"), "{op entry, len, addr, data}");
    b.assign("cq_push", "(pk_full_q || pk_ptr_q) && cq_ready");
    b.assign("cq_in", "pk_ptr_q ? {info_op, LenBits'(PtrEntryBytes), info_entry, "
                      "DmaDataWidth'({block_conts, pk_first_q})} :\n"
                      "      {info_op, chunk_bytes, chunk_addr, pk_buf_q}");
    b.assign("info_pop", "pk_ptr_q && cq_ready");
    auto& f = b.instance(names::kFifo, "u_stream_queue");
    f.params = {{"Width", "QueueWidth"}, {"Depth", "2"}};
    f.conns = {{"clk_i", "clk_i"},
               {"rst_ni", "rst_ni"},
               {"in_valid_i", "pk_full_q || pk_ptr_q"},
               {"in_ready_o", "cq_ready"},
               {"in_data_i", "cq_in"},
               {"out_valid_o", "cq_valid"},
               {"out_ready_i", "dma_req_ready_i"},
               {"out_data_o", "cq_data"}};
    b.assign("stream_bytes_o", "(cq_push && !pk_ptr_q) ? chunk_bytes : '0");
    b.blank();
  }

  void nextState(vlog::Stmts& n) const {
    n.ifElse("len_pop",
             [](vlog::Stmts& s) { s.line("rg_active_d = 1'b1;").line("rg_left_d = len_head;"); })
        .ifElse("grp_valid && grp_ready",
                [](vlog::Stmts& s) {
                  s.line("rg_left_d = rg_left_q - BlockLenBits'(rg_want);");
                  s.ifElse("grp_last", [](vlog::Stmts& t) { t.line("rg_active_d = 1'b0;"); });
                })
        .comment("A new block: its first container.")
        .ifElse("!pk_active_q && info_valid",
                [](vlog::Stmts& s) {
                  s.line("pk_active_d = 1'b1;")
                      .line("pk_first_d = info_epoch != last_epoch_q ? '0 : next_cont_q;")
                      .line("pk_off_d = '0;")
                      .line("pk_words_d = '0;");
                })
        .ifElse("word_valid && word_ready",
                [&](vlog::Stmts& s) {
                  s.line("pk_words_d = pk_words_q + ChunkWordBits'(1);")
                      .line("pk_full_d = word_last || BlockLenBits'(pk_words_q) == "
                            "BlockLenBits'(WordsPerChunk - 1);")
                      .line("pk_last_d = word_last;");
                })
        .ifElse("cq_push && !pk_ptr_q",
                [](vlog::Stmts& s) {
                  s.line("pk_full_d = 1'b0;")
                      .line("pk_words_d = '0;")
                      .line("pk_off_d = pk_off_q + BlockLenBits'(chunk_bytes);")
                      .line("pk_ptr_d = pk_last_q;");
                })
        .ifElse("cq_push && pk_ptr_q", [](vlog::Stmts& s) {
          s.line("pk_ptr_d = 1'b0;")
              .line("pk_active_d = 1'b0;")
              .line("next_cont_d = pk_first_q + block_conts;")
              .line("last_epoch_d = info_epoch;");
        });
  }

  AccelParams p_;
  BovedaHwParams h_;
  PackedLayout st_;
};

} // namespace

void addCompressedStorePath(vlog::Body& b, const AccelParams& p, const BovedaHwParams& h) {
  CompressedStorePath(p, h).build(b);
}

} // namespace by::hw
