// LOOP_CONV_WS and LOOP_CONV_OS: checks and the unrolled command sequence (docs/isa.md,
// "LOOP_CONV_WS", "LOOP_CONV_OS").
#include "funcmodel/loop_conv.h"

#include "hwspec/array_params.h"
#include "hwspec/isa.h"
#include "loop_fields.h"

#include <algorithm>

namespace by::funcmodel {

namespace {

using hw::isa::command;

using namespace loopfields;

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// The local layout of a legal loop (docs/isa.md, "LOOP_CONV_WS"): every move of the loop writes
// one contiguous range of rows, so that hazards are exact. A holds, per image and window row, the
// row's channel blocks one after another (icols rows each: an input MVIN's blocks are icols rows
// apart); with trans_input_3120, per block of DIM images and window row, the row's channels one
// after another (icols rows of DIM images each: a compute reads a channel block's rows icols
// apart, through the transposer); B, per tap and output-channel block, the input-channel blocks one
// after another (DIM packed rows each), so that one MVIN2 moves a tap's weights for MAX_BLOCK_LEN
// output-channel blocks (its blocks kch_blocks x DIM rows apart): few, long weight moves.
struct Layout {
  uint64_t aRows = 0, bRows = 0;  // rows A and B occupy
  uint64_t cImage = 0, cRows = 0; // rows of one output-channel block of C; all of C
};

// Products of the layout, or false when one exceeds `limit` (checked step by step, so that no
// product overflows: each factor is at most `limit` when it is multiplied).
bool layout(const ModelParams& p, const LoopConvGeom& g, Layout& l) {
  const uint64_t half = static_cast<uint64_t>(p.spRows / 2);
  const uint64_t accHalf = static_cast<uint64_t>(p.accRows / 2);
  auto mul = [](uint64_t a, uint64_t b, uint64_t limit, uint64_t& out) {
    if (a > limit || b > limit)
      return false;
    out = a * b;
    return out <= limit;
  };
  uint64_t t = 0;
  if (!mul(g.batches, g.orows, accHalf, t) || !mul(t, g.ocols, accHalf, l.cImage) ||
      !mul(l.cImage, g.ochBlocks, accHalf, l.cRows))
    return false;
  if (!mul(g.aImages(), g.irows, half, t) || !mul(t, g.aGroups(), half, t) ||
      !mul(t, g.icols, half, l.aRows))
    return false;
  if (!mul(g.krows, g.kcols, half, t) || !mul(t, g.ochBlocks, half, t) ||
      !mul(t, g.bBlockRows, half, l.bRows))
    return false;
  return l.aRows + l.bRows <= half;
}

// The scratchpad half an operand of the loop uses: its spad id's (1, 2: half 0, 1), else the
// loop's own.
uint64_t operandHalf(const LoopConvState& s, const char* spadId, uint64_t rs1) {
  const uint64_t id = field("LOOP_CONV_WS", false, spadId, rs1);
  return id == 0 ? uint64_t(s.spHalf) : id - 1;
}

} // namespace

LoopConvGeom LoopConvGeom::from(const LoopConvState& s) {
  LoopConvGeom g;
  auto f = [&](int n, bool rs2, const char* name) {
    const std::string cmd = "LOOP_CONV_WS_CONFIG_" + std::to_string(n);
    return field(cmd.c_str(), rs2, name, s.words[static_cast<size_t>(2 * (n - 1) + (rs2 ? 1 : 0))]);
  };
  g.batchSize = f(1, false, "batch_size"), g.outChannels = f(1, false, "out_channels");
  g.inRowDim = f(1, false, "in_row_dim"), g.inChannels = f(1, false, "in_channels");
  g.outRowDim = f(1, true, "out_row_dim"), g.poolOutRowDim = f(1, true, "pool_out_row_dim");
  g.outColDim = f(1, true, "out_col_dim"), g.stride = f(1, true, "stride");
  g.poolOutColDim = f(2, false, "pool_out_col_dim"), g.kernelDim = f(2, false, "kernel_dim");
  g.pochs = f(2, true, "pochs"), g.batches = f(2, true, "batches");
  g.lpad = f(3, false, "lpad"), g.kchs = f(3, false, "kchs"), g.kcols = f(3, false, "kcols");
  g.krows = f(3, false, "krows");
  g.inColDim = f(3, true, "in_col_dim"), g.dpad = f(3, true, "dpad"), g.upad = f(3, true, "upad");
  g.rpad = f(3, true, "rpad");
  g.kernelDilation = f(4, false, "kernel_dilation"), g.orows = f(4, false, "orows");
  g.ocols = f(4, true, "ocols"), g.outStride = f(4, true, "out_stride");
  g.weightStride = f(4, true, "weight_stride"), g.inStride = f(4, true, "in_stride");
  g.weights = s.words[8], g.output = s.words[9], g.bias = s.words[10], g.input = s.words[11];
  // With a zero bound the window is meaningless; the check rejects it before anything uses it.
  g.dilation = std::max<uint64_t>(1, g.kernelDilation);
  g.irows =
      g.orows == 0 || g.krows == 0 ? 0 : (g.orows - 1) * g.stride + (g.krows - 1) * g.dilation + 1;
  g.icols =
      g.ocols == 0 || g.kcols == 0 ? 0 : (g.ocols - 1) * g.stride + (g.kcols - 1) * g.dilation + 1;
  return g;
}

// Input-channel blocks are a scratchpad row wide (DIM x lanes channels), output-channel blocks
// an accumulator row (DIM). A depthwise tap's weights are one band of ceil(DIM / lanes) packed
// rows per output-channel block, a dense tap's DIM rows per input-channel block.
void setBlocks(const ModelParams& p, LoopConvGeom& g, bool transInput, bool depthwise) {
  const uint64_t dim = static_cast<uint64_t>(p.dim), lanes = static_cast<uint64_t>(p.lanes);
  g.kchBlocks = ceilDiv(g.kchs, dim * lanes);
  g.ochBlocks = ceilDiv(g.pochs, dim);
  g.batchBlocks = ceilDiv(g.batches, dim);
  g.transInput = transInput;
  g.depthwise = depthwise;
  g.bBlockRows = depthwise ? ceilDiv(dim, lanes) : g.kchBlocks * dim;
}

int loopConvCheck(const ModelParams& p, const LoopConvState& s, const ArchState& arch, bool os,
                  uint64_t rs1, uint64_t rs2) {
  const char* l = "LOOP_CONV_WS";
  LoopConvGeom g = LoopConvGeom::from(s);
  if (field(l, false, "dw", rs1))
    return hw::isa::errorCode("UNSUPPORTED");
  // trans_weight_0132 / trans_input_3120: the weights / the input come in as stored and the
  // computes read them through the transposer, which CONFIG_EX's b_transpose / a_transpose
  // names; any other transpose there would make the computes read something else than the
  // convolution's operands. The transposer takes one operand, one lane, weight-stationary.
  const bool transWeight0132 = field(l, false, "trans_weight_0132", rs1) != 0;
  const bool transInput = field(l, false, "trans_input_3120", rs1) != 0;
  if (arch.ex.aTranspose != transInput || arch.ex.bTranspose != transWeight0132 ||
      (transInput && (transWeight0132 || os || p.lanes > 1)))
    return hw::isa::errorCode("UNSUPPORTED");
  const bool transOutput = field(l, false, "trans_output_1203", rs1) != 0;
  // Depthwise: output-channel blocks read their own DIM input channels, which on vector PEs lie
  // inside a scratchpad row: only the TensorDash feeder reads A at a column offset (OS), in
  // whole lane groups (DIM >= lanes). Not with the transposed layouts or compressed weights (DIM x
  // DIM blocks of a dense matrix).
  const bool depthwise = field(l, false, "depthwise", rs1) != 0;
  if (depthwise && ((p.lanes > 1 && !(os && p.tensordash && p.dim >= p.lanes)) || transInput ||
                    transWeight0132 || transOutput || field(l, false, "trans_weight_1203", rs1) ||
                    field(l, true, "weights_compressed", rs2)))
    return hw::isa::errorCode("UNSUPPORTED");
  // Boveda: compressed operands are moved through pointer entries, so each channel (the store
  // path for the output) must move compressed blocks exactly when the loop says so. Not for the
  // transposed or dilated layouts, lane-packed weights or pooled output.
  const bool weightsZ = field(l, true, "weights_compressed", rs2) != 0;
  const bool inputZ = field(l, true, "input_compressed", rs2) != 0;
  const bool outputZ = field(l, true, "output_compressed", rs2) != 0;
  if (((weightsZ || inputZ || outputZ) && !p.boveda) ||
      (weightsZ && (p.lanes > 1 || transWeight0132 || field(l, false, "trans_weight_1203", rs1))) ||
      (inputZ && (transInput || field(l, true, "input_dilated", rs2))) ||
      (outputZ && (transOutput || !field(l, true, "no_pool", rs2))) ||
      weightsZ != arch.ld[1].compressed || inputZ != arch.ld[0].compressed ||
      outputZ != arch.st.compressed)
    return hw::isa::errorCode("UNSUPPORTED");
  if (arch.ex.dataflow != (os ? hw::kDataflowOS : hw::kDataflowWS) ||
      field(l, true, "downsample", rs2) || field(l, true, "activation", rs2) > 1 ||
      (field(l, false, "trans_weight_1203", rs1) && p.lanes > 1) ||
      (transOutput && !field(l, true, "no_pool", rs2)))
    return hw::isa::errorCode("UNSUPPORTED");
  if (g.batches == 0 || g.orows == 0 || g.ocols == 0 || g.pochs == 0 || g.krows == 0 ||
      g.kcols == 0 || g.kchs == 0 || g.stride == 0 || g.upad + g.dpad > g.irows ||
      g.lpad + g.rpad > g.icols || (transOutput && g.batchSize == 0) ||
      (transWeight0132 && g.outChannels == 0) || (transInput && g.batchSize == 0) ||
      (depthwise && g.kchs != g.pochs))
    return hw::isa::errorCode("BAD_SIZE");
  // A compressed input or output block is a whole image row.
  if ((inputZ && g.icols - g.lpad - g.rpad != g.inColDim) || (outputZ && g.ocols != g.outColDim))
    return hw::isa::errorCode("UNSUPPORTED");
  setBlocks(p, g, transInput, depthwise);
  Layout lay;
  if (!layout(p, g, lay) || field(l, false, "a_spad_id", rs1) > 2 ||
      field(l, false, "b_spad_id", rs1) > 2)
    return hw::isa::errorCode("LOCAL_RANGE");
  for (uint64_t a : {g.weights, g.output, g.bias, g.input})
    if (a > 0xffffffffull)
      return hw::isa::errorCode("DMA_ERROR");
  return 0;
}

LoopConvBlockStrides loopConvBlockStrides(const ModelParams& p, const LoopConvState& s,
                                          uint64_t rs1) {
  const LoopConvGeom g = LoopConvGeom::from(s);
  LoopConvGeom b = g;
  setBlocks(p, b, false, field("LOOP_CONV_WS", false, "depthwise", rs1) != 0);
  const bool transWeight0132 = field("LOOP_CONV_WS", false, "trans_weight_0132", rs1) != 0;
  // (trans_input_3120: an input MVIN moves one block of DIM images.)
  return {static_cast<uint32_t>(g.icols),
          static_cast<uint32_t>(transWeight0132 ? uint64_t(p.dim) : b.bBlockRows),
          static_cast<uint32_t>(g.ocols)};
}

namespace {

// The unrolled commands of one legal loop, phase by phase (docs/isa.md, "LOOP_CONV_WS",
// "LOOP_CONV_OS"): the local addresses of the layout, and the moves and computes in issue order.
class Unroller {
public:
  Unroller(const ModelParams& p, const LoopConvState& s, const ExecConfig& ex, uint64_t rs1,
           uint64_t rs2)
      : g_(LoopConvGeom::from(s)), ex_(ex), dim_(uint64_t(p.dim)), lanes_(uint64_t(p.lanes)),
        kblock_(dim_ * lanes_), ib_(uint64_t(p.inputBytes)), ab_(uint64_t(p.accBytes)),
        mbl_(uint64_t(p.maxBlockLen)), outBlocks_(uint64_t(p.maxColsAccElems / p.dim)),
        loadD_(!field("LOOP_CONV_WS", false, "no_bias", rs1)),
        pool_(!field("LOOP_CONV_WS", true, "no_pool", rs2)),
        rot_(field("LOOP_CONV_WS", false, "wrot180", rs1) != 0),
        transWeight_(field("LOOP_CONV_WS", false, "trans_weight_1203", rs1) != 0),
        transWeight0132_(field("LOOP_CONV_WS", false, "trans_weight_0132", rs1) != 0),
        transOutput_(field("LOOP_CONV_WS", false, "trans_output_1203", rs1) != 0),
        inputDilated_(field("LOOP_CONV_WS", true, "input_dilated", rs2) != 0),
        weightsCompressed_(field("LOOP_CONV_WS", true, "weights_compressed", rs2) != 0),
        inputCompressed_(field("LOOP_CONV_WS", true, "input_compressed", rs2) != 0),
        outputCompressed_(field("LOOP_CONV_WS", true, "output_compressed", rs2) != 0) {
    setBlocks(p, g_, field("LOOP_CONV_WS", false, "trans_input_3120", rs1) != 0,
              field("LOOP_CONV_WS", false, "depthwise", rs1) != 0);
    layout(p, g_, lay_);
    const uint64_t half = uint64_t(p.spRows / 2);
    // An operand with a spad id and DRAM address 0 is already in its half: no moves.
    loadA_ = g_.input != 0 || field("LOOP_CONV_WS", false, "a_spad_id", rs1) == 0;
    loadB_ = g_.weights != 0 || field("LOOP_CONV_WS", false, "b_spad_id", rs1) == 0;
    aRow_ = operandHalf(s, "a_spad_id", rs1) * half;
    bRow_ = (operandHalf(s, "b_spad_id", rs1) + 1) * half - lay_.bRows;
    cRow_ = uint64_t(s.accHalf) * uint64_t(p.accRows / 2);
    taps_ = g_.krows * g_.kcols;
  }

