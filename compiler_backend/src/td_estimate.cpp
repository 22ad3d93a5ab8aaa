#include "td_estimate.h"

#include "tensordash/scheduler.h"
#include "tensordash/streams.h"
#include "tensordash_spec/params.h"

#include <algorithm>

namespace by::compiler {
namespace {

// Reduction steps the model runs per estimate: enough for the window's behaviour to settle,
// few enough that planning a network stays fast.
constexpr int64_t kMaxSteps = 96;

double speedup(const tensordash::TensorDashParams& p, const tensordash::Streams& s) {
  const int64_t cycles = tensordash::cyclesFor(p, s);
  return cycles > 0 ? double(s.steps()) / double(cycles) : 1.0;
}

// A: DIM rows of activations with zeros at rate `zeros` (a fixed-seed LCG: plans are
// reproducible).
double speedupOfActivations(const tensordash::TensorDashParams& p, double zeros, int64_t steps) {
  tensordash::Streams s(p.rows, int(steps), p.lanes);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int r = 0; r < p.rows; ++r)
    for (int t = 0; t < steps; ++t)
      for (int l = 0; l < p.lanes; ++l) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        s.at(r, t, l) = double(x >> 11) / double(uint64_t(1) << 53) < zeros ? 0 : 1;
      }
  return speedup(p, s);
}

// B scheduled: the array's rows are B's columns (output channels), each a stream over K. The
// first DIM output-channel groups spread over N stand for the layer.
double speedupOfWeights(const tensordash::TensorDashParams& p, const std::vector<int8_t>& w,
                        int64_t k, int64_t n, int64_t steps) {
  double sum = 0;
  int groups = 0;
  for (int64_t n0 = 0; n0 < n && groups < 4; n0 += std::max<int64_t>(p.rows, n / 4), ++groups) {
    tensordash::Streams s(p.rows, int(steps), p.lanes);
    for (int r = 0; r < p.rows; ++r)
      for (int t = 0; t < steps; ++t)
        for (int l = 0; l < p.lanes; ++l) {
          const int64_t kk = int64_t(t) * p.lanes + l, col = n0 + r;
          s.at(r, t, l) = kk < k && col < n ? w[size_t(kk * n + col)] : 0;
        }
    sum += speedup(p, s);
  }
  return groups ? sum / groups : 1.0;
}

} // namespace

TdEstimate estimateTensorDash(const config::Config& cfg, double zerosA,
                              const std::vector<int8_t>& weights, int64_t k, int64_t n) {
  TdEstimate e;
  if (!cfg.tensordash.enabled || k <= 0 || n <= 0)
    return e;
  const tensordash::TensorDashParams p = tensordash::paramsFromConfig(cfg);
  const int64_t steps = std::min<int64_t>(kMaxSteps, (k + p.lanes - 1) / p.lanes);
  e.speedupA = speedupOfActivations(p, zerosA, steps);
  if (int64_t(weights.size()) == k * n)
    e.speedupB = speedupOfWeights(p, weights, k, n, steps);
  return e;
}

} // namespace by::compiler
