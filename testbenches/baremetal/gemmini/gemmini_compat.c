// Gemmini-style program: what Gemmini programs write that Brickyard's gemmini.h must accept and
// get right (docs/driver.md, "Gemmini compatibility"):
//  - command macros used as Gemmini's are, braced blocks: without a `;`, back to back;
//  - every argument count of the commands Gemmini has had in several forms (config_ex,
//    config_st, config_ld 1..6 arguments), each checked by its effect;
//  - gemmini_extended4_config_ld's block stride, tiled_conv_stride_auto (strided pixels and
//    weights against the dense tiled_conv_auto), tiled_conv_dw_auto and resadd_cpu with
//    Gemmini's signatures;
//  - results Gemmini programs rely on: the accumulator moved at full width with the address
//    Gemmini's tests use (full bit on the MVIN too), stride-0 (row repeat) mvins and the
//    repeating bias, residual adds with A/B scales (also Gemmini's current strided forms, with
//    negative and fractional scales) and the raw accumulator add of Gemmini's matrix_add, whose
//    mvin scales are ignored as on a Gemmini without mvin scaling.
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static void check(int cond, const char* what) {
  if (!cond) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

static elem_t In[2][DIM][DIM] row_align(1), Out[2][DIM][DIM] row_align(1);
static acc_t AccIn[DIM][DIM] row_align_acc(1);

static void fill(void) {
  for (size_t n = 0; n < 2; ++n)
    for (size_t i = 0; i < DIM; ++i)
      for (size_t j = 0; j < DIM; ++j)
        In[n][i][j] = (elem_t)(rand() % 256 - 128);
  memset(Out, 0x5a, sizeof Out);
}

static int same_block(elem_t a[DIM][DIM], elem_t b[DIM][DIM]) {
  return memcmp(a, b, DIM * DIM * sizeof(elem_t)) == 0;
}

// Command macros as Gemmini programs use them: no `;` after a command, commands back to back.
static void without_semicolons(void) {
  fill();
  // clang-format off
  gemmini_flush(0)
  gemmini_config_ld(DIM * sizeof(elem_t))
  gemmini_config_st(DIM * sizeof(elem_t))
  gemmini_mvin(In[0], 0) gemmini_mvout(Out[0], 0)
      // clang-format on
      gemmini_fence();
  check(same_block(In[0], Out[0]), "mvin/mvout written without semicolons");
  uint32_t v = 0xdead;
  // clang-format off
  gemmini_counter_access(v, 0)
      // clang-format on
      check(v != 0xdead, "gemmini_counter_access without a semicolon");
}

// CONFIG_EX in every form (each followed by an OS round trip would need the array; the forms
// are checked to configure without an error), CONFIG_ST and CONFIG_LD by their effect.
static void argument_counts(void) {
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 0);
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 0);
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 1, false, false);
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 0, 1, false, false);
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 0, 1, false,
                             false);
  gemmini_extended2_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 1, false, false);
  gemmini_extended2_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 0, 1, false, false, 0, 0, 0, 0,
                              0, 0, 0, 0, 0);
  gemmini_extended2_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 0, 1, false,
                              false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  gemmini_extended3_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 1, 1, false,
                              false, false);
  gemmini_fence();
  check(by_error().code == BY_ERROR_NONE, "every CONFIG_EX form is accepted");

  // CONFIG_ST: ReLU through the 3-argument form, then none through the 10- and 12-argument ones.
  const uint32_t acc = (uint32_t)1 << 31;
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      AccIn[i][j] = (acc_t)((int)(i * DIM + j) % 7 - 3);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(AccIn, acc);
  gemmini_extended_config_st(DIM * sizeof(elem_t), RELU, ACC_SCALE_IDENTITY);
  gemmini_mvout(Out[0], acc);
  gemmini_extended_config_st(DIM * sizeof(elem_t), 0, 0, 0, 0, 0, 0, 0, 0, 0);
  gemmini_mvout(Out[1], acc);
  gemmini_fence();
  int relu_ok = 1, plain_ok = 1;
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j) {
      relu_ok &= Out[0][i][j] == (AccIn[i][j] > 0 ? AccIn[i][j] : 0);
      plain_ok &= Out[1][i][j] == AccIn[i][j];
    }
  check(relu_ok, "gemmini_extended_config_st(stride, RELU, scale)");
  check(plain_ok, "gemmini_extended_config_st with the 10 pooling arguments");
  gemmini_extended2_config_st(DIM * sizeof(elem_t), RELU, ACC_SCALE_IDENTITY, 0, 0, 0, 0, 0, 0, 0,
                              0, 0);
  gemmini_mvout(Out[1], acc);
  gemmini_fence();
  check(memcmp(Out[0], Out[1], sizeof Out[0]) == 0, "gemmini_extended2_config_st");
  gemmini_config_st(DIM * sizeof(elem_t));

  // CONFIG_LD, 1 to 6 arguments: block mvins of two DIM-column blocks placed block_mvin_stride
  // rows apart (DIM for the forms without it).
  static elem_t Wide[DIM][2 * DIM] row_align(2);
  fill();
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j) {
      Wide[i][j] = In[0][i][j];
      Wide[i][DIM + j] = In[1][i][j];
    }
  const uint32_t stride = 2 * DIM * sizeof(elem_t);
  for (int form = 1; form <= 6; ++form) {
    uint32_t block_stride = DIM;
    switch (form) {
    case 1:
      gemmini_config_ld(stride);
      break;
    case 2:
      gemmini_extended_config_ld(stride, MVIN_SCALE_IDENTITY);
      break;
    case 3:
      gemmini_extended2_config_ld(stride, MVIN_SCALE_IDENTITY, false);
      break;
    case 4:
      gemmini_extended3_config_ld(stride, MVIN_SCALE_IDENTITY, false, 0);
      break;
    case 5:
      block_stride = 3 * DIM;
      gemmini_extended4_config_ld(stride, MVIN_SCALE_IDENTITY, false, block_stride, 0);
      break;
    default:
      block_stride = 2 * DIM + 1;
      gemmini_extended5_config_ld(stride, MVIN_SCALE_IDENTITY, false, block_stride, 1, 0);
      break;
    }
    memset(Out, 0, sizeof Out);
    gemmini_block_mvin(Wide, 0, 2);
    gemmini_mvout(Out[0], 0);
    gemmini_mvout(Out[1], block_stride);
    gemmini_fence();
    char what[64];
    snprintf(what, sizeof what, "config_ld form with %d arguments", form);
    check(same_block(In[0], Out[0]) && same_block(In[1], Out[1]), what);
  }
}

