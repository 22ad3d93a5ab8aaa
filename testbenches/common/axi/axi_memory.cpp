#include "axi/axi_memory.h"

#include <algorithm>
#include <stdexcept>

namespace by::axi {

namespace {

// True when `id` occurs in entries [0, end) of `list` (the same-ID order rule: only the oldest
// entry of an ID may be answered). Lists are short (outstanding transactions).
template <typename List, typename GetId>
bool idSeenBefore(const List& list, size_t end, uint32_t id, GetId getId) {
  for (size_t i = 0; i < end; ++i)
    if (getId(list[i]) == id)
      return true;
  return false;
}

} // namespace

Memory::Memory(const MemoryConfig& config) : cfg_(config), mem_(config.size), rng_(config.seed) {
  if (cfg_.dataBytes < 1 || cfg_.dataBytes > kMaxDataBytes ||
      (cfg_.dataBytes & (cfg_.dataBytes - 1)) != 0)
    throw std::invalid_argument("axi::Memory: dataBytes must be a power of two <= 128");
  if (cfg_.minLatency < 0 || cfg_.maxLatency < cfg_.minLatency)
    throw std::invalid_argument("axi::Memory: need 0 <= minLatency <= maxLatency");
  arReady_ = rng_.percent(cfg_.arReadyPercent);
  awReady_ = rng_.percent(cfg_.awReadyPercent);
  wReady_ = rng_.percent(cfg_.wReadyPercent) && cfg_.maxEarlyWBeats > 0;
}

bool Memory::contains(uint64_t addr, uint64_t bytes) const {
  return addr >= cfg_.base && bytes <= cfg_.size && addr - cfg_.base <= cfg_.size - bytes;
}

bool Memory::idle() const {
  return reads_.empty() && writes_.empty() && earlyW_.empty() && responses_.empty() && !rOut_ &&
         !bOut_;
}

int Memory::latency() {
  return static_cast<int>(rng_.range(cfg_.minLatency, cfg_.maxLatency));
}

void Memory::drive(Bus& bus) const {
  bus.ar.ready = arReady_;
  bus.aw.ready = awReady_;
  bus.w.ready = wReady_;
  const bool rready = bus.r.ready;
  bus.r = rOut_ ? *rOut_ : RChannel{};
  bus.r.ready = rready;
  const bool bready = bus.b.ready;
  bus.b = bOut_ ? *bOut_ : BChannel{};
  bus.b.ready = bready;
}

void Memory::tick(const Bus& bus) {
  // Handshakes of this cycle, in an order that respects causality: an AW and its first W beat
  // may fire together, so the AW is queued first.
  if (bus.ar.valid && arReady_) {
    reads_.push_back({bus.ar, 0, now_ + 1 + static_cast<uint64_t>(latency())});
    ++stats_.readBursts;
  }
  if (rOut_ && bus.r.ready) {
    Read& rd = reads_[rIndex_];
    ++stats_.readBeats;
    if (rOut_->resp != kOkay)
      ++stats_.errorResponses;
    if (rd.beat++ == rd.a.len) {
      reads_.erase(reads_.begin() + static_cast<std::ptrdiff_t>(rIndex_));
      rBurstOpen_ = false;
    } else {
      rBurstOpen_ = true;
    }
    rOut_.reset();
  }
  if (bus.aw.valid && awReady_) {
    writes_.push_back({bus.aw, 0, false});
    ++stats_.writeBursts;
    while (!earlyW_.empty() && !writes_.empty()) {
      writeBeat(writes_.front(), earlyW_.front().data, earlyW_.front().strb);
      earlyW_.pop_front();
      completeWrites();
    }
  }
  if (bus.w.valid && wReady_) {
    ++stats_.writeBeats;
    if (limited())
      credit_ -= cfg_.dataBytes;
    if (writes_.empty()) {
      earlyW_.push_back({bus.w.data, bus.w.strb});
      ++stats_.earlyWBeats;
    } else {
      writeBeat(writes_.front(), bus.w.data, bus.w.strb);
      completeWrites();
    }
  }
  if (bOut_ && bus.b.ready) {
    if (bOut_->resp != kOkay)
      ++stats_.errorResponses;
    responses_.erase(responses_.begin() + static_cast<std::ptrdiff_t>(bIndex_));
    bOut_.reset();
  }

  // Outputs of the next cycle.
  if (limited())
    credit_ = std::min(credit_ + cfg_.bytesPerCycle, cfg_.dataBytes);
  if (!rOut_)
    chooseReadBeat();
  if (!bOut_)
    chooseResponse();
  arReady_ =
      rng_.percent(cfg_.arReadyPercent) && reads_.size() < static_cast<size_t>(cfg_.maxReads);
  awReady_ = rng_.percent(cfg_.awReadyPercent) &&
             writes_.size() + responses_.size() < static_cast<size_t>(cfg_.maxWrites);
  wReady_ = rng_.percent(cfg_.wReadyPercent) &&
            (!writes_.empty() || earlyW_.size() < static_cast<size_t>(cfg_.maxEarlyWBeats)) &&
            (!limited() || credit_ >= cfg_.dataBytes);
  ++now_;
  ++stats_.cycles;
}

void Memory::chooseReadBeat() {
  const uint64_t next = now_ + 1;
  size_t pick = reads_.size();
  if (!cfg_.interleaveReads && rBurstOpen_) {
    pick = rIndex_; // finish the open burst first
  } else {
    // Eligible: ready, and the oldest outstanding read of its ID. Pick one at random.
    size_t eligible = 0;
    for (size_t i = 0; i < reads_.size(); ++i) {
      if (reads_[i].readyAt > next ||
          idSeenBefore(reads_, i, reads_[i].a.id, [](const Read& r) { return r.a.id; }))
        continue;
      ++eligible;
      if (cfg_.oldestFirst) { // reads_ is in AR order
        pick = i;
        break;
      }
      if (rng_.next() % eligible == 0) // reservoir sampling: uniform over the eligible reads
        pick = i;
    }
  }
  if (pick >= reads_.size() || rng_.percent(cfg_.rGapPercent) ||
      (limited() && credit_ < cfg_.dataBytes))
    return;
  if (limited())
    credit_ -= cfg_.dataBytes;
  const Read& rd = reads_[pick];
  const BeatLanes lanes = beatLanes(rd.a, rd.beat, cfg_.dataBytes);
  const uint64_t busBase = lanes.addr / cfg_.dataBytes * cfg_.dataBytes;
  RChannel r;
  r.valid = true;
  r.id = rd.a.id;
  r.last = rd.beat == rd.a.len;
  r.resp = kOkay;
  for (int lane = lanes.firstLane; lane <= lanes.lastLane; ++lane) {
    const uint64_t addr = busBase + lane;
    if (contains(addr, 1))
      r.data.setByte(lane, read8(addr));
    else
      r.resp = kSlvErr;
  }
  rOut_ = r;
  rIndex_ = pick;
}

void Memory::chooseResponse() {
  const uint64_t next = now_ + 1;
  size_t pick = responses_.size();
  size_t eligible = 0;
  for (size_t i = 0; i < responses_.size(); ++i) {
    if (responses_[i].readyAt > next ||
        idSeenBefore(responses_, i, responses_[i].id, [](const Response& r) { return r.id; }))
      continue;
    ++eligible;
    if (rng_.next() % eligible == 0)
      pick = i;
  }
  if (pick >= responses_.size() || rng_.percent(cfg_.bGapPercent))
    return;
  BChannel b;
  b.valid = true;
  b.id = responses_[pick].id;
  b.resp = responses_[pick].resp;
  bOut_ = b;
  bIndex_ = pick;
}

void Memory::writeBeat(Write& w, const Data& data, const Strb& strb) {
  const BeatLanes lanes = beatLanes(w.a, w.beats, cfg_.dataBytes);
  const uint64_t busBase = lanes.addr / cfg_.dataBytes * cfg_.dataBytes;
  for (int lane = lanes.firstLane; lane <= lanes.lastLane; ++lane)
    if (!contains(busBase + lane, 1))
      w.error = true; // the beat addresses bytes outside the memory
  for (int lane = 0; lane < cfg_.dataBytes; ++lane)
    if (strb.bit(lane) && contains(busBase + lane, 1))
      write8(busBase + lane, data.byte(lane));
  ++w.beats;
}

void Memory::completeWrites() {
  while (!writes_.empty() && writes_.front().beats == writes_.front().a.len + 1) {
    const Write& w = writes_.front();
    responses_.push_back(
        {w.a.id, w.error ? kSlvErr : kOkay, now_ + 1 + static_cast<uint64_t>(latency())});
    writes_.pop_front();
  }
}

} // namespace by::axi
