#include "hwspec/accel_params.h"

#include <algorithm>

namespace by::hw {

int bitsFor(long long maxValue) {
  int b = 1;
  while ((1LL << b) <= maxValue)
    ++b;
  return b;
}

AccelParams accelParams(const config::Config& c) {
  AccelParams p;
  p.config = c;
  p.array = arrayParams(c);
  p.derived = config::derive(c);
  const config::Derived& d = p.derived;
  p.dim = d.dim;
  p.dimBits = bitsFor(d.dim);
  p.lanes = c.array.lanes;
  p.spElems = d.spRowElems;
  p.spElemBits = bitsFor(d.spRowElems);
  p.iw = c.types.inputWidth;
  p.aw = c.types.accWidth;
  p.ow = c.types.spatialOutputWidth;
  p.spBanks = c.memory.scratchpad.banks;
  p.spBankRows = d.spBankRows;
  p.spRowBits = d.spAddrBits;
  p.spBankRowBits = d.spBankRowBits;
  p.spWordRows = d.spWordRows;
  p.spDualPort = c.memory.scratchpad.ports == 2;
  p.accBanks = c.memory.accumulator.banks;
  p.accBankRows = d.accBankRows;
  p.accRowBits = d.accAddrBits;
  p.accBankRowBits = d.accBankRowBits;
  p.localRowBits = std::max(p.spRowBits, p.accRowBits) + 1;
  p.busBits = c.dma.busWidth;
  p.maxBytes = c.dma.maxBytes;
  p.maxInflight = c.dma.maxInflight;
  p.maxBurst = c.dma.maxBurst;
  p.rsEntries = c.commands.reservationStationEntries;
  p.rsIdBits = config::log2Exact(p.rsEntries);
  p.maxBlockLen = d.maxBlockLen;
  p.maxBlockLenAcc = d.maxBlockLenAcc;
  p.maxColsAccElems = d.maxColsAccElems;
  p.shiftBits = d.shiftBits;
  p.dmaTagBits = 8;
  if (c.tensordash.enabled) {
    // Four jobs: the two operations whose steps may share the window, and two whose tiles are
    // read ahead, so that a tile's fill (a few cycles of reads and latency) overlaps the two
    // passes before it even when an operation is only DIM/3 cycles long.
    p.tdJobs = 4;
    p.tdJobBits = 2;
    // B rows: a word in flight, a word arriving, and a full window's worth not yet taken.
    p.tdFifoRows = 2 * p.spWordRows + p.array.tdDepth;
  }
  return p;
}

int macCountBits(const AccelParams& p) {
  const long long dense = static_cast<long long>(p.dim) * p.dim * p.lanes;
  return bitsFor(p.config.tensordash.enabled ? dense * p.array.tdDepth : dense);
}

std::string accelUnsupportedReason(const config::Config& c) {
  if (c.memory.accumulator.ports != 2)
    return "read-modify-write accumulation needs accumulator SRAMs with a read and a write port "
           "(memory.accumulator.ports: 2)";
  return "";
}

} // namespace by::hw
