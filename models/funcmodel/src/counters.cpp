#include "counters.h"

#include "funcmodel/isa_fields.h"

#include <stdexcept>
#include <string>

namespace by::funcmodel {

namespace {

int externalEventId(const std::string& name) {
  for (const hw::isa::CounterEvent& e : hw::isa::counterEvents())
    if (e.external && e.name == name)
      return e.id;
  throw std::logic_error("ISA: no external counter event " + name);
}

/// Whether a counter with this configuration holds a value this model reproduces exactly:
/// DISABLE and ids the table does not define count nothing anywhere, the DMA byte counters
/// are deterministic, and everything else (cycle events, reservation-station occupancy)
/// depends on timing that this model does not have.
bool deterministicEvent(int event, bool external) {
  if (external &&
      (event == externalEventId("RDMA_BYTES_REC") || event == externalEventId("WDMA_BYTES_SENT")))
    return true;
  if (!external && event == 0)
    return true;
  for (const hw::isa::CounterEvent& e : hw::isa::counterEvents())
    if (e.external == external && e.id == event)
      return false;
  return true;
}

} // namespace

uint64_t counterOp(CounterState& s, uint64_t rs1, bool& deterministic) {
  const auto& f = isaFields().ctr;
  const int index = static_cast<int>(f.index.extract(rs1));
  // The response carries the counter as the command finds it (Gemmini's counter file reads it
  // in the cycle that decides the register updates).
  uint64_t value;
  if (s.snapshotMode) {
    deterministic = s.snapshotDeterministic[index];
    value = s.snapshot[index];
  } else {
    deterministic = deterministicEvent(s.event[index], s.external[index]);
    value = s.value[index];
  }
  // Like Gemmini's counter file, `reset` is a synchronous reset of the counters and the
  // snapshot that dominates the snapshot bits of the same command; event configurations
  // survive it.
  if (f.reset.extract(rs1)) {
    s.value.fill(0);
    s.snapshot.fill(0);
    s.snapshotDeterministic.fill(false);
    s.snapshotMode = false;
  } else if (f.snapshotReset.extract(rs1)) {
    s.snapshotMode = false;
  } else if (f.snapshot.extract(rs1)) {
    s.snapshot = s.value;
    for (int i = 0; i < kCounters; ++i)
      s.snapshotDeterministic[i] = deterministicEvent(s.event[i], s.external[i]);
    s.snapshotMode = true;
  }
  if (f.configure.extract(rs1)) {
    s.event[index] = static_cast<int>(f.event.extract(rs1));
    s.external[index] = f.external.extract(rs1) != 0;
    s.value[index] = 0;
  }
  return value;
}

void countBytes(CounterState& s, ByteEvent e, uint64_t bytes) {
  static const int read = externalEventId("RDMA_BYTES_REC");
  static const int written = externalEventId("WDMA_BYTES_SENT");
  const int id = e == ByteEvent::DmaRead ? read : written;
  for (int i = 0; i < kCounters; ++i)
    if (s.external[i] && s.event[i] == id)
      s.value[i] = static_cast<uint32_t>(s.value[i] + bytes); // 32-bit counters wrap
}

} // namespace by::funcmodel
