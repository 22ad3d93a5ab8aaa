// Input checking shared by compress() and measure(). Private to the codec.
#pragma once

#include "boveda_spec/params.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace by::boveda::detail {

/// Validates params, checks every value against the signed range of elementBits (throws
/// std::invalid_argument naming the first offending index) and widens to int16.
std::vector<int16_t> checkedValues(const BovedaParams& params, const int8_t* values, size_t n);
std::vector<int16_t> checkedValues(const BovedaParams& params, const int16_t* values, size_t n);

/// Number of blocks of a tensor of n values.
inline uint64_t blockCount(const BovedaParams& params, uint64_t n) {
  return (n + static_cast<uint64_t>(params.blockValues) - 1) /
         static_cast<uint64_t>(params.blockValues);
}

} // namespace by::boveda::detail
