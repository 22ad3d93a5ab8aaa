/* RoCC custom-3 instructions against the test accelerator: field decoding (funct7, xd,
 * xs1, xs2, rd, rs1, rs2 with registers pinned so the test can check the numbers), the
 * response path, back-pressure from a full command queue, fence, DMA and the interrupt
 * line, and the timer's 64-bit latch after a long sleep. The model logs each command; the
 * test compares that log with the expected decode. */
#include "brickyard/runtime.h"
#include "check.h"
#include "test_accel.h"

#define ACCEL(reg) (BY_SOC_ACCEL_CTRL_BASE + (reg))

/* funct3 = 7 (xd, xs1, xs2): rs1 = a3 (x13), rs2 = a4 (x14), rd = a5 (x15). */
#define ROCC_RRR(funct7, a, b)                                                                     \
  ({                                                                                               \
    register uint64_t rs1_ __asm__("a3") = (a);                                                    \
    register uint64_t rs2_ __asm__("a4") = (b);                                                    \
    register uint64_t rd_ __asm__("a5");                                                           \
    __asm__ volatile(".insn r CUSTOM_3, 7, %3, %0, %1, %2"                                         \
                     : "=r"(rd_)                                                                   \
                     : "r"(rs1_), "r"(rs2_), "i"(funct7)                                           \
                     : "memory");                                                                  \
    rd_;                                                                                           \
  })

/* funct3 = 3 (xs1, xs2; no response): rs1 = a3, rs2 = a4, rd field = x0. */
#define ROCC_RR(funct7, a, b)                                                                      \
  do {                                                                                             \
    register uint64_t rs1_ __asm__("a3") = (a);                                                    \
    register uint64_t rs2_ __asm__("a4") = (b);                                                    \
    __asm__ volatile(".insn r CUSTOM_3, 3, %2, x0, %0, %1"                                         \
                     :                                                                             \
                     : "r"(rs1_), "r"(rs2_), "i"(funct7)                                           \
                     : "memory");                                                                  \
  } while (0)

static void fence(void) {
  __asm__ volatile("fence" ::: "memory");
}

