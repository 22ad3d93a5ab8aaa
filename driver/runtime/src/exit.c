/* _exit() for picolibc's exit() and abort(): the exit device ends the simulation with the
 * code. The loop is never reached on the SoC; it keeps _exit noreturn. */
#include "brickyard/runtime.h"

#include <unistd.h>

void _exit(int code) {
  by_mmio_write32(BY_SOC_EXIT_BASE + BY_SOC_EXIT_CODE, (uint32_t)code);
  for (;;) {
  }
}
