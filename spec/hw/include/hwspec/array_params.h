// The array's shape and port widths, derived once from the config. Shared by the
// generators, the golden mesh model and the testbenches so that they agree on bit layouts.
#pragma once

#include "config/config.h"
#include "tensordash_spec/params.h"

#include <algorithm>
#include <string>

namespace by::hw {

struct ArrayParams {
  std::string configName;
  int meshRows = 0, meshCols = 0, tileRows = 0, tileCols = 0;
  int dim = 0, lanes = 1;
  int inputWidth = 8, accWidth = 32, outputWidth = 20;
  int shiftWidth = 5; // bits of the OS output shift amount
  bool hasWs = true, hasOs = true;
  // TensorDash (sparsity.tensordash.enabled, docs/tensordash.md): an OS operand b arrives as
  // a window of tdDepth steps of `lanes` elements, and every PE row's a carries, above its
  // `lanes` elements, one select per lane (tdSelBits each: the pattern index, or
  // tdIdleSelect for an idle lane) that picks the lane's b from that window.
  bool tensordash = false;
  int tdLookahead = 0, tdRowsPerScheduler = 1;
  int tdDepth = 1;
  int tdCandidates = 1;
  int tdSelBits = 0;
  int tdIdleSelect() const { return (1 << tdSelBits) - 1; }
  int selWidth() const { return tensordash ? lanes * tdSelBits : 0; }

  /// a per PE row: `lanes` elements, then the lanes' TensorDash selects (if any).
  int aWidth() const { return lanes * inputWidth + selWidth(); }
  /// b chain per PE column: WS partial sums (outputWidth) and/or OS operands (lanes*inputWidth,
  /// or the TensorDash window of tdDepth such steps).
  int bWidth() const;
  /// Preload chain per PE column: WS weights (lanes*inputWidth) and/or OS results (outputWidth).
  int dWidth() const;
  /// Each of the two stationary registers: WS weights and/or OS accumulators (accWidth).
  int regWidth() const;
  /// Cycles from an input beat to its (de-skewed) output beat: the registers between tiles, or
  /// the one output stage of a mesh of one tile (by_mesh's OutStage).
  int latency() const { return std::max(1, (meshRows - 1) + (meshCols - 1)); }
  bool both() const { return hasWs && hasOs; }
};

ArrayParams arrayParams(const config::Config& config);

/// The TensorDash parameters of an array with tensordash set (the model's and the RTL's).
tensordash::TensorDashParams tensorDashParams(const ArrayParams& p);

/// Gemmini's encoding of the run-time dataflow bit (CONFIG_EX, PE control).
constexpr int kDataflowOS = 0;
constexpr int kDataflowWS = 1;

} // namespace by::hw
