// The convolution loop unroller (loops.conv; docs/isa.md, "LOOP_CONV_WS", "LOOP_CONV_OS"): it
// sits between the command frontend (or the LOOP_WS unroller) and the decoder, in the style of
// by_loop_ws. While no loop runs it passes commands through and keeps the fields of the
// LOOP_CONV_WS_CONFIG_* commands the decoder accepts. For a LOOP_CONV_WS or LOOP_CONV_OS at its
// input it computes the loop's checks (loop_err_o); when the decoder accepts a legal one
// (start_i) it holds its input and issues
// the tile as MVIN3 / MVIN2 / MVIN / PRELOAD / COMPUTE / MVOUT commands into the decoder, one
// per cycle at most, in the order of docs/isa.md (which the functional model follows command
// for command, models/funcmodel/src/loop_conv.cpp). The two loops share the loads, the local
// layout and the stores; their computes run in the order of their dataflow: weight-stationary
// (a weight block preloaded once, every output pixel of the tile accumulating onto C) or
// output-stationary (one accumulation in the array per output tile over every tap and input
// channel block, written onto C once). With vector PEs an input-channel block is DIM x lanes
// channels (a scratchpad row) and the weights are lane-packed (docs/isa.md, "Vector PEs"). Each
// move writes one contiguous range of rows (the loop's own block strides ride with its MVINs on
// cmd_bstride_o), so the reservation station's hazards are exact. So the
// decoder's checks, the CONFIG state and the reservation station's hazards apply to them as to host
// commands. Each loop uses the other scratchpad half than the previous one, and the other
// accumulator half after a loop that stores, so two loops are in flight; a spad id names the
// half of its operand instead, and with DRAM address 0 the operand is already there (an input
// window or weights an earlier loop left), so the loop skips its moves.
//
// Cost: the checks multiply tile sizes (each product clamped to just above the half it must
// fit, so a 16-bit multiplier per step is exact); the command addresses use three DRAM
// multipliers (index and stride) and a handful of local-row multipliers, shared by phases.
#include "loop_conv.h"

#include "hwspec/isa.h"
#include "loop_common.h"
#include "text_util.h"

#include <algorithm>
#include <functional>

namespace by::hw {

using vlog::Type;

namespace {

const std::vector<std::pair<std::string, std::string>>& phases() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"PhIdle", "no loop: commands pass through"},
      {"PhCfg", "trans_input_3120: CONFIG_EX of the computes' strides, after them the old ones"},
      {"PhD", "MVIN3 of the bias (or zeros): per output row (pooled: image) and out block"},
      {"PhB", "MVIN2 of a tap's weights, every input-channel block, MAX_BLOCK_LEN out blocks"},
      {"PhRow", "decides the segments of input row (b, r) (no command)"},
      {"PhA", "MVIN of one segment of the input row: zeros or real pixels"},
      {"PhPre", "PRELOAD of compute (ob, kr, kc, kb, b, orow, ocol)"},
      {"PhComp", "COMPUTE of that step"},
      {"PhC", "MVOUT of an output row, OutBlocks out blocks each (pooled: image, block)"}};
  return v;
}

std::string hexWord(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "32'h%08x", v);
  return s;
}

std::string hex64(uint64_t v) {
  char s[20];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

} // namespace

vlog::Module LoopConvGenerator::build() const {
  vlog::Module m(names::kLoopConv,
                 "LOOP_CONV_WS unroller: passes commands through, keeps the "
                 "LOOP_CONV_WS_CONFIG_* state, checks LOOP_CONV_WS and issues an accepted tile "
                 "as MVIN/PRELOAD/COMPUTE/MVOUT commands into the decoder (docs/isa.md, "
                 "\"LOOP_CONV_WS\").");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  IsaFieldWires f(b, "host_");
  StateRegs regs(b);
  configRegs(b, regs, f);
  geometry(b);
  check(b, f);
  commands(b);
  vlog::Stmts& n = regs.next();
  nextConfig(n);
  nextSequence(n);
  loops::commandOutputs(b, wsInFront());
  if (depthwiseSteps())
    b.assign("cmd_astep_o", "active ? out_astep_q : '0");
  return m;
}

void LoopConvGenerator::ports(vlog::Module& m) const {
  loops::commandPorts(m, wsInFront() ? "the LOOP_WS unroller" : "the frontend", wsInFront());
  if (depthwiseSteps())
    m.output("cmd_astep_o", Type::bits(std::max(1, config::log2Exact(p_.dim))),
             "with cmd_*: a depthwise COMPUTE's first reduction step of A (0 for the host's)");
  m.portGroup("LOOP_CONV_WS / LOOP_CONV_OS checks and start (with the decoder).");
  m.output("loop_err_o", Type::bits("ErrBits"),
           "the checks of a LOOP_CONV_WS at the input (ErrNone when legal)");
  m.input("start_i", Type::bit(), "the decoder accepts a legal LOOP_CONV_WS this cycle");
  m.input("ex_a_stride_i", Type::bits(16), "CONFIG_EX's a_stride (restored after a loop's own)");
  m.input("ex_c_stride_i", Type::bits(16), "CONFIG_EX's c_stride (likewise)");
  m.output("busy_o", Type::bit(), "a loop is being issued");
}

void LoopConvGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
  const int half = p.derived.spRows / 2, accHalf = p.derived.accRows / 2;
  int rowsBits = 1;
  while ((1 << rowsBits) <= std::max(half, accHalf) + 1)
    ++rowsBits;
  b.localParam("Dim", num(p.dim));
  b.localParam("DimLog2", num(config::log2Exact(p.dim)));
  b.localParam("Lanes", num(p.lanes), "reduction elements of a PE per beat");
  b.localParam("LanesLog2", num(config::log2Exact(p.lanes)));
  b.localParam("KBlock", num(p.dim * p.lanes),
               "input channels of a block: a scratchpad row (DIM x lanes)");
  b.localParam("KBlockLog2", num(config::log2Exact(p.dim * p.lanes)));
  b.localParam("BandRows", num((p.dim + p.lanes - 1) / p.lanes),
               "depthwise: packed weight rows of a tap's band (ceil(DIM / lanes))");
  b.localParam("SpHalf", num(half), "rows of a scratchpad half");
  b.localParam("AccHalf", num(accHalf), "rows of an accumulator half");
  b.localParam("MaxBlockLen", num(p.maxBlockLen), "column blocks of an elem_t move");
  b.localParam("OutBlocks", num(p.maxColsAccElems / p.dim),
               "output-channel blocks of an unpooled output MVOUT (MAX_ACC_ELEM_COLS / DIM)");
  b.localParam("ElemBytesLog2", num(config::log2Exact(p.iw / 8)));
  if (boveda()) {
    b.localParam("MaxBlockLenLog2", num(config::log2Exact(p.maxBlockLen)));
    b.localParam("OutBlocksLog2", num(config::log2Exact(p.maxColsAccElems / p.dim)));
    b.localParam("EntryBytesLog2", num(config::log2Exact(int(isa::kBovedaEntryBytes))),
                 "a Boveda pointer entry");
  }
  b.localParam("AccBytesLog2", num(config::log2Exact(p.aw / 8)));
  b.localParam("CountBits", "16", "configuration fields, iterators");
  b.localParam("SizeBits", num(rowsBits),
               "local row counts: a half's rows + 1 fit (larger products are clamped)");
  b.localParam("AddrBits", "32", "a local address");
  b.localParam("RowBits", num(rowBits()),
               "a row within the scratchpad or accumulator (products of a legal loop's "
               "iterators and sizes stay below it)");
  for (const char* e : {"NONE", "UNSUPPORTED", "BAD_SIZE", "LOCAL_RANGE", "DMA_ERROR"})
    b.localParam("Err" + upperCamel(e), Type::bits("ErrBits"), "8'd" + num(isa::errorCode(e)), e);
  for (int n = 1; n <= 6; ++n)
    b.localParam("FunctLoopConvWsConfig" + num(n), Type::bits("FunctBits"),
                 "7'd" + num(isa::kLoopConvWsConfig1 + n - 1));
  b.localParam("FunctLoopConvOs", Type::bits("FunctBits"), "7'd" + num(isa::kLoopConvOs));
  {
    const isa::Command& ex = isa::command("CONFIG_EX");
    b.localParam("FunctConfig", Type::bits("FunctBits"), "7'd" + num(isa::kConfig));
    b.localParam("StridesOnly", Type::bits("XBits"),
                 "64'h" + hex64(ex.rs1Field("set_only_strides").place(1)),
                 "CONFIG_EX rs1: cmd_type 0, set_only_strides");
    b.localParam("AStrideLsb", num(ex.rs1Field("a_stride").lsb), "CONFIG_EX rs1's a_stride");
    b.localParam("CStrideLsb", num(ex.rs2Field("c_stride").lsb), "CONFIG_EX rs2's c_stride");
  }
  const std::vector<std::pair<std::string, int>> functs = {
      {"Mvin", isa::kMvin},
      {"Mvin2", isa::kMvin2},
      {"Mvin3", isa::kMvin3},
      {"Mvout", isa::kMvout},
      {"Preload", isa::kPreload},
      {"ComputePreloaded", isa::kComputePreloaded},
      {"ComputeAccumulated", isa::kComputeAccumulated}};
  for (const auto& [name, code] : functs)
    b.localParam("Funct" + name, Type::bits("FunctBits"), "7'd" + num(code));
  b.localParam("GarbageAddr", Type::bits("AddrBits"), "32'hffffffff",
               "a local address that reads or writes nothing");
  b.localParam("AccBit", Type::bits("AddrBits"), hexWord(1u << isa::kLocalAccBit));
  b.localParam("AccumulateBit", Type::bits("AddrBits"), hexWord(1u << isa::kLocalAccumulateBit));
  b.localParam("ActMax", Type::bits(2), "2'd" + num(isa::kActRelu),
               "the largest activation (none, ReLU)");
  b.localParam("DramLimit", Type::bits("XBits"), "64'h00000000ffffffff",
               "addresses above it are DMA_ERROR");
  b.enumType({"phase_e", 4, phases(), {}});
  b.enumType({"seg_e",
              3,
              {{"SegLeft", "the zero columns left of the real pixels (lpad)"},
               {"SegReal", "the real pixels of the row (from DRAM; input_dilated: pixel it_px)"},
               {"SegRight", "the zero columns right of them (rpad)"},
               {"SegZeros", "a padding row (or input_dilated: a row between real rows): zeros"},
               {"SegHole", "input_dilated: the zero column after pixel it_px"}},
              {}});
  b.blank();
}