// tiled_conv_stride_auto against tiled_conv_auto on dense copies; the elements between the
// channels and the pixel stride of the output stay as they were.
#define B_N 1
#define B_IR 6
#define B_IC 5
#define B_ICH 5
#define B_OCH 6
#define B_IN_STRIDE (B_ICH + 3)
#define B_W_STRIDE (B_OCH + 2)
#define B_OUT_STRIDE (B_OCH + 4)
#define B_K 3
static elem_t s_in[B_N * B_IR * B_IC][B_IN_STRIDE], d_in[B_N * B_IR * B_IC][B_ICH];
static elem_t s_w[B_K * B_K * B_ICH][B_W_STRIDE], d_w[B_K * B_K * B_ICH][B_OCH];
static elem_t s_out[B_N * B_IR * B_IC][B_OUT_STRIDE], d_out[B_N * B_IR * B_IC][B_OCH];
static acc_t s_bias[B_OCH];
static elem_t dw_in[B_N][B_IR][B_IC][B_ICH], dw_w[B_ICH][B_K][B_K];
static elem_t dw_acc[B_N][B_IR][B_IC][B_ICH], dw_cpu[B_N][B_IR][B_IC][B_ICH];

static void convolutions(void) {
  for (size_t p = 0; p < B_N * B_IR * B_IC; ++p)
    for (size_t c = 0; c < B_IN_STRIDE; ++c)
      s_in[p][c] = c < B_ICH ? (d_in[p][c] = (elem_t)(rand() % 9 - 4)) : (elem_t)99;
  for (size_t r = 0; r < B_K * B_K * B_ICH; ++r)
    for (size_t c = 0; c < B_W_STRIDE; ++c)
      s_w[r][c] = c < B_OCH ? (d_w[r][c] = (elem_t)(rand() % 9 - 4)) : (elem_t)-99;
  for (size_t c = 0; c < B_OCH; ++c)
    s_bias[c] = rand() % 41 - 20;
  for (size_t p = 0; p < B_N * B_IR * B_IC; ++p)
    for (size_t c = 0; c < B_OUT_STRIDE; ++c)
      s_out[p][c] = (elem_t)0x33;
  for (int type = WS; type <= CPU; ++type) {
    tiled_conv_stride_auto(B_N, B_IR, B_IC, B_ICH, B_OCH, B_IR, B_IC, 1, 1, 1, 1, B_K, B_IN_STRIDE,
                           B_W_STRIDE, B_OUT_STRIDE, false, false, false, false, false,
                           (elem_t*)s_in, (elem_t*)s_w, s_bias, (elem_t*)s_out, RELU, 0.25f, 0, 0,
                           0, (enum tiled_matmul_type_t)type);
    tiled_conv_auto(B_N, B_IR, B_IC, B_ICH, B_OCH, B_IR, B_IC, 1, 1, 1, 1, B_K, false, false, false,
                    false, false, (elem_t*)d_in, (elem_t*)d_w, s_bias, (elem_t*)d_out, RELU, 0.25f,
                    0, 0, 0, CPU);
    int ok = 1;
    for (size_t p = 0; p < B_N * B_IR * B_IC; ++p)
      for (size_t c = 0; c < B_OUT_STRIDE; ++c)
        ok &= s_out[p][c] == (c < B_OCH ? d_out[p][c] : (elem_t)0x33);
    check(ok, type == CPU ? "tiled_conv_stride_auto (CPU)" : "tiled_conv_stride_auto (WS)");
  }

  for (size_t i = 0; i < sizeof dw_in / sizeof(elem_t); ++i)
    ((elem_t*)dw_in)[i] = (elem_t)(rand() % 9 - 4);
  for (size_t i = 0; i < sizeof dw_w / sizeof(elem_t); ++i)
    ((elem_t*)dw_w)[i] = (elem_t)(rand() % 9 - 4);
  // Gemmini's signature: (batch, in_row_dim, in_col_dim, channels, out_row_dim, out_col_dim,
  // stride, padding, kernel_dim, input, weights, bias, output, act, scale, pool_size,
  // pool_stride, pool_padding, type).
  tiled_conv_dw_auto(B_N, B_IR, B_IC, B_ICH, B_IR, B_IC, 1, 1, B_K, (elem_t*)dw_in, (elem_t*)dw_w,
                     NULL, (elem_t*)dw_acc, NO_ACTIVATION, 0.5f, 0, 0, 0, WS);
  tiled_conv_dw_auto(B_N, B_IR, B_IC, B_ICH, B_IR, B_IC, 1, 1, B_K, (elem_t*)dw_in, (elem_t*)dw_w,
                     NULL, (elem_t*)dw_cpu, NO_ACTIVATION, 0.5f, 0, 0, 0, CPU);
  check(memcmp(dw_acc, dw_cpu, sizeof dw_acc) == 0, "tiled_conv_dw_auto (Gemmini's signature)");
}

