// COUNTER_OP on the counter file (docs/isa.md "FLUSH, COUNTER_OP"), and the external byte
// events that feed it.
#pragma once

#include "funcmodel/state.h"

#include <cstdint>

namespace by::funcmodel {

/// Applies one COUNTER_OP and returns the selected counter as it was before. Sets
/// `deterministic` to whether that value is independent of timing.
uint64_t counterOp(CounterState& s, uint64_t rs1, bool& deterministic);

/// The external value events this model produces.
enum class ByteEvent { DmaRead, DmaWrite };

/// Adds `bytes` to every counter configured with the external event `e`.
void countBytes(CounterState& s, ByteEvent e, uint64_t bytes);

} // namespace by::funcmodel