// The LOOP_CONV_WS_CONFIG_* fields Brickyard uses (kept until overwritten), the running loop's
// halves and rows, the iterators and the output register.
void LoopConvGenerator::configRegs(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const {
  b.comment("Configuration (LOOP_CONV_WS_CONFIG_*), the running loop and the output register.");
  for (const char* n : {"batch_size",
                        "out_channels",
                        "in_row_dim",
                        "in_col_dim",
                        "in_channels",
                        "out_row_dim",
                        "out_col_dim",
                        "pool_out_row_dim",
                        "pool_out_col_dim",
                        "stride",
                        "kernel_dim",
                        "kernel_dilation",
                        "batches",
                        "pochs",
                        "krows",
                        "kcols",
                        "kchs",
                        "lpad",
                        "rpad",
                        "upad",
                        "dpad",
                        "orows",
                        "ocols",
                        "in_stride",
                        "weight_stride",
                        "out_stride"})
    regs.add(n, Type::bits("CountBits"), "'0");
  for (const char* n : {"weights", "output", "bias", "input"})
    regs.add(n, Type::bits("XBits"), "'0");
  regs.add("sp_half", Type::bit(), "1'b0", "scratchpad half of the next loop")
      .add("acc_half", Type::bit(), "1'b0", "accumulator half of the next loop")
      .add("load_d", Type::bit(), "1'b0", "this loop's bias is still to load (no_bias = 0)")
      .add("pool", Type::bit(), "1'b0", "this loop stores pooled images (no_pool = 0)")
      .add("os", Type::bit(), "1'b0", "this loop computes output-stationary (LOOP_CONV_OS)")
      .add("load_a", Type::bit(), "1'b0", "this loop moves its input window")
      .add("load_b", Type::bit(), "1'b0", "this loop moves its weights")
      .add("rot", Type::bit(), "1'b0",
           "wrot180: tap (kr, kc) computes with tap (krows-1-kr, ...)'s weights")
      .add("tw1203", Type::bit(), "1'b0", "trans_weight_1203: weights stored [i][kr][kc][o]")
      .add("tw0132", Type::bit(), "1'b0",
           "trans_weight_0132: weights stored [kr][kc][o][i], moved in as stored")
      .add("to1203", Type::bit(), "1'b0", "trans_output_1203: output stored [y][x][b][o]")
      .add("dil_in", Type::bit(), "1'b0",
           "input_dilated: the window is the input dilated by 2 (zeros between its pixels)")
      .add("dw", Type::bit(), "1'b0",
           "depthwise: output-channel block ob computes with its own channels and band")
      .add("ti", Type::bit(), "1'b0",
           "trans_input_3120: input stored [c][y][x][b]; A's rows are images, read transposed")
      .add("cfg_done", Type::bit(), "1'b0", "trans_input_3120: the loop's strides are set")
      .add("old_a_stride", Type::bits("CountBits"), "'0", "CONFIG_EX's a_stride at the start")
      .add("old_c_stride", Type::bits("CountBits"), "'0", "CONFIG_EX's c_stride at the start")
      .add("a_row", Type::bits("AddrBits"), "'0", "first scratchpad row of the input")
      .add("b_row", Type::bits("AddrBits"), "'0", "first scratchpad row of the weights")
      .add("c_row", Type::bits("AddrBits"), "'0", "first accumulator row of the output")
      .add("phase", Type::named("phase_e"), "PhIdle")
      .add("it_ob", Type::bits("CountBits"), "'0", "output-channel block")
      .add("it_kr", Type::bits("CountBits"), "'0", "kernel row")
      .add("it_kc", Type::bits("CountBits"), "'0", "kernel column")
      .add("it_kb", Type::bits("CountBits"), "'0", "input-channel block")
      .add("it_b", Type::bits("CountBits"), "'0",
           "image (trans_input_3120 loads and computes: block of DIM images)")
      .add("it_row", Type::bits("SizeBits"), "'0", "input row (loads) or output row")
      .add("it_col", Type::bits("CountBits"), "'0", "first output column of a compute")
      .add("seg", Type::named("seg_e"), "SegLeft",
           "segment of an input row: left, real, right, all zeros, a dilation's zero")
      .add("it_px", Type::bits("CountBits"), "'0",
           "input_dilated: the real pixel of the row being moved")
      .add("ld_kr", Type::bits("CountBits"), "'0", "kernel row of the next tap to load")
      .add("ld_kc", Type::bits("CountBits"), "'0", "kernel column of the next tap to load")
      .add("ld_done", Type::bit(), "1'b0", "every tap's weights are loaded")
      .add("lb_ob", Type::bits("CountBits"), "'0", "output-channel block of a weight load")
      .add("lb_kb", Type::bits("CountBits"), "'0",
           "input-channel block of a trans_weight_0132 (or compressed) weight load");
  if (boveda())
    regs.add("wz", Type::bit(), "1'b0",
             "Boveda: the weights are read band by band through pointer entries")
        .add("iz", Type::bit(), "1'b0", "Boveda: the input rows are read as compressed blocks")
        .add("oz", Type::bit(), "1'b0", "Boveda: the output rows leave as compressed blocks");
  loops::outputRegister(b, regs);
  if (depthwiseSteps())
    regs.add("out_astep", Type::bits(std::max(1, config::log2Exact(p_.dim))), "'0",
             "out_*'s first reduction step of A (cmd_astep)");
  const std::vector<std::pair<int, std::vector<std::pair<const char*, std::vector<const char*>>>>>
      fields = {{1,
                 {{"rs1", {"batch_size", "in_row_dim", "in_channels", "out_channels"}},
                  {"rs2", {"out_row_dim", "pool_out_row_dim", "out_col_dim", "stride"}}}},
                {2, {{"rs1", {"pool_out_col_dim", "kernel_dim"}}, {"rs2", {"pochs", "batches"}}}},
                {3,
                 {{"rs1", {"lpad", "kchs", "kcols", "krows"}},
                  {"rs2", {"in_col_dim", "dpad", "upad", "rpad"}}}},
                {4,
                 {{"rs1", {"kernel_dilation", "orows"}},
                  {"rs2", {"ocols", "out_stride", "weight_stride", "in_stride"}}}}};
  for (const auto& [n, regsOf] : fields)
    for (const auto& [reg, names] : regsOf)
      for (const char* name : names)
        f("c" + num(n), "LOOP_CONV_WS_CONFIG_" + num(n), reg, name);
  for (const char* n :
       {"no_bias", "wrot180", "trans_output_1203", "trans_weight_1203", "trans_weight_0132",
        "trans_input_3120", "dw", "depthwise", "b_spad_id", "a_spad_id"})
    f("lc", "LOOP_CONV_WS", "rs1", n);
  for (const char* n : {"no_pool", "downsample", "input_dilated", "activation"})
    f("lc", "LOOP_CONV_WS", "rs2", n);
  if (boveda())
    for (const char* n : {"weights_compressed", "input_compressed", "output_compressed"})
      f("lc", "LOOP_CONV_WS", "rs2", n);
  b.blank();
}

// The tile's window and blocks, and the clamped products of its local layout.
void LoopConvGenerator::geometry(vlog::Body& b) const {
  b.comment("The tile's input window (padding included), channel blocks and local layout. A "
            "product is clamped to SpHalf + 1 (AccHalf + 1 for the output) before it is used "
            "again: every factor is at least 1 after the BAD_SIZE checks, so a clamped result "
            "is above its half exactly when the true one is.");
  b.logic("dilation", Type::bits(10), "kernel_dilation, at least 1");
  b.assign("dilation", "kernel_dilation_q == '0 ? 10'(1) : 10'(kernel_dilation_q)");
  b.logic("irows", Type::bits(28), "(orows - 1) * stride + (krows - 1) * dilation + 1");
  b.logic("icols", Type::bits(28), "(ocols - 1) * stride + (kcols - 1) * dilation + 1");
  b.assign("irows", "(28'(orows_q) - 28'(1)) * 28'(stride_q) + (28'(krows_q) - 28'(1)) * "
                    "28'(dilation) + 28'(1)");
  b.assign("icols", "(28'(ocols_q) - 28'(1)) * 28'(stride_q) + (28'(kcols_q) - 28'(1)) * "
                    "28'(dilation) + 28'(1)");
  b.logic("kch_blocks", Type::bits(17), "ceil(kchs / (DIM x lanes))");
  b.logic("och_blocks", Type::bits(17), "ceil(pochs / DIM)");
  b.assign("kch_blocks", "(17'(kchs_q) + 17'(KBlock - 1)) >> KBlockLog2");
  b.assign("och_blocks", "(17'(pochs_q) + 17'(Dim - 1)) >> DimLog2");
  b.logic("img_blocks", Type::bits(17), "ceil(batches / DIM): trans_input_3120's image blocks");
  b.assign("img_blocks", "(17'(batches_q) + 17'(Dim - 1)) >> DimLog2");
  b.logic("a_images", Type::bits(17),
          "A's images of the loop at the input (trans_input_3120: image blocks)");
  b.logic("a_groups", Type::bits(17),
          "A's column groups of a window row of that loop: channel blocks (trans_input_3120: "
          "channels)");
  b.assign("a_images", "lc_trans_input_3120 ? img_blocks : 17'(batches_q)");
  b.assign("a_groups", "lc_trans_input_3120 ? 17'(kchs_q) : kch_blocks");
  const std::string w = "SizeBits";
  // v above limit ? limit + 1 : v, as SizeBits (v has `width` bits; 0: WideBits).
  auto clampTo = [&](const std::string& limit, const std::string& v, int width) {
    const std::string wv = width ? std::to_string(width) : std::string("WideBits");
    return "(" + (width ? wv + "'(" + v + ")" : v) + " > " + wv + "'(" + limit + ") ? " + w + "'(" +
           limit + " + 1) : " + w + "'(" + v + "))";
  };
  b.localParam("WideBits", "2 * SizeBits", "a product of two clamped sizes");
  b.localParam("SumBits", "SizeBits + 1", "a sum of two clamped sizes");
  // name = clamp(a) * clamp(b), clamped; the clamped factors are wires of their own.
  auto prod = [&](const std::string& name, const std::string& limit, const std::string& a, int aw,
                  const std::string& bb, int bw, const std::string& doc) {
    b.logic(name + "_x", Type::bits(w));
    b.logic(name + "_y", Type::bits(w));
    b.logic(name + "_xy", Type::bits("WideBits"));
    b.logic(name, Type::bits(w), doc);
    b.assign(name + "_x", clampTo(limit, a, aw));
    b.assign(name + "_y", clampTo(limit, bb, bw));
    b.assign(name + "_xy", "WideBits'(" + name + "_x) * WideBits'(" + name + "_y)");
    b.assign(name, clampTo(limit, name + "_xy", 0));
  };
  prod("c_pix", "AccHalf", "batches_q", 16, "orows_q", 16, "batches x orows (clamped)");
  prod("c_image", "AccHalf", "c_pix", 32, "ocols_q", 16, "rows of one output-channel block of C");
  prod("c_rows", "AccHalf", "c_image", 32, "och_blocks", 17, "rows of C");
  prod("a_pix", "SpHalf", "a_images", 17, "irows", 28, "images x irows (clamped)");
  prod("a_segs", "SpHalf", "a_pix", 32, "a_groups", 17,
       "row segments of A: an image row's channel groups, one after another");
  prod("a_rows", "SpHalf", "a_segs", 32, "icols", 28, "rows of A");
  prod("b_taps", "SpHalf", "krows_q", 16, "kcols_q", 16, "kernel taps of the tile");
  b.comment("(A depthwise loop at the input: one band of BandRows rows per tap and output "
            "block.)");
  b.logic("b_kblocks", Type::bits(17), "B's input-channel blocks per tap: 1 for a depthwise loop");
  b.assign("b_kblocks", "lc_depthwise ? 17'(1) : kch_blocks");
  prod("b_taps_k", "SpHalf", "b_taps", 32, "b_kblocks", 17, "taps x input-channel blocks");
  prod("b_blocks", "SpHalf", "b_taps_k", 32, "och_blocks", 17,
       "weight blocks: per tap and input-channel block the output-channel blocks");
  prod("b_rows", "SpHalf", "b_blocks", 32, "lc_depthwise ? BandRows : Dim", 32, "rows of B");
  b.logic("rrows", Type::bits(28), "real (not padding) rows of the window");
  b.logic("rcols", Type::bits(28), "real columns of the window");
  b.assign("rrows", "irows - 28'(upad_q) - 28'(dpad_q)");
  b.assign("rcols", "icols - 28'(lpad_q) - 28'(rpad_q)");
  b.blank();
}

// LOOP_CONV_WS checks (docs/isa.md, "LOOP_CONV_WS"; the decoder adds UNSUPPORTED for the OS
// dataflow).
void LoopConvGenerator::check(vlog::Body& b, IsaFieldWires&) const {
  b.comment("LOOP_CONV_WS checks (on the input's command and the configuration).");
  b.logic("chk_unsupported", Type::bit());
  b.logic("chk_bad_size", Type::bit());
  b.logic("chk_range", Type::bit());
  b.logic("chk_dram", Type::bit());
  // trans_weight_0132 needs CONFIG_EX's b_transpose (the decoder checks the transposes), which
  // only configs with the transposer have.
  const bool transposer = p_.lanes == 1 && !p_.config.tensordash.enabled;
  // trans_input_3120 reads A through it (CONFIG_EX's a_transpose), one operand at a time, in
  // the weight-stationary loop.
  // Depthwise: not with the transposed layouts or compressed weights; on vector PEs the OS
  // loop of a TensorDash config only (its feeder reads A at a column offset).
  const std::string dwLanes = p_.lanes == 1      ? ""
                              : depthwiseSteps() ? " || host_funct_i != FunctLoopConvOs"
                                                 : " || 1'b1";
  b.assign("chk_unsupported",
           "lc_dw ||\n      (lc_depthwise && (lc_trans_weight_1203 || lc_trans_weight_0132 || "
           "lc_trans_input_3120 ||\n       lc_trans_output_1203" +
               std::string(boveda() ? " || lc_weights_compressed" : "") + dwLanes +
               ")) ||\n      lc_downsample || "
               "lc_activation > ActMax ||\n" +
               std::string(p_.lanes > 1 ? "      lc_trans_weight_1203 ||\n" : "") +
               std::string(transposer ? "      (lc_trans_input_3120 && (lc_trans_weight_0132 || "
                                        "host_funct_i == FunctLoopConvOs)) ||\n"
                                      : "      lc_trans_weight_0132 || lc_trans_input_3120 ||\n") +
               "      (lc_trans_output_1203 && !lc_no_pool)" +
               std::string(boveda() ? " ||\n      (!chk_bad_size && ((lc_input_compressed && "
                                      "29'(rcols) != 29'(in_col_dim_q)) ||\n"
                                      "       (lc_output_compressed && ocols_q != out_col_dim_q)))"
                                    : ""));
  b.assign("chk_bad_size",
           "batches_q == '0 || orows_q == '0 || ocols_q == '0 || pochs_q == '0 ||\n"
           "      krows_q == '0 || kcols_q == '0 || kchs_q == '0 || stride_q == '0 ||\n"
           "      29'(upad_q) + 29'(dpad_q) > 29'(irows) || 29'(lpad_q) + 29'(rpad_q) > "
           "29'(icols) ||\n      ((lc_trans_output_1203 || lc_trans_input_3120) && "
           "batch_size_q == '0) ||\n"
           "      (lc_trans_weight_0132 && out_channels_q == '0) || (lc_depthwise && kchs_q != "
           "pochs_q)");
  b.assign("chk_range", "c_rows > SizeBits'(AccHalf) ||\n"
                        "      SumBits'(a_rows) + SumBits'(b_rows) > SumBits'(SpHalf) ||\n"
                        "      &lc_a_spad_id || &lc_b_spad_id");
  b.assign("chk_dram", "weights_q > DramLimit || output_q > DramLimit || bias_q > DramLimit ||\n"
                       "      input_q > DramLimit");
  b.assign("loop_err_o", "chk_unsupported ? ErrUnsupported : chk_bad_size ? ErrBadSize :\n"
                         "      chk_range ? ErrLocalRange : chk_dram ? ErrDmaError : ErrNone");
  b.blank();
}

// The command of the current phase (docs/isa.md, "LOOP_CONV_WS": the unrolled commands).
void LoopConvGenerator::commands(vlog::Body& b) const {
  b.comment("The tap and blocks the current command addresses: a weight load's own, else the "
            "compute iterators'.");
  for (const char* n : {"kr", "kc"}) { // kernel positions: local rows only
    const std::string x = std::string("x_") + n;
    b.logic(x, Type::bits("RowBits"));
    b.assign(x,
             "phase_q == PhB ? RowBits'(ld_" + std::string(n) + "_q) : RowBits'(it_" + n + "_q)");
  }
  b.logic("x_kb", Type::bits("CountBits"));
  b.logic("x_ob", Type::bits("CountBits"));
  // a weight load starts at block 0 (trans_weight_0132: its own input-channel block)
  b.assign("x_kb", std::string("phase_q == PhB ? (tw0132_q") + (boveda() ? " || wz_q" : "") +
                       " ? lb_kb_q : '0) : it_kb_q");
  b.assign("x_ob", "phase_q == PhB ? lb_ob_q : it_ob_q");
  b.comment("Sizes at the iterators.");
  b.logic("k_rem", Type::bits("CountBits"), "input channels from block it_kb on");
  b.logic("o_rem", Type::bits("CountBits"), "output channels from block it_ob on");
  b.logic("kcw", Type::bits("CountBits"), "channels of input-channel block it_kb");
  b.logic("kpw", Type::bits("CountBits"),
          "lane-packed weight rows of input-channel block it_kb: ceil(kcw / lanes)");
  b.logic("ocw", Type::bits("CountBits"), "channels of output-channel block it_ob");
  b.logic("pixels", Type::bits("CountBits"), "output pixels of a compute: up to DIM");
  b.logic("move_k", Type::bits("CountBits"), "channels of an input MVIN");
  b.logic("move_o", Type::bits("CountBits"), "output channels of a weight MVIN2");
  b.assign("k_rem", "kchs_q - (x_kb << KBlockLog2)");
  b.assign("o_rem", "pochs_q - (x_ob << DimLog2)");
  b.comment("(A depthwise compute's A is its output-channel block's channels.)");
  b.assign("kcw", "dw_q ? ocw : k_rem < CountBits'(KBlock) ? k_rem : CountBits'(KBlock)");
  b.assign("kpw", "(kcw + CountBits'(Lanes - 1)) >> LanesLog2");
  b.logic("tap_load_rows", Type::bits("CountBits"),
          "packed weight rows of one tap: DIM per input-channel block, fewer in the last "
          "(depthwise: its band)");
  b.assign("tap_load_rows", "dw_q ? CountBits'(BandRows) : (CountBits'(kch_blocks - 17'(1)) << "
                            "DimLog2) +\n"
                            "      ((kchs_q - (CountBits'(kch_blocks - 17'(1)) << KBlockLog2) + "
                            "CountBits'(Lanes - 1)) >> LanesLog2)");
  b.assign("ocw", "o_rem < CountBits'(Dim) ? o_rem : CountBits'(Dim)");
  b.assign("pixels", "ocols_q - it_col_q < CountBits'(Dim) ? ocols_q - it_col_q : CountBits'(Dim)");
  b.assign("move_k", "k_rem < CountBits'(MaxBlockLen * KBlock) ? k_rem : "
                     "CountBits'(MaxBlockLen * KBlock)");
  b.assign("move_o", "o_rem < CountBits'(MaxBlockLen * Dim) ? o_rem : "
                     "CountBits'(MaxBlockLen * Dim)");
  b.logic("b_rem", Type::bits("CountBits"), "trans_input_3120: images from block it_b on");
  b.logic("imgs", Type::bits("CountBits"),
          "trans_input_3120: images of block it_b (an input MVIN's columns, a compute's rows)");
  b.assign("b_rem", "batches_q - (it_b_q << DimLog2)");
  b.assign("imgs", "b_rem < CountBits'(Dim) ? b_rem : CountBits'(Dim)");
  b.logic("out_cols", Type::bits("CountBits"), "channels of an unpooled output MVOUT");
  b.assign("out_cols", "o_rem < CountBits'(OutBlocks * Dim) ? o_rem : CountBits'(OutBlocks * Dim)");
  b.logic("pad_row", Type::bit(),
          "input row it_row is padding (input_dilated: or between two real rows)");
  b.assign("pad_row", "29'(it_row_q) < 29'(upad_q) || 29'(it_row_q) >= 29'(upad_q) + 29'(rrows) "
                      "||\n      (dil_in_q && it_row_q[0] != upad_q[0])");
  b.logic("px_col", Type::bits("RowBits"), "input_dilated: the window column of pixel it_px");
  b.assign("px_col", "RowBits'(lpad_q) + (RowBits'(it_px_q) << 1)");
  b.logic("seg_col", Type::bits("RowBits"), "first window column of the segment");
  b.logic("seg_rows", Type::bits("CountBits"), "pixels of the segment");
  b.assign("seg_col", "seg_q == SegReal ? (dil_in_q ? px_col : RowBits'(lpad_q)) :\n"
                      "      seg_q == SegHole ? px_col + RowBits'(1) :\n"
                      "      seg_q == SegRight ? RowBits'(lpad_q) + RowBits'(rcols) : '0");
  b.assign("seg_rows", "seg_q == SegZeros ? CountBits'(icols) : seg_q == SegLeft ? lpad_q :\n"
                       "      seg_q == SegReal ? (dil_in_q ? CountBits'(1) : CountBits'(rcols)) :\n"
                       "      seg_q == SegHole ? CountBits'(1) : rpad_q");
  b.logic("px_more", Type::bit(),
          "input_dilated: a zero column follows pixel it_px (SegReal), a pixel its zero "
          "(SegHole)");
  b.assign("px_more", "seg_q == SegReal ? 29'(px_col) + 29'(1) < 29'(lpad_q) + 29'(rcols) :\n"
                      "      29'(px_col) + 29'(2) < 29'(lpad_q) + 29'(rcols)");

  dramAddress(b);
  localRows(b);
  commandMux(b);
  loopStart(b);
}

// The DRAM address of the current command.
void LoopConvGenerator::dramAddress(vlog::Body& b) const {
  b.comment("DRAM: base + ((i1 * m1 + i2) * m2 + i3) * stride + col, in elements (bias: "
            "acc_t): B (kr, kernel_dim, kc, ceil(in_channels / lanes), 0; weight_stride, "
            "ob*DIM*lanes: a tap's first lane-packed row; wrot180: the opposite tap; "
            "trans_weight_1203: m2 = 1; trans_weight_0132: m2 = out_channels, i3 = ob*DIM, col = "
            "kb*DIM), A (b, in_row_dim, r - upad, in_col_dim, 0; in_stride, "
            "kb*DIM*lanes; trans_input_3120: (ch, in_row_dim, r - upad, in_col_dim, 0; "
            "batch_size, b*DIM)), C (b, out_row_dim, orow, out_col_dim, 0; out_stride, ob*DIM; "
            "trans_output_1203: orow, out_col_dim, 0, batch_size, b; pooled: b, "
            "pool_out_row_dim, 0, pool_out_col_dim, 0), D (bias + ob*DIM).");
  b.logic("ld_kr_dram", Type::bits("CountBits"), "kernel row of the weights a tap load reads");
  b.logic("ld_kc_dram", Type::bits("CountBits"), "kernel column of them");
  b.assign("ld_kr_dram", "rot_q ? krows_q - CountBits'(1) - ld_kr_q : ld_kr_q");
  b.assign("ld_kc_dram", "rot_q ? kcols_q - CountBits'(1) - ld_kc_q : ld_kc_q");
  b.logic("c_trans", Type::bit(), "an output MVOUT of a trans_output_1203 loop");
  b.assign("c_trans", "phase_q == PhC && to1203_q");
  b.logic("tap_rows", Type::bits("CountBits"),
          "lane-packed weight rows of one kernel tap in DRAM: ceil(in_channels / lanes) "
          "(depthwise: its band)");
  b.assign("tap_rows", "dw_q ? CountBits'(BandRows) : CountBits'((17'(in_channels_q) + "
                       "17'(Lanes - 1)) >> LanesLog2)");
  b.logic("d_i1", Type::bits("CountBits"));
  b.logic("d_m1", Type::bits("CountBits"));
  b.logic("d_i2", Type::bits(32));
  b.logic("d_m2", Type::bits("CountBits"));
  b.logic("d_i3", Type::bits("CountBits"));
  b.logic("d_stride", Type::bits("CountBits"));
  b.logic("d_col", Type::bits(32));
  b.logic("d_base", Type::bits("XBits"));
  b.assign("d_i1", "phase_q == PhB ? ld_kr_dram : c_trans ? CountBits'(it_row_q) :\n"
                   "      phase_q == PhA && ti_q ? it_kb_q : it_b_q");
  b.assign("d_m1", "phase_q == PhB ? kernel_dim_q : phase_q == PhA ? in_row_dim_q :\n"
                   "      pool_q ? pool_out_row_dim_q : c_trans ? out_col_dim_q : out_row_dim_q");
  b.comment("(input_dilated: real row (r - upad) / 2, pixel it_px.)");
  b.assign("d_i2", "phase_q == PhB ? 32'(ld_kc_dram) :\n"
                   "      phase_q == PhA ? (32'(it_row_q) - 32'(upad_q)) >> dil_in_q :\n"
                   "      pool_q || c_trans ? '0 : 32'(it_row_q)");
  // Boveda: a compressed operand's move names its pointer entry (docs/isa.md, "LOOP_CONV_WS"):
  // weights ((t x tap_bands + kb) x weight_stride + group), input ((b x in_row_dim + row) x
  // in_stride + group), output ((b x out_row_dim + row) x out_stride + group), 8 bytes each.
  const std::string plainM2 =
      "phase_q == PhB ? (tw0132_q ? out_channels_q : tw1203_q ? "
      "CountBits'(1) : tap_rows) :\n"
      "      phase_q == PhA ? in_col_dim_q : pool_q ? pool_out_col_dim_q :\n"
      "      c_trans ? batch_size_q : out_col_dim_q";
  const std::string plainCol = "phase_q == PhA ? (ti_q ? 32'(it_b_q) << DimLog2 : 32'(it_kb_q) << "
                               "KBlockLog2) :\n"
                               "      phase_q == PhB ? (tw0132_q ? 32'(x_kb) : 32'(x_ob)) << "
                               "KBlockLog2 :\n"
                               "      32'(x_ob) << DimLog2";
  if (boveda()) {
    b.logic("tap_bands", Type::bits("CountBits"),
            "compressed weights: DIM-row bands of a tap, ceil(in_channels / DIM)");
    b.assign("tap_bands", "CountBits'((17'(in_channels_q) + 17'(Dim - 1)) >> DimLog2)");
    b.logic("d_z", Type::bit(), "the move names a pointer entry (a compressed operand)");
    b.assign("d_z", "(phase_q == PhB && wz_q) || (phase_q == PhA && iz_q) || "
                    "(phase_q == PhC && oz_q)");
    b.assign("d_m2",
             "phase_q == PhB && wz_q ? tap_bands : d_z ? CountBits'(1) :\n      " + plainM2);
  } else {
    b.assign("d_m2", plainM2);
  }
  b.assign("d_i3", std::string("c_trans ? it_b_q : ") +
                       (boveda() ? "phase_q == PhB && wz_q ? lb_kb_q :\n      " : "") +
                       "phase_q == PhB && tw0132_q ? lb_ob_q << DimLog2 :\n"
                       "      phase_q == PhA && dil_in_q ? it_px_q : '0");
  b.assign("d_stride", "phase_q == PhB ? weight_stride_q :\n"
                       "      phase_q == PhA ? (ti_q ? batch_size_q : in_stride_q) : out_stride_q");
  b.assign("d_col", boveda() ? "!d_z ? " + plainCol +
                                   " :\n      phase_q == PhB ? 32'(lb_ob_q) :\n"
                                   "      phase_q == PhA ? 32'(it_kb_q) >> MaxBlockLenLog2 :\n"
                                   "      32'(it_ob_q) >> OutBlocksLog2"
                             : plainCol);
  b.assign("d_base", "phase_q == PhB ? weights_q : phase_q == PhA ? input_q :\n"
                     "      phase_q == PhC ? output_q : bias_q");
  b.logic("d_row", Type::bits(33), "i1 * m1 + i2");
  b.logic("d_index", Type::bits(49), "(i1 * m1 + i2) * m2 + i3");
  b.logic("d_elems", Type::bits("XBits"), "elements from the base");
  b.logic("dram_addr", Type::bits("XBits"));
  b.assign("d_row", "33'(d_i1) * 33'(d_m1) + 33'(d_i2)");
  b.assign("d_index", "49'(d_row) * 49'(d_m2) + 49'(d_i3)");
  b.assign("d_elems", "(phase_q == PhD ? '0 : XBits'(d_index) * XBits'(d_stride)) + XBits'(d_col)");
  b.assign("dram_addr",
           std::string("(phase_q == PhD && bias_q == '0) || (phase_q == PhA && seg_q != SegReal) "
                       "? '0 :\n      d_base + (d_elems << (phase_q == PhD ? AccBytesLog2 : ") +
               (boveda() ? "d_z ? EntryBytesLog2 : " : "") + "ElemBytesLog2))");
}

// The local rows of the current command's operands.
void LoopConvGenerator::localRows(vlog::Body& b) const {
  b.comment(
      "Local rows (every value below its half: checked at LOOP_CONV_WS). A(kb, b, r, c) "
      "= a_row + ((b * irows + r) * kch_blocks + kb) * icols + c; B(kr, kc, kb, ob) = "
      "b_row + (((kr * kcols + kc) * kch_blocks + kb) * och_blocks + ob) * DIM; C(ob, b, "
      "orow, ocol) = c_row + ((b * orows + orow) * och_blocks + ob) * ocols + ocol (pooled: "
      "c_row + ob * c_image + (b * orows + orow) * ocols + ocol). trans_input_3120: A's b is "
      "a block of DIM images, its kb a channel (a compute's: kb * DIM, its rows icols apart), "
      "and a compute's C rows are its images (c_stride apart).");
  b.logic("in_r", Type::bits("RowBits"),
          "A's window row: loads r, computes orow*stride + kr*dilation");
  b.logic("in_c", Type::bits("RowBits"), "A's window column");
  b.assign("in_r", "phase_q == PhA ? RowBits'(it_row_q) :\n"
                   "      RowBits'(it_row_q) * RowBits'(stride_q) + RowBits'(it_kr_q) * "
                   "RowBits'(dilation)");
  b.assign("in_c", "phase_q == PhA ? seg_col :\n"
                   "      RowBits'(it_col_q) * RowBits'(stride_q) + RowBits'(it_kc_q) * "
                   "RowBits'(dilation)");
  b.logic("a_off", Type::bits("RowBits"), "A(kb, b, r, c) - a_row");
  b.logic("b_off", Type::bits("RowBits"), "B(kr, kc, kb, ob) - b_row");
  b.logic("c_off", Type::bits("RowBits"), "C(ob, b, orow, ocol) - c_row");
  b.logic("c_orow", Type::bits("RowBits"), "C's output row: 0 for pooled D and stores");
  b.logic("c_ocol", Type::bits("RowBits"), "C's output column: that of a compute, else 0");
  b.logic("a_kb", Type::bits("RowBits"),
          "A's column group: kb (trans_input_3120 computes: its "
          "first channel)");
  b.comment("(A depthwise compute: the group of its output-channel block's channels.)");
  b.assign("a_kb", "ti_q && phase_q != PhA ? RowBits'(it_kb_q) << DimLog2 :\n"
                   "      dw_q && phase_q != PhA ? RowBits'(it_ob_q) >> LanesLog2 : "
                   "RowBits'(it_kb_q)");
  b.assign("a_off", "((RowBits'(it_b_q) * RowBits'(irows) + in_r) *\n"
                    "       RowBits'(ti_q ? 17'(kchs_q) : kch_blocks) + a_kb) * RowBits'(icols) + "
                    "in_c");
  b.logic("b_tapblock", Type::bits("RowBits"), "(kr * kcols + kc) * och_blocks + ob");
  b.assign("b_tapblock",
           "(x_kr * RowBits'(kcols_q) + x_kc) * RowBits'(och_blocks) + RowBits'(x_ob)");
  b.comment("(depthwise: B(kr, kc, ob) = b_row + ((kr * kcols + kc) * och_blocks + ob) * "
            "BandRows)");
  b.assign("b_off", "dw_q ? b_tapblock * RowBits'(BandRows) :\n"
                    "      (b_tapblock * RowBits'(kch_blocks) + RowBits'(x_kb)) * RowBits'(Dim)");
  b.assign("c_orow", "pool_q && (phase_q == PhD || phase_q == PhC) ? '0 : RowBits'(it_row_q)");
  b.assign("c_ocol", "phase_q == PhPre ? RowBits'(it_col_q) : '0");
  b.logic("c_pixrow", Type::bits("RowBits"), "b * orows + orow");
  b.logic("c_img", Type::bits("RowBits"),
          "C's image: it_b (a trans_input_3120 compute: its block's first image)");
  b.assign("c_img", "ti_q && phase_q == PhPre ? RowBits'(it_b_q) << DimLog2 : RowBits'(it_b_q)");
  b.assign("c_pixrow", "c_img * RowBits'(orows_q) + c_orow");
  b.assign("c_off", "pool_q ? RowBits'(it_ob_q) * RowBits'(c_image) + c_pixrow * "
                    "RowBits'(ocols_q) + c_ocol :\n"
                    "      (c_pixrow * RowBits'(och_blocks) + RowBits'(it_ob_q)) * "
                    "RowBits'(ocols_q) + c_ocol");
  b.logic("a_local", Type::bits("AddrBits"));
  b.logic("b_local", Type::bits("AddrBits"));
  b.logic("c_local", Type::bits("AddrBits"));
  b.assign("a_local", "a_row_q + AddrBits'(a_off)");
  b.assign("b_local", "b_row_q + AddrBits'(b_off)");
  b.assign("c_local", "AccBit | (c_row_q + AddrBits'(c_off))");
}

// Where a starting loop's operands lie, and whether it moves them.
void LoopConvGenerator::loopStart(vlog::Body& b) const {
  b.comment("A spad id (1, 2; 3 is no half) puts its operand in half 0 or 1 (its high bit) "
            "instead of the loop's own; with "
            "DRAM address 0 as well the operand is already there and the loop moves none of it.");
  b.logic("a_upper", Type::bit(), "A in the upper scratchpad half");
  b.logic("b_upper", Type::bit(), "B in the upper scratchpad half");
  b.assign("a_upper", "lc_a_spad_id == '0 ? sp_half_q : lc_a_spad_id[1]");
  b.assign("b_upper", "lc_b_spad_id == '0 ? sp_half_q : lc_b_spad_id[1]");
  b.logic("start_load_a", Type::bit(), "the starting loop moves its input window");
  b.logic("start_load_b", Type::bit(), "the starting loop moves its weights");
  b.assign("start_load_a", "input_q != '0 || lc_a_spad_id == '0");
  b.assign("start_load_b", "weights_q != '0 || lc_b_spad_id == '0");
  b.logic("a_start", Type::bits("AddrBits"), "first row of A if the loop starts");
  b.logic("b_start", Type::bits("AddrBits"), "first row of B: B ends with its half");
  b.assign("a_start", "a_upper ? AddrBits'(SpHalf) : '0");
  b.assign("b_start", "(b_upper ? AddrBits'(2 * SpHalf) : AddrBits'(SpHalf)) - AddrBits'(b_rows)");
  b.blank();
}

// The command of the phase from the sizes and addresses (docs/isa.md, "LOOP_CONV_WS"), and
// whether the sequencer advances.
int LoopConvGenerator::rowBits() const {
  int bits = 1;
  while ((1 << bits) < std::max(p_.derived.spRows, p_.derived.accRows))
    ++bits;
  return bits;
}

void LoopConvGenerator::commandMux(vlog::Body& b) const {
  b.logic("first", Type::bit(),
          "WS: the first compute of a weight block (it preloads the weights); OS: the first of "
          "an accumulation (it starts from zero)");
  b.logic("last_os", Type::bit(), "OS: the last compute of an accumulation (it writes C)");
  b.assign("first", "os_q ? it_kr_q == '0 && it_kc_q == '0 && it_kb_q == '0 :\n"
                    "      it_b_q == '0 && it_row_q == '0 && it_col_q == '0");
  b.assign("last_os",
           "it_kr_q + CountBits'(1) >= krows_q && it_kc_q + CountBits'(1) >= kcols_q &&\n"
           "      (dw_q || 17'(it_kb_q) + 17'(1) >= kch_blocks)");
  b.logic("emit", Type::bit(), "this phase issues a command");
  b.logic("cmd_funct", Type::bits("FunctBits"));
  b.logic("cmd_rs1", Type::bits("XBits"));
  b.logic("cmd_rs2", Type::bits("XBits"));
  b.assign("emit", "phase_q != PhIdle && phase_q != PhRow");
  b.logic("rows_c", Type::bits("CountBits"),
          "rows of a compute: its pixels (trans_input_3120: its images)");
  b.assign("rows_c", "ti_q ? imgs : pixels");
  // CONFIG_EX's c_stride has CountBits: a scratchpad of more rows than that would leave the
  // product's top bits unread.
  const std::string tiBits = rowBits() > 16 ? "CountBits" : "RowBits";
  b.logic("ti_c_stride", Type::bits(tiBits),
          "trans_input_3120: C rows between a compute's images (orows x ocols, unpooled x "
          "och_blocks)");
  b.assign("ti_c_stride", tiBits + "'(orows_q) * (pool_q ? " + tiBits + "'(1) : " + tiBits +
                              "'(och_blocks)) * " + tiBits + "'(ocols_q)");
  b.logic("cfg_a", Type::bits("CountBits"), "PhCfg's a_stride: the loop's (icols), then the old");
  b.logic("cfg_c", Type::bits("CountBits"), "PhCfg's c_stride");
  b.assign("cfg_a", "cfg_done_q ? old_a_stride_q : CountBits'(icols)");
  b.assign("cfg_c", "cfg_done_q ? old_c_stride_q : CountBits'(ti_c_stride)");
  auto op = [](const std::string& rows, const std::string& cols, const std::string& addr) {
    return "{" + rows + ", " + cols + ", " + addr + "}";
  };
  b.comb()
      .line("cmd_funct = FunctMvin;")
      .line("cmd_rs1 = dram_addr;")
      .line("cmd_rs2 = " + op("seg_rows", "ti_q ? imgs : move_k", "a_local") + ";")
      .uniqueCaseOf(
          "phase_q",
          {{"PhCfg",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = FunctConfig;");
              s.line("cmd_rs1 = StridesOnly | (XBits'(cfg_a) << AStrideLsb);");
              s.line("cmd_rs2 = XBits'(cfg_c) << CStrideLsb;");
            }},
           {"PhD",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = FunctMvin3;");
              s.line("cmd_rs2 = " + op("pool_q ? CountBits'(c_image) : ocols_q", "ocw", "c_local") +
                     ";");
            }},
           {"PhB",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = FunctMvin2;");
              s.comment("trans_weight_0132: an out-channel block's rows, MAX_BLOCK_LEN input "
                        "blocks as stored");
              s.line("cmd_rs2 = " +
                     std::string(boveda()
                                     ? "wz_q ? " + op("CountBits'(Dim)", "ocw", "b_local") + " : "
                                     : "") +
                     "tw0132_q ? " + op("ocw", "move_k", "b_local") + " : " +
                     op("tap_load_rows", "move_o << LanesLog2", "b_local") + ";");
            }},
           {"PhPre",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = FunctPreload;");
              s.comment("WS: the weights (lane-packed rows) on a block's first compute; OS: no "
                        "D (the accumulation starts from zero), C on its last compute.");
              s.ifElse(
                  "os_q",
                  [&](vlog::Stmts& t) {
                    t.line("cmd_rs1 = " + op("pixels", "ocw", "GarbageAddr") + ";");
                    t.line("cmd_rs2 = " +
                           op("pixels", "ocw", "last_os ? c_local | AccumulateBit : GarbageAddr") +
                           ";");
                  },
                  [&](vlog::Stmts& t) {
                    t.line("cmd_rs1 = " +
                           op("kpw", "ocw << LanesLog2", "first ? b_local : GarbageAddr") + ";");
                    t.line("cmd_rs2 = " + op("rows_c", "ocw", "c_local | AccumulateBit") + ";");
                  });
            }},
           {"PhComp",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = first ? FunctComputePreloaded : FunctComputeAccumulated;");
              s.line("cmd_rs1 = " + op("rows_c", "kcw", "a_local") + ";");
              s.line("cmd_rs2 = os_q ? " + op("kpw", "ocw << LanesLog2", "b_local") + " : " +
                     op("CountBits'(Dim)", "CountBits'(Dim)", "GarbageAddr") + ";");
            }},
           {"PhC",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = FunctMvout;");
              s.line("cmd_rs2 = " +
                     op("pool_q ? CountBits'(1) : ocols_q", "pool_q ? ocw : out_cols", "c_local") +
                     ";");
            }}},
          [](vlog::Stmts&) {});
  b.logic("cmd_bstride", Type::bits("CountBits"),
          "the loop's block stride for its MVIN (a window row's channel blocks are icols rows "
          "apart), MVIN2 (the output-channel blocks of a weight block DIM rows apart) and "
          "unpooled MVOUT (an output row's channel blocks ocols rows apart)");
  b.assign("cmd_bstride", "phase_q == PhA ? CountBits'(icols) :\n"
                          "      phase_q == PhB ? (tw0132_q ? CountBits'(Dim) : dw_q ? "
                          "CountBits'(BandRows) :\n        CountBits'(kch_blocks) << DimLog2) :\n"
                          "      phase_q == PhC && !pool_q ? ocols_q : '0");
  if (depthwiseSteps()) {
    const int sb = std::max(1, config::log2Exact(p_.dim));
    b.logic("cmd_astep", Type::bits(sb),
            "a depthwise COMPUTE's first reduction step of A: its output-channel block's "
            "place in the row, (ob mod lanes) x DIM / lanes");
    b.assign("cmd_astep", "dw_q && phase_q == PhComp ? " + num(sb) +
                              "'(32'(it_ob_q[LanesLog2-1:0]) << (DimLog2 - LanesLog2)) : '0");
  }
  b.logic("out_free", Type::bit(), "the output register can take a command");
  b.logic("step", Type::bit(), "the sequencer advances this cycle");
  b.assign("out_free", "!out_valid_q || cmd_ready_i");
  b.assign("step", "phase_q != PhIdle && (!emit || out_free)");
}

