// Verilator simulation speed of the bare 16x16 mesh (default config): a continuous stream of
// valid OS beats (random operands, a prop flip every DIM beats), single thread, in cycles per
// second of wall time. The beats are prepared before timing so only the model is measured.
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>

#include BY_MODEL_HEADER
#include "rtl_config.h"
#include "verilator_ports.h"

int main(int argc, char** argv) {
  const long cycles = argc > 1 ? std::atol(argv[1]) : 2000000;
  const by::hw::ArrayParams p = by::hw::arrayParams(by::test::builtConfig());
  auto ctx = std::make_unique<VerilatedContext>();
  auto mesh = std::make_unique<BY_MODEL>(ctx.get(), "mesh");
  std::mt19937_64 rng(1);
  // A pool of operand patterns, cycled through.
  std::vector<by::golden::BitVec> a(64, by::golden::BitVec(p.dim * p.aWidth())),
      b(64, by::golden::BitVec(p.dim * p.bWidth()));
  for (auto* pool : {&a, &b})
    for (auto& v : *pool)
      for (int lsb = 0; lsb + 8 <= v.width(); lsb += 8)
        v.set(lsb, 8, rng());
  mesh->rst_ni = 0;
  mesh->clk_i = 0;
  mesh->eval();
  mesh->rst_ni = 1;
  long results = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long c = 0; c < cycles; ++c) {
    mesh->in_valid_i = 1;
    mesh->in_prop_i = (c / p.dim) & 1;
    by::test::setOptionalControls(*mesh, false, 0);
    by::test::setPort(mesh->in_a_i, a[static_cast<size_t>(c) & 63]);
    by::test::setPort(mesh->in_b_i, b[static_cast<size_t>(c * 7) & 63]);
    mesh->clk_i = 1;
    mesh->eval();
    mesh->clk_i = 0;
    mesh->eval();
    results += mesh->out_valid_o;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("mesh %dx%d (lanes %d): %ld cycles in %.3f s = %.0f cycles/s (%ld results)\n", p.dim,
              p.dim, p.lanes, cycles, s, cycles / s, results);
  mesh->final();
  return 0;
}
