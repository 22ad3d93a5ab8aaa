/* The accelerator's interrupt line through the SoC: with IRQ_ENABLE's idle bit set, a command
 * that ends raises irq_o, which the host sees in the SoC's IRQ_PENDING register (docs/soc.md:
 * interrupts are polled); writing the bit to IRQ_STATUS (write-1-to-clear) lowers it again. */
#include "accel_hal.h"
#include "check.h"

#include <stdio.h>

static uint32_t pending(void) {
  return by_mmio_read32(BY_SOC_IRQ_BASE + BY_SOC_IRQ_PENDING) & BY_SOC_IRQ_PENDING_ACCEL;
}

int main(void) {
  by_mmio_write32(REG(BY_REG_IRQ_ENABLE), IRQ_IDLE);
  CHECK(pending() == 0, "interrupt pending before any command");
  /* An mvin from DRAM address 0 writes zeros without DMA: a short command. */
  CMD(BY_FUNCT_MVIN, 0, FIELD(MVIN, RS2, ROWS, 1) | FIELD(MVIN, RS2, COLS, 1));
  wait_idle(); /* the fence returns once the accelerator is idle; the line is up by then */
  CHECK(pending() != 0, "no interrupt after the command completed");
  CHECK(by_mmio_read32(REG(BY_REG_IRQ_STATUS)) & IRQ_IDLE, "IRQ_STATUS idle bit not set");
  by_mmio_write32(REG(BY_REG_IRQ_STATUS), IRQ_IDLE);
  CHECK(pending() == 0, "interrupt still pending after IRQ_STATUS was cleared");
  printf("accel_irq: %d failure(s)\n", check_failures);
  return check_failures;
}
