// Gemmini-style program for the explicitly tiled kernels, the tile-level functions and the CPU
// references of gemmini_tiles.h / gemmini_sp_tiles.h: scale_and_sat, the tiling budgets,
// conv_cpu / conv_cpu_without_pool (both of Gemmini's forms, checked against plain loops here),
// tiled_conv (both forms, forced tiles, pooling, strides), tiled_conv_dw, tiled_resadd,
// tiled_matmul_outer (WS and OS), sp_tiled_matmul_ws / _os (accumulating over two calls),
// sp_tiled_conv (pooled and strided tiles) and sp_tiled_resadd. Random operands from a fixed,
// printed seed; sizes that are not multiples of DIM; with and without bias and ReLU.
#include "check.h"
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static elem_t clip_relu(int64_t y, bool relu) {
  y = y > elem_t_max ? elem_t_max : (y < elem_t_min ? elem_t_min : y);
  return (elem_t)(relu && y < 0 ? 0 : y);
}

/* ---- Convolutions ---------------------------------------------------------------------- */
#define BATCH 2
#define IR 9
#define IC 8
#define ICH 6
#define OCH 7
#define KD 3
#define PAD 1
#define OR1 IR /* stride 1 */
#define OC1 IC
#define OR2 ((IR + 2 * PAD - KD) / 2 + 1) /* stride 2 */
#define OC2 ((IC + 2 * PAD - KD) / 2 + 1)
#define PR ((OR1 + 2 - 3) / 2 + 1) /* pool 3, stride 2, padding 1 */
#define PC ((OC1 + 2 - 3) / 2 + 1)
#define ISTRIDE 9 /* pixel strides of the strided form */
#define WSTRIDE 10
#define OSTRIDE 11
static elem_t in[BATCH * IR * IC * ICH], w[KD * KD * ICH * OCH], dw_w[ICH * KD * KD];
static elem_t in_s[BATCH * IR * IC * ISTRIDE], w_s[KD * KD * ICH * WSTRIDE];
static acc_t cbias[OCH];
static elem_t full[BATCH * OR1 * OC1 * OCH], hand[BATCH * OR1 * OC1 * OCH];
static elem_t ref[BATCH * OR1 * OC1 * OSTRIDE], got[BATCH * OR1 * OC1 * OSTRIDE];

/* The plain convolution (exact sums: the operands are small), NHWC / HWIO. */
static void hand_conv(int stride, const acc_t* bias, int act, float scale, elem_t* out, int orows,
                      int ocols) {
  for (int b = 0; b < BATCH; ++b)
    for (int r = 0; r < orows; ++r)
      for (int c = 0; c < ocols; ++c)
        for (int o = 0; o < OCH; ++o) {
          int64_t s = bias ? bias[o] : 0;
          for (int kr = 0; kr < KD; ++kr)
            for (int kc = 0; kc < KD; ++kc) {
              const int y = r * stride + kr - PAD, x = c * stride + kc - PAD;
              if (y < 0 || y >= IR || x < 0 || x >= IC)
                continue;
              for (int i = 0; i < ICH; ++i)
                s += (int64_t)in[((b * IR + y) * IC + x) * ICH + i] *
                     w[((kr * KD + kc) * ICH + i) * OCH + o];
            }
          out[((b * orows + r) * ocols + c) * OCH + o] =
              clip_relu(ACC_SCALE(s, scale), act == RELU);
        }
}
/* 3x3 / 2 / 1 max pooling of a BATCH x OR1 x OC1 x OCH image, the padding counting as 0. */
static void hand_pool(const elem_t* x, elem_t* out) {
  for (int b = 0; b < BATCH; ++b)
    for (int r = 0; r < PR; ++r)
      for (int c = 0; c < PC; ++c)
        for (int o = 0; o < OCH; ++o) {
          int m = -1000;
          for (int wr = 0; wr < 3; ++wr)
            for (int wc = 0; wc < 3; ++wc) {
              const int y = r * 2 + wr - 1, z = c * 2 + wc - 1;
              const int v = (y < 0 || y >= OR1 || z < 0 || z >= OC1)
                                ? 0
                                : x[((b * OR1 + y) * OC1 + z) * OCH + o];
              m = v > m ? v : m;
            }
          out[((b * PR + r) * PC + c) * OCH + o] = (elem_t)m;
        }
}

