/* Self-checks for the bare-metal test programs: print what failed, count it, and let main
 * return the count (non-zero = failure) as the exit code. */
#ifndef BRICKYARD_TEST_CHECK_H
#define BRICKYARD_TEST_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("check failed (%s:%d): ", __FILE__, __LINE__);                                        \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
      ++check_failures;                                                                            \
    }                                                                                              \
  } while (0)

#endif /* BRICKYARD_TEST_CHECK_H */
