/* Element checks and random operands of the Gemmini-style programs: check() prints one line
 * per comparison and clears `ok` on the first differing element. */
#ifndef BRICKYARD_GEMMINI_CHECK_H
#define BRICKYARD_GEMMINI_CHECK_H

#include "include/gemmini.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static int ok = 1;
static void check(const elem_t* got, const elem_t* want, size_t n, const char* what) {
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      printf("%s: element %u is %d, expected %d\n", what, (unsigned)i, got[i], want[i]);
      ok = 0;
      return;
    }
  printf("%s: ok\n", what);
}
/* n values uniform in [lo, hi] from rand() (the program seeds it: seed.h). */
static void fill(elem_t* x, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; ++i)
    x[i] = (elem_t)(lo + rand() % (hi - lo + 1));
}

#endif
