// The facts of a configuration that the driver's kernels size their tiles by: the values of
// the generated brickyard_params.h (config::derive) and the pooling field limits of the ISA
// table, read from the same sources as the headers.
#pragma once

#include "compiler/graph.h"
#include "config/config.h"

#include <cstdint>

namespace by::compiler {

struct HwFacts {
  int dim = 0, lanes = 1, kb = 0; // kb: reduction elements per pass (DIM x lanes)
  int spRows = 0, accRows = 0;    // rows of the scratchpad / accumulator
  int spHalf = 0, accHalf = 0;    // tiles double-buffer over the halves
  int maxBlockLen = 0;
  bool ws = false, os = false, td = false, boveda = false;
  bool tdScheduleB = false; // CONFIG_EX td_side = 1 is built (sparsity.tensordash.schedule_b)
  // LOOP_CONV_WS (loops.conv): by_conv runs as hardware loops and sizes their tiles itself (by
  // DRAM bytes per MAC, docs/driver.md); the command path's tiles would only constrain it.
  // loopConv: one-lane WS loops (the command path's alternative); loopConvOs: LOOP_CONV_OS, which
  // the driver takes where the spatial output is as wide as the accumulator (its sums are then
  // exact whatever the tiling); loopLanes: vector PEs with a convolution loop, where the loops
  // are the only convolution path (lane-packed weights).
  bool loopConv = false, loopConvOs = false, loopLanes = false;
  bool anyConvLoop = false; // loops.conv: by_conv may fold thin inputs (by_conv_folds)
  int inputWidth = 8, spatialWidth = 20;
  int poolSmallMax = 0, poolDimMax = 0; // CONFIG_ST pool_size/stride/pad and dims fields
  // For the compiler's time estimates: DRAM bytes per cycle, and host cycles per command the
  // driver issues (measured instruction counts: a data move with its address arithmetic
  // about 30 instructions, a PRELOAD/COMPUTE pair of the tile loop about 10) at the host CPI.
  double dramBytesPerCycle = 16;
  double moveCycles = 30, pairCycles = 10;
  bool poolFits(int size, int stride, int pad, int convCols, int poolCols) const {
    return size <= poolSmallMax && stride <= poolSmallMax && pad <= poolSmallMax &&
           convCols <= poolDimMax && poolCols <= poolDimMax;
  }
};

HwFacts hwFacts(const config::Config& config);

/// by_conv_workspace_bytes() of a dense convolution (driver/src/conv.c): the weights by_conv
/// packs (vector PEs: unless the caller packed them per tap and the loops do not fold the kernel
/// columns into the channels) and a folded convolution's horizontally padded input.
int64_t denseConvWorkspace(const HwFacts& hw, int64_t batch, int64_t rows, int64_t cols, int cin,
                           const Window& w, int cout, bool weightsPacked);

/// by_conv_workspace_bytes() of a depthwise convolution: one DIM x DIM diagonal block per
/// channel block and tap, lane-packed with vector PEs (ceil(DIM / lanes) rows of DIM x lanes).
int64_t depthwiseWorkspace(const HwFacts& hw, int channels, int taps);

} // namespace by::compiler
