/* A compute-bound loop (integer matrix products) for host-speed measurements; prints a
 * checksum that the test recomputes on the build machine. Unsigned arithmetic: wrap-around
 * is defined, so both sides agree. */
#include <stdint.h>
#include <stdio.h>

#define N 48
#define ROUNDS 8

static uint32_t a[N][N], b[N][N], c[N][N];

int main(void) {
  uint32_t seed = 12345;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      seed = seed * 1664525u + 1013904223u;
      a[i][j] = (seed >> 16) - 32768u;
      seed = seed * 1664525u + 1013904223u;
      b[i][j] = (seed >> 16) - 32768u;
    }
  uint32_t checksum = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        uint32_t acc = (uint32_t)r;
        for (int k = 0; k < N; ++k)
          acc += a[i][k] * b[k][j];
        c[i][j] = acc;
      }
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        checksum = checksum * 31u + c[i][j];
    a[r % N][r % N] ^= checksum;
  }
  printf("compute: checksum %08lx\n", (unsigned long)checksum);
  return 0;
}
