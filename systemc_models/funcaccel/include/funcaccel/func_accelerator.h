// The functional model in the SoC's accelerator slot (`brickyard sim --model func`): the same
// ISA and results as the RTL, untimed. Every RoCC command or CMD_PUSH executes at once on the
// functional model (funcmodel/func_model.h), whose DMA reads and writes the SoC's DRAM through
// the DMA socket (debug transport: no bus time); waitIdle returns at once. The control
// registers are the model's emulated register file (funcmodel/registers.h). Cycle counts of a
// run are the host's alone: use it to check results quickly, the RTL for timing.
#pragma once

#include "config/config.h"
#include "soc/accelerator.h"
#include "soc/platform.h"

#include <memory>

namespace by::funcaccel {

/// The factory for soc::SimOptions::accelerator.
soc::AcceleratorFactory funcAcceleratorFactory();

} // namespace by::funcaccel
