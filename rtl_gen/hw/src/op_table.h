// The operation table of a controller (load, store, execute, Boveda loader): the operations the
// reservation station handed over, one entry each, until all their work is done. One helper so
// that the controllers take, count and complete operations the same way.
//
// Signals (the controller's next-state logic updates the _d values it owns):
//   opt_valid_q[OpSlots]   the entry holds an operation          (alloc() / release())
//   opt_id_q[i]            its reservation-station id           (alloc())
//   opt_issued_q[OpSlots]  all its work has been issued          (the controller)
//   opt_pending_q[i]       pieces issued and not yet finished    (the controller)
//   opt_free, opt_free_idx the lowest free entry
//   opt_fin, opt_fin_idx   the highest entry whose operation is complete: issued, nothing
//                          pending and the controller's extra condition; released that
//                          cycle (and reported on done_valid_o / done_id_o unless the
//                          controller reports its operations itself)
#pragma once

#include "hwspec/accel_params.h"
#include "state_regs.h"
#include "vlog/ir.h"

#include <string>

namespace by::hw::optable {

inline constexpr int kSlots = 4;

/// The module parameters every controller shares: IdBits and PayloadWidth (the table's ports),
/// then the memories' widths (SpRowBits, AccRowBits, Dim, SpElems, ElemWidth, AccWidth).
void params(vlog::Module& m, const AccelParams& p);

/// The port group of operations from the reservation station and their completions
/// (op_valid_i, op_ready_o, op_id_i, op_payload_i, done_valid_o, done_id_o), sized by the
/// module parameters IdBits and PayloadWidth.
void ports(vlog::Module& m);

/// The localparams OpSlots (`slots`, a power of two) and OpBits.
void localParams(vlog::Body& b, int slots = kSlots);

/// Adds the table's registers to `regs`: ids of `idWidth` bits, pending counts of
/// `pendingWidth` bits (width expressions).
void registers(StateRegs& regs, const std::string& idWidth, const std::string& pendingWidth);

/// The free-entry and completion searches, and (with `reportDone`) done_valid_o / done_id_o.
/// `doneAlso`: a further condition on entry i for its operation to be complete (e.g.
/// "!opt_open_q[i]"). A controller that tells the reservation station earlier (the store
/// controller, once its rows are read) drives done_* itself.
void searches(vlog::Body& b, const std::string& doneAlso = "", bool reportDone = true);

/// Next state: entry opt_free_idx takes operation `id` (valid, not issued).
void alloc(vlog::Stmts& n, const std::string& id);
/// Next state: the completed entry (opt_fin_idx) is released when opt_fin.
void release(vlog::Stmts& n);

} // namespace by::hw::optable
