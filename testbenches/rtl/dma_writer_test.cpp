// by_dma_writer against the AXI4 memory model: thousands of random requests (unaligned,
// 4 KiB-crossing, 1..MaxBytes, out of range) under random back-pressure and latency, with W
// beats accepted before or after their AW. The memory image is compared with an independently
// maintained copy (at every completion for the request's bytes, periodically and at the end
// for the whole image, which catches stray strobes); every completion's tag is seen exactly
// once with the right error flag; the protocol checker is silent; the number of bursts is
// minimal. Plus edge cases, slave errors and the throughput measured for docs/dma.md.
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
  int gapPercent = 0;
  int maxGap = 0;
  int doneReadyPercent = 100;
  size_t maxOutstanding = 0; // requests in flight at most (0: any)
};

struct RoundResult {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t cycles = 0;
  uint64_t bursts = 0;
  uint64_t expectedBursts = 0;
  uint64_t latencySum = 0;   // cycles from each request's acceptance to its answer
  uint64_t bytesCounted = 0; // sum of bytes_written_o
};

bool overlaps(const Request& a, const Request& b) {
  return a.addr < b.addr + b.len && b.addr < a.addr + a.len;
}

class WriterTb {
public:
  explicit WriterTb(const hw::DmaParams& p)
      : p_(p), ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<BY_MODEL>(ctx_.get(), "writer")) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~WriterTb() { dut_->final(); }

  std::function<void(axi::Bus&)> corrupt;

  /// Runs the requests from `next` to completion. `image` is the independent copy of the
  /// memory: a request's in-range bytes are applied to it when the request is issued (requests
  /// in flight never overlap, so the order in which they land does not matter).
  RoundResult run(axi::Memory& mem, axi::Checker& chk, std::vector<uint8_t>& image,
                  const Traffic& t, uint64_t seed, const std::function<bool(Request&)>& next) {
    axi::Rng rng(seed);
    TagPool tags(p_.tagWidth, seed + 1);
    CycleLoop<BY_MODEL> loop(*dut_, bus_, cycle_, mem, chk, corrupt, Direction::Write);
    bool more = true;
    bool doneReady = true;
    RoundResult res;
    // The completion port must hold still while it waits for ready.
    bool prevWaiting = false;
    uint32_t prevTag = 0;
    bool prevError = false;

    std::optional<Request> candidate; // the next request, waiting for overlaps to clear
    while (more || candidate || loop.pending || !loop.outstanding.empty()) {
      if (!candidate && more) {
        Request r;
        more = next(r);
        if (more)
          candidate = r;
      }
      // A request is offered only when it overlaps none in flight (their order on the bus is
      // free, so overlapping bytes would have no defined final value).
      bool clear = candidate && loop.mayOffer(t.maxOutstanding);
      for (auto it = loop.outstanding.begin(); clear && it != loop.outstanding.end(); ++it)
        clear = !overlaps(*candidate, it->second);
      if (clear) {
        Request r = *candidate;
        candidate.reset();
        r.tag = tags.take();
        const uint32_t len = std::min<uint32_t>(r.len, p_.maxBytes);
        for (uint32_t k = 0; k < len; ++k)
          if (mem.contains(r.addr + k, 1))
            image[r.addr + k - kMemBase] = r.data[k];
        res.expectedBursts += minBursts(r.addr, len, p_);
        res.bytes += len;
        loop.pending = r;
      }
      loop.lowHalf([&] {
        if (loop.pending)
          putBytes(dut_->req_data_i, loop.pending->data);
        dut_->done_ready_i = doneReady;
      });
      res.bytesCounted += dut_->bytes_written_o;

      if (prevWaiting) {
        EXPECT_TRUE(dut_->done_valid_o && dut_->done_tag_o == prevTag &&
                    dut_->done_error_o == prevError)
            << "completion dropped or changed while waiting for done_ready_i, cycle " << cycle_;
      }
      loop.acceptRequest(rng, t.gapPercent, t.maxGap);
      prevWaiting = dut_->done_valid_o && !doneReady;
      prevTag = dut_->done_tag_o;
      prevError = dut_->done_error_o;
      if (dut_->done_valid_o && doneReady) {
        loop.answered(dut_->done_tag_o, res);
        checkCompletion(loop.outstanding, mem, image);
        tags.give(dut_->done_tag_o);
        if (res.requests % 256 == 0) { // every byte not being written must already match
          EXPECT_TRUE(sameImage(mem, image, loop.outstanding, loop.pending))
              << "memory image, cycle " << cycle_;
        }
      }
      if (!loop.highHalf())
        break;
      doneReady = rng.percent(t.doneReadyPercent);
    }
    res.bytesCounted += loop.drain([&] { return dut_->bytes_written_o; });
    EXPECT_FALSE(dut_->busy_o) << "busy_o still high after the last completion";
    EXPECT_TRUE(sameImage(mem, image, {}, {})) << "memory image at the end";
    res.bursts = chk.writeBursts();
    return res;
  }

  uint64_t cycle() const { return cycle_; }