static void test_conv(void) {
  fill(in, sizeof in / sizeof in[0], -128, 127);
  fill(w, sizeof w / sizeof w[0], -5, 5);
  fill(dw_w, sizeof dw_w / sizeof dw_w[0], -5, 5);
  for (int o = 0; o < OCH; ++o)
    cbias[o] = rand() % 2001 - 1000;
  const size_t n1 = BATCH * OR1 * OC1 * OCH, n2 = BATCH * OR2 * OC2 * OCH,
               np = BATCH * PR * PC * OCH;

  /* The references against the plain loops: stride 1 with bias and ReLU, stride 2 without. */
  hand_conv(1, cbias, RELU, 0.05f, hand, OR1, OC1);
  conv_cpu_without_pool(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false,
                        false, false, in, w, cbias, ref, RELU, 0.05f);
  check(ref, hand, n1, "conv_cpu_without_pool vs loops (bias, ReLU)");
  hand_conv(2, NULL, NO_ACTIVATION, 0.125f, hand, OR2, OC2);
  conv_cpu_without_pool(BATCH, IR, IC, ICH, OCH, OR2, OC2, 2, 1, 1, PAD, KD, ICH, OCH, OCH, false,
                        false, false, false, false, in, w, NULL, ref, NO_ACTIVATION, 0.125f);
  check(ref, hand, n2, "conv_cpu_without_pool (strided form) vs loops (stride 2)");
  hand_conv(1, cbias, NO_ACTIVATION, 0.05f, full, OR1, OC1);
  hand_pool(full, hand);
  conv_cpu(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false, false,
           in, w, cbias, ref, NO_ACTIVATION, 0.05f, 3, 2, 1);
  check(ref, hand, np, "conv_cpu pooled vs loops");
  conv_cpu(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false, false,
           in, w, cbias, got, NO_ACTIVATION, 0.05f, 3, 0, 1);
  hand_conv(1, cbias, NO_ACTIVATION, 0.05f, hand, OR1, OC1);
  check(got, hand, n1, "conv_cpu pool_stride 0 = no pooling");

  /* The accelerator against the references: tiled_conv with forced tiles (both forms), the
   * automatic kernel, pooling, stride 2. */
  conv_cpu(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false, false,
           in, w, cbias, ref, RELU, 0.05f, 3, 2, 1);
  tiled_conv(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false, false,
             1, 2, PC, 4, KD, KD, 4, in, w, cbias, got, RELU, 0.05f, 3, 2, 1, WS);
  gemmini_fence();
  check(got, ref, np, "tiled_conv pooled, tiles 1x2x4x4");
  tiled_conv_auto(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false,
                  false, in, w, cbias, got, RELU, 0.05f, 3, 2, 1, WS);
  gemmini_fence();
  check(got, ref, np, "tiled_conv_auto pooled = conv_cpu");
  tiled_conv(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, false, false, false, false, false,
             1, 2, PC, 4, KD, KD, 4, in, w, cbias, got, RELU, 0.05f, 3, 2, 1, CPU);
  check(got, ref, np, "tiled_conv CPU pooled");
  conv_cpu(BATCH, IR, IC, ICH, OCH, OR2, OC2, 2, 1, 1, PAD, KD, false, false, false, false, false,
           in, w, NULL, ref, NO_ACTIVATION, 0.125f, 1, 1, 0);
  tiled_conv(BATCH, IR, IC, ICH, OCH, OR2, OC2, 2, 1, 1, PAD, KD, ICH, OCH, OCH, false, false,
             false, false, false, 2, 3, OC2, OCH, KD, KD, ICH, in, w, NULL, got, NO_ACTIVATION,
             0.125f, 1, 1, 0, WS);
  gemmini_fence();
  check(got, ref, n2, "tiled_conv (strided form) stride 2, no bias");
  /* Pixel strides: input pixels ISTRIDE apart, weight rows WSTRIDE, output pixels OSTRIDE. */
  for (size_t p = 0; p < (size_t)BATCH * IR * IC; ++p)
    for (int i = 0; i < ISTRIDE; ++i)
      in_s[p * ISTRIDE + i] = i < ICH ? in[p * ICH + i] : (elem_t)99;
  for (size_t r = 0; r < (size_t)KD * KD * ICH; ++r)
    for (int o = 0; o < WSTRIDE; ++o)
      w_s[r * WSTRIDE + o] = o < OCH ? w[r * OCH + o] : (elem_t)-77;
  for (size_t i = 0; i < sizeof ref / sizeof ref[0]; ++i)
    ref[i] = got[i] = (elem_t)5;
  conv_cpu(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, ISTRIDE, WSTRIDE, OSTRIDE, false,
           false, false, false, false, in_s, w_s, cbias, ref, RELU, 0.05f, 0, 0, 0);
  for (size_t p = 0; p < (size_t)BATCH * OR1 * OC1; ++p)
    for (int o = 0; o < OCH; ++o)
      full[p * OCH + o] = ref[p * OSTRIDE + o];
  hand_conv(1, cbias, RELU, 0.05f, hand, OR1, OC1);
  check(full, hand, n1, "conv_cpu with pixel strides vs loops");
  tiled_conv(BATCH, IR, IC, ICH, OCH, OR1, OC1, 1, 1, 1, PAD, KD, ISTRIDE, WSTRIDE, OSTRIDE, false,
             false, false, false, false, 1, 3, OC1, OCH, KD, KD, ICH, in_s, w_s, cbias, got, RELU,
             0.05f, 1, 0, 0, WS);
  gemmini_fence();
  check(got, ref, BATCH * OR1 * OC1 * OSTRIDE, "tiled_conv with pixel strides");

  /* Depthwise with tiles against its CPU mode. */
  tiled_conv_dw(BATCH, IR, IC, ICH, OR1, OC1, 1, PAD, KD, 1, 3, OC1, KD, KD, in, dw_w, cbias, got,
                RELU, 0.1f, 0, 0, 0, WS);
  gemmini_fence();
  tiled_conv_dw_auto(BATCH, IR, IC, ICH, OR1, OC1, 1, PAD, KD, in, dw_w, cbias, ref, RELU, 0.1f, 0,
                     0, 0, CPU);
  check(got, ref, BATCH * OR1 * OC1 * ICH, "tiled_conv_dw, tiles 1x3");
}

