// by_mesh against the golden models: random beat streams against the beat-level mesh
// model, and matrix products through the mesh protocol against plain matmul, including
// extreme values, accumulation overflow, rounding ties and saturation.
#include <gtest/gtest.h>
#include <memory>
#include <random>

#include BY_MODEL_HEADER
#include "golden/matmul.h"
#include "golden/mesh_model.h"
#include "mesh_protocol.h"
#include "rtl_config.h"
#include "seed.h"
#include "verilator_ports.h"

using namespace by;
using golden::BitVec;
using golden::Matrix;
using golden::MeshBeat;
using golden::MeshResult;

namespace {

// Drives beats into the Verilated mesh, one per cycle, optionally with idle cycles between
// them, and collects every valid result beat.
class MeshRtl {
public:
  explicit MeshRtl(const hw::ArrayParams& p)
      : p_(p), ctx_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<BY_MODEL>(ctx_.get(), "mesh")) {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
  }
  ~MeshRtl() { top_->final(); }

  std::vector<MeshResult> run(const std::vector<MeshBeat>& beats, std::mt19937_64* rng = nullptr,
                              int idlePercent = 0) {
    std::vector<MeshResult> out;
    for (const MeshBeat& beat : beats) {
      while (rng && static_cast<int>((*rng)() % 100) < idlePercent)
        cycle(idle(), out);
      cycle(beat, out);
    }
    for (int i = 0; i <= p_.latency() + 1; ++i)
      cycle(idle(), out);
    return out;
  }

  long long cycles() const { return cycles_; }

private:
  MeshBeat idle() const {
    MeshBeat b;
    b.valid = false;
    b.a = BitVec(p_.dim * p_.aWidth());
    b.b = BitVec(p_.dim * p_.bWidth());
    b.d = BitVec(p_.dim * p_.dWidth());
    return b;
  }

  void cycle(const MeshBeat& beat, std::vector<MeshResult>& out) {
    top_->in_valid_i = beat.valid;
    top_->in_prop_i = beat.prop;
    test::setOptionalControls(*top_, beat.ws, beat.shift);
    test::setPort(top_->in_a_i, beat.a);
    test::setPort(top_->in_b_i, beat.b);
    test::setPort(top_->in_d_i, beat.d);
    top_->eval();
    if (top_->out_valid_o)
      out.push_back({true, test::getPort(top_->out_result_o, p_.dim * p_.outputWidth)});
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
    ++cycles_;
  }

  hw::ArrayParams p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> top_;
  long long cycles_ = 0;
};

hw::ArrayParams params() {
  return hw::arrayParams(test::builtConfig());
}

int64_t outMax(const hw::ArrayParams& p) {
  return (int64_t{1} << (p.outputWidth - 1)) - 1;
}

// Runs one WS matmul (preload + compute) on both the RTL and the model; checks both against
// the plain reference. Returns the number of beats.
void checkWs(MeshRtl& rtl, golden::MeshModel& model, const Matrix& w, const Matrix& a,
             const Matrix& d, bool prop, std::mt19937_64& rng, const std::string& what) {
  const hw::ArrayParams& p = model.params();
  std::vector<MeshBeat> beats = test::wsPreloadBeats(p, w, prop);
  const auto compute = test::wsComputeBeats(p, a, d, !prop);
  beats.insert(beats.end(), compute.begin(), compute.end());
  const auto got = rtl.run(beats, &rng, 10);
  ASSERT_EQ(got.size(), beats.size()) << what;
  for (size_t i = 0; i < beats.size(); ++i)
    ASSERT_EQ(got[i].result.hex(), model.step(beats[i]).result.hex()) << what << " beat " << i;
  ASSERT_EQ(test::resultRows(p, got, static_cast<size_t>(p.dim), a.rows, false),
            golden::matmulWs(a, w, d, p.outputWidth))
      << what;
}

void checkOs(MeshRtl& rtl, golden::MeshModel& model, const Matrix& a, const Matrix& b,
             const Matrix& d, unsigned shift, bool prop, std::mt19937_64& rng,
             const std::string& what) {
  const hw::ArrayParams& p = model.params();
  std::vector<MeshBeat> beats = test::osPreloadBeats(p, d, prop);
  const auto compute = test::osComputeBeats(p, a, b, !prop);
  const auto drain = test::osDrainBeats(p, prop, shift);
  beats.insert(beats.end(), compute.begin(), compute.end());
  beats.insert(beats.end(), drain.begin(), drain.end());
  const auto got = rtl.run(beats, &rng, 10);
  ASSERT_EQ(got.size(), beats.size()) << what;
  for (size_t i = 0; i < beats.size(); ++i)
    ASSERT_EQ(got[i].result.hex(), model.step(beats[i]).result.hex()) << what << " beat " << i;
  ASSERT_EQ(test::resultRows(p, got, beats.size() - static_cast<size_t>(p.dim), p.dim, true),
            golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, static_cast<int>(shift)))
      << what;
}

} // namespace

