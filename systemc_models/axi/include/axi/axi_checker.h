// AXI4 and AXI4-Lite protocol checkers: observe a Bus once per cycle (after all signals have
// settled, before the clock edge) and record every rule broken, with the cycle and a message.
//
// AXI4 rules checked (AMBA AXI4, ARM IHI 0022; section numbers in the messages):
//  - handshake: VALID, once high, stays high until READY; the payload does not change while
//    VALID && !READY (A3.2.1), on all five channels;
//  - address channels: AxLEN/AxSIZE/AxBURST/AxCACHE/AxPROT/ID/address within their widths,
//    reserved burst type, WRAP lengths and alignment, FIXED length, no burst crossing a 4 KiB
//    boundary (A3.4.1), AxSIZE not wider than the bus; optional: INCR only, full-width beats
//    only, bus-aligned addresses, at most maxBurst beats, limits on outstanding bursts, no two
//    outstanding bursts with the same ID;
//  - W: beats matched to AWs in order (W may come before its AW unless forbidden), WLAST exactly
//    on beat AWLEN, WSTRB only on the byte lanes the beat addresses (A3.4.3), no strobes or data
//    bits beyond the bus width;
//  - R: only for an outstanding read ID, RLAST exactly on the last beat of the oldest
//    outstanding burst of that ID (same-ID order), optionally no interleaving (A5.3);
//  - B: only for an outstanding write ID whose oldest burst has all its W beats (A3.3.1);
//  - responses: no EXOKAY (nothing here issues exclusive accesses), no bits beyond 2;
//  - finish(): nothing left outstanding.
// Cost per cycle: a few comparisons per channel plus O(outstanding IDs) on handshakes.
#pragma once

#include "axi/axi_types.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace by::axi {

struct Violation {
  uint64_t cycle = 0;
  std::string channel; // "AR", "R", "AW", "W", "B" (Lite: the same names)
  std::string message;
};

/// Collects violations (all are counted, the first maxStored are kept).
class ViolationLog {
public:
  ViolationLog(std::string name, size_t maxStored, bool print)
      : name_(std::move(name)), maxStored_(maxStored), print_(print) {}
  void add(uint64_t cycle, const char* channel, const std::string& message);
  bool clean() const { return count_ == 0; }
  uint64_t count() const { return count_; }
  const std::vector<Violation>& violations() const { return list_; }
  /// "name: N violations" and the stored ones, one per line.
  std::string report() const;

private:
  std::string name_;
  size_t maxStored_;
  bool print_;
  uint64_t count_ = 0;
  std::vector<Violation> list_;
};

struct CheckerConfig {
  int dataBytes = 8;
  int idBits = 4;
  int addrBits = 32;
  int maxBurst = 256;      // beats per burst (AxLEN + 1)
  bool incrOnly = false;   // AxBURST must be INCR
  bool fullWidth = false;  // AxSIZE must be log2(dataBytes)
  bool busAligned = false; // AxADDR must be a multiple of dataBytes
  int maxReads = 0;        // outstanding read bursts allowed (0: any)
  int maxWrites = 0;       // outstanding write bursts allowed (0: any)
  bool uniqueIds = false;  // no two outstanding bursts of a direction share an ID
  bool allowWBeforeAw = true;
  bool allowReadInterleave = true;
  size_t maxStored = 50; // violations kept for the report (all are counted)
  bool print = true;     // also print each stored violation to stderr as it happens
};

class Checker {
public:
  explicit Checker(const CheckerConfig& config, std::string name = "axi");

  /// Checks one cycle of the bus: call once per cycle with the settled signals.
  void observe(const Bus& bus, uint64_t cycle);
  /// End of test: anything still outstanding is a violation.
  void finish(uint64_t cycle);

  bool clean() const { return log_.clean(); }
  uint64_t violationCount() const { return log_.count(); }
  const std::vector<Violation>& violations() const { return log_.violations(); }
  std::string report() const { return log_.report(); }

  uint64_t outstandingReads() const { return readsOut_; }
  uint64_t outstandingWrites() const { return writesOut_; }
  uint64_t readBursts() const { return readBursts_; }
  uint64_t writeBursts() const { return writeBursts_; }

private:
  struct Burst {
    AddrChannel a;
    uint32_t beats = 0;    // data beats seen
    bool dataDone = false; // writes: all W beats seen
    uint64_t seq = 0;      // writes: AW order
  };
  struct EarlyBeat {
    Strb strb;
    bool last = false;
    uint64_t cycle = 0;
  };

  void fail(uint64_t cycle, const char* channel, const std::string& message) {
    log_.add(cycle, channel, message);
  }
  void checkAddress(const AddrChannel& a, uint64_t cycle, const char* ch);
  void checkData(const Data& d, uint64_t cycle, const char* ch);
  void checkResp(uint32_t resp, uint64_t cycle, const char* ch);
  void writeBeat(const Strb& strb, bool last, uint64_t cycle);
  void acceptAr(const AddrChannel& a, uint64_t cycle);
  void acceptAw(const AddrChannel& a, uint64_t cycle);
  void acceptR(const RChannel& r, uint64_t cycle);
  void acceptB(const BChannel& b, uint64_t cycle);

  CheckerConfig cfg_;
  ViolationLog log_;
  Bus prev_;
  bool havePrev_ = false;

  std::map<uint32_t, std::deque<Burst>> reads_;        // by ID, in AR order, until their last beat
  std::map<uint32_t, std::deque<Burst>> writes_;       // by ID, in AW order, until their B
  std::deque<std::pair<uint32_t, uint64_t>> wPending_; // (ID, seq) of AWs waiting for W beats
  std::deque<EarlyBeat> earlyW_;                       // W beats ahead of their AW
  uint64_t readsOut_ = 0, writesOut_ = 0, readBursts_ = 0, writeBursts_ = 0;
  bool rBurstOpen_ = false;
  uint32_t rOpenId_ = 0;
};

// --- AXI4-Lite.

struct LiteCheckerConfig {
  bool wordAligned = true; // addresses are multiples of 4
  size_t maxStored = 50;
  bool print = true;
};

/// AXI4-Lite rules: the handshake rules on all five channels; a B only after both the AW and
/// the W of a write, an R only after an AR (A3.3.1); no EXOKAY; strobes and protection within
/// their widths; optional word alignment.
class LiteChecker {
public:
  explicit LiteChecker(const LiteCheckerConfig& config, std::string name = "axi-lite");
  void observe(const LiteBus& bus, uint64_t cycle);
  void finish(uint64_t cycle);

  bool clean() const { return log_.clean(); }
  uint64_t violationCount() const { return log_.count(); }
  const std::vector<Violation>& violations() const { return log_.violations(); }
  std::string report() const { return log_.report(); }

private:
  LiteCheckerConfig cfg_;
  ViolationLog log_;
  LiteBus prev_;
  bool havePrev_ = false;
  uint64_t aw_ = 0, w_ = 0, b_ = 0, ar_ = 0, r_ = 0; // handshakes so far
};

} // namespace by::axi
