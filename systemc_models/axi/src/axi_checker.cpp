#include "axi/axi_checker.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace by::axi {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The handshake rules of A3.2.1 for one channel, given its previous and current cycle.
template <typename Channel>
void checkHandshake(const Channel& before, const Channel& now, uint64_t cycle, const char* ch,
                    ViolationLog& log) {
  if (!before.valid || before.ready)
    return;
  if (!now.valid)
    log.add(cycle, ch, "VALID dropped before READY (A3.2.1)");
  else if (!now.samePayload(before))
    log.add(cycle, ch, "payload changed while VALID was waiting for READY (A3.2.1)");
}

// A transfer offered for the first time this cycle (not one still waiting for READY).
template <typename Channel>
bool newlyValid(const Channel& before, const Channel& now, bool havePrev) {
  return now.valid && !(havePrev && before.valid && !before.ready);
}

} // namespace

void ViolationLog::add(uint64_t cycle, const char* channel, const std::string& message) {
  ++count_;
  if (list_.size() >= maxStored_)
    return;
  list_.push_back({cycle, channel, message});
  if (print_)
    std::fprintf(stderr, "[%s] cycle %llu: %s: %s\n", name_.c_str(),
                 static_cast<unsigned long long>(cycle), channel, message.c_str());
}

std::string ViolationLog::report() const {
  std::ostringstream os;
  os << name_ << ": " << count_ << " protocol violation" << (count_ == 1 ? "" : "s");
  if (count_ > list_.size())
    os << " (first " << list_.size() << " shown)";
  os << "\n";
  for (const Violation& v : list_)
    os << "  cycle " << v.cycle << " " << v.channel << ": " << v.message << "\n";
  return os.str();
}

// --- AXI4.

Checker::Checker(const CheckerConfig& config, std::string name)
    : cfg_(config), log_(std::move(name), config.maxStored, config.print) {}

void Checker::observe(const Bus& bus, uint64_t cycle) {
  if (havePrev_) {
    checkHandshake(prev_.ar, bus.ar, cycle, "AR", log_);
    checkHandshake(prev_.aw, bus.aw, cycle, "AW", log_);
    checkHandshake(prev_.w, bus.w, cycle, "W", log_);
    checkHandshake(prev_.r, bus.r, cycle, "R", log_);
    checkHandshake(prev_.b, bus.b, cycle, "B", log_);
  }
  // Payload rules, once per transfer.
  if (newlyValid(prev_.ar, bus.ar, havePrev_))
    checkAddress(bus.ar, cycle, "AR");
  if (newlyValid(prev_.aw, bus.aw, havePrev_))
    checkAddress(bus.aw, cycle, "AW");
  if (newlyValid(prev_.w, bus.w, havePrev_)) {
    checkData(bus.w.data, cycle, "W");
    for (int i = cfg_.dataBytes; i < kMaxDataBytes; ++i)
      if (bus.w.strb.bit(i)) {
        fail(cycle, "W",
             "WSTRB bit " + std::to_string(i) + " beyond the " + std::to_string(cfg_.dataBytes) +
                 "-byte bus");
        break;
      }
  }
  // Responses may only answer what was requested before this cycle, so they are checked
  // before this cycle's address handshakes are recorded.
  if (newlyValid(prev_.r, bus.r, havePrev_)) {
    checkData(bus.r.data, cycle, "R");
    checkResp(bus.r.resp, cycle, "R");
    auto it = reads_.find(bus.r.id);
    if (it == reads_.end() || it->second.empty())
      fail(cycle, "R", "RVALID for ID " + std::to_string(bus.r.id) + " with no read outstanding");
  }
  if (newlyValid(prev_.b, bus.b, havePrev_)) {
    checkResp(bus.b.resp, cycle, "B");
    auto it = writes_.find(bus.b.id);
    if (it == writes_.end() || it->second.empty())
      fail(cycle, "B", "BVALID for ID " + std::to_string(bus.b.id) + " with no write outstanding");
    else if (!it->second.front().dataDone)
      fail(cycle, "B",
           "BVALID for ID " + std::to_string(bus.b.id) +
               " before the last W beat of its burst (A3.3.1)");
  }
  if (bus.r.fire())
    acceptR(bus.r, cycle);
  if (bus.b.fire())
    acceptB(bus.b, cycle);
  if (bus.ar.fire())
    acceptAr(bus.ar, cycle);
  if (bus.aw.fire())
    acceptAw(bus.aw, cycle); // before W: an AW and its first beat may fire together
  if (bus.w.fire())
    writeBeat(bus.w.strb, bus.w.last, cycle);
  prev_ = bus;
  havePrev_ = true;
}

