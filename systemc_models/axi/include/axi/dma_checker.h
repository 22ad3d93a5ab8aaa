// The AXI4 protocol checker configured with what the generated DMA promises (docs/dma.md).
// Shared by the DMA block tests, the system testbench and the co-simulation's RTL model.
#pragma once

#include "axi/axi_checker.h"
#include "hw/generators.h"

namespace by::axi {

/// INCR, full-width, bus-aligned bursts of at most maxBurst beats, at most maxInflight
/// outstanding reads and maxWrites outstanding writes, every outstanding ID distinct.
CheckerConfig dmaCheckerConfig(const hw::DmaParams& p);

} // namespace by::axi
