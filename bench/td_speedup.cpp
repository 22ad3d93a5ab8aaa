// TensorDash speedup on the generated RTL (by_td_array) against the C++ model, for A (the
// scheduled operand) with a given zero fraction: beats of a long OS compute pass with
// TensorDash on and off, and the model's cycles for the same data. Results are checked
// against the dense product on every run.
//
//   bench_td_speedup_<config> [steps]     (default 3000 reduction steps per point)
#include "golden/matmul.h"
#include "td_array_driver.h"
#include "tensordash/scheduler.h"

#include <cstdio>
#include <cstdlib>
#include <random>

using namespace by;

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 3000;
  test::TdArray t;
  const hw::ArrayParams& p = t.params();
  std::mt19937_64 rng(7);
  std::printf("TensorDash %s: %dx%d PEs x %d lanes, lookahead %d, %d row(s) per scheduler, "
              "%d steps, A uniform in [-128,127] with the given zero fraction, seed 7\n",
              BY_CONFIG_NAME, p.dim, p.dim, p.lanes, p.tdLookahead, p.tdRowsPerScheduler, steps);
  std::printf("| sparsity | ideal | RTL speedup | model speedup | RTL beats (on / off) |\n"
              "|---:|---:|---:|---:|---:|\n");
  for (double s : {0.0, 0.3, 0.5, 0.7, 0.9}) {
    golden::Matrix a(p.dim, steps * p.lanes), b(steps * p.lanes, p.dim), d(p.dim, p.dim);
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> v(-128, 127);
    for (auto& x : a.v)
      x = u(rng) < s ? 0 : v(rng);
    for (auto& x : b.v)
      x = v(rng);
    const test::TdArray::Pass on = t.run(a, b, d, 0, true);
    const test::TdArray::Pass off = t.run(a, b, d, 0, false);
    const golden::Matrix want = golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, 0);
    if (!(on.c == want) || !(off.c == want)) {
      std::fprintf(stderr, "results differ from the dense product at sparsity %.1f\n", s);
      return 1;
    }
    tensordash::Streams streams(p.dim, steps, p.lanes);
    for (int r = 0; r < p.dim; ++r)
      for (int k = 0; k < steps * p.lanes; ++k)
        streams.at(r, k / p.lanes, k % p.lanes) = static_cast<int32_t>(a.at(r, k));
    const int64_t model = tensordash::cyclesFor(t.tdParams(), streams);
    const double ideal = std::min(1.0 / std::max(1e-9, 1.0 - s), double(p.tdLookahead + 1));
    std::printf("| %.0f%% | %.2f | %.3f | %.3f | %d / %d |\n", 100 * s, ideal,
                double(off.beats) / on.beats, double(steps) / model, on.beats, off.beats);
  }
  return 0;
}
