/* stdin/stdout/stderr for picolibc's stdio: one unbuffered stream on the SoC UART. */
#include "brickyard/runtime.h"

#include <stdio.h>

void by_console_putc(char c) {
  while (!(by_mmio_read32(BY_SOC_UART_BASE + BY_SOC_UART_STATUS) & BY_SOC_UART_STATUS_TX_READY)) {
  }
  by_mmio_write32(BY_SOC_UART_BASE + BY_SOC_UART_TX_DATA, (uint8_t)c);
}

static int consolePut(char c, FILE* stream) {
  (void)stream;
  by_console_putc(c);
  return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(consolePut, NULL, NULL, _FDEV_SETUP_WRITE);

/* picolibc leaves the standard streams to the application. */
FILE* const stdin = &console;
FILE* const stdout = &console;
FILE* const stderr = &console;
