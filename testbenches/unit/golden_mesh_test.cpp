// The beat-level mesh model, driven with the mesh protocol, computes exactly the plain
// matrix products of golden/matmul (an independent formulation of the same arithmetic).
#include "config/loader.h"
#include "golden/matmul.h"
#include "golden/mesh_model.h"
#include "hwspec/array_params.h"
#include "mesh_protocol.h"
#include "seed.h"

#include <gtest/gtest.h>
#include <random>

using namespace by;
using namespace by::test;
using golden::Matrix;

namespace {

hw::ArrayParams paramsOf(const std::string& name) {
  return hw::arrayParams(
      config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml"));
}

std::vector<golden::MeshResult> run(golden::MeshModel& m, const std::vector<golden::MeshBeat>& b) {
  std::vector<golden::MeshResult> out;
  for (const auto& beat : b)
    out.push_back(m.step(beat));
  return out;
}

class GoldenMesh : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST(GoldenMeshHand, IdentityTimesWeightsIsWeights) {
  hw::ArrayParams p = paramsOf("tiny");
  golden::MeshModel mesh(p);
  Matrix w(4, 4), a(4, 4), d(4, 4);
  for (int i = 0; i < 4; ++i) {
    a.at(i, i) = 1;
    for (int j = 0; j < 4; ++j)
      w.at(i, j) = 10 * i + j;
  }
  run(mesh, wsPreloadBeats(p, w, false));
  auto res = run(mesh, wsComputeBeats(p, a, d, true));
  EXPECT_EQ(resultRows(p, res, 0, 4, false), w);
}

TEST_P(GoldenMesh, RandomMatmulsWsAndOs) {
  const hw::ArrayParams p = paramsOf(GetParam());
  std::mt19937_64 rng(testSeed(42, "golden mesh " + GetParam()));
  golden::MeshModel mesh(p);
  const int k = p.dim * p.lanes;
  bool prop = false;
  for (int iter = 0; iter < 50; ++iter) {
    if (p.hasWs) {
      const int m = 1 + static_cast<int>(rng() % (2 * p.dim));
      Matrix w = randomMatrix(rng, k, p.dim, -128, 127);
      Matrix a = randomMatrix(rng, m, k, -128, 127);
      Matrix d =
          randomMatrix(rng, m, p.dim, -(1 << (p.outputWidth - 1)), (1 << (p.outputWidth - 1)) - 1);
      run(mesh, wsPreloadBeats(p, w, prop));
      auto res = run(mesh, wsComputeBeats(p, a, d, !prop));
      ASSERT_EQ(resultRows(p, res, 0, m, false), golden::matmulWs(a, w, d, p.outputWidth))
          << "WS iteration " << iter;
      prop = !prop;
    }
    if (p.hasOs) {
      const int steps = 1 + static_cast<int>(rng() % (2 * p.dim));
      const unsigned shift = static_cast<unsigned>(rng() % 12);
      Matrix a = randomMatrix(rng, p.dim, steps * p.lanes, -128, 127);
      Matrix b = randomMatrix(rng, steps * p.lanes, p.dim, -128, 127);
      Matrix d = randomMatrix(rng, p.dim, p.dim, -1000, 1000);
      run(mesh, osPreloadBeats(p, d, prop));
      run(mesh, osComputeBeats(p, a, b, !prop));
      auto res = run(mesh, osDrainBeats(p, prop, shift));
      ASSERT_EQ(resultRows(p, res, 0, p.dim, true),
                golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, static_cast<int>(shift)))
          << "OS iteration " << iter;
      prop = !prop;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, GoldenMesh,
                         ::testing::Values("tiny", "tiles2x2", "lanes4", "default", "large32"));