  std::vector<Instruction> run(bool os) {
    if (g_.transInput) // the computes' strides: A's channels icols rows apart, C's images
      strides(g_.icols, g_.orows * (pool_ ? 1 : g_.ochBlocks) * g_.ocols);
    input();
    loadTap(0); // the next tap's weights load before each tap of the first output tile computes
    if (os)
      computesOs();
    else
      computesWs();
    if (g_.transInput) // CONFIG_EX's strides as the loop found them
      strides(ex_.aStride, ex_.cStride);
    output();
    return std::move(out_);
  }

private:
  uint64_t kchCols(uint64_t kb) const { return std::min(kblock_, g_.kchs - kb * kblock_); }
  uint64_t packedRows(uint64_t kb) const { return ceilDiv(kchCols(kb), lanes_); } // rows of B
  uint64_t ochCols(uint64_t ob) const { return std::min(dim_, g_.pochs - ob * dim_); }
  // A's row of column c of window row r, channel group kb (trans_input_3120: channel kb) and
  // image b (trans_input_3120: block b of DIM images).
  uint32_t a(uint64_t kb, uint64_t b, uint64_t r, uint64_t c) const {
    return uint32_t(aRow_ + ((b * g_.irows + r) * g_.aGroups() + kb) * g_.icols + c);
  }
  uint32_t bAddr(uint64_t t, uint64_t kb, uint64_t ob) const {
    // (depthwise: the band of the tap and output-channel block, whatever kb)
    return uint32_t(bRow_ + (t * g_.ochBlocks + ob) * g_.bBlockRows +
                    (g_.depthwise ? 0 : kb * dim_));
  }
  // C: pooled, every output-channel block's orows x ocols image (as pooling reads it); else per
  // output row its output-channel blocks one after another (one MVOUT writes whole DRAM rows).
  uint32_t c(uint64_t ob, uint64_t b, uint64_t orow, uint64_t ocol) const {
    const uint64_t pixrow = b * g_.orows + orow;
    if (pool_)
      return kAcc | uint32_t(cRow_ + ob * lay_.cImage + pixrow * g_.ocols + ocol);
    return kAcc | uint32_t(cRow_ + (pixrow * g_.ochBlocks + ob) * g_.ocols + ocol);
  }
  void move(int funct, uint64_t dram, uint64_t rows, uint64_t cols, uint32_t local) {
    out_.push_back({uint32_t(funct), dram, operand(rows, cols, local)});
  }
  // CONFIG_EX with set_only_strides (the other fields unchanged).
  void strides(uint64_t aStride, uint64_t cStride) {
    const hw::isa::Command& ex = command("CONFIG_EX");
    out_.push_back(
        {uint32_t(hw::isa::kConfig),
         ex.rs1Field("set_only_strides").place(1) | ex.rs1Field("a_stride").place(aStride),
         ex.rs2Field("c_stride").place(cStride)});
  }
  // A PRELOAD and its COMPUTE; the loop's bias right before its first one.
  void pair(uint64_t bd, uint64_t cOut, bool preloaded, uint64_t aOp, uint64_t bOp) {
    if (loadD_) {
      bias();
      loadD_ = false;
    }
    out_.push_back({uint32_t(hw::isa::kPreload), bd, cOut});
    out_.push_back({uint32_t(preloaded ? hw::isa::kComputePreloaded : hw::isa::kComputeAccumulated),
                    aOp, bOp});
  }
  // A of one compute: `pixels` output pixels of row orow from column ocol (input rows `stride`
  // apart: CONFIG_EX's a_stride, set by the host), at tap t and block kb.
  // trans_input_3120: the up to DIM images of block b at one pixel (stored as the block's
  // channel rows, icols apart: CONFIG_EX's a_stride, which the loop sets).
  // Depthwise: A's columns are output-channel block ob's channels (at a column offset on vector
  // PEs: the COMPUTE's aColOffset).
  uint64_t aOperand(uint64_t t, uint64_t kb, uint64_t ob, uint64_t b, uint64_t orow,
                    uint64_t ocol) const {
    const uint64_t kr = t / g_.kcols, kc = t % g_.kcols, d = g_.dilation;
    const uint64_t r = orow * g_.stride + kr * d, col = ocol * g_.stride + kc * d;
    if (g_.transInput)
      return operand(std::min(dim_, g_.batches - b * dim_), kchCols(kb), a(kb * dim_, b, r, col));
    return operand(std::min(dim_, g_.ocols - ocol), g_.depthwise ? ochCols(ob) : kchCols(kb),
                   a(kb, b, r, col));
  }

