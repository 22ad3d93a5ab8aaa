/* The test accelerator of testbenches/cosim (a model defined in the tests, not part of the
 * SoC library): its registers in the accel_ctrl window and its RoCC commands. Shared by the
 * bare-metal programs and the C++ model (test_accelerator.cpp). */
#ifndef BRICKYARD_TEST_ACCEL_H
#define BRICKYARD_TEST_ACCEL_H

/* Registers (offsets in the accel_ctrl window). */
#define TA_REG_ID 0x00u       /* R: TA_ID_VALUE */
#define TA_REG_SCRATCH0 0x10u /* RW: four scratch registers at 0x10, 0x14, 0x18, 0x1c */
#define TA_SCRATCH_COUNT 4u
#define TA_REG_DMA_LENGTH 0x20u /* RW: bytes moved by TA_CMD_COPY */
#define TA_REG_IRQ_CLEAR 0x24u  /* W: any write lowers the interrupt line */
#define TA_REG_COMMANDS 0x28u   /* R: RoCC commands received so far */
#define TA_ID_VALUE 0x7e57acc1u

/* RoCC commands (funct7). */
#define TA_CMD_QUEUED 2u      /* queued; the worker spends TA_QUEUED_CYCLES on it */
#define TA_CMD_COPY 3u        /* queued; DMA copy of DMA_LENGTH bytes from rs1 to rs2, then IRQ */
#define TA_CMD_SLEEP 4u       /* the host blocks for rs1 cycles */
#define TA_CMD_BLOCK 5u       /* never completes (stall and timeout tests) */
#define TA_CMD_ECHO_FIRST 64u /* funct7 64..127: answered at once with TA_ECHO(...) */
#define TA_QUEUE_DEPTH 2u     /* commands waiting besides the one in progress */
#define TA_QUEUED_CYCLES 100u

/* The echo response, as a function of the values the accelerator received. */
#define TA_ECHO(funct7, rs1, rs2) (((rs1)*31u) ^ ((rs2) + (funct7)))

#endif /* BRICKYARD_TEST_ACCEL_H */
