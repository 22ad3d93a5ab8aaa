// The command decoder: checks every command against docs/isa.md, keeps the CONFIG state (so
// that each operation leaves here with its configuration applied and the controllers never
// see CONFIG commands), pairs PRELOADs with COMPUTEs, computes the local row ranges each
// operation reads and writes for the reservation station, runs COUNTER_OP against the counter
// file, and reports rejected commands. One command per cycle; the field positions, funct codes
// and error codes come from the ISA table (spec/hw/src/isa.cpp).
#include "cmd_decoder.h"

#include "encodings.h"
#include "hwspec/isa.h"
#include "isa_fields.h"
#include "op_layouts.h"
#include "text_util.h"

#include <cstdio>
#include <stdexcept>

namespace by::hw {

using vlog::Type;

namespace {

// "cmd_rs2_i[47:32]" for a field of a command's operand.
std::string slice(const std::string& command, const std::string& reg, const std::string& name) {
  return isaFieldSlice("cmd_", command, reg, name);
}

// "32'h3f800000"
std::string hex32(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "32'h%08x", v);
  return s;
}

// The functs the decoder tells apart, by name (localparam Funct<Name>).
const std::vector<std::pair<std::string, int>>& functs() {
  static const std::vector<std::pair<std::string, int>> f = {
      {"Config", isa::kConfig},
      {"Mvin", isa::kMvin},
      {"Mvin2", isa::kMvin2},
      {"Mvin3", isa::kMvin3},
      {"Mvout", isa::kMvout},
      {"Preload", isa::kPreload},
      {"ComputePreloaded", isa::kComputePreloaded},
      {"ComputeAccumulated", isa::kComputeAccumulated},
      {"Flush", isa::kFlush},
      {"CounterOp", isa::kCounterOp},
      {"Decompress", isa::kDecompress},
      {"ConfigTable", isa::kConfigTable},
      {"LoopWs", isa::kLoopWs},
      {"LoopWsConfigBounds", isa::kLoopWsConfigBounds},
      {"LoopWsConfigStridesDc", isa::kLoopWsConfigStridesDc},
      {"LoopConvWs", isa::kLoopConvWs},
      {"LoopConvOs", isa::kLoopConvOs},
      {"LoopConvWsConfig1", isa::kLoopConvWsConfig1},
      {"LoopConvWsConfig6", isa::kLoopConvWsConfig6}};
  return f;
}

// CONFIG's sub-command (rs1 cmd_type), in isa::ConfigType order; the fourth code is none.
const Encoding& configTypeEncoding() {
  static const Encoding e{"config_type_e",
                          2,
                          {{"CfgEx", "CONFIG_EX"},
                           {"CfgLd", "CONFIG_LD"},
                           {"CfgSt", "CONFIG_ST"},
                           {"CfgReserved", "not a CONFIG sub-command"}}};
  return e;
}

// CONFIG_ST's pooling state, packed in st_pool_q.
PackedLayout poolLayout() {
  PackedLayout l;
  l.field("pool_stride", 2).field("pool_size", 2).field("upad", 2).field("lpad", 2);
  l.field("pool_out_dim", 8).field("porows", 8).field("pocols", 8).field("orows", 8);
  l.field("ocols", 8);
  return l;
}

} // namespace

CmdDecoderGenerator::CmdDecoderGenerator(const AccelParams& p)
    : p_(p), ld_(loadOpLayout(p)), st_(storeOpLayout(p)), ex_(execOpLayout(p)),
      range_(rangeLayout(p)), boveda_(p.config.boveda.enabled), td_(p.config.tensordash.enabled),
      onChip_(boveda_ && p.config.boveda.onChip), loops_(p.config.loops.ws),
      conv_(p.config.loops.conv), table_(p.config.activations.table) {
  // DECOMPRESS's destination operand has MVIN's layout (the mv_* signals).
  if (onChip_)
    for (const char* f : {"local_addr", "rows", "cols"})
      if (slice("DECOMPRESS", "rs2", f) != slice("MVIN", "rs2", f))
        throw std::logic_error("DECOMPRESS rs2 must have MVIN's operand layout");
}

vlog::Module CmdDecoderGenerator::build() const {
  vlog::Module m(names::kCmdDecoder,
                 "Command decoder: validates commands (docs/isa.md), applies the CONFIG state, "
                 "pairs PRELOAD with COMPUTE, computes hazard ranges, executes COUNTER_OP and "
                 "FLUSH, and reports rejected commands. Operation layouts: load {" +
                     ld_.describe() + "}; store {" + st_.describe() + "}; execute {" +
                     ex_.describe() + "}; range {" + range_.describe() + "}.");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  IsaFieldWires f(b);
  StateRegs regs(b);
  configState(b, regs);
  commandClass(b, f);
  localOperands(b, f);
  mvinChecks(b, f);
  if (onChip_)
    decompressChecks(b, f);
  mvoutChecks(b);
  configChecks(b, f);
  computeChecks(b);
  outcome(b);
  operationOut(b);
  ranges(b);
  b.assign("err_valid_o", "(cmd_valid_i && dangling) || (accept && err != ErrNone)");
  b.assign("err_code_o", "dangling ? ErrUnpaired : err");
  b.assign("err_funct_o", "dangling ? FunctPreload : cmd_funct_i");
  b.assign("resp_valid_o", "resp_valid_q");
  b.assign("resp_mmio_o", "resp_mmio_q");
  b.assign("resp_data_o", "resp_data_q");
  b.blank();
  b.comment("Fields the CONFIG commands load.");
  const ConfigFields cf = configFields(f);
  b.comment("Next state.");
  nextState(regs.next(), cf);
  b.blank();
  b.comment("Every operand is decoded the same way; these decoded bits are not needed (and "
            "range ends beyond the row bits only occur in rejected commands).");
  b.logic("unused_fields", Type::bit());
  b.assign("unused_fields", "^{bd_flags_bad, bd_mem_rows, bd_cols, c_flags_bad, c_mem_rows, "
                            "c_cols, a_mem_rows, bd_end, c_end, pc_full, c_full}");
  return m;
}

