// The whole generated design for one config: every module, in one explicit list.
#pragma once

#include "config/config.h"
#include "hwspec/array_params.h"
#include "vlog/ir.h"

namespace by::hw {

struct GeneratedDesign {
  vlog::Design design;
  ArrayParams array;
};

/// Runs every block generator for the config. The top is the mesh until the accelerator
/// around it exists.
GeneratedDesign buildDesign(const config::Config& config);

} // namespace by::hw