namespace {

// phase_d = the phase of the first load whose condition holds, else PhPre (the computes):
// if/else, since an enum takes no conditional expression without a cast.
void phaseAfterLoads(vlog::Stmts& s, const std::vector<std::pair<std::string, std::string>>& loads,
                     size_t i = 0) {
  if (i == loads.size()) {
    s.line("phase_d = PhPre;");
    return;
  }
  s.ifElse(
      loads[i].first, [&](vlog::Stmts& t) { t.line("phase_d = " + loads[i].second + ";"); },
      [&](vlog::Stmts& t) { phaseAfterLoads(t, loads, i + 1); });
}

} // namespace

// Configuration capture and loop start.
void LoopConvGenerator::nextConfig(vlog::Stmts& n) const {
  const std::vector<std::vector<const char*>> fields = {
      {"batch_size", "in_row_dim", "in_channels", "out_channels", "out_row_dim", "pool_out_row_dim",
       "out_col_dim", "stride"},
      {"pool_out_col_dim", "kernel_dim", "pochs", "batches"},
      {"lpad", "kchs", "kcols", "krows", "in_col_dim", "dpad", "upad", "rpad"},
      {"kernel_dilation", "orows", "ocols", "out_stride", "weight_stride", "in_stride"}};
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string c = num(static_cast<int>(i) + 1);
    n.ifElse("host_fire && host_funct_i == FunctLoopConvWsConfig" + c, [&](vlog::Stmts& s) {
      for (const char* f : fields[i])
        s.line(std::string(f) + "_d = CountBits'(c" + c + "_" + f + ");");
    });
  }
  n.ifElse("host_fire && host_funct_i == FunctLoopConvWsConfig5", [](vlog::Stmts& s) {
    s.line("weights_d = host_rs1_i;").line("output_d = host_rs2_i;");
  });
  n.ifElse("host_fire && host_funct_i == FunctLoopConvWsConfig6",
           [](vlog::Stmts& s) { s.line("bias_d = host_rs1_i;").line("input_d = host_rs2_i;"); });
  n.ifElse("start_i", [boveda = boveda()](vlog::Stmts& s) {
    s.comment("A legal LOOP_CONV_WS: its flags and rows; the next loop uses the other halves.");
    s.line("load_d_d = !lc_no_bias;").line("pool_d = !lc_no_pool;");
    s.line("os_d = host_funct_i == FunctLoopConvOs;");
    s.line("load_a_d = start_load_a;").line("load_b_d = start_load_b;");
    s.line("rot_d = lc_wrot180;").line("tw1203_d = lc_trans_weight_1203;");
    s.line("to1203_d = lc_trans_output_1203;").line("tw0132_d = lc_trans_weight_0132;");
    s.line("dil_in_d = lc_input_dilated;").line("ti_d = lc_trans_input_3120;");
    s.line("dw_d = lc_depthwise;");
    s.line("cfg_done_d = 1'b0;");
    s.line("old_a_stride_d = ex_a_stride_i;").line("old_c_stride_d = ex_c_stride_i;");
    s.line("a_row_d = a_start;").line("b_row_d = b_start;");
    s.line("c_row_d = acc_half_q ? AddrBits'(AccHalf) : '0;");
    s.line("sp_half_d = !sp_half_q;");
    s.line("acc_half_d = acc_half_q ^ (output_q != '0);");
    s.line("it_ob_d = '0;").line("it_kr_d = '0;").line("it_kc_d = '0;").line("it_kb_d = '0;");
    s.line("it_b_d = '0;").line("it_row_d = '0;").line("it_col_d = '0;").line("seg_d = SegLeft;");
    s.line("ld_kr_d = '0;").line("ld_kc_d = '0;").line("ld_done_d = !start_load_b;");
    s.line("lb_ob_d = '0;").line("lb_kb_d = '0;");
    if (boveda)
      s.line("wz_d = lc_weights_compressed;")
          .line("iz_d = lc_input_compressed;")
          .line("oz_d = lc_output_compressed;");
    s.comment("trans_input_3120: first the computes' strides (PhCfg).");
    phaseAfterLoads(s, {{"lc_trans_input_3120", "PhCfg"},
                        {"start_load_a", "PhRow"},
                        {"start_load_b", "PhB"},
                        {"!lc_no_bias", "PhD"}});
  });
}