// The accumulator as Gemmini's mvin_mvout_acc_full moves it: MVIN and MVOUT both at
// 5 << (ADDR_LEN - 3) (accumulator | full width); the full bit means nothing to an MVIN.
static acc_t AccFull[2][DIM][DIM] row_align_acc(1), AccOut[2][DIM][DIM] row_align_acc(1);
static void accumulator_full_width(void) {
  for (size_t n = 0; n < 2; ++n)
    for (size_t i = 0; i < DIM; ++i)
      for (size_t j = 0; j < DIM; ++j)
        AccFull[n][i][j] = (acc_t)(rand() % 2000001) - 1000000;
  memset(AccOut, 0, sizeof AccOut);
  const uint32_t acc_addr = 5u << (ADDR_LEN - 3);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_config_st(DIM * sizeof(acc_t));
  for (size_t n = 0; n < 2; ++n) {
    gemmini_mvin(AccFull[n], acc_addr + n * DIM);
    gemmini_mvout(AccOut[n], acc_addr + n * DIM);
  }
  gemmini_fence();
  check(memcmp(AccFull, AccOut, sizeof AccOut) == 0 && by_error().code == BY_ERROR_NONE,
        "accumulator mvin/mvout at full width (acc | full address bits)");
}

// Stride 0 repeats one DRAM row into every local row (Gemmini's repeating bias): acc_t rows
// into the accumulator, elem_t rows (shrunk) into the accumulator, and into the scratchpad.
static acc_t BiasRow[DIM] row_align_acc(1);
static elem_t ElemRow[DIM] row_align(1);
static void stride_zero(void) {
  for (size_t j = 0; j < DIM; ++j) {
    BiasRow[j] = (acc_t)(rand() % 200001) - 100000;
    ElemRow[j] = (elem_t)(rand() % 256 - 128);
  }
  const uint32_t acc = (uint32_t)1 << 31, full = (uint32_t)1 << 29;
  memset(AccOut, 0, sizeof AccOut);
  gemmini_extended_config_ld(0, MVIN_SCALE_IDENTITY);
  gemmini_mvin(BiasRow, acc);
  gemmini_extended2_config_ld(0, MVIN_SCALE_IDENTITY, true);
  gemmini_mvin(ElemRow, acc + DIM);
  gemmini_config_ld(0);
  gemmini_mvin(ElemRow, 0);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(AccOut[0], acc | full);
  gemmini_mvout(AccOut[1], (acc | full) + DIM);
  gemmini_config_st(DIM * sizeof(elem_t));
  memset(Out, 0, sizeof Out);
  gemmini_mvout(Out[0], 0);
  gemmini_fence();
  int wide = 1, shrunk = 1, sp = 1;
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j) {
      wide &= AccOut[0][i][j] == BiasRow[j];
      shrunk &= AccOut[1][i][j] == ElemRow[j];
      sp &= Out[0][i][j] == ElemRow[j];
    }
  check(wide, "accumulator mvin of acc_t rows with stride 0");
  check(shrunk, "accumulator mvin of elem_t rows (shrunk) with stride 0");
  check(sp, "scratchpad mvin with stride 0");

  // As Gemmini's mvin_mvout_acc_stride checks it: one acc_t row repeated, moved out scaled to
  // elem_t, against ACC_SCALE (which saturates to elem_t, as Gemmini's does).
  static elem_t gold_rows[DIM][DIM];
  for (size_t j = 0; j < DIM; ++j) {
    BiasRow[j] = 0;
    const int nbytes = rand() % 2 ? (int)sizeof(acc_t) : (int)sizeof(elem_t);
    for (int byte = 0; byte < nbytes; ++byte)
      BiasRow[j] |= (acc_t)((uint32_t)(rand() % 255) << (byte * 8));
  }
  for (size_t i = 0; i < DIM; ++i)
    for (size_t j = 0; j < DIM; ++j)
      gold_rows[i][j] = ACC_SCALE(BiasRow[j], ACC_SCALE_IDENTITY);
  gemmini_config_ld(0);
  gemmini_config_st(DIM * sizeof(elem_t));
  memset(Out, 0, sizeof Out);
  gemmini_mvin(BiasRow, acc + 2 * DIM);
  gemmini_mvout(Out[0], acc + 2 * DIM);
  gemmini_fence();
  check(same_block(Out[0], gold_rows), "stride-0 accumulator rows moved out against ACC_SCALE");

  // The same across column blocks (a bias row wider than DIM; the last block partial), as many
  // blocks as one move may carry (MAX_BLOCK_LEN_ACC for acc_t rows, MAX_BLOCK_LEN otherwise),
  // at most WB.
  enum { WB = 3 };
  static acc_t wide_row[WB * DIM] row_align_acc(1);
  static elem_t wide_elem[WB * DIM] row_align(1);
  static acc_t wide_out[WB][DIM][DIM] row_align_acc(1);
  static elem_t wide_sp[WB][DIM][DIM] row_align(1);
  for (size_t j = 0; j < WB * DIM; ++j) {
    wide_row[j] = (acc_t)(rand() % 200001) - 100000;
    wide_elem[j] = (elem_t)(rand() % 256 - 128);
  }
  for (int kind = 0; kind < 3; ++kind) {
    const size_t limit = kind == 0 ? MAX_BLOCK_LEN_ACC : MAX_BLOCK_LEN;
    const size_t blocks = limit < WB ? limit : WB;
    const size_t cols = blocks * DIM - 1;
    memset(wide_out, 0, sizeof wide_out);
    memset(wide_sp, 0, sizeof wide_sp);
    if (kind == 0) {
      gemmini_extended_config_ld(0, MVIN_SCALE_IDENTITY);
      gemmini_extended_mvin(wide_row, acc, cols, DIM);
    } else if (kind == 1) {
      gemmini_extended2_config_ld(0, MVIN_SCALE_IDENTITY, true);
      gemmini_extended_mvin(wide_elem, acc, cols, DIM);
    } else {
      gemmini_config_ld(0);
      gemmini_extended_mvin(wide_elem, 0, cols, DIM);
    }
    gemmini_config_st(DIM * sizeof(acc_t));
    for (size_t blk = 0; kind < 2 && blk < blocks; ++blk)
      gemmini_mvout(wide_out[blk], (acc | full) + blk * DIM);
    gemmini_config_st(DIM * sizeof(elem_t));
    for (size_t blk = 0; kind == 2 && blk < blocks; ++blk)
      gemmini_mvout(wide_sp[blk], blk * DIM);
    gemmini_fence();
    int good = by_error().code == BY_ERROR_NONE;
    for (size_t blk = 0; blk < blocks; ++blk)
      for (size_t i = 0; i < DIM; ++i)
        for (size_t j = 0; j < DIM && blk * DIM + j < cols; ++j) {
          const size_t col = blk * DIM + j;
          good &= kind == 0   ? wide_out[blk][i][j] == wide_row[col]
                  : kind == 1 ? wide_out[blk][i][j] == wide_elem[col]
                              : wide_sp[blk][i][j] == wide_elem[col];
        }
    check(good, kind == 0   ? "stride 0, acc_t rows over column blocks"
                : kind == 1 ? "stride 0, shrunk rows over column blocks"
                            : "stride 0, scratchpad rows over column blocks");
  }

  // tiled_matmul_auto with a repeating bias (one acc_t row for every row of C), against
  // matmul_cpu, in WS, OS and CPU mode.
  enum { RI = 9, RJ = 7, RK = 6 };
  static elem_t a[RI][RK], b[RK][RJ], c[RI][RJ], gold[RI][RJ];
  static acc_t d[RJ];
  for (size_t i = 0; i < RI; ++i)
    for (size_t k = 0; k < RK; ++k)
      a[i][k] = (elem_t)(rand() % 9 - 4);
  for (size_t k = 0; k < RK; ++k)
    for (size_t j = 0; j < RJ; ++j)
      b[k][j] = (elem_t)(rand() % 9 - 4);
  for (size_t j = 0; j < RJ; ++j)
    d[j] = rand() % 101 - 50;
  matmul_cpu(false, false, RI, RJ, RK, (elem_t*)a, (elem_t*)b, d, (elem_t*)gold, RK, RJ, RJ, RJ,
             MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION,
             ACC_SCALE_IDENTITY, 0, true);
  for (int type = OS; type <= CPU; ++type) {
    memset(c, 0, sizeof c);
    tiled_matmul_auto(RI, RJ, RK, (elem_t*)a, (elem_t*)b, d, (elem_t*)c, RK, RJ, RJ, RJ,
                      MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION,
                      ACC_SCALE_IDENTITY, 0, true, false, false, false, false, 0,
                      (enum tiled_matmul_type_t)type);
    check(memcmp(c, gold, sizeof c) == 0, type == OS   ? "repeating bias (OS)"
                                          : type == WS ? "repeating bias (WS)"
                                                       : "repeating bias (CPU)");
  }
  // The same bias as elem_t (low_D), one row repeated.
  static elem_t d8[RJ];
  for (size_t j = 0; j < RJ; ++j)
    d8[j] = (elem_t)d[j];
  for (int type = OS; type <= CPU; ++type) {
    memset(c, 0, sizeof c);
    tiled_matmul_auto(RI, RJ, RK, (elem_t*)a, (elem_t*)b, d8, (elem_t*)c, RK, RJ, RJ, RJ,
                      MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION,
                      ACC_SCALE_IDENTITY, 0, true, false, false, false, true, 0,
                      (enum tiled_matmul_type_t)type);
    check(memcmp(c, gold, sizeof c) == 0, type == OS   ? "repeating elem_t bias (OS)"
                                          : type == WS ? "repeating elem_t bias (WS)"
                                                       : "repeating elem_t bias (CPU)");
  }
}

