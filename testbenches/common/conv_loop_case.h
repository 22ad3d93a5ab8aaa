// A convolution run as Gemmini-style LOOP_CONV_WS (or LOOP_CONV_OS) tiles (docs/isa.md,
// "LOOP_CONV_WS", "LOOP_CONV_OS"): the DRAM image (random NHWC input, HWIO weights, lane-packed
// per tap with vector PEs, int32 bias), the program (CONFIG_EX with the loop's dataflow and the
// conv stride as a_stride, the three mvin channels with the tiles' block strides, CONFIG_ST with
// the activation and pooling, one loop per tile) and the expected output from a direct CPU
// convolution written here from the ISA's formulas (independent of the model and the unroller):
// a WS pass sums DIM x lanes channels of one tap and wraps at the spatial output width, an OS
// loop sums its whole tile and saturates to it. Used by the functional model's test and the RTL
// system test.
#pragma once

#include "funcmodel/encode.h"
#include "funcmodel/params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::test {

struct ConvLoopCase {
  int batch = 1, inRows = 5, inCols = 5, inCh = 3, outCh = 3, kernel = 3, stride = 1, pad = 1;
  bool bias = true, relu = false;
  int poolSize = 0, poolStride = 0, poolPad = 0; // max-pooling on store (whole-image tiles)
  int tileRows = 0, tileOch = 0, tileKch = 0;    // tile sizes (0: the whole dimension)
  int valueBits = 4;   // random inputs and weights in [-2^(bits-1), 2^(bits-1))
  bool os = false;     // LOOP_CONV_OS (output-stationary) instead of LOOP_CONV_WS
  int zeroPercent = 0; // input values that are zero (TensorDash skips them), in percent
  int tdMode = 0;      // CONFIG_EX TensorDash fields: 0 A scheduled, 1 B scheduled, 2 off
  // Operands kept in the scratchpad between loops, as the driver keeps them (a_spad_id /
  // b_spad_id with DRAM address 0): 0 none, 1 a band's input over its out-channel tiles (needs
  // one input-channel tile), 2 the weights over the bands (needs one tile of all channels).
  int keep = 0;
  // Training forms in the loop (docs/isa.md, "Training convolutions in the loop"): the kernel
  // dilation, weights rotated by 180 degrees, stored [i][kr][kc][o] (one lane) or [kr][kc][o][i]
  // (the WS loop with the transposer), the output stored [y][x][b][o] (unpooled), the input stored
  // [c][y][x][b] (the WS loop with the transposer).
  // inputDilated: the input dilated by 2 (a zero between neighbouring pixels; one row tile).
  int dilation = 1;
  bool wrot180 = false, transWeight1203 = false, transWeight0132 = false, transOutput1203 = false;
  bool inputDilated = false, transInput3120 = false;
  // Boveda: the weights compressed by the codec as the loop reads them (DIM-row bands of each
  // tap, MAX_BLOCK_LEN output-channel blocks per block; docs/isa.md, "LOOP_CONV_WS"); the
  // out-channel tiles must then start on those groups.
  bool compressedWeights = false;
  // Boveda: the input and/or the output as compressed activation tensors, one block per image
  // row and channel group of MAX_BLOCK_LEN x DIM x lanes channels (docs/isa.md,
  // "LOOP_CONV_WS"); their channel tiles must start on whole groups, their rows be whole.
  bool compressedInput = false, compressedOutput = false;
  // The loops' depthwise mode (docs/isa.md, "Depthwise mode"): outCh = inCh, each output channel
  // its input channel's filter; the weights a band of diagonal stripes per tap; channel tiles of
  // tileOch (tileKch not used).
  bool depthwise = false;

  int kernelExtent() const { return (kernel - 1) * dilation + 1; }
  int dilatedRows() const { return inputDilated ? 2 * inRows - 1 : inRows; }
  int dilatedCols() const { return inputDilated ? 2 * inCols - 1 : inCols; }
  int outRows() const { return (dilatedRows() + 2 * pad - kernelExtent()) / stride + 1; }
  int outCols() const { return (dilatedCols() + 2 * pad - kernelExtent()) / stride + 1; }
  int poolRows() const;
  int poolCols() const;
  std::string describe() const;
};

struct ConvLoopProgram {
  funcmodel::Program program;
  std::vector<uint8_t> image; // DRAM from `base`
  uint64_t output = 0;        // DRAM address of the NHWC output
  std::vector<int64_t> want;  // the expected output elements, NHWC ([y][x][b][o]: transOutput1203)
  int loops = 0;
  // compressedOutput: the output's pointer table (block (b, y, g) at entry (b x rows + y) x
  // groups + g) and its stream (`output`), groups of groupCols channels.
  uint64_t outputTable = 0;
  int outputGroups = 0, groupCols = 0;
};

/// compressedOutput: "" if every output block in `dram` (from `base`) is the codec's stream of
/// the expected values, else what differs first.
std::string checkCompressedOutput(const funcmodel::ModelParams& p, const ConvLoopCase& c,
                                  const ConvLoopProgram& cp, const std::vector<uint8_t>& dram,
                                  uint64_t base);

/// Builds the case for a model with `p`, DRAM [base, base + size), random values from `seed`.
ConvLoopProgram buildConvLoop(const funcmodel::ModelParams& p, const ConvLoopCase& c, uint64_t base,
                              size_t size, uint64_t seed);

} // namespace by::test
