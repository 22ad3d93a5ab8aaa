/* Keeps the accelerator busy forever: 16-row mvins, issued faster than they complete, so the
 * command queue fills and the host blocks in the RoCC instruction. For the --max-cycles test. */
#include "accel_hal.h"

#include <stdio.h>

static int8_t data[16 * 64];

int main(void) {
  puts("accel_busy: issuing mvins forever");
  for (;;)
    CMD(BY_FUNCT_MVIN, (uintptr_t)data, FIELD(MVIN, RS2, ROWS, 16) | FIELD(MVIN, RS2, COLS, 4));
}