void CmdDecoderGenerator::ports(vlog::Module& m) const {
  m.param("PayloadWidth", num(opPayloadWidth(p_)), "operation payload slot");
  m.param("RangesWidth", num(kRangesPerOp * range_.width()), "an operation's four ranges");
  m.param("KindBits", num(opKindEncoding().width), "op_kind_e");
  m.param("FunctBits", "7", "RoCC funct7");
  m.param("XBits", "64", "rs1, rs2 and responses (XLEN)");
  m.param("CounterBits", "32", "a COUNTER_OP value and command word");
  m.param("ErrBits", "8", "an error code (docs/isa.md)");
  m.clockAndReset();
  m.portGroup("Command in (from the command queue).");
  m.input("cmd_valid_i", Type::bit());
  m.output("cmd_ready_o", Type::bit());
  m.input("cmd_funct_i", Type::bits("FunctBits"));
  m.input("cmd_rs1_i", Type::bits("XBits"));
  m.input("cmd_rs2_i", Type::bits("XBits"));
  m.input("cmd_xd_i", Type::bit(), "RoCC: the instruction writes rd (expects a response)");
  m.input("cmd_mmio_i", Type::bit(), "the command came through the control registers");
  m.portGroup("Operation out (to the reservation station).");
  m.output("op_valid_o", Type::bit());
  m.input("op_ready_i", Type::bit());
  m.output("op_kind_o", Type::bits("KindBits"), "op_kind_e: OpLoad, OpStore or OpExec");
  m.output("op_payload_o", Type::bits("PayloadWidth"));
  m.output("op_ranges_o", Type::bits("RangesWidth"), "3 read ranges, then the write range");
  if (mergesComputes(p_))
    m.output("ex_next_o", Type::bit(),
             "a PRELOAD or COMPUTE is at the input (the compute merger holds its entry)");
  m.portGroup("Counter file (COUNTER_OP).");
  m.output("ctr_valid_o", Type::bit(), "apply rs1 this cycle");
  m.output("ctr_rs1_o", Type::bits("CounterBits"));
  m.input("ctr_value_i", Type::bits("CounterBits"),
          "the selected counter, before this command's effect");
  m.portGroup("Response (COUNTER_OP): to the RoCC port, or the RESP registers for MMIO.");
  m.output("resp_valid_o", Type::bit());
  m.input("resp_ready_i", Type::bit());
  m.output("resp_mmio_o", Type::bit());
  m.output("resp_data_o", Type::bits("XBits"));
  if (loops_) {
    m.portGroup("LOOP_WS (the unroller in front, loop_ws.cpp).");
    m.input("loop_err_i", Type::bits("ErrBits"), "the unroller's checks of a LOOP_WS");
    m.output("loop_start_o", Type::bit(), "a legal LOOP_WS is accepted: the unroller starts");
  }
  if (loops_ || conv_)
    m.input("cmd_bstride_i", Type::bits("CountBits"),
            "with the command: the block stride of a loop's MVIN / MVIN2 / MVIN3 (0: the "
            "channel's) or MVOUT (0: DIM)");
  if (conv_) {
    m.portGroup("LOOP_CONV_WS (the unroller in front, loop_conv.cpp).");
    m.input("conv_err_i", Type::bits("ErrBits"), "the unroller's checks of a LOOP_CONV_WS");
    m.output("conv_start_o", Type::bit(), "a legal LOOP_CONV_WS is accepted: the unroller starts");
    m.output("ex_a_stride_o", Type::bits("CountBits"),
             "CONFIG_EX's a_stride (a trans_input_3120 loop restores it after its own)");
    m.output("ex_c_stride_o", Type::bits("CountBits"), "CONFIG_EX's c_stride (likewise)");
    if (hasAStep(p_))
      m.input("cmd_astep_i", Type::bits(std::max(1, config::log2Exact(p_.dim))),
              "with the command: a depthwise loop COMPUTE's first reduction step of A");
  }
  if (table_) {
    m.portGroup(
        "CONFIG_TABLE (the mvout table module, mvout_table.cpp; rs1/rs2 are the command's).");
    m.output("table_valid_o", Type::bit(), "an accepted CONFIG_TABLE");
    m.input("st_idle_i", Type::bit(),
            "no MVOUT waits or runs: a CONFIG_TABLE waits for the earlier MVOUTs to leave");
  }
  m.portGroup("Rejected commands.");
  m.output("err_valid_o", Type::bit(), "one pulse per rejected command");
  m.output("err_code_o", Type::bits("ErrBits"));
  m.output("err_funct_o", Type::bits("FunctBits"));
}

void CmdDecoderGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
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
  b.localParam("MaxColsAccNarrow", num(p.maxColsAccElems),
               "accumulator moves of elem_t: max_bytes of them (MAX_BLOCK_LEN * DIM * lanes)");
  b.localParam("MaxColsAcc", num(p.maxBlockLenAcc * p.dim), "MAX_BLOCK_LEN_ACC * DIM");
  b.localParam("RowBits", num(p.localRowBits), "a local row in an operation word");
  b.localParam("AddrBits", "32", "a DRAM address in an operation word; a local address");
  b.localParam("CountBits", "16", "rows and columns of an operand; strides");
  b.localParam("LocalRowBits", num(isa::kLocalRowBits), "the row of a local address");
  b.localParam("MemRowsBits", "LocalRowBits+1", "rows of a memory");
  b.localParam("BlocksBits", "CountBits+1", "column blocks of an MVIN/MVOUT row");
  b.localParam("EndBits", "48", "one past a range's last row, before the checks");
  b.localParam("SpanBits", "XBits", "bytes a DMA move spans");
  b.localParam("DmaEndBits", "XBits+1", "a DRAM end address, before the 4 GiB check");
  b.localParam("ShiftBits", num(p.shiftBits), "the OS output shift");
  b.localParam("PoolBits", "48", "CONFIG_ST's pooling state");
  b.localParam("PixelBits", "17", "a DRAM pixel index");
  b.localParam("PixBits", "8", "pooling rows and columns");
  b.localParam("LoadStates", "3", "CONFIG_LD state ids: MVIN, MVIN2, MVIN3");
  b.localParam("PtrEntryBytes", "8", "a Boveda pointer entry");
  b.localParam("DmaLimit", Type::bits("DmaEndBits"), "65'h100000000",
               "the DMA reaches the low 4 GiB");
  b.localParam("GarbageAddr", Type::bits("AddrBits"), hex32(isa::kGarbageAddr),
               "a local address that reads or writes nothing");
  b.localParam("FloatOne", Type::bits("AddrBits"), hex32(isa::kFloatOne), "1.0f");
  b.localParam("AccScaleKeep", Type::bits("AddrBits"), hex32(isa::kAccScaleKeep),
               "a CONFIG_ST acc_scale that keeps the old one");
  b.localParam("MaxLdStride", Type::bits("XBits"), "64'hffffffff", "CONFIG_LD stride limit");
  b.localParam("ActRelu", Type::bits("2"), "2'd" + num(isa::kActRelu), "activation: ReLU");
  for (const isa::ErrorCode& e : isa::errorCodes())
    b.localParam("Err" + upperCamel(e.name), Type::bits("ErrBits"), "8'd" + num(e.code), e.name);
  for (const auto& [name, code] : functs())
    if ((name != "Decompress" || onChip_) && (name != "ConfigTable" || table_) &&
        (name.rfind("LoopWs", 0) != 0 || loops_) && (name.rfind("LoopConv", 0) != 0 || conv_))
      b.localParam("Funct" + name, Type::bits("FunctBits"), "7'd" + num(code));
  declareEnum(b, opKindEncoding());
  declareEnum(b, storeModeEncoding());
  declareEnum(b, loadChannelEncoding());
  declareEnum(b, configTypeEncoding());
  b.blank();
}

// The CONFIG state (reset values per docs/isa.md), the pending PRELOAD and the response.
void CmdDecoderGenerator::configState(vlog::Body& b, StateRegs& regs) const {
  b.comment("Configuration state (reset values per docs/isa.md).");
  regs.add("ex_ws", Type::bit(), p_.array.hasWs ? "1'b1" : "1'b0")
      .add("ex_relu", Type::bit(), "1'b0")
      .add("ex_shift", Type::bits("ShiftBits"), "'0")
      .add("ex_a_stride", Type::bits("CountBits"), "CountBits'(1)")
      .add("ex_c_stride", Type::bits("CountBits"), "CountBits'(1)")
      .add("stationary", Type::bit(), "1'b0", "the array holds stationary data from this config");
  if (td_)
    regs.add("ex_td_off", Type::bit(), "1'b0", "TensorDash: OS computes as dense beats");
  else
    regs.add("ex_a_t", Type::bit(), "1'b0", "A is stored transposed")
        .add("ex_b_t", Type::bit(), "1'b0", "B is stored transposed");
  if (tdSideB())
    regs.add("ex_td_side", Type::bit(), "1'b0", "TensorDash: the scheduled operand (0 A, 1 B)");
  regs.add("ld_stride", Type::bits("AddrBits"), "'0", "per mvin channel", "LoadStates")
      .add("ld_block_stride", Type::bits("CountBits"), "CountBits'(Dim)", "", "LoadStates")
      .add("ld_shrink", Type::bits("LoadStates"), "'0");
  if (boveda_)
    regs.add("ld_comp", Type::bits("LoadStates"), "'0",
             "Boveda: the channel's MVINs are compressed")
        .add("ptr_inval", Type::bit(), "1'b0",
             "Boveda: a CONFIG_LD, MVOUT or FLUSH since the last compressed MVIN (whose lookup "
             "then invalidates the loader's pointer lines)")
        .add("st_comp", Type::bit(), "1'b0", "Boveda: MVOUTs are compressed")
        .add("st_epoch", Type::bit(), "1'b0",
             "toggled by every compressed CONFIG_ST (a new stream)");
  regs.add("st_stride", Type::bits("AddrBits"), "'0")
      .add("st_scale", Type::bits("AddrBits"), "FloatOne")
      .add("st_relu", Type::bit(), "1'b0")
      .add("st_pool", Type::bits("PoolBits"), "'0", "{" + poolLayout().describe() + "}")
      .add("pre_valid", Type::bit(), "1'b0", "a PRELOAD waits for its COMPUTE")
      .add("pre_rs1", Type::bits("XBits"), "'0")
      .add("pre_rs2", Type::bits("XBits"), "'0")
      .add("resp_valid", Type::bit(), "1'b0")
      .add("resp_mmio", Type::bit(), "1'b0")
      .add("resp_data", Type::bits("XBits"), "'0");
  poolLayout().unpack(b, "st_pool_q", "st_");
  b.blank();
}

