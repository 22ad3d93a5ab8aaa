// by_dma_reader against the AXI4 memory model: thousands of random requests (unaligned,
// 4 KiB-crossing, 1..MaxBytes, out of range) under random back-pressure, latency and beat
// interleaving; every response checked byte for byte against the memory image and its tag
// seen exactly once; the protocol checker silent; the number of bursts minimal. Plus edge
// cases, slave errors and the throughput measured for docs/dma.md.
#include <gtest/gtest.h>

#include BY_MODEL_HEADER
#include "axi/axi_checker.h"
#include "axi/axi_verilator.h"
#include "dma_cycle_loop.h"
#include "dma_harness.h"
#include "seed.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

using namespace by;
using namespace by::test::dma;

namespace {

struct Traffic {
  int gapPercent = 0;         // chance of idle cycles before the next request
  int maxGap = 0;             // up to this many
  int respReadyPercent = 100; // chance per cycle that resp_ready_i is high
  size_t maxOutstanding = 0;  // requests in flight at most (0: any)
};

struct RoundResult {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t cycles = 0; // from the first request to the last response
  uint64_t bursts = 0; // AR handshakes
  uint64_t expectedBursts = 0;
  uint64_t latencySum = 0;   // cycles from each request's acceptance to its answer
  uint64_t bytesCounted = 0; // sum of bytes_read_o
};

class ReaderTb {
public:
  explicit ReaderTb(const hw::DmaParams& p)
      : p_(p), ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<BY_MODEL>(ctx_.get(), "reader")) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~ReaderTb() { dut_->final(); }

  /// Optional hook that may alter what the slave drives (fault injection).
  std::function<void(axi::Bus&)> corrupt;

  /// Runs requests from `next` (which returns false when there are no more) to completion.
  RoundResult run(axi::Memory& mem, axi::Checker& chk, const Traffic& t, uint64_t seed,
                  const std::function<bool(Request&)>& next) {
    axi::Rng rng(seed);
    TagPool tags(p_.tagWidth, seed + 1);
    CycleLoop<BY_MODEL> loop(*dut_, bus_, cycle_, mem, chk, corrupt, Direction::Read);
    bool more = true;
    bool respReady = true;
    RoundResult res;
    std::vector<uint8_t> got(static_cast<size_t>(p_.maxBytes));
    // The response port must hold still while it waits for ready.
    bool prevWaiting = false;
    uint32_t prevTag = 0;
    bool prevError = false;
    std::vector<uint8_t> prevData;

    while (more || loop.pending || !loop.outstanding.empty()) {
      if (more && loop.mayOffer(t.maxOutstanding)) {
        Request r;
        more = next(r);
        if (more) {
          r.tag = tags.take();
          loop.pending = r;
          res.expectedBursts += minBursts(r.addr, std::min<uint32_t>(r.len, p_.maxBytes), p_);
        }
      }
      loop.lowHalf([&] { dut_->resp_ready_i = respReady; });
      res.bytesCounted += dut_->bytes_read_o;

      if (prevWaiting) {
        getBytes(dut_->resp_data_o, got);
        EXPECT_TRUE(dut_->resp_valid_o)
            << "resp_valid_o dropped before resp_ready_i, cycle " << cycle_;
        EXPECT_TRUE(dut_->resp_tag_o == prevTag && dut_->resp_error_o == prevError &&
                    got == prevData)
            << "response changed while waiting for resp_ready_i, cycle " << cycle_;
      }
      loop.acceptRequest(rng, t.gapPercent, t.maxGap);
      if (dut_->resp_valid_o) {
        getBytes(dut_->resp_data_o, got);
        prevWaiting = !respReady;
        prevTag = dut_->resp_tag_o;
        prevError = dut_->resp_error_o;
        prevData = got;
        if (respReady) {
          loop.answered(dut_->resp_tag_o, res);
          checkResponse(loop.outstanding, got);
          tags.give(dut_->resp_tag_o);
        }
      } else {
        prevWaiting = false;
      }
      if (!loop.highHalf())
        break;
      respReady = rng.percent(t.respReadyPercent);
    }
    // Let the registered byte count of the last response out, then check the engine is idle.
    res.bytesCounted += loop.drain([&] { return dut_->bytes_read_o; });
    EXPECT_FALSE(dut_->busy_o) << "busy_o still high after the last response";
    res.bursts = chk.readBursts();
    return res;
  }