namespace {

// Nested iterator advance: the first iterator counts up unless it is at its last value, then
// it restarts and the next one advances, ...; after the last one `done` runs.
struct Level {
  std::string it, next, last; // register, its next value, "at its last value"
};
void advance(vlog::Stmts& s, const std::vector<Level>& levels, size_t i,
             const std::function<void(vlog::Stmts&)>& done) {
  if (i == levels.size()) {
    done(s);
    return;
  }
  const Level& l = levels[i];
  s.ifElse(
      "!(" + l.last + ")", [&](vlog::Stmts& t) { t.line(l.it + "_d = " + l.next + ";"); },
      [&](vlog::Stmts& t) {
        t.line(l.it + "_d = '0;");
        advance(t, levels, i + 1, done);
      });
}

} // namespace

namespace {

// PhRow: the first segment of input row it_row. A padding row is one zero fill; else left zeros,
// right zeros, then the real pixels (each when not empty): the zero fills' rows lie inside the
// range of a real move of several channel blocks (the blocks are icols rows apart), so the real
// move waits for them in the reservation station; zeros first, it waits only for those short
// fills, and the next row's moves need not wait for its DRAM reads (zeros last, every real move
// of a window waited for the one before it to complete). input_dilated: left zeros, each pixel
// then a zero, right zeros.
void rowSegments(vlog::Stmts& t) {
  t.line("phase_d = PhA;").line("it_px_d = '0;");
  t.ifElse(
      "pad_row", [](vlog::Stmts& u) { u.line("seg_d = SegZeros;"); },
      [](vlog::Stmts& u) {
        u.ifElse(
            "lpad_q != '0", [](vlog::Stmts& v) { v.line("seg_d = SegLeft;"); },
            [](vlog::Stmts& v) {
              v.ifElse(
                  "!dil_in_q && rpad_q != '0", [](vlog::Stmts& w) { w.line("seg_d = SegRight;"); },
                  [](vlog::Stmts& w) {
                    w.ifElse(
                        "rcols != '0", [](vlog::Stmts& x) { x.line("seg_d = SegReal;"); },
                        [](vlog::Stmts& x) { x.line("seg_d = SegRight;"); });
                  });
            });
      });
}

// PhA: the segment after this one, or `rowDone` after the row's last.
void nextSegment(vlog::Stmts& t, const std::function<void(vlog::Stmts&)>& rowDone) {
  t.ifElse(
      "!dil_in_q && seg_q == SegLeft && rpad_q != '0",
      [](vlog::Stmts& u) { u.line("seg_d = SegRight;"); },
      [&](vlog::Stmts& u) {
        u.ifElse(
            "(seg_q == SegLeft || (!dil_in_q && seg_q == SegRight)) && rcols != '0",
            [](vlog::Stmts& v) { v.line("seg_d = SegReal;"); },
            [&](vlog::Stmts& v) {
              v.ifElse(
                  "dil_in_q && (seg_q == SegReal || seg_q == SegHole) && px_more",
                  [](vlog::Stmts& w) {
                    w.ifElse(
                        "seg_q == SegReal", [](vlog::Stmts& x) { x.line("seg_d = SegHole;"); },
                        [](vlog::Stmts& x) {
                          x.line("seg_d = SegReal;").line("it_px_d = it_px_q + CountBits'(1);");
                        });
                  },
                  [&](vlog::Stmts& w) {
                    w.ifElse(
                        "dil_in_q && (seg_q == SegLeft || seg_q == SegReal || seg_q == SegHole) "
                        "&& rpad_q != '0",
                        [](vlog::Stmts& x) { x.line("seg_d = SegRight;"); }, rowDone);
                  });
            });
      });
}

// The sequencer's iterators: each register, its next value and when it is at its last value.
struct Iterators {
  Level ob, obOut, lbObGroup, lbOb, lbKb, lbKbGroup, kr, kc, kb, kbGroup, img, inRow, outRow, col;
  Level chan, imgBlock, pixel; // trans_input_3120: loads per image block, row and channel;
                               // computes one pixel at a time
};

Iterators iterators() {
  Iterators i;
  i.ob = {"it_ob", "it_ob_q + CountBits'(1)", "17'(it_ob_q) + 17'(1) >= och_blocks"};
  i.obOut = {"it_ob", "it_ob_q + CountBits'(OutBlocks)",
             "17'(it_ob_q) + 17'(OutBlocks) >= och_blocks"};
  i.lbObGroup = {"lb_ob", "lb_ob_q + CountBits'(MaxBlockLen)",
                 "17'(lb_ob_q) + 17'(MaxBlockLen) >= och_blocks"};
  i.lbOb = {"lb_ob", "lb_ob_q + CountBits'(1)", "17'(lb_ob_q) + 17'(1) >= och_blocks"};
  i.lbKb = {"lb_kb", "lb_kb_q + CountBits'(1)", "17'(lb_kb_q) + 17'(1) >= kch_blocks"};
  i.lbKbGroup = {"lb_kb", "lb_kb_q + CountBits'(MaxBlockLen)",
                 "17'(lb_kb_q) + 17'(MaxBlockLen) >= kch_blocks"};
  i.kr = {"it_kr", "it_kr_q + CountBits'(1)", "it_kr_q + CountBits'(1) >= krows_q"};
  i.kc = {"it_kc", "it_kc_q + CountBits'(1)", "it_kc_q + CountBits'(1) >= kcols_q"};
  // (computes: a depthwise output-channel block has one input-channel block, its own)
  i.kb = {"it_kb", "it_kb_q + CountBits'(1)", "dw_q || 17'(it_kb_q) + 17'(1) >= kch_blocks"};
  i.kbGroup = {"it_kb", "it_kb_q + CountBits'(MaxBlockLen)",
               "17'(it_kb_q) + 17'(MaxBlockLen) >= kch_blocks"};
  i.img = {"it_b", "it_b_q + CountBits'(1)", "it_b_q + CountBits'(1) >= batches_q"};
  i.inRow = {"it_row", "it_row_q + SizeBits'(1)", "29'(it_row_q) + 29'(1) >= 29'(irows)"};
  i.outRow = {"it_row", "it_row_q + SizeBits'(1)", "17'(it_row_q) + 17'(1) >= 17'(orows_q)"};
  i.col = {"it_col", "it_col_q + CountBits'(Dim)", "17'(it_col_q) + 17'(Dim) >= 17'(ocols_q)"};
  i.chan = {"it_kb", "it_kb_q + CountBits'(1)", "it_kb_q + CountBits'(1) >= kchs_q"};
  i.imgBlock = {"it_b", "it_b_q + CountBits'(1)", "17'(it_b_q) + 17'(1) >= img_blocks"};
  i.pixel = {"it_col", "it_col_q + CountBits'(1)", "it_col_q + CountBits'(1) >= ocols_q"};
  return i;
}

} // namespace

