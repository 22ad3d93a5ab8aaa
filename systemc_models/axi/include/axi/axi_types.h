// AXI4 and AXI4-Lite channel signals as plain C++ structs, so that the memory model, the
// protocol checkers and the Lite master work with any Verilated model (or SystemC bridge): the
// testbench copies the DUT's ports to and from a Bus once per cycle (axi_verilator.h does
// that for ports named m_axi_*). Every channel carries its valid, ready and payload; the
// source drives valid and payload, the sink drives ready.
#pragma once

#include <array>
#include <cstdint>

namespace by::axi {

/// The widest data bus supported (dma.bus_width allows up to 1024 bits).
constexpr int kMaxDataBytes = 128;

/// xRESP encodings.
enum Resp : uint32_t { kOkay = 0, kExOkay = 1, kSlvErr = 2, kDecErr = 3 };
/// AxBURST encodings.
enum BurstType : uint32_t { kFixed = 0, kIncr = 1, kWrap = 2 };

const char* respName(uint32_t resp);

/// One beat of data, up to kMaxDataBytes bytes, as 32-bit words (Verilator's VlWide layout:
/// word 0 holds bytes 0..3, byte 0 in the low bits).
struct Data {
  std::array<uint32_t, kMaxDataBytes / 4> words{};

  uint8_t byte(int i) const { return static_cast<uint8_t>(words[i >> 2] >> (8 * (i & 3))); }
  void setByte(int i, uint8_t v) {
    const int shift = 8 * (i & 3);
    words[i >> 2] = (words[i >> 2] & ~(0xFFu << shift)) | (uint32_t{v} << shift);
  }
  bool operator==(const Data& o) const { return words == o.words; }
  bool operator!=(const Data& o) const { return words != o.words; }
};

/// Write strobes: bit i enables byte lane i.
struct Strb {
  std::array<uint32_t, kMaxDataBytes / 32> words{};

  bool bit(int i) const { return (words[i >> 5] >> (i & 31)) & 1u; }
  void set(int i, bool v) {
    if (v)
      words[i >> 5] |= 1u << (i & 31);
    else
      words[i >> 5] &= ~(1u << (i & 31));
  }
  bool operator==(const Strb& o) const { return words == o.words; }
  bool operator!=(const Strb& o) const { return words != o.words; }
};

/// AR or AW.
struct AddrChannel {
  bool valid = false;
  bool ready = false;
  uint32_t id = 0;
  uint64_t addr = 0;
  uint32_t len = 0;  // beats - 1
  uint32_t size = 0; // log2(bytes per beat)
  uint32_t burst = kIncr;
  uint32_t cache = 0;
  uint32_t prot = 0;

  bool fire() const { return valid && ready; }
  bool samePayload(const AddrChannel& o) const {
    return id == o.id && addr == o.addr && len == o.len && size == o.size && burst == o.burst &&
           cache == o.cache && prot == o.prot;
  }
};

struct WChannel {
  bool valid = false;
  bool ready = false;
  Data data;
  Strb strb;
  bool last = false;

  bool fire() const { return valid && ready; }
  bool samePayload(const WChannel& o) const {
    return data == o.data && strb == o.strb && last == o.last;
  }
};

struct RChannel {
  bool valid = false;
  bool ready = false;
  uint32_t id = 0;
  Data data;
  uint32_t resp = kOkay;
  bool last = false;

  bool fire() const { return valid && ready; }
  bool samePayload(const RChannel& o) const {
    return id == o.id && data == o.data && resp == o.resp && last == o.last;
  }
};

struct BChannel {
  bool valid = false;
  bool ready = false;
  uint32_t id = 0;
  uint32_t resp = kOkay;

  bool fire() const { return valid && ready; }
  bool samePayload(const BChannel& o) const { return id == o.id && resp == o.resp; }
};

/// One AXI4 interface, all five channels.
struct Bus {
  AddrChannel ar;
  RChannel r;
  AddrChannel aw;
  WChannel w;
  BChannel b;
};

/// Where beat `beat` of a burst lands (AXI4 spec A3.4.1): its byte address and the byte lanes
/// [firstLane, lastLane] it transfers on a bus of `dataBytes` bytes.
struct BeatLanes {
  uint64_t addr = 0;
  int firstLane = 0;
  int lastLane = 0;
};
BeatLanes beatLanes(const AddrChannel& a, uint32_t beat, int dataBytes);

// --- AXI4-Lite: 32-bit data, no IDs, no bursts.

struct LiteAddr {
  bool valid = false;
  bool ready = false;
  uint32_t addr = 0;
  uint32_t prot = 0;

  bool fire() const { return valid && ready; }
  bool samePayload(const LiteAddr& o) const { return addr == o.addr && prot == o.prot; }
};

struct LiteW {
  bool valid = false;
  bool ready = false;
  uint32_t data = 0;
  uint32_t strb = 0xF;

  bool fire() const { return valid && ready; }
  bool samePayload(const LiteW& o) const { return data == o.data && strb == o.strb; }
};

struct LiteB {
  bool valid = false;
  bool ready = false;
  uint32_t resp = kOkay;

  bool fire() const { return valid && ready; }
  bool samePayload(const LiteB& o) const { return resp == o.resp; }
};

struct LiteR {
  bool valid = false;
  bool ready = false;
  uint32_t data = 0;
  uint32_t resp = kOkay;

  bool fire() const { return valid && ready; }
  bool samePayload(const LiteR& o) const { return data == o.data && resp == o.resp; }
};

struct LiteBus {
  LiteAddr aw;
  LiteW w;
  LiteB b;
  LiteAddr ar;
  LiteR r;
};

/// A small, fast random generator (splitmix64): the models draw several numbers per cycle.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
  /// True with the given percent chance.
  bool percent(int p) { return p >= 100 || (p > 0 && static_cast<int>(next() % 100) < p); }

private:
  uint64_t state_;
};

} // namespace by::axi
