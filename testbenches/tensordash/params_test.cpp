// TensorDashParams: validation messages, the T pattern and the config helper.
#include "config/loader.h"
#include "tensordash_spec/params.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace by;
using tensordash::Candidate;
using tensordash::TensorDashParams;

namespace {

// Expects validate() to throw std::invalid_argument whose message contains `needle`.
void expectRejected(const TensorDashParams& p, const std::string& needle) {
  try {
    p.validate();
    ADD_FAILURE() << "accepted; expected an error mentioning '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

config::Config loadConfig(const std::string& name) {
  return config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/" + name + ".yaml");
}

} // namespace

TEST(TensorDashParams, DefaultsAreValidT) {
  TensorDashParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.depth(), 3);
  EXPECT_EQ(p.candidates(), 8);
  // The paper's T set, in the documented priority order (docs/tensordash.md).
  const std::vector<Candidate> t = {{0, 0}, {1, 0}, {1, -1}, {1, 1},
                                    {1, 3}, {2, 0}, {2, -2}, {2, 2}};
  EXPECT_EQ(p.pattern, t);
  EXPECT_EQ(tensordash::tPattern(1), std::vector<Candidate>(t.begin(), t.begin() + 5));
}

TEST(TensorDashParams, RejectsBadValues) {
  TensorDashParams p;
  p.lanes = 1;
  expectRejected(p, "lanes: value 1");
  p.lanes = 65;
  expectRejected(p, "lanes: value 65");

  p = {};
  p.lookahead = 0;
  expectRejected(p, "lookahead: value 0");
  p.lookahead = 3;
  expectRejected(p, "lookahead: value 3");

  p = {};
  p.lookahead = 1; // the default pattern has dt = 2 entries
  expectRejected(p, "candidate 5 (2,0): step offset outside the window");

  p = {};
  p.pattern = {{1, 0}, {0, 0}};
  expectRejected(p, "first candidate must be (0,0)");
  p.pattern.clear();
  expectRejected(p, "first candidate must be (0,0)");
  p.pattern = {{0, 0}, {1, 0}, {1, 0}};
  expectRejected(p, "candidate 2 (1,0) repeats candidate 1");
  p.pattern = {{0, 0}, {-1, 0}};
  expectRejected(p, "step offset outside the window");
  p.pattern = {{0, 0}, {1, 64}};
  expectRejected(p, "lane offset too large");

  p = {};
  p.rows = 0;
  expectRejected(p, "rows: value 0");
  p.rows = 6;
  p.rowsPerScheduler = 4;
  expectRejected(p, "rows_per_scheduler: value 4 does not divide rows = 6");
  p.rowsPerScheduler = 3;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.groups(), 2);
  EXPECT_EQ(p.groupOf(4), 1);
}

TEST(TensorDashParams, FromConfig) {
  config::Config c = loadConfig("lanes4"); // 4x4 array of 4-lane PEs, both dataflows
  TensorDashParams p = tensordash::paramsFromConfig(c);
  EXPECT_EQ(p.lanes, 4);
  EXPECT_EQ(p.rows, 4);
  EXPECT_EQ(p.lookahead, c.tensordash.lookahead);
  EXPECT_EQ(p.rowsPerScheduler, c.tensordash.rowsPerScheduler);
  EXPECT_EQ(p.pattern, tensordash::tPattern(p.lookahead));

  // The YAML keys reach the params (lanes4.yaml has no sparsity section of its own).
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/configs/lanes4.yaml");
  std::stringstream yaml;
  yaml << in.rdbuf() << "sparsity:\n  tensordash:\n    lookahead: 1\n"
       << "    rows_per_scheduler: 2\n";
  c = config::loadConfigText(yaml.str(), "lanes4+tensordash.yaml");
  p = tensordash::paramsFromConfig(c);
  EXPECT_EQ(p.lookahead, 1);
  EXPECT_EQ(p.pattern, tensordash::tPattern(1));
  EXPECT_EQ(p.groups(), 2);

  c.tensordash.rowsPerScheduler = 3;
  EXPECT_THROW(
      {
        try {
          tensordash::paramsFromConfig(c);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("sparsity.tensordash.rows_per_scheduler"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      std::invalid_argument);

  c.tensordash.rowsPerScheduler = 1;
  c.array.dataflow = config::Dataflow::WS;
  EXPECT_THROW(tensordash::paramsFromConfig(c), std::invalid_argument);
  c.array.dataflow = config::Dataflow::OS;
  EXPECT_NO_THROW(tensordash::paramsFromConfig(c));

  // The classic Gemmini PE (lanes: 1) cannot move pairs between lanes.
  EXPECT_THROW(tensordash::paramsFromConfig(loadConfig("tiny")), std::invalid_argument);
}
