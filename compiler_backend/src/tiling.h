// The compiler's estimates (docs/compiler.md, "Tiling"): DRAM traffic and time of a tiling, and
// the command path's convolution tiles with the least estimated time among those the driver's
// planner lets fit (by_plan_conv_tiles_fit, driver/include/brickyard/plan.h: tiles
// double-buffer over halves of the scratchpad and accumulator). The compiler passes them to the
// driver explicitly where it forces the command path; matmul tiles are the planner's own.
#pragma once

#include "compiler/graph.h"
#include "hw_facts.h"

#include <cstdint>

namespace by::compiler {

/// Estimated DRAM traffic of the planner's matmul: A and B as often as its tiles read them
/// (by_plan_matmul_reads: once per column / row of C tiles, a kept operand once), the repeating
/// bias's broadcast rows (`bias`: one row per D move) and C.
int64_t matmulDramBytes(const HwFacts& hw, const by_matmul_shape_t& s, const by_matmul_plan_t& p,
                        bool bias);

/// The DRAM traffic of the path the driver's planner gave a convolution: a loop's by operand
/// (by_plan_conv_loop_traffic; `weightLoads`: how often it reads the weights), a 1x1
/// convolution's LOOP_WS matmul by matmulDramBytes; 0 for the command path (whose tiles
/// chooseConvTiles estimates).
int64_t convPathDramBytes(const HwFacts& hw, const by_conv_shape_t& s, const by_conv_plan_t& p,
                          int64_t* weightLoads);

struct ConvTiles {
  int64_t rows = 0, tn = 0, tk = 0; // output (pooled) rows, out-channel blocks, K blocks
  int64_t bytes = 0;
  int64_t bands = 0; // bands of output rows (the weights are read once per band)
  int64_t moves = 0; // mvins and mvouts the driver issues
  int64_t pairs = 0; // PRELOAD/COMPUTE pairs
  double cycles = 0; // estimate: the largest of array, DRAM and host-issue time
};
/// by_conv's tiles with the least estimated time (array beats, DRAM bytes at the config's
/// bandwidth, and the host's command issue, whichever is largest), ties to fewer DRAM bytes;
/// rows = 0 when one row does not fit.
/// With compressed weights in blocks of `nGroup` out-channel blocks, tn is a multiple of it
/// or all of them.
ConvTiles chooseConvTiles(const HwFacts& hw, const Shape& in, const Window& w, int outCh,
                          bool depthwise, const FusedPool& pool, int64_t nGroup = 1);

/// Host cycles by_im2col spends issuing its copies (one mvin and mvout per run of pixels that
/// lie inside the image, and per run in the padding), for the kernel choice.
double im2colIssueCycles(const HwFacts& hw, const Shape& in, const Window& w);

} // namespace by::compiler
