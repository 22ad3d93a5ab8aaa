// The LOOP_WS unroller (loops.ws; docs/isa.md, "LOOP_WS"): it sits between the command
// frontend and the decoder. While no loop runs it passes host commands through unchanged and
// keeps the fields of the LOOP_WS_CONFIG_* commands the decoder accepts (the decoder treats
// them as known commands without an operation, so their responses and the dangling-PRELOAD
// rule stay in one place). For a LOOP_WS at its input it computes the loop's checks
// (loop_err_o); when the decoder accepts a legal one (start_i) it stops the host stream and
// issues the loop as ordinary MVIN3 / MVIN / MVIN2 / PRELOAD / COMPUTE / MVOUT commands into
// the decoder, one per cycle at most, in the fixed order of docs/isa.md (which the functional
// model follows command for command): so the decoder's checks, the CONFIG state and the
// reservation station's hazard tracking apply to them exactly as to host commands, and a full
// reservation station holds the unroller back (the decoder's ready). Each loop uses the other
// half of the scratchpad than the previous one, and the other half of the accumulator after a
// loop that stored C, so the next loop's loads do not wait for this loop's computes: two loops
// are in flight in the reservation station.
//
// Cost: three 16x16 multipliers for the checks (tile counts times tile counts), two 16x16 and
// one 16x32 for the command addresses (a tile index times a count or a stride), a few counters.
#include "loop_ws.h"

#include "hwspec/isa.h"
#include "loop_common.h"
#include "text_util.h"

#include <stdexcept>

namespace by::hw {

using vlog::Type;

namespace {

// The sequencer's phases (phase_e).
const std::vector<std::pair<std::string, std::string>>& phases() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"PhIdle", "no loop: host commands pass through"},
      {"PhD", "MVIN3s of the bias D: one per j block, of all I rows"},
      {"PhLoads", "decides the loads of K step kl (no command)"},
      {"PhA", "MVIN of A's K group at kl: all I rows (per i if transposed or compressed)"},
      {"PhB", "MVIN2 of B's row kl, one per j block"},
      {"PhPre", "PRELOAD of step (kx, j, i)"},
      {"PhComp", "COMPUTE of step (kx, j, i)"},
      {"PhC", "MVOUT of C: one per j block, of all I rows (compressed: i inner)"}};
  return v;
}

std::string hex64(uint64_t v) {
  char s[32];
  std::snprintf(s, sizeof s, "64'h%016llx", static_cast<unsigned long long>(v));
  return s;
}

} // namespace

vlog::Module LoopWsGenerator::build() const {
  vlog::Module m(names::kLoopWs,
                 "LOOP_WS unroller: passes host commands through, keeps the LOOP_WS_CONFIG_* "
                 "state, checks LOOP_WS and issues an accepted loop as MVIN/PRELOAD/COMPUTE/MVOUT "
                 "commands into the decoder (docs/isa.md, \"LOOP_WS\").");
  ports(m);
  vlog::Body& b = m.body();
  localParams(b);
  IsaFieldWires f(b, "host_");
  StateRegs regs(b);
  configRegs(b, regs, f);
  check(b, f);
  iterators(b);
  commands(b);
  vlog::Stmts& n = regs.next();
  nextConfig(n);
  nextSequence(n);
  loops::commandOutputs(b, false);
  return m;
}

void LoopWsGenerator::ports(vlog::Module& m) const {
  loops::commandPorts(m, "the command frontend", false);
  m.portGroup("LOOP_WS checks and start (with the decoder).");
  m.output("loop_err_o", Type::bits("ErrBits"),
           "the checks of a LOOP_WS at the host input (ErrNone when legal)");
  m.input("start_i", Type::bit(), "the decoder accepts a legal LOOP_WS this cycle");
  m.output("busy_o", Type::bit(), "a loop is being issued");
}

