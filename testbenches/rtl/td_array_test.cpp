// The generated TensorDash array (by_td_array: front end + mesh) against two independent
// references: the cycle-exact C++ scheduler (tensordash::runScheduler) for the schedule —
// the number of beats of every compute pass, and per beat every group's selects and the
// window advance — and golden::matmulOs for the results, which must equal the dense array's
// bit for bit. Random A at 0..100% sparsity, adversarial patterns, TensorDash off (dense
// beats), and zeros only in B.
#include "seed.h"
#include "td_array_driver.h"
#include "tensordash/scheduler.h"

#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <random>

namespace by::test {
namespace {

tensordash::Streams streamsOf(const Matrix& a, int lanes) {
  tensordash::Streams s(a.rows, a.cols / lanes, lanes);
  for (int r = 0; r < a.rows; ++r)
    for (int k = 0; k < a.cols; ++k)
      s.at(r, k / lanes, k % lanes) = static_cast<int32_t>(a.at(r, k));
  return s;
}

Matrix randomMatrix(std::mt19937_64& rng, int rows, int cols, double sparsity) {
  Matrix m(rows, cols);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> v(-128, 127);
  for (auto& x : m.v)
    x = u(rng) < sparsity ? 0 : v(rng);
  return m;
}

/// Runs one product through the array with TensorDash on and checks results and schedule.
void checkPass(TdArray& t, const Matrix& a, const Matrix& b, const Matrix& d, unsigned shift,
               const std::string& what) {
  const hw::ArrayParams& p = t.params();
  const Matrix want = golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, static_cast<int>(shift));
  const TdArray::Pass got = t.run(a, b, d, shift, true);
  ASSERT_EQ(got.c, want) << what << ": results differ from the dense product";
  const tensordash::Schedule s = tensordash::runScheduler(t.tdParams(), streamsOf(a, p.lanes));
  ASSERT_EQ(got.beats, s.cycles()) << what << ": beats vs the C++ scheduler's cycles";
  for (int c = 0; c < s.cycles(); ++c) {
    ASSERT_EQ(got.advance[c], s.advance(c)) << what << ": advance of beat " << c;
    for (int g = 0; g < t.tdParams().groups(); ++g)
      for (int l = 0; l < p.lanes; ++l)
        ASSERT_EQ(got.sel[c][g * p.lanes + l], s.select(c, g, l))
            << what << ": select of beat " << c << ", group " << g << ", lane " << l;
  }
}

TEST(TdArray, RandomSparsityMatchesSchedulerAndDenseResults) {
  TdArray t;
  const hw::ArrayParams& p = t.params();
  std::mt19937_64 rng(testSeed(31, "TensorDash array, random sparsity"));
  std::uniform_int_distribution<int> stepsDist(1, 24);
  int passes = 0;
  for (int pct = 0; pct <= 100; pct += 10)
    for (int rep = 0; rep < 6; ++rep, ++passes) {
      const int k = stepsDist(rng) * p.lanes;
      const Matrix a = randomMatrix(rng, p.dim, k, pct / 100.0);
      const Matrix b = randomMatrix(rng, k, p.dim, rep == 5 ? 0.5 : 0.0);
      const Matrix d = randomMatrix(rng, p.dim, p.dim, 0.3);
      checkPass(t, a, b, d, static_cast<unsigned>(rep % 3),
                "sparsity " + std::to_string(pct) + "% pass " + std::to_string(rep) +
                    " (K=" + std::to_string(k) + ")");
    }
  std::printf("TensorDash array %s: %d passes, results and schedules match\n", BY_CONFIG_NAME,
              passes);
}

TEST(TdArray, AdversarialPatterns) {
  TdArray t;
  const hw::ArrayParams& p = t.params();
  const int steps = 12, k = steps * p.lanes;
  std::mt19937_64 rng(testSeed(32, "TensorDash array, adversarial patterns"));
  const Matrix b = randomMatrix(rng, k, p.dim, 0.0);
  const Matrix d = randomMatrix(rng, p.dim, p.dim, 0.0);
  const std::vector<std::pair<std::string, std::function<int64_t(int, int)>>> patterns = {
      {"all zero", [](int, int) { return 0; }},
      {"all -128", [](int, int) { return -128; }},
      {"single non-zero", [&](int r, int c) { return r == 1 % p.dim && c == k / 2 ? 127 : 0; }},
      {"checkerboard", [](int r, int c) { return (r + c) % 2 ? 5 : 0; }},
      {"one dense lane", [&](int, int c) { return c % p.lanes == 1 ? -7 : 0; }},
      {"one dense row", [&](int r, int c) { return r == 0 || c % 5 == 0 ? 3 : 0; }},
      {"last step only", [&](int, int c) { return c >= k - p.lanes ? 9 : 0; }},
  };
  for (const auto& [name, f] : patterns) {
    Matrix a(p.dim, k);
    for (int r = 0; r < p.dim; ++r)
      for (int c = 0; c < k; ++c)
        a.at(r, c) = f(r, c);
    checkPass(t, a, b, d, 1, name);
  }
  // Zeros only in B: nothing to skip on the scheduled side, results still exact.
  const Matrix a = randomMatrix(rng, p.dim, k, 0.0);
  const Matrix bSparse = randomMatrix(rng, k, p.dim, 0.8);
  checkPass(t, a, bSparse, d, 0, "zeros only in B");
}

TEST(TdArray, DisabledIssuesDenseBeats) {
  TdArray t;
  const hw::ArrayParams& p = t.params();
  std::mt19937_64 rng(testSeed(33, "TensorDash array, disabled"));
  for (double s : {0.0, 0.7}) {
    const int k = 10 * p.lanes;
    const Matrix a = randomMatrix(rng, p.dim, k, s), b = randomMatrix(rng, k, p.dim, 0.2);
    const Matrix d = randomMatrix(rng, p.dim, p.dim, 0.0);
    const TdArray::Pass got = t.run(a, b, d, 2, false);
    EXPECT_EQ(got.c, golden::matmulOs(a, b, d, p.accWidth, p.outputWidth, 2));
    EXPECT_EQ(got.beats, k / p.lanes) << "one beat per step when disabled";
    for (int c = 0; c < got.beats; ++c)
      for (int sel : got.sel[c])
        ASSERT_EQ(sel, 0) << "disabled: every lane its own value";
  }
}

} // namespace
} // namespace by::test
