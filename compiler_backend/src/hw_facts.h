// The facts of a configuration the compiler plans with: the driver planner's by_hw_t
// (driver/include/brickyard/plan.h), filled from the config and the ISA table as the driver fills
// it from the generated headers (by_hw_get), so that the planner's rules give the compiler the
// plan the driver runs; and the constants of the compiler's own time estimates (tiling.h).
#pragma once

#include "brickyard/plan.h"
#include "compiler/graph.h"
#include "compiler/plan.h"
#include "config/config.h"

#include <cstdint>

namespace by::compiler {

struct HwFacts {
  by_hw_t planner{};              // what the planner's rules read
  int dim = 0, lanes = 1, kb = 0; // kb: reduction elements per pass (DIM x lanes)
  int maxBlockLen = 0;            // DIM-column blocks one mvin moves
  bool ws = false, os = false, td = false, boveda = false;
  bool tdScheduleB = false; // CONFIG_EX td_side = 1 is built (sparsity.tensordash.schedule_b)
  bool table = false;       // the mvout's function table (activations.table)
  // For the compiler's time estimates: DRAM bytes per cycle, and host cycles per command the
  // driver issues (measured instruction counts: a data move with its address arithmetic
  // about 30 instructions, a PRELOAD/COMPUTE pair of the tile loop about 10) at the host CPI.
  double dramBytesPerCycle = 16;
  double moveCycles = 30, pairCycles = 10;
};

HwFacts hwFacts(const config::Config& config);

/// The planner's shape of a convolution of `outCh` channels over `in` with window w and the
/// fused pool: no bias, no activation, the path, the dataflow and the tiles automatic.
by_conv_shape_t convShape(const HwFacts& hw, const Shape& in, const Window& w, int outCh,
                          bool depthwise, const FusedPool& pool);

/// "WS" or "OS", as plan.json and model.c name the planner's dataflow.
const char* dataflowName(const HwFacts& hw, int dataflow);

} // namespace by::compiler
