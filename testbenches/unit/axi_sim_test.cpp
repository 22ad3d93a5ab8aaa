// Tests of the AXI verification infrastructure itself: beat addressing against the AXI4
// spec's formulas, the memory model under a randomised reference master (data against an
// independent byte image, ordering, interleaving, early W, SLVERR), the protocol checkers on
// legal traffic (silent) and on one crafted violation per rule (reported), and the AXI4-Lite
// master against a small register slave.
#include "axi/axi_checker.h"
#include "axi/axi_lite.h"
#include "axi/axi_memory.h"
#include "seed.h"

#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace by::axi;

namespace {

// ---------------------------------------------------------------------------------------------
// Beat addressing.

TEST(AxiBeatLanes, IncrUnalignedStartThenAligned) {
  AddrChannel a;
  a.addr = 0x1003;
  a.size = 2; // 4-byte transfers on an 8-byte bus
  a.len = 3;
  a.burst = kIncr;
  BeatLanes b0 = beatLanes(a, 0, 8);
  EXPECT_EQ(b0.addr, 0x1003u);
  EXPECT_EQ(b0.firstLane, 3);
  EXPECT_EQ(b0.lastLane, 3); // only byte 3 of the first 4-byte container
  BeatLanes b1 = beatLanes(a, 1, 8);
  EXPECT_EQ(b1.addr, 0x1004u);
  EXPECT_EQ(b1.firstLane, 4);
  EXPECT_EQ(b1.lastLane, 7);
  BeatLanes b2 = beatLanes(a, 2, 8);
  EXPECT_EQ(b2.addr, 0x1008u);
  EXPECT_EQ(b2.firstLane, 0);
  EXPECT_EQ(b2.lastLane, 3);
}

TEST(AxiBeatLanes, WrapAndFixed) {
  AddrChannel a;
  a.addr = 0x38;
  a.size = 3; // 8 bytes
  a.len = 3;  // 4 beats: wraps within 0x20..0x3F
  a.burst = kWrap;
  EXPECT_EQ(beatLanes(a, 0, 8).addr, 0x38u);
  EXPECT_EQ(beatLanes(a, 1, 8).addr, 0x20u);
  EXPECT_EQ(beatLanes(a, 2, 8).addr, 0x28u);
  EXPECT_EQ(beatLanes(a, 3, 8).addr, 0x30u);
  a.burst = kFixed;
  EXPECT_EQ(beatLanes(a, 3, 8).addr, 0x38u);
  a.burst = kIncr;
  a.addr = 0x100;
  a.size = 4; // 16-byte beats on a 16-byte bus
  EXPECT_EQ(beatLanes(a, 2, 16).addr, 0x120u);
  EXPECT_EQ(beatLanes(a, 2, 16).firstLane, 0);
  EXPECT_EQ(beatLanes(a, 2, 16).lastLane, 15);
}

// ---------------------------------------------------------------------------------------------
// A randomised reference master for the memory model: legal INCR/WRAP/FIXED bursts of any
// size, reused IDs, W sometimes ahead of AW, random gaps and ready back-pressure. It keeps its
// own byte image (writes applied in AW order, the order the model applies them) and checks
// every read beat and response against it.

struct RefBurst {
  AddrChannel a;
  std::vector<Data> data; // writes
  std::vector<Strb> strb;
  bool error = false; // some beat addresses bytes outside the memory
};

class RefMaster {
public:
  RefMaster(const MemoryConfig& mc, int idBits, uint64_t seed)
      : mc_(mc), idBits_(idBits), rng_(seed), image_(mc.size) {
    for (auto& b : image_)
      b = 0;
  }

  std::vector<uint8_t>& image() { return image_; }

  void addWrite() { writes_.push_back(makeBurst(true)); }
  void addRead() { reads_.push_back(makeBurst(false)); }