void LoopWsGenerator::localParams(vlog::Body& b) const {
  const AccelParams& p = p_;
  b.localParam("Dim", num(p.dim));
  b.localParam("DimLog2", num(config::log2Exact(p.dim)));
  b.localParam("SpHalf", num(p.derived.spRows / 2), "rows of a scratchpad half");
  b.localParam("AccHalf", num(p.derived.accRows / 2), "rows of an accumulator half");
  b.localParam("MaxBlockLen", num(p.maxBlockLen), "DIM blocks of an elem_t move");
  b.localParam("MaxBlockLenAcc", num(p.maxBlockLenAcc), "DIM blocks of an acc_t move");
  b.localParam("ElemBytesLog2", num(config::log2Exact(p.iw / 8)));
  b.localParam("AccBytesLog2", num(config::log2Exact(p.aw / 8)));
  b.localParam("CountBits", "16", "tile counts, paddings, iterators");
  b.localParam("AddrBits", "32", "a local address; DRAM addresses and strides checked below it");
  b.localParam("ProdBits", "48", "a product of tile counts times DIM");
  b.localParam("RowsBits", "32", "a local row");
  for (const char* e : {"None", "Unsupported", "BadSize", "LocalRange", "DmaError"}) {
    const std::string name = e == std::string("None")         ? "NONE"
                             : e == std::string("BadSize")    ? "BAD_SIZE"
                             : e == std::string("LocalRange") ? "LOCAL_RANGE"
                             : e == std::string("DmaError")   ? "DMA_ERROR"
                                                              : "UNSUPPORTED";
    b.localParam(std::string("Err") + e, Type::bits("ErrBits"), "8'd" + num(isa::errorCode(name)),
                 name);
  }
  const std::vector<std::pair<std::string, int>> functs = {
      {"LoopWsConfigBounds", isa::kLoopWsConfigBounds},
      {"LoopWsConfigAddrsAb", isa::kLoopWsConfigAddrsAb},
      {"LoopWsConfigAddrsDc", isa::kLoopWsConfigAddrsDc},
      {"LoopWsConfigStridesAb", isa::kLoopWsConfigStridesAb},
      {"LoopWsConfigStridesDc", isa::kLoopWsConfigStridesDc},
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
  b.localParam(
      "AccBit", Type::bits("AddrBits"), "32'h" + [] {
        char s[16];
        std::snprintf(s, sizeof s, "%08x", 1u << isa::kLocalAccBit);
        return std::string(s);
      }());
  b.localParam(
      "AccumulateBit", Type::bits("AddrBits"), "32'h" + [] {
        char s[16];
        std::snprintf(s, sizeof s, "%08x", 1u << isa::kLocalAccumulateBit);
        return std::string(s);
      }());
  b.localParam(
      "FullBit", Type::bits("AddrBits"), "32'h" + [] {
        char s[16];
        std::snprintf(s, sizeof s, "%08x", 1u << isa::kLocalFullBit);
        return std::string(s);
      }());
  b.localParam("ActMax", Type::bits(8), "8'd" + num(isa::kActRelu),
               "the largest LOOP_WS act (Gemmini's normalizer ones are UNSUPPORTED)");
  if (boveda()) {
    b.localParam("MaxBlockLenLog2", num(config::log2Exact(p.maxBlockLen)));
    b.localParam("EntryBytesLog2", num(config::log2Exact(int(isa::kBovedaEntryBytes))),
                 "a Boveda pointer entry");
  }
  b.localParam("DramLimit", Type::bits("XBits"), hex64(0xffffffffull),
               "addresses and strides above it are DMA_ERROR");
  b.enumType({"phase_e", 3, phases(), {}});
  b.blank();
}

// The LOOP_WS_CONFIG_* state (kept until overwritten), the loop's own flags and halves, the
// sequencer's iterators and the output register.
void LoopWsGenerator::configRegs(vlog::Body& b, StateRegs& regs, IsaFieldWires& f) const {
  b.comment("Configuration (LOOP_WS_CONFIG_*), the running loop and the output register.");
  for (const char* n : {"max_i", "max_j", "max_k", "pad_i", "pad_j", "pad_k"})
    regs.add(n, Type::bits("CountBits"), "'0");
  for (const char* n :
       {"a_addr", "b_addr", "d_addr", "c_addr", "a_stride", "b_stride", "d_stride", "c_stride"})
    regs.add(n, Type::bits("XBits"), "'0");
  regs.add("sp_half", Type::bit(), "1'b0", "scratchpad half of the next loop")
      .add("acc_half", Type::bit(), "1'b0", "accumulator half of the next loop")
      .add("ex_acc", Type::bit(), "1'b0", "the first K step accumulates")
      .add("full_c", Type::bit(), "1'b0")
      .add("a_t", Type::bit(), "1'b0", "A stored transposed: its tiles come in as stored")
      .add("b_t", Type::bit(), "1'b0", "B stored transposed: likewise")
      .add("low_d", Type::bit(), "1'b0");
  if (boveda())
    regs.add("a_z", Type::bit(), "1'b0", "Boveda: A's moves name pointer entries")
        .add("b_z", Type::bit(), "1'b0", "Boveda: B's likewise")
        .add("c_z", Type::bit(), "1'b0", "Boveda: C's likewise");
  regs.add("a_row", Type::bits("RowsBits"), "'0", "first scratchpad row of A")
      .add("b_row", Type::bits("RowsBits"), "'0", "first scratchpad row of B")
      .add("c_row", Type::bits("RowsBits"), "'0", "first accumulator row of C (and D)")
      .add("phase", Type::named("phase_e"), "PhIdle")
      .add("it_i", Type::bits("CountBits"), "'0", "i: tile row of A, C, D")
      .add("it_j", Type::bits("CountBits"), "'0", "j: tile column of B, C, D (or its block)")
      .add("kl", Type::bits("CountBits"), "'0", "the next K step to load")
      .add("kx", Type::bits("CountBits"), "'0", "the K step being computed");
  loops::outputRegister(b, regs);
  // Name the fields of the commands the unroller reads (declared once as wires).
  for (const char* n : {"pad_I", "pad_J", "pad_K"})
    f("lb", "LOOP_WS_CONFIG_BOUNDS", "rs1", n);
  for (const char* n : {"I", "J", "K"})
    f("lb", "LOOP_WS_CONFIG_BOUNDS", "rs2", n);
  for (const char* n : {"ex_accumulate", "full_C", "low_D", "act", "a_spad_id", "b_spad_id"})
    f("lw", "LOOP_WS", "rs1", n);
  for (const char* n : {"a_transpose", "b_transpose", "is_resadd"})
    f("lw", "LOOP_WS", "rs2", n);
  if (boveda())
    for (const char* n : {"a_compressed", "b_compressed", "c_compressed"})
      f("lw", "LOOP_WS", "rs2", n);
  b.blank();
}

// LOOP_WS checks on the host command (docs/isa.md, "LOOP_WS": UNSUPPORTED, BAD_SIZE,
// LOCAL_RANGE, DMA_ERROR; the decoder adds UNSUPPORTED for the OS dataflow) and the rows the
// loop would use.
void LoopWsGenerator::check(vlog::Body& b, IsaFieldWires&) const {
  b.comment("LOOP_WS checks (on the host's command and the configuration).");
  b.logic("a_half", Type::bits(2), "scratchpad half of A (2, 3: none)");
  b.logic("b_half", Type::bits(2), "scratchpad half of B");
  b.logic("a_rows", Type::bits("ProdBits"), "I*K*DIM rows of A");
  b.logic("b_rows", Type::bits("ProdBits"), "K*J*DIM rows of B");
  b.logic("c_rows", Type::bits("ProdBits"), "I*J*DIM rows of C");
  b.logic("chk_unsupported", Type::bit());
  b.logic("chk_bad_size", Type::bit());
  b.logic("chk_range", Type::bit());
  b.logic("chk_dram", Type::bit());
  b.assign("a_half", "lw_a_spad_id == '0 ? {1'b0, sp_half_q} : lw_a_spad_id - 2'(1)");
  b.assign("b_half", "lw_b_spad_id == '0 ? {1'b0, sp_half_q} : lw_b_spad_id - 2'(1)");
  b.assign("a_rows", "(ProdBits'(max_i_q) * ProdBits'(max_k_q)) << DimLog2");
  b.assign("b_rows", "(ProdBits'(max_k_q) * ProdBits'(max_j_q)) << DimLog2");
  b.assign("c_rows", "(ProdBits'(max_i_q) * ProdBits'(max_j_q)) << DimLog2");
  // Transposed tiles need the transposer; the decoder checks that CONFIG_EX names the same
  // transposes.
  const bool transposer = p_.lanes == 1 && !p_.config.tensordash.enabled;
  b.assign("chk_unsupported",
           std::string(transposer ? "" : "lw_a_transpose || lw_b_transpose || ") +
               "lw_is_resadd || lw_act > ActMax");
  b.assign("chk_bad_size", "max_i_q == '0 || max_j_q == '0 || max_k_q == '0 ||\n"
                           "      pad_i_q >= CountBits'(Dim) || pad_j_q >= CountBits'(Dim) ||\n"
                           "      pad_k_q >= CountBits'(Dim)");
  // I x DIM rows are the block stride of A's, C's and D's moves (a 16-bit field, as the tile
  // counts are: with one-row tiles it always holds them).
  const std::string strideRange =
      p_.dim > 1 ? " ||\n      (ProdBits'(max_i_q) << DimLog2) > ProdBits'(16'hffff)" : "";
  b.assign("chk_range", "a_half > 2'(1) || b_half > 2'(1) || a_rows > ProdBits'(SpHalf) ||\n"
                        "      b_rows > ProdBits'(SpHalf) || c_rows > ProdBits'(AccHalf) ||\n"
                        "      (a_half == b_half && a_rows + b_rows > ProdBits'(SpHalf))" +
                            strideRange);
  b.assign("chk_dram", "a_addr_q > DramLimit || b_addr_q > DramLimit || d_addr_q > DramLimit ||\n"
                       "      c_addr_q > DramLimit || a_stride_q > DramLimit ||\n"
                       "      b_stride_q > DramLimit || d_stride_q > DramLimit ||\n"
                       "      c_stride_q > DramLimit");
  b.logic("a_start", Type::bits("RowsBits"), "first row of A if the loop starts");
  b.logic("b_start", Type::bits("RowsBits"), "first row of B: B ends with its half");
  b.assign("a_start", "a_half[0] ? RowsBits'(SpHalf) : '0");
  b.assign("b_start",
           "(b_half[0] ? RowsBits'(2 * SpHalf) : RowsBits'(SpHalf)) - RowsBits'(b_rows)");
  b.assign("loop_err_o", "chk_unsupported ? ErrUnsupported : chk_bad_size ? ErrBadSize :\n"
                         "      chk_range ? ErrLocalRange : chk_dram ? ErrDmaError : ErrNone");
  b.blank();
}

// Iterator-derived sizes: blocks of the current move and the rows/columns of edge tiles.
void LoopWsGenerator::iterators(vlog::Body& b) const {
  b.comment("Sizes at the iterators: column blocks of a move, rows/columns of edge tiles.");
  b.logic("j_rem", Type::bits("CountBits"), "J - j");
  b.logic("k_rem", Type::bits("CountBits"), "K - kl");
  b.logic("d_group", Type::bits("CountBits"), "blocks of a D move");
  b.logic("c_group", Type::bits("CountBits"), "blocks of a C move");
  b.logic("j_blocks", Type::bits("CountBits"), "blocks of this D / B / C move");
  b.logic("k_blocks", Type::bits("CountBits"), "blocks of this A move");
  b.logic("j_last", Type::bit(), "this move holds the last J tile");
  b.logic("i_last", Type::bit());
  b.logic("j_end", Type::bit(), "it_j is the last J tile");
  b.logic("kx_last", Type::bit());
  b.logic("kl_last", Type::bit());
  b.logic("a_due", Type::bit(), "step kl starts a K group of A");
  b.assign("j_rem", "max_j_q - it_j_q");
  b.assign("k_rem", "max_k_q - kl_q");
  b.assign("d_group", "low_d_q ? CountBits'(MaxBlockLen) : CountBits'(MaxBlockLenAcc)");
  b.assign("c_group", "full_c_q ? CountBits'(1) : CountBits'(MaxBlockLen)");
  b.assign("j_blocks", "phase_q == PhD ? (j_rem < d_group ? j_rem : d_group) :\n"
                       "      phase_q == PhC ? (j_rem < c_group ? j_rem : c_group) :\n"
                       "      (j_rem < CountBits'(MaxBlockLen) ? j_rem : CountBits'(MaxBlockLen))");
  b.assign("k_blocks", "k_rem < CountBits'(MaxBlockLen) ? k_rem : CountBits'(MaxBlockLen)");
  b.assign("j_last", "j_rem <= j_blocks");
  b.assign("i_last", "it_i_q == max_i_q - CountBits'(1)");
  b.assign("j_end", "it_j_q == max_j_q - CountBits'(1)");
  b.assign("kx_last", "kx_q == max_k_q - CountBits'(1)");
  b.assign("kl_last", "kl_q == max_k_q - CountBits'(1)");
  b.assign("a_due", "(kl_q & CountBits'(MaxBlockLen - 1)) == '0");
  b.blank();
}

// The command of the current phase (docs/isa.md, "LOOP_WS": the unrolled commands).
void LoopWsGenerator::commands(vlog::Body& b) const {
  b.comment("The command of the current phase. DRAM: base + (row * stride + col) * DIM * bytes "
            "(below 2^60: bases and strides are below 2^32); local rows: start + (row * count "
            "+ col) * DIM (within a half: checked at LOOP_WS).");
  b.logic("dram_row", Type::bits("CountBits"));
  b.logic("dram_stride", Type::bits("AddrBits"));
  b.logic("dram_col", Type::bits("CountBits"));
  b.logic("dram_base", Type::bits("XBits"));
  b.logic("dram_log2", Type::bits(4), "log2(DIM * element bytes)");
  b.logic("dram_addr", Type::bits("XBits"));
  b.comment("A transposed A (B) is read at DRAM row kl (it_j), column it_i (kl).");
  b.assign("dram_row", "phase_q == PhA ? (a_t_q ? kl_q : it_i_q) :\n"
                       "      phase_q == PhB ? (b_t_q ? it_j_q : kl_q) : it_i_q");
  b.assign("dram_stride", "AddrBits'(phase_q == PhA ? a_stride_q : phase_q == PhB ? b_stride_q :\n"
                          "      phase_q == PhD ? d_stride_q : c_stride_q)");
  b.assign("dram_col", "phase_q == PhA ? (a_t_q ? it_i_q : kl_q) :\n"
                       "      phase_q == PhB ? (b_t_q ? kl_q : it_j_q) : it_j_q");
  b.assign("dram_base", "phase_q == PhA ? a_addr_q : phase_q == PhB ? b_addr_q :\n"
                        "      phase_q == PhD ? d_addr_q : c_addr_q");
  b.assign("dram_log2", "4'(DimLog2) + ((phase_q == PhD && !low_d_q) || "
                        "(phase_q == PhC && full_c_q) ?\n"
                        "      4'(AccBytesLog2) : 4'(ElemBytesLog2))");
  b.logic("dram_prod", Type::bits("ProdBits"), "row * stride: 16 x 32 bits");
  b.assign("dram_prod", "ProdBits'(dram_row) * ProdBits'(dram_stride)");
  if (boveda()) {
    // A compressed operand's move names its pointer entry: base + (row * stride + group) * 8,
    // the stride counting entries and a group of MAX_BLOCK_LEN tiles one entry (the checks
    // keep compressed operands untransposed and C scaled).
    b.logic("dram_z", Type::bit(), "the move's operand is compressed (Boveda)");
    b.assign("dram_z", "(phase_q == PhA && a_z_q) || (phase_q == PhB && b_z_q) ||\n"
                       "      (phase_q == PhC && c_z_q)");
    b.assign("dram_addr",
             "dram_z ? dram_base + ((XBits'(dram_prod) + (XBits'(dram_col) >> MaxBlockLenLog2)) "
             "<< EntryBytesLog2) :\n"
             "      dram_base + ((XBits'(dram_prod) + XBits'(dram_col)) << dram_log2)");
  } else {
    b.assign("dram_addr", "dram_base + ((XBits'(dram_prod) + XBits'(dram_col)) << dram_log2)");
  }
  b.comment("Local layout: A's tile (i, k) at (k*I + i)*DIM (transposed: (i*K + k)*DIM), B's "
            "(k, j) at (k*J + j)*DIM, C's (i, j) at (j*I + i)*DIM: the I tiles of a K step of A "
            "and of a J tile of C lie DIM rows apart, so one output column's computes continue "
            "one another (exec_merge.cpp).");
  b.logic("tile_c", Type::bits("RowsBits"), "(j*I + i)*DIM: a C / D tile");
  b.logic("tile_sp", Type::bits("RowsBits"), "an A or B tile: (row * count + col)*DIM");
  b.logic("k_step", Type::bits("CountBits"), "the K step of the load (kl) or compute (kx)");
  b.logic("a_whole", Type::bit(),
          "A is k-major, each K group one move of all I rows (not transposed, not compressed)");
  b.logic("c_whole", Type::bit(), "each J group of C is one move of all I rows (not compressed)");
  b.logic("a_kmajor", Type::bit(), "a k-major A tile");
  b.logic("b_tile", Type::bit());
  b.logic("sp_row", Type::bits("CountBits"));
  b.logic("sp_count", Type::bits("CountBits"));
  b.logic("sp_col", Type::bits("CountBits"));
  b.assign("tile_c", "(RowsBits'(it_j_q) * RowsBits'(max_i_q) + RowsBits'(it_i_q)) << DimLog2");
  b.assign("k_step", "(phase_q == PhA || phase_q == PhB) ? kl_q : kx_q");
  b.assign("a_whole", boveda() ? "!a_t_q && !a_z_q" : "!a_t_q");
  b.assign("c_whole", boveda() ? "!c_z_q" : "1'b1");
  b.assign("a_kmajor", "(phase_q == PhA || phase_q == PhComp) && a_whole");
  b.assign("b_tile", "phase_q == PhB || phase_q == PhPre");
  b.assign("sp_row", "a_kmajor || b_tile ? k_step : it_i_q");
  b.assign("sp_count", "a_kmajor ? max_i_q : b_tile ? max_j_q : max_k_q");
  b.assign("sp_col", "a_kmajor ? it_i_q : b_tile ? it_j_q : k_step");
  b.assign("tile_sp", "(RowsBits'(sp_row) * RowsBits'(sp_count) + RowsBits'(sp_col)) << DimLog2");
  b.logic("rows_i", Type::bits("CountBits"), "DIM, less pad_I on the last I tile");
  b.logic("cols_j", Type::bits("CountBits"), "DIM, less pad_J on the last J tile");
  b.logic("k_cut_x", Type::bits("CountBits"), "DIM, less pad_K on the last K step (compute)");
  b.logic("k_cut_l", Type::bits("CountBits"), "DIM, less pad_K on the last K step (load)");
  b.logic("move_cols_j", Type::bits("CountBits"), "columns of a D / B / C move");
  b.logic("move_cols_k", Type::bits("CountBits"), "columns of an A move");
  b.assign("rows_i", "CountBits'(Dim) - (i_last ? pad_i_q : '0)");
  b.logic("rows_all", Type::bits("CountBits"),
          "rows of a move of all I tiles (I*DIM is below 2^16: checked at LOOP_WS)");
  b.assign("rows_all", "(max_i_q << DimLog2) - pad_i_q");
  b.assign("cols_j", "CountBits'(Dim) - (j_end ? pad_j_q : '0)");
  b.assign("k_cut_x", "CountBits'(Dim) - (kx_last ? pad_k_q : '0)");
  b.assign("k_cut_l", "CountBits'(Dim) - (kl_last ? pad_k_q : '0)");
  b.assign("move_cols_j", "(j_blocks << DimLog2) - (j_last ? pad_j_q : '0)");
  b.assign("move_cols_k",
           "(k_blocks << DimLog2) - (k_rem <= CountBits'(MaxBlockLen) ? pad_k_q : '0)");
  b.logic("c_local", Type::bits("AddrBits"), "the accumulator row of tile (i, j)");
  b.assign("c_local", "AccBit | (c_row_q + tile_c)");
  b.logic("cmd_bstride", Type::bits("CountBits"),
          "A's, D's and C's moves: their blocks I x DIM rows apart (below 2^16: checked at "
          "LOOP_WS); B's: MVIN2's configured one (0)");
  b.assign("cmd_bstride", "(phase_q == PhA && a_whole) || phase_q == PhD || phase_q == PhC ?\n"
                          "      CountBits'(RowsBits'(max_i_q) << DimLog2) : '0");
  b.logic("emit", Type::bit(), "this phase issues a command");
  b.logic("cmd_funct", Type::bits("FunctBits"));
  b.logic("cmd_rs1", Type::bits("XBits"));
  b.logic("cmd_rs2", Type::bits("XBits"));
  b.logic("operand", Type::bits("XBits"), "{rows, cols, local address} of MVIN/MVOUT");
  b.assign("emit", "phase_q != PhIdle && phase_q != PhLoads");
  auto op = [](const std::string& rows, const std::string& cols, const std::string& addr) {
    return "{" + rows + ", " + cols + ", " + addr + "}";
  };
  // A transposed tile group comes in as stored: rows and columns swap.
  b.assign(
      "operand",
      "phase_q == PhD ? " + op("rows_all", "move_cols_j", "c_local") + " :\n" +
          "      phase_q == PhA && a_t_q ? " + op("move_cols_k", "rows_i", "a_row_q + tile_sp") +
          " :\n" + "      phase_q == PhA ? " +
          op("a_whole ? rows_all : rows_i", "move_cols_k", "a_row_q + tile_sp") + " :\n" +
          "      phase_q == PhB && b_t_q ? " + op("move_cols_j", "k_cut_l", "b_row_q + tile_sp") +
          " :\n" + "      phase_q == PhB ? " + op("k_cut_l", "move_cols_j", "b_row_q + tile_sp") +
          " :\n" + "      " +
          op("c_whole ? rows_all : rows_i", "move_cols_j", "c_local | (full_c_q ? FullBit : '0)"));
  b.comb()
      .line("cmd_funct = FunctMvin;")
      .line("cmd_rs1 = dram_addr;")
      .line("cmd_rs2 = operand;")
      .uniqueCaseOf(
          "phase_q",
          {{"PhD", [](vlog::Stmts& s) { s.line("cmd_funct = FunctMvin3;"); }},
           {"PhB", [](vlog::Stmts& s) { s.line("cmd_funct = FunctMvin2;"); }},
           {"PhC", [](vlog::Stmts& s) { s.line("cmd_funct = FunctMvout;"); }},
           {"PhPre",
            [&](vlog::Stmts& s) {
              s.comment("B(kx, j) on the first i; then the array keeps it.");
              s.line("cmd_funct = FunctPreload;");
              s.line("cmd_rs1 = " +
                     op("k_cut_x", "cols_j", "it_i_q == '0 ? b_row_q + tile_sp : GarbageAddr") +
                     ";");
              s.line("cmd_rs2 = " +
                     op("rows_i", "cols_j",
                        "c_local | (ex_acc_q || kx_q != '0 ? AccumulateBit : '0)") +
                     ";");
            }},
           {"PhComp",
            [&](vlog::Stmts& s) {
              s.line("cmd_funct = it_i_q == '0 ? FunctComputePreloaded : "
                     "FunctComputeAccumulated;");
              s.line("cmd_rs1 = " + op("rows_i", "k_cut_x", "a_row_q + tile_sp") + ";");
              s.line("cmd_rs2 = " + op("CountBits'(Dim)", "CountBits'(Dim)", "GarbageAddr") + ";");
            }}},
          [](vlog::Stmts&) {});
  b.logic("out_free", Type::bit(), "the output register can take a command");
  b.logic("step", Type::bit(), "the sequencer advances this cycle");
  b.assign("out_free", "!out_valid_q || cmd_ready_i");
  b.assign("step", "phase_q != PhIdle && (!emit || out_free)");
  b.blank();
}

// Configuration capture and loop start.
void LoopWsGenerator::nextConfig(vlog::Stmts& n) const {
  n.ifElse("host_fire && host_funct_i == FunctLoopWsConfigBounds",
           [](vlog::Stmts& s) {
             s.line("max_i_d = lb_I;").line("max_j_d = lb_J;").line("max_k_d = lb_K;");
             s.line("pad_i_d = lb_pad_I;").line("pad_j_d = lb_pad_J;").line("pad_k_d = lb_pad_K;");
           })
      .ifElse(
          "host_fire && host_funct_i == FunctLoopWsConfigAddrsAb",
          [](vlog::Stmts& s) { s.line("a_addr_d = host_rs1_i;").line("b_addr_d = host_rs2_i;"); })
      .ifElse(
          "host_fire && host_funct_i == FunctLoopWsConfigAddrsDc",
          [](vlog::Stmts& s) { s.line("d_addr_d = host_rs1_i;").line("c_addr_d = host_rs2_i;"); })
      .ifElse("host_fire && host_funct_i == FunctLoopWsConfigStridesAb",
              [](vlog::Stmts& s) {
                s.line("a_stride_d = host_rs1_i;").line("b_stride_d = host_rs2_i;");
              })
      .ifElse("host_fire && host_funct_i == FunctLoopWsConfigStridesDc",
              [](vlog::Stmts& s) {
                s.line("d_stride_d = host_rs1_i;").line("c_stride_d = host_rs2_i;");
              })
      .ifElse("start_i", [this](vlog::Stmts& s) {
        s.comment("A legal LOOP_WS: its flags and rows; the next loop uses the other halves.");
        s.line("ex_acc_d = lw_ex_accumulate;").line("full_c_d = lw_full_C;");
        s.line("low_d_d = lw_low_D;");
        s.line("a_t_d = lw_a_transpose;").line("b_t_d = lw_b_transpose;");
        if (boveda())
          s.line("a_z_d = lw_a_compressed;")
              .line("b_z_d = lw_b_compressed;")
              .line("c_z_d = lw_c_compressed;");
        s.line("a_row_d = a_start;").line("b_row_d = b_start;");
        s.line("c_row_d = RowsBits'(acc_half_q ? AccHalf : 0);");
        s.line("sp_half_d = !sp_half_q;");
        s.line("acc_half_d = acc_half_q ^ (c_addr_q != '0);");
        s.line("it_i_d = '0;").line("it_j_d = '0;").line("kl_d = '0;").line("kx_d = '0;");
        s.line("phase_d = PhLoads;");
      });
}

// The output register and the phase sequence.
void LoopWsGenerator::nextSequence(vlog::Stmts& n) const {
  loops::nextOutput(n);
  n.ifElse("step", [&](vlog::Stmts& s) {
    s.uniqueCaseOf("phase_q",
                   {{"PhD",
                     [](vlog::Stmts& t) {
                       t.comment("One move per j block; then step 0's computes.");
                       t.line("it_j_d = it_j_q + j_blocks;");
                       t.ifElse("j_last", [](vlog::Stmts& u) {
                         u.line("it_j_d = '0;").line("phase_d = PhPre;");
                       });
                     }},
                    {"PhLoads", [&](vlog::Stmts& t) { nextLoads(t); }},
                    {"PhA", [&](vlog::Stmts& t) { nextLoads(t); }},
                    {"PhB", [&](vlog::Stmts& t) { nextLoads(t); }},
                    {"PhPre", [](vlog::Stmts& t) { t.line("phase_d = PhComp;"); }},
                    {"PhComp", [&](vlog::Stmts& t) { nextArray(t); }},
                    {"PhC",
                     [](vlog::Stmts& t) {
                       t.ifElse(
                           "!i_last && !c_whole",
                           [](vlog::Stmts& u) { u.line("it_i_d = it_i_q + CountBits'(1);"); },
                           [](vlog::Stmts& u) {
                             u.line("it_i_d = '0;").line("it_j_d = it_j_q + j_blocks;");
                             u.ifElse("j_last", [](vlog::Stmts& v) {
                               v.line("it_j_d = '0;").line("phase_d = PhIdle;");
                             });
                           });
                     }}},
                   [](vlog::Stmts&) {});
  });
}

// The loads of step kl: PhLoads decides, PhA issues A's K group (when kl starts one), PhB B's
// row; after them kl advances, step 1 is loaded right after step 0, and then the computes of
// step kx follow (so each step's loads are issued before the computes of the step before). D
// comes after the loads of steps 0 and 1, before the first compute: its moves write the
// accumulator half the loop two before still reads out, so they wait for those MVOUTs, and the
// load queue is in order: first, they held this loop's operand loads back behind them.
void LoopWsGenerator::nextLoads(vlog::Stmts& t) const {
  auto afterLoads = [](vlog::Stmts& u) {
    u.line("kl_d = kl_q + CountBits'(1);").line("it_i_d = '0;").line("it_j_d = '0;");
    u.ifElse(
        "kl_q == '0 && max_k_q > CountBits'(1)",
        [](vlog::Stmts& v) { v.line("phase_d = PhLoads;"); },
        [](vlog::Stmts& v) {
          v.ifElse(
              "kx_q == '0 && d_addr_q != '0", [](vlog::Stmts& w) { w.line("phase_d = PhD;"); },
              [](vlog::Stmts& w) { w.line("phase_d = PhPre;"); });
        });
  };
  auto toB = [&](vlog::Stmts& u) {
    u.ifElse(
        "b_addr_q != '0", [](vlog::Stmts& v) { v.line("phase_d = PhB;").line("it_j_d = '0;"); },
        afterLoads);
  };
  auto inB = [&](vlog::Stmts& u) {
    u.line("it_j_d = it_j_q + j_blocks;");
    u.ifElse("j_last", afterLoads);
  };
  auto inA = [&](vlog::Stmts& u) {
    u.ifElse(
        "!i_last && !a_whole", [](vlog::Stmts& v) { v.line("it_i_d = it_i_q + CountBits'(1);"); },
        toB);
  };
  auto decide = [&](vlog::Stmts& u) {
    u.ifElse(
        "a_addr_q != '0 && a_due",
        [](vlog::Stmts& v) { v.line("phase_d = PhA;").line("it_i_d = '0;"); }, toB);
  };
  t.ifElse("phase_q == PhLoads", decide,
           [&](vlog::Stmts& u) { u.ifElse("phase_q == PhA", inA, inB); });
}

// A compute of step (kx, j, i): i inner, then j; after the step's last one, the loads of step
// kl (when some are left), the next step, or C.
void LoopWsGenerator::nextArray(vlog::Stmts& t) const {
  t.line("phase_d = PhPre;");
  t.ifElse(
      "!i_last", [](vlog::Stmts& u) { u.line("it_i_d = it_i_q + CountBits'(1);"); },
      [](vlog::Stmts& u) {
        u.line("it_i_d = '0;");
        u.ifElse(
            "!j_end", [](vlog::Stmts& v) { v.line("it_j_d = it_j_q + CountBits'(1);"); },
            [](vlog::Stmts& v) {
              v.line("it_j_d = '0;").line("kx_d = kx_q + CountBits'(1);");
              v.ifElse(
                  "kx_last",
                  [](vlog::Stmts& w) {
                    w.ifElse(
                        "c_addr_q != '0", [](vlog::Stmts& x) { x.line("phase_d = PhC;"); },
                        [](vlog::Stmts& x) { x.line("phase_d = PhIdle;"); });
                  },
                  [](vlog::Stmts& w) {
                    w.ifElse("kl_q < max_k_q",
                             [](vlog::Stmts& x) { x.line("phase_d = PhLoads;"); });
                  });
            });
      });
}

} // namespace by::hw