static void decode(void) {
  const uint64_t x = 0x1111222233334444ull, y = 0x0123456789abcdefull;

  /* 1: all three registers. */
  uint64_t r = ROCC_RRR(100, x, y);
  CHECK(r == TA_ECHO(100, x, y), "echo 100: got %#llx", (unsigned long long)r);

  /* 2: funct3 = 3 with rd = t6: no response, t6 must keep its value. */
  {
    register uint64_t rs1 __asm__("a3") = x;
    register uint64_t rs2 __asm__("a4") = y;
    register uint64_t keep __asm__("t6") = 0x5a5a;
    __asm__ volatile(".insn r CUSTOM_3, 3, 64, %0, %1, %2" : "+r"(keep) : "r"(rs1), "r"(rs2));
    CHECK(keep == 0x5a5a, "rd written although xd = 0: t6 = %#llx", (unsigned long long)keep);
  }

  /* 3: funct3 = 4 (xd only): rs1 = t0, rs2 = t1 hold values the accelerator must not see. */
  {
    register uint64_t rs1 __asm__("t0") = x;
    register uint64_t rs2 __asm__("t1") = y;
    register uint64_t rd __asm__("a6");
    __asm__ volatile(".insn r CUSTOM_3, 4, 127, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2));
    CHECK(rd == TA_ECHO(127, 0, 0), "echo 127 without sources: got %#llx", (unsigned long long)rd);
  }

  /* 4: funct3 = 6 (xd, xs1): rs2 value not read. */
  {
    register uint64_t rs1 __asm__("s2") = x;
    register uint64_t rs2 __asm__("s3") = y;
    register uint64_t rd __asm__("s4");
    __asm__ volatile(".insn r CUSTOM_3, 6, 65, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2));
    CHECK(rd == TA_ECHO(65, x, 0), "echo 65 with rs1 only: got %#llx", (unsigned long long)rd);
  }

  /* 5: rd = x0 with xd set: the response is dropped. */
  {
    register uint64_t rs1 __asm__("a3") = 7;
    register uint64_t rs2 __asm__("a4") = 9;
    __asm__ volatile(".insn r CUSTOM_3, 7, 66, x0, %0, %1" : : "r"(rs1), "r"(rs2));
  }
  const uint32_t received = by_mmio_read32(ACCEL(TA_REG_COMMANDS));
  CHECK(received == 5, "accelerator counted %u commands, expected 5", (unsigned)received);
}

static void backpressure(void) {
  /* 8 commands of TA_QUEUED_CYCLES each into a queue of TA_QUEUE_DEPTH: issuing the last
   * one waits until the worker has taken five (8 - depth - 1 in progress). */
  const uint64_t t0 = by_read_cycles();
  for (uint64_t i = 0; i < 8; ++i)
    ROCC_RR(TA_CMD_QUEUED, i, 0);
  const uint64_t t1 = by_read_cycles();
  fence();
  const uint64_t t2 = by_read_cycles();
  printf("rocc: 8 queued commands issued in %llu cycles, done after %llu cycles\n",
         (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t0));
  CHECK(t1 - t0 >= 5 * TA_QUEUED_CYCLES, "no back-pressure: %llu cycles",
        (unsigned long long)(t1 - t0));
  CHECK(t1 - t0 < 8 * TA_QUEUED_CYCLES, "issue did not overlap with execution");
  CHECK(t2 - t0 >= 8 * TA_QUEUED_CYCLES, "fence returned before the queue drained: %llu",
        (unsigned long long)(t2 - t0));
}

static uint8_t src[256], dst[256];

static void dma(void) {
  for (int i = 0; i < 256; ++i)
    src[i] = (uint8_t)(i * 7 + 3);
  by_mmio_write32(ACCEL(TA_REG_DMA_LENGTH), sizeof src);
  CHECK(!(by_mmio_read32(BY_SOC_IRQ_BASE + BY_SOC_IRQ_PENDING) & BY_SOC_IRQ_PENDING_ACCEL),
        "interrupt pending before the copy");
  ROCC_RR(TA_CMD_COPY, (uintptr_t)src, (uintptr_t)dst);
  fence();
  int mismatches = 0;
  for (int i = 0; i < 256; ++i)
    mismatches += dst[i] != src[i];
  CHECK(mismatches == 0, "DMA copy: %d bytes differ", mismatches);
  CHECK(by_mmio_read32(BY_SOC_IRQ_BASE + BY_SOC_IRQ_PENDING) & BY_SOC_IRQ_PENDING_ACCEL,
        "no interrupt after the copy");
  by_mmio_write32(ACCEL(TA_REG_IRQ_CLEAR), 1);
  CHECK(!(by_mmio_read32(BY_SOC_IRQ_BASE + BY_SOC_IRQ_PENDING) & BY_SOC_IRQ_PENDING_ACCEL),
        "interrupt still pending after clearing it");
}

static void sleep_past_32_bits(void) {
  const uint64_t sleep = 5000000000ull; /* > 2^32 cycles */
  const uint64_t t0 = by_read_cycles();
  ROCC_RR(TA_CMD_SLEEP, sleep, 0);
  const uint64_t t1 = by_read_cycles();
  printf("rocc: slept %llu cycles, timer high word %u\n", (unsigned long long)(t1 - t0),
         (unsigned)(t1 >> 32));
  CHECK(t1 - t0 >= sleep && t1 - t0 < sleep + 1000, "sleep took %llu cycles",
        (unsigned long long)(t1 - t0));
  CHECK((t1 >> 32) != 0, "timer high word still 0");
}

int main(void) {
  decode();
  backpressure();
  dma();
  sleep_past_32_bits();
  printf("rocc: %d failure(s)\n", check_failures);
  return check_failures;
}
