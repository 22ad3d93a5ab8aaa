/* C = A x B + D on the accelerator, written against its ISA directly (brickyard_isa.h), and
 * checked element by element against a CPU reference computed here with the arithmetic of
 * docs/arithmetic.md (brickyard_params.h). Weight-stationary, tiled by DIM with partial
 * tiles, weights reused across row blocks; D is moved into the accumulator first and the
 * products accumulate onto it; every C tile leaves twice: scaled and saturated to int8, and
 * as raw int32 (`full`). The three mvin channels carry A, B and D with their own strides;
 * COUNTER_OP returns the DMA byte count.
 *
 * Built as matmul_rocc (RoCC custom-3 instructions, `fence`) and matmul_mmio (-DUSE_MMIO: the
 * CMD_* registers, STATUS polling and RESP_* for responses); matmul_fail (-DINJECT_FAILURE)
 * corrupts one reference value and must exit 1. MATMUL_M/K/N set the size (default: a few
 * partial tiles). Exit code: 0 when every result matches, 1 otherwise. */
#include "accel_hal.h"
#include "brickyard_params.h"

#include <stdio.h>

#ifndef MATMUL_M
#define MATMUL_M (3 * BY_DIM + 1)
#endif
#ifndef MATMUL_K
#define MATMUL_K (2 * BY_DIM + 3)
#endif
#ifndef MATMUL_N
#define MATMUL_N (2 * BY_DIM - 1)
#endif
#define SEED 20261122u
#define SCALE_BITS 0x3b800000u /* 1/256: int8 results in range, some saturated */
static const float kScale = 1.0f / 256;

enum { M = MATMUL_M, K = MATMUL_K, N = MATMUL_N };

/* --- data ------------------------------------------------------------------------------ */

static by_elem_t A[M][K], B[K][N], C[M][N];
static by_acc_t D[M][N], C32[M][N];

static uint32_t rng_state = SEED;
static uint32_t next_random(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

static void fill(void) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A[i][k] = (by_elem_t)next_random();
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      B[k][j] = (by_elem_t)next_random();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      D[i][j] = (by_acc_t)(next_random() % 20001) - 10000;
}

static int min_int(int a, int b) {
  return a < b ? a : b;
}

/* Wraps to the array's spatial output width (results leave the array at that width). */
static int64_t wrap_spatial(int64_t x) {
  const int shift = 64 - BY_SPATIAL_OUTPUT_WIDTH;
  return (int64_t)((uint64_t)x << shift) >> shift;
}

static by_acc_t wrap_acc(int64_t x) {
  return (by_acc_t)(uint32_t)x;
}

/* --- the accelerator program ------------------------------------------------------------- */

/* A local operand: every command lays it out like MVIN's rs2 (rows, cols, local address). */
static uint64_t rows_cols(int rows, int cols, uint32_t local) {
  return FIELD(MVIN, RS2, ROWS, rows) | FIELD(MVIN, RS2, COLS, cols) |
         FIELD(MVIN, RS2, LOCAL_ADDR, local);
}

/* Tiles per dimension, and the local memory layout: A tile (i, k) at scratchpad row
 * (i*KT + k)*DIM in bank 0, B tile (k, j) at (k*JT + j)*DIM from bank 1 (so that a PRELOAD
 * and a COMPUTE do not compete for a bank), and two accumulator regions of a column of C
 * tiles each, used by alternate column blocks so that one leaves while the next computes. */
enum {
  IT = (M + BY_DIM - 1) / BY_DIM,
  KT = (K + BY_DIM - 1) / BY_DIM,
  JT = (N + BY_DIM - 1) / BY_DIM
};
_Static_assert(IT* KT* BY_DIM <= BY_SP_BANK_ROWS && KT * JT * BY_DIM <= BY_SP_BANK_ROWS,
               "A or B does not fit a scratchpad bank");
_Static_assert(2 * IT * BY_DIM <= BY_ACC_ROWS, "two columns of C do not fit the accumulator");

static uint32_t sp_a(int i, int k) {
  return (uint32_t)((i * KT + k) * BY_DIM);
}
static uint32_t sp_b(int k, int j) {
  return (uint32_t)(BY_SP_BANK_ROWS + (k * JT + j) * BY_DIM);
}
static uint32_t acc_c(int i, int j) {
  return ACC_ADDR | (uint32_t)(((j % 2) * IT + i) * BY_DIM);
}