// What the command is: the is_* signals from cmd_funct_i and CONFIG's cmd_type.
void CmdDecoderGenerator::commandClass(vlog::Body& b, IsaFieldWires& f) const {
  b.comment("What the command is.");
  const std::string cfgType = f("cfg", "CONFIG_EX", "rs1", "cmd_type"); // config_type_e
  const std::vector<std::pair<std::string, std::string>> is = {
      {"is_config", "cmd_funct_i == FunctConfig"},
      {"is_config_ex", "is_config && " + cfgType + " == CfgEx"},
      {"is_config_ld", "is_config && " + cfgType + " == CfgLd"},
      {"is_config_st", "is_config && " + cfgType + " == CfgSt"},
      {"is_config_bad", "is_config && " + cfgType + " == CfgReserved"},
      {"is_mvin",
       "cmd_funct_i == FunctMvin || cmd_funct_i == FunctMvin2 || cmd_funct_i == FunctMvin3"},
      {"is_mvout", "cmd_funct_i == FunctMvout"},
      {"is_preload", "cmd_funct_i == FunctPreload"},
      {"is_compute",
       "cmd_funct_i == FunctComputePreloaded || cmd_funct_i == FunctComputeAccumulated"},
      {"is_flush", "cmd_funct_i == FunctFlush"},
      {"is_counter", "cmd_funct_i == FunctCounterOp"}};
  for (const auto& [sig, cond] : is) {
    b.logic(sig, Type::bit());
    b.assign(sig, cond);
  }
  // DECOMPRESS exists only on-chip; elsewhere every use of is_dc is left out of the RTL.
  if (onChip_) {
    b.logic("is_dc", Type::bit());
    b.assign("is_dc", "cmd_funct_i == FunctDecompress");
  }
  // LOOP_WS and its configuration exist only with loops.ws: they leave no operation here (the
  // unroller in front keeps their fields and issues the loop's commands).
  if (loops_) {
    b.logic("is_loop_ws", Type::bit());
    b.logic("is_loop_cfg", Type::bit());
    b.assign("is_loop_ws", "cmd_funct_i == FunctLoopWs");
    b.assign("is_loop_cfg",
             "cmd_funct_i >= FunctLoopWsConfigBounds && cmd_funct_i <= FunctLoopWsConfigStridesDc");
    // The loop's computes read A and B through CONFIG_EX's transposes: they must be the loop's
    // (its transposed tiles come in as stored).
    b.logic("ws_xpose_bad", Type::bit(), "CONFIG_EX's transposes are not the LOOP_WS's");
    b.assign("ws_xpose_bad",
             transposer() ? "ex_a_t_q != " + f("lwx", "LOOP_WS", "rs2", "a_transpose") +
                                " || ex_b_t_q != " + f("lwx", "LOOP_WS", "rs2", "b_transpose")
                          : "1'b0");
    // Boveda: a compressed operand's moves name pointer entries, so its channel (the store
    // path for C) must move compressed blocks and a plain operand's must not; compressed tiles
    // come in untransposed and C leaves scaled (no `full`). Without Boveda any such flag.
    const std::string az = f("lwx", "LOOP_WS", "rs2", "a_compressed");
    const std::string bz = f("lwx", "LOOP_WS", "rs2", "b_compressed");
    const std::string cz = f("lwx", "LOOP_WS", "rs2", "c_compressed");
    b.logic("ws_comp_bad", Type::bit(),
            "the LOOP_WS's compressed operands are not the channels' (Boveda)");
    b.assign("ws_comp_bad", boveda_ ? az + " != ld_comp_q[0] || " + bz + " != ld_comp_q[1] || " +
                                          cz + " != st_comp_q ||\n      (" + az + " && " +
                                          f("lwx", "LOOP_WS", "rs2", "a_transpose") + ") || (" +
                                          bz + " && " + f("lwx", "LOOP_WS", "rs2", "b_transpose") +
                                          ") || (" + cz + " && " +
                                          f("lwx", "LOOP_WS", "rs1", "full_C") + ")"
                                    : az + " || " + bz + " || " + cz);
  }
  if (conv_) {
    b.logic("is_loop_conv", Type::bit());
    b.logic("is_conv_cfg", Type::bit());
    b.logic("is_loop_conv_os", Type::bit(), "LOOP_CONV_OS: the same tile, output-stationary");
    b.assign("is_loop_conv_os", "cmd_funct_i == FunctLoopConvOs");
    b.assign("is_loop_conv", "cmd_funct_i == FunctLoopConvWs || is_loop_conv_os");
    b.assign("is_conv_cfg",
             "cmd_funct_i >= FunctLoopConvWsConfig1 && cmd_funct_i <= FunctLoopConvWsConfig6");
    // The loop's computes read its operands through CONFIG_EX's transposes: only a_transpose
    // with trans_input_3120 and b_transpose with trans_weight_0132 (the operand moved in as
    // stored) read the convolution's operands.
    b.logic("conv_xpose_bad", Type::bit(),
            "CONFIG_EX's transposes do not match the loop's trans_input_3120 / trans_weight_0132");
    b.assign("conv_xpose_bad",
             transposer()
                 ? "ex_a_t_q != " + f("lcx", "LOOP_CONV_WS", "rs1", "trans_input_3120") +
                       " || ex_b_t_q != " + f("lcx", "LOOP_CONV_WS", "rs1", "trans_weight_0132")
                 : "1'b0");
    // Boveda: compressed operands are moved through pointer entries, so each channel (the
    // store path for the output) must move compressed blocks exactly when the loop says so; not
    // with the transposed or dilated layouts, lane-packed weights or pooled output. Without
    // Boveda any flag is UNSUPPORTED. (The unroller checks that compressed rows are whole.)
    auto lc = [&](const char* reg, const char* name) {
      return f("lcx", "LOOP_CONV_WS", reg, name);
    };
    const std::string wz = lc("rs2", "weights_compressed"), iz = lc("rs2", "input_compressed"),
                      oz = lc("rs2", "output_compressed");
    b.logic("conv_comp_bad", Type::bit(),
            "the loop's compressed operands are not the channels' (Boveda)");
    b.assign("conv_comp_bad",
             !boveda_
                 ? wz + " || " + iz + " || " + oz
                 : wz + " != ld_comp_q[1] || " + iz + " != ld_comp_q[0] || " + oz +
                       " != st_comp_q ||\n      (" + wz + " && (" + lc("rs1", "trans_weight_1203") +
                       " || " + lc("rs1", "trans_weight_0132") + (p_.lanes > 1 ? " || 1'b1" : "") +
                       ")) ||\n      (" + iz + " && (" + lc("rs1", "trans_input_3120") + " || " +
                       lc("rs2", "input_dilated") + ")) ||\n      (" + oz + " && (" +
                       lc("rs1", "trans_output_1203") + " || !" + lc("rs2", "no_pool") + "))");
    b.assign("ex_a_stride_o", "ex_a_stride_q");
    b.assign("ex_c_stride_o", "ex_c_stride_q");
  }
  // CONFIG_TABLE exists only with activations.table: the table module applies it.
  if (table_) {
    b.logic("is_table", Type::bit());
    b.assign("is_table", "cmd_funct_i == FunctConfigTable");
  }
  b.logic("is_known", Type::bit());
  b.assign("is_known", std::string("is_config || is_mvin || is_mvout || is_preload || "
                                   "is_compute || is_flush || is_counter") +
                           (onChip_ ? " || is_dc" : "") + (table_ ? " || is_table" : "") +
                           (loops_ ? " || is_loop_ws || is_loop_cfg" : "") +
                           (conv_ ? " || is_loop_conv || is_conv_cfg" : ""));
  b.blank();
}