  // D (unless no_bias): the bias row repeated over every pixel of the output-channel block
  // (MVIN3 channel stride 0, set by the host), or zeros without a bias address. Every compute
  // accumulates, so with no_bias the loop adds onto what the accumulator half holds (an
  // earlier loop's partial sums over other input channels). D comes after the input window
  // and the first taps' weights, right before the first compute: its moves write the
  // accumulator half whose output the loop two before still moves out, so they wait for its
  // MVOUTs, and the load queue is in order (in front, they held this loop's operand loads back).
  void bias() {
    if (!loadD_)
      return;
    const uint64_t pixrows = pool_ ? 1 : g_.batches * g_.orows; // runs of C rows per block
    for (uint64_t pr = 0; pr < pixrows; ++pr)
      for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
        move(hw::isa::kMvin3, g_.bias == 0 ? 0 : g_.bias + ob * dim_ * ab_,
             pool_ ? lay_.cImage : g_.ocols, ochCols(ob), c(ob, pr / g_.orows, pr % g_.orows, 0));
  }

  // A: the input window row by row, MAX_BLOCK_LEN channel blocks per MVIN; padding rows and
  // columns are zero fills (DRAM address 0), a row's left and right ones before its real pixels
  // (their rows lie inside the real move's range, so it waits for them, not they for it: the
  // reservation station then lets the window's real moves overlap). input_dilated: the window is
  // the image dilated by 2 (a zero between neighbouring pixels), built as it is: its real rows and
  // columns are those an even number in from the padding, each real pixel one MVIN and each zero
  // between two one zero fill; the rows between real rows are zero fills.
  //
  // trans_input_3120: per block of DIM images, window row and channel, the row's segments as
  // above, one MVIN of DIM images per pixel run ([channel][row][col][image]: batch_size apart).
  void input() {
    if (!loadA_)
      return;
    const uint64_t rrows = g_.irows - g_.upad - g_.dpad, rcols = g_.icols - g_.lpad - g_.rpad;
    const bool t = g_.transInput;
    // The image and channel address of pixel (irow, icol) of MVIN (b, kb) in elements.
    auto pixel = [&](uint64_t b, uint64_t kb, uint64_t irow, uint64_t icol) {
      if (t)
        return ((kb * g_.inRowDim + irow) * g_.inColDim + icol) * g_.batchSize + b * dim_;
      return ((b * g_.inRowDim + irow) * g_.inColDim + icol) * g_.inStride + kb * kblock_;
    };
    for (uint64_t b = 0; b < g_.aImages(); ++b)
      for (uint64_t r = 0; r < g_.irows; ++r)
        for (uint64_t kb = 0; kb < g_.aGroups(); kb += t ? 1 : mbl_) {
          const uint64_t cols = t ? std::min(dim_, g_.batches - b * dim_)
                                  : std::min(mbl_ * kblock_, g_.kchs - kb * kblock_);
          const bool hole = inputDilated_ && (r - g_.upad) % 2 == 1;
          if (r < g_.upad || r >= g_.upad + rrows || hole) {
            move(hw::isa::kMvin, 0, g_.icols, cols, a(kb, b, r, 0));
            continue;
          }
          if (g_.lpad)
            move(hw::isa::kMvin, 0, g_.lpad, cols, a(kb, b, r, 0));
          if (g_.rpad && !inputDilated_) // zeros before the real move (docs/isa.md)
            move(hw::isa::kMvin, 0, g_.rpad, cols, a(kb, b, r, g_.lpad + rcols));
          const uint64_t irow = inputDilated_ ? (r - g_.upad) / 2 : r - g_.upad;
          if (rcols && inputCompressed_) { // the row's block of this channel group
            move(hw::isa::kMvin,
                 g_.input + ((b * g_.inRowDim + irow) * g_.inStride + kb / mbl_) *
                                hw::isa::kBovedaEntryBytes,
                 rcols, cols, a(kb, b, r, g_.lpad));
          } else if (rcols && !inputDilated_) {
            move(hw::isa::kMvin, g_.input + pixel(b, kb, irow, 0) * ib_, rcols, cols,
                 a(kb, b, r, g_.lpad));
          } else if (rcols) {
            for (uint64_t c = 0; 2 * c < rcols; ++c) {
              move(hw::isa::kMvin, g_.input + pixel(b, kb, irow, c) * ib_, 1, cols,
                   a(kb, b, r, g_.lpad + 2 * c));
              if (2 * c + 1 < rcols)
                move(hw::isa::kMvin, 0, 1, cols, a(kb, b, r, g_.lpad + 2 * c + 1));
            }
          }
          if (g_.rpad && inputDilated_)
            move(hw::isa::kMvin, 0, g_.rpad, cols, a(kb, b, r, g_.lpad + rcols));
        }
  }

