// C headers generated from the config, for the driver and for Gemmini programs.
#pragma once

#include "config/config.h"

#include <string>

namespace by::contract {

/// include/brickyard_params.h: every hardware fact the native driver needs (BY_* names) and
/// the arithmetic helpers of docs/arithmetic.md as static inline C99 functions.
std::string brickyardParamsHeader(const config::Config& config, const std::string& generator);

/// include/gemmini_params.h: Gemmini's names (DIM, BANK_NUM, elem_t, ACC_SCALE, ...) defined
/// from brickyard_params.h, so that Gemmini programs compile unchanged.
std::string gemminiParamsHeader(const config::Config& config, const std::string& generator);

} // namespace by::contract
