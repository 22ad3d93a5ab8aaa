// by_pe against golden::PeModel, cycle by cycle, with random and extreme inputs.
#include <gtest/gtest.h>
#include <memory>
#include <random>

#include BY_MODEL_HEADER
#include "golden/mesh_model.h"
#include "rtl_config.h"
#include "seed.h"
#include "verilator_ports.h"

using namespace by;
using golden::BitVec;

namespace {

// Random bits, with a bias towards the extreme element values of `elemWidth`-bit lanes.
BitVec randomBits(std::mt19937_64& rng, int width, int elemWidth) {
  BitVec v(width);
  const int mode = static_cast<int>(rng() % 8);
  for (int lsb = 0; lsb < width; lsb += elemWidth) {
    const int w = std::min(elemWidth, width - lsb);
    uint64_t x = rng();
    if (mode == 0)
      x = uint64_t{1} << (w - 1); // most negative
    else if (mode == 1)
      x = (uint64_t{1} << (w - 1)) - 1; // most positive
    v.set(lsb, w, x);
  }
  return v;
}

} // namespace

TEST(PeRtl, MatchesGoldenCycleByCycle) {
  const hw::ArrayParams p = hw::arrayParams(test::builtConfig());
  auto ctx = std::make_unique<VerilatedContext>();
  auto pe = std::make_unique<BY_MODEL>(ctx.get(), "pe");
  golden::PeModel model(p);
  std::mt19937_64 rng(test::testSeed(7, std::string("PE ") + BY_CONFIG_NAME));

  pe->clk_i = 0;
  pe->rst_ni = 0;
  pe->eval();
  pe->rst_ni = 1;
  pe->eval();
  bool prop = false, ws = p.hasWs;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    golden::PeInputs in;
    in.valid = rng() % 4 != 0;
    if (rng() % 5 == 0)
      prop = !prop;
    if (p.both() && rng() % 50 == 0)
      ws = !ws;
    in.prop = prop;
    in.ws = ws;
    in.shift = static_cast<unsigned>(rng() % static_cast<uint64_t>(p.accWidth));
    in.a = randomBits(rng, p.aWidth(), p.inputWidth);
    in.b = randomBits(rng, p.bWidth(), ws ? p.outputWidth : p.inputWidth);
    in.d = randomBits(rng, p.dWidth(), ws ? p.inputWidth : p.outputWidth);

    pe->in_valid_i = in.valid;
    pe->in_prop_i = in.prop;
    test::setOptionalControls(*pe, in.ws, in.shift);
    test::setPort(pe->in_a_i, in.a);
    test::setPort(pe->in_b_i, in.b);
    test::setPort(pe->in_d_i, in.d);
    pe->eval();
    const golden::PeOutputs want = model.step(in);
    ASSERT_EQ(test::getPort(pe->out_a_o, p.aWidth()), in.a) << "cycle " << cycle;
    ASSERT_EQ(test::getPort(pe->out_b_o, p.bWidth()).hex(), want.b.hex())
        << "out_b at cycle " << cycle << (ws ? " (WS)" : " (OS)");
    ASSERT_EQ(test::getPort(pe->out_c_o, p.dWidth()).hex(), want.c.hex())
        << "out_c at cycle " << cycle << (ws ? " (WS)" : " (OS)");
    pe->clk_i = 1;
    pe->eval();
    pe->clk_i = 0;
    pe->eval();
  }
  pe->final();
}