  void drive(Bus& bus) {
    bus.ar.valid = arNext_ < reads_.size() && arDelay_ == 0;
    if (bus.ar.valid)
      setAddr(bus.ar, reads_[arNext_].a);
    // AW at most one burst ahead of W, W at most two ahead of AW: either may lead.
    bus.aw.valid = awNext_ < writes_.size() && awNext_ <= wNext_ + awLead_ && awDelay_ == 0;
    if (bus.aw.valid)
      setAddr(bus.aw, writes_[awNext_].a);
    bus.w.valid = wNext_ < writes_.size() && wNext_ < awNext_ + 2 && wDelay_ == 0;
    if (bus.w.valid) {
      const RefBurst& w = writes_[wNext_];
      bus.w.data = w.data[wBeat_];
      bus.w.strb = w.strb[wBeat_];
      bus.w.last = wBeat_ == w.a.len;
    }
    bus.r.ready = rReady_;
    bus.b.ready = bReady_;
  }

  void tick(const Bus& bus) {
    if (bus.ar.fire()) {
      readsById_[bus.ar.id].push_back(arNext_++);
      arDelay_ = gap();
    } else if (arDelay_ > 0) {
      --arDelay_;
    }
    if (bus.aw.fire()) {
      writesById_[bus.aw.id].push_back(awNext_);
      applyWrite(writes_[awNext_++]);
      awDelay_ = gap();
      awLead_ = rng_.percent(50) ? 1 : 0;
    } else if (awDelay_ > 0) {
      --awDelay_;
    }
    if (bus.w.fire()) {
      if (wBeat_++ == writes_[wNext_].a.len) {
        wBeat_ = 0;
        ++wNext_;
      }
      wDelay_ = rng_.percent(30) ? 1 : 0;
    } else if (wDelay_ > 0) {
      --wDelay_;
    }
    if (bus.r.fire())
      checkReadBeat(bus.r);
    if (bus.b.fire()) {
      auto& q = writesById_[bus.b.id];
      ASSERT_FALSE(q.empty()) << "B for an ID with no write";
      EXPECT_EQ(bus.b.resp, writes_[q.front()].error ? kSlvErr : kOkay) << "write " << q.front();
      q.pop_front();
      ++responses_;
    }
    if (lastRId_ != bus.r.id && bus.r.fire() && rBurstOpen_)
      ++interleavings_;
    if (bus.r.fire()) {
      rBurstOpen_ = !bus.r.last;
      lastRId_ = bus.r.id;
    }
    rReady_ = rng_.percent(80);
    bReady_ = rng_.percent(80);
  }

  bool done() const {
    return arNext_ == reads_.size() && wNext_ == writes_.size() && awNext_ == writes_.size() &&
           responses_ == writes_.size() && beatsChecked_ == totalReadBeats();
  }
  uint64_t interleavings() const { return interleavings_; }
  uint64_t beatsChecked() const { return beatsChecked_; }

private:
  static void setAddr(AddrChannel& ch, const AddrChannel& a) {
    const bool valid = ch.valid, ready = ch.ready;
    ch = a;
    ch.valid = valid;
    ch.ready = ready;
  }
  int gap() { return rng_.percent(40) ? static_cast<int>(rng_.range(1, 3)) : 0; }
  uint64_t totalReadBeats() const {
    uint64_t n = 0;
    for (const RefBurst& r : reads_)
      n += r.a.len + 1;
    return n;
  }
  bool inRange(uint64_t addr) const { return addr >= mc_.base && addr < mc_.base + mc_.size; }

