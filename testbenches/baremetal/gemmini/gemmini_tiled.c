// Gemmini-style program: tiled_matmul_auto in WS, OS and CPU mode (non-multiple-of-DIM sizes,
// bias, ReLU, scale, a transposed B), tiled_conv_auto with pooling, tiled_conv_dw_auto,
// tiled_resadd_auto and tiled_global_average_auto, each accelerator result compared with the
// CPU mode and, for the matmul, with matmul_cpu (exact sums; small values do not overflow).
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MI 37
#define MJ 29
#define MK 45
static elem_t A[MI][MK], B[MK][MJ], Bt[MJ][MK], C[MI][MJ], gold[MI][MJ], cpu[MI][MJ];
static acc_t bias[MI][MJ];

#define BATCH 2
#define IN_ROWS 13
#define IN_COLS 10
#define ICH 6
#define OCH 7
#define KDIM 3
#define STRIDE 1
#define PAD 1
#define OUT_ROWS ((IN_ROWS + 2 * PAD - KDIM) / STRIDE + 1)
#define OUT_COLS ((IN_COLS + 2 * PAD - KDIM) / STRIDE + 1)
#define POOL_SIZE 3
#define POOL_STRIDE 2
#define POOL_PAD 1
#define POOL_ROWS ((OUT_ROWS + 2 * POOL_PAD - POOL_SIZE) / POOL_STRIDE + 1)
#define POOL_COLS ((OUT_COLS + 2 * POOL_PAD - POOL_SIZE) / POOL_STRIDE + 1)
static elem_t input[BATCH][IN_ROWS][IN_COLS][ICH], weights[KDIM * KDIM * ICH][OCH];
static elem_t dw_weights[ICH][KDIM][KDIM];
static acc_t cbias[OCH];
static elem_t out_acc[BATCH][POOL_ROWS][POOL_COLS][OCH], out_cpu[BATCH][POOL_ROWS][POOL_COLS][OCH];
static elem_t dw_acc[BATCH][OUT_ROWS][OUT_COLS][ICH], dw_cpu[BATCH][OUT_ROWS][OUT_COLS][ICH];
static elem_t gavg[BATCH][ICH], gavg_cpu[BATCH][ICH];

static int same(const void* x, const void* y, size_t n, const char* what) {
  const elem_t* a = (const elem_t*)x;
  const elem_t* b = (const elem_t*)y;
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) {
      printf("%s: element %u is %d, expected %d\n", what, (unsigned)i, a[i], b[i]);
      return 0;
    }
  return 1;
}

int main() {
  seed_rand(6003, "gemmini_tiled");
  int ok = 1;
  for (size_t i = 0; i < MI; ++i)
    for (size_t k = 0; k < MK; ++k)
      A[i][k] = (elem_t)(rand() % 9 - 4);
  for (size_t k = 0; k < MK; ++k)
    for (size_t j = 0; j < MJ; ++j)
      Bt[j][k] = B[k][j] = (elem_t)(rand() % 9 - 4);
  for (size_t i = 0; i < MI; ++i)
    for (size_t j = 0; j < MJ; ++j)
      bias[i][j] = rand() % 201 - 100;

  matmul_cpu(false, false, MI, MJ, MK, (elem_t*)A, (elem_t*)B, (acc_t*)bias, (elem_t*)gold, MK, MJ,
             MJ, MJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, RELU, 0.25f, 0,
             false);
  for (int type = 0; type <= 2; ++type) {
    const enum tiled_matmul_type_t t = type == 0 ? WS : type == 1 ? OS : CPU;
    if ((t == WS && !BY_HAS_WS) || (t == OS && !BY_HAS_OS))
      continue;
    tiled_matmul_auto(MI, MJ, MK, (elem_t*)A, (elem_t*)Bt, bias, C, MK, MK, MJ, MJ,
                      MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, RELU, 0.25f, 0,
                      false, false, true, false, false, 0, t);
    gemmini_fence();
    ok &= same(C, gold, MI * MJ, t == WS ? "matmul WS" : t == OS ? "matmul OS" : "matmul CPU");
  }

  for (size_t i = 0; i < sizeof input; ++i)
    ((elem_t*)input)[i] = (elem_t)(rand() % 256 - 128);
  for (size_t i = 0; i < sizeof weights; ++i)
    ((elem_t*)weights)[i] = (elem_t)(rand() % 11 - 5);
  for (size_t i = 0; i < sizeof dw_weights; ++i)
    ((elem_t*)dw_weights)[i] = (elem_t)(rand() % 11 - 5);
  for (size_t i = 0; i < OCH; ++i)
    cbias[i] = rand() % 2001 - 1000;
  for (int type = 0; type < 2; ++type)
    tiled_conv_auto(BATCH, IN_ROWS, IN_COLS, ICH, OCH, OUT_ROWS, OUT_COLS, STRIDE, 1, 1, PAD, KDIM,
                    false, false, false, false, false, (elem_t*)input, (elem_t*)weights, cbias,
                    type ? (elem_t*)out_cpu : (elem_t*)out_acc, RELU, 0.05f, POOL_SIZE, POOL_STRIDE,
                    POOL_PAD, type ? CPU : WS);
  ok &= same(out_acc, out_cpu, sizeof out_acc / sizeof(elem_t), "conv");
  for (int type = 0; type < 2; ++type)
    tiled_conv_dw_auto(BATCH, IN_ROWS, IN_COLS, ICH, OUT_ROWS, OUT_COLS, STRIDE, PAD, KDIM,
                       (elem_t*)input, (elem_t*)dw_weights, cbias,
                       type ? (elem_t*)dw_cpu : (elem_t*)dw_acc, NO_ACTIVATION, 0.1f, 1, 0, 0,
                       type ? CPU : WS);
  ok &= same(dw_acc, dw_cpu, sizeof dw_acc / sizeof(elem_t), "conv_dw");

  tiled_resadd_auto(MI, MJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, 0.5f, (elem_t*)A,
                    (elem_t*)cpu, (elem_t*)C, true, WS);
  resadd_cpu(MI, MJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, 0.5f, (elem_t*)A, (elem_t*)cpu,
             (elem_t*)gold, true);
  ok &= same(C, gold, MI * MJ, "resadd");

  tiled_global_average_auto((elem_t*)input, (elem_t*)gavg, BATCH, ICH, 5, WS);
  tiled_global_average_auto((elem_t*)input, (elem_t*)gavg_cpu, BATCH, ICH, 5, CPU);
  ok &= same(gavg, gavg_cpu, sizeof gavg / sizeof(elem_t), "global_average");
  printf("gemmini_tiled: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