// Local operands: {name}_garbage, _acc, _accumulate, _full, _row, _rows, _cols, _flags_bad
// (accumulate/full on a scratchpad address), _rows_m1, _mem_rows.
void CmdDecoderGenerator::localOperands(vlog::Body& b, IsaFieldWires& f) const {
  b.comment("Local operands: {name}_garbage, _acc, _accumulate, _full, _row, _rows, _cols, "
            "_flags_bad (accumulate/full on a scratchpad address), _mem_rows.");
  auto local = [&](const std::string& n, const std::string& addr, const std::string& rows,
                   const std::string& cols) {
    b.logic(n + "_addr", Type::bits("AddrBits"));
    b.logic(n + "_garbage", Type::bit());
    b.logic(n + "_acc", Type::bit());
    b.logic(n + "_accumulate", Type::bit());
    b.logic(n + "_full", Type::bit());
    b.logic(n + "_row", Type::bits("LocalRowBits"));
    b.logic(n + "_rows", Type::bits("CountBits"));
    b.logic(n + "_cols", Type::bits("CountBits"));
    b.logic(n + "_flags_bad", Type::bit());
    b.logic(n + "_rows_m1", Type::bits("CountBits"), "rows - 1");
    b.logic(n + "_mem_rows", Type::bits("MemRowsBits"));
    b.assign(n + "_addr", addr);
    b.assign(n + "_garbage", n + "_addr == GarbageAddr");
    b.assign("{" + n + "_acc, " + n + "_accumulate, " + n + "_full, " + n + "_row}", n + "_addr");
    b.assign(n + "_rows", rows);
    b.assign(n + "_cols", cols);
    b.assign(n + "_flags_bad", "!" + n + "_acc && (" + n + "_accumulate || " + n + "_full)");
    b.assign(n + "_rows_m1", n + "_rows - CountBits'(1)");
    b.assign(n + "_mem_rows", n + "_acc ? MemRowsBits'(AccRows) : MemRowsBits'(SpRows)");
  };
  local("mv", slice("MVIN", "rs2", "local_addr"), slice("MVIN", "rs2", "rows"),
        slice("MVIN", "rs2", "cols"));
  // PRELOAD operands come from the current command (checked at PRELOAD time) or from the
  // pending PRELOAD (used at COMPUTE time).
  // A transposed operand's command gives its logical rows and columns, as on Gemmini; from here
  // on _rows / _cols are those of the block stored in the scratchpad (docs/isa.md,
  // "Transposes"): A, B in OS (the COMPUTE's rs2) and the WS weights (the PRELOAD's rs1).
  auto stored = [&](const std::string& transposed, const std::string& rows, const std::string& cols,
                    bool wantRows) {
    const std::string own = "CountBits'(" + (wantRows ? rows : cols) + ")";
    const std::string other = "CountBits'(" + (wantRows ? cols : rows) + ")";
    return td_ ? own : "(" + transposed + " ? " + other + " : " + own + ")";
  };
  const std::string wsB = "ex_ws_q && ex_b_t_q", osB = "!ex_ws_q && ex_b_t_q";
  local("pbd", slice("PRELOAD", "rs1", "local_addr"),
        stored(wsB, slice("PRELOAD", "rs1", "rows"), slice("PRELOAD", "rs1", "cols"), true),
        stored(wsB, slice("PRELOAD", "rs1", "rows"), slice("PRELOAD", "rs1", "cols"), false));
  local("pc", slice("PRELOAD", "rs2", "local_addr"), slice("PRELOAD", "rs2", "rows"),
        slice("PRELOAD", "rs2", "cols"));
  auto pending = [](const std::string& reg, const std::string& name) {
    return slice("PRELOAD", reg, name).replace(0, 9, "pre_" + reg + "_q");
  };
  local("bd", pending("rs1", "local_addr"),
        stored(wsB, pending("rs1", "rows"), pending("rs1", "cols"), true),
        stored(wsB, pending("rs1", "rows"), pending("rs1", "cols"), false));
  local("c", pending("rs2", "local_addr"), pending("rs2", "rows"), pending("rs2", "cols"));
  const std::string aRows = slice("COMPUTE_PRELOADED", "rs1", "rows");
  const std::string aCols = slice("COMPUTE_PRELOADED", "rs1", "cols");
  local("a", slice("COMPUTE_PRELOADED", "rs1", "local_addr"),
        stored("ex_a_t_q", aRows, aCols, true), stored("ex_a_t_q", aRows, aCols, false));
  const std::string dRows = slice("COMPUTE_PRELOADED", "rs2", "rows");
  const std::string dCols = slice("COMPUTE_PRELOADED", "rs2", "cols");
  local("d", slice("COMPUTE_PRELOADED", "rs2", "local_addr"), stored(osB, dRows, dCols, true),
        stored(osB, dRows, dCols, false));
  b.logic("dram", Type::bits("XBits"));
  b.assign("dram", f("mvin", "MVIN", "rs1", "dram_addr"));
  b.blank();
}

// MVIN / MVIN2 / MVIN3: the channel's configuration, the extent of the move and ld_err.
void CmdDecoderGenerator::mvinChecks(vlog::Body& b, IsaFieldWires&) const {
  b.comment("MVIN / MVIN2 / MVIN3.");
  b.logic("ld_ch", Type::named("load_channel_e"));
  b.logic("ld_stride", Type::bits("AddrBits"));
  b.logic("ld_bstride", Type::bits("CountBits"));
  b.logic("ld_shrink", Type::bit());
  b.logic("ld_elem_sized", Type::bit(), "DRAM elements are elem_t");
  b.logic("mv_blocks", Type::bits("BlocksBits"),
          "column blocks of one local row (DIM*lanes or DIM)");
  b.logic("mv_blocks_m1", Type::bits("BlocksBits"));
  b.logic("ld_end", Type::bits("EndBits"), "one past the last local row written");
  b.logic("ld_span", Type::bits("SpanBits"), "one past the last DRAM byte read, minus dram");
  b.logic("ld_err", Type::bits("ErrBits"));
  b.assign("ld_ch", std::string(onChip_ ? "(cmd_funct_i == FunctMvin || is_dc)"
                                        : "cmd_funct_i == FunctMvin") +
                        " ? ChMvin :\n      cmd_funct_i == FunctMvin2 ? ChMvin2 : ChMvin3");
  b.assign("ld_stride", "ld_stride_q[ld_ch]");
  b.assign("ld_bstride", loops_ || conv_
                             ? "cmd_bstride_i != '0 ? cmd_bstride_i : ld_block_stride_q[ld_ch]"
                             : "ld_block_stride_q[ld_ch]");
  b.assign("ld_shrink", "ld_shrink_q[ld_ch]");
  b.assign("ld_elem_sized", "!mv_acc || ld_shrink");
  b.assign("mv_blocks", "mv_acc ? (BlocksBits'(mv_cols) + BlocksBits'(Dim-1)) >> DimLog2 :\n"
                        "      (BlocksBits'(mv_cols) + BlocksBits'(SpElems-1)) >> SpElemsLog2");
  b.assign("mv_blocks_m1", "mv_blocks - BlocksBits'(1)");
  b.assign("ld_end", "EndBits'(mv_row) + EndBits'(mv_blocks_m1) * EndBits'(ld_bstride) + "
                     "EndBits'(mv_rows)");
  b.assign("ld_span", "SpanBits'(mv_rows_m1) * SpanBits'(ld_stride) +\n"
                      "      SpanBits'(mv_cols) * (ld_elem_sized ? SpanBits'(ElemBytes) : "
                      "SpanBits'(AccBytes))");
  b.logic("ld_comp", Type::bit(), "a compressed MVIN (address 0 writes zeros as usual)");
  b.assign("ld_comp",
           boveda_ ? "ld_comp_q[ld_ch] && dram != '0" + std::string(onChip_ ? " && !is_dc" : "")
                   : "1'b0");
  b.comment("A compressed MVIN reads its 8-byte pointer entry at dram; the rest of its stream "
            "is checked when the entry has been read.");
  b.logic("dram_high", Type::bits("XBits-AddrBits"), "must be zero: the DMA has 32-bit addresses");
  b.assign("dram_high", "dram[XBits-1:AddrBits]");
  b.logic("ld_dma_bad", Type::bit());
  b.assign("ld_dma_bad",
           "dram_high != '0 || (ld_comp ? DmaEndBits'(dram) + DmaEndBits'(PtrEntryBytes) > "
           "DmaLimit :\n"
           "      (dram != '0 && DmaEndBits'(dram) + DmaEndBits'(ld_span) > DmaLimit))");
  b.comment("`full` on an accumulator destination is ignored (as on Gemmini); on the scratchpad "
            "mv_flags_bad rejects it.");
  b.assign("ld_err", "(ld_comp && mv_acc && !mv_garbage) ? ErrUnsupported :\n"
                     "      (mv_garbage || mv_flags_bad) ? ErrBadLocalAddr :\n"
                     "      (mv_rows == '0 || mv_cols == '0 ||\n"
                     "       AddrBits'(mv_cols) > (!mv_acc ? AddrBits'(MaxColsSp) :\n"
                     "                       ld_shrink ? AddrBits'(MaxColsAccNarrow) : "
                     "AddrBits'(MaxColsAcc)) ||\n"
                     "       (mv_blocks > BlocksBits'(1) && ld_bstride < mv_rows)) ? ErrBadSize :\n"
                     "      (ld_end > EndBits'(mv_mem_rows)) ? ErrLocalRange :\n"
                     "      ld_dma_bad ? ErrDmaError : ErrNone");
  b.blank();
}