TEST(MeshRtl, RandomBeatStreamsMatchTheModel) {
  const hw::ArrayParams p = params();
  std::mt19937_64 rng(test::testSeed(11, std::string("mesh random beats ") + BY_CONFIG_NAME));
  MeshRtl rtl(p);
  golden::MeshModel model(p);
  for (int seq = 0; seq < 20; ++seq) {
    std::vector<MeshBeat> beats;
    bool prop = false, ws = p.hasWs;
    for (int i = 0; i < 400; ++i) {
      MeshBeat b = model.zeroBeat();
      if (rng() % 6 == 0)
        prop = !prop;
      if (p.both() && rng() % 40 == 0)
        ws = !ws;
      b.prop = prop;
      b.ws = ws;
      b.shift = static_cast<unsigned>(rng() % static_cast<uint64_t>(p.accWidth));
      for (auto* v : {&b.a, &b.b, &b.d})
        for (auto& word : v->words())
          word = static_cast<uint32_t>(rng());
      for (auto* v : {&b.a, &b.b, &b.d}) // clear the bits above the width
        if (v->width() % 32)
          v->words().back() &= (1u << (v->width() % 32)) - 1;
      beats.push_back(b);
    }
    const auto got = rtl.run(beats, &rng, 20);
    ASSERT_EQ(got.size(), beats.size());
    for (size_t i = 0; i < beats.size(); ++i)
      ASSERT_EQ(got[i].result.hex(), model.step(beats[i]).result.hex())
          << "sequence " << seq << " beat " << i;
  }
}

TEST(MeshRtl, RandomMatmulsMatchReference) {
  const hw::ArrayParams p = params();
  std::mt19937_64 rng(test::testSeed(23, std::string("mesh matmuls ") + BY_CONFIG_NAME));
  MeshRtl rtl(p);
  golden::MeshModel model(p);
  const int k = p.dim * p.lanes;
  int matrices = 0;
  bool prop = false;
  for (int iter = 0; matrices < 1500; ++iter) {
    if (p.hasWs) {
      const int m = 1 + static_cast<int>(rng() % static_cast<uint64_t>(3 * p.dim));
      Matrix w = test::randomMatrix(rng, k, p.dim, -128, 127);
      Matrix a = test::randomMatrix(rng, m, k, -128, 127);
      Matrix d = test::randomMatrix(rng, m, p.dim, -outMax(p) - 1, outMax(p));
      checkWs(rtl, model, w, a, d, prop, rng, "WS matmul " + std::to_string(iter));
      prop = !prop;
      matrices += 3;
    }
    if (p.hasOs) {
      const int steps = 1 + static_cast<int>(rng() % static_cast<uint64_t>(3 * p.dim));
      Matrix a = test::randomMatrix(rng, p.dim, steps * p.lanes, -128, 127);
      Matrix b = test::randomMatrix(rng, steps * p.lanes, p.dim, -128, 127);
      Matrix d = test::randomMatrix(rng, p.dim, p.dim, -outMax(p) - 1, outMax(p));
      const unsigned shift = static_cast<unsigned>(rng() % 16);
      checkOs(rtl, model, a, b, d, shift, !prop, rng, "OS matmul " + std::to_string(iter));
      matrices += 3;
    }
  }
  std::printf("checked %d random matrices in %lld cycles\n", matrices, rtl.cycles());
  EXPECT_GE(matrices, 1000);
}

TEST(MeshRtl, ExtremeValues) {
  const hw::ArrayParams p = params();
  std::mt19937_64 rng(test::testSeed(31, std::string("mesh extremes ") + BY_CONFIG_NAME));
  MeshRtl rtl(p);
  golden::MeshModel model(p);
  const int k = p.dim * p.lanes;
  auto filled = [](int r, int c, int64_t v) {
    Matrix m(r, c);
    for (auto& x : m.v)
      x = v;
    return m;
  };
  for (int64_t va : {-128, 127})
    for (int64_t vb : {-128, 127}) {
      if (p.hasWs) // sums of dim*lanes products of magnitude 2^14 wrap at the output width
        checkWs(rtl, model, filled(k, p.dim, vb), filled(p.dim, k, va),
                filled(p.dim, p.dim, va < 0 ? -outMax(p) - 1 : outMax(p)), false, rng,
                "WS extremes");
      if (p.hasOs)
        for (unsigned shift : {0u, 1u, 7u, static_cast<unsigned>(p.accWidth - 1)})
          checkOs(rtl, model, filled(p.dim, k, va), filled(k, p.dim, vb),
                  filled(p.dim, p.dim, vb < 0 ? -outMax(p) - 1 : outMax(p)), shift, true, rng,
                  "OS extremes, shift " + std::to_string(shift));
    }
  if (p.hasOs) {
    // Rounding ties: acc = d exactly (a = 0) for d = +-1, +-3, +-5, ... shifted by 1 and 2.
    Matrix d(p.dim, p.dim);
    for (int i = 0; i < p.dim * p.dim; ++i)
      d.v[static_cast<size_t>(i)] = (i % 2 ? -1 : 1) * (2 * (i / 2) + 1);
    for (unsigned shift : {1u, 2u})
      checkOs(rtl, model, filled(p.dim, p.lanes, 0), filled(p.lanes, p.dim, 0), d, shift, true, rng,
              "OS rounding ties");
    // Accumulator overflow: enough 127*127 products to wrap acc_width (only when the test
    // stays short; acc_width 32 needs about 2^31/16129/lanes steps).
    const long long steps = ((1LL << (p.accWidth - 1)) / (127 * 127) / p.lanes) + 100;
    if (steps <= 200000) {
      checkOs(rtl, model, filled(p.dim, static_cast<int>(steps) * p.lanes, 127),
              filled(static_cast<int>(steps) * p.lanes, p.dim, 127), filled(p.dim, p.dim, 0), 0,
              true, rng, "OS accumulator wrap-around");
    }
  }
}