/* ---- Matmuls ---------------------------------------------------------------------------- */
/* Not multiples of DIM; K at least two blocks, split over two sp_tiled_matmul calls. */
#define MI (DIM + 3)
#define MJ (2 * DIM + 1)
#define MK (2 * DIM + 2)
static elem_t A[MI * MK], B[MK * MJ], C[MI * MJ], gold[MI * MJ];
static acc_t D[MI * MJ], Cfull[MI * MJ];

static void test_matmul(void) {
  fill(A, MI * MK, -8, 8);
  fill(B, MK * MJ, -8, 8);
  for (size_t i = 0; i < MI * MJ; ++i)
    D[i] = rand() % 401 - 200;
  /* matmul_cpu against a plain loop once (it is the reference below). */
  matmul_cpu(false, false, MI, MJ, MK, A, B, D, gold, MK, MJ, MJ, MJ, MVIN_SCALE_IDENTITY,
             MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, RELU, 0.5f, 0, false);
  for (int i = 0; i < MI; ++i)
    for (int j = 0; j < MJ; ++j) {
      int64_t s = D[i * MJ + j];
      for (int k = 0; k < MK; ++k)
        s += A[i * MK + k] * B[k * MJ + j];
      C[i * MJ + j] = clip_relu(ACC_SCALE(s, 0.5f), true);
    }
  check(C, gold, MI * MJ, "matmul_cpu vs loops");

  /* tiled_matmul_outer with forced tiles, WS and OS, bias (full and repeating) or none. */
  for (int df = 0; df < 2; ++df) {
    const int dataflow = df ? OS : WS;
    if ((dataflow == WS && !BY_HAS_WS) || (dataflow == OS && !BY_HAS_OS))
      continue;
    for (int variant = 0; variant < 3; ++variant) {
      const bool repeating = variant == 1;
      const acc_t* d = variant == 2 ? NULL : D;
      const int act = variant == 0 ? RELU : NO_ACTIVATION;
      matmul_cpu(false, false, MI, MJ, MK, A, B, d, gold, MK, MJ, MJ, MJ, MVIN_SCALE_IDENTITY,
                 MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, act, 0.25f, 0, repeating);
      tiled_matmul_outer(MI, MJ, MK, A, B, d, C, MK, MJ, MJ, MJ, MVIN_SCALE_IDENTITY,
                         MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, 2, 1, 3, act, 0.25f, 0,
                         repeating, false, false, false, false, 0, dataflow);
      gemmini_fence();
      char what[96];
      snprintf(what, sizeof what, "tiled_matmul_outer %s, %s", df ? "OS" : "WS",
               variant == 0   ? "bias, ReLU"
               : variant == 1 ? "repeating bias"
                              : "no bias");
      check(C, gold, MI * MJ, what);
    }
  }

  /* sp_tiled_matmul_ws / _os: the whole matmul as one I x J tile, K in two calls (the first
   * loads D or starts from zero with no_bias, the second adds onto the accumulator and moves C
   * out), with Gemmini's tiled_matmul configuration around them. */
  const size_t I = (MI + DIM - 1) / DIM, J = (MJ + DIM - 1) / DIM, K = (MK + DIM - 1) / DIM;
  const size_t K1 = K / 2, K2 = K - K1;
  for (int df = 0; df < 2; ++df) {
    if ((df == 0 && !(BY_HAS_WS && BY_HAS_LOOP_WS)) || (df == 1 && !BY_HAS_OS))
      continue;
    for (int variant = 0; variant < 3; ++variant) {
      const bool no_bias = variant == 2, full_C = variant == 1;
      const int act = variant == 0 ? RELU : NO_ACTIVATION;
      matmul_cpu(false, false, MI, MJ, MK, A, B, no_bias ? NULL : D, gold, MK, MJ, MJ, MJ,
                 MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, act, 0.25f, 0,
                 false);
      if (full_C) /* raw sums, D included */
        for (int i = 0; i < MI; ++i)
          for (int j = 0; j < MJ; ++j) {
            int64_t s = D[i * MJ + j];
            for (int k = 0; k < MK; ++k)
              s += A[i * MK + k] * B[k * MJ + j];
            Cfull[i * MJ + j] = (acc_t)s;
          }
      static acc_t out_full[MI * MJ];
      gemmini_extended_config_ex(df ? OUTPUT_STATIONARY : WEIGHT_STATIONARY,
                                 df ? act : NO_ACTIVATION, 0, 1, false, false);
      gemmini_extended_config_st(MJ * (full_C ? sizeof(acc_t) : sizeof(elem_t)), act, 0.25f);
      const void* d = D; /* with no_bias any non-NULL pointer: not read */
      void* c = full_C ? (void*)out_full : (void*)C;
      const size_t pad_I = I * DIM - MI, pad_J = J * DIM - MJ, pad_K2 = K * DIM - MK;
      if (df == 0) {
        sp_tiled_matmul_ws(A, B, d, NULL, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY,
                           MVIN_SCALE_IDENTITY, I, J, K1, pad_I, pad_J, 0, MK, MJ, MJ, MJ, false,
                           false, full_C, false, no_bias, false, act, 0, 0);
        sp_tiled_matmul_ws(A + K1 * DIM, B + K1 * DIM * MJ, NULL, c, MVIN_SCALE_IDENTITY,
                           MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, I, J, K2, pad_I, pad_J, pad_K2,
                           MK, MJ, MJ, MJ, false, false, full_C, false, no_bias, false, act, 0, 0);
      } else {
        sp_tiled_matmul_os(A, B, d, NULL, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY,
                           MVIN_SCALE_IDENTITY, I, J, K1, pad_I, pad_J, 0, MK, MJ, MJ, MJ, false,
                           false, full_C, false, no_bias, false, act);
        sp_tiled_matmul_os(A + K1 * DIM, B + K1 * DIM * MJ, NULL, c, MVIN_SCALE_IDENTITY,
                           MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, I, J, K2, pad_I, pad_J, pad_K2,
                           MK, MJ, MJ, MJ, false, false, full_C, false, no_bias, false, act);
      }
      gemmini_fence();
      char what[96];
      snprintf(what, sizeof what, "sp_tiled_matmul_%s, %s, K in two calls", df ? "os" : "ws",
               variant == 0   ? "bias, ReLU"
               : variant == 1 ? "full_C"
                              : "no bias");
      if (full_C) {
        int same = 1;
        for (size_t i = 0; i < MI * MJ; ++i)
          same &= out_full[i] == Cfull[i];
        printf("%s: %s\n", what, same ? "ok" : "MISMATCH");
        ok &= same;
      } else {
        check(C, gold, MI * MJ, what);
      }
    }
  }
}