private:
  // The memory equals the copy, except for the bytes of requests still in flight.
  static bool sameImage(const axi::Memory& mem, const std::vector<uint8_t>& image,
                        const std::map<uint32_t, Request>& inFlight,
                        const std::optional<Request>& pending) {
    if (mem.image() == image)
      return true;
    auto busy = [&](uint64_t a) {
      for (const auto& [tag, r] : inFlight)
        if (a >= r.addr && a < r.addr + r.len)
          return true;
      return pending && a >= pending->addr && a < pending->addr + pending->len;
    };
    for (size_t i = 0; i < image.size(); ++i)
      if (mem.image()[i] != image[i] && !busy(kMemBase + i)) {
        std::printf("first difference at 0x%llx: memory 0x%02x, expected 0x%02x\n",
                    static_cast<unsigned long long>(kMemBase + i), mem.image()[i], image[i]);
        return false;
      }
    return true;
  }

  void checkCompletion(std::map<uint32_t, Request>& outstanding, const axi::Memory& mem,
                       const std::vector<uint8_t>& image) {
    const uint32_t tag = dut_->done_tag_o;
    auto it = outstanding.find(tag);
    if (it == outstanding.end()) {
      ADD_FAILURE() << "completion with tag " << tag << " that is not outstanding, cycle "
                    << cycle_;
      return;
    }
    const Request& r = it->second;
    EXPECT_EQ(static_cast<bool>(dut_->done_error_o), r.expectError)
        << "error flag, request addr 0x" << std::hex << r.addr << std::dec << " len " << r.len
        << " cycle " << cycle_;
    // All of the request's bytes have landed by its completion.
    size_t bad = 0;
    std::ostringstream where;
    const uint32_t len = std::min<uint32_t>(r.len, p_.maxBytes);
    for (uint32_t k = 0; k < len; ++k) {
      const uint64_t a = r.addr + k;
      if (!mem.contains(a, 1))
        continue;
      if (mem.read8(a) != image[a - kMemBase] && bad++ < 4)
        where << " byte " << k << ": memory 0x" << std::hex << int{mem.read8(a)} << " want 0x"
              << int{image[a - kMemBase]} << std::dec;
    }
    EXPECT_EQ(bad, 0u) << "memory after completion of addr 0x" << std::hex << r.addr << std::dec
                       << " len " << r.len << " tag " << tag << " cycle " << cycle_ << ":"
                       << where.str();
    outstanding.erase(it);
  }

  hw::DmaParams p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
  axi::Bus bus_;
  uint64_t cycle_ = 0;
};

/// Random requests with random data; `count` of them.
std::function<bool(Request&)> randomRequests(const hw::DmaParams& p, const axi::Memory& mem,
                                             uint64_t seed, int count, int errorPercent) {
  auto gen = std::make_shared<RequestGen>(p, seed, errorPercent);
  auto left = std::make_shared<int>(count);
  const std::size_t maxBytes = static_cast<std::size_t>(p.maxBytes);
  return [&mem, gen, left, maxBytes](Request& r) {
    if ((*left)-- <= 0)
      return false;
    r.len = gen->length();
    r.addr = gen->address(r.len);
    r.expectError = !mem.contains(r.addr, r.len);
    r.data.assign(maxBytes, 0);
    for (uint32_t k = 0; k < maxBytes; ++k) // bytes past len must not be written either
      r.data[k] = static_cast<uint8_t>(gen->rng().next());
    return true;
  };
}

/// A memory filled with random bytes, and its independent copy.
std::vector<uint8_t> fillRandom(axi::Memory& mem, uint64_t seed) {
  axi::Rng rng(seed);
  for (auto& b : mem.image())
    b = static_cast<uint8_t>(rng.next());
  return mem.image();
}

