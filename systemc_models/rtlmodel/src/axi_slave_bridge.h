// The accelerator's AXI4 master port, served over TLM-2.0: an AXI4 slave stepped once per
// clock cycle like axi::Memory (drive() sets its outputs before the model evaluates, tick()
// takes the settled bus's handshakes), which turns every burst into one b_transport on the
// DMA socket (router -> DRAM).
//
// Timing (loosely timed, as the DRAM model answers): a read burst is sent to the bus at the
// edge of its AR handshake; the DRAM annotates when its transfer ends, and the burst's last
// beat is offered in the first cycle that starts at or after that time, earlier beats one per
// cycle before it (but never before the cycle after the handshake), i.e. beats stream out as
// the DRAM transfers them. A write burst goes to the bus at the edge of its last W beat and its
// B response is offered from the cycle its transfer has ended. The DRAM model's queueing
// (latency overlap, one shared data bus) thus shapes the accelerator's DMA timing.
//
// AXI behaviour, all legal for axi::Checker: up to maxReads / maxWrites bursts outstanding
// (AxREADY low when full); R beats and B responses in the order of the bursts (so per-ID order
// holds); W beats accepted before their AW (matched in order); RREADY/BREADY back-pressure
// holds the offered beat. TLM address errors answer DECERR, other errors SLVERR.
//
// Cost: no allocation after construction (slots, payloads and buffers are preallocated);
// per cycle a few comparisons and at most one beat copy per channel.
#pragma once

#include "axi/axi_types.h"

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

namespace by::rtlmodel {

class AxiSlaveBridge {
public:
  struct Config {
    int beatBytes = 8;
    int maxBurst = 256; // beats
    int maxReads = 4;   // outstanding read bursts
    int maxWrites = 4;  // outstanding write bursts
    uint64_t periodPs = 1000;
  };
  struct Stats {
    uint64_t readBursts = 0, writeBursts = 0;
    uint64_t readBytes = 0, writeBytes = 0; // bytes of the bursts (all lanes)
    uint64_t errorResponses = 0;            // bursts answered SLVERR/DECERR
  };

  AxiSlaveBridge(const Config& config, tlm::tlm_initiator_socket<>& socket);

  /// The slave's outputs for cycle `cycle` (AxREADY, WREADY, R, B).
  void drive(axi::Bus& bus, uint64_t cycle) const;
  /// This cycle's handshakes; bursts complete at the cycle's edge.
  void tick(const axi::Bus& bus, uint64_t cycle);
  /// No burst in flight.
  bool idle() const { return reads_ == 0 && writes_ == 0; }
  const Stats& stats() const { return stats_; }

private:
  struct Read {
    uint32_t id = 0;
    uint32_t beats = 0;
    uint32_t next = 0; // next beat to send
    uint32_t resp = axi::kOkay;
    uint64_t firstCycle = 0; // earliest cycle for any beat
    uint64_t lastCycle = 0;  // cycle from which the last beat may be offered
    std::vector<uint8_t> data;
    tlm::tlm_generic_payload payload;
  };
  struct Write {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t beats = 0;   // from AW
    uint32_t beatsIn = 0; // W beats received
    bool partial = false; // some strobe was low
    uint32_t resp = axi::kOkay;
    uint64_t bCycle = 0;
    std::vector<uint8_t> data, enables;
    tlm::tlm_generic_payload payload;
  };

  uint64_t beatReadyCycle(const Read& r) const;
  /// Sends a burst; returns the AXI response and sets `doneCycle` to the first cycle that
  /// starts at or after the end of its transfer.
  uint32_t transport(tlm::tlm_generic_payload& p, uint64_t edgeCycle, uint64_t& doneCycle);
  void launchWrite(Write& w, uint64_t cycle);

  Config cfg_;
  tlm::tlm_initiator_socket<>& socket_;
  Stats stats_;
  // Rings of preallocated slots, oldest first.
  std::vector<Read> read_;
  size_t readHead_ = 0, reads_ = 0;
  std::vector<Write> write_;
  size_t writeHead_ = 0, writes_ = 0;
  size_t awIn_ = 0;     // writes (from the head) that have their AW
  size_t wDone_ = 0;    // writes (from the head) that have all their W beats
  size_t launched_ = 0; // writes (from the head) sent to the bus
};

} // namespace by::rtlmodel