void Checker::checkData(const Data& d, uint64_t cycle, const char* ch) {
  for (int byte = cfg_.dataBytes; byte < kMaxDataBytes; ++byte)
    if (d.byte(byte) != 0) {
      fail(cycle, ch,
           "data bits set beyond the " + std::to_string(cfg_.dataBytes) + "-byte bus (byte " +
               std::to_string(byte) + ")");
      return;
    }
}

void Checker::checkResp(uint32_t resp, uint64_t cycle, const char* ch) {
  if (resp > 3)
    fail(cycle, ch, "response " + std::to_string(resp) + " does not fit 2 bits");
  else if (resp == kExOkay)
    fail(cycle, ch, "EXOKAY without an exclusive access");
}

void Checker::checkAddress(const AddrChannel& a, uint64_t cycle, const char* ch) {
  const std::string x(ch);
  const uint64_t bytes = uint64_t{1} << (a.size & 7);
  if (a.id >> cfg_.idBits)
    fail(cycle, ch,
         x + "ID " + std::to_string(a.id) + " does not fit " + std::to_string(cfg_.idBits) +
             " bits");
  if (cfg_.addrBits < 64 && (a.addr >> cfg_.addrBits))
    fail(cycle, ch,
         x + "ADDR " + hex(a.addr) + " does not fit " + std::to_string(cfg_.addrBits) + " bits");
  if (a.len > 255)
    fail(cycle, ch, x + "LEN " + std::to_string(a.len) + " does not fit 8 bits");
  if (a.size > 7)
    fail(cycle, ch, x + "SIZE " + std::to_string(a.size) + " does not fit 3 bits");
  if (a.cache > 15 || a.prot > 7)
    fail(cycle, ch, x + "CACHE/" + x + "PROT do not fit 4/3 bits");
  if (a.burst > 2) {
    fail(cycle, ch, x + "BURST " + std::to_string(a.burst) + " is reserved");
    return;
  }
  if (bytes > static_cast<uint64_t>(cfg_.dataBytes))
    fail(cycle, ch,
         x + "SIZE " + std::to_string(a.size) + " (" + std::to_string(bytes) +
             " bytes) is wider than the " + std::to_string(cfg_.dataBytes) + "-byte bus");
  if (cfg_.incrOnly && a.burst != kIncr)
    fail(cycle, ch, x + "BURST " + std::to_string(a.burst) + ": only INCR is expected");
  if (cfg_.fullWidth && bytes != static_cast<uint64_t>(cfg_.dataBytes))
    fail(cycle, ch,
         x + "SIZE " + std::to_string(a.size) + ": full-width beats of " +
             std::to_string(cfg_.dataBytes) + " bytes expected");
  if (cfg_.busAligned && a.addr % cfg_.dataBytes)
    fail(cycle, ch, x + "ADDR " + hex(a.addr) + " is not aligned to the bus width");
  if (a.len + 1 > static_cast<uint32_t>(cfg_.maxBurst))
    fail(cycle, ch,
         x + "LEN " + std::to_string(a.len) + ": more than " + std::to_string(cfg_.maxBurst) +
             " beats");
  const uint64_t total = bytes * (a.len + 1);
  if (a.burst == kWrap) {
    if (a.len != 1 && a.len != 3 && a.len != 7 && a.len != 15)
      fail(cycle, ch, "WRAP burst of " + std::to_string(a.len + 1) + " beats (A3.4.1)");
    if (a.addr % bytes)
      fail(cycle, ch, "WRAP burst at unaligned address " + hex(a.addr) + " (A3.4.1)");
  } else if (a.burst == kFixed) {
    if (a.len > 15)
      fail(cycle, ch, "FIXED burst of " + std::to_string(a.len + 1) + " beats (A3.4.1)");
  } else {
    const uint64_t last = a.addr / bytes * bytes + total - 1;
    if ((a.addr >> 12) != (last >> 12))
      fail(cycle, ch,
           "burst " + hex(a.addr) + ".." + hex(last) + " crosses a 4 KiB boundary (A3.4.1)");
  }
}