  uint64_t cycle() const { return cycle_; }

private:
  void checkResponse(std::map<uint32_t, Request>& outstanding, const std::vector<uint8_t>& got) {
    const uint32_t tag = dut_->resp_tag_o;
    auto it = outstanding.find(tag);
    if (it == outstanding.end()) {
      ADD_FAILURE() << "response with tag " << tag << " that is not outstanding, cycle " << cycle_;
      return;
    }
    const Request& r = it->second;
    EXPECT_EQ(static_cast<bool>(dut_->resp_error_o), r.expectError)
        << "error flag, request addr 0x" << std::hex << r.addr << std::dec << " len " << r.len
        << " cycle " << cycle_;
    size_t bad = 0;
    std::ostringstream where;
    for (size_t k = 0; k < got.size(); ++k) {
      // Bytes outside the memory carry no defined data (the request reports the error).
      const bool defined =
          k >= r.data.size() || (kMemBase <= r.addr + k && r.addr + k < kMemBase + kMemSize);
      const uint8_t want = k < r.data.size() ? r.data[k] : 0;
      if (defined && got[k] != want && bad++ < 4)
        where << " byte " << k << ": got 0x" << std::hex << int{got[k]} << " want 0x" << int{want}
              << std::dec;
    }
    EXPECT_EQ(bad, 0u) << "response data for addr 0x" << std::hex << r.addr << std::dec << " len "
                       << r.len << " tag " << tag << " cycle " << cycle_ << ":" << where.str();
    outstanding.erase(it);
  }

  hw::DmaParams p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
  axi::Bus bus_;
  uint64_t cycle_ = 0;
};

// Fills the memory with random bytes and returns a generator of `count` random requests whose
// expected data is read from the memory image (independently of the RTL).
std::function<bool(Request&)> randomRequests(const hw::DmaParams& p, axi::Memory& mem,
                                             uint64_t seed, int count, int errorPercent) {
  auto gen = std::make_shared<RequestGen>(p, seed, errorPercent);
  for (auto& b : mem.image())
    b = static_cast<uint8_t>(gen->rng().next());
  auto left = std::make_shared<int>(count);
  return [&mem, gen, left](Request& r) {
    if ((*left)-- <= 0)
      return false;
    r.len = gen->length();
    r.addr = gen->address(r.len);
    r.expectError = !mem.contains(r.addr, r.len);
    r.data.assign(r.len, 0);
    for (uint32_t k = 0; k < r.len; ++k)
      if (mem.contains(r.addr + k, 1))
        r.data[k] = mem.read8(r.addr + k);
    return true;
  };
}

void report(const char* what, const RoundResult& r) {
  std::printf("[dma_reader %s] %s: %llu requests checked, %llu bytes, %llu bursts, %llu cycles, "
              "%.2f bytes/cycle, mean latency %.1f cycles\n",
              variantName(), what, static_cast<unsigned long long>(r.requests),
              static_cast<unsigned long long>(r.bytes), static_cast<unsigned long long>(r.bursts),
              static_cast<unsigned long long>(r.cycles),
              r.cycles ? static_cast<double>(r.bytes) / static_cast<double>(r.cycles) : 0.0,
              r.requests ? static_cast<double>(r.latencySum) / static_cast<double>(r.requests)
                         : 0.0);
}

} // namespace

TEST(DmaReader, RandomRequestsUnderStress) {
  const hw::DmaParams p = builtParams();
  const uint64_t seed = test::testSeed(101, std::string("dma reader random ") + variantName());
  ReaderTb tb(p);
  struct Phase {
    const char* name;
    axi::MemoryConfig mem;
    Traffic traffic;
  };
  std::vector<Phase> phases;
  phases.push_back({"stress", stressMemory(p, seed), {30, 6, 60}});
  axi::MemoryConfig fast = memoryConfig(p, seed + 1);
  phases.push_back({"back-to-back, zero latency", fast, {0, 0, 100}});
  axi::MemoryConfig slow = memoryConfig(p, seed + 2);
  slow.minLatency = slow.maxLatency = 100;
  slow.interleaveReads = false;
  phases.push_back({"latency 100, no interleaving", slow, {10, 20, 90}});
  axi::MemoryConfig choked = stressMemory(p, seed + 3);
  choked.arReadyPercent = 20;
  choked.rGapPercent = 60;
  phases.push_back({"heavy back-pressure", choked, {0, 0, 25}});
  for (size_t i = 0; i < phases.size(); ++i) {
    axi::Memory mem(phases[i].mem);
    axi::Checker chk(axi::dmaCheckerConfig(p), "dma_reader AXI");
    uint64_t bytes = 0;
    auto gen = randomRequests(p, mem, seed + 10 + i, 2500, 8);
    RoundResult r = tb.run(mem, chk, phases[i].traffic, seed + 20 + i, [&](Request& q) {
      if (!gen(q))
        return false;
      bytes += q.len;
      return true;
    });
    chk.finish(tb.cycle());
    r.bytes = bytes;
    report(phases[i].name, r);
    EXPECT_EQ(r.requests, 2500u) << phases[i].name;
    EXPECT_TRUE(chk.clean()) << chk.report();
    EXPECT_EQ(r.bursts, r.expectedBursts) << "bursts are not split minimally";
    EXPECT_EQ(r.bytesCounted, bytes) << "bytes_read_o";
    if (HasFailure())
      return;
  }
}