// DECOMPRESS (Boveda on-chip form): source container rows and dc_err; the destination is
// checked as a compressed MVIN's (the mv_* signals), and may not overlap the source.
void CmdDecoderGenerator::decompressChecks(vlog::Body& b, IsaFieldWires& f) const {
  const config::BovedaConfig& bc = p_.config.boveda;
  const int rowsPerContainer = bc.containerBits / (p_.spElems * p_.iw); // DIM*lanes elements
  const int maxGroupBits = bc.headerBits + (bc.zeroAware ? bc.groupSize : 0) + bc.groupSize * p_.iw;
  b.comment("DECOMPRESS (Boveda on-chip form): source container rows and checks; the "
            "destination is checked as a compressed MVIN's, and may not overlap the source.");
  b.localParam("RowsPerContainer", num(rowsPerContainer), "scratchpad rows of a container");
  b.localParam("GroupSize", num(bc.groupSize));
  b.localParam("GroupSizeLog2", num(config::log2Exact(bc.groupSize)));
  b.localParam("GroupRound", "GroupSize-1", "rounds values up to groups");
  b.localParam("MaxGroupBits", num(maxGroupBits), "the largest group a block can hold");
  b.localParam("ContainerBits", num(bc.containerBits));
  b.localParam("ContainerBitsLog2", num(config::log2Exact(bc.containerBits)));
  b.localParam("ContainerRound", "ContainerBits-1", "rounds bits up to containers");
  b.logic("dc_src_high", Type::bits("AddrBits-LocalRowBits"), "must be zero: a scratchpad row");
  b.logic("dc_src_row", Type::bits("LocalRowBits"));
  b.logic("dc_src_end", Type::bits("EndBits"), "one past the last container row read");
  b.logic("dc_max", Type::bits("EndBits"), "most containers a block of rows*cols values can need");
  b.logic("dc_err", Type::bits("ErrBits"));
  f("dc", "DECOMPRESS", "rs1", "containers"); // dc_containers
  b.assign("{dc_src_high, dc_src_row}", f("dc", "DECOMPRESS", "rs1", "src_addr"));
  b.assign("dc_src_end", "EndBits'(dc_src_row) + EndBits'(dc_containers) * "
                         "EndBits'(RowsPerContainer)");
  b.assign("dc_max", "((EndBits'(mv_rows) * EndBits'(mv_cols) + EndBits'(GroupRound)) >> "
                     "GroupSizeLog2) *\n"
                     "      EndBits'(MaxGroupBits) + EndBits'(ContainerRound) >> "
                     "ContainerBitsLog2");
  b.assign("dc_err", "(mv_acc && !mv_garbage) ? ErrUnsupported :\n"
                     "      (dc_src_high != '0 || mv_garbage || mv_full || mv_flags_bad) ? "
                     "ErrBadLocalAddr :\n"
                     "      (mv_rows == '0 || mv_cols == '0 || AddrBits'(mv_cols) > "
                     "AddrBits'(MaxColsSp) ||\n"
                     "       (mv_blocks > BlocksBits'(1) && ld_bstride < mv_rows) ||\n"
                     "       dc_containers == '0 || EndBits'(dc_containers) > dc_max) ? "
                     "ErrBadSize :\n"
                     "      (ld_end > EndBits'(SpRows) || dc_src_end > EndBits'(SpRows) ||\n"
                     "       (EndBits'(dc_src_row) < ld_end && EndBits'(mv_row) < dc_src_end)) ? "
                     "ErrLocalRange : ErrNone");
  b.blank();
}

// MVOUT (StoreRows, StorePool or StoreStrided): the walk's mode, extent and st_err.
void CmdDecoderGenerator::mvoutChecks(vlog::Body& b) const {
  b.comment("MVOUT (StoreRows, StorePool: max-pool, StoreStrided: strided 1-D).");
  b.logic("st_mode", Type::named("store_mode_e"));
  b.logic("st_raw", Type::bit(), "raw acc_t values leave");
  b.logic("st_end", Type::bits("EndBits"));
  b.logic("st_last_pixel", Type::bits("PixelBits"),
          "DRAM pixel index of the last pooled / 1-D row");
  b.logic("st_span", Type::bits("SpanBits"));
  b.logic("st_err", Type::bits("ErrBits"));
  b.assign("st_mode",
           "st_pool_stride != '0 ? StorePool : st_pool_size != '0 ? StoreStrided : StoreRows");
  b.assign("st_raw", "mv_acc && mv_full");
  b.logic("st_bstride", Type::bits("CountBits"),
          "local rows between an MVOUT's column blocks: DIM, or a loop's own");
  b.assign("st_bstride", loops_ || conv_ ? "cmd_bstride_i != '0 ? cmd_bstride_i : CountBits'(Dim)"
                                         : "CountBits'(Dim)");
  b.assign("st_end", "st_mode == StoreRows ?\n"
                     "      EndBits'(mv_row) + EndBits'(mv_blocks_m1) * EndBits'(st_bstride) + "
                     "EndBits'(mv_rows) :\n"
                     "      EndBits'(mv_row) + EndBits'(st_orows) * EndBits'(st_ocols)");
  b.logic("st_last_row", Type::bits("PixBits"), "last pooled / image row");
  b.logic("st_last_col", Type::bits("PixBits"), "last pooled / image column");
  b.assign("st_last_row", "(st_mode == StorePool ? st_porows : st_orows) - PixBits'(1)");
  b.assign("st_last_col", "(st_mode == StorePool ? st_pocols : st_ocols) - PixBits'(1)");
  b.assign("st_last_pixel", "PixelBits'(st_last_row) * PixelBits'(st_pool_out_dim) + "
                            "PixelBits'(st_last_col)");
  b.assign("st_span", "(st_mode == StoreRows ? SpanBits'(mv_rows_m1) : SpanBits'(st_last_pixel)) "
                      "*\n      SpanBits'(st_stride_q) +\n"
                      "      SpanBits'(mv_cols) * (st_raw ? SpanBits'(AccBytes) : "
                      "SpanBits'(ElemBytes))");
  b.logic("st_comp", Type::bit(), "a compressed MVOUT");
  b.assign("st_comp", boveda_ ? "st_comp_q" : "1'b0");
  b.logic("st_dma_bad", Type::bit());
  b.assign("st_dma_bad", "dram_high != '0 ||\n"
                         "      DmaEndBits'(dram) + (st_comp ? DmaEndBits'(PtrEntryBytes) : "
                         "DmaEndBits'(st_span)) > DmaLimit");
  b.assign("st_err",
           "(st_comp && (st_mode != StoreRows || (st_raw && !mv_garbage))) ? ErrUnsupported :\n"
           "      (mv_garbage || mv_flags_bad) ? ErrBadLocalAddr :\n"
           "      (st_mode == StorePool && (!mv_acc || mv_full || st_pool_size == '0 ||\n"
           "                           st_porows == '0 || st_pocols == '0)) ? ErrBadPool :\n"
           "      (st_mode != StoreRows && (AddrBits'(mv_cols) > AddrBits'(Dim) || "
           "st_orows == '0 ||\n"
           "                           st_ocols == '0)) ? ErrBadPool :\n"
           "      (mv_cols == '0 || (st_mode == StoreRows && (mv_rows == '0 ||\n"
           "       AddrBits'(mv_cols) > (st_raw ? AddrBits'(Dim) : mv_acc ? "
           "AddrBits'(MaxColsAccNarrow) :\n"
           "                       AddrBits'(MaxColsSp))))) ? ErrBadSize :\n"
           "      (st_end > EndBits'(mv_mem_rows)) ? ErrLocalRange :\n"
           "      st_dma_bad ? ErrDmaError : ErrNone");
  b.blank();
}

