// Every number the accelerator's generators need, derived once from the config.
#pragma once

#include "config/config.h"
#include "config/derived.h"
#include "hwspec/array_params.h"

namespace by::hw {

struct AccelParams {
  config::Config config;
  ArrayParams array;
  config::Derived derived;
  int dim = 0, dimBits = 0; // dimBits holds 0..DIM
  int lanes = 1;
  int spElems = 0, spElemBits = 0; // elem_t per scratchpad row (DIM*lanes); bits to hold 0..it
  int iw = 0, aw = 0, ow = 0;
  int spBanks = 0, spBankRows = 0, spRowBits = 0, spBankRowBits = 0;
  int spWordRows = 1; // scratchpad rows per SRAM word (memory.scratchpad.rows_per_word)
  bool spDualPort = false;
  int accBanks = 0, accBankRows = 0, accRowBits = 0, accBankRowBits = 0;
  int localRowBits = 0; // enough for a row of either memory (plus one: ranges are exclusive)
  int busBits = 0, maxBytes = 0, maxInflight = 0, maxBurst = 0;
  int maxBlockLen = 0, maxBlockLenAcc = 0;
  int maxColsAccElems = 0;         // columns of an accumulator move of elem_t (config::Derived)
  int rsEntries = 0, rsIdBits = 0; // commands.reservation_station_entries; ids of its slots
  int dmaTagBits = 0;
  int shiftBits = 0;
  // TensorDash operand feeder (docs/tensordash.md, "Operand feeder"): operations whose A tile
  // it holds (the current, the next and tdJobs-2 more), and B rows queued ahead of the window.
  int tdJobs = 0, tdJobBits = 0;
  int tdFifoRows = 0;
};

AccelParams accelParams(const config::Config& config);

/// Bits of an unsigned field that holds 0..maxValue (at least 1).
int bitsFor(long long maxValue);

/// Bits of a per-cycle MAC count: up to DIM*DIM*lanes slots per beat, and with TensorDash
/// up to lookahead+1 steps' worth skipped.
int macCountBits(const AccelParams& p);

/// Why this config cannot be built as a whole accelerator (empty when it can). Configs that
/// cannot are generated as the bare mesh.
std::string accelUnsupportedReason(const config::Config& config);

} // namespace by::hw
