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

// The local layout of a legal loop (docs/isa.md, "LOOP_CONV_WS"): A's channel blocks are the
// MVIN channel's block stride apart, B's output-channel blocks the MVIN2 channel's.
struct Layout {
  uint64_t aBlock = 0, bBlock = 0; // effective block strides of MVIN and MVIN2
  uint64_t aImage = 0;             // rows of one channel block of A: batches x irows x icols
  uint64_t bSpan = 0;              // rows of one output-channel block of B: taps x kchB x DIM
  uint64_t aRows = 0, bRows = 0;   // rows A and B occupy
  uint64_t cImage = 0, cRows = 0;  // rows of one output-channel block of C; all of C
};

// Products of the layout, or false when one exceeds `limit` (checked step by step, so that no
// product overflows: each factor is at most `limit` when it is multiplied).
bool layout(const ModelParams& p, const LoopConvGeom& g, const ArchState& arch, Layout& l) {
  const uint64_t dim = static_cast<uint64_t>(p.dim);
  const uint64_t half = static_cast<uint64_t>(p.spRows / 2);
  const uint64_t accHalf = static_cast<uint64_t>(p.accRows / 2);
  l.aBlock = arch.ld[0].blockStride, l.bBlock = arch.ld[1].blockStride;
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
  if (!mul(g.batches, g.irows, half, t) || !mul(t, g.icols, half, l.aImage))
    return false;
  // With one channel block the block stride places nothing.
  if (g.kchBlocks > 1 && (l.aBlock < l.aImage || !mul(g.kchBlocks - 1, l.aBlock, half, t)))
    return false;
  if (g.kchBlocks == 1)
    t = 0;
  l.aRows = t + l.aImage;
  if (!mul(g.krows, g.kcols, half, t) || !mul(t, g.kchBlocks, half, t) ||
      !mul(t, dim, half, l.bSpan))
    return false;
  if (g.ochBlocks > 1 && (l.bBlock < l.bSpan || !mul(g.ochBlocks - 1, l.bBlock, half, t)))
    return false;
  if (g.ochBlocks == 1)
    t = 0;
  l.bRows = t + l.bSpan;
  return l.aRows + l.bRows <= half;
}

} // namespace

LoopConvGeom LoopConvGeom::from(const LoopConvState& s) {
  LoopConvGeom g;
  auto f = [&](int n, bool rs2, const char* name) {
    const std::string cmd = "LOOP_CONV_WS_CONFIG_" + std::to_string(n);
    return field(cmd.c_str(), rs2, name, s.words[static_cast<size_t>(2 * (n - 1) + (rs2 ? 1 : 0))]);
  };
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
  g.irows = g.orows == 0 ? 0 : (g.orows - 1) * g.stride + g.krows;
  g.icols = g.ocols == 0 ? 0 : (g.ocols - 1) * g.stride + g.kcols;
  return g;
}

// Input-channel blocks are a scratchpad row wide (DIM x lanes channels), output-channel blocks
// an accumulator row (DIM).
void setBlocks(const ModelParams& p, LoopConvGeom& g) {
  const uint64_t dim = static_cast<uint64_t>(p.dim);
  g.kchBlocks = ceilDiv(g.kchs, dim * static_cast<uint64_t>(p.lanes));
  g.ochBlocks = ceilDiv(g.pochs, dim);
}