TEST(DmaReader, EveryOffsetAndEdgeLength) {
  const hw::DmaParams p = builtParams();
  ReaderTb tb(p);
  axi::Memory mem(stressMemory(p, test::testSeed(202, "dma reader edges")));
  axi::Checker chk(axi::dmaCheckerConfig(p), "dma_reader AXI");
  axi::Rng fill(202);
  for (auto& b : mem.image())
    b = static_cast<uint8_t>(fill.next());
  std::vector<Request> list;
  const uint32_t bb = static_cast<uint32_t>(p.beatBytes()), mb = static_cast<uint32_t>(p.maxBytes);
  for (uint32_t off = 0; off < bb; ++off)
    for (uint32_t len : {1u, bb - 1, bb, bb + 1, mb - off, mb - 1, mb}) {
      if (len == 0 || len > mb)
        continue;
      for (uint64_t base : {kMemBase + 0x1000 + off,           // inside a page
                            kMemBase + 0x2000 - len / 2 - off, // across a page boundary
                            kMemBase + 0x3000 - len,           // ending on a boundary
                            kMemBase + kMemSize - len + 1}) {  // one byte past the end
        Request r;
        r.addr = base;
        r.len = len;
        r.expectError = !mem.contains(r.addr, r.len);
        r.data.assign(len, 0);
        for (uint32_t k = 0; k < len; ++k)
          if (mem.contains(r.addr + k, 1))
            r.data[k] = mem.read8(r.addr + k);
        list.push_back(r);
      }
    }
  size_t next = 0;
  const RoundResult r = tb.run(mem, chk, {20, 3, 70}, 7, [&](Request& q) {
    if (next == list.size())
      return false;
    q = list[next++];
    return true;
  });
  chk.finish(tb.cycle());
  EXPECT_EQ(r.requests, list.size());
  EXPECT_TRUE(chk.clean()) << chk.report();
  EXPECT_EQ(r.bursts, r.expectedBursts);
}

TEST(DmaReader, ZeroAndOverlongLengths) {
  // Length 0 is answered with no data and no bus traffic; lengths above MaxBytes (the port can
  // carry up to 2*MaxBytes-1) are clamped to MaxBytes.
  const hw::DmaParams p = builtParams();
  ReaderTb tb(p);
  axi::Memory mem(memoryConfig(p, 3));
  axi::Checker chk(axi::dmaCheckerConfig(p), "dma_reader AXI");
  for (size_t i = 0; i < mem.image().size(); ++i)
    mem.image()[i] = static_cast<uint8_t>(i * 7 + 1);
  std::vector<Request> list(3);
  list[0].addr = kMemBase + 0x100;
  list[0].len = 0;
  list[1].addr = kMemBase + 0x203;
  list[1].len = 0;
  list[2].addr = kMemBase + 0x305;
  list[2].len = static_cast<uint32_t>(p.maxBytes + 1);
  list[2].data.resize(static_cast<size_t>(p.maxBytes));
  for (size_t k = 0; k < list[2].data.size(); ++k)
    list[2].data[k] = mem.read8(list[2].addr + k);
  size_t next = 0;
  const RoundResult r = tb.run(mem, chk, {}, 9, [&](Request& q) {
    if (next == list.size())
      return false;
    q = list[next++];
    return true;
  });
  EXPECT_EQ(r.requests, 3u);
  EXPECT_TRUE(chk.clean()) << chk.report();
  EXPECT_EQ(r.bursts, minBursts(list[2].addr, static_cast<uint32_t>(p.maxBytes), p));
}

