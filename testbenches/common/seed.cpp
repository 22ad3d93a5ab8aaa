#include "seed.h"

#include <cstdio>
#include <cstdlib>

namespace by::test {

uint64_t testSeed(uint64_t fixedSeed, const std::string& what) {
  uint64_t seed = fixedSeed;
  if (const char* env = std::getenv("BY_SEED"))
    seed = std::strtoull(env, nullptr, 0);
  std::printf("[seed] %s: seed %llu (replay with BY_SEED=%llu)\n", what.c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  return seed;
}

} // namespace by::test