int loopConvCheck(const ModelParams& p, const LoopConvState& s, const ArchState& arch, bool os,
                  uint64_t rs1, uint64_t rs2) {
  const char* l = "LOOP_CONV_WS";
  LoopConvGeom g = LoopConvGeom::from(s);
  for (const char* flag : {"wrot180", "trans_output_1203", "trans_weight_1203", "trans_weight_0132",
                           "trans_input_3120", "dw", "b_spad_id", "a_spad_id"})
    if (field(l, false, flag, rs1))
      return hw::isa::errorCode("UNSUPPORTED");
  if (arch.ex.dataflow != (os ? hw::kDataflowOS : hw::kDataflowWS) ||
      field(l, true, "downsample", rs2) || field(l, true, "input_dilated", rs2) ||
      field(l, true, "activation", rs2) > 1 || g.kernelDilation > 1)
    return hw::isa::errorCode("UNSUPPORTED");
  if (g.batches == 0 || g.orows == 0 || g.ocols == 0 || g.pochs == 0 || g.krows == 0 ||
      g.kcols == 0 || g.kchs == 0 || g.stride == 0 || g.upad + g.dpad > g.irows ||
      g.lpad + g.rpad > g.icols)
    return hw::isa::errorCode("BAD_SIZE");
  setBlocks(p, g);
  Layout lay;
  if (!layout(p, g, arch, lay))
    return hw::isa::errorCode("LOCAL_RANGE");
  for (uint64_t a : {g.weights, g.output, g.bias, g.input})
    if (a > 0xffffffffull)
      return hw::isa::errorCode("DMA_ERROR");
  return 0;
}

