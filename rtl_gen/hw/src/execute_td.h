// The execute controller's TensorDash parts (configs with sparsity.tensordash.enabled): the
// pre-queue that hands OS computes to the operand feeder ahead of time, and the feeder and
// TensorDash array that replace the transposer and the mesh. See execute_td.cpp.
#pragma once

#include "hwspec/accel_params.h"
#include "packed_layout.h"
#include "vlog/ir.h"

namespace by::hw {

/// Drives in_valid, in_payload and in_id (the operation offered to the lookahead slot) and
/// op_ready_o from a two-entry pre-queue (registers pq_count, pass_open; storage pq_payload,
/// pq_id); every OS compute entering it becomes a feeder job (job_*). Uses accept (the
/// lookahead slot takes in_*).
void emitTdIntake(vlog::Body& b, const AccelParams& p, const PackedLayout& ex);

/// The feeder, the TensorDash array and the MAC counters of its beats. Drives td_go,
/// td_head_last, td_busy, td_short, res_valid, res_data and the counter outputs; uses the
/// beat decision (beat_go, is_compute, cur_ws, cur_td_off) and stage D (d_*_q, mesh_a/b/d).
void emitTdArray(vlog::Body& b, const AccelParams& p, const PackedLayout& ex);

/// The D transposer: a B-scheduled operation's array holds C transposed, so its initial
/// accumulators are D transposed. Reads the current flipping operation's D rows ahead (through
/// the spd / acc clients, dt_rd_*), and drives ev_tr, dt_ready_d (the controller's register)
/// and dt_col (column d_dt_col_q, the row of D^T a stream beat carries).
void emitTdDTransposer(vlog::Body& b, const AccelParams& p);

/// The C transposer: a B-scheduled accumulation drains columns of C (tag tr); they are
/// collected in one of two buffers and written out as rows. Drives wb_* (the row written this
/// cycle) and wo_hold_d, the controller's register of how long beats with a write wait while a
/// write-out could overlap them.
void emitTdTransposedDrain(vlog::Body& b, const AccelParams& p);

/// Bits of a count of operations one TensorDash beat completes (up to lookahead+1).
int tdDoneBits(const AccelParams& p);

/// Ports of the feeder's two wide scratchpad read clients (A tiles, B rows), sized by the
/// module parameters SpRowBits, SpWordRows, SpElems and ElemWidth.
void addTdReadPorts(vlog::Module& m);

} // namespace by::hw
