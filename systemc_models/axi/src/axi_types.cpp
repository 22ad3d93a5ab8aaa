#include "axi/axi_types.h"

namespace by::axi {

const char* respName(uint32_t resp) {
  switch (resp) {
  case kOkay:
    return "OKAY";
  case kExOkay:
    return "EXOKAY";
  case kSlvErr:
    return "SLVERR";
  case kDecErr:
    return "DECERR";
  default:
    return "?";
  }
}

BeatLanes beatLanes(const AddrChannel& a, uint32_t beat, int dataBytes) {
  const uint64_t bytes = uint64_t{1} << a.size;
  const uint64_t aligned = a.addr / bytes * bytes;
  uint64_t addr = a.addr;
  if (beat > 0) {
    switch (a.burst) {
    case kFixed:
      break;
    case kWrap: {
      const uint64_t span = bytes * (a.len + 1);
      const uint64_t lower = a.addr / span * span;
      addr = lower + (aligned - lower + beat * bytes) % span;
      break;
    }
    default: // INCR (and the reserved encoding, treated as INCR)
      addr = aligned + beat * bytes;
      break;
    }
  }
  const uint64_t busBase = addr / dataBytes * dataBytes;
  const uint64_t transferEnd = addr / bytes * bytes + bytes - 1; // last byte of this transfer
  BeatLanes out;
  out.addr = addr;
  out.firstLane = static_cast<int>(addr - busBase);
  out.lastLane = static_cast<int>(transferEnd - busBase);
  if (out.lastLane >= dataBytes) // a transfer wider than the bus (a checker violation)
    out.lastLane = dataBytes - 1;
  return out;
}

} // namespace by::axi
