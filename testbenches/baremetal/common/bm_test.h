/* Shared helpers of the bare-metal suite (testbenches/baremetal). Every program builds for the
 * SoC (riscv64, BY_HAL_ROCC / BY_HAL_MMIO) and for the host (BY_HAL_HOST, functional model),
 * checks its results against an independent CPU reference (bm_ref.h), prints what failed and
 * exits 0 (all checks passed) or 1.
 *
 * Seeds: fixed per program and printed; on the host BY_SEED in the environment replaces it, on
 * the SoC rebuild with -DBY_SEED=N. */
#ifndef BRICKYARD_BM_TEST_H
#define BRICKYARD_BM_TEST_H

#include "brickyard/brickyard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(BY_HAL_HOST) || defined(BY_HAL_HOST_MMIO)
#define BM_ON_HOST 1
#else
#define BM_ON_HOST 0
#endif

static int bm_failures;
static uint64_t bm_rng = 1;

#define BM_CHECK(cond, ...)                                                                        \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("check failed (%s:%d): ", __FILE__, __LINE__);                                        \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
      ++bm_failures;                                                                               \
    }                                                                                              \
  } while (0)

/* Picks and prints the seed; BY_SEED (environment on the host, macro on the SoC) overrides. */
static inline uint64_t bm_seed(uint64_t fixed, const char* what) {
  uint64_t seed = fixed;
#if BM_ON_HOST
  const char* env = getenv("BY_SEED");
  if (env && *env)
    seed = strtoull(env, NULL, 0);
#elif defined(BY_SEED)
  seed = BY_SEED;
#endif
  printf("[seed] %s: seed %llu (replay with BY_SEED=%llu)\n", what, (unsigned long long)seed,
         (unsigned long long)seed);
  bm_rng = seed * 2654435761u + 0x9e3779b97f4a7c15ull;
  if (bm_rng == 0)
    bm_rng = 1;
  return seed;
}

/* xorshift64*: the same sequence on every platform. */
static inline uint32_t bm_rand(void) {
  bm_rng ^= bm_rng >> 12;
  bm_rng ^= bm_rng << 25;
  bm_rng ^= bm_rng >> 27;
  return (uint32_t)((bm_rng * 2685821657736338717ull) >> 32);
}
/* Uniform in [lo, hi]. */
static inline int32_t bm_rand_range(int32_t lo, int32_t hi) {
  return lo + (int32_t)(bm_rand() % (uint32_t)(hi - lo + 1));
}
static inline void bm_fill(by_elem_t* p, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; ++i)
    p[i] = (by_elem_t)bm_rand_range(lo, hi);
}
static inline void bm_fill_acc(by_acc_t* p, size_t n, int32_t lo, int32_t hi) {
  for (size_t i = 0; i < n; ++i)
    p[i] = (by_acc_t)bm_rand_range(lo, hi);
}

/* Compares n elements; prints the first mismatches. Returns the number of mismatches. */
static inline size_t bm_compare(const char* what, const by_elem_t* got, const by_elem_t* want,
                                size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i] && bad++ < 5)
      printf("  %s[%lu]: got %d, want %d\n", what, (unsigned long)i, got[i], want[i]);
  BM_CHECK(bad == 0, "%s: %lu of %lu elements differ", what, (unsigned long)bad, (unsigned long)n);
  return bad;
}
static inline size_t bm_compare_acc(const char* what, const by_acc_t* got, const by_acc_t* want,
                                    size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i] && bad++ < 5)
      printf("  %s[%lu]: got %ld, want %ld\n", what, (unsigned long)i, (long)got[i], (long)want[i]);
  BM_CHECK(bad == 0, "%s: %lu of %lu elements differ", what, (unsigned long)bad, (unsigned long)n);
  return bad;
}

/* A kernel call that must succeed; on failure prints the status and the hardware error. */
#define BM_OK(call)                                                                                \
  do {                                                                                             \
    const by_status_t bm_s_ = (call);                                                              \
    if (bm_s_ != BY_OK) {                                                                          \
      const by_error_t bm_e_ = by_error();                                                         \
      BM_CHECK(0, "%s: %s (hardware error %s, funct %u)", #call, by_status_string(bm_s_),          \
               by_error_name(bm_e_.code), (unsigned)bm_e_.funct);                                  \
    }                                                                                              \
  } while (0)

/* No command since the last clear was rejected. */
static inline void bm_expect_no_hw_error(const char* what) {
  by_fence();
  const by_error_t e = by_error();
  BM_CHECK(e.code == BY_ERROR_NONE, "%s: hardware error %s (funct %u)", what, by_error_name(e.code),
           (unsigned)e.funct);
}

static inline void bm_fill_zero(void* p, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    ((volatile unsigned char*)p)[i] = 0;
}

static inline int bm_finish(const char* name) {
  printf("%s: %s (%d failed checks)\n", name, bm_failures ? "FAIL" : "PASS", bm_failures);
  return bm_failures ? 1 : 0;
}

#endif /* BRICKYARD_BM_TEST_H */