  // B of kernel tap t: its lane-packed weight rows (one row per `lanes` input channels of the
  // tap; docs/isa.md, "Vector PEs") of every input-channel block, MAX_BLOCK_LEN output-channel
  // blocks per MVIN2. wrot180 takes them from the opposite tap; with trans_weight_1203 a tap's
  // rows are its first row's (kr x kernel_dim + kc) and the mvin's stride (the host's) steps
  // over the taps; with trans_weight_0132 (stored [kr][kc][o][i], tap pitch out_channels rows)
  // each block comes in as stored, an out-channel block's rows of MAX_BLOCK_LEN input blocks
  // per MVIN2 (DIM rows apart), and the PRELOADs transpose it (CONFIG_EX's b_transpose).
  void loadTap(uint64_t t) {
    if (!loadB_)
      return;
    uint64_t kr = t / g_.kcols, kc = t % g_.kcols;
    if (rot_)
      kr = g_.krows - 1 - kr, kc = g_.kcols - 1 - kc;
    if (transWeight0132_) { // stored [o][i]: per out-channel block, MAX_BLOCK_LEN input blocks
      const uint64_t row = (kr * g_.kernelDim + kc) * g_.outChannels;
      for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
        for (uint64_t kb = 0; kb < g_.kchBlocks; kb += mbl_)
          move(hw::isa::kMvin2,
               g_.weights + ((row + ob * dim_) * g_.weightStride + kb * kblock_) * ib_, ochCols(ob),
               std::min(mbl_ * kblock_, g_.kchs - kb * kblock_), bAddr(t, kb, ob));
      return;
    }
    if (weightsCompressed_) { // one DIM x DIM block per move, named by its pointer entry
      const uint64_t tap = kr * g_.kernelDim + kc, bands = ceilDiv(g_.inChannels, dim_);
      for (uint64_t kb = 0; kb < g_.kchBlocks; ++kb)
        for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
          move(hw::isa::kMvin2,
               g_.weights +
                   ((tap * bands + kb) * g_.weightStride + ob) * hw::isa::kBovedaEntryBytes,
               dim_, ochCols(ob), bAddr(t, kb, ob));
      return;
    }
    // A depthwise tap is its band of diagonal stripes (ceil(DIM / lanes) packed rows).
    const uint64_t tapRows = transWeight_   ? 1
                             : g_.depthwise ? g_.bBlockRows
                                            : ceilDiv(g_.inChannels, lanes_);
    const uint64_t rows =
        g_.depthwise ? g_.bBlockRows : (g_.kchBlocks - 1) * dim_ + packedRows(g_.kchBlocks - 1);
    const uint64_t row = (kr * g_.kernelDim + kc) * tapRows;
    for (uint64_t ob = 0; ob < g_.ochBlocks; ob += mbl_)
      move(hw::isa::kMvin2, g_.weights + (row * g_.weightStride + ob * dim_ * lanes_) * ib_, rows,
           std::min(mbl_ * dim_, g_.pochs - ob * dim_) * lanes_, bAddr(t, 0, ob));
  }