// tiled_resadd_auto with A and B scales (Gemmini's resadd test uses A_SCALE 2): Gemmini's mvin
// scale, x * scale rounded to nearest even and saturated to elem_t, then the sum scaled by
// C_scale, saturated, ReLU; checked against that formula written here and against resadd_cpu.
#define RS_I 5
#define RS_J 11
static elem_t ra[RS_I][RS_J], rb[RS_I][RS_J], rc[RS_I][RS_J], rgold[RS_I][RS_J];
static elem_t rcpu[RS_I][RS_J];
static int32_t round_even(float x) {
  const float f = (float)(int32_t)x; // truncated
  const float rem = x - f;
  int32_t i = (int32_t)f;
  if (rem > 0.5f || (rem == 0.5f && (i & 1)))
    ++i;
  else if (rem < -0.5f || (rem == -0.5f && (i & 1)))
    --i;
  return i;
}
static int32_t sat8(int32_t x) {
  return x > elem_t_max ? elem_t_max : x < elem_t_min ? elem_t_min : x;
}
static void resadd_scales(void) {
  const float scales[][3] = {{2.0f, 1.0f, 1.0f}, {0.5f, 1.5f, 0.75f}, {3.0f, -0.25f, 1.0f}};
  for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
    const float sa = scales[s][0], sb = scales[s][1], sc = scales[s][2];
    for (size_t i = 0; i < RS_I; ++i)
      for (size_t j = 0; j < RS_J; ++j) {
        ra[i][j] = (elem_t)(rand() % 256 - 128);
        rb[i][j] = (elem_t)(rand() % 256 - 128);
        const int32_t sum =
            sat8(round_even((float)ra[i][j] * sa)) + sat8(round_even((float)rb[i][j] * sb));
        const int32_t y = sat8(ACC_SCALE(sum, sc));
        rgold[i][j] = (elem_t)(y < 0 ? 0 : y);
      }
    for (int type = WS; type <= CPU; ++type) {
      memset(rc, 0, sizeof rc);
      tiled_resadd_auto(RS_I, RS_J, sa, sb, sc, (elem_t*)ra, (elem_t*)rb, (elem_t*)rc, true,
                        (enum tiled_matmul_type_t)type);
      check(memcmp(rc, rgold, sizeof rc) == 0,
            type == CPU ? "tiled_resadd_auto with scales (CPU)" : "tiled_resadd_auto with scales");
    }
    resadd_cpu(RS_I, RS_J, sa, sb, sc, (elem_t*)ra, (elem_t*)rb, (elem_t*)rcpu, true);
    check(memcmp(rcpu, rgold, sizeof rcpu) == 0, "resadd_cpu with scales");
  }
}

