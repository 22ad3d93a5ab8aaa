// Parameters of the TensorDash staging window and scheduler (docs/tensordash.md).
//
// One typed struct shared by the C++ model and, later, the RTL generator: both are built
// from the same validated TensorDashParams so that they produce the same schedule.
#pragma once

#include "config/config.h"

#include <vector>

namespace by::tensordash {

/// One multiplexer input of a multiplier lane: the window entry `dt` steps ahead of the
/// window base, on lane (lane + dl) mod lanes (lanes form a ring).
struct Candidate {
  int dt = 0;
  int dl = 0;
  bool operator==(const Candidate& o) const { return dt == o.dt && dl == o.dl; }
  bool operator!=(const Candidate& o) const { return !(*this == o); }
};

/// The lane `offset` lanes away from `lane` on the ring of `lanes` lanes.
inline int ringLane(int lane, int offset, int lanes) {
  return ((lane + offset) % lanes + lanes) % lanes;
}

/// The "T" pattern of the paper in priority order, which is also the select encoding:
///   0 (0,0) dense, 1 (+1,0), 2 (+1,-1), 3 (+1,+1), 4 (+1,+3), 5 (+2,0), 6 (+2,-2), 7 (+2,+2)
/// keeping only the entries with dt <= lookahead (lookahead 1: the first five).
std::vector<Candidate> tPattern(int lookahead = 2);

/// Limits of the model. The code is generic in the window depth; the hardware plan
/// (DESIGN.md §4.2) and the config schema allow lookahead 1..2, so that is what is accepted.
constexpr int kMaxLanes = 64;      // a window step's non-zero bitmap is one 64-bit word
constexpr int kMaxLookahead = 2;   // window depth 3
constexpr int kMaxCandidates = 32; // selects are stored as int8

struct TensorDashParams {
  int lanes = 4;                                // multipliers per PE (dot-product width)
  int lookahead = 2;                            // window holds steps t .. t+lookahead
  std::vector<Candidate> pattern = tPattern(2); // mux inputs, highest priority first
  int rows = 1;                                 // PE rows = scheduled operand streams
  int rowsPerScheduler = 1;                     // rows sharing one schedule (one group)

  int depth() const { return lookahead + 1; }
  int groups() const { return rows / rowsPerScheduler; }
  int groupOf(int row) const { return row / rowsPerScheduler; }
  int candidates() const { return static_cast<int>(pattern.size()); }

  /// Throws std::invalid_argument naming the field, its value and what is allowed.
  void validate() const;
};

/// Builds validated parameters from a Brickyard config: lanes = array.lanes, lookahead =
/// sparsity.tensordash.lookahead, rowsPerScheduler = sparsity.tensordash.rows_per_scheduler,
/// rows = DIM, pattern = tPattern(lookahead). Throws std::invalid_argument if the config
/// cannot host TensorDash (lanes < 2, a weight-stationary-only array, rows_per_scheduler not
/// dividing DIM). Does not look at sparsity.tensordash.enabled.
TensorDashParams paramsFromConfig(const config::Config& config);

} // namespace by::tensordash