  // The input-channel blocks output-channel block ob reduces over: all, or depthwise the one
  // holding its channels (with one lane, block ob).
  uint64_t kbBegin(uint64_t ob) const { return g_.depthwise ? ob / lanes_ : 0; }
  uint64_t kbEnd(uint64_t ob) const { return g_.depthwise ? ob / lanes_ + 1 : g_.kchBlocks; }
  // B of (tap, kb, ob): depthwise the band's DIM x DIM diagonal block of ob.
  uint64_t bOperand(uint64_t kb, uint64_t ob, uint32_t addr) const {
    const uint64_t rows = g_.depthwise ? ceilDiv(ochCols(ob), lanes_) : packedRows(kb);
    return operand(rows, ochCols(ob) * lanes_, addr);
  }

  // Weight-stationary: per output-channel block, tap and input-channel block one weight block,
  // preloaded with the first of its computes, then every run of up to DIM pixels of an output
  // row accumulates onto C.
  void computesWs() {
    for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
      for (uint64_t t = 0; t < taps_; ++t) {
        if (ob == 0 && t + 1 < taps_)
          loadTap(t + 1);
        for (uint64_t kb = kbBegin(ob); kb < kbEnd(ob); ++kb)
          for (uint64_t b = 0; b < g_.aImages(); ++b)
            for (uint64_t orow = 0; orow < g_.orows; ++orow)
              for (uint64_t ocol = 0; ocol < g_.ocols; ocol += g_.transInput ? 1 : dim_) {
                const bool first = b == 0 && orow == 0 && ocol == 0;
                // trans_input_3120: the compute's rows are up to DIM images at one pixel
                const uint64_t rows = g_.transInput ? std::min(dim_, g_.batches - b * dim_)
                                                    : std::min(dim_, g_.ocols - ocol);
                const uint64_t image = g_.transInput ? b * dim_ : b;
                pair(bOperand(kb, ob, first ? bAddr(t, kb, ob) : hw::isa::kGarbageAddr),
                     operand(rows, ochCols(ob), c(ob, image, orow, ocol) | kAccumulate), first,
                     aOperand(t, kb, ob, b, orow, ocol),
                     operand(dim_, dim_, hw::isa::kGarbageAddr));
              }
      }
  }