void Checker::acceptAr(const AddrChannel& a, uint64_t cycle) {
  ++readBursts_;
  ++readsOut_;
  std::deque<Burst>& q = reads_[a.id];
  if (cfg_.uniqueIds && !q.empty())
    fail(cycle, "AR", "ARID " + std::to_string(a.id) + " reused while a read is outstanding");
  if (cfg_.maxReads && readsOut_ > static_cast<uint64_t>(cfg_.maxReads))
    fail(cycle, "AR",
         std::to_string(readsOut_) + " reads outstanding, more than " +
             std::to_string(cfg_.maxReads));
  q.push_back({a, 0, false, 0});
}

void Checker::acceptR(const RChannel& r, uint64_t cycle) {
  if (!cfg_.allowReadInterleave) {
    if (rBurstOpen_ && r.id != rOpenId_)
      fail(cycle, "R",
           "beat of ID " + std::to_string(r.id) + " interleaved into the burst of ID " +
               std::to_string(rOpenId_));
    rBurstOpen_ = true;
    rOpenId_ = r.id;
  }
  auto it = reads_.find(r.id);
  if (it == reads_.end() || it->second.empty())
    return; // reported when it became valid
  Burst& burst = it->second.front();
  const bool lastExpected = burst.beats == burst.a.len;
  if (r.last != lastExpected)
    fail(cycle, "R",
         std::string("RLAST ") + (r.last ? "set" : "missing") + " on beat " +
             std::to_string(burst.beats) + " of a " + std::to_string(burst.a.len + 1) +
             "-beat burst, ID " + std::to_string(r.id) + " at " + hex(burst.a.addr));
  ++burst.beats;
  if (lastExpected) {
    it->second.pop_front();
    --readsOut_;
    rBurstOpen_ = false;
  }
}

void Checker::acceptAw(const AddrChannel& a, uint64_t cycle) {
  ++writeBursts_;
  ++writesOut_;
  std::deque<Burst>& q = writes_[a.id];
  if (cfg_.uniqueIds && !q.empty())
    fail(cycle, "AW", "AWID " + std::to_string(a.id) + " reused while a write is outstanding");
  if (cfg_.maxWrites && writesOut_ > static_cast<uint64_t>(cfg_.maxWrites))
    fail(cycle, "AW",
         std::to_string(writesOut_) + " writes outstanding, more than " +
             std::to_string(cfg_.maxWrites));
  q.push_back({a, 0, false, writeBursts_});
  wPending_.emplace_back(a.id, writeBursts_);
  // W beats that came first belong to this burst (all earlier ones have their beats).
  while (!earlyW_.empty() && !wPending_.empty()) {
    const EarlyBeat beat = earlyW_.front();
    earlyW_.pop_front();
    writeBeat(beat.strb, beat.last, beat.cycle);
  }
}

void Checker::writeBeat(const Strb& strb, bool last, uint64_t cycle) {
  if (wPending_.empty()) {
    if (!cfg_.allowWBeforeAw)
      fail(cycle, "W", "W beat before its AW");
    earlyW_.push_back({strb, last, cycle});
    return;
  }
  const auto [id, seq] = wPending_.front();
  Burst* burst = nullptr;
  for (Burst& b : writes_[id])
    if (b.seq == seq)
      burst = &b;
  if (!burst)
    return; // cannot happen: a pending burst stays in writes_ until its B
  const AddrChannel& a = burst->a;
  const bool lastExpected = burst->beats == a.len;
  if (last != lastExpected)
    fail(cycle, "W",
         std::string("WLAST ") + (last ? "set" : "missing") + " on beat " +
             std::to_string(burst->beats) + " of a " + std::to_string(a.len + 1) +
             "-beat burst, AWID " + std::to_string(id) + " at " + hex(a.addr));
  const BeatLanes lanes = beatLanes(a, burst->beats, cfg_.dataBytes);
  for (int lane = 0; lane < cfg_.dataBytes; ++lane)
    if (strb.bit(lane) && (lane < lanes.firstLane || lane > lanes.lastLane)) {
      fail(cycle, "W",
           "WSTRB lane " + std::to_string(lane) + " outside lanes " +
               std::to_string(lanes.firstLane) + ".." + std::to_string(lanes.lastLane) +
               " of beat " + std::to_string(burst->beats) + " at " + hex(lanes.addr) + " (A3.4.3)");
      break;
    }
  if (++burst->beats == a.len + 1) {
    burst->dataDone = true;
    wPending_.pop_front();
  }
}