/* ---- sp_tiled_conv: one tile covering a whole (small) convolution ------------------------ */
#define SB 1
#define SIR 6
#define SICH 3
#define SOCH 6
static elem_t s_in[SB * 7 * 7 * SICH], s_w[KD * KD * SICH * SOCH], s_ref[SB * 6 * 6 * SOCH],
    s_got[SB * 6 * 6 * SOCH];
static acc_t s_bias[SOCH];

static void test_sp_conv(void) {
  if (!BY_HAS_LOOP_CONV_WS)
    return;
  fill(s_in, sizeof s_in / sizeof s_in[0], -128, 127);
  fill(s_w, sizeof s_w / sizeof s_w[0], -5, 5);
  for (int o = 0; o < SOCH; ++o)
    s_bias[o] = rand() % 2001 - 1000;
  /* 6x6 input, 3x3 kernel, padding 1, stride 1 -> 6x6, pooled 3 / 2 / 1 -> 3x3. */
  conv_cpu(SB, SIR, SIR, SICH, SOCH, 6, 6, 1, 1, 1, 1, KD, false, false, false, false, false, s_in,
           s_w, s_bias, s_ref, RELU, 0.05f, 3, 2, 1);
  sp_tiled_conv(SB, SIR, SIR, SICH, SOCH, 6, 6, 3, 3, 1, 1, KD, 1, SICH, SOCH, SOCH, 3, 2, 1, SB, 3,
                3, SOCH, KD, KD, SICH, 1, 1, 1, 1, 1, 1, 1, 1, s_in, s_w, s_got, s_bias, RELU,
                0.05f, false, false, false, false, false, false, false, false, false, false, 0, 0);
  gemmini_fence();
  check(s_got, s_ref, SB * 3 * 3 * SOCH, "sp_tiled_conv pooled tile, bias, ReLU");
  /* 7x7 input, stride 2, padding 1 -> 4x4, no bias (a bias pointer with no_bias: zeros, as on
   * Gemmini; NULL would add onto the accumulator), no pooling. */
  conv_cpu_without_pool(SB, 7, 7, SICH, SOCH, 4, 4, 2, 1, 1, 1, KD, false, false, false, false,
                        false, s_in, s_w, NULL, s_ref, NO_ACTIVATION, 0.125f);
  sp_tiled_conv(SB, 7, 7, SICH, SOCH, 4, 4, 4, 4, 2, 1, KD, 1, SICH, SOCH, SOCH, 1, 1, 0, SB, 4, 4,
                SOCH, KD, KD, SICH, 1, 1, 1, 1, 0, 0, 0, 0, s_in, s_w, s_got, s_bias, NO_ACTIVATION,
                0.125f, false, false, false, false, false, true, true, false, false, false, 0, 0);
  gemmini_fence();
  check(s_got, s_ref, SB * 4 * 4 * SOCH, "sp_tiled_conv stride 2, no bias, no pooling");
}