  // Output-stationary: per output tile (output-channel block, image, row, run of up to DIM
  // pixels) one accumulation in the array over every tap and input-channel block, started from
  // zero by its first compute (GARBAGE D) and added onto C (the bias) by its last.
  void computesOs() {
    for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
      for (uint64_t b = 0; b < g_.batches; ++b)
        for (uint64_t orow = 0; orow < g_.orows; ++orow)
          for (uint64_t ocol = 0; ocol < g_.ocols; ocol += dim_)
            for (uint64_t t = 0; t < taps_; ++t) {
              if (ob == 0 && b == 0 && orow == 0 && ocol == 0 && t + 1 < taps_)
                loadTap(t + 1);
              for (uint64_t kb = kbBegin(ob); kb < kbEnd(ob); ++kb) {
                const bool last = t + 1 == taps_ && kb + 1 == kbEnd(ob);
                const uint64_t pixels = std::min(dim_, g_.ocols - ocol);
                pair(operand(pixels, ochCols(ob), hw::isa::kGarbageAddr),
                     operand(pixels, ochCols(ob),
                             last ? c(ob, b, orow, ocol) | kAccumulate : hw::isa::kGarbageAddr),
                     t == 0 && kb == kbBegin(ob), aOperand(t, kb, ob, b, orow, ocol),
                     bOperand(kb, ob, bAddr(t, kb, ob)));
                if (g_.depthwise)
                  out_.back().aColOffset = uint32_t((ob % lanes_) * dim_);
              }
            }
  }

