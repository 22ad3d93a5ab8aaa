// AxiSlaveBridge (systemc_models/rtlmodel) on its own: a random AXI4 master (reads and writes
// of random lengths, W beats ahead of their AW, random RREADY/BREADY) against the bridge and a
// TLM memory with a fixed latency, under axi::Checker. Reads must return the memory's bytes,
// writes must land with their strobes, a burst outside the memory must be answered DECERR,
// and no read may finish before the memory's latency. The seed is printed (BY_SEED replays).
#include "axi/axi_checker.h"
#include "axi_slave_bridge.h"
#include "seed.h"

#include <deque>
#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace by::test {
namespace {

constexpr uint64_t kPeriodPs = 1000;
constexpr uint64_t kLatencyCycles = 7;
constexpr uint64_t kBase = 0x8000'0000;
constexpr uint64_t kSize = 1 << 16;
constexpr int kBeatBytes = 16;
constexpr int kMaxBurst = 8;

/// Bytes at kBase with a fixed latency per transaction; address error outside them.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket{"socket"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kSize);
  explicit Memory(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint64_t a = p.get_address(), n = p.get_data_length();
    if (a < kBase || a + n > kBase + kSize) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint8_t* mem = bytes.data() + (a - kBase);
    for (uint64_t i = 0; i < n; ++i) {
      const bool on = !p.get_byte_enable_ptr() || p.get_byte_enable_ptr()[i] == TLM_BYTE_ENABLED;
      if (p.is_read())
        p.get_data_ptr()[i] = mem[i];
      else if (on)
        mem[i] = p.get_data_ptr()[i];
    }
    delay += sc_core::sc_time::from_value(kLatencyCycles * kPeriodPs);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(const sc_core::sc_module_name& n) : sc_module(n) {}
};

struct Burst {
  bool write = false;
  uint32_t id = 0;
  uint64_t addr = 0;
  uint32_t beats = 0;
  uint64_t issued = 0;                // cycle of the address handshake
  std::vector<uint8_t> data, strobes; // writes: what the master sends
};

TEST(AxiBridge, RandomTrafficIsServedLegallyAndCorrectly) {
  const uint64_t seed = testSeed(7, "AXI bridge random traffic");
  axi::Rng rng(seed);
  // One elaboration per process: this is the only SystemC test in the binary.
  Memory memory("memory");
  Initiator initiator("initiator");
  initiator.socket.bind(memory.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME); // completes the binding; time stays 0
  for (auto& b : memory.bytes)
    b = static_cast<uint8_t>(rng.next());
  std::vector<uint8_t> expected = memory.bytes; // the memory after all writes

  rtlmodel::AxiSlaveBridge::Config cfg;
  cfg.beatBytes = kBeatBytes;
  cfg.maxBurst = kMaxBurst;
  cfg.maxReads = 4;
  cfg.maxWrites = 4;
  cfg.periodPs = kPeriodPs;
  rtlmodel::AxiSlaveBridge bridge(cfg, initiator.socket);
  axi::CheckerConfig cc;
  cc.dataBytes = kBeatBytes;
  cc.idBits = 4;
  cc.maxBurst = kMaxBurst;
  cc.incrOnly = cc.fullWidth = cc.busAligned = true;
  cc.maxReads = cc.maxWrites = 4;
  axi::Checker checker(cc, "bridge");

  // Reads cover the first half of the memory (never written), writes the second half.
  std::deque<Burst> reads, writes;
  for (int i = 0; i < 200; ++i) {
    Burst b;
    b.write = i % 2;
    b.beats = static_cast<uint32_t>(rng.range(1, kMaxBurst));
    const uint64_t half = kSize / 2, span = b.beats * kBeatBytes;
    // Stay inside a 4 KiB page, as a master must.
    uint64_t offset = rng.range(0, (half - span) / kBeatBytes) * kBeatBytes;
    if (offset / 4096 != (offset + span - 1) / 4096)
      offset = (offset + span - 1) / 4096 * 4096;
    b.addr = kBase + (b.write ? half : 0) + offset;
    b.id = static_cast<uint32_t>(i % 16);
    if (b.write) {
      for (uint64_t k = 0; k < span; ++k) {
        b.data.push_back(static_cast<uint8_t>(rng.next()));
        b.strobes.push_back(rng.percent(80));
        if (b.strobes.back())
          expected[b.addr - kBase + k] = b.data.back();
      }
      writes.push_back(b);
    } else {
      reads.push_back(b);
    }
  }
  Burst outside; // a read past the end of the memory
  outside.addr = kBase + kSize;
  outside.beats = 2;
  outside.id = 3;
  reads.push_back(outside);

  std::deque<Burst> readsOut, awSent, wPending = writes; // wPending: W beats still to send
  size_t wBeat = 0, writesDone = 0, readsDone = 0, earlyW = 0;
  const size_t totalReads = reads.size(), totalWrites = writes.size();
  axi::Bus bus;
  uint64_t cycle = 0;
  for (; cycle < 100000 && (readsDone < totalReads || writesDone < totalWrites); ++cycle) {
    // Master outputs (held while not taken: the random choices only start new transfers).
    if (!bus.ar.valid && !reads.empty() && readsOut.size() < 4 && rng.percent(50)) {
      const Burst& b = reads.front();
      bus.ar = {};
      bus.ar.valid = true;
      bus.ar.id = b.id;
      bus.ar.addr = b.addr;
      bus.ar.len = b.beats - 1;
      bus.ar.size = 4; // 16 bytes
      bus.ar.burst = axi::kIncr;
    }
    if (!bus.aw.valid && !writes.empty() && awSent.size() < 4 && rng.percent(25)) {
      const Burst& b = writes.front();
      bus.aw = {};
      bus.aw.valid = true;
      bus.aw.id = b.id;
      bus.aw.addr = b.addr;
      bus.aw.len = b.beats - 1;
      bus.aw.size = 4;
      bus.aw.burst = axi::kIncr;
    }
    // W beats may run ahead of their AW by up to one burst.
    if (!bus.w.valid && !wPending.empty() &&
        wPending.size() + awSent.size() + 1 >= writes.size() + awSent.size() && rng.percent(60)) {
      const Burst& b = wPending.front();
      bus.w = {};
      bus.w.valid = true;
      for (int i = 0; i < kBeatBytes; ++i) {
        bus.w.data.setByte(i, b.data[wBeat * kBeatBytes + i]);
        bus.w.strb.set(i, b.strobes[wBeat * kBeatBytes + i]);
      }
      bus.w.last = wBeat + 1 == b.beats;
    }
    bus.r.ready = rng.percent(70);
    bus.b.ready = rng.percent(70);
    bridge.drive(bus, cycle);
    checker.observe(bus, cycle);
    bridge.tick(bus, cycle); // the bridge's side of this cycle's handshakes

    if (bus.ar.fire()) {
      Burst b = reads.front();
      reads.pop_front();
      b.issued = cycle;
      readsOut.push_back(b);
      bus.ar.valid = false;
    }
    if (bus.aw.fire()) {
      Burst b = writes.front();
      writes.pop_front();
      b.issued = cycle;
      awSent.push_back(b);
      bus.aw.valid = false;
    }
    if (bus.w.fire()) {
      earlyW += totalWrites - wPending.size() >= totalWrites - writes.size(); // AW not sent yet
      bus.w.valid = false;
      if (++wBeat == wPending.front().beats) {
        wPending.pop_front();
        wBeat = 0;
      }
    }
    if (bus.r.fire()) {
      // Bursts complete in order here, so the beat belongs to the oldest read.
      Burst& b = readsOut.front();
      const bool inside = b.addr + b.beats * kBeatBytes <= kBase + kSize;
      EXPECT_EQ(bus.r.id, b.id);
      EXPECT_EQ(bus.r.resp, inside ? axi::kOkay : axi::kDecErr);
      for (int i = 0; inside && i < kBeatBytes; ++i)
        ASSERT_EQ(bus.r.data.byte(i), memory.bytes[b.addr - kBase + i]) << "cycle " << cycle;
      b.addr += kBeatBytes;
      if (--b.beats == 0) {
        EXPECT_GE(cycle, b.issued + 1 + kLatencyCycles) << "faster than the memory";
        readsOut.pop_front();
        ++readsDone;
      }
    }
    if (bus.b.fire()) {
      EXPECT_EQ(bus.b.id, awSent.front().id);
      EXPECT_EQ(bus.b.resp, axi::kOkay);
      EXPECT_GE(cycle, awSent.front().issued + 1 + kLatencyCycles);
      awSent.pop_front();
      ++writesDone;
    }
  }
  checker.finish(cycle);
  EXPECT_EQ(readsDone, totalReads);
  EXPECT_EQ(writesDone, totalWrites);
  EXPECT_TRUE(bridge.idle());
  EXPECT_GT(earlyW, 10u) << "W beats ahead of their AW were not exercised";
  EXPECT_TRUE(checker.clean()) << checker.report();
  EXPECT_TRUE(memory.bytes == expected) << "written bytes differ from the strobed data";
  EXPECT_EQ(bridge.stats().errorResponses, 1u); // the burst outside the memory
  EXPECT_EQ(bridge.stats().readBursts, totalReads);
  EXPECT_EQ(bridge.stats().writeBursts, totalWrites);
}

} // namespace
} // namespace by::test

// libsystemc's main() needs an sc_main() to link; GoogleTest's main() is the one that runs.
int sc_main(int, char*[]) {
  return 1;
}
