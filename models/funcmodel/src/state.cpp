#include "funcmodel/state.h"

#include <cstring>
#include <tuple>

namespace by::funcmodel {

bool ExecConfig::operator==(const ExecConfig& o) const {
  return std::tie(dataflow, activation, inShift, aStride, cStride, tdOff, tdSide, aTranspose,
                  bTranspose) == std::tie(o.dataflow, o.activation, o.inShift, o.aStride, o.cStride,
                                          o.tdOff, o.tdSide, o.aTranspose, o.bTranspose);
}

bool LoadChannel::operator==(const LoadChannel& o) const {
  return std::tie(stride, blockStride, shrink, compressed) ==
         std::tie(o.stride, o.blockStride, o.shrink, o.compressed);
}

bool PoolConfig::operator==(const PoolConfig& o) const {
  return std::tie(stride, size, upad, lpad, outDim, porows, pocols, orows, ocols) ==
         std::tie(o.stride, o.size, o.upad, o.lpad, o.outDim, o.porows, o.pocols, o.orows, o.ocols);
}

float StoreConfig::accScale() const {
  float f;
  std::memcpy(&f, &accScaleBits, sizeof f);
  return f;
}

bool StoreConfig::operator==(const StoreConfig& o) const {
  return std::tie(stride, activation, accScaleBits, pool, compressed, nextContainer, table,
                  tableEnabled) == std::tie(o.stride, o.activation, o.accScaleBits, o.pool,
                                            o.compressed, o.nextContainer, o.table, o.tableEnabled);
}

bool ArrayState::operator==(const ArrayState& o) const {
  return std::tie(valid, w, p) == std::tie(o.valid, o.w, o.p);
}

bool CounterState::operator==(const CounterState& o) const {
  return std::tie(value, snapshot, event, external, snapshotDeterministic, snapshotMode) ==
         std::tie(o.value, o.snapshot, o.event, o.external, o.snapshotDeterministic,
                  o.snapshotMode);
}

bool LoopWsState::operator==(const LoopWsState& o) const {
  return std::tie(maxI, maxJ, maxK, padI, padJ, padK, a, b, d, c, aStride, bStride, dStride,
                  cStride, spHalf, accHalf) ==
         std::tie(o.maxI, o.maxJ, o.maxK, o.padI, o.padJ, o.padK, o.a, o.b, o.d, o.c, o.aStride,
                  o.bStride, o.dStride, o.cStride, o.spHalf, o.accHalf);
}

bool ArchState::operator==(const ArchState& o) const {
  return std::tie(sp, acc, ex, ld, st, array, preload, counters, loop, conv) ==
         std::tie(o.sp, o.acc, o.ex, o.ld, o.st, o.array, o.preload, o.counters, o.loop, o.conv);
}

} // namespace by::funcmodel
