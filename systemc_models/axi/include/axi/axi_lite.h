// A small AXI4-Lite master for register-file tests: queue 32-bit writes and reads, then call
// drive()/tick() once per cycle like the memory model. Operations run one at a time, in
// order; each waits a random 0..maxDelay cycles before raising its valid(s), a write's AW and
// W independently (either may come first), and BREADY/RREADY are high with a configurable
// chance per cycle. Results come back in order with their response codes.
#pragma once

#include "axi/axi_types.h"

#include <cstdint>
#include <deque>
#include <optional>

namespace by::axi {

struct LiteMasterConfig {
  int maxDelay = 3;      // cycles before a valid is raised, uniform 0..maxDelay
  int readyPercent = 70; // chance per cycle that BREADY / RREADY is high
  uint32_t prot = 0;     // AxPROT of every access
  uint64_t seed = 1;
};

struct LiteResult {
  bool write = false;
  uint32_t addr = 0;
  uint32_t data = 0; // written data, or the data read
  uint32_t resp = kOkay;
  uint64_t startCycle = 0; // when the operation began
  uint64_t endCycle = 0;   // when its response was taken
};

class LiteMaster {
public:
  explicit LiteMaster(const LiteMasterConfig& config);

  void write(uint32_t addr, uint32_t data, uint32_t strb = 0xF);
  void read(uint32_t addr);

  /// Drives the master's outputs (AW, W, AR, BREADY, RREADY) for this cycle.
  void drive(LiteBus& bus) const;
  /// Takes this cycle's handshakes from the settled bus and advances one cycle.
  void tick(const LiteBus& bus);

  /// Nothing queued or in progress.
  bool idle() const { return queue_.empty() && !active_; }
  /// Completed operations, oldest first.
  std::deque<LiteResult>& results() { return results_; }
  uint64_t cycle() const { return now_; }

private:
  struct Op {
    bool write = false;
    uint32_t addr = 0;
    uint32_t data = 0;
    uint32_t strb = 0xF;
  };
  void start();

  LiteMasterConfig cfg_;
  Rng rng_;
  uint64_t now_ = 0;
  std::deque<Op> queue_;
  std::optional<Op> active_;
  uint64_t startCycle_ = 0;
  int addrDelay_ = 0, dataDelay_ = 0; // cycles left before AxVALID / WVALID rise
  bool addrDone_ = false, dataDone_ = false;
  bool respReady_ = false;
  std::deque<LiteResult> results_;
};

} // namespace by::axi