std::vector<Instruction> loopConvUnroll(const ModelParams& p, const LoopConvState& s,
                                        const ArchState& arch, bool os, uint64_t rs1,
                                        uint64_t rs2) {
  LoopConvGeom g = LoopConvGeom::from(s);
  setBlocks(p, g);
  Layout lay;
  layout(p, g, arch, lay);
  const bool loadD = !field("LOOP_CONV_WS", false, "no_bias", rs1);
  const bool pool = !field("LOOP_CONV_WS", true, "no_pool", rs2);
  const uint64_t dim = static_cast<uint64_t>(p.dim), lanes = static_cast<uint64_t>(p.lanes);
  const uint64_t kblock = dim * lanes; // input channels of a block: a scratchpad row
  const uint64_t ib = static_cast<uint64_t>(p.inputBytes), ab = static_cast<uint64_t>(p.accBytes);
  const uint64_t mbl = static_cast<uint64_t>(p.maxBlockLen);
  const uint64_t half = static_cast<uint64_t>(p.spRows / 2);
  const uint64_t aRow = static_cast<uint64_t>(s.spHalf) * half;
  const uint64_t bRow = (static_cast<uint64_t>(s.spHalf) + 1) * half - lay.bRows;
  const uint64_t cRow = static_cast<uint64_t>(s.accHalf) * static_cast<uint64_t>(p.accRows / 2);
  const uint64_t taps = g.krows * g.kcols;

  auto kchCols = [&](uint64_t kb) { return std::min(kblock, g.kchs - kb * kblock); };
  auto packedRows = [&](uint64_t kb) { return ceilDiv(kchCols(kb), lanes); }; // rows of B
  auto ochCols = [&](uint64_t ob) { return std::min(dim, g.pochs - ob * dim); };
  auto a = [&](uint64_t kb, uint64_t b, uint64_t r, uint64_t c) {
    return static_cast<uint32_t>(aRow + kb * lay.aBlock + (b * g.irows + r) * g.icols + c);
  };
  auto bAddr = [&](uint64_t t, uint64_t kb, uint64_t ob) {
    return static_cast<uint32_t>(bRow + ob * lay.bBlock + (t * g.kchBlocks + kb) * dim);
  };
  auto c = [&](uint64_t ob, uint64_t b, uint64_t orow, uint64_t ocol) {
    return kAcc |
           static_cast<uint32_t>(cRow + ob * lay.cImage + (b * g.orows + orow) * g.ocols + ocol);
  };
  auto mvin = [](int funct, uint64_t dram, uint64_t rows, uint64_t cols, uint32_t local) {
    return Instruction{static_cast<uint32_t>(funct), dram, operand(rows, cols, local)};
  };

  std::vector<Instruction> out;
  // D (unless no_bias): the bias row repeated over every pixel of the output-channel block
  // (MVIN3 channel stride 0, set by the host), or zeros without a bias address. Every compute
  // accumulates, so with no_bias the loop adds onto what the accumulator half holds (an
  // earlier loop's partial sums over other input channels).
  if (loadD)
    for (uint64_t ob = 0; ob < g.ochBlocks; ++ob)
      out.push_back(mvin(hw::isa::kMvin3, g.bias == 0 ? 0 : g.bias + ob * dim * ab, lay.cImage,
                         ochCols(ob), c(ob, 0, 0, 0)));
  // A: the input window row by row, MAX_BLOCK_LEN channel blocks per MVIN; padding rows and
  // columns are zero fills (DRAM address 0).
  const uint64_t rrows = g.irows - g.upad - g.dpad, rcols = g.icols - g.lpad - g.rpad;
  for (uint64_t b = 0; b < g.batches; ++b)
    for (uint64_t r = 0; r < g.irows; ++r)
      for (uint64_t kb = 0; kb < g.kchBlocks; kb += mbl) {
        const uint64_t cols = std::min(mbl * kblock, g.kchs - kb * kblock);
        if (r < g.upad || r >= g.upad + rrows) {
          out.push_back(mvin(hw::isa::kMvin, 0, g.icols, cols, a(kb, b, r, 0)));
          continue;
        }
        if (g.lpad)
          out.push_back(mvin(hw::isa::kMvin, 0, g.lpad, cols, a(kb, b, r, 0)));
        if (rcols) {
          const uint64_t pixel = (b * g.inRowDim + (r - g.upad)) * g.inColDim;
          out.push_back(mvin(hw::isa::kMvin, g.input + (pixel * g.inStride + kb * kblock) * ib,
                             rcols, cols, a(kb, b, r, g.lpad)));
        }
        if (g.rpad)
          out.push_back(mvin(hw::isa::kMvin, 0, g.rpad, cols, a(kb, b, r, g.lpad + rcols)));
      }
  // B of kernel tap t: per input-channel block, its lane-packed weight rows (one row per
  // `lanes` input channels of the tap; docs/isa.md, "Vector PEs"), MAX_BLOCK_LEN output-channel
  // blocks per MVIN2.
  const uint64_t tapRows = ceilDiv(g.inChannels, lanes); // packed DRAM rows of one tap
  auto loadTap = [&](uint64_t t) {
    const uint64_t kr = t / g.kcols, kc = t % g.kcols;
    for (uint64_t kb = 0; kb < g.kchBlocks; ++kb)
      for (uint64_t ob = 0; ob < g.ochBlocks; ob += mbl) {
        const uint64_t row = (kr * g.kernelDim + kc) * tapRows + kb * dim;
        out.push_back(mvin(
            hw::isa::kMvin2, g.weights + (row * g.weightStride + ob * dim * lanes) * ib,
            packedRows(kb), std::min(mbl * dim, g.pochs - ob * dim) * lanes, bAddr(t, kb, ob)));
      }
  };
  // One compute: A is `pixels` output pixels of row orow from column ocol (input rows
  // `stride` apart: CONFIG_EX's a_stride, set by the host), at tap t and block kb.
  auto aOperand = [&](uint64_t t, uint64_t kb, uint64_t b, uint64_t orow, uint64_t ocol) {
    const uint64_t kr = t / g.kcols, kc = t % g.kcols;
    return operand(std::min(dim, g.ocols - ocol), kchCols(kb),
                   a(kb, b, orow * g.stride + kr, ocol * g.stride + kc));
  };
  // The weights of tap 0 load after A; the next tap's load before the computes of each tap of
  // the first output tile (WS: of the first output-channel block), so a tap's weights arrive
  // while the tap before computes.
  loadTap(0);
  if (!os) {
    // Weight-stationary: per output-channel block, tap and input-channel block one weight
    // block, preloaded with the first of its computes, then every run of up to DIM pixels of
    // an output row accumulates onto C.
    for (uint64_t ob = 0; ob < g.ochBlocks; ++ob)
      for (uint64_t t = 0; t < taps; ++t) {
        if (ob == 0 && t + 1 < taps)
          loadTap(t + 1);
        for (uint64_t kb = 0; kb < g.kchBlocks; ++kb)
          for (uint64_t b = 0; b < g.batches; ++b)
            for (uint64_t orow = 0; orow < g.orows; ++orow)
              for (uint64_t ocol = 0; ocol < g.ocols; ocol += dim) {
                const bool first = b == 0 && orow == 0 && ocol == 0;
                const uint64_t pixels = std::min(dim, g.ocols - ocol);
                out.push_back({static_cast<uint32_t>(hw::isa::kPreload),
                               operand(packedRows(kb), ochCols(ob) * lanes,
                                       first ? bAddr(t, kb, ob) : hw::isa::kGarbageAddr),
                               operand(pixels, ochCols(ob), c(ob, b, orow, ocol) | kAccumulate)});
                out.push_back({static_cast<uint32_t>(first ? hw::isa::kComputePreloaded
                                                           : hw::isa::kComputeAccumulated),
                               aOperand(t, kb, b, orow, ocol),
                               operand(dim, dim, hw::isa::kGarbageAddr)});
              }
      }
  } else {
    // Output-stationary: per output tile (output-channel block, image, row, run of up to DIM
    // pixels) one accumulation in the array over every tap and input-channel block, started
    // from zero by its first compute (GARBAGE D) and added onto C (the bias) by its last.
    for (uint64_t ob = 0; ob < g.ochBlocks; ++ob)
      for (uint64_t b = 0; b < g.batches; ++b)
        for (uint64_t orow = 0; orow < g.orows; ++orow)
          for (uint64_t ocol = 0; ocol < g.ocols; ocol += dim)
            for (uint64_t t = 0; t < taps; ++t) {
              if (ob == 0 && b == 0 && orow == 0 && ocol == 0 && t + 1 < taps)
                loadTap(t + 1);
              for (uint64_t kb = 0; kb < g.kchBlocks; ++kb) {
                const bool first = t == 0 && kb == 0;
                const bool last = t + 1 == taps && kb + 1 == g.kchBlocks;
                const uint64_t pixels = std::min(dim, g.ocols - ocol);
                out.push_back(
                    {static_cast<uint32_t>(hw::isa::kPreload),
                     operand(pixels, ochCols(ob), hw::isa::kGarbageAddr),
                     operand(pixels, ochCols(ob),
                             last ? c(ob, b, orow, ocol) | kAccumulate : hw::isa::kGarbageAddr)});
                out.push_back({static_cast<uint32_t>(first ? hw::isa::kComputePreloaded
                                                           : hw::isa::kComputeAccumulated),
                               aOperand(t, kb, b, orow, ocol),
                               operand(packedRows(kb), ochCols(ob) * lanes, bAddr(t, kb, ob))});
              }
            }
  }
  // C: row by row, or one pooled MVOUT per image and output-channel block (CONFIG_ST's
  // pooling reads the block's orows x ocols image).
  if (g.output != 0)
    for (uint64_t ob = 0; ob < g.ochBlocks; ++ob)
      for (uint64_t b = 0; b < g.batches; ++b) {
        if (pool) {
          const uint64_t pixel = b * g.poolOutRowDim * g.poolOutColDim;
          out.push_back({static_cast<uint32_t>(hw::isa::kMvout),
                         g.output + (pixel * g.outStride + ob * dim) * ib,
                         operand(1, ochCols(ob), c(ob, b, 0, 0))});
          continue;
        }
        for (uint64_t orow = 0; orow < g.orows; ++orow) {
          const uint64_t pixel = (b * g.outRowDim + orow) * g.outColDim;
          out.push_back({static_cast<uint32_t>(hw::isa::kMvout),
                         g.output + (pixel * g.outStride + ob * dim) * ib,
                         operand(g.ocols, ochCols(ob), c(ob, b, orow, 0))});
        }
      }
  return out;
}

} // namespace by::funcmodel
