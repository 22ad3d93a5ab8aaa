/* Programs that crash the guest in one specific way (one FAULT_* per build). */
#include "brickyard/runtime.h"

#include <stdio.h>

int main(void) {
  printf("about to fault\n");
#if defined(FAULT_unmapped_load)
  (void)*(volatile uint32_t*)(uintptr_t)0x20000000u; /* no region there */
#elif defined(FAULT_illegal)
  __asm__ volatile(".word 0x0000000b"); /* custom-0: not routed to the accelerator */
#elif defined(FAULT_ecall)
  __asm__ volatile("ecall");
#elif defined(FAULT_null_call)
  void (*volatile function)(void) = 0;
  function(); /* jumps to address 0, where nothing is mapped */
#elif defined(FAULT_uart_byte)
  *(volatile uint8_t*)(uintptr_t)BY_SOC_UART_BASE = 'x'; /* registers are 32-bit */
#endif
  printf("not reached\n");
  return 0;
}