void report(const char* what, const RoundResult& r) {
  std::printf("[dma_writer %s] %s: %llu requests checked, %llu bytes, %llu bursts, %llu cycles, "
              "%.2f bytes/cycle, mean latency %.1f cycles\n",
              variantName(), what, static_cast<unsigned long long>(r.requests),
              static_cast<unsigned long long>(r.bytes), static_cast<unsigned long long>(r.bursts),
              static_cast<unsigned long long>(r.cycles),
              r.cycles ? static_cast<double>(r.bytes) / static_cast<double>(r.cycles) : 0.0,
              r.requests ? static_cast<double>(r.latencySum) / static_cast<double>(r.requests)
                         : 0.0);
}

std::function<bool(Request&)> fromList(const std::vector<Request>& list) {
  auto next = std::make_shared<size_t>(0);
  return [&list, next](Request& q) {
    if (*next == list.size())
      return false;
    q = list[(*next)++];
    return true;
  };
}

} // namespace

TEST(DmaWriter, RandomRequestsUnderStress) {
  const hw::DmaParams p = builtParams();
  const uint64_t seed = test::testSeed(301, std::string("dma writer random ") + variantName());
  WriterTb tb(p);
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
  slow.maxEarlyWBeats = 0; // a slave that waits for AW before taking W
  phases.push_back({"latency 100, W after AW", slow, {10, 20, 90}});
  axi::MemoryConfig choked = stressMemory(p, seed + 3);
  choked.awReadyPercent = 15;
  choked.wReadyPercent = 40;
  choked.bGapPercent = 60;
  phases.push_back({"heavy back-pressure", choked, {0, 0, 25}});
  for (size_t i = 0; i < phases.size(); ++i) {
    axi::Memory mem(phases[i].mem);
    axi::Checker chk(axi::dmaCheckerConfig(p), "dma_writer AXI");
    std::vector<uint8_t> image = fillRandom(mem, seed + 30 + i);
    RoundResult r = tb.run(mem, chk, image, phases[i].traffic, seed + 20 + i,
                           randomRequests(p, mem, seed + 10 + i, 2500, 8));
    chk.finish(tb.cycle());
    report(phases[i].name, r);
    std::printf("[dma_writer %s]   W beats before their AW: %llu\n", variantName(),
                static_cast<unsigned long long>(mem.stats().earlyWBeats));
    EXPECT_EQ(r.requests, 2500u) << phases[i].name;
    EXPECT_TRUE(chk.clean()) << chk.report();
    EXPECT_EQ(r.bursts, r.expectedBursts) << "bursts are not split minimally";
    EXPECT_EQ(r.bytesCounted, r.bytes) << "bytes_written_o";
    if (HasFailure())
      return;
  }
}

TEST(DmaWriter, EveryOffsetAndEdgeLength) {
  const hw::DmaParams p = builtParams();
  WriterTb tb(p);
  axi::Memory mem(stressMemory(p, test::testSeed(402, "dma writer edges")));
  axi::Checker chk(axi::dmaCheckerConfig(p), "dma_writer AXI");
  std::vector<uint8_t> image = fillRandom(mem, 402);
  axi::Rng rng(403);
  std::vector<Request> list;
  const uint32_t bb = static_cast<uint32_t>(p.beatBytes()), mb = static_cast<uint32_t>(p.maxBytes);
  for (uint32_t off = 0; off < bb; ++off)
    for (uint32_t len : {1u, bb - 1, bb, bb + 1, mb - off, mb - 1, mb}) {
      if (len == 0 || len > mb)
        continue;
      for (uint64_t base : {kMemBase + 0x1000 + off, kMemBase + 0x2000 - len / 2 - off,
                            kMemBase + 0x3000 - len, kMemBase + kMemSize - len + 1}) {
        Request r;
        r.addr = base;
        r.len = len;
        r.expectError = !mem.contains(r.addr, r.len);
        r.data.resize(mb);
        for (auto& b : r.data)
          b = static_cast<uint8_t>(rng.next());
        list.push_back(r);
      }
    }
  const RoundResult r = tb.run(mem, chk, image, {20, 3, 70}, 7, fromList(list));
  chk.finish(tb.cycle());
  EXPECT_EQ(r.requests, list.size());
  EXPECT_TRUE(chk.clean()) << chk.report();
  EXPECT_EQ(r.bursts, r.expectedBursts);
}

