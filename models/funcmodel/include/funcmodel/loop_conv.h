// LOOP_CONV_WS and LOOP_CONV_OS (docs/isa.md, "LOOP_CONV_WS", "LOOP_CONV_OS"): the tile
// geometry a configured loop describes, its checks, and the command sequence it unrolls into,
// in the order the hardware unroller (rtl_gen/hw/src/loop_conv.cpp) issues it. The functional
// model executes that sequence command by command. `os` selects LOOP_CONV_OS: the same loads,
// layout and stores, the computes in the output-stationary order.
#pragma once

#include "funcmodel/params.h"
#include "funcmodel/program.h"
#include "funcmodel/state.h"

#include <cstdint>
#include <vector>

namespace by::funcmodel {

/// The fields of the LOOP_CONV_WS_CONFIG_* words Brickyard uses, and what follows from them.
struct LoopConvGeom {
  uint64_t inRowDim = 0, inColDim = 0, inChannels = 0, outRowDim = 0, outColDim = 0;
  uint64_t poolOutRowDim = 0, poolOutColDim = 0, stride = 0, kernelDim = 0, kernelDilation = 0;
  uint64_t batchSize = 0, outChannels = 0, batches = 0, pochs = 0, krows = 0, kcols = 0, kchs = 0;
  uint64_t lpad = 0, rpad = 0, upad = 0, dpad = 0, orows = 0, ocols = 0;
  uint64_t inStride = 0, weightStride = 0, outStride = 0;
  uint64_t weights = 0, output = 0, bias = 0, input = 0;
  // Derived: the kernel dilation (at least 1), the tile's input window (padding included),
  // channel blocks (input: DIM x lanes channels, a scratchpad row; output: DIM).
  uint64_t dilation = 1, irows = 0, icols = 0, kchBlocks = 0, ochBlocks = 0;
  // trans_input_3120: the input is [channel][row][col][image]; A's rows are images, in blocks
  // of DIM (batchBlocks), each window row's channels one after another (not channel blocks).
  bool transInput = false;
  uint64_t batchBlocks = 0;
  // depthwise: output-channel block ob computes with its own DIM input channels; B holds per tap
  // and output-channel block one band of ceil(DIM / lanes) packed rows (bBlockRows), else
  // kchBlocks bands of DIM rows.
  bool depthwise = false;
  uint64_t bBlockRows = 0;
  uint64_t aImages() const { return transInput ? batchBlocks : batches; }
  uint64_t aGroups() const { return transInput ? kchs : kchBlocks; }

  static LoopConvGeom from(const LoopConvState& s);
};

/// The error code that rejects LOOP_CONV_WS (or, with `os`, LOOP_CONV_OS) (rs1, rs2) in this
/// state (0: legal): UNSUPPORTED (Gemmini's dw, downsampling, trans_weight_1203 with vector PEs,
/// trans_output_1203 with pooling, CONFIG_EX's transposes other than a_transpose =
/// trans_input_3120 and b_transpose = trans_weight_0132, trans_input_3120 with trans_weight_0132,
/// LOOP_CONV_OS or vector PEs, an activation other than none/ReLU, a configured dataflow other
/// than the loop's), BAD_SIZE (a zero bound or stride, paddings wider than the window,
/// trans_output_1203 or trans_input_3120 with a zero batch_size), LOCAL_RANGE (the input, weights
/// or output do not fit their halves with the mvin channels' block strides), DMA_ERROR (an address
/// of 2^32 or more).
int loopConvCheck(const ModelParams& p, const LoopConvState& s, const ArchState& arch, bool os,
                  uint64_t rs1, uint64_t rs2);

/// The block strides the loop's moves use instead of the MVIN channels' (docs/isa.md, "Local
/// layout"): an input MVIN's channel blocks are icols rows apart, a weight MVIN2's output-channel
/// blocks kch_blocks x DIM rows apart (trans_weight_0132: its input-channel blocks, DIM rows
/// apart), so that every move writes one contiguous range; an
/// unpooled output MVOUT's output-channel blocks ocols rows apart (C's rows of one output row are
/// its output-channel blocks, one after another), so that one MVOUT writes whole DRAM rows.
struct LoopConvBlockStrides {
  uint32_t input = 0, weights = 0, output = 0;
};
LoopConvBlockStrides loopConvBlockStrides(const ModelParams& p, const LoopConvState& s,
                                          uint64_t rs1);

/// The commands a legal LOOP_CONV_WS (LOOP_CONV_OS with `os`) (rs1, rs2) unrolls into with `s`
/// as configured (its MVIN and MVIN2 with loopConvBlockStrides). A trans_input_3120 loop sets
/// CONFIG_EX's strides for its computes and restores `ex`'s after them.
std::vector<Instruction> loopConvUnroll(const ModelParams& p, const LoopConvState& s,
                                        const ExecConfig& ex, bool os, uint64_t rs1, uint64_t rs2);

} // namespace by::funcmodel