// Gemmini's current strided residual add (its resadd_stride program): resadd_cpu with the
// stride third, tiled_resadd_stride_auto and the 13-argument tiled_resadd, A, B and C rows
// RS_LD apart, with negative and fractional A, B and C scales; against the mvin-scale formula
// written here. The elements between RS_J and the stride are left alone.
#define RS_LD (RS_J + 5)
static elem_t sa_[RS_I][RS_LD], sb_[RS_I][RS_LD], sc_[RS_I][RS_LD], sgold[RS_I][RS_LD];
static elem_t resadd_ref(elem_t a, elem_t b, float sa, float sb, float sc, bool relu) {
  const int32_t sum = sat8(round_even((float)a * sa)) + sat8(round_even((float)b * sb));
  const int32_t y = sat8(round_even((float)sum * sc));
  return (elem_t)(relu && y < 0 ? 0 : y);
}
static void resadd_strided(void) {
  const float scales[][3] = {{-2.0f, -2.0f, 1.0f}, {-0.5f, 1.5f, 0.75f}, {1.25f, -3.0f, -1.0f}};
  for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
    const float sa = scales[s][0], sb = scales[s][1], sc = scales[s][2];
    const bool relu = s == 1;
    memset(sgold, 0x5a, sizeof sgold); /* what the adds must leave between RS_J and RS_LD */
    for (size_t i = 0; i < RS_I; ++i)
      for (size_t j = 0; j < RS_LD; ++j) {
        sa_[i][j] = (elem_t)(rand() % 256 - 128);
        sb_[i][j] = (elem_t)(rand() % 256 - 128);
        if (j < RS_J)
          sgold[i][j] = resadd_ref(sa_[i][j], sb_[i][j], sa, sb, sc, relu);
      }
    for (int form = 0; form < 4; ++form) {
      memset(sc_, 0x5a, sizeof sc_);
      if (form == 0)
        resadd_cpu(RS_I, RS_J, RS_LD, sa, sb, sc, (elem_t*)sa_, (elem_t*)sb_, (elem_t*)sc_, relu);
      else if (form == 1 || form == 2)
        tiled_resadd_stride_auto(RS_I, RS_J, sa, sb, sc, RS_LD, (elem_t*)sa_, (elem_t*)sb_,
                                 (elem_t*)sc_, relu, form == 1 ? WS : CPU);
      else
        tiled_resadd(RS_I, RS_J, RS_LD, 2, 3, sa, sb, sc, (elem_t*)sa_, (elem_t*)sb_, (elem_t*)sc_,
                     relu, WS);
      gemmini_fence();
      static const char* const names[4] = {"resadd_cpu with a stride", "tiled_resadd_stride_auto",
                                           "tiled_resadd_stride_auto (CPU)",
                                           "tiled_resadd with a stride"};
      check(memcmp(sc_, sgold, sizeof sc_) == 0, names[form]);
    }
  }
}

