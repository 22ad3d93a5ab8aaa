/* exit() from inside a call chain, after an atexit handler was registered. */
#include <stdio.h>
#include <stdlib.h>

static void handler(void) {
  printf("atexit handler ran\n");
}

static void leave(int code) {
  printf("leaving with %d\n", code);
  exit(code);
}

int main(void) {
  atexit(handler);
  leave(42);
  printf("not reached\n");
  return 0;
}