  RefBurst makeBurst(bool write) {
    RefBurst r;
    AddrChannel& a = r.a;
    a.id = static_cast<uint32_t>(rng_.range(0, (1u << idBits_) - 1));
    int maxSize = 0;
    while ((2 << maxSize) <= mc_.dataBytes)
      ++maxSize;
    a.size = static_cast<uint32_t>(rng_.range(0, maxSize));
    const uint64_t bytes = uint64_t{1} << a.size;
    // Mostly inside, sometimes straddling the end or wholly outside.
    const uint64_t span = mc_.size + 256;
    a.addr = mc_.base + rng_.range(0, span - 1);
    if (rng_.percent(3))
      a.addr = mc_.base - rng_.range(1, 64); // below the memory
    const int kind = static_cast<int>(rng_.range(0, 9));
    if (kind < 7) {
      a.burst = kIncr;
      const uint64_t aligned = a.addr / bytes * bytes;
      const uint64_t toPage = (4096 - (aligned & 4095)) / bytes; // beats to the 4 KiB boundary
      a.len = static_cast<uint32_t>(rng_.range(0, std::min<uint64_t>(toPage, 16) - 1));
    } else if (kind < 9) {
      a.burst = kWrap;
      const uint32_t lens[] = {1, 3, 7, 15};
      a.len = lens[rng_.range(0, 3)];
      a.addr = a.addr / bytes * bytes;
    } else {
      a.burst = kFixed;
      a.len = static_cast<uint32_t>(rng_.range(0, 3));
    }
    for (uint32_t beat = 0; beat <= a.len; ++beat) {
      const BeatLanes lanes = beatLanes(a, beat, mc_.dataBytes);
      const uint64_t busBase = lanes.addr / mc_.dataBytes * mc_.dataBytes;
      for (int lane = lanes.firstLane; lane <= lanes.lastLane; ++lane)
        if (!inRange(busBase + lane))
          r.error = true;
      if (write) {
        Data d;
        Strb s;
        for (int lane = 0; lane < mc_.dataBytes; ++lane)
          d.setByte(lane, static_cast<uint8_t>(rng_.next()));
        for (int lane = lanes.firstLane; lane <= lanes.lastLane; ++lane)
          s.set(lane, rng_.percent(85));
        r.data.push_back(d);
        r.strb.push_back(s);
      }
    }
    return r;
  }

  void applyWrite(const RefBurst& w) {
    for (uint32_t beat = 0; beat <= w.a.len; ++beat) {
      const BeatLanes lanes = beatLanes(w.a, beat, mc_.dataBytes);
      const uint64_t busBase = lanes.addr / mc_.dataBytes * mc_.dataBytes;
      for (int lane = 0; lane < mc_.dataBytes; ++lane)
        if (w.strb[beat].bit(lane) && inRange(busBase + lane))
          image_[busBase + lane - mc_.base] = w.data[beat].byte(lane);
    }
  }

  void checkReadBeat(const RChannel& r) {
    auto& q = readsById_[r.id];
    ASSERT_FALSE(q.empty()) << "R for an ID with no read";
    const RefBurst& rd = reads_[q.front()];
    const uint32_t beat = rBeats_[q.front()]++;
    const BeatLanes lanes = beatLanes(rd.a, beat, mc_.dataBytes);
    const uint64_t busBase = lanes.addr / mc_.dataBytes * mc_.dataBytes;
    bool beatError = false;
    for (int lane = lanes.firstLane; lane <= lanes.lastLane; ++lane) {
      const uint64_t addr = busBase + lane;
      if (!inRange(addr))
        beatError = true;
      else
        EXPECT_EQ(r.data.byte(lane), image_[addr - mc_.base])
            << "read " << q.front() << " beat " << beat << " lane " << lane;
    }
    EXPECT_EQ(r.resp, beatError ? kSlvErr : kOkay) << "read " << q.front() << " beat " << beat;
    EXPECT_EQ(r.last, beat == rd.a.len);
    if (beat == rd.a.len)
      q.pop_front();
    ++beatsChecked_;
  }