void Checker::acceptB(const BChannel& b, uint64_t cycle) {
  (void)cycle;
  auto it = writes_.find(b.id);
  if (it == writes_.end() || it->second.empty())
    return; // reported when it became valid
  if (!it->second.front().dataDone) {
    // Reported at BVALID; drop its pending W entry too so that later beats stay in step.
    const uint64_t seq = it->second.front().seq;
    for (auto p = wPending_.begin(); p != wPending_.end(); ++p)
      if (p->second == seq) {
        wPending_.erase(p);
        break;
      }
  }
  it->second.pop_front();
  --writesOut_;
}

void Checker::finish(uint64_t cycle) {
  for (const auto& [id, q] : reads_)
    for (const Burst& b : q)
      fail(cycle, "R",
           "read ID " + std::to_string(id) + " at " + hex(b.a.addr) + " got " +
               std::to_string(b.beats) + " of " + std::to_string(b.a.len + 1) +
               " beats by the end");
  for (const auto& [id, q] : writes_)
    for (const Burst& b : q)
      fail(cycle, b.dataDone ? "B" : "W",
           "write ID " + std::to_string(id) + " at " + hex(b.a.addr) +
               (b.dataDone ? " got no B response"
                           : " got " + std::to_string(b.beats) + " of " +
                                 std::to_string(b.a.len + 1) + " W beats") +
               " by the end");
  if (!earlyW_.empty())
    fail(cycle, "W", std::to_string(earlyW_.size()) + " W beats never matched by an AW");
}

// --- AXI4-Lite.

LiteChecker::LiteChecker(const LiteCheckerConfig& config, std::string name)
    : cfg_(config), log_(std::move(name), config.maxStored, config.print) {}

void LiteChecker::observe(const LiteBus& bus, uint64_t cycle) {
  if (havePrev_) {
    checkHandshake(prev_.aw, bus.aw, cycle, "AW", log_);
    checkHandshake(prev_.w, bus.w, cycle, "W", log_);
    checkHandshake(prev_.b, bus.b, cycle, "B", log_);
    checkHandshake(prev_.ar, bus.ar, cycle, "AR", log_);
    checkHandshake(prev_.r, bus.r, cycle, "R", log_);
  }
  auto address = [&](const LiteAddr& a, const char* ch) {
    if (a.prot > 7)
      log_.add(cycle, ch, "PROT does not fit 3 bits");
    if (cfg_.wordAligned && (a.addr & 3))
      log_.add(cycle, ch, "address " + hex(a.addr) + " is not word aligned");
  };
  auto response = [&](uint32_t resp, const char* ch) {
    if (resp > 3)
      log_.add(cycle, ch, "response does not fit 2 bits");
    else if (resp == kExOkay)
      log_.add(cycle, ch, "EXOKAY on AXI4-Lite");
  };
  if (newlyValid(prev_.aw, bus.aw, havePrev_))
    address(bus.aw, "AW");
  if (newlyValid(prev_.ar, bus.ar, havePrev_))
    address(bus.ar, "AR");
  if (newlyValid(prev_.w, bus.w, havePrev_) && bus.w.strb > 0xF)
    log_.add(cycle, "W", "WSTRB " + hex(bus.w.strb) + " does not fit 4 bits");
  if (newlyValid(prev_.b, bus.b, havePrev_)) {
    response(bus.b.resp, "B");
    if (std::min(aw_, w_) <= b_)
      log_.add(cycle, "B", "BVALID before both the AW and the W handshake of a write (A3.3.1)");
  }
  if (newlyValid(prev_.r, bus.r, havePrev_)) {
    response(bus.r.resp, "R");
    if (ar_ <= r_)
      log_.add(cycle, "R", "RVALID with no read outstanding");
  }
  aw_ += bus.aw.fire();
  w_ += bus.w.fire();
  b_ += bus.b.fire();
  ar_ += bus.ar.fire();
  r_ += bus.r.fire();
  prev_ = bus;
  havePrev_ = true;
}

void LiteChecker::finish(uint64_t cycle) {
  if (aw_ != b_ || w_ != b_)
    log_.add(cycle, "B",
             std::to_string(aw_) + " AW and " + std::to_string(w_) + " W handshakes but " +
                 std::to_string(b_) + " B responses by the end");
  if (ar_ != r_)
    log_.add(cycle, "R",
             std::to_string(ar_) + " reads but " + std::to_string(r_) + " responses by the end");
}

} // namespace by::axi
