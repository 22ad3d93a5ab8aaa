// Builders of command words from typed arguments, through the ISA table's fields (the same
// table the model decodes with). Values are placed as given, masked to their field: the
// builders never check legality, so they also write the illegal commands tests need.
#pragma once

#include "funcmodel/program.h"

#include <cstdint>

namespace by::funcmodel {

/// Local addresses (docs/isa.md "Local addresses").
uint32_t spAddr(uint32_t row);
uint32_t accAddr(uint32_t row, bool accumulate = false, bool full = false);
uint32_t garbageAddr();

struct ConfigExArgs {
  int dataflow = 1;
  int activation = 0;
  bool setOnlyStrides = false;
  bool aTranspose = false;
  bool bTranspose = false;
  uint32_t aStride = 1;
  uint32_t accScaleBits = 0x3f800000u;
  uint32_t inShift = 0;
  uint32_t relu6Shift = 0;
  uint32_t cStride = 1;
  bool tdOff =
      false;      // TensorDash: dense beats (last, so that positional initialisers keep working)
  int tdSide = 0; // TensorDash: scheduled operand (0 A, 1 B)
};

struct ConfigLdArgs {
  int channel = 0; // state_id
  bool shrink = false;
  uint32_t pixelRepeats = 1;
  uint32_t blockStride = 0;
  uint32_t scaleBits = 0x3f800000u;
  uint64_t stride = 0;     // compressed: the stream base
  bool compressed = false; // Boveda
};

struct ConfigStArgs {
  int activation = 0;
  uint32_t poolStride = 0, poolSize = 0, upad = 0, lpad = 0, poolOutDim = 0;
  uint32_t porows = 0, pocols = 0, orows = 0, ocols = 0;
  uint32_t stride = 0; // compressed: the stream base
  uint32_t accScaleBits = 0x3f800000u;
  bool compressed = false; // Boveda
};

struct CounterOpArgs {
  bool reset = false;
  bool snapshotReset = false;
  bool snapshot = false;
  bool configure = false;
  int index = 0;
  int event = 0;
  bool external = false;
};

/// gemmini_loop_ws's arguments (docs/isa.md, "LOOP_WS"): bounds in DIM tiles, paddings in
/// elements, DRAM addresses, strides in elements, flags.
struct LoopWsArgs {
  uint32_t I = 1, J = 1, K = 1, padI = 0, padJ = 0, padK = 0;
  uint64_t A = 0, B = 0, D = 0, C = 0;
  uint64_t aStride = 0, bStride = 0, dStride = 0, cStride = 0;
  bool exAccumulate = false, fullC = false, lowD = false;
  int act = 0, aSpadId = 0, bSpadId = 0;
  bool aTranspose = false, bTranspose = false, isResadd = false;
  // Boveda: A / B / C are compressed matrices (strides then count pointer entries).
  bool aCompressed = false, bCompressed = false, cCompressed = false;
};

/// gemmini_loop_conv_ws's arguments Brickyard uses (docs/isa.md, "LOOP_CONV_WS"), Gemmini's
/// names; the refused training / dilation / spad-id features as raw rs1 / rs2 bits.
struct LoopConvArgs {
  uint32_t inRowDim = 1, inColDim = 1, inChannels = 1, outRowDim = 1, outColDim = 1;
  uint32_t poolOutRowDim = 1, poolOutColDim = 1, stride = 1, kernelDim = 1, kernelDilation = 1;
  uint32_t batches = 1, pochs = 1, krows = 1, kcols = 1, kchs = 1;
  uint32_t lpad = 0, rpad = 0, upad = 0, dpad = 0, orows = 1, ocols = 1;
  uint32_t inStride = 1, weightStride = 1, outStride = 1;
  uint64_t weights = 0, output = 0, bias = 0, input = 0;
  bool noBias = false, noPool = true;
  int act = 0;
  bool os = false;              // LOOP_CONV_OS instead of LOOP_CONV_WS
  int aSpadId = 0, bSpadId = 0; // 1, 2: the input / weights in that half (0: the loop's)
  // Training forms (docs/isa.md, "Training convolutions in the loop"): rotated weights, weights
  // stored [i][kr][kc][o] or [kr][kc][o][i] (tap pitch outChannels rows), output stored
  // [y][x][b][o] (its image pitch batchSize; 0: batches), input stored [c][y][x][b] (image
  // pitch batchSize; CONFIG_EX's a_transpose).
  bool wrot180 = false, transWeight1203 = false, transWeight0132 = false, transOutput1203 = false;
  bool transInput3120 = false;
  bool inputDilated = false; // the input dilated by 2 (a zero between neighbouring pixels)
  // Depthwise mode (kchs = pochs; the weights a band of diagonal stripes per tap; docs/isa.md,
  // "Depthwise mode").
  bool depthwise = false;
  // Boveda: the weights are a compressed matrix of DIM-row bands (weights names a pointer entry,
  // weightStride counts entries; docs/isa.md, "LOOP_CONV_WS", compressed weights).
  bool weightsCompressed = false;
  // ... the input / the output as compressed activation tensors (input / output name pointer
  // entries, inStride / outStride count them).
  bool inputCompressed = false, outputCompressed = false;
  uint32_t batchSize = 0, outChannels = 0;
  uint64_t extraRs1 = 0, extraRs2 = 0; // OR-ed into LOOP_CONV_WS's rs1 / rs2
};

/// An array operand: local address and size.
struct Operand {
  uint32_t addr = 0;
  uint32_t rows = 0;
  uint32_t cols = 0;
};

Instruction configEx(const ConfigExArgs& args);
/// The six commands gemmini_loop_ws issues: LOOP_WS_CONFIG_BOUNDS, _ADDRS_AB, _ADDRS_DC,
/// _STRIDES_AB, _STRIDES_DC, then LOOP_WS.
Program loopWs(const LoopWsArgs& args);
/// The seven commands gemmini_loop_conv_ws issues: LOOP_CONV_WS_CONFIG_1..6, LOOP_CONV_WS (or,
/// with `os`, LOOP_CONV_OS).
Program loopConv(const LoopConvArgs& args);
Instruction configLd(const ConfigLdArgs& args);
Instruction configSt(const ConfigStArgs& args);
/// CONFIG word with an explicit rs1[1:0] (for BAD_CONFIG_TYPE).
Instruction configRaw(int cmdType, uint64_t rs1Rest, uint64_t rs2);
/// MVIN (channel 0), MVIN2 (1) or MVIN3 (2).
Instruction mvin(int channel, uint64_t dramAddr, uint32_t local, uint32_t rows, uint32_t cols);
Instruction mvout(uint64_t dramAddr, uint32_t local, uint32_t rows, uint32_t cols);
/// Boveda on-chip form: decode the block whose `containers` containers start at scratchpad
/// local address `src` into rows x cols values at `dst` (docs/isa.md).
Instruction decompress(uint32_t src, uint32_t containers, uint32_t dst, uint32_t rows,
                       uint32_t cols);
/// PRELOAD: bd = WS weights / OS initial accumulators, c = output.
Instruction preload(const Operand& bd, const Operand& c);
/// COMPUTE_PRELOADED (preloaded = true) or COMPUTE_ACCUMULATED: a = A, bd = WS bias D or
/// OS B.
Instruction compute(bool preloaded, const Operand& a, const Operand& bd);
Instruction flush();
/// CONFIG_TABLE (activations.table): entries 8*chunk.. from `entries` when write, and enable.
Instruction configTable(uint32_t chunk, bool write, bool enable, uint64_t entries);
Instruction counterOp(const CounterOpArgs& args);

/// The bits of a float (for acc_scale / mvin scale fields).
uint32_t floatBits(float f);

} // namespace by::funcmodel
