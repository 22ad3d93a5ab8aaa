/* 32- and 64-bit accesses to the test accelerator's registers in the accel_ctrl window.
 * The model logs every access; the test compares the log with the expected sequence. */
#include "brickyard/runtime.h"
#include "check.h"
#include "test_accel.h"

#define ACCEL(reg) (BY_SOC_ACCEL_CTRL_BASE + (reg))

int main(void) {
  const uint32_t id = by_mmio_read32(ACCEL(TA_REG_ID));
  CHECK(id == TA_ID_VALUE, "id %#x", (unsigned)id);
  for (uint32_t i = 0; i < TA_SCRATCH_COUNT; ++i)
    by_mmio_write32(ACCEL(TA_REG_SCRATCH0 + 4 * i), 0xa0000000u + i);
  for (uint32_t i = 0; i < TA_SCRATCH_COUNT; ++i) {
    const uint32_t v = by_mmio_read32(ACCEL(TA_REG_SCRATCH0 + 4 * i));
    CHECK(v == 0xa0000000u + i, "scratch %u = %#x", (unsigned)i, (unsigned)v);
  }
  /* A 64-bit store and load reach the device as two 32-bit accesses, low word first. */
  *(volatile uint64_t*)(uintptr_t)ACCEL(TA_REG_SCRATCH0) = 0x1122334455667788ull;
  const uint64_t wide = *(volatile uint64_t*)(uintptr_t)ACCEL(TA_REG_SCRATCH0);
  CHECK(wide == 0x1122334455667788ull, "64-bit read back %#llx", (unsigned long long)wide);
  CHECK(by_mmio_read32(ACCEL(TA_REG_SCRATCH0 + 4)) == 0x11223344u, "high word");
  printf("mmio: %d failure(s)\n", check_failures);
  return check_failures;
}