  // C: one pooled MVOUT per image and output-channel block (CONFIG_ST's pooling reads the
  // block's orows x ocols image), or per output row MVOUTs of up to MAX_ACC_ELEM_COLS channels
  // (their blocks ocols rows apart: loopConvBlockStrides), one DMA write per pixel.
  void output() {
    if (g_.output == 0)
      return;
    if (pool_) {
      for (uint64_t ob = 0; ob < g_.ochBlocks; ++ob)
        for (uint64_t b = 0; b < g_.batches; ++b) {
          const uint64_t pixel = b * g_.poolOutRowDim * g_.poolOutColDim;
          out_.push_back({uint32_t(hw::isa::kMvout),
                          g_.output + (pixel * g_.outStride + ob * dim_) * ib_,
                          operand(1, ochCols(ob), c(ob, b, 0, 0))});
        }
      return;
    }
    for (uint64_t ob = 0; ob < g_.ochBlocks; ob += outBlocks_)
      for (uint64_t b = 0; b < g_.batches; ++b)
        for (uint64_t orow = 0; orow < g_.orows; ++orow) {
          // trans_output_1203: [row][col][image][channel], the images batch_size pixels apart
          // (the host's store stride steps over them).
          const uint64_t pixel = transOutput_ ? orow * g_.outColDim * g_.batchSize + b
                                              : (b * g_.outRowDim + orow) * g_.outColDim;
          const uint64_t entry =
              g_.output + ((b * g_.outRowDim + orow) * g_.outStride + ob / outBlocks_) *
                              hw::isa::kBovedaEntryBytes;
          out_.push_back(
              {uint32_t(hw::isa::kMvout),
               outputCompressed_ ? entry : g_.output + (pixel * g_.outStride + ob * dim_) * ib_,
               operand(g_.ocols, std::min(outBlocks_ * dim_, g_.pochs - ob * dim_),
                       c(ob, b, orow, 0))});
        }
  }

  LoopConvGeom g_;
  ExecConfig ex_; // CONFIG_EX as the loop found it
  Layout lay_;
  uint64_t dim_, lanes_, kblock_, ib_, ab_, mbl_, outBlocks_;
  bool loadD_, pool_, rot_, transWeight_, transWeight0132_, transOutput_, inputDilated_,
      weightsCompressed_, inputCompressed_, outputCompressed_, loadA_ = true, loadB_ = true;
  uint64_t aRow_ = 0, bRow_ = 0, cRow_ = 0, taps_ = 0;
  std::vector<Instruction> out_;
};

} // namespace

std::vector<Instruction> loopConvUnroll(const ModelParams& p, const LoopConvState& s,
                                        const ExecConfig& ex, bool os, uint64_t rs1, uint64_t rs2) {
  return Unroller(p, s, ex, rs1, rs2).run(os);
}

} // namespace by::funcmodel
