// An AXI4 slave memory model for block and system testbenches: a byte array at a base
// address behind a fully random but legal AXI4 slave. Seeded, so every run replays exactly.
//
// Behaviour, all configurable: random AR/AW/W back-pressure; a random latency per transaction;
// an average bandwidth limit (bytes per cycle, shared by reads and writes);
// read beats of different IDs interleaved at random while same-ID bursts keep their order;
// W beats accepted before or after their AW; B responses of different IDs in any order, same-ID
// in order; SLVERR for any beat that touches bytes outside the memory (in-range bytes of a
// partly outside write are still written, in-range lanes of a read still carry data).
//
// Per cycle the slave is a Moore machine: drive() sets its outputs from its state (call it
// before the master evaluates), tick() takes the settled bus, performs the handshakes and
// advances one cycle. Cost per cycle: O(transactions outstanding), no allocation in steady
// state beyond the transaction queues.
#pragma once

#include "axi/axi_types.h"

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

namespace by::axi {

struct MemoryConfig {
  uint64_t base = 0;       // first byte address
  uint64_t size = 1 << 20; // bytes
  int dataBytes = 8;       // bus width in bytes

  // Latency per transaction, uniform in [minLatency, maxLatency] cycles: for a read, from the
  // AR handshake to the first cycle its first beat may be offered (0: the next cycle); for a
  // write, from the cycle both its AW and its last W beat are in to the first cycle its B may
  // be offered.
  int minLatency = 0;
  int maxLatency = 0;

  // Back-pressure: the chance, per cycle, that AxREADY / WREADY is high.
  int arReadyPercent = 100;
  int awReadyPercent = 100;
  int wReadyPercent = 100;
  // Gaps: the chance, per cycle, that an R beat or B response that could be offered is not.
  int rGapPercent = 0;
  int bGapPercent = 0;

  // Bandwidth: at most this many bytes per cycle on average over reads and writes together
  // (every R beat offered and every W beat taken costs a full beat, dataBytes); 0 or at least
  // dataBytes: one read beat and one write beat per cycle.
  int bytesPerCycle = 0;

  bool interleaveReads = true; // false: a read burst runs to its last beat before another
  bool oldestFirst = false;    // the oldest read that may answer goes first (else a random one)
  int maxReads = 64;           // outstanding read bursts accepted (ARREADY low when full)
  int maxWrites = 64;          // outstanding write bursts accepted (AWREADY low when full)
  int maxEarlyWBeats = 256;    // W beats accepted ahead of their AW (0: W waits for its AW)

  uint64_t seed = 1;
};

struct MemoryStats {
  uint64_t cycles = 0;
  uint64_t readBursts = 0;
  uint64_t readBeats = 0;
  uint64_t writeBursts = 0;
  uint64_t writeBeats = 0;
  uint64_t earlyWBeats = 0;    // W beats that arrived before their AW
  uint64_t errorResponses = 0; // R beats and B responses with SLVERR
};

class Memory {
public:
  explicit Memory(const MemoryConfig& config);

  /// Drives the slave's outputs (AxREADY, WREADY, R, B) for this cycle.
  void drive(Bus& bus) const;
  /// Takes this cycle's handshakes from the settled bus and advances one cycle.
  void tick(const Bus& bus);

  // Backdoor access (no timing, no AXI): for loading and checking test data.
  bool contains(uint64_t addr, uint64_t bytes) const;
  uint8_t read8(uint64_t addr) const { return mem_[addr - cfg_.base]; }
  void write8(uint64_t addr, uint8_t v) { mem_[addr - cfg_.base] = v; }
  std::vector<uint8_t>& image() { return mem_; }
  const std::vector<uint8_t>& image() const { return mem_; }

  /// No transaction in flight (all responses given).
  bool idle() const;
  const MemoryStats& stats() const { return stats_; }
  const MemoryConfig& config() const { return cfg_; }

private:
  struct Read {
    AddrChannel a;
    uint32_t beat = 0;
    uint64_t readyAt = 0;
  };
  struct Write {
    AddrChannel a;
    uint32_t beats = 0; // W beats received
    bool error = false;
  };
  struct Response {
    uint32_t id = 0;
    uint32_t resp = kOkay;
    uint64_t readyAt = 0;
  };
  struct EarlyBeat {
    Data data;
    Strb strb;
  };

  int latency();
  void chooseReadBeat();
  void chooseResponse();
  void writeBeat(Write& w, const Data& data, const Strb& strb);
  void completeWrites();

  MemoryConfig cfg_;
  std::vector<uint8_t> mem_;
  Rng rng_;
  uint64_t now_ = 0;
  MemoryStats stats_;

  bool limited() const { return cfg_.bytesPerCycle > 0 && cfg_.bytesPerCycle < cfg_.dataBytes; }
  int credit_ = 0; // bandwidth: bytes that may still move (limited() only), at most one beat

  // Readies for the current cycle, drawn in the previous tick.
  bool arReady_ = false, awReady_ = false, wReady_ = false;

  std::vector<Read> reads_; // in AR order; same-ID order is kept by scanning from the front
  std::optional<RChannel> rOut_;
  size_t rIndex_ = 0; // the read whose beat rOut_ holds
  bool rBurstOpen_ = false;

  std::deque<Write> writes_; // AW order; the front ones may still wait for W beats
  std::deque<EarlyBeat> earlyW_;
  std::vector<Response> responses_; // completed writes waiting for their B, in AW order
  std::optional<BChannel> bOut_;
  size_t bIndex_ = 0;
};

} // namespace by::axi
