// Shared helpers of the TensorDash tests: random and patterned operands, the dense
// reference (golden::matmulOs, independent of the model), and the schedule invariants
// checked from the streams alone (no scheduler internals).
#pragma once

#include "tensordash/schedule.h"
#include "tensordash/streams.h"

#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace by::tdtest {

using tensordash::Schedule;
using tensordash::Streams;
using tensordash::TensorDashParams;

/// Each value is zero with probability `sparsity`, else uniform in [-128, 127] \ {0}.
Streams randomStreams(std::mt19937_64& rng, int count, int steps, int lanes, double sparsity);
/// value(s, t, l) = f(s, t, l).
Streams makeStreams(int count, int steps, int lanes,
                    const std::function<int32_t(int, int, int)>& f);

/// The OS results of the dense array, [row * columns + column], from golden::matmulOs with a
/// zero preload, 32-bit accumulation and no shift.
std::vector<int32_t> denseReference(const Streams& a, const Streams& b);

/// Everything a correct schedule of `a` must satisfy (docs/tensordash.md, "Invariants").
::testing::AssertionResult scheduleInvariants(const Schedule& s, const Streams& a);

/// Runs the scheduler on `a`, checks the invariants, executes on (a, b) and compares the
/// results and the entry use counts with the dense reference and the group bitmaps.
::testing::AssertionResult bitExact(const TensorDashParams& p, const Streams& a, const Streams& b);

} // namespace by::tdtest
