// The cycle loop the DMA reader and writer block tests share: the request port (offer,
// handshake, random idle gaps, requests in flight), the clock, the watchdog and the drain at
// the end. Each test adds its own answer port (the reader's responses, the writer's
// completions) between lowHalf() and highHalf().
#pragma once

#include "axi/axi_checker.h"
#include "axi/axi_memory.h"
#include "axi/axi_verilator.h"
#include "dma_harness.h"

#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace by::test::dma {

/// Which side of the bus the DUT drives: named in the watchdog's report.
enum class Direction { Read, Write };

template <class Dut> class CycleLoop {
public:
  CycleLoop(Dut& dut, axi::Bus& bus, uint64_t& cycle, axi::Memory& mem, axi::Checker& chk,
            const std::function<void(axi::Bus&)>& corrupt, Direction direction)
      : dut_(dut), bus_(bus), cycle_(cycle), mem_(mem), chk_(chk), corrupt_(corrupt),
        direction_(direction), lastProgress_(cycle) {}

  std::optional<Request> pending;          // offered on the request port
  std::map<uint32_t, Request> outstanding; // accepted and not answered yet, by tag

  /// The next request may be offered: none pending, no idle gap running, fewer than
  /// `maxOutstanding` in flight (0: any number).
  bool mayOffer(size_t maxOutstanding) const {
    return !pending && gap_ == 0 && (maxOutstanding == 0 || outstanding.size() < maxOutstanding);
  }

  /// Clock low: the memory drives the bus (through the fault hook), the request port offers
  /// the pending request, `driveOwnPorts` drives the test's own inputs (request data, the
  /// answer port's ready), the DUT settles and the protocol checker sees the bus.
  template <class DriveOwnPorts> void lowHalf(DriveOwnPorts&& driveOwnPorts) {
    mem_.drive(bus_);
    if (corrupt_)
      corrupt_(bus_);
    axi::toDut(dut_, bus_);
    dut_.req_valid_i = pending.has_value();
    if (pending) {
      dut_.req_addr_i = static_cast<uint32_t>(pending->addr);
      dut_.req_len_i = pending->len;
      dut_.req_tag_i = pending->tag;
    }
    driveOwnPorts();
    dut_.clk_i = 0;
    dut_.eval();
    axi::fromDut(dut_, bus_);
    chk_.observe(bus_, cycle_);
  }

  /// The request handshake: an accepted request moves to `outstanding`, and an idle gap of
  /// 1..maxGap cycles follows with `gapPercent` chance.
  void acceptRequest(axi::Rng& rng, int gapPercent, int maxGap) {
    if (pending && dut_.req_ready_o) {
      if (!started_)
        start_ = cycle_, started_ = true;
      pending->acceptCycle = cycle_;
      outstanding[pending->tag] = *pending;
      pending.reset();
      gap_ = rng.percent(gapPercent) ? static_cast<int>(rng.range(1, maxGap)) : 0;
      lastProgress_ = cycle_;
    } else if (gap_ > 0) {
      --gap_;
    }
  }

  /// Book-keeping for an answer to `tag` (before the test checks it and retires the tag): its
  /// latency, the request count and the cycles from the first acceptance.
  template <class Result> void answered(uint32_t tag, Result& res) {
    if (auto it = outstanding.find(tag); it != outstanding.end())
      res.latencySum += cycle_ - it->second.acceptCycle;
    ++res.requests;
    res.cycles = cycle_ + 1 - start_;
    lastProgress_ = cycle_;
  }

  /// Clock high. False when the loop must stop: the watchdog fired, or a check failed (the
  /// first mismatch tells the story; do not bury it under more).
  bool highHalf() {
    mem_.tick(bus_);
    dut_.clk_i = 1;
    dut_.eval();
    ++cycle_;
    if (cycle_ - lastProgress_ > kWatchdogCycles) {
      ADD_FAILURE() << hangReport();
      return false;
    }
    return !::testing::Test::HasFailure();
  }

  /// Two idle cycles after the last answer, so that the registered byte counter's last value
  /// comes out; returns what `countedBytes` (the counter port) showed in them.
  template <class CountedBytes> uint64_t drain(CountedBytes&& countedBytes) {
    uint64_t bytes = 0;
    for (int i = 0; i < 2; ++i) {
      mem_.drive(bus_);
      axi::toDut(dut_, bus_);
      dut_.req_valid_i = 0;
      dut_.clk_i = 0;
      dut_.eval();
      bytes += countedBytes();
      dut_.clk_i = 1;
      dut_.eval();
      ++cycle_;
    }
    return bytes;
  }

private:
  std::string hangReport() const {
    const bool read = direction_ == Direction::Read;
    std::ostringstream os;
    os << "watchdog: no progress for " << kWatchdogCycles << " cycles at cycle " << cycle_ << "; "
       << outstanding.size() << " requests outstanding (";
    for (const auto& [tag, r] : outstanding)
      os << " tag " << tag << "@0x" << std::hex << r.addr << std::dec << "+" << r.len;
    os << " ); busy_o " << int{dut_.busy_o} << ", req_ready_o " << int{dut_.req_ready_o}
       << "; memory idle " << mem_.idle() << ", "
       << (read ? chk_.outstandingReads() : chk_.outstandingWrites())
       << (read ? " reads" : " writes") << " outstanding on the bus\n"
       << chk_.report();
    return os.str();
  }

  Dut& dut_;
  axi::Bus& bus_;
  uint64_t& cycle_;
  axi::Memory& mem_;
  axi::Checker& chk_;
  const std::function<void(axi::Bus&)>& corrupt_;
  Direction direction_;
  int gap_ = 0;
  uint64_t start_ = 0, lastProgress_;
  bool started_ = false;
};

} // namespace by::test::dma
