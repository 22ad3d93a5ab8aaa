// The operation words passed from the decoder through the reservation station to the load,
// store and execute controllers, and the hazard ranges the reservation station tracks. Each
// layout is defined once here and used by both the packing and the unpacking side.
#pragma once

#include "hwspec/accel_params.h"
#include "packed_layout.h"

namespace by::hw {

/// MVIN / MVIN2 / MVIN3 with their channel's configuration applied.
PackedLayout loadOpLayout(const AccelParams& p);
/// MVOUT with the store configuration applied (mode: 0 rows, 1 max-pool, 2 strided 1-D).
PackedLayout storeOpLayout(const AccelParams& p);
/// A PRELOAD + COMPUTE pair with the execute configuration applied.
PackedLayout execOpLayout(const AccelParams& p);
/// Whether execute operations carry A's first reduction step (a_step): a depthwise conv loop's
/// computes on vector PEs, which the TensorDash feeder reads at a column offset.
bool hasAStep(const AccelParams& p);
/// Whether this config merges weight-stationary computes in the reservation station
/// (exec_merge.cpp): every config with the WS dataflow and no TensorDash (whose computes reach
/// the array through the OS operand feeder).
bool mergesComputes(const AccelParams& p);
/// Computes of DIM rows one station entry holds at most (a power of two).
inline constexpr int kMaxComputePieces = 8;
/// Bits of a piece index (0 .. kMaxComputePieces - 1).
inline constexpr int kPieceBits = 3;
static_assert(1 << kPieceBits == kMaxComputePieces);
/// An execute operation in the station where computes merge: execOpLayout, then the pieces
/// after the first and the last piece's rows.
PackedLayout mergedExecLayout(const AccelParams& p);
/// One local row range [start, end) in the scratchpad or the accumulator.
PackedLayout rangeLayout(const AccelParams& p);

/// Operation kinds in the reservation station.
constexpr int kKindLoad = 0;
constexpr int kKindStore = 1;
constexpr int kKindExec = 2;
constexpr int kRangesPerOp = 4; // 3 reads + 1 write
constexpr int kRangeWrite = 3;  // index of the write range

/// Width of the payload slot: the widest operation.
int opPayloadWidth(const AccelParams& p);

} // namespace by::hw
