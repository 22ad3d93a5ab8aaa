/* A program that checks its own results and returns the number of failed checks. Built
 * twice: selfcheck_pass, and selfcheck_fail with INJECT_FAILURE (a wrong expectation). */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef INJECT_FAILURE
#define INJECT_FAILURE 0
#endif

static int compare(const void* a, const void* b) {
  const int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

int main(void) {
  int64_t sum = 0;
  for (int i = 1; i <= 100; ++i)
    sum += i;
  CHECK(sum == 5050 + INJECT_FAILURE, "sum(1..100) = %lld, expected %d", (long long)sum,
        5050 + INJECT_FAILURE);

  int v[8] = {5, -3, 9, 0, 2, 2, -8, 7};
  qsort(v, 8, sizeof v[0], compare);
  const int sorted[8] = {-8, -3, 0, 2, 2, 5, 7, 9};
  CHECK(memcmp(v, sorted, sizeof v) == 0, "qsort result");

  volatile double x = 1.5;
  CHECK(x * x * 4.0 == 9.0, "1.5^2 * 4 = %f", x * x * 4.0);

  printf("selfcheck: %d failure(s)\n", check_failures);
  return check_failures ? 3 : 0;
}
