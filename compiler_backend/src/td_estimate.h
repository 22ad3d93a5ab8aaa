// The compiler's estimate of what TensorDash gains on a layer (docs/compiler.md, "TensorDash"):
// the C++ schedule model (models/tensordash) run on operands like the layer's. B, the weights,
// are known: the model runs on the real weight rows. A, the activations, are known only by
// their calibrated zero fraction: the model runs on rows with zeros at that rate, seeded.
#pragma once

#include "config/config.h"

#include <cstdint>
#include <vector>

namespace by::compiler {

struct TdEstimate {
  double speedupA = 1.0; // compute beats, TensorDash off over A scheduled
  double speedupB = 1.0; // ... over B scheduled
};

/// Estimates the compute speedups of scheduling A (the activations, `zerosA` of them zero) and
/// B (`weights`, K x N row-major: K = the reduction) on `cfg`'s array. Both are 1 without
/// TensorDash.
TdEstimate estimateTensorDash(const config::Config& cfg, double zerosA,
                              const std::vector<int8_t>& weights, int64_t k, int64_t n);

} // namespace by::compiler
