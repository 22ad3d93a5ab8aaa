#include "axi/dma_checker.h"

namespace by::axi {

CheckerConfig dmaCheckerConfig(const hw::DmaParams& p) {
  CheckerConfig c;
  c.dataBytes = p.beatBytes();
  c.idBits = p.idWidth();
  c.addrBits = p.addrWidth;
  c.maxBurst = p.maxBurst;
  c.incrOnly = true;
  c.fullWidth = true;
  c.busAligned = true;
  c.maxReads = p.maxInflight;
  c.maxWrites = p.maxWrites;
  c.uniqueIds = true;
  return c;
}

} // namespace by::axi
