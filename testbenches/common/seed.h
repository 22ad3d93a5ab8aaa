// Seeds for randomised tests: fixed by default, printed always, overridable with BY_SEED so
// that any failure can be replayed exactly.
#pragma once

#include <cstdint>
#include <string>

namespace by::test {

/// Returns BY_SEED from the environment if set, else `fixedSeed`; prints the seed used and
/// how to replay it.
uint64_t testSeed(uint64_t fixedSeed, const std::string& what);

} // namespace by::test
