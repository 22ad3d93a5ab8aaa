// Values derived from a Config, computed in exactly one place (derived.cpp).
#pragma once

#include "config/config.h"

namespace by::config {

struct Derived {
  int dim = 0;        // array side: mesh_rows * tile_rows == mesh_cols * tile_cols
  int inputBytes = 0; // bytes per elem_t
  int accBytes = 0;   // bytes per acc_t
  int shiftBits = 0;  // bits of an OS output shift amount (0 .. acc_width-1)

  int spRowElems = 0; // elem_t per scratchpad row: DIM * lanes (docs/isa.md, "Vector PEs")
  int spRowBytes = 0; // one scratchpad row: spRowElems elem_t
  int spRows = 0;     // total scratchpad rows
  int spBankRows = 0; // rows per bank
  int spAddrBits = 0; // log2(spRows)
  int spBankRowBits = 0;
  int spWordRows = 1;     // memory.scratchpad.rows_per_word: rows per SRAM word
  int spBankWords = 0;    // SRAM words per bank: spBankRows / spWordRows
  int spBankWordBits = 0; // log2(spBankWords)

  int accRowBytes = 0; // one accumulator row: DIM acc_t
  int accRows = 0;
  int accBankRows = 0;
  int accAddrBits = 0;
  int accBankRowBits = 0;

  int maxBlockLen = 0;    // Gemmini MAX_BLOCK_LEN: scratchpad rows (of DIM) per mvin block
  int maxBlockLenAcc = 0; // Gemmini MAX_BLOCK_LEN_ACC
  // Columns of an accumulator move of elem_t values (shrink MVIN, scaled MVOUT): max_bytes of
  // elem_t, MAX_BLOCK_LEN * DIM * lanes (with one lane Gemmini's MAX_BLOCK_LEN * DIM).
  int maxColsAccElems = 0;
  int busBytes = 0; // AXI data bytes per beat
  // What a DMA request costs at least, in bus bytes: busBytes x DRAM latency / max_inflight
  // (the planner charges short requests this much)
  int dmaRequestMinBytes = 0;
  int dmaWriteRequestMinBytes = 0; // the same for writes: / max_inflight_writes
  int dmaRoundTripBytes = 0;       // busBytes x DRAM latency: what one unhidden round trip costs

  int peakMacsPerCycle = 0; // DIM * DIM * lanes
};

Derived derive(const Config& config);

int log2Exact(long long value); // value must be a power of two
bool isPowerOfTwo(long long value);

} // namespace by::config
