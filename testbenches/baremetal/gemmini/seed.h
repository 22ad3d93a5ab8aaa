/* Fixed, printed seeds for the Gemmini-style programs (which draw data with rand()): BY_SEED in
 * the environment (host) or as a macro (SoC) replays another one. */
#ifndef BRICKYARD_GEMMINI_SEED_H
#define BRICKYARD_GEMMINI_SEED_H
#include <stdio.h>
#include <stdlib.h>
static inline void seed_rand(unsigned fixed, const char* what) {
  unsigned seed = fixed;
#if defined(BY_HAL_HOST) || defined(BY_HAL_HOST_MMIO)
  const char* env = getenv("BY_SEED");
  if (env && *env)
    seed = (unsigned)strtoul(env, NULL, 0);
#elif defined(BY_SEED)
  seed = BY_SEED;
#endif
  printf("[seed] %s: seed %u (replay with BY_SEED=%u)\n", what, seed, seed);
  srand(seed);
}
#endif
