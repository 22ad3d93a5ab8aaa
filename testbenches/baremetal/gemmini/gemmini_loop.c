// Gemmini-style program for LOOP_WS: gemmini_loop_ws with Gemmini's set-up (sp_tiled_matmul_ws:
// CONFIG_EX WS, the three mvin channels, CONFIG_ST), in its current 23-argument form and its
// older 20-argument form (weightA), with padding, an int32 bias and ReLU; then
// tiled_matmul_auto with its defaults (WS, which uses LOOP_WS as Gemmini does). Each result
// against matmul_cpu (exact sums; small values do not overflow). Skips itself on hardware
// without LOOP_WS (BY_HAS_LOOP_WS), as a Gemmini program would on a config without the feature.
// With LOOP_CONV_WS (BY_HAS_LOOP_CONV_WS): gemmini_loop_conv_ws in its 54-argument form with
// Gemmini's tiled_conv set-up (a padded 3x3 convolution, bias, ReLU), and tiled_conv_auto in WS
// (which runs LOOP_CONV_WS), each against tiled_conv_auto in CPU mode.
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TI 2
#define TJ 3
#define TK 2
#define MI (TI * DIM - 1)
#define MJ (TJ * DIM - 2)
#define MK (TK * DIM - 3)
static elem_t A[MI][MK], B[MK][MJ], C[MI][MJ], gold[MI][MJ];
static acc_t bias[MI][MJ];

#define BI 41
#define BJ 35
#define BK 57
static elem_t A2[BI][BK], B2[BK][BJ], C2[BI][BJ], gold2[BI][BJ];
static acc_t bias2[BI][BJ];

// The convolution: CB images of CR x CC pixels, CI -> CO channels, 3x3, stride 1, padding 1.
#define CB 2
#define CR 5
#define CC 6
#define CI 3
#define CO 5
static elem_t cin[CB][CR][CC][CI], cw[3][3][CI][CO], cout[CB][CR][CC][CO], cgold[CB][CR][CC][CO];
static acc_t cbias[CO];

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

static void loop_ws_gemmini_style(int form) {
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 1, false, false);
  gemmini_extended_config_st(MJ * sizeof(elem_t), RELU, 1.0f, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  gemmini_extended3_config_ld(MK * sizeof(elem_t), MVIN_SCALE_IDENTITY, false, 0);
  gemmini_extended3_config_ld(MJ * sizeof(elem_t), MVIN_SCALE_IDENTITY, false, 1);
  gemmini_extended3_config_ld(MJ * sizeof(acc_t), MVIN_SCALE_IDENTITY, false, 2);
  if (form == 23) {
    gemmini_loop_ws(TI, TJ, TK, TI * DIM - MI, TJ * DIM - MJ, TK * DIM - MK, A, B, bias, C, MK, MJ,
                    MJ, MJ, false, false, false, false, true, RELU, 0, 0, false);
  } else {
    gemmini_loop_ws(TI, TJ, TK, TI * DIM - MI, TJ * DIM - MJ, TK * DIM - MK, A, B, bias, C, MK, MJ,
                    MJ, MJ, false, false, false, false, true, 3);
  }
  gemmini_fence();
}

// One loop for the whole convolution, set up as Gemmini's sp_tiled_conv does: CONFIG_EX with
// A rows `stride` apart, the input and weight mvin channels with their block strides (the
// window's batches x irows x icols rows; taps x ceil(kchs / DIM) x DIM rows), the bias channel
// with stride 0, CONFIG_ST with the output stride and the activation.
static void loop_conv_gemmini_style(void) {
  const int irows = CR - 1 + 3, icols = CC - 1 + 3, kch_blocks = (CI + DIM - 1) / DIM;
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 1, false, false);
  gemmini_extended_config_st(CO * sizeof(elem_t), RELU, 1.0f);
  gemmini_extended4_config_ld(CI * sizeof(elem_t), MVIN_SCALE_IDENTITY, false, CB * irows * icols,
                              0);
  gemmini_extended4_config_ld(CO * sizeof(elem_t), MVIN_SCALE_IDENTITY, false,
                              3 * 3 * kch_blocks * DIM, 1);
  gemmini_extended4_config_ld(0, MVIN_SCALE_IDENTITY, false, 0, 2);
  gemmini_loop_conv_ws(CB, CR, CC, CI, CO, CR, CC, CR, CC, 1, 1, 3, 1, 0, 0, 0, CB, CR, CC, CO, 3,
                       3, CI, 1, 1, 1, 1, 0, 0, 0, 0, CR, CC, cw, cout, cbias, cin, false, true,
                       false, false, false, RELU, false, false, false, false, 0, CI, CO, CO, false,
                       0, 0);
  gemmini_fence();
}