// CONFIG_EX / CONFIG_LD / CONFIG_ST: cex_err, cld_err, cst_err.
void CmdDecoderGenerator::configChecks(vlog::Body& b, IsaFieldWires& f) const {
  b.comment("CONFIG_EX / CONFIG_LD / CONFIG_ST.");
  b.logic("cex_err", Type::bits("ErrBits"));
  b.logic("cld_err", Type::bits("ErrBits"));
  b.logic("cst_err", Type::bits("ErrBits"));
  const std::string onlyStrides = f("cex", "CONFIG_EX", "rs1", "set_only_strides");
  const std::string ws = f("cex", "CONFIG_EX", "rs1", "dataflow");
  const std::string aT = f("cex", "CONFIG_EX", "rs1", "a_transpose");
  const std::string bT = f("cex", "CONFIG_EX", "rs1", "b_transpose");
  // Transposes go through the execute controller's one transposer (one-lane, non-TensorDash
  // configs): A in WS when transposed, in OS when not; B when transposed. Two operands for it
  // are not supported (docs/isa.md, "Transposes").
  const std::string badTranspose =
      transposer() ? "(" + ws + " ? " + aT + " && " + bT + " : !" + aT + " && " + bT + ")"
                   : aT + " || " + bT;
  b.assign("cex_err", "(!" + onlyStrides + " && ((" + ws + " && !" +
                          std::string(p_.array.hasWs ? "1'b1" : "1'b0") + ") || (!" + ws + " && !" +
                          (p_.array.hasOs ? "1'b1" : "1'b0") + ") ||\n        " +
                          f("cex", "CONFIG_EX", "rs1", "activation") + " > ActRelu" +
                          (tdSideB() ? "" : " || " + f("cex", "CONFIG_EX", "rs1", "td_side")) +
                          " ||\n        " + badTranspose + ")) ? ErrUnsupported :\n      (!" +
                          onlyStrides + " && " + f("cex", "CONFIG_EX", "rs2", "in_shift") +
                          " >= AccWidth) ? ErrBadShift : ErrNone");
  const std::string scale = f("cld", "CONFIG_LD", "rs1", "scale");
  b.assign("cld_err", "(" + scale + " != '0 && " + scale + " != FloatOne) ||\n      " +
                          f("cld", "CONFIG_LD", "rs1", "pixel_repeats") + " > 8'(1) || " +
                          f("cld", "CONFIG_LD", "rs1", "state_id") + " >= 2'(LoadStates)" +
                          (boveda_ ? "" : " || " + f("cld", "CONFIG_LD", "rs1", "compressed")) +
                          " ? ErrUnsupported :\n      " + f("cld", "CONFIG_LD", "rs2", "stride") +
                          " > MaxLdStride ? ErrBadSize : ErrNone");
  b.assign("cst_err", f("cst", "CONFIG_ST", "rs1", "activation") + " > ActRelu" +
                          (boveda_ ? "" : " || " + f("cst", "CONFIG_ST", "rs1", "compressed")) +
                          " ? ErrUnsupported : ErrNone");
  b.blank();
}

// PRELOAD (checked when it arrives, pre_err) and COMPUTE (checked with its PRELOAD, cmp_err).
// Rows 1..DIM; columns 1..DIM*lanes for A and B (docs/isa.md, "Vector PEs": a reduction row,
// or a lane-packed row of B), 1..DIM for D and C.
void CmdDecoderGenerator::computeChecks(vlog::Body& b) const {
  b.comment("PRELOAD (checked when it arrives) and COMPUTE (checked with its PRELOAD).");
  auto dimOk = [](const std::string& n, const std::string& maxCols) {
    return "(" + n + "_rows != '0 && AddrBits'(" + n + "_rows) <= AddrBits'(Dim) && " + n +
           "_cols != '0 && AddrBits'(" + n + "_cols) <= AddrBits'(" + maxCols + "))";
  };
  auto rangeEnd = [&](const std::string& n, const std::string& stride) {
    b.logic(n + "_end", Type::bits("EndBits"));
    b.assign(n + "_end", "EndBits'(" + n + "_row) + EndBits'(" + n + "_rows_m1) * EndBits'(" +
                             stride + ") + EndBits'(1)");
  };
  b.logic("pre_err", Type::bits("ErrBits"));
  rangeEnd("pbd", "1");
  rangeEnd("pc", "ex_c_stride_q");
  b.assign("pre_err",
           "(pbd_flags_bad || (pbd_acc && !pbd_garbage && (pbd_accumulate || pbd_full || "
           "ex_ws_q)) ||\n"
           "       pc_flags_bad) ? ErrBadLocalAddr :\n"
           "      !(" +
               dimOk("pbd", "ex_ws_q ? SpElems : Dim") + " && " + dimOk("pc", "Dim") +
               ") ? ErrBadSize :\n"
               "      ((!pbd_garbage && pbd_end > EndBits'(pbd_mem_rows)) ||\n"
               "       (!pc_garbage && pc_end > EndBits'(pc_mem_rows))) ? ErrLocalRange : "
               "ErrNone");
  b.logic("cmp_flip", Type::bit(), "COMPUTE_PRELOADED: the array switches to the preload");
  b.logic("cmp_err", Type::bits("ErrBits"));
  b.assign("cmp_flip", "cmd_funct_i == FunctComputePreloaded");
  rangeEnd("a", "ex_a_stride_q");
  rangeEnd("d", "1");
  rangeEnd("bd", "1");
  rangeEnd("c", "ex_c_stride_q");
  b.assign("cmp_err", "(!pre_valid_q || (!cmp_flip && !stationary_q)) ? ErrUnpaired :\n"
                      "      (a_flags_bad || (a_acc && !a_garbage) || d_flags_bad ||\n"
                      "       (d_acc && !d_garbage && (d_accumulate || d_full || !ex_ws_q))) ? "
                      "ErrBadLocalAddr :\n"
                      "      (!(" +
                          dimOk("a", "SpElems") + " && " + dimOk("d", "ex_ws_q ? Dim : SpElems") +
                          ") ||\n"
                          "       (ex_ws_q && AddrBits'(c_rows) > " +
                          std::string(td_ ? "AddrBits'(a_rows)"
                                          : "(ex_a_t_q ? AddrBits'(a_cols) : AddrBits'(a_rows))") +
                          ")) ? ErrBadSize :\n"
                          "      ((!a_garbage && a_end > EndBits'(SpRows)) ||\n"
                          "       (!d_garbage && d_end > EndBits'(d_mem_rows))) ? ErrLocalRange :\n"
                          "      ErrNone");
  b.blank();
}

