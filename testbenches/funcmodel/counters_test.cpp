// COUNTER_OP: configure (clears), reset (keeps configurations), snapshot / snapshot_reset,
// rd as the command finds the counter, the deterministic external byte counters, and cycle
// events that read 0 in this model.
#include "fm_util.h"
#include "hwspec/isa.h"

#include <gtest/gtest.h>

using namespace by;
using namespace by::funcmodel;
using by::test::kDramBase;
using by::test::Machine;

namespace {

int eventId(const char* name, bool external) {
  for (const hw::isa::CounterEvent& e : hw::isa::counterEvents())
    if (e.name == name && e.external == external)
      return e.id;
  ADD_FAILURE() << "no event " << name;
  return 0;
}

Instruction configure(int index, const char* event, bool external) {
  CounterOpArgs a;
  a.configure = true;
  a.index = index;
  a.event = eventId(event, external);
  a.external = external;
  return counterOp(a);
}

Instruction read(int index) {
  CounterOpArgs a;
  a.index = index;
  return counterOp(a);
}

uint64_t value(Machine& m, int index) {
  const ExecResult r = m.ok(read(index));
  EXPECT_TRUE(r.hasRd);
  return r.rd;
}

} // namespace

TEST(FuncModelCounters, ExternalByteCountersAndCycleEvents) {
  Machine m;
  EXPECT_EQ(m.ok(configure(0, "RDMA_BYTES_REC", true)).rd, 0u);
  m.ok(configure(1, "WDMA_BYTES_SENT", true));
  m.ok(configure(2, "MAIN_LD_CYCLES", false));
  m.ok(configure(3, "ROB_LD_COUNT", true));
  ConfigLdArgs l;
  l.stride = 4;
  m.ok(configLd(l));
  m.ok(mvin(0, kDramBase, spAddr(0), 4, 4)); // 16 bytes
  m.ok(mvin(0, 0, spAddr(0), 4, 4));         // zero-fill: no DRAM read
  ConfigStArgs s;
  s.stride = 16;
  m.ok(configSt(s));
  m.ok(mvout(kDramBase + 0x100, accAddr(0, false, true), 2, 4)); // 2 rows of 4 int32
  EXPECT_EQ(value(m, 0), 16u);
  EXPECT_EQ(value(m, 1), 32u);
  ExecResult r = m.ok(read(2));
  EXPECT_EQ(r.rd, 0u);
  EXPECT_FALSE(r.rdDeterministic); // a cycle count: timing-dependent on hardware
  EXPECT_FALSE(m.ok(read(3)).rdDeterministic);
  EXPECT_TRUE(m.ok(read(0)).rdDeterministic);
  EXPECT_TRUE(m.ok(read(7)).rdDeterministic); // DISABLE
  // Configure clears (its rd is the value before); the new event counts from there.
  EXPECT_EQ(m.ok(configure(0, "WDMA_BYTES_SENT", true)).rd, 16u);
  EXPECT_EQ(value(m, 0), 0u);
  m.ok(mvout(kDramBase + 0x200, accAddr(0, false, true), 1, 4));
  EXPECT_EQ(value(m, 0), 16u);
  EXPECT_EQ(value(m, 1), 48u);
  EXPECT_EQ(m.model.dramBytesRead(), 16u);
  EXPECT_EQ(m.model.dramBytesWritten(), 48u);
}

TEST(FuncModelCounters, ResetSnapshotAndSnapshotReset) {
  Machine m;
  m.ok(configure(5, "RDMA_BYTES_REC", true));
  ConfigLdArgs l;
  l.stride = 4;
  m.ok(configLd(l));
  m.ok(mvin(0, kDramBase, spAddr(0), 2, 4)); // 8 bytes
  CounterOpArgs snap;
  snap.snapshot = true;
  snap.index = 5;
  EXPECT_EQ(m.ok(counterOp(snap)).rd, 8u);
  m.ok(mvin(0, kDramBase, spAddr(0), 1, 4)); // counting goes on behind the snapshot
  EXPECT_EQ(value(m, 5), 8u);
  CounterOpArgs leave;
  leave.snapshotReset = true;
  leave.index = 5;
  EXPECT_EQ(m.ok(counterOp(leave)).rd, 8u); // rd: the counter as the command finds it
  EXPECT_EQ(value(m, 5), 12u);
  // Reset clears the counters but keeps what they count.
  m.ok(counterOp(snap));
  CounterOpArgs reset;
  reset.reset = true;
  reset.snapshot = true; // reset dominates the snapshot bits of the same command
  reset.index = 5;
  EXPECT_EQ(m.ok(counterOp(reset)).rd, 12u); // the snapshot taken just before
  EXPECT_FALSE(m.model.state().counters.snapshotMode);
  EXPECT_EQ(value(m, 5), 0u);
  m.ok(mvin(0, kDramBase, spAddr(0), 1, 2));
  EXPECT_EQ(value(m, 5), 2u);
  // Events the table does not define are accepted and count nothing.
  CounterOpArgs odd;
  odd.configure = true;
  odd.index = 6;
  odd.event = 63;
  const ExecResult r = m.ok(counterOp(odd));
  EXPECT_EQ(r.rd, 0u);
  EXPECT_TRUE(r.rdDeterministic);
}

// A stride-0 mvin (a broadcast) reads its one DRAM row once, whatever its rows.
TEST(FuncModelCounters, StrideZeroReadsItsRowOnce) {
  Machine m;
  m.ok(configure(0, "RDMA_BYTES_REC", true));
  m.ok(mvin(0, kDramBase, spAddr(0), 900, 4)); // channel 0 stride 0 after reset
  EXPECT_EQ(value(m, 0), 4u);
}

// Rows that overlap in DRAM (a folded convolution's windows, stride < row bytes) go several to
// a read: the largest power of two whose span fits max_bytes (64 on tiny), so the bytes they
// share are read once per read. 40 rows of 4 bytes, 1 byte apart: 32 rows span 35 bytes (64
// rows would span 67), then the last 8 rows 11 bytes.
TEST(FuncModelCounters, OverlappingRowsShareReads) {
  Machine m;
  std::vector<int64_t> bytes(43);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<int64_t>(i) - 20;
  m.put(kDramBase, 1, bytes);
  m.ok(configure(0, "RDMA_BYTES_REC", true));
  ConfigLdArgs l;
  l.stride = 1;
  m.ok(configLd(l));
  m.ok(mvin(0, kDramBase, spAddr(0), 40, 4));
  EXPECT_EQ(value(m, 0), 35u + 11u);
  for (int r = 0; r < 40; ++r)
    for (int e = 0; e < 4; ++e)
      ASSERT_EQ(m.model.sp(r, e), bytes[static_cast<size_t>(r + e)]) << r << "," << e;
}