int main() {
  seed_rand(6016, "gemmini_loop");
  if (!BY_HAS_LOOP_WS) {
    printf("gemmini_loop: no LOOP_WS on this config, skipped\n");
    return 0;
  }
  int ok = 1;
  for (size_t i = 0; i < MI; ++i)
    for (size_t k = 0; k < MK; ++k)
      A[i][k] = (elem_t)(rand() % 9 - 4);
  for (size_t k = 0; k < MK; ++k)
    for (size_t j = 0; j < MJ; ++j)
      B[k][j] = (elem_t)(rand() % 9 - 4);
  for (size_t i = 0; i < MI; ++i)
    for (size_t j = 0; j < MJ; ++j)
      bias[i][j] = rand() % 201 - 100;
  matmul_cpu(false, false, MI, MJ, MK, (elem_t*)A, (elem_t*)B, (acc_t*)bias, (elem_t*)gold, MK, MJ,
             MJ, MJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, RELU,
             ACC_SCALE_IDENTITY, 0, false);
  for (int form = 20; form <= 23; form += 3) {
    for (size_t i = 0; i < MI; ++i)
      for (size_t j = 0; j < MJ; ++j)
        C[i][j] = 99;
    loop_ws_gemmini_style(form);
    ok &= same(C, gold, MI * MJ,
               form == 23 ? "gemmini_loop_ws (23 arguments)" : "gemmini_loop_ws (20 arguments)");
  }

  for (size_t i = 0; i < BI; ++i)
    for (size_t k = 0; k < BK; ++k)
      A2[i][k] = (elem_t)(rand() % 9 - 4);
  for (size_t k = 0; k < BK; ++k)
    for (size_t j = 0; j < BJ; ++j)
      B2[k][j] = (elem_t)(rand() % 9 - 4);
  for (size_t i = 0; i < BI; ++i)
    for (size_t j = 0; j < BJ; ++j)
      bias2[i][j] = rand() % 201 - 100;
  matmul_cpu(false, false, BI, BJ, BK, (elem_t*)A2, (elem_t*)B2, (acc_t*)bias2, (elem_t*)gold2, BK,
             BJ, BJ, BJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY,
             NO_ACTIVATION, 0.5f, 0, false);
  tiled_matmul_auto(BI, BJ, BK, (elem_t*)A2, (elem_t*)B2, bias2, C2, BK, BJ, BJ, BJ,
                    MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION,
                    0.5f, 0, false, false, false, false, false, 3, WS);
  gemmini_fence();
  ok &= same(C2, gold2, BI * BJ, "tiled_matmul_auto (WS: LOOP_WS)");

  if (BY_HAS_LOOP_CONV_WS) {
    for (size_t i = 0; i < sizeof cin; ++i)
      ((elem_t*)cin)[i] = (elem_t)(rand() % 9 - 4);
    for (size_t i = 0; i < sizeof cw; ++i)
      ((elem_t*)cw)[i] = (elem_t)(rand() % 9 - 4);
    for (size_t i = 0; i < CO; ++i)
      cbias[i] = rand() % 201 - 100;
    tiled_conv_auto(CB, CR, CC, CI, CO, CR, CC, 1, 1, 1, 1, 3, false, false, false, false, false,
                    (elem_t*)cin, (elem_t*)cw, cbias, (elem_t*)cgold, RELU, ACC_SCALE_IDENTITY, 0,
                    0, 0, CPU);
    memset(cout, 99, sizeof cout);
    loop_conv_gemmini_style();
    ok &= same(cout, cgold, sizeof cout / sizeof(elem_t), "gemmini_loop_conv_ws (54 arguments)");
    memset(cout, 99, sizeof cout);
    tiled_conv_auto(CB, CR, CC, CI, CO, CR, CC, 1, 1, 1, 1, 3, false, false, false, false, false,
                    (elem_t*)cin, (elem_t*)cw, cbias, (elem_t*)cout, RELU, ACC_SCALE_IDENTITY, 0, 0,
                    0, WS);
    gemmini_fence();
    ok &= same(cout, cgold, sizeof cout / sizeof(elem_t), "tiled_conv_auto (WS: LOOP_CONV_WS)");
  }
  printf("gemmini_loop: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
