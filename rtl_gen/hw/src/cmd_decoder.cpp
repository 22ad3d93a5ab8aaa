// The command decoder: checks every command against docs/isa.md, keeps the CONFIG state (so
// that each operation leaves here with its configuration applied and the controllers never
// see CONFIG commands), pairs PRELOADs with COMPUTEs, computes the local row ranges each
// operation reads and writes for the reservation station, runs COUNTER_OP against the counter
// file, and reports rejected commands. One command per cycle; the field positions come from
// the ISA table.
#include "cmd_decoder.h"

#include "hw/isa.h"
#include "op_layouts.h"
#include "text_util.h"

#include <stdexcept>

namespace by::hw {

using vlog::Type;

namespace {

// "cmd_rs2_i[47:32]" for a field of a command's operand.
std::string field(const std::string& command, const std::string& reg, const std::string& name) {
  const isa::Command& c = isa::command(command);
  const isa::Field& f = reg == "rs1" ? c.rs1Field(name) : c.rs2Field(name);
  const std::string vec = "cmd_" + reg + "_i";
  if (f.width == 1)
    return vec + "[" + num(f.lsb) + "]";
  return vec + "[" + num(f.lsb + f.width - 1) + ":" + num(f.lsb) + "]";
}

// Bits [lsb+hi : lsb+lo] of a field (a sub-range of it).
std::string fieldBits(const std::string& command, const std::string& reg, const std::string& name,
                      int hi, int lo) {
  const isa::Command& c = isa::command(command);
  const isa::Field& f = reg == "rs1" ? c.rs1Field(name) : c.rs2Field(name);
  return "cmd_" + reg + "_i[" + num(f.lsb + hi) + ":" + num(f.lsb + lo) + "]";
}

std::string errorConst(const std::string& name) {
  std::string s = "Err";
  bool up = true;
  for (char ch : name) {
    if (ch == '_') {
      up = true;
      continue;
    }
    s += up ? ch : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    up = false;
  }
  return s;
}

} // namespace

vlog::Module CmdDecoderGenerator::build() const {
  const AccelParams& p = p_;
  const PackedLayout ld = loadOpLayout(p), st = storeOpLayout(p), ex = execOpLayout(p);
  const PackedLayout range = rangeLayout(p);
  const int payload = opPayloadWidth(p);
  const int rb = p.localRowBits;
  const bool boveda = p.config.boveda.enabled;
  const bool td = p.config.tensordash.enabled;
  const bool onChip = boveda && p.config.boveda.onChip;

  vlog::Module m(names::kCmdDecoder,
                 "Command decoder: validates commands (docs/isa.md), applies the CONFIG state, "
                 "pairs PRELOAD with COMPUTE, computes hazard ranges, executes COUNTER_OP and "
                 "FLUSH, and reports rejected commands. Operation layouts: load {" +
                     ld.describe() + "}; store {" + st.describe() + "}; execute {" + ex.describe() +
                     "}; range {" + range.describe() + "}.");
  m.clockAndReset();
  m.portGroup("Command in (from the command queue).");
  m.input("cmd_valid_i", Type::bit());
  m.output("cmd_ready_o", Type::bit());
  m.input("cmd_funct_i", Type::bits(7));
  m.input("cmd_rs1_i", Type::bits(64));
  m.input("cmd_rs2_i", Type::bits(64));
  m.input("cmd_xd_i", Type::bit(), "RoCC: the instruction writes rd (expects a response)");
  m.input("cmd_mmio_i", Type::bit(), "the command came through the control registers");
  m.portGroup("Operation out (to the reservation station).");
  m.output("op_valid_o", Type::bit());
  m.input("op_ready_i", Type::bit());
  m.output("op_kind_o", Type::bits(2), "0 load, 1 store, 2 execute");
  m.output("op_payload_o", Type::bits(payload));
  m.output("op_ranges_o", Type::bits(kRangesPerOp * range.width()),
           "3 read ranges, then the write range");
  m.portGroup("Counter file (COUNTER_OP).");
  m.output("ctr_valid_o", Type::bit(), "apply rs1 this cycle");
  m.output("ctr_rs1_o", Type::bits(32));
  m.input("ctr_value_i", Type::bits(32), "the selected counter, before this command's effect");
  m.portGroup("Response (COUNTER_OP): to the RoCC port, or the RESP registers for MMIO.");
  m.output("resp_valid_o", Type::bit());
  m.input("resp_ready_i", Type::bit());
  m.output("resp_mmio_o", Type::bit());
  m.output("resp_data_o", Type::bits(64));
  m.portGroup("Rejected commands.");
  m.output("err_valid_o", Type::bit(), "one pulse per rejected command");
  m.output("err_code_o", Type::bits(8));
  m.output("err_funct_o", Type::bits(7));

  vlog::Body& b = m.body();
  b.localParam("Dim", num(p.dim));
  b.localParam("DimLog2", num(config::log2Exact(p.dim)));
  b.localParam("SpRows", num(p.derived.spRows));
  b.localParam("AccRows", num(p.derived.accRows));
  b.localParam("ElemBytes", num(p.iw / 8));
  b.localParam("AccBytes", num(p.aw / 8));
  b.localParam("AccWidth", num(p.aw));
  b.localParam("SpElems", num(p.spElems), "elem_t per scratchpad row: DIM * lanes");
  b.localParam("SpElemsLog2", num(config::log2Exact(p.spElems)));
  b.localParam("MaxColsSp", num(p.maxBlockLen * p.spElems), "MAX_BLOCK_LEN * DIM * lanes");
  b.localParam("MaxColsAccNarrow", num(p.maxBlockLen * p.dim),
               "MAX_BLOCK_LEN * DIM: accumulator moves of elem_t");
  b.localParam("MaxColsAcc", num(p.maxBlockLenAcc * p.dim), "MAX_BLOCK_LEN_ACC * DIM");
  for (const isa::ErrorCode& e : isa::errorCodes())
    b.localParam(errorConst(e.name), Type::bits(8), "8'd" + num(e.code), e.name);
  b.blank();

  // ---------------------------------------------------------------- configuration state
  b.comment("Configuration state (reset values per docs/isa.md).");
  b.logic("ex_ws_q", Type::bit());
  b.logic("ex_relu_q", Type::bit());
  b.logic("ex_shift_q", Type::bits(p.shiftBits));
  b.logic("ex_a_stride_q", Type::bits(16));
  b.logic("ex_c_stride_q", Type::bits(16));
  b.logic("stationary_q", Type::bit(), "the array holds stationary data from this config");
  if (td) {
    b.logic("ex_td_off_q", Type::bit(), "TensorDash: OS computes as dense beats");
    b.logic("ex_td_side_q", Type::bit(), "TensorDash: the scheduled operand (0 A, 1 B)");
  }
  b.logicArray("ld_stride_q", Type::bits(32), "3", "per mvin channel", "mem2reg");
  b.logicArray("ld_block_stride_q", Type::bits(16), "3", "", "mem2reg");
  b.logic("ld_shrink_q", Type::bits(3));
  if (boveda) {
    b.logic("ld_comp_q", Type::bits(3), "Boveda: the channel's MVINs are compressed");
    b.logic("ptr_inval_q", Type::bit(),
            "Boveda: a CONFIG_LD, MVOUT or FLUSH since the last compressed MVIN (whose lookup "
            "then invalidates the loader's pointer lines)");
    b.logic("st_comp_q", Type::bit(), "Boveda: MVOUTs are compressed");
    b.logic("st_epoch_q", Type::bit(), "toggled by every compressed CONFIG_ST (a new stream)");
  }
  b.logic("st_stride_q", Type::bits(32));
  b.logic("st_scale_q", Type::bits(32));
  b.logic("st_relu_q", Type::bit());
  b.logic("st_pool_q", Type::bits(48),
          "{ocols, orows, pocols, porows, pool_out_dim, lpad, "
          "upad, pool_size, pool_stride}");
  b.logic("pre_valid_q", Type::bit(), "a PRELOAD waits for its COMPUTE");
  b.logic("pre_rs1_q", Type::bits(64));
  b.logic("pre_rs2_q", Type::bits(64));
  b.logic("resp_valid_q", Type::bit());
  b.logic("resp_mmio_q", Type::bit());
  b.logic("resp_data_q", Type::bits(64));
  b.blank();

  // ---------------------------------------------------------------- command class
  b.comment("What the command is.");
  b.logic("cfg_type", Type::bits(2));
  b.assign("cfg_type", field("CONFIG_EX", "rs1", "cmd_type"));
  struct Is {
    const char* sig;
    std::string cond;
  };
  const std::vector<Is> is = {
      {"is_config_ex", "cmd_funct_i == 7'd0 && cfg_type == 2'd0"},
      {"is_config_ld", "cmd_funct_i == 7'd0 && cfg_type == 2'd1"},
      {"is_config_st", "cmd_funct_i == 7'd0 && cfg_type == 2'd2"},
      {"is_config_bad", "cmd_funct_i == 7'd0 && cfg_type == 2'd3"},
      {"is_mvin", "cmd_funct_i == 7'd" + num(isa::kMvin) + " || cmd_funct_i == 7'd" +
                      num(isa::kMvin2) + " || cmd_funct_i == 7'd" + num(isa::kMvin3)},
      {"is_mvout", "cmd_funct_i == 7'd" + num(isa::kMvout)},
      {"is_preload", "cmd_funct_i == 7'd" + num(isa::kPreload)},
      {"is_compute", "cmd_funct_i == 7'd" + num(isa::kComputePreloaded) + " || cmd_funct_i == 7'd" +
                         num(isa::kComputeAccumulated)},
      {"is_flush", "cmd_funct_i == 7'd" + num(isa::kFlush)},
      {"is_counter", "cmd_funct_i == 7'd" + num(isa::kCounterOp)},
  };
  for (const Is& i : is) {
    b.logic(i.sig, Type::bit());
    b.assign(i.sig, i.cond);
  }
  // DECOMPRESS exists only on-chip; elsewhere every use of is_dc is left out of the RTL.
  const std::string mvinOrDc = onChip ? "(is_mvin || is_dc)" : "is_mvin";
  if (onChip) {
    b.logic("is_dc", Type::bit());
    b.assign("is_dc", "cmd_funct_i == 7'd" + num(isa::kDecompress));
  }
  b.logic("is_known", Type::bit());
  b.assign("is_known", std::string("cmd_funct_i == 7'd0 || is_mvin || is_mvout || is_preload || "
                                   "is_compute || is_flush || is_counter") +
                           (onChip ? " || is_dc" : ""));
  b.blank();

  // ---------------------------------------------------------------- local operands
  b.comment("Local operands: {name}_garbage, _acc, _accumulate, _full, _row, _rows, _cols, "
            "_flags_bad (accumulate/full on a scratchpad address), _mem_rows.");
  auto local = [&](const std::string& n, const std::string& addr, const std::string& rows,
                   const std::string& cols) {
    b.logic(n + "_addr", Type::bits(32));
    b.logic(n + "_garbage", Type::bit());
    b.logic(n + "_acc", Type::bit());
    b.logic(n + "_accumulate", Type::bit());
    b.logic(n + "_full", Type::bit());
    b.logic(n + "_row", Type::bits(29));
    b.logic(n + "_rows", Type::bits(16));
    b.logic(n + "_cols", Type::bits(16));
    b.logic(n + "_flags_bad", Type::bit());
    b.logic(n + "_rows_m1", Type::bits(16), "rows - 1");
    b.logic(n + "_mem_rows", Type::bits(30));
    b.assign(n + "_addr", addr);
    b.assign(n + "_garbage", n + "_addr == 32'hffffffff");
    b.assign(n + "_acc", n + "_addr[31]");
    b.assign(n + "_accumulate", n + "_addr[30]");
    b.assign(n + "_full", n + "_addr[29]");
    b.assign(n + "_row", n + "_addr[28:0]");
    b.assign(n + "_rows", rows);
    b.assign(n + "_cols", cols);
    b.assign(n + "_flags_bad", "!" + n + "_acc && (" + n + "_accumulate || " + n + "_full)");
    b.assign(n + "_rows_m1", n + "_rows - 16'd1");
    b.assign(n + "_mem_rows", n + "_acc ? 30'(AccRows) : 30'(SpRows)");
  };
  local("mv", field("MVIN", "rs2", "local_addr"), field("MVIN", "rs2", "rows"),
        field("MVIN", "rs2", "cols"));
  // PRELOAD operands come from the current command (checked at PRELOAD time) or from the
  // pending PRELOAD (used at COMPUTE time).
  local("pbd", field("PRELOAD", "rs1", "local_addr"), field("PRELOAD", "rs1", "rows"),
        field("PRELOAD", "rs1", "cols"));
  local("pc", field("PRELOAD", "rs2", "local_addr"), field("PRELOAD", "rs2", "rows"),
        field("PRELOAD", "rs2", "cols"));
  local("bd", "pre_rs1_q[31:0]", "pre_rs1_q[63:48]", "pre_rs1_q[47:32]");
  local("c", "pre_rs2_q[31:0]", "pre_rs2_q[63:48]", "pre_rs2_q[47:32]");
  local("a", field("COMPUTE_PRELOADED", "rs1", "local_addr"),
        field("COMPUTE_PRELOADED", "rs1", "rows"), field("COMPUTE_PRELOADED", "rs1", "cols"));
  local("d", field("COMPUTE_PRELOADED", "rs2", "local_addr"),
        field("COMPUTE_PRELOADED", "rs2", "rows"), field("COMPUTE_PRELOADED", "rs2", "cols"));
  b.logic("dram", Type::bits(64));
  b.assign("dram", field("MVIN", "rs1", "dram_addr"));
  b.blank();

  // ---------------------------------------------------------------- MVIN
  b.comment("MVIN / MVIN2 / MVIN3.");
  b.logic("ld_ch", Type::bits(2), "mvin channel");
  b.logic("ld_stride", Type::bits(32));
  b.logic("ld_bstride", Type::bits(16));
  b.logic("ld_shrink", Type::bit());
  b.logic("ld_elem_sized", Type::bit(), "DRAM elements are elem_t");
  b.logic("mv_blocks", Type::bits(17), "column blocks of one local row (DIM*lanes or DIM)");
  b.logic("mv_blocks_m1", Type::bits(17));
  b.logic("ld_end", Type::bits(48), "one past the last local row written");
  b.logic("ld_span", Type::bits(64), "one past the last DRAM byte read, minus dram");
  b.logic("ld_err", Type::bits(8));
  b.assign("ld_ch", (onChip ? "(cmd_funct_i == 7'd" + num(isa::kMvin) + " || is_dc)"
                            : "cmd_funct_i == 7'd" + num(isa::kMvin)) +
                        " ? 2'd0 : cmd_funct_i == 7'd" + num(isa::kMvin2) + " ? 2'd1 : 2'd2");
  b.assign("ld_stride", "ld_stride_q[ld_ch]");
  b.assign("ld_bstride", "ld_block_stride_q[ld_ch]");
  b.assign("ld_shrink", "ld_shrink_q[ld_ch]");
  b.assign("ld_elem_sized", "!mv_acc || ld_shrink");
  b.assign("mv_blocks", "mv_acc ? (17'(mv_cols) + 17'(Dim-1)) >> DimLog2 :\n"
                        "      (17'(mv_cols) + 17'(SpElems-1)) >> SpElemsLog2");
  b.assign("mv_blocks_m1", "mv_blocks - 17'd1");
  b.assign("ld_end", "48'(mv_row) + 48'(mv_blocks_m1) * 48'(ld_bstride) + 48'(mv_rows)");
  b.assign("ld_span", "64'(mv_rows_m1) * 64'(ld_stride) + "
                      "64'(mv_cols) * (ld_elem_sized ? 64'(ElemBytes) : 64'(AccBytes))");
  b.logic("ld_comp", Type::bit(), "a compressed MVIN (address 0 writes zeros as usual)");
  b.assign("ld_comp",
           boveda ? "ld_comp_q[ld_ch] && dram != '0" + std::string(onChip ? " && !is_dc" : "")
                  : "1'b0");
  b.comment("A compressed MVIN reads its 8-byte pointer entry at dram; the rest of its stream "
            "is checked when the entry has been read.");
  b.logic("ld_dma_bad", Type::bit());
  b.assign("ld_dma_bad", "dram[63:32] != '0 || (ld_comp ? 65'(dram) + 65'd8 > 65'h100000000 :\n"
                         "      (dram != '0 && 65'(dram) + 65'(ld_span) > 65'h100000000))");
  b.assign("ld_err",
           "(ld_comp && mv_acc && !mv_garbage) ? ErrUnsupported :\n"
           "      (mv_garbage || mv_full || mv_flags_bad) ? ErrBadLocalAddr :\n"
           "      (mv_rows == '0 || mv_cols == '0 ||\n"
           "       32'(mv_cols) > (!mv_acc ? 32'(MaxColsSp) :\n"
           "                       ld_shrink ? 32'(MaxColsAccNarrow) : 32'(MaxColsAcc)) ||\n"
           "       (mv_blocks > 17'd1 && ld_bstride < mv_rows)) ? ErrBadSize :\n"
           "      (ld_end > 48'(mv_mem_rows)) ? ErrLocalRange :\n"
           "      ld_dma_bad ? ErrDmaError : ErrNone");
  b.blank();

  // ---------------------------------------------------------------- DECOMPRESS
  if (onChip) {
    // Its destination operand has MVIN's layout (the mv_* signals) and channel 0's block stride.
    for (const char* f : {"local_addr", "rows", "cols"})
      if (field("DECOMPRESS", "rs2", f) != field("MVIN", "rs2", f))
        throw std::logic_error("DECOMPRESS rs2 must have MVIN's operand layout");
    const config::BovedaConfig& bc = p.config.boveda;
    const int rowsPerContainer = bc.containerBits / (p.dim * p.iw);
    const int maxGroupBits =
        bc.headerBits + (bc.zeroAware ? bc.groupSize : 0) + bc.groupSize * p.iw;
    b.comment("DECOMPRESS (Boveda on-chip form): source container rows and checks; the "
              "destination is checked as a compressed MVIN's, and may not overlap the source.");
    b.logic("dc_src", Type::bits(32));
    b.logic("dc_containers", Type::bits(16));
    b.logic("dc_src_row", Type::bits(29));
    b.logic("dc_src_end", Type::bits(48), "one past the last container row read");
    b.logic("dc_max", Type::bits(48), "most containers a block of rows*cols values can need");
    b.logic("dc_err", Type::bits(8));
    b.assign("dc_src", field("DECOMPRESS", "rs1", "src_addr"));
    b.assign("dc_containers", field("DECOMPRESS", "rs1", "containers"));
    b.assign("dc_src_row", "dc_src[28:0]");
    b.assign("dc_src_end", "48'(dc_src_row) + 48'(dc_containers) * 48'd" + num(rowsPerContainer));
    b.assign("dc_max", "((48'(mv_rows) * 48'(mv_cols) + 48'd" + num(bc.groupSize - 1) + ") >> " +
                           num(config::log2Exact(bc.groupSize)) + ") * 48'd" + num(maxGroupBits) +
                           " + 48'd" + num(bc.containerBits - 1) + " >> " +
                           num(config::log2Exact(bc.containerBits)));
    b.assign("dc_err", "(mv_acc && !mv_garbage) ? ErrUnsupported :\n"
                       "      (dc_src[31:29] != '0 || mv_garbage || mv_full || mv_flags_bad) ? "
                       "ErrBadLocalAddr :\n"
                       "      (mv_rows == '0 || mv_cols == '0 || 32'(mv_cols) > 32'(MaxColsSp) ||\n"
                       "       (mv_blocks > 17'd1 && ld_bstride < mv_rows) ||\n"
                       "       dc_containers == '0 || 48'(dc_containers) > dc_max) ? ErrBadSize :\n"
                       "      (ld_end > 48'(SpRows) || dc_src_end > 48'(SpRows) ||\n"
                       "       (48'(dc_src_row) < ld_end && 48'(mv_row) < dc_src_end)) ? "
                       "ErrLocalRange : ErrNone");
    b.blank();
  }

  // ---------------------------------------------------------------- MVOUT
  b.comment("MVOUT (mode 0: rows, 1: max-pool, 2: strided 1-D).");
  b.logic("st_pool_stride", Type::bits(2));
  b.logic("st_pool_size", Type::bits(2));
  b.logic("st_pool_out_dim", Type::bits(8));
  b.logic("st_porows", Type::bits(8));
  b.logic("st_pocols", Type::bits(8));
  b.logic("st_orows", Type::bits(8));
  b.logic("st_ocols", Type::bits(8));
  b.assign("st_pool_stride", "st_pool_q[1:0]");
  b.assign("st_pool_size", "st_pool_q[3:2]");
  b.assign("st_pool_out_dim", "st_pool_q[15:8]");
  b.assign("st_porows", "st_pool_q[23:16]");
  b.assign("st_pocols", "st_pool_q[31:24]");
  b.assign("st_orows", "st_pool_q[39:32]");
  b.assign("st_ocols", "st_pool_q[47:40]");
  b.logic("st_mode", Type::bits(2));
  b.logic("st_raw", Type::bit(), "raw acc_t values leave");
  b.logic("st_end", Type::bits(48));
  b.logic("st_last_pixel", Type::bits(17), "DRAM pixel index of the last pooled / 1-D row");
  b.logic("st_span", Type::bits(64));
  b.logic("st_err", Type::bits(8));
  b.assign("st_mode", "st_pool_stride != '0 ? 2'd1 : st_pool_size != '0 ? 2'd2 : 2'd0");
  b.assign("st_raw", "mv_acc && mv_full");
  b.assign("st_end", "st_mode == 2'd0 ? 48'(mv_row) + 48'(mv_blocks_m1) * 48'(Dim) + "
                     "48'(mv_rows) :\n"
                     "                48'(mv_row) + 48'(st_orows) * 48'(st_ocols)");
  b.logic("st_last_row", Type::bits(8), "last pooled / image row");
  b.logic("st_last_col", Type::bits(8), "last pooled / image column");
  b.assign("st_last_row", "(st_mode == 2'd1 ? st_porows : st_orows) - 8'd1");
  b.assign("st_last_col", "(st_mode == 2'd1 ? st_pocols : st_ocols) - 8'd1");
  b.assign("st_last_pixel", "17'(st_last_row) * 17'(st_pool_out_dim) + 17'(st_last_col)");
  b.assign("st_span", "(st_mode == 2'd0 ? 64'(mv_rows_m1) : 64'(st_last_pixel)) * "
                      "64'(st_stride_q) +\n"
                      "      64'(mv_cols) * (st_raw ? 64'(AccBytes) : 64'(ElemBytes))");
  b.logic("st_comp", Type::bit(), "a compressed MVOUT");
  b.assign("st_comp", boveda ? "st_comp_q" : "1'b0");
  b.logic("st_dma_bad", Type::bit());
  b.assign("st_dma_bad", "dram[63:32] != '0 || 65'(dram) + (st_comp ? 65'd8 : 65'(st_span)) > "
                         "65'h100000000");
  b.assign("st_err",
           "(st_comp && (st_mode != 2'd0 || (st_raw && !mv_garbage))) ? ErrUnsupported :\n"
           "      (mv_garbage || mv_flags_bad) ? ErrBadLocalAddr :\n"
           "      (st_mode == 2'd1 && (!mv_acc || mv_full || st_pool_size == '0 ||\n"
           "                           st_porows == '0 || st_pocols == '0)) ? ErrBadPool :\n"
           "      (st_mode != 2'd0 && (32'(mv_cols) > 32'(Dim) || st_orows == '0 ||\n"
           "                           st_ocols == '0)) ? ErrBadPool :\n"
           "      (mv_cols == '0 || (st_mode == 2'd0 && (mv_rows == '0 ||\n"
           "       32'(mv_cols) > (st_raw ? 32'(Dim) : mv_acc ? 32'(MaxColsAccNarrow) :\n"
           "                       32'(MaxColsSp))))) ? ErrBadSize :\n"
           "      (st_end > 48'(mv_mem_rows)) ? ErrLocalRange :\n"
           "      st_dma_bad ? ErrDmaError : ErrNone");
  b.blank();

  // ---------------------------------------------------------------- CONFIG
  b.comment("CONFIG_EX / CONFIG_LD / CONFIG_ST.");
  b.logic("cex_only_strides", Type::bit());
  b.logic("cex_ws", Type::bit());
  b.logic("cex_err", Type::bits(8));
  b.logic("cld_err", Type::bits(8));
  b.logic("cst_err", Type::bits(8));
  b.assign("cex_only_strides", field("CONFIG_EX", "rs1", "set_only_strides"));
  b.assign("cex_ws", field("CONFIG_EX", "rs1", "dataflow"));
  b.assign("cex_err", "(!cex_only_strides && ((cex_ws && !" +
                          std::string(p.array.hasWs ? "1'b1" : "1'b0") + ") || (!cex_ws && !" +
                          (p.array.hasOs ? "1'b1" : "1'b0") +
                          ") ||\n"
                          "        " +
                          field("CONFIG_EX", "rs1", "activation") + " > 2'd1" +
                          (td ? "" : " || " + field("CONFIG_EX", "rs1", "td_side")) +
                          ")) ||\n      " + field("CONFIG_EX", "rs1", "a_transpose") + " || " +
                          field("CONFIG_EX", "rs1", "b_transpose") +
                          " ? ErrUnsupported :\n"
                          "      (!cex_only_strides && " +
                          field("CONFIG_EX", "rs2", "in_shift") +
                          " >= 32'(AccWidth)) ? ErrBadShift : ErrNone");
  b.assign("cld_err", "(" + field("CONFIG_LD", "rs1", "scale") + " != '0 && " +
                          field("CONFIG_LD", "rs1", "scale") + " != 32'h3f800000) ||\n      " +
                          field("CONFIG_LD", "rs1", "pixel_repeats") + " > 8'd1 || " +
                          field("CONFIG_LD", "rs1", "state_id") + " == 2'd3" +
                          (boveda ? "" : " || " + field("CONFIG_LD", "rs1", "compressed")) +
                          " ? ErrUnsupported :\n"
                          "      " +
                          field("CONFIG_LD", "rs2", "stride") +
                          " > 64'hffffffff ? ErrBadSize : ErrNone");
  b.assign("cst_err", field("CONFIG_ST", "rs1", "activation") + " > 2'd1" +
                          (boveda ? "" : " || " + field("CONFIG_ST", "rs1", "compressed")) +
                          " ? ErrUnsupported : ErrNone");
  b.blank();

  // ---------------------------------------------------------------- PRELOAD / COMPUTE
  b.comment("PRELOAD (checked when it arrives) and COMPUTE (checked with its PRELOAD).");
  // Rows 1..DIM; columns 1..maxCols: DIM*lanes for A and B (docs/isa.md, "Vector PEs": a
  // reduction row, or a lane-packed row of B), DIM for D and C.
  auto dimOk = [](const std::string& n, const std::string& maxCols) {
    return "(" + n + "_rows != '0 && 32'(" + n + "_rows) <= 32'(Dim) && " + n +
           "_cols != '0 && 32'(" + n + "_cols) <= 32'(" + maxCols + "))";
  };
  auto rangeEnd = [](const std::string& n, const std::string& stride) {
    return "48'(" + n + "_row) + 48'(" + n + "_rows_m1) * 48'(" + stride + ") + 48'd1";
  };
  b.logic("pre_err", Type::bits(8));
  b.logic("pbd_end", Type::bits(48));
  b.logic("pc_end", Type::bits(48));
  b.assign("pbd_end", rangeEnd("pbd", "16'd1"));
  b.assign("pc_end", rangeEnd("pc", "ex_c_stride_q"));
  b.assign("pre_err",
           "(pbd_flags_bad || (pbd_acc && !pbd_garbage && (pbd_accumulate || pbd_full || "
           "ex_ws_q)) ||\n"
           "       pc_flags_bad) ? ErrBadLocalAddr :\n"
           "      !(" +
               dimOk("pbd", "ex_ws_q ? SpElems : Dim") + " && " + dimOk("pc", "Dim") +
               ") ? ErrBadSize :\n"
               "      ((!pbd_garbage && pbd_end > 48'(pbd_mem_rows)) ||\n"
               "       (!pc_garbage && pc_end > 48'(pc_mem_rows))) ? ErrLocalRange : ErrNone");
  b.logic("cmp_flip", Type::bit());
  b.logic("cmp_err", Type::bits(8));
  b.logic("a_end", Type::bits(48));
  b.logic("d_end", Type::bits(48));
  b.logic("bd_end", Type::bits(48));
  b.logic("c_end", Type::bits(48));
  b.assign("cmp_flip", "cmd_funct_i == 7'd" + num(isa::kComputePreloaded));
  b.assign("a_end", rangeEnd("a", "ex_a_stride_q"));
  b.assign("d_end", rangeEnd("d", "16'd1"));
  b.assign("bd_end", rangeEnd("bd", "16'd1"));
  b.assign("c_end", rangeEnd("c", "ex_c_stride_q"));
  b.assign("cmp_err", "(!pre_valid_q || (!cmp_flip && !stationary_q)) ? ErrUnpaired :\n"
                      "      (a_flags_bad || (a_acc && !a_garbage) || d_flags_bad ||\n"
                      "       (d_acc && !d_garbage && (d_accumulate || d_full || !ex_ws_q))) ? "
                      "ErrBadLocalAddr :\n"
                      "      (!(" +
                          dimOk("a", "SpElems") + " && " + dimOk("d", "ex_ws_q ? Dim : SpElems") +
                          ") ||\n"
                          "       (ex_ws_q && c_rows > a_rows)) ? ErrBadSize :\n"
                          "      ((!a_garbage && a_end > 48'(SpRows)) || (!d_garbage && d_end > "
                          "48'(d_mem_rows))) ? ErrLocalRange :\n"
                          "      ErrNone");
  b.blank();

  // ---------------------------------------------------------------- outcome
  b.comment("The outcome of the command at the head: an error, an operation for the "
            "reservation station, or a local action. A pending PRELOAD followed by anything "
            "but a COMPUTE is rejected first (the command itself waits a cycle).");
  b.logic("dangling", Type::bit(), "reject the pending PRELOAD before this command");
  b.logic("err", Type::bits(8));
  b.logic("needs_rs", Type::bit());
  b.logic("needs_resp", Type::bit());
  b.logic("accept", Type::bit(), "the command leaves the queue this cycle");
  b.assign("dangling", "cmd_valid_i && pre_valid_q && !is_compute");
  b.assign("err", "!is_known ? ErrUnknownFunct :\n"
                  "      is_config_bad ? ErrBadConfigType :\n"
                  "      is_config_ex ? cex_err : is_config_ld ? cld_err : is_config_st ? "
                  "cst_err :\n"
                  "      is_mvin ? ld_err : " +
                      std::string(onChip ? "is_dc ? dc_err : " : "") +
                      "is_mvout ? st_err : is_preload ? pre_err :\n"
                      "      is_compute ? cmp_err : ErrNone");
  b.assign("needs_rs", "err == ErrNone && (is_mvin || " + std::string(onChip ? "is_dc || " : "") +
                           "is_mvout || is_compute)");
  b.comment("A RoCC command that writes rd always gets a response (a core waits for it), 0 "
            "unless it is a COUNTER_OP; a COUNTER_OP pushed through the registers always "
            "leaves its result in RESP_*.");
  b.assign("needs_resp", "cmd_xd_i || (cmd_mmio_i && is_counter)");
  b.assign("accept", "cmd_valid_i && !dangling && (needs_rs ? op_ready_i :\n"
                     "      needs_resp ? !resp_valid_q : 1'b1)");
  b.assign("cmd_ready_o", "accept");
  b.assign("ctr_valid_o", "accept && is_counter");
  b.assign("ctr_rs1_o", "cmd_rs1_i[31:0]");
  b.blank();

  // ---------------------------------------------------------------- operation out
  b.comment("Operations with their configuration applied.");
  b.logic("ld_payload", Type::bits(ld.width()));
  b.logic("st_payload", Type::bits(st.width()));
  b.logic("ex_payload", Type::bits(ex.width()));
  std::map<std::string, std::string> ldv = {{"dram", "dram[31:0]"},
                                            {"zero", "dram == '0"},
                                            {"acc", "mv_acc"},
                                            {"accumulate", "mv_accumulate"},
                                            {"shrink", "ld_shrink"},
                                            {"row", num(rb) + "'(mv_row)"},
                                            {"rows", "mv_rows"},
                                            {"cols", "mv_cols"},
                                            {"blocks", "mv_blocks[7:0]"},
                                            {"stride", "ld_stride"},
                                            {"block_stride", "ld_bstride"},
                                            {"channel", "ld_ch"}};
  std::map<std::string, std::string> stv = {
      {"dram", "dram[31:0]"},        {"acc", "mv_acc"},
      {"full", "mv_full"},           {"row", num(rb) + "'(mv_row)"},
      {"rows", "mv_rows"},           {"cols", "mv_cols"},
      {"blocks", "mv_blocks[7:0]"},  {"stride", "st_stride_q"},
      {"scale", "st_scale_q"},       {"relu", "st_relu_q"},
      {"mode", "st_mode"},           {"pool_stride", "st_pool_stride"},
      {"pool_size", "st_pool_size"}, {"upad", "st_pool_q[5:4]"},
      {"lpad", "st_pool_q[7:6]"},    {"pool_out_dim", "st_pool_out_dim"},
      {"porows", "st_porows"},       {"pocols", "st_pocols"},
      {"orows", "st_orows"},         {"ocols", "st_ocols"}};
  if (boveda) {
    ldv["compressed"] = "ld_comp";
    ldv["ptr_inval"] = "ptr_inval_q";
    if (onChip) {
      ldv["onchip"] = "is_dc";
      ldv["channel"] = "is_dc ? 2'd3 : ld_ch";
      ldv["dram"] = "is_dc ? 32'(dc_src_row) : dram[31:0]";
      ldv["zero"] = "dram == '0 && !is_dc";
      ldv["stride"] = "is_dc ? 32'(dc_containers) : ld_stride";
    }
    stv["compressed"] = "st_comp";
    stv["epoch"] = "st_epoch_q";
  }
  b.assign("ld_payload", ld.pack(ldv));
  b.assign("st_payload", st.pack(stv));
  std::map<std::string, std::string> exv = {{"flip", "cmp_flip"},
                                            {"ws", "ex_ws_q"},
                                            {"relu", "ex_relu_q"},
                                            {"shift", "ex_shift_q"},
                                            {"a_stride", "ex_a_stride_q"},
                                            {"c_stride", "ex_c_stride_q"},
                                            {"c_accumulate", "c_accumulate"}};
  if (td) {
    exv["td_off"] = "ex_td_off_q";
    exv["td_side"] = "ex_td_side_q";
  }
  for (const char* op : {"a", "bd", "d", "c"}) {
    const std::string o = op;
    exv[o + "_garbage"] = o + "_garbage";
    exv[o + "_acc"] = o + "_acc";
    exv[o + "_row"] = num(rb) + "'(" + o + "_row)";
    exv[o + "_rows"] = num(p.dimBits) + "'(" + o + "_rows)";
    exv[o + "_cols"] = num(p.spElemBits) + "'(" + o + "_cols)";
  }
  b.assign("ex_payload", ex.pack(exv));
  b.assign("op_valid_o", "cmd_valid_i && !dangling && needs_rs");
  b.assign("op_kind_o", mvinOrDc + " ? 2'd" + num(kKindLoad) + " : is_mvout ? 2'd" +
                            num(kKindStore) + " : 2'd" + num(kKindExec));
  b.assign("op_payload_o", mvinOrDc + " ? " + num(payload) + "'(ld_payload) : is_mvout ? " +
                               num(payload) + "'(st_payload) : " + num(payload) + "'(ex_payload)");
  auto rangeVal = [&](const std::string& valid, const std::string& acc, const std::string& start,
                      const std::string& end) {
    return range.pack({{"valid", valid},
                       {"acc", acc},
                       {"start", num(rb) + "'(" + start + ")"},
                       {"end", num(rb) + "'(" + end + ")"}});
  };
  const std::string none = num(range.width()) + "'d0";
  b.logic("ranges_ld", Type::bits(kRangesPerOp * range.width()));
  b.logic("ranges_st", Type::bits(kRangesPerOp * range.width()));
  b.logic("ranges_ex", Type::bits(kRangesPerOp * range.width()));
  b.assign("ranges_ld",
           "{" + rangeVal("1'b1", "mv_acc", "mv_row", "ld_end") + ", " + none + ", " + none + ", " +
               (onChip ? rangeVal("is_dc", "1'b0", "dc_src_row", "dc_src_end") : none) + "}");
  b.assign("ranges_st", "{" + none + ", " + none + ", " + none + ", " +
                            rangeVal("1'b1", "mv_acc", "mv_row", "st_end") + "}");
  b.assign("ranges_ex",
           "{" + rangeVal("!c_garbage", "c_acc", "c_row", "c_end") + ",\n" +
               "                      " + rangeVal("!d_garbage", "d_acc", "d_row", "d_end") +
               ",\n" + "                      " +
               rangeVal("!bd_garbage", "bd_acc", "bd_row", "bd_end") + ",\n" +
               "                      " + rangeVal("!a_garbage", "1'b0", "a_row", "a_end") + "}");
  b.assign("op_ranges_o", mvinOrDc + " ? ranges_ld : is_mvout ? ranges_st : ranges_ex");
  b.blank();

  // ---------------------------------------------------------------- errors and responses
  b.assign("err_valid_o", "(cmd_valid_i && dangling) || (accept && err != ErrNone)");
  b.assign("err_code_o", "dangling ? ErrUnpaired : err");
  b.assign("err_funct_o", "dangling ? 7'd" + num(isa::kPreload) + " : cmd_funct_i");
  b.assign("resp_valid_o", "resp_valid_q");
  b.assign("resp_mmio_o", "resp_mmio_q");
  b.assign("resp_data_o", "resp_data_q");
  b.blank();

  // ---------------------------------------------------------------- state updates
  b.logic("accept_ok", Type::bit());
  b.assign("accept_ok", "accept && err == ErrNone");
  vlog::SeqItem& q = b.sequential();
  q.reset.line(std::string("ex_ws_q <= 1'b") + (p.array.hasWs ? "1" : "0") + ";")
      .line("ex_relu_q <= 1'b0;")
      .line("ex_shift_q <= '0;")
      .line("ex_a_stride_q <= 16'd1;")
      .line("ex_c_stride_q <= 16'd1;")
      .line("stationary_q <= 1'b0;")
      .forLoop("i", "3",
               [](vlog::Stmts& s) {
                 s.line("ld_stride_q[i] <= '0;").line("ld_block_stride_q[i] <= 16'(Dim);");
               })
      .line("ld_shrink_q <= '0;")
      .line("st_stride_q <= '0;")
      .line("st_scale_q <= 32'h3f800000;")
      .line("st_relu_q <= 1'b0;")
      .line("st_pool_q <= '0;")
      .line("pre_valid_q <= 1'b0;")
      .line("pre_rs1_q <= '0;")
      .line("pre_rs2_q <= '0;")
      .line("resp_valid_q <= 1'b0;")
      .line("resp_mmio_q <= 1'b0;")
      .line("resp_data_q <= '0;");
  if (td)
    q.reset.line("ex_td_off_q <= 1'b0;").line("ex_td_side_q <= 1'b0;");
  if (boveda)
    q.reset.line("ld_comp_q <= '0;")
        .line("st_comp_q <= 1'b0;")
        .line("st_epoch_q <= 1'b0;")
        .line("ptr_inval_q <= 1'b0;");
  const std::string exStride = field("CONFIG_EX", "rs1", "a_stride");
  const std::string cStride = field("CONFIG_EX", "rs2", "c_stride");
  const std::string ldState = field("CONFIG_LD", "rs1", "state_id");
  const std::string ldBstride = field("CONFIG_LD", "rs1", "block_stride");
  const std::string stScale = field("CONFIG_ST", "rs2", "acc_scale");
  q.clocked
      .ifElse("resp_valid_q && resp_ready_i",
              [](vlog::Stmts& s) { s.line("resp_valid_q <= 1'b0;"); })
      .ifElse("cmd_valid_i && dangling", [](vlog::Stmts& s) { s.line("pre_valid_q <= 1'b0;"); })
      .ifElse("accept_ok && is_config_ex",
              [&](vlog::Stmts& s) {
                s.line("ex_a_stride_q <= " + exStride + " == '0 ? 16'd1 : " + exStride + ";");
                s.line("ex_c_stride_q <= " + cStride + " == '0 ? 16'd1 : " + cStride + ";");
                s.ifElse("!cex_only_strides", [&](vlog::Stmts& t) {
                  t.line("ex_ws_q <= cex_ws;");
                  t.line("ex_relu_q <= " + field("CONFIG_EX", "rs1", "activation") + " == 2'd1;");
                  t.line("ex_shift_q <= " +
                         fieldBits("CONFIG_EX", "rs2", "in_shift", p.shiftBits - 1, 0) + ";");
                  t.line("stationary_q <= 1'b0;");
                  if (td) {
                    t.line("ex_td_off_q <= " + field("CONFIG_EX", "rs1", "td_off") + ";");
                    t.line("ex_td_side_q <= " + field("CONFIG_EX", "rs1", "td_side") + ";");
                  }
                });
              })
      .ifElse("accept_ok && is_config_ld",
              [&](vlog::Stmts& s) {
                s.line("ld_stride_q[" + ldState +
                       "] <= " + fieldBits("CONFIG_LD", "rs2", "stride", 31, 0) + ";");
                s.line("ld_block_stride_q[" + ldState + "] <= " + ldBstride +
                       " == '0 ? 16'(Dim) : " + ldBstride + ";");
                s.line("ld_shrink_q[" + ldState + "] <= " + field("CONFIG_LD", "rs1", "shrink") +
                       ";");
                if (boveda)
                  s.line("ld_comp_q[" + ldState +
                         "] <= " + field("CONFIG_LD", "rs1", "compressed") + ";");
              })
      .ifElse("accept_ok && is_config_st",
              [&](vlog::Stmts& s) {
                s.line("st_stride_q <= " + field("CONFIG_ST", "rs2", "stride") + ";");
                if (boveda) {
                  const std::string comp = field("CONFIG_ST", "rs1", "compressed");
                  s.line("st_comp_q <= " + comp + ";");
                  s.line("st_epoch_q <= st_epoch_q ^ " + comp + ";");
                }
                s.line("st_relu_q <= " + field("CONFIG_ST", "rs1", "activation") + " == 2'd1;");
                s.ifElse(stScale + " != 32'hffffffff",
                         [&](vlog::Stmts& t) { t.line("st_scale_q <= " + stScale + ";"); });
                s.line("st_pool_q <= {" + field("CONFIG_ST", "rs1", "ocols") + ", " +
                       field("CONFIG_ST", "rs1", "orows") + ", " +
                       field("CONFIG_ST", "rs1", "pocols") + ",");
                s.line("              " + field("CONFIG_ST", "rs1", "porows") + ", " +
                       field("CONFIG_ST", "rs1", "pool_out_dim") + ", " +
                       field("CONFIG_ST", "rs1", "lpad") + ", " +
                       field("CONFIG_ST", "rs1", "upad") + ",");
                s.line("              " + field("CONFIG_ST", "rs1", "pool_size") + ", " +
                       field("CONFIG_ST", "rs1", "pool_stride") + "};");
              })
      .ifElse("accept && is_preload",
              [](vlog::Stmts& s) {
                s.comment("A valid PRELOAD waits for its COMPUTE; a rejected one leaves nothing.");
                s.line("pre_valid_q <= err == ErrNone;");
                s.line("pre_rs1_q <= cmd_rs1_i;");
                s.line("pre_rs2_q <= cmd_rs2_i;");
              })
      .ifElse("accept && is_compute",
              [](vlog::Stmts& s) {
                s.line("pre_valid_q <= 1'b0;");
                s.ifElse("err == ErrNone && cmp_flip",
                         [](vlog::Stmts& t) { t.line("stationary_q <= 1'b1;"); });
              })
      .ifElse("accept && needs_resp", [](vlog::Stmts& s) {
        s.line("resp_valid_q <= 1'b1;");
        s.line("resp_mmio_q <= cmd_mmio_i;");
        s.line("resp_data_q <= is_counter ? 64'(ctr_value_i) : '0;");
      });
  if (boveda)
    q.clocked
        .comment("Pointer lines: every CONFIG_LD, MVOUT or FLUSH (rejected or not) "
                 "invalidates them before the next compressed MVIN's lookup.")
        .ifElse("accept && (is_config_ld || is_mvout || is_flush)",
                [](vlog::Stmts& s) { s.line("ptr_inval_q <= 1'b1;"); })
        .ifElse("accept && needs_rs && is_mvin && ld_comp",
                [](vlog::Stmts& s) { s.line("ptr_inval_q <= 1'b0;"); });
  b.blank();
  b.comment("Every operand is decoded the same way; these decoded bits are not needed (and "
            "range ends beyond the row bits only occur in rejected commands).");
  b.logic("unused_fields", Type::bit());
  b.assign("unused_fields", "^{bd_flags_bad, bd_mem_rows, bd_cols, c_flags_bad, c_mem_rows, "
                            "c_cols, a_mem_rows, bd_end, c_end, pc_full, c_full}");
  return m;
}

} // namespace by::hw
