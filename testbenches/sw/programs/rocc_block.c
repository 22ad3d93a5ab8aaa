/* Issues a command that never completes: the run ends by --max-cycles or as a stall. */
#include "test_accel.h"

#include <stdio.h>

int main(void) {
  printf("blocking\n");
  __asm__ volatile(".insn r CUSTOM_3, 3, %0, x0, x0, x0" : : "i"(TA_CMD_BLOCK));
  printf("not reached\n");
  return 0;
}