  MemoryConfig mc_;
  int idBits_;
  Rng rng_;
  std::vector<uint8_t> image_;
  std::vector<RefBurst> writes_, reads_;
  size_t arNext_ = 0, awNext_ = 0, wNext_ = 0;
  uint32_t wBeat_ = 0;
  size_t awLead_ = 1; // bursts the AW may be ahead of W (0: the W of a burst starts first)
  int arDelay_ = 0, awDelay_ = 0, wDelay_ = 0;
  bool rReady_ = true, bReady_ = true;
  std::map<uint32_t, std::deque<size_t>> readsById_, writesById_;
  std::map<size_t, uint32_t> rBeats_;
  uint64_t responses_ = 0, beatsChecked_ = 0, interleavings_ = 0;
  bool rBurstOpen_ = false;
  uint32_t lastRId_ = ~0u;
};

TEST(AxiMemory, RandomTrafficAgainstReferenceImage) {
  for (int dataBytes : {4, 16}) {
    MemoryConfig mc;
    mc.base = 0x10000;
    mc.size = 0x8000;
    mc.dataBytes = dataBytes;
    mc.minLatency = 0;
    mc.maxLatency = 12;
    mc.arReadyPercent = 60;
    mc.awReadyPercent = 60;
    mc.wReadyPercent = 70;
    mc.rGapPercent = 20;
    mc.bGapPercent = 20;
    mc.seed = by::test::testSeed(11 + dataBytes, "AxiMemory random traffic");
    Memory mem(mc);
    CheckerConfig cc;
    cc.dataBytes = dataBytes;
    cc.idBits = 3;
    cc.maxBurst = 16;
    Checker chk(cc);
    RefMaster master(mc, 3, mc.seed * 7 + 1);
    for (int i = 0; i < 1500; ++i)
      master.addWrite();
    // The image starts as zeros in both; reads follow once all writes are answered.
    Bus bus;
    uint64_t cycle = 0;
    bool readsAdded = false;
    while (!(readsAdded && master.done()) && cycle < 400000) {
      if (!readsAdded && master.done()) {
        for (int i = 0; i < 1500; ++i)
          master.addRead();
        readsAdded = true;
      }
      mem.drive(bus);
      master.drive(bus);
      chk.observe(bus, cycle);
      mem.tick(bus);
      master.tick(bus);
      ++cycle;
    }
    chk.finish(cycle);
    ASSERT_TRUE(readsAdded && master.done()) << "traffic did not finish in " << cycle << " cycles";
    EXPECT_TRUE(chk.clean()) << chk.report();
    EXPECT_TRUE(mem.idle());
    EXPECT_EQ(mem.image(), master.image());
    EXPECT_GT(master.interleavings(), 10u) << "read interleaving never happened";
    EXPECT_GT(mem.stats().earlyWBeats, 10u) << "W never came before its AW";
    EXPECT_GT(mem.stats().errorResponses, 10u) << "no SLVERR was exercised";
    std::printf("[axi] %d-byte bus: %llu cycles, %llu read beats, %llu write beats, %llu early W "
                "beats, %llu interleavings, %llu error responses\n",
                dataBytes, static_cast<unsigned long long>(cycle),
                static_cast<unsigned long long>(mem.stats().readBeats),
                static_cast<unsigned long long>(mem.stats().writeBeats),
                static_cast<unsigned long long>(mem.stats().earlyWBeats),
                static_cast<unsigned long long>(master.interleavings()),
                static_cast<unsigned long long>(mem.stats().errorResponses));
  }
}

// The bandwidth limit: reads and writes together never move more than bytesPerCycle on
// average (a beat costs a whole bus width), and the traffic is still answered correctly.
TEST(AxiMemory, BandwidthLimitIsSharedByReadsAndWrites) {
  MemoryConfig mc;
  mc.base = 0x10000;
  mc.size = 0x8000;
  mc.dataBytes = 16;
  mc.bytesPerCycle = 4;
  mc.maxLatency = 5;
  mc.seed = by::test::testSeed(5, "AxiMemory bandwidth limit");
  Memory mem(mc);
  CheckerConfig cc;
  cc.dataBytes = mc.dataBytes;
  cc.idBits = 3;
  cc.maxBurst = 16;
  Checker chk(cc);
  RefMaster master(mc, 3, mc.seed * 7 + 1);
  for (int i = 0; i < 300; ++i)
    master.addWrite();
  Bus bus;
  uint64_t cycle = 0;
  bool readsAdded = false; // as above: reads once the writes are answered
  for (; !(readsAdded && master.done()) && cycle < 400000; ++cycle) {
    if (!readsAdded && master.done()) {
      for (int i = 0; i < 300; ++i)
        master.addRead();
      readsAdded = true;
    }
    mem.drive(bus);
    master.drive(bus);
    chk.observe(bus, cycle);
    mem.tick(bus);
    master.tick(bus);
    const uint64_t beats = mem.stats().readBeats + mem.stats().writeBeats;
    ASSERT_LE(beats * 16, (cycle + 1) * 4 + 16) << "cycle " << cycle;
  }
  chk.finish(cycle);
  ASSERT_TRUE(readsAdded && master.done());
  EXPECT_TRUE(chk.clean()) << chk.report();
  EXPECT_EQ(mem.image(), master.image());
  const uint64_t beats = mem.stats().readBeats + mem.stats().writeBeats;
  EXPECT_GT(beats * 16, cycle * 2) << "the limit should be the bottleneck here";
  std::printf("[axi] 4 bytes/cycle on a 16-byte bus: %llu beats in %llu cycles\n",
              static_cast<unsigned long long>(beats), static_cast<unsigned long long>(cycle));
}

TEST(AxiMemory, WaitsForAwWhenEarlyWritesAreOff) {
  MemoryConfig mc;
  mc.size = 4096;
  mc.maxEarlyWBeats = 0;
  Memory mem(mc);
  Bus bus;
  mem.drive(bus);
  EXPECT_FALSE(bus.w.ready); // no AW yet
  bus.aw.valid = true;
  bus.aw.addr = 0x40;
  bus.aw.size = 3;
  mem.tick(bus);
  bus.aw.valid = false;
  mem.drive(bus);
  EXPECT_TRUE(bus.w.ready);
}

// ---------------------------------------------------------------------------------------------
// Checker: one crafted violation per rule.

class CheckerRule : public ::testing::Test {
protected:
  CheckerRule() {
    cfg.dataBytes = 8;
    cfg.idBits = 2;
    cfg.maxBurst = 16;
    cfg.print = false;
  }
  // Runs the cycles through a fresh checker; returns its report.
  std::string run(const std::vector<Bus>& cycles, bool finish = false) {
    Checker chk(cfg);
    for (size_t i = 0; i < cycles.size(); ++i)
      chk.observe(cycles[i], i);
    if (finish)
      chk.finish(cycles.size());
    return chk.clean() ? std::string("clean") : chk.report();
  }
  static AddrChannel addr(uint64_t a, uint32_t len, uint32_t id = 0, uint32_t size = 3) {
    AddrChannel c;
    c.valid = true;
    c.ready = true;
    c.addr = a;
    c.len = len;
    c.id = id;
    c.size = size;
    c.burst = kIncr;
    return c;
  }
  static Strb fullStrb(int n) {
    Strb s;
    for (int i = 0; i < n; ++i)
      s.set(i, true);
    return s;
  }
  CheckerConfig cfg;
};

#define EXPECT_REPORTS(report, text) EXPECT_NE((report).find(text), std::string::npos) << (report)

TEST_F(CheckerRule, LegalReadAndWriteAreClean) {
  Bus c0, c1, c2, c3;
  c0.ar = addr(0x100, 1);
  c0.aw = addr(0x200, 0);
  c0.w.valid = c0.w.ready = true;
  c0.w.strb = fullStrb(8);
  c0.w.last = true;
  c1.r.valid = c1.r.ready = true;
  c2.r.valid = c2.r.ready = true;
  c2.r.last = true;
  c3.b.valid = c3.b.ready = true;
  EXPECT_EQ(run({c0, c1, c2, c3}, true), "clean");
}

TEST_F(CheckerRule, ValidDroppedAndPayloadChanged) {
  Bus c0, c1;
  c0.ar = addr(0x100, 0);
  c0.ar.ready = false;
  EXPECT_REPORTS(run({c0, c1}), "VALID dropped");
  c1.ar = c0.ar;
  c1.ar.addr = 0x108;
  EXPECT_REPORTS(run({c0, c1}), "payload changed");
  Bus w0, w1;
  w0.aw = addr(0, 0);
  w0.w.valid = true;
  w0.w.last = true;
  w1.w = w0.w;
  w1.w.data.setByte(0, 1);
  EXPECT_REPORTS(run({w0, w1}), "W: payload changed");
}

TEST_F(CheckerRule, AddressRules) {
  Bus c;
  c.ar = addr(0xFF8, 1); // 0xFF8..0x1007
  EXPECT_REPORTS(run({c}), "crosses a 4 KiB boundary");
  c.ar = addr(0x0, 16);
  EXPECT_REPORTS(run({c}), "more than 16 beats");
  c.ar = addr(0x0, 0, 4);
  EXPECT_REPORTS(run({c}), "does not fit 2 bits");
  c.ar = addr(0x0, 0, 0, 4);
  EXPECT_REPORTS(run({c}), "wider than the 8-byte bus");
  c.ar = addr(0x0, 0);
  c.ar.burst = 3;
  EXPECT_REPORTS(run({c}), "is reserved");
  c.ar = addr(0x8, 2);
  c.ar.burst = kWrap;
  EXPECT_REPORTS(run({c}), "WRAP burst of 3 beats");
  cfg.incrOnly = true;
  cfg.fullWidth = true;
  cfg.busAligned = true;
  c.ar = addr(0x4, 0, 0, 2);
  const std::string r = run({c});
  EXPECT_REPORTS(r, "full-width beats");
  EXPECT_REPORTS(r, "not aligned");
  c.ar = addr(0x4, 0, 0, 2);
  c.ar.burst = kFixed;
  EXPECT_REPORTS(run({c}), "only INCR");
}

TEST_F(CheckerRule, WriteDataRules) {
  Bus c0;
  c0.aw = addr(0x100, 1);
  c0.w.valid = c0.w.ready = true;
  c0.w.strb = fullStrb(8);
  c0.w.last = true; // beat 0 of 2
  EXPECT_REPORTS(run({c0}), "WLAST set on beat 0");
  Bus n0;
  n0.aw = addr(0x103, 0, 0, 0); // one byte at lane 3
  n0.w.valid = n0.w.ready = true;
  n0.w.strb.set(4, true);
  n0.w.last = true;
  EXPECT_REPORTS(run({n0}), "WSTRB lane 4 outside lanes 3..3");
  Bus s0;
  s0.aw = addr(0x100, 0);
  s0.w.valid = s0.w.ready = true;
  s0.w.strb.set(9, true);
  s0.w.last = true;
  EXPECT_REPORTS(run({s0}), "WSTRB bit 9 beyond");
  Bus early;
  early.w.valid = early.w.ready = true;
  early.w.strb = fullStrb(8);
  early.w.last = true;
  EXPECT_EQ(run({early}), "clean");
  EXPECT_REPORTS(run({early}, true), "never matched by an AW");
  cfg.allowWBeforeAw = false;
  EXPECT_REPORTS(run({early}), "W beat before its AW");
  Bus d;
  d.aw = addr(0x100, 0);
  d.w.valid = d.w.ready = true;
  d.w.last = true;
  d.w.data.setByte(8, 0xAA);
  EXPECT_REPORTS(run({d}), "data bits set beyond");
}

TEST_F(CheckerRule, ResponseRules) {
  Bus r0;
  r0.r.valid = r0.r.ready = true;
  r0.r.last = true;
  EXPECT_REPORTS(run({r0}), "no read outstanding");
  Bus same; // R in the same cycle as its AR is too early
  same.ar = addr(0x100, 0);
  same.r = r0.r;
  EXPECT_REPORTS(run({same}), "no read outstanding");
  Bus a0, a1;
  a0.ar = addr(0x100, 1);
  a1.r.valid = a1.r.ready = true;
  a1.r.last = true; // beat 0 of 2
  EXPECT_REPORTS(run({a0, a1}), "RLAST set on beat 0");
  a1.r.last = false;
  a1.r.resp = kExOkay;
  EXPECT_REPORTS(run({a0, a1}), "EXOKAY");
  EXPECT_REPORTS(run({a0, a1}, true), "got 1 of 2 beats");
  Bus w0, w1, w2;
  w0.aw = addr(0x100, 1);
  w0.w.valid = w0.w.ready = true;
  w0.w.strb = fullStrb(8);
  w1.b.valid = w1.b.ready = true; // one W beat of two so far
  EXPECT_REPORTS(run({w0, w1}), "before the last W beat");
  w2.b.valid = w2.b.ready = true;
  w2.b.id = 3;
  EXPECT_REPORTS(run({w2}), "no write outstanding");
}

TEST_F(CheckerRule, OutstandingAndIdRules) {
  cfg.uniqueIds = true;
  cfg.maxReads = 2;
  Bus c0, c1, c2;
  c0.ar = addr(0x100, 0, 1);
  c1.ar = addr(0x200, 0, 1);
  EXPECT_REPORTS(run({c0, c1}), "ARID 1 reused");
  c1.ar.id = 2;
  c2.ar = addr(0x300, 0, 3);
  EXPECT_REPORTS(run({c0, c1, c2}), "more than 2");
  cfg.allowReadInterleave = false;
  Bus i0, i1, i2;
  i0.ar = addr(0x100, 1, 1);
  i1.ar = addr(0x200, 0, 2);
  i1.r.valid = i1.r.ready = true;
  i1.r.id = 1; // beat 0 of ID 1's burst
  i2.r.valid = i2.r.ready = true;
  i2.r.id = 2;
  i2.r.last = true;
  EXPECT_REPORTS(run({i0, i1, i2}), "interleaved");
}

// ---------------------------------------------------------------------------------------------
// AXI4-Lite: the master against a small register slave (random readies, random latency).

class LiteRegs {
public:
  explicit LiteRegs(uint64_t seed) : rng_(seed), regs_(16, 0) {}
  void drive(LiteBus& bus) const {
    bus.aw.ready = awReady_;
    bus.w.ready = wReady_;
    bus.ar.ready = arReady_;
    bus.b.valid = bPending_ && bDelay_ == 0;
    bus.b.resp = bResp_;
    bus.r.valid = rPending_ && rDelay_ == 0;
    bus.r.data = rData_;
    bus.r.resp = rResp_;
  }
  void tick(const LiteBus& bus) {
    if (bus.aw.fire())
      awAddr_ = bus.aw.addr, haveAw_ = true;
    if (bus.w.fire())
      wData_ = bus.w.data, wStrb_ = bus.w.strb, haveW_ = true;
    if (bus.b.fire())
      bPending_ = false;
    if (bus.r.fire())
      rPending_ = false;
    if (haveAw_ && haveW_ && !bPending_) {
      const uint32_t index = awAddr_ / 4;
      bResp_ = index < regs_.size() ? kOkay : kSlvErr;
      if (index < regs_.size())
        for (int i = 0; i < 4; ++i)
          if (wStrb_ >> i & 1)
            regs_[index] = (regs_[index] & ~(0xFFu << 8 * i)) | (wData_ & (0xFFu << 8 * i));
      haveAw_ = haveW_ = false;
      bPending_ = true;
      bDelay_ = static_cast<int>(rng_.range(0, 2));
    } else if (bDelay_ > 0) {
      --bDelay_;
    }
    if (bus.ar.fire()) {
      const uint32_t index = bus.ar.addr / 4;
      rData_ = index < regs_.size() ? regs_[index] : 0;
      rResp_ = index < regs_.size() ? kOkay : kSlvErr;
      rPending_ = true;
      rDelay_ = static_cast<int>(rng_.range(0, 2));
    } else if (rDelay_ > 0) {
      --rDelay_;
    }
    awReady_ = !haveAw_ && !bPending_ && rng_.percent(60);
    wReady_ = !haveW_ && !bPending_ && rng_.percent(60);
    arReady_ = !rPending_ && rng_.percent(60);
  }

private:
  Rng rng_;
  std::vector<uint32_t> regs_;
  bool awReady_ = false, wReady_ = false, arReady_ = false;
  bool haveAw_ = false, haveW_ = false, bPending_ = false, rPending_ = false;
  uint32_t awAddr_ = 0, wData_ = 0, wStrb_ = 0, bResp_ = 0, rData_ = 0, rResp_ = 0;
  int bDelay_ = 0, rDelay_ = 0;
};

TEST(AxiLite, MasterWritesAndReadsBackRegisters) {
  const uint64_t seed = by::test::testSeed(5, "AxiLite master");
  LiteMasterConfig mc;
  mc.seed = seed;
  LiteMaster master(mc);
  LiteRegs slave(seed + 1);
  LiteCheckerConfig cc;
  LiteChecker chk(cc);
  Rng rng(seed + 2);
  std::vector<uint32_t> expect(16, 0);
  std::vector<std::pair<uint32_t, uint32_t>> reads; // (address, expected data) in order
  int writes = 0;
  for (int i = 0; i < 400; ++i) {
    const uint32_t reg = static_cast<uint32_t>(rng.range(0, 17)); // 16, 17: outside
    if (rng.percent(50)) {
      const uint32_t data = static_cast<uint32_t>(rng.next());
      const uint32_t strb = rng.percent(80) ? 0xF : static_cast<uint32_t>(rng.range(0, 15));
      master.write(reg * 4, data, strb);
      if (reg < 16)
        for (int b = 0; b < 4; ++b)
          if (strb >> b & 1)
            expect[reg] = (expect[reg] & ~(0xFFu << 8 * b)) | (data & (0xFFu << 8 * b));
      ++writes;
    } else {
      master.read(reg * 4);
      reads.emplace_back(reg * 4, reg < 16 ? expect[reg] : 0);
    }
  }
  LiteBus bus;
  uint64_t cycle = 0;
  while (!master.idle() && cycle < 100000) {
    slave.drive(bus);
    master.drive(bus);
    chk.observe(bus, cycle);
    slave.tick(bus);
    master.tick(bus);
    ++cycle;
  }
  chk.finish(cycle);
  ASSERT_TRUE(master.idle()) << "hung after " << cycle << " cycles";
  EXPECT_TRUE(chk.clean()) << chk.report();
  size_t nextRead = 0;
  int writesSeen = 0;
  for (const LiteResult& r : master.results()) {
    if (r.write) {
      ++writesSeen;
      EXPECT_EQ(r.resp, r.addr < 64 ? kOkay : kSlvErr);
      continue;
    }
    ASSERT_LT(nextRead, reads.size());
    EXPECT_EQ(r.addr, reads[nextRead].first);
    EXPECT_EQ(r.data, reads[nextRead].second) << "read of " << r.addr;
    EXPECT_EQ(r.resp, r.addr < 64 ? kOkay : kSlvErr);
    ++nextRead;
  }
  EXPECT_EQ(nextRead, reads.size());
  EXPECT_EQ(writesSeen, writes);
}

TEST(AxiLite, CheckerRules) {
  LiteCheckerConfig cc;
  cc.print = false;
  auto run = [&](const std::vector<LiteBus>& cycles, bool finish = false) {
    LiteChecker chk(cc);
    for (size_t i = 0; i < cycles.size(); ++i)
      chk.observe(cycles[i], i);
    if (finish)
      chk.finish(cycles.size());
    return chk.clean() ? std::string("clean") : chk.report();
  };
  LiteBus aw; // AW without W, then a B
  aw.aw.valid = aw.aw.ready = true;
  LiteBus b;
  b.b.valid = b.b.ready = true;
  EXPECT_REPORTS(run({aw, b}), "before both the AW and the W");
  LiteBus w = aw;
  w.w.valid = w.w.ready = true;
  EXPECT_EQ(run({w, b}, true), "clean");
  LiteBus r;
  r.r.valid = r.r.ready = true;
  EXPECT_REPORTS(run({r}), "no read outstanding");
  LiteBus hold, drop;
  hold.ar.valid = true;
  hold.ar.addr = 0x10;
  EXPECT_REPORTS(run({hold, drop}), "VALID dropped");
  LiteBus odd;
  odd.ar.valid = true;
  odd.ar.addr = 0x11;
  EXPECT_REPORTS(run({odd}), "not word aligned");
  EXPECT_REPORTS(run({aw}, true), "1 AW and 0 W handshakes");
}

} // namespace