// The output register and the phase sequence.
void LoopConvGenerator::nextSequence(vlog::Stmts& n) const {
  loops::nextOutput(n);
  if (depthwiseSteps())
    n.ifElse("step && emit", [&](vlog::Stmts& s) { s.line("out_astep_d = cmd_astep;"); });
  const Iterators it = iterators();
  auto to = [](const std::string& phase) {
    return [phase](vlog::Stmts& s) { s.line("phase_d = " + phase + ";"); };
  };
  // The input window, then the weights of taps 0 and 1, then the bias, then the computes: each
  // unless the operand is already in the scratchpad (or no bias is loaded). The bias moves write
  // the accumulator half whose output the loop two before still moves out, so they wait for its
  // MVOUTs; the load queue is in order, so first they held this loop's operand loads back.
  const auto toBias = [](vlog::Stmts& s) { phaseAfterLoads(s, {{"load_d_q", "PhD"}}); };
  const auto toWeights = [](vlog::Stmts& s) {
    phaseAfterLoads(s, {{"load_b_q", "PhB"}, {"load_d_q", "PhD"}});
  };
  auto toOutput = [](vlog::Stmts& s) {
    s.ifElse(
        "output_q != '0", [](vlog::Stmts& t) { t.line("phase_d = PhC;"); },
        [](vlog::Stmts& t) { t.line("phase_d = PhIdle;"); });
  };
  // trans_input_3120: CONFIG_EX's strides as the loop found them, then the output.
  auto afterComputes = [&](vlog::Stmts& s) { s.ifElse("ti_q", to("PhCfg"), toOutput); };
  // PhCfg: before the loads (the loop's strides), or after the computes (the old ones).
  auto afterConfig = [&](vlog::Stmts& s) {
    s.line("cfg_done_d = 1'b1;");
    s.ifElse("cfg_done_q", toOutput, [](vlog::Stmts& t) {
      phaseAfterLoads(t, {{"load_a_q", "PhRow"}, {"load_b_q", "PhB"}, {"load_d_q", "PhD"}});
    });
  };
  // A tap's weights are loaded: the next tap becomes due; after tap 0 (loaded after A) tap 1
  // follows at once, later taps load when the computes reach the tap before them (the bias is
  // loaded by then).
  auto tapLoaded = [&](vlog::Stmts& s) {
    toBias(s);
    s.ifElse(
        "ld_kc_q + CountBits'(1) >= kcols_q && ld_kr_q + CountBits'(1) >= krows_q",
        [](vlog::Stmts& t) { t.line("ld_done_d = 1'b1;"); },
        [](vlog::Stmts& t) {
          t.ifElse(
              "ld_kc_q + CountBits'(1) < kcols_q",
              [](vlog::Stmts& u) { u.line("ld_kc_d = ld_kc_q + CountBits'(1);"); },
              [](vlog::Stmts& u) {
                u.line("ld_kc_d = '0;").line("ld_kr_d = ld_kr_q + CountBits'(1);");
              });
          t.ifElse("ld_kc_q == '0 && ld_kr_q == '0",
                   [](vlog::Stmts& u) { u.line("phase_d = PhB;"); });
        });
  };
  // The computes of a tap are over: the next tap (whose weights load first while the first
  // output-channel block still has taps to load), the next output-channel block, or C.
  auto nextTap = [&](vlog::Stmts& s) {
    s.ifElse("it_ob_q == '0 && !ld_done_q", [](vlog::Stmts& t) { t.line("phase_d = PhB;"); });
    advance(s, {it.kc, it.kr}, 0, [&](vlog::Stmts& t) {
      t.line("phase_d = PhPre;");
      advance(t, {it.ob}, 0, afterComputes);
    });
  };
  auto rowDone = [&](vlog::Stmts& s) {
    s.line("phase_d = PhRow;");
    s.ifElse(
        "ti_q",
        [&](vlog::Stmts& t) {
          advance(t, {it.chan, it.inRow, it.imgBlock}, 0, toWeights);
        },
        [&](vlog::Stmts& t) {
          advance(t, {it.kbGroup, it.inRow, it.img}, 0, toWeights);
        });
  };
  // OS: the taps and blocks of an output tile are one accumulation (its inner loop); the taps
  // load one ahead during the first tile, as during the first output-channel block in WS.
  auto tileDone = [&](vlog::Stmts& s) {
    s.line("phase_d = PhPre;");
    advance(s, {it.col, it.outRow, it.img, it.ob}, 0, afterComputes);
  };
  auto nextTapOs = [&](vlog::Stmts& s) {
    s.ifElse("!ld_done_q", [](vlog::Stmts& t) { t.line("phase_d = PhB;"); });
    advance(s, {it.kc, it.kr}, 0, tileDone);
  };
  n.ifElse("step", [&](vlog::Stmts& s) {
    s.uniqueCaseOf(
        "phase_q",
        {{"PhCfg", afterConfig},
         {"PhD",
          [&](vlog::Stmts& t) {
            auto toComputes = [](vlog::Stmts& u) {
              u.line("load_d_d = 1'b0;").line("phase_d = PhPre;");
            };
            t.ifElse(
                "pool_q", [&](vlog::Stmts& u) { advance(u, {it.ob}, 0, toComputes); },
                [&](vlog::Stmts& u) {
                  advance(u, {it.ob, it.outRow, it.img}, 0, toComputes);
                });
          }},
         {"PhB",
          [&](vlog::Stmts& t) {
            t.ifElse(
                "tw0132_q",
                [&](vlog::Stmts& u) {
                  advance(u, {it.lbKbGroup, it.lbOb}, 0, tapLoaded);
                },
                [&](vlog::Stmts& u) {
                  if (boveda()) // compressed: a band's out blocks, then the next band
                    u.ifElse(
                        "wz_q",
                        [&](vlog::Stmts& v) {
                          advance(v, {it.lbOb, it.lbKb}, 0, tapLoaded);
                        },
                        [&](vlog::Stmts& v) { advance(v, {it.lbObGroup}, 0, tapLoaded); });
                  else
                    advance(u, {it.lbObGroup}, 0, tapLoaded);
                });
          }},
         {"PhRow", rowSegments},
         {"PhA", [&](vlog::Stmts& t) { nextSegment(t, rowDone); }},
         {"PhPre", to("PhComp")},
         {"PhComp",
          [&](vlog::Stmts& t) {
            t.line("phase_d = PhPre;");
            t.ifElse(
                "os_q", [&](vlog::Stmts& u) { advance(u, {it.kb}, 0, nextTapOs); },
                [&](vlog::Stmts& u) {
                  u.ifElse(
                      "ti_q",
                      [&](vlog::Stmts& v) {
                        advance(v, {it.pixel, it.outRow, it.imgBlock, it.kb}, 0, nextTap);
                      },
                      [&](vlog::Stmts& v) {
                        advance(v, {it.col, it.outRow, it.img, it.kb}, 0, nextTap);
                      });
                });
          }},
         {"PhC",
          [&](vlog::Stmts& t) {
            t.ifElse(
                "pool_q",
                [&](vlog::Stmts& u) {
                  advance(u, {it.img, it.ob}, 0, to("PhIdle"));
                },
                [&](vlog::Stmts& u) {
                  advance(u, {it.outRow, it.img, it.obOut}, 0, to("PhIdle"));
                });
          }}},
        [](vlog::Stmts&) {});
  });
}

} // namespace by::hw
