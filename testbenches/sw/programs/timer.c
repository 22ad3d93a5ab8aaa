/* Reads the cycle timer around a loop of a known number of instructions; the test checks
 * the printed count against the config's CPI. */
#include "brickyard/runtime.h"
#include "check.h"

#define LOOP_ITERATIONS 1000 /* two instructions each: addi + bnez */

int main(void) {
  const uint64_t t0 = by_read_cycles();
  uint64_t n = LOOP_ITERATIONS;
  __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
  const uint64_t t1 = by_read_cycles();
  /* One 64-bit load: the host splits it into low then high word, which the timer latches. */
  const uint64_t t2 = *(volatile uint64_t*)(uintptr_t)BY_SOC_TIMER_BASE;
  printf("timer: %d loop instructions took %llu cycles\n", 2 * LOOP_ITERATIONS,
         (unsigned long long)(t1 - t0));
  CHECK(t1 > t0, "timer did not advance: %llu -> %llu", (unsigned long long)t0,
        (unsigned long long)t1);
  CHECK(t2 > t1, "64-bit timer read went back: %llu -> %llu", (unsigned long long)t1,
        (unsigned long long)t2);
  return check_failures;
}
