#include "config/derived.h"

#include <algorithm>

namespace by::config {

bool isPowerOfTwo(long long value) {
  return value > 0 && (value & (value - 1)) == 0;
}

int log2Exact(long long value) {
  int bits = 0;
  while ((1LL << bits) < value)
    ++bits;
  return bits;
}

Derived derive(const Config& c) {
  Derived d;
  d.dim = c.array.meshRows * c.array.tileRows;
  d.inputBytes = c.types.inputWidth / 8;
  d.accBytes = c.types.accWidth / 8;
  d.shiftBits = log2Exact(c.types.accWidth);

  d.spRowElems = d.dim * c.array.lanes;
  d.spRowBytes = d.spRowElems * d.inputBytes;
  d.spRows = static_cast<int>(1024LL * c.memory.scratchpad.capacityKiB / d.spRowBytes);
  d.spBankRows = d.spRows / c.memory.scratchpad.banks;
  d.spAddrBits = log2Exact(d.spRows);
  d.spBankRowBits = log2Exact(d.spBankRows);
  d.spWordRows = c.memory.scratchpad.rowsPerWord;
  d.spBankWords = d.spBankRows / d.spWordRows;
  d.spBankWordBits = log2Exact(d.spBankWords);

  d.accRowBytes = d.dim * d.accBytes;
  d.accRows = static_cast<int>(1024LL * c.memory.accumulator.capacityKiB / d.accRowBytes);
  d.accBankRows = d.accRows / c.memory.accumulator.banks;
  d.accAddrBits = log2Exact(d.accRows);
  d.accBankRowBits = log2Exact(d.accBankRows);

  d.maxBlockLen = c.dma.maxBytes / d.spRowBytes;
  d.maxBlockLenAcc = c.dma.maxBytes / d.accRowBytes;
  d.maxColsAccElems = d.maxBlockLen * d.spRowElems;
  d.busBytes = c.dma.busWidth / 8;
  // A request holds one of max_inflight slots for at least the DRAM latency: below this many
  // bytes the slots, not the bus, bound the rate.
  d.dmaRoundTripBytes = d.busBytes * c.soc.dram.latencyCycles;
  d.dmaRequestMinBytes = d.busBytes * c.soc.dram.latencyCycles / std::max(1, c.dma.maxInflight);
  d.dmaWriteRequestMinBytes =
      d.busBytes * c.soc.dram.latencyCycles / std::max(1, c.dma.writesInflight());
  d.peakMacsPerCycle = d.dim * d.dim * c.array.lanes;
  return d;
}

} // namespace by::config
