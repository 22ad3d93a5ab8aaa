// LOOP_WS and LOOP_CONV_WS operations of a program generation (configs with loops.ws /
// loops.conv only, so that other
// configs' programs stay as they were): Gemmini-style set-up (CONFIG_EX WS, the three mvin
// channels and CONFIG_ST from the loop's strides) and one loop with random bounds, paddings,
// strides, bias kind, full_C, accumulation, operands already in the scratchpad (address 0), C
// kept in the accumulator (address 0), A or B stored transposed (with CONFIG_EX's transposes, on
// configs with the transposer), and now and then an illegal configuration (a compressed operand
// on plain channels among them).
#include "funcmodel/int_math.h"
#include "funcmodel/isa_fields.h"
#include "generator.h"
#include "hwspec/array_params.h"

#include <algorithm>

namespace by::fuzzer {

using namespace funcmodel;

void Generation::opLoopWs() {
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t ib = static_cast<uint32_t>(p_.inputBytes), ab = static_cast<uint32_t>(p_.accBytes);
  LoopWsArgs l;
  // A or B stored transposed: the computes read it through the transposer, so CONFIG_EX names
  // the same transposes (the loop refuses others).
  if (hasTransposer() && chance(0.25))
    (chance(0.5) ? l.aTranspose : l.bTranspose) = true;
  // The loop's computes read A rows and write C rows one apart (Gemmini's set-up).
  if (ex_.dataflow != hw::kDataflowWS || ex_.aStride != 1 || ex_.cStride != 1 ||
      ex_.aTranspose != l.aTranspose || ex_.bTranspose != l.bTranspose || chance(0.1)) {
    ConfigExArgs a = randomConfigEx(hw::kDataflowWS);
    a.aStride = 1, a.cStride = 1;
    a.aTranspose = l.aTranspose, a.bTranspose = l.bTranspose;
    emitConfigEx(a, "loop: config_ex");
  }
  auto bound = [&]() { return static_cast<uint32_t>(chance(0.7) ? uniform(1, 2) : uniform(1, 5)); };
  l.I = bound(), l.J = bound(), l.K = bound();
  auto pad = [&]() { return chance(0.5) ? 0u : static_cast<uint32_t>(uniform(0, dim - 1)); };
  l.padI = pad(), l.padJ = pad(), l.padK = pad();
  const uint64_t half = static_cast<uint64_t>(p_.spRows / 2);
  while ((uint64_t{l.I} * l.K + uint64_t{l.K} * l.J) * dim > half ||
         uint64_t{l.I} * l.J * dim > static_cast<uint64_t>(p_.accRows / 2)) {
    l.I = std::max(1u, l.I / 2), l.J = std::max(1u, l.J / 2), l.K = std::max(1u, l.K / 2);
  }
  l.exAccumulate = chance(0.6);
  l.fullC = chance(0.3);
  l.lowD = chance(0.4);
  l.act = chance(0.9) ? 0 : 1;
  // Strides in elements, at least a row of the matrix (as stored); sources inside the input
  // region.
  const uint64_t rowsA = uint64_t{l.I} * dim, colsA = uint64_t{l.K} * dim;
  const uint64_t colsB = uint64_t{l.J} * dim;
  const uint64_t aRows = l.aTranspose ? colsA : rowsA, aCols = l.aTranspose ? rowsA : colsA;
  const uint64_t bRows = l.bTranspose ? colsB : colsA, bCols = l.bTranspose ? colsA : colsB;
  l.aStride = aCols + (chance(0.5) ? 0 : uniform(1, 9));
  l.bStride = bCols + (chance(0.5) ? 0 : uniform(1, 9));
  const bool repeating = chance(0.2);
  l.dStride = repeating ? 0 : colsB + (chance(0.5) ? 0 : uniform(1, 5));
  const uint64_t dBytes = l.lowD ? ib : ab, cBytes = l.fullC ? ab : ib;
  auto source = [&](uint64_t span) -> uint64_t {
    if (span + 4 > layout_.input.size)
      return 0;
    return layout_.input.base + uniform(0, layout_.input.size - span);
  };
  l.A = chance(0.1) ? 0 : source(((aRows - 1) * l.aStride + aCols) * ib);
  l.B = chance(0.1) ? 0 : source(((bRows - 1) * l.bStride + bCols) * ib);
  l.D = chance(0.4) ? 0 : source(((repeating ? 0 : rowsA - 1) * l.dStride + colsB) * dBytes);
  l.cStride = colsB + (chance(0.5) ? 0 : uniform(1, 7));
  uint64_t c = 0;
  if (chance(0.85) && !allocOutput(((rowsA - 1) * l.cStride + colsB) * cBytes, 16, c))
    c = 0;
  l.C = c;
  emitConfigLd({0, false, 1, 0, floatBits(1.0f), l.aStride * ib, false}, "loop: config_ld A");
  emitConfigLd({1, false, 1, 0, floatBits(1.0f), l.bStride * ib, false}, "loop: config_ld B");
  emitConfigLd({2, l.lowD, 1, 0, floatBits(1.0f), l.dStride * dBytes, false}, "loop: config_ld D");
  ConfigStArgs st = plainConfigSt(static_cast<uint32_t>(l.cStride * cBytes));
  st.stride = static_cast<uint32_t>(l.cStride * cBytes);
  emitConfigSt(st, "loop: config_st");
  // Now and then an illegal configuration (its error is known without the loop's halves), in
  // programs that have illegal commands at all.
  int expected = 0;
  const bool illegal = chance(0.12);
  if (illegal && options_.illegalFraction > 0) {
    switch (uniformInt(0, 6)) {
    case 0: // a transpose CONFIG_EX does not name
      l.aTranspose = !l.aTranspose, expected = isaFields().err.unsupported;
      break;
    case 5: // a compressed operand (Boveda) on the plain channels configured above
      (chance(0.5) ? l.aCompressed : chance(0.5) ? l.bCompressed : l.cCompressed) = true;
      expected = isaFields().err.unsupported;
      break;
    case 1:
      l.act = 2, expected = isaFields().err.unsupported;
      break;
    case 2:
      l.J = 0, expected = isaFields().err.badSize;
      break;
    case 3:
      l.padK = dim, expected = isaFields().err.badSize;
      break;
    default:
      l.K = static_cast<uint32_t>(half / dim + 1), expected = isaFields().err.localRange;
      break;
    }
  }
  const Program cmds = loopWs(l);
  for (size_t i = 0; i < cmds.size(); ++i)
    emit(cmds[i], i + 1 < cmds.size() ? "loop: config" : "loop_ws",
         i + 1 < cmds.size() ? 0 : expected);
  if (expected == 0)
    arrayValid_ = true; // the loop's last compute leaves its weights
}

// One convolution tile loop, LOOP_CONV_WS or LOOP_CONV_OS (as the array's dataflows allow),
// with random geometry over the input region: several images, stride 1-3, kernels 1-4 (tile
// extents below the kernel's), paddings on any side (whole padding rows included), one or more
// channel blocks each way (input blocks of DIM x lanes channels, lane-packed weights), bias
// from DRAM, zeros or none (no_bias: accumulate onto the half), output or none (C stays),
// pooling on store now and then, the channels' block strides at or above what the tile needs,
// the training forms now and then (a dilated kernel, rotated weights, weights stored
// [i][kr][kc][o] on one lane or [kr][kc][o][i] through the transposer with CONFIG_EX's
// b_transpose, the output stored [y][x][b][o] unpooled, the input dilated by 2, the input stored
// [c][y][x][b] through the transposer with CONFIG_EX's a_transpose, images in blocks of DIM);
// the depthwise mode now and then; now and then an illegal configuration.
void Generation::opLoopConv() {
  const uint64_t dim = static_cast<uint64_t>(p_.dim), lanes = static_cast<uint64_t>(p_.lanes);
  const uint64_t kblock = dim * lanes; // input channels of a block (a scratchpad row)
  const uint64_t ib = static_cast<uint64_t>(p_.inputBytes), ab = static_cast<uint64_t>(p_.accBytes);
  LoopConvArgs l;
  l.os = p_.hasOs && (!p_.hasWs || chance(0.5));
  l.stride = static_cast<uint32_t>(chance(0.6) ? 1 : uniform(2, 3));
  l.kernelDim = static_cast<uint32_t>(uniform(1, 4));
  l.krows = static_cast<uint32_t>(uniform(1, l.kernelDim));
  l.kcols = static_cast<uint32_t>(uniform(1, l.kernelDim));
  l.kernelDilation = static_cast<uint32_t>(chance(0.75) ? uniform(0, 1) : uniform(2, 3));
  const uint64_t dil = std::max<uint32_t>(1, l.kernelDilation);
  auto extent = [&](uint64_t k) { return (k - 1) * dil + 1; }; // a dilated kernel's extent
  l.wrot180 = chance(0.2);
  // The depthwise mode: one lane, or the OS loop of a TensorDash config (its feeder reads A at
  // a column offset); not with the transposed layouts.
  l.depthwise = (lanes == 1 || (l.os && p_.tensordash && dim >= lanes)) && chance(0.2);
  const bool dw = l.depthwise;
  l.transWeight1203 = !dw && lanes == 1 && chance(0.2);
  l.transWeight0132 = !dw && !l.os && hasTransposer() && !l.transWeight1203 && chance(0.2);
  l.transInput3120 = !dw && !l.os && hasTransposer() && !l.transWeight0132 && chance(0.2);
  const bool ti = l.transInput3120;
  l.batches = static_cast<uint32_t>(chance(0.8) ? 1 : ti ? uniform(2, dim + 2) : 2);
  l.orows = static_cast<uint32_t>(uniform(1, 4));
  l.ocols = static_cast<uint32_t>(uniform(1, 2 * dim + 1));
  l.kchs = static_cast<uint32_t>(uniform(1, 2 * kblock + 2));
  l.pochs = static_cast<uint32_t>(uniform(1, 2 * dim + 2));
  if (dw) // output channel c is input channel c's
    l.kchs = l.pochs;
  // (depthwise: a tap's weights are a band of ceil(DIM / lanes) packed rows per output block)
  const uint64_t bandRows = (dim + lanes - 1) / lanes;
  const uint64_t irows = (l.orows - 1) * l.stride + extent(l.krows),
                 icols = (l.ocols - 1) * l.stride + extent(l.kcols);
  auto pad = [&](uint64_t room) {
    return chance(0.5) ? 0u : static_cast<uint32_t>(uniform(0, room));
  };
  l.upad = pad(std::min<uint64_t>(irows, 2));
  l.dpad = pad(std::min<uint64_t>(irows - l.upad, 2));
  l.lpad = pad(std::min<uint64_t>(icols, 3));
  l.rpad = pad(std::min<uint64_t>(icols - l.lpad, 3));
  const uint64_t kchB = (l.kchs + kblock - 1) / kblock, ochB = (l.pochs + dim - 1) / dim;
  const uint64_t aImage = l.batches * irows * icols,
                 bSpan = l.krows * l.kcols * (dw ? bandRows : kchB * dim);
  // (trans_input_3120: an input MVIN moves one block of images; A is per image block and
  // window row each channel's icols rows.)
  const uint64_t aBlock = kchB > 1 && !ti ? aImage + (chance(0.7) ? 0 : uniform(1, 5)) : 0;
  const uint64_t aRows =
      ti ? (l.batches + dim - 1) / dim * irows * l.kchs * icols : (kchB - 1) * aBlock + aImage;
  const uint64_t bBlock = ochB > 1 ? bSpan + (chance(0.7) ? 0 : uniform(1, 5)) : 0;
  const uint64_t half = static_cast<uint64_t>(p_.spRows / 2),
                 accHalf = static_cast<uint64_t>(p_.accRows / 2);
  const bool fits = aRows + (ochB - 1) * bBlock + bSpan <= half &&
                    ochB * l.batches * l.orows * l.ocols <= accHalf;
  if (!fits) { // shrink to one block each way, one image, one row: always fits
    l.kchs = static_cast<uint32_t>(std::min<uint64_t>(l.kchs, kblock));
    l.pochs = static_cast<uint32_t>(std::min<uint64_t>(l.pochs, dim));
    if (dw)
      l.kchs = l.pochs;
    l.batches = 1, l.orows = 1;
    l.ocols = static_cast<uint32_t>(std::min<uint64_t>(l.ocols, dim));
    l.upad = l.dpad = 0;
    const uint64_t cols = (l.ocols - 1) * l.stride + extent(l.kcols);
    l.lpad = std::min<uint32_t>(l.lpad, static_cast<uint32_t>(cols));
    l.rpad = std::min<uint32_t>(l.rpad, static_cast<uint32_t>(cols - l.lpad));
  }
  const uint64_t rrows = (l.orows - 1) * l.stride + extent(l.krows) - l.upad - l.dpad;
  const uint64_t rcols = (l.ocols - 1) * l.stride + extent(l.kcols) - l.lpad - l.rpad;
  // input_dilated: the window's real part is the image dilated by 2, (n + 1) / 2 pixels of it.
  l.inputDilated = chance(0.15);
  const uint64_t imageRows = l.inputDilated ? (rrows + 1) / 2 : rrows;
  const uint64_t imageCols = l.inputDilated ? (rcols + 1) / 2 : rcols;
  // DRAM geometry: images at least as large as the tile's real window.
  l.inRowDim = static_cast<uint32_t>(std::max<uint64_t>(imageRows, 1) + uniform(0, 1));
  l.inColDim = static_cast<uint32_t>(std::max<uint64_t>(imageCols, 1) + uniform(0, 2));
  l.inChannels = l.kchs + static_cast<uint32_t>(uniform(0, 2));
  l.inStride = l.kchs + static_cast<uint32_t>(chance(0.5) ? 0 : uniform(1, 3));
  // Weight rows are lane-packed: pochs x lanes elements (docs/isa.md, "Vector PEs"); stored
  // [kr][kc][o][i] (trans_weight_0132) a row holds a tile's kchs input channels, and a tap
  // out_channels rows.
  l.weightStride = static_cast<uint32_t>(l.transWeight0132 ? l.kchs : l.pochs * lanes) +
                   static_cast<uint32_t>(chance(0.5) ? 0 : uniform(1, 3));
  l.outChannels = l.pochs + static_cast<uint32_t>(uniform(0, 2));
  l.outRowDim = l.orows + static_cast<uint32_t>(uniform(0, 1));
  l.outColDim = l.ocols + static_cast<uint32_t>(uniform(0, 1));
  l.outStride = l.pochs + static_cast<uint32_t>(chance(0.5) ? 0 : uniform(1, 2));
  const bool pool = chance(0.2) && l.ocols <= 255 && l.orows <= 255;
  l.noPool = !pool;
  l.transOutput1203 = !pool && !dw && chance(0.2);
  l.batchSize = l.batches + static_cast<uint32_t>(uniform(0, 1)); // the tensor's images
  l.act = chance(0.8) ? 0 : 1;
  auto source = [&](uint64_t span) -> uint64_t {
    if (span + 4 > layout_.input.size)
      return 0;
    return layout_.input.base + uniform(0, layout_.input.size - span);
  };
  const uint64_t inSpan = ti ? ((l.kchs * l.inRowDim) * l.inColDim * l.batchSize + l.batches) * ib
                             : ((l.batches * l.inRowDim) * l.inColDim * l.inStride + l.kchs) * ib;
  const uint64_t tapRows = dw ? bandRows : (l.inChannels + lanes - 1) / lanes;
  // trans_weight_1203: a tap's input channels kernel_dim^2 rows apart (the mvin's stride).
  const uint64_t tapPitch = l.transWeight1203 ? l.kernelDim * l.kernelDim : 1;
  const uint64_t wSpan =
      l.transWeight0132
          ? ((l.kernelDim * l.kernelDim * l.outChannels) * l.weightStride + l.kchs) * ib
          : ((l.kernelDim * l.kernelDim * tapRows) * l.weightStride + l.pochs * lanes) * ib;
  l.input = source(inSpan);
  l.weights = source(wSpan);
  l.noBias = chance(0.2);
  l.bias = chance(0.3) ? 0 : source(l.pochs * ab);
  // Operands in a named half, and now and then already there (DRAM address 0: no moves; the
  // computes read what that half holds).
  if (chance(0.25)) {
    l.aSpadId = uniformInt(1, 2);
    if (chance(0.5))
      l.input = 0;
  }
  if (chance(0.25)) {
    l.bSpadId = uniformInt(1, 2);
    if (chance(0.5))
      l.weights = 0;
  }
  // The output: row by row (or the pooled image), or none now and then.
  uint32_t porows = 0, pocols = 0, pSize = 0, pStride = 0, pPad = 0;
  if (pool) {
    pSize = static_cast<uint32_t>(uniform(1, 3)), pStride = static_cast<uint32_t>(uniform(1, 3));
    pPad = static_cast<uint32_t>(uniform(0, pSize - 1));
    if (pSize > std::min(l.orows, l.ocols) + 2 * pPad)
      pSize = 1, pPad = 0;
    porows = (l.orows + 2 * pPad - pSize) / pStride + 1;
    pocols = (l.ocols + 2 * pPad - pSize) / pStride + 1;
    l.poolOutRowDim = porows, l.poolOutColDim = pocols;
  }
  const uint64_t outImages = l.transOutput1203 ? l.batchSize : l.batches;
  const uint64_t outSpan =
      (pool ? (l.batches * porows * pocols) : (outImages * l.outRowDim * l.outColDim)) *
      l.outStride * ib;
  uint64_t out = 0;
  if (chance(0.85) && !allocOutput(outSpan, 16, out))
    out = 0;
  l.output = out;

  // Gemmini's tiled_conv set-up: the loop's dataflow with the conv stride between A rows, the
  // channels' DRAM strides and block strides, CONFIG_ST with the output stride, activation and
  // pooling.
  ConfigExArgs ex = randomConfigEx(l.os ? hw::kDataflowOS : hw::kDataflowWS);
  ex.aStride = l.stride, ex.cStride = 1;
  ex.bTranspose = l.transWeight0132; // the PRELOADs read the stored [o][i] blocks transposed
  ex.aTranspose = ti;                // the computes read the stored [c][b] blocks transposed
  int expected = 0;
  if (hasTransposer() && !l.os && chance(0.03) && options_.illegalFraction > 0) {
    if (ti) // CONFIG_EX's transposes do not match the loop's (one at most: WS)
      ex.aTranspose = false;
    else
      ex.bTranspose = !ex.bTranspose;
    expected = isaFields().err.unsupported;
  }
  emitConfigEx(ex, "conv loop: config_ex");
  emitConfigLd({0, false, 1, static_cast<uint32_t>(aBlock), floatBits(1.0f),
                (ti ? l.batchSize : l.inStride) * ib, false},
               "conv loop: config_ld input");
  emitConfigLd({1, false, 1, static_cast<uint32_t>(bBlock), floatBits(1.0f),
                l.weightStride * ib * tapPitch, false},
               "conv loop: config_ld weights");
  emitConfigLd({2, false, 1, 0, floatBits(1.0f), 0, false}, "conv loop: config_ld bias");
  // trans_output_1203: an output row's pixels batch_size pixels apart.
  const uint32_t pixelPitch = l.transOutput1203 ? l.batchSize : 1;
  ConfigStArgs st = plainConfigSt(static_cast<uint32_t>(l.outStride * ib * pixelPitch));
  st.stride = static_cast<uint32_t>(l.outStride * ib * pixelPitch);
  st.activation = l.act;
  if (pool) {
    st.poolStride = pStride, st.poolSize = pSize, st.upad = st.lpad = pPad;
    st.porows = porows, st.pocols = pocols, st.orows = l.orows, st.ocols = l.ocols;
    st.poolOutDim = pocols;
  }
  emitConfigSt(st, "conv loop: config_st");
  if (expected == 0 && chance(0.12) && options_.illegalFraction > 0) {
    switch (uniformInt(0, 6)) {
    case 0:
      l.extraRs1 =
          hw::isa::command("LOOP_CONV_WS").rs1Field(ti ? "dw" : "trans_input_3120").place(1);
      expected = isaFields().err.unsupported;
      break;
    case 1:
      l.extraRs2 = hw::isa::command("LOOP_CONV_WS").rs2Field("downsample").place(1);
      expected = isaFields().err.unsupported;
      break;
    case 2:
      l.kchs = 0, expected = isaFields().err.badSize;
      break;
    case 3:
      l.upad = static_cast<uint32_t>(irows + 1), expected = isaFields().err.badSize;
      break;
    case 4: // the other loop than the configured dataflow's
      if (!p_.hasWs || !p_.hasOs)
        break;
      l.os = !l.os, expected = isaFields().err.unsupported;
      break;
    case 5: // no third half
      l.bSpadId = 3, expected = isaFields().err.localRange;
      break;
    case 6: // a compressed operand (Boveda) on the plain channels configured above
      (chance(0.5)   ? l.weightsCompressed
       : chance(0.5) ? l.inputCompressed
                     : l.outputCompressed) = true;
      expected = isaFields().err.unsupported;
      break;
    default:
      l.orows = static_cast<uint32_t>(accHalf + 1), expected = isaFields().err.localRange;
      break;
    }
  }
  const Program cmds = loopConv(l);
  for (size_t i = 0; i < cmds.size(); ++i)
    emit(cmds[i],
         i + 1 < cmds.size() ? "conv loop: config"
         : l.os              ? "loop_conv_os"
                             : "loop_conv_ws",
         i + 1 < cmds.size() ? 0 : expected);
  if (expected == 0)
    arrayValid_ = true;
}

} // namespace by::fuzzer