TEST(DmaReader, MisplacedRlastIsReportedAsAnError) {
  const hw::DmaParams p = builtParams();
  ReaderTb tb(p);
  axi::Memory mem(memoryConfig(p, 4));
  axi::CheckerConfig cc = axi::dmaCheckerConfig(p);
  cc.print = false;
  axi::Checker chk(cc, "dma_reader AXI");
  bool done = false;
  tb.corrupt = [&](axi::Bus& bus) { // the first beat of the first burst gets RLAST inverted
    if (!done && bus.r.valid) {
      bus.r.last = !bus.r.last;
      done = bus.r.ready; // rready is always high in this engine
    }
  };
  std::vector<Request> list(2);
  list[0].addr = kMemBase + 0x400;
  list[0].len = static_cast<uint32_t>(p.maxBytes);
  list[0].expectError = true;
  list[0].data.assign(list[0].len, 0);
  list[1].addr = kMemBase + 0x800;
  list[1].len = static_cast<uint32_t>(p.maxBytes);
  list[1].data.assign(list[1].len, 0);
  size_t next = 0;
  // The first request must be answered with the error; the second, issued later, cleanly.
  const RoundResult r = tb.run(mem, chk, {}, 10, [&](Request& q) {
    if (next == list.size())
      return false;
    q = list[next++];
    return true;
  });
  EXPECT_EQ(r.requests, 2u);
  EXPECT_EQ(chk.violationCount(), 1u) << chk.report();
}

TEST(DmaReader, Throughput) {
  // Aligned MaxBytes requests back to back, responses always taken: bytes per cycle with an
  // ideal memory and with the config's DRAM latency (figures for docs/dma.md).
  const hw::DmaParams p = builtParams();
  const config::Config cfg = test::builtConfig();
  struct Case {
    const char* name;
    int latency;
    bool aligned;
    int len;     // 0: MaxBytes
    bool serial; // one request at a time: the latency of a request alone
  };
  const int dram = cfg.soc.dram.latencyCycles;
  for (const Case& c : {Case{"MaxBytes aligned, latency 0", 0, true, 0, false},
                        Case{"MaxBytes unaligned, latency 0", 0, false, 0, false},
                        Case{"one beat aligned, latency 0", 0, true, p.beatBytes(), false},
                        Case{"MaxBytes aligned, DRAM latency", dram, true, 0, false},
                        Case{"MaxBytes unaligned, DRAM latency", dram, false, 0, false},
                        Case{"one beat, one at a time, latency 0", 0, true, p.beatBytes(), true},
                        Case{"MaxBytes, one at a time, latency 0", 0, true, 0, true}}) {
    ReaderTb tb(p);
    axi::MemoryConfig mc = memoryConfig(p, 5);
    mc.minLatency = mc.maxLatency = c.latency;
    axi::Memory mem(mc);
    axi::Checker chk(axi::dmaCheckerConfig(p), "dma_reader AXI");
    int left = 1000;
    uint64_t addr = kMemBase + (c.aligned ? 0 : 3), bytes = 0;
    const RoundResult r = tb.run(mem, chk, {0, 0, 100, c.serial ? 1u : 0u}, 11, [&](Request& q) {
      if (left-- == 0)
        return false;
      q.addr = addr;
      q.len = static_cast<uint32_t>(c.len ? c.len : p.maxBytes);
      q.data.resize(q.len);
      for (uint32_t k = 0; k < q.len; ++k)
        q.data[k] = mem.read8(q.addr + k);
      addr =
          addr + 2 * q.len >= kMemBase + kMemSize ? kMemBase + (c.aligned ? 0 : 3) : addr + q.len;
      bytes += q.len;
      return true;
    });
    std::printf("[dma_reader %s] throughput %s (latency %d): %.2f bytes/cycle of %d, "
                "mean request latency %.1f cycles\n",
                variantName(), c.name, c.latency,
                static_cast<double>(bytes) / static_cast<double>(r.cycles), p.beatBytes(),
                static_cast<double>(r.latencySum) / static_cast<double>(r.requests));
    EXPECT_TRUE(chk.clean()) << chk.report();
    // Full bus bandwidth needs enough bursts in flight to cover a burst's round trip of
    // MaxBurst + 2 cycles (address register, first beat, ID release).
    if (c.latency == 0 && c.aligned && c.len == 0 && !c.serial &&
        p.maxInflight * p.maxBurst >= p.maxBurst + 2) { // then the R channel is the only limit
      EXPECT_GE(static_cast<double>(bytes) / static_cast<double>(r.cycles), 0.9 * p.beatBytes());
    }
  }
}
