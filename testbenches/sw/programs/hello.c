/* Console output through picolibc's stdio: text, 64-bit integers and doubles. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  printf("Hello from the Brickyard SoC!\n");
  const long long negative = -1234567890123LL;
  const unsigned long long all_ones = ~0ULL;
  printf("long long: %lld %#llx %llu\n", negative, 0xdeadbeefcafeULL, all_ones);
  printf("double: %.3f %.3f %.3e\n", 3.14159, -0.5, 1e10);
  puts("bye");
  return 0;
}