// The outcome of the command at the head: an error, an operation for the reservation station,
// or a local action. Drives dangling, err, needs_rs, needs_resp, accept, cmd_ready_o, ctr_*.
void CmdDecoderGenerator::outcome(vlog::Body& b) const {
  b.comment("The outcome of the command at the head: an error, an operation for the "
            "reservation station, or a local action. A pending PRELOAD followed by anything "
            "but a COMPUTE is rejected first (the command itself waits a cycle).");
  b.logic("dangling", Type::bit(), "reject the pending PRELOAD before this command");
  b.logic("err", Type::bits("ErrBits"));
  b.logic("needs_rs", Type::bit());
  b.logic("needs_resp", Type::bit());
  b.logic("accept", Type::bit(), "the command leaves the queue this cycle");
  b.assign("dangling", "cmd_valid_i && pre_valid_q && !is_compute");
  b.assign("err",
           "!is_known ? ErrUnknownFunct :\n"
           "      is_config_bad ? ErrBadConfigType :\n"
           "      is_config_ex ? cex_err : is_config_ld ? cld_err : is_config_st ? "
           "cst_err :\n"
           "      is_mvin ? ld_err : " +
               std::string(onChip_ ? "is_dc ? dc_err : " : "") +
               "is_mvout ? st_err : is_preload ? pre_err :\n"
               "      is_compute ? cmp_err : " +
               (loops_ ? "is_loop_ws ? (ex_ws_q && !ws_xpose_bad && !ws_comp_bad ? loop_err_i :\n"
                         "      ErrUnsupported) : "
                       : "") +
               (conv_ ? "is_loop_conv ? (ex_ws_q != is_loop_conv_os && !conv_xpose_bad && "
                        "!conv_comp_bad ? "
                        "conv_err_i : ErrUnsupported) :\n      "
                      : "") +
               "ErrNone");
  b.assign("needs_rs", "err == ErrNone && (is_mvin || " + std::string(onChip_ ? "is_dc || " : "") +
                           "is_mvout || is_compute)");
  b.comment("A RoCC command that writes rd always gets a response (a core waits for it), 0 "
            "unless it is a COUNTER_OP; a COUNTER_OP pushed through the registers always "
            "leaves its result in RESP_*.");
  b.assign("needs_resp", "cmd_xd_i || (cmd_mmio_i && is_counter)");
  b.assign("accept", std::string("cmd_valid_i && !dangling && (needs_rs ? op_ready_i :\n"
                                 "      needs_resp ? !resp_valid_q : 1'b1)") +
                         (table_ ? " &&\n      (!is_table || st_idle_i)" : ""));
  b.assign("cmd_ready_o", "accept");
  b.assign("ctr_valid_o", "accept && is_counter");
  if (table_)
    b.assign("table_valid_o", "accept && is_table");
  if (loops_)
    b.assign("loop_start_o", "accept && is_loop_ws && err == ErrNone");
  if (conv_) {
    b.assign("conv_start_o", "accept && is_loop_conv && err == ErrNone");
  }
  b.assign("ctr_rs1_o", "CounterBits'(cmd_rs1_i)");
  b.blank();
}

// Operations with their configuration applied: ld/st/ex payloads and op_valid_o, op_kind_o,
// op_payload_o.
void CmdDecoderGenerator::operationOut(vlog::Body& b) const {
  b.comment("Operations with their configuration applied.");
  b.logic("ld_payload", Type::bits(num(ld_.width())));
  b.logic("st_payload", Type::bits(num(st_.width())));
  b.logic("ex_payload", Type::bits(num(ex_.width())));
  std::map<std::string, std::string> ldv = {{"dram", "AddrBits'(dram)"},
                                            {"zero", "dram == '0"},
                                            {"acc", "mv_acc"},
                                            {"accumulate", "mv_accumulate"},
                                            {"shrink", "ld_shrink"},
                                            {"row", "RowBits'(mv_row)"},
                                            {"rows", "mv_rows"},
                                            {"cols", "mv_cols"},
                                            {"blocks", "8'(mv_blocks)"},
                                            {"stride", "ld_stride"},
                                            {"block_stride", "ld_bstride"},
                                            {"channel", "ld_ch"}};
  std::map<std::string, std::string> stv = {{"dram", "AddrBits'(dram)"},
                                            {"acc", "mv_acc"},
                                            {"full", "mv_full"},
                                            {"row", "RowBits'(mv_row)"},
                                            {"rows", "mv_rows"},
                                            {"cols", "mv_cols"},
                                            {"blocks", "8'(mv_blocks)"},
                                            {"stride", "st_stride_q"},
                                            {"block_stride", "st_bstride"},
                                            {"scale", "st_scale_q"},
                                            {"relu", "st_relu_q"},
                                            {"mode", "st_mode"},
                                            {"pool_stride", "st_pool_stride"},
                                            {"pool_size", "st_pool_size"},
                                            {"upad", "st_upad"},
                                            {"lpad", "st_lpad"},
                                            {"pool_out_dim", "st_pool_out_dim"},
                                            {"porows", "st_porows"},
                                            {"pocols", "st_pocols"},
                                            {"orows", "st_orows"},
                                            {"ocols", "st_ocols"}};
  if (boveda_) {
    ldv["compressed"] = "ld_comp";
    ldv["ptr_inval"] = "ptr_inval_q";
    if (onChip_) {
      ldv["onchip"] = "is_dc";
      ldv["channel"] = "is_dc ? ChDecompress : ld_ch";
      ldv["dram"] = "is_dc ? AddrBits'(dc_src_row) : AddrBits'(dram)";
      ldv["zero"] = "dram == '0 && !is_dc";
      ldv["stride"] = "is_dc ? AddrBits'(dc_containers) : ld_stride";
    }
    stv["compressed"] = "st_comp";
    stv["epoch"] = "st_epoch_q";
  }
  b.assign("ld_payload", ld_.pack(ldv));
  b.assign("st_payload", st_.pack(stv));
  std::map<std::string, std::string> exv = {{"flip", "cmp_flip"},
                                            {"ws", "ex_ws_q"},
                                            {"relu", "ex_relu_q"},
                                            {"shift", "ex_shift_q"},
                                            {"a_stride", "ex_a_stride_q"},
                                            {"c_stride", "ex_c_stride_q"},
                                            {"c_accumulate", "c_accumulate"}};
  if (td_) {
    exv["td_off"] = "ex_td_off_q";
    if (tdSideB())
      exv["td_side"] = "ex_td_side_q";
  } else {
    exv["a_t"] = "ex_a_t_q";
    exv["b_t"] = "ex_b_t_q";
  }
  if (hasAStep(p_))
    exv["a_step"] = "cmd_astep_i";
  for (const char* op : {"a", "bd", "d", "c"}) {
    const std::string o = op;
    exv[o + "_garbage"] = o + "_garbage";
    exv[o + "_acc"] = o + "_acc";
    exv[o + "_row"] = "RowBits'(" + o + "_row)";
    exv[o + "_rows"] = num(p_.dimBits) + "'(" + o + "_rows)";
    exv[o + "_cols"] = num(p_.spElemBits) + "'(" + o + "_cols)";
  }
  b.assign("ex_payload", ex_.pack(exv));
  const std::string mvinOrDc = onChip_ ? "(is_mvin || is_dc)" : "is_mvin";
  b.assign("op_valid_o", "cmd_valid_i && !dangling && needs_rs");
  if (mergesComputes(p_))
    b.assign("ex_next_o", "cmd_valid_i && (is_preload || is_compute)");
  b.assign("op_kind_o", mvinOrDc + " ? OpLoad : is_mvout ? OpStore : OpExec");
  b.assign("op_payload_o", mvinOrDc +
                               " ? PayloadWidth'(ld_payload) : is_mvout ? "
                               "PayloadWidth'(st_payload) :\n      PayloadWidth'(ex_payload)");
}