/* The command program of a tiled weight-stationary matmul, as a driver issues it: A and B
 * move in once, MAX_BLOCK_LEN tiles per MVIN, just before their first use; each weight tile
 * B(k, j) is preloaded once and reused for every row block of A (COMPUTE_ACCUMULATED); the
 * products accumulate onto D in the accumulator; each finished column of C leaves twice.
 * Returns the DMA payload bytes the mvins move, for the counter check. */
static uint64_t run_on_accelerator(void) {
  CMD(BY_FUNCT_CONFIG,
      FIELD(CONFIG_EX, RS1, CMD_TYPE, BY_CONFIG_TYPE_EX) |
          FIELD(CONFIG_EX, RS1, DATAFLOW, DATAFLOW_WS),
      0);
  /* Channel 0 (MVIN): A, rows K bytes apart; 1 (MVIN2): B; 2 (MVIN3): D as int32. Block
   * stride 0 = DIM rows between the tiles of one mvin. */
  const uint64_t strides[3] = {K, N, N * sizeof(by_acc_t)};
  for (uint32_t ch = 0; ch < 3; ++ch)
    CMD(BY_FUNCT_CONFIG,
        FIELD(CONFIG_LD, RS1, CMD_TYPE, BY_CONFIG_TYPE_LD) | FIELD(CONFIG_LD, RS1, STATE_ID, ch),
        strides[ch]);
  /* Counter 0 counts the bytes the DMA reads (an external counter); reset it first. */
  counter_op(FIELD(COUNTER_OP, RS1, RESET, 1));
  counter_op(FIELD(COUNTER_OP, RS1, CONFIGURE, 1) | FIELD(COUNTER_OP, RS1, INDEX, 0) |
             FIELD(COUNTER_OP, RS1, EVENT, EVENT_RDMA_BYTES) | FIELD(COUNTER_OP, RS1, EXTERNAL, 1));

  const int blocks = BY_MAX_BLOCK_LEN; /* tiles per mvin */
  for (int j = 0; j < JT; ++j) {
    const int j0 = j * BY_DIM, jn = min_int(BY_DIM, N - j0);
    for (int i = 0; i < IT; ++i) {
      const int i0 = i * BY_DIM, im = min_int(BY_DIM, M - i0);
      CMD(BY_FUNCT_MVIN3, (uintptr_t)&D[i0][j0], rows_cols(im, jn, acc_c(i, j)));
    }
    for (int k = 0; k < KT; ++k) {
      const int k0 = k * BY_DIM, kn = min_int(BY_DIM, K - k0);
      if (j == 0 && k % blocks == 0) /* A(:, k .. k+blocks) */
        for (int i = 0; i < IT; ++i) {
          const int i0 = i * BY_DIM;
          CMD(BY_FUNCT_MVIN, (uintptr_t)&A[i0][k0],
              rows_cols(min_int(BY_DIM, M - i0), min_int(blocks * BY_DIM, K - k0), sp_a(i, k)));
        }
      if (j % blocks == 0) /* B(k, j .. j+blocks) */
        CMD(BY_FUNCT_MVIN2, (uintptr_t)&B[k0][j0],
            rows_cols(kn, min_int(blocks * BY_DIM, N - j0), sp_b(k, j)));
      for (int i = 0; i < IT; ++i) {
        const int im = min_int(BY_DIM, M - i * BY_DIM);
        /* Weights B(k, j) for the first row block, kept for the others; C accumulates. */
        CMD(BY_FUNCT_PRELOAD,
            i == 0 ? rows_cols(kn, jn, sp_b(k, j)) : rows_cols(1, 1, BY_GARBAGE_ADDR),
            rows_cols(im, jn, acc_c(i, j) | ACCUMULATE));
        if (i == 0)
          CMD(BY_FUNCT_COMPUTE_PRELOADED, rows_cols(im, kn, sp_a(i, k)),
              rows_cols(im, jn, BY_GARBAGE_ADDR));
        else
          CMD(BY_FUNCT_COMPUTE_ACCUMULATED, rows_cols(im, kn, sp_a(i, k)),
              rows_cols(im, jn, BY_GARBAGE_ADDR));
      }
    }
    /* Column j of C: scaled and saturated to int8, then the raw int32 accumulators. */
    for (int i = 0; i < IT; ++i) {
      const int i0 = i * BY_DIM, im = min_int(BY_DIM, M - i0);
      CMD(BY_FUNCT_CONFIG, FIELD(CONFIG_ST, RS1, CMD_TYPE, BY_CONFIG_TYPE_ST),
          FIELD(CONFIG_ST, RS2, STRIDE, N) | FIELD(CONFIG_ST, RS2, ACC_SCALE, SCALE_BITS));
      CMD(BY_FUNCT_MVOUT, (uintptr_t)&C[i0][j0], rows_cols(im, jn, acc_c(i, j)));
      CMD(BY_FUNCT_CONFIG, FIELD(CONFIG_ST, RS1, CMD_TYPE, BY_CONFIG_TYPE_ST),
          FIELD(CONFIG_ST, RS2, STRIDE, N * sizeof(by_acc_t)) |
              FIELD(CONFIG_ST, RS2, ACC_SCALE, BY_ACC_SCALE_KEEP));
      CMD(BY_FUNCT_MVOUT, (uintptr_t)&C32[i0][j0], rows_cols(im, jn, acc_c(i, j) | FULL));
    }
  }
  wait_idle();
  return (uint64_t)M * K + (uint64_t)K * N + (uint64_t)M * N * sizeof(by_acc_t);
}