// Gemmini's matrix_add: A and B moved into the accumulator (B accumulating) with
// gemmini_extended2_config_ld scales, C moved out. Brickyard has no mvin scaler and its
// gemmini_params.h's MVIN_SCALE is the identity, so, as on a Gemmini built without mvin
// scaling, the scale is ignored: C = sat(A + B) for every scale, negative and fractional ones
// included, and no command is refused.
static elem_t MA[DIM][DIM] row_align(1), MB[DIM][DIM] row_align(1), MC[DIM][DIM] row_align(1);
static void matrix_add_scales(void) {
  const float scales[] = {-2.0f, -1.0f, -0.5f, 0.0f, 1.0f, 3.0f};
  const uint32_t errors = by_error().count;
  for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
    int same = 1;
    for (size_t i = 0; i < DIM; ++i)
      for (size_t j = 0; j < DIM; ++j) {
        MA[i][j] = (elem_t)(rand() % 256 - 128);
        MB[i][j] = (elem_t)(rand() % 256 - 128);
        same &= MVIN_SCALE(MA[i][j], scales[s]) == MA[i][j];
      }
    check(same, "MVIN_SCALE is the identity");
    gemmini_extended2_config_ld(DIM * sizeof(elem_t), scales[s], true);
    gemmini_mvin(MA, 1u << (ADDR_LEN - 1));
    gemmini_extended2_config_ld(DIM * sizeof(elem_t), -scales[s], true);
    gemmini_mvin(MB, (1u << (ADDR_LEN - 1)) | (1u << (ADDR_LEN - 2)));
    gemmini_config_ex(0, NO_ACTIVATION, 0);
    gemmini_config_st(DIM * sizeof(elem_t));
    memset(MC, 0x5a, sizeof MC);
    gemmini_mvout(MC, 1u << (ADDR_LEN - 1));
    gemmini_fence();
    for (size_t i = 0; i < DIM; ++i)
      for (size_t j = 0; j < DIM; ++j)
        same &= MC[i][j] == (elem_t)sat8((int32_t)MA[i][j] + MB[i][j]);
    check(same, "matrix add with mvin scales (ignored)");
  }
  check(by_error().count == errors, "matrix add with mvin scales: no command refused");
}

int main() {
  seed_rand(6020, "gemmini_compat");
  gemmini_flush(0);
  without_semicolons();
  argument_counts();
  convolutions();
  accumulator_full_width();
  stride_zero();
  resadd_scales();
  resadd_strided();
  matrix_add_scales();
  if (failures) {
    printf("gemmini_compat: FAIL (%d)\n", failures);
    return 1;
  }
  printf("gemmini_compat: PASS\n");
  return 0;
}