/* ---- Residual adds, scale_and_sat, the budgets --------------------------------------------- */
#define RI 10
#define RJ 7
#define RLD 12
static elem_t RA[RI * RLD], RB[RI * RLD], RC[RI * RLD], RG[RI * RJ], RAd[RI * RJ], RBd[RI * RJ],
    RCd[RI * RJ];

static void test_resadd_misc(void) {
  fill(RA, RI * RLD, -128, 127);
  fill(RB, RI * RLD, -128, 127);
  for (int i = 0; i < RI; ++i)
    for (int j = 0; j < RJ; ++j) {
      RAd[i * RJ + j] = RA[i * RLD + j];
      RBd[i * RJ + j] = RB[i * RLD + j];
    }
  for (int relu = 0; relu < 2; ++relu) {
    resadd_cpu(RI, RJ, 0.5f, MVIN_SCALE_IDENTITY, 0.75f, RAd, RBd, RG, relu);
    tiled_resadd(RI, RJ, 3, 2, 0.5f, MVIN_SCALE_IDENTITY, 0.75f, RAd, RBd, RCd, relu, WS);
    gemmini_fence();
    check(RCd, RG, RI * RJ, relu ? "tiled_resadd ReLU" : "tiled_resadd");
    /* sp_tiled_resadd on strided operands, CONFIG_ST as Gemmini's tiled_resadd sets it. */
    gemmini_extended_config_st(RLD * sizeof(elem_t), relu ? RELU : NO_ACTIVATION, 0.75f);
    sp_tiled_resadd(RI, RJ, 0.5f, MVIN_SCALE_IDENTITY, RA, RB, RC, RLD, RLD, RLD, relu);
    gemmini_fence();
    for (int i = 0; i < RI; ++i)
      for (int j = 0; j < RJ; ++j)
        RCd[i * RJ + j] = RC[i * RLD + j];
    check(RCd, RG, RI * RJ, relu ? "sp_tiled_resadd ReLU, strided" : "sp_tiled_resadd, strided");
  }
  /* scale_and_sat: ACC_SCALE (round half to even), saturation, ReLU. */
  const acc_t xs[6] = {5, 6, -7, 100000, -1000, 3};
  const elem_t want[6] = {2, 3, 0, elem_t_max, 0, 2}; /* x * 0.5, ReLU */
  elem_t have[6];
  for (int i = 0; i < 6; ++i)
    have[i] = scale_and_sat(xs[i], RELU, 0.5f, 0);
  check(have, want, 6, "scale_and_sat");
  /* The budgets. */
  const int budgets =
      tiled_matmul_total_spad_rows(2, 3, 4) == (2 * 4 + 4 * 3) * DIM &&
      tiled_matmul_total_acc_rows(2, 3) == 6 * DIM &&
      /* acc: ceil(7/DIM) blocks x 1 image x (2*2+3-1)^2 output pixels */
      tiled_conv_total_spad_rows(true, 1, 1, 1, false, false, false, 1, 2, 2, 7, 3, 3, 5, 3, 2) ==
          ((7 + DIM - 1) / DIM) * 36 &&
      /* spad: input ceil(5/DIM) x 1 x 8 x 8 + weights ceil(7/DIM) x 3 x 3 x 5 */
      tiled_conv_total_spad_rows(false, 1, 1, 1, false, false, false, 1, 2, 2, 7, 3, 3, 5, 3, 2) ==
          ((5 + DIM - 1) / DIM) * 64 + ((7 + DIM - 1) / DIM) * 45;
  printf("tiling budgets: %s\n", budgets ? "ok" : "MISMATCH");
  ok &= budgets;
}

int main(void) {
  seed_rand(7111, "gemmini_more");
  test_conv();
  test_matmul();
  test_sp_conv();
  test_resadd_misc();
  printf("gemmini_more: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