/* --- the CPU reference ------------------------------------------------------------------- */

static int check(void) {
  int mismatches = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      /* One pass through the array per K tile: the partial sum leaves it at the spatial output
       * width and is added to the accumulator (docs/isa.md, WS). */
      by_acc_t acc = D[i][j];
      for (int k0 = 0; k0 < K; k0 += BY_DIM) {
        int64_t partial = 0;
        for (int k = k0; k < min_int(K, k0 + BY_DIM); ++k)
          partial += (int64_t)A[i][k] * B[k][j];
        acc = wrap_acc((int64_t)acc + wrap_spatial(partial));
      }
#ifdef INJECT_FAILURE
      if (i == M / 2 && j == N / 2)
        acc += 1;
#endif
      const by_elem_t c8 = by_saturate_elem(by_acc_scale(acc, kScale));
      if (C32[i][j] != acc || C[i][j] != c8) {
        if (mismatches < 5)
          printf("mismatch at C[%d][%d]: accelerator %ld / %d, reference %ld / %d\n", i, j,
                 (long)C32[i][j], C[i][j], (long)acc, c8);
        ++mismatches;
      }
    }
  return mismatches;
}

int main(void) {
  printf("matmul (%s): C = A x B + D, M=%d K=%d N=%d on a %dx%d array, seed %u\n", PATH, M, K, N,
         BY_DIM, BY_DIM, SEED);
  fill();
  const uint64_t start = by_read_cycles();
  const uint64_t payload = run_on_accelerator();
  const uint64_t cycles = by_read_cycles() - start;
  const uint64_t dma_bytes = counter_op(FIELD(COUNTER_OP, RS1, INDEX, 0));
  const uint64_t macs = perf_counter(BY_REG_MACS_LO);
  printf("accelerator: %llu cycles, %llu MAC slots, %llu DMA bytes read\n",
         (unsigned long long)cycles, (unsigned long long)macs, (unsigned long long)dma_bytes);
  int failures = 0;
  if (dma_bytes != payload) {
    printf("DMA read counter %llu, expected %llu\n", (unsigned long long)dma_bytes,
           (unsigned long long)payload);
    ++failures;
  }
  if (macs < (uint64_t)M * K * N) {
    printf("MACS counter %llu below the %llu MACs done\n", (unsigned long long)macs,
           (unsigned long long)M * K * N);
    ++failures;
  }
  const int mismatches = check();
  printf("checked %d results against the CPU reference: %d mismatch(es)\n", M * N, mismatches);
  failures += mismatches != 0;
  puts(failures ? "matmul: FAIL" : "matmul: PASS");
  return failures ? 1 : 0;
}