TEST(DmaWriter, ZeroAndOverlongLengths) {
  // Length 0 completes with no bus traffic; lengths above MaxBytes are clamped to MaxBytes.
  const hw::DmaParams p = builtParams();
  WriterTb tb(p);
  axi::Memory mem(memoryConfig(p, 3));
  axi::Checker chk(axi::dmaCheckerConfig(p), "dma_writer AXI");
  std::vector<uint8_t> image = fillRandom(mem, 3);
  std::vector<Request> list(3);
  list[0].addr = kMemBase + 0x100;
  list[1].addr = kMemBase + 0x203;
  list[2].addr = kMemBase + 0x305;
  list[2].len = static_cast<uint32_t>(p.maxBytes + 1);
  for (Request& r : list) {
    r.data.resize(static_cast<size_t>(p.maxBytes));
    for (size_t k = 0; k < r.data.size(); ++k)
      r.data[k] = static_cast<uint8_t>(k + 0x40);
  }
  const RoundResult r = tb.run(mem, chk, image, {}, 9, fromList(list));
  EXPECT_EQ(r.requests, 3u);
  EXPECT_TRUE(chk.clean()) << chk.report();
  EXPECT_EQ(r.bursts, minBursts(list[2].addr, static_cast<uint32_t>(p.maxBytes), p));
}

TEST(DmaWriter, SlaveErrorOnOneBurstFailsOnlyItsRequest) {
  // A request split in two bursts (it crosses a page) where the slave answers one with SLVERR:
  // that request fails; the next one, to the same page, does not.
  const hw::DmaParams p = builtParams();
  WriterTb tb(p);
  axi::Memory mem(memoryConfig(p, 5));
  axi::CheckerConfig cc = axi::dmaCheckerConfig(p);
  axi::Checker chk(cc, "dma_writer AXI");
  std::vector<uint8_t> image = fillRandom(mem, 5);
  int responses = 0;
  tb.corrupt = [&](axi::Bus& bus) {
    if (bus.b.valid && responses == 0)
      bus.b.resp = axi::kSlvErr;
    if (bus.b.valid && bus.b.ready)
      ++responses;
  };
  std::vector<Request> list(2);
  list[0].addr = kMemBase + 0x1000 - 5;
  list[0].len = 10;
  list[0].expectError = true;
  list[1].addr = kMemBase + 0x1040;
  list[1].len = 10;
  for (Request& r : list)
    r.data.assign(static_cast<size_t>(p.maxBytes), 0x5A);
  const RoundResult r = tb.run(mem, chk, image, {}, 9, fromList(list));
  EXPECT_EQ(r.requests, 2u);
  EXPECT_TRUE(chk.clean()) << chk.report();
}

TEST(DmaWriter, Throughput) {
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
    WriterTb tb(p);
    axi::MemoryConfig mc = memoryConfig(p, 5);
    mc.minLatency = mc.maxLatency = c.latency;
    axi::Memory mem(mc);
    axi::Checker chk(axi::dmaCheckerConfig(p), "dma_writer AXI");
    std::vector<uint8_t> image = mem.image();
    int left = 1000;
    const uint64_t first = kMemBase + (c.aligned ? 0 : 3);
    uint64_t addr = first;
    const RoundResult r =
        tb.run(mem, chk, image, {0, 0, 100, c.serial ? 1u : 0u}, 11, [&](Request& q) {
          if (left-- == 0)
            return false;
          q.addr = addr;
          q.len = static_cast<uint32_t>(c.len ? c.len : p.maxBytes);
          q.data.assign(q.len, static_cast<uint8_t>(left));
          addr = addr + 2 * q.len >= kMemBase + kMemSize ? first : addr + q.len;
          return true;
        });
    std::printf("[dma_writer %s] throughput %s (latency %d): %.2f bytes/cycle of %d, "
                "mean request latency %.1f cycles\n",
                variantName(), c.name, c.latency,
                static_cast<double>(r.bytes) / static_cast<double>(r.cycles), p.beatBytes(),
                static_cast<double>(r.latencySum) / static_cast<double>(r.requests));
    EXPECT_TRUE(chk.clean()) << chk.report();
    // Full bus bandwidth needs enough bursts in flight to cover a burst's round trip of
    // MaxBurst + 2 cycles (address register, first beat, ID release).
    if (c.latency == 0 && c.aligned && c.len == 0 && !c.serial &&
        p.maxInflight * p.maxBurst >= p.maxBurst + 2) { // then the W channel is the only limit
      EXPECT_GE(static_cast<double>(r.bytes) / static_cast<double>(r.cycles), 0.9 * p.beatBytes());
    }
  }
}
