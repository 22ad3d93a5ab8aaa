#include "tensordash_spec/params.h"

#include "config/derived.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace by::tensordash {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw std::invalid_argument("tensordash: " + field + ": " + what);
}

std::string str(int v) {
  return std::to_string(v);
}

std::string str(const Candidate& c) {
  return "(" + str(c.dt) + "," + str(c.dl) + ")";
}

} // namespace

std::vector<Candidate> tPattern(int lookahead) {
  // Oldest step first (draining early steps is what lets the window advance), own lane
  // first within a step, then lookaside by distance. Against the order in which DESIGN.md
  // lists the set: about 5% fewer cycles at 16 lanes and 40-60% sparsity (the
  // PriorityOrder speedup test, docs/tensordash.md).
  static constexpr Candidate kT[] = {{0, 0},  {1, 0}, {1, -1}, {1, +1},
                                     {1, +3}, {2, 0}, {2, -2}, {2, +2}};
  std::vector<Candidate> out;
  for (const Candidate& c : kT)
    if (c.dt <= lookahead)
      out.push_back(c);
  return out;
}

void TensorDashParams::validate() const {
  if (lanes < 2 || lanes > kMaxLanes)
    fail("lanes", "value " + str(lanes) + " is out of range; TensorDash needs vector PEs with 2.." +
                      str(kMaxLanes) + " lanes");
  if (lookahead < 1 || lookahead > kMaxLookahead)
    fail("lookahead", "value " + str(lookahead) + " is out of range; expected 1.." +
                          str(kMaxLookahead) + " (window depth lookahead+1)");
  if (pattern.empty() || pattern.front() != Candidate{0, 0})
    fail("pattern", "the first candidate must be (0,0), each lane's own dense value");
  if (candidates() > kMaxCandidates)
    fail("pattern", str(candidates()) + " candidates; at most " + str(kMaxCandidates));
  for (size_t i = 0; i < pattern.size(); ++i) {
    const Candidate& c = pattern[i];
    if (c.dt < 0 || c.dt > lookahead)
      fail("pattern", "candidate " + str(static_cast<int>(i)) + " " + str(c) +
                          ": step offset outside the window; expected 0.." + str(lookahead));
    if (std::abs(c.dl) >= kMaxLanes)
      fail("pattern", "candidate " + str(static_cast<int>(i)) + " " + str(c) +
                          ": lane offset too large; expected |dl| < " + str(kMaxLanes));
    for (size_t j = 0; j < i; ++j)
      if (pattern[j] == c)
        fail("pattern", "candidate " + str(static_cast<int>(i)) + " " + str(c) +
                            " repeats candidate " + str(static_cast<int>(j)));
  }
  if (rows < 1)
    fail("rows", "value " + str(rows) + "; expected at least 1 PE row");
  if (rowsPerScheduler < 1 || rows % rowsPerScheduler != 0)
    fail("rows_per_scheduler", "value " + str(rowsPerScheduler) + " does not divide rows = " +
                                   str(rows) + "; every scheduler serves the same number of rows");
}

TensorDashParams paramsFromConfig(const config::Config& config) {
  if (config.array.dataflow == config::Dataflow::WS)
    fail("array.dataflow", "ws: TensorDash schedules the reduction dimension in time, which "
                           "only the output-stationary dataflow has; expected os or both");
  const int dim = config::derive(config).dim;
  if (config.array.lanes < 2)
    fail("array.lanes",
         "value " + str(config.array.lanes) +
             ": TensorDash needs vector PEs (lanes >= 2) to move pairs between lanes");
  if (dim % config.tensordash.rowsPerScheduler != 0)
    fail("sparsity.tensordash.rows_per_scheduler",
         "value " + str(config.tensordash.rowsPerScheduler) + " does not divide DIM = " + str(dim));
  TensorDashParams p;
  p.lanes = config.array.lanes;
  p.lookahead = config.tensordash.lookahead;
  p.pattern = tPattern(p.lookahead);
  p.rows = dim;
  p.rowsPerScheduler = config.tensordash.rowsPerScheduler;
  p.validate();
  return p;
}

} // namespace by::tensordash