// The local row ranges each operation reads and writes (for the reservation station).
void CmdDecoderGenerator::ranges(vlog::Body& b) const {
  auto rangeVal = [&](const std::string& valid, const std::string& acc, const std::string& start,
                      const std::string& end) {
    return range_.pack({{"valid", valid},
                        {"acc", acc},
                        {"start", "RowBits'(" + start + ")"},
                        {"end", "RowBits'(" + end + ")"}});
  };
  b.localParam("RangeWidth", num(range_.width()), "one range {" + range_.describe() + "}");
  const std::string none = "RangeWidth'(0)";
  b.logic("ranges_ld", Type::bits("RangesWidth"));
  b.logic("ranges_st", Type::bits("RangesWidth"));
  b.logic("ranges_ex", Type::bits("RangesWidth"));
  b.assign("ranges_ld",
           "{" + rangeVal("1'b1", "mv_acc", "mv_row", "ld_end") + ", " + none + ", " + none +
               ",\n      " +
               (onChip_ ? rangeVal("is_dc", "1'b0", "dc_src_row", "dc_src_end") : none) + "}");
  b.assign("ranges_st", "{" + none + ", " + none + ", " + none + ",\n      " +
                            rangeVal("1'b1", "mv_acc", "mv_row", "st_end") + "}");
  b.assign("ranges_ex",
           "{" + rangeVal("!c_garbage", "c_acc", "c_row", "c_end") + ",\n" +
               "                      " + rangeVal("!d_garbage", "d_acc", "d_row", "d_end") +
               ",\n" + "                      " +
               rangeVal("!bd_garbage", "bd_acc", "bd_row", "bd_end") + ",\n" +
               "                      " + rangeVal("!a_garbage", "1'b0", "a_row", "a_end") + "}");
  const std::string mvinOrDc = onChip_ ? "(is_mvin || is_dc)" : "is_mvin";
  b.assign("op_ranges_o", mvinOrDc + " ? ranges_ld : is_mvout ? ranges_st : ranges_ex");
  b.blank();
}

CmdDecoderGenerator::ConfigFields CmdDecoderGenerator::configFields(IsaFieldWires& f) const {
  ConfigFields c;
  c.aStride = f("cex", "CONFIG_EX", "rs1", "a_stride");
  c.cStride = f("cex", "CONFIG_EX", "rs2", "c_stride");
  c.exAct = f("cex", "CONFIG_EX", "rs1", "activation");
  c.shift = f("cex", "CONFIG_EX", "rs2", "in_shift");
  c.onlyStrides = f("cex", "CONFIG_EX", "rs1", "set_only_strides");
  c.ws = f("cex", "CONFIG_EX", "rs1", "dataflow");
  c.aT = f("cex", "CONFIG_EX", "rs1", "a_transpose");
  c.bT = f("cex", "CONFIG_EX", "rs1", "b_transpose");
  c.state = f("cld", "CONFIG_LD", "rs1", "state_id");
  c.bstride = f("cld", "CONFIG_LD", "rs1", "block_stride");
  c.ldStride = f("cld", "CONFIG_LD", "rs2", "stride");
  c.shrink = f("cld", "CONFIG_LD", "rs1", "shrink");
  c.stStride = f("cst", "CONFIG_ST", "rs2", "stride");
  c.stAct = f("cst", "CONFIG_ST", "rs1", "activation");
  c.stScale = f("cst", "CONFIG_ST", "rs2", "acc_scale");
  const PackedLayout pool = poolLayout();
  for (const auto& field : pool.fields())
    c.pool[field.name] = f("cst", "CONFIG_ST", "rs1", field.name);
  if (td_) {
    c.tdOff = f("cex", "CONFIG_EX", "rs1", "td_off");
    c.tdSide = f("cex", "CONFIG_EX", "rs1", "td_side");
  }
  if (boveda_) {
    c.ldComp = f("cld", "CONFIG_LD", "rs1", "compressed");
    c.stComp = f("cst", "CONFIG_ST", "rs1", "compressed");
  }
  return c;
}

void CmdDecoderGenerator::nextState(vlog::Stmts& n, const ConfigFields& c) const {
  n.ifElse("resp_valid_q && resp_ready_i", [](vlog::Stmts& s) {
     s.line("resp_valid_d = 1'b0;");
   }).ifElse("cmd_valid_i && dangling", [](vlog::Stmts& s) { s.line("pre_valid_d = 1'b0;"); });
  nextConfig(n, c);
  n.ifElse("accept && is_preload",
           [](vlog::Stmts& s) {
             s.comment("A valid PRELOAD waits for its COMPUTE; a rejected one leaves nothing.");
             s.line("pre_valid_d = err == ErrNone;");
             s.line("pre_rs1_d = cmd_rs1_i;");
             s.line("pre_rs2_d = cmd_rs2_i;");
           })
      .ifElse("accept && is_compute",
              [](vlog::Stmts& s) {
                s.line("pre_valid_d = 1'b0;");
                s.ifElse("err == ErrNone && cmp_flip",
                         [](vlog::Stmts& t) { t.line("stationary_d = 1'b1;"); });
              })
      .ifElse("accept && needs_resp", [](vlog::Stmts& s) {
        s.line("resp_valid_d = 1'b1;");
        s.line("resp_mmio_d = cmd_mmio_i;");
        s.line("resp_data_d = is_counter ? XBits'(ctr_value_i) : '0;");
      });
  if (boveda_)
    n.comment("Pointer lines: every CONFIG_LD, MVOUT or FLUSH (rejected or not) invalidates "
              "them before the next compressed MVIN's lookup.")
        .ifElse("accept && (is_config_ld || is_mvout || is_flush)",
                [](vlog::Stmts& s) { s.line("ptr_inval_d = 1'b1;"); })
        .ifElse("accept && needs_rs && is_mvin && ld_comp",
                [](vlog::Stmts& s) { s.line("ptr_inval_d = 1'b0;"); });
}

// An accepted, legal CONFIG_EX / CONFIG_LD / CONFIG_ST updates its state.
void CmdDecoderGenerator::nextConfig(vlog::Stmts& n, const ConfigFields& c) const {
  n.ifElse("accept && err == ErrNone && is_config_ex",
           [&](vlog::Stmts& s) {
             s.line("ex_a_stride_d = " + c.aStride + " == '0 ? CountBits'(1) : " + c.aStride + ";");
             s.line("ex_c_stride_d = " + c.cStride + " == '0 ? CountBits'(1) : " + c.cStride + ";");
             s.ifElse("!" + c.onlyStrides, [&](vlog::Stmts& t) {
               t.line("ex_ws_d = " + c.ws + ";");
               t.line("ex_relu_d = " + c.exAct + " == ActRelu;");
               t.line("ex_shift_d = ShiftBits'(" + c.shift + ");");
               t.line("stationary_d = 1'b0;");
               if (td_) {
                 t.line("ex_td_off_d = " + c.tdOff + ";");
               } else {
                 t.line("ex_a_t_d = " + c.aT + ";");
                 t.line("ex_b_t_d = " + c.bT + ";");
               }
               if (tdSideB())
                 t.line("ex_td_side_d = " + c.tdSide + ";");
             });
           })
      .ifElse("accept && err == ErrNone && is_config_ld",
              [&](vlog::Stmts& s) {
                s.line("ld_stride_d[" + c.state + "] = AddrBits'(" + c.ldStride + ");");
                s.line("ld_block_stride_d[" + c.state + "] = " + c.bstride +
                       " == '0 ? CountBits'(Dim) : " + c.bstride + ";");
                s.line("ld_shrink_d[" + c.state + "] = " + c.shrink + ";");
                if (boveda_)
                  s.line("ld_comp_d[" + c.state + "] = " + c.ldComp + ";");
              })
      .ifElse("accept && err == ErrNone && is_config_st", [&](vlog::Stmts& s) {
        s.line("st_stride_d = " + c.stStride + ";");
        if (boveda_) {
          s.line("st_comp_d = " + c.stComp + ";");
          s.line("st_epoch_d = st_epoch_q ^ " + c.stComp + ";");
        }
        s.line("st_relu_d = " + c.stAct + " == ActRelu;");
        s.ifElse(c.stScale + " != AccScaleKeep",
                 [&](vlog::Stmts& t) { t.line("st_scale_d = " + c.stScale + ";"); });
        s.line("st_pool_d = " + poolLayout().pack(c.pool) + ";");
      });
}

} // namespace by::hw
