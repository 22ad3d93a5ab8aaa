// Gemmini-style program: what Gemmini programs write that Brickyard's gemmini.h must accept and
// get right (docs/driver.md, "Gemmini compatibility"):
//  - command macros used as Gemmini's are, braced blocks: without a `;`, back to back;
//  - every argument count of the commands Gemmini has had in several forms (config_ex,
//    config_st, config_ld 1..6 arguments), each checked by its effect;
//  - gemmini_extended4_config_ld's block stride, tiled_conv_stride_auto (strided pixels and
//    weights against the dense tiled_conv_auto), tiled_conv_dw_auto and resadd_cpu with
//    Gemmini's signatures.
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
    case 1: gemmini_config_ld(stride); break;
    case 2: gemmini_extended_config_ld(stride, MVIN_SCALE_IDENTITY); break;
    case 3: gemmini_extended2_config_ld(stride, MVIN_SCALE_IDENTITY, false); break;
    case 4: gemmini_extended3_config_ld(stride, MVIN_SCALE_IDENTITY, false, 0); break;
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
  memset(s_out, 0x33, sizeof s_out);
  for (int type = WS; type <= CPU; ++type) {
    tiled_conv_stride_auto(B_N, B_IR, B_IC, B_ICH, B_OCH, B_IR, B_IC, 1, 1, 1, 1, B_K,
                           B_IN_STRIDE, B_W_STRIDE, B_OUT_STRIDE, false, false, false, false,
                           false, (elem_t*)s_in, (elem_t*)s_w, s_bias, (elem_t*)s_out, RELU, 0.25f,
                           0, 0, 0, (enum tiled_matmul_type_t)type);
    tiled_conv_auto(B_N, B_IR, B_IC, B_ICH, B_OCH, B_IR, B_IC, 1, 1, 1, 1, B_K, false, false, false,
                    false, false, (elem_t*)d_in, (elem_t*)d_w, s_bias, (elem_t*)d_out, RELU, 0.25f,
                    0, 0, 0, CPU);
    int ok = 1;
    for (size_t p = 0; p < B_N * B_IR * B_IC; ++p)
      for (size_t c = 0; c < B_OUT_STRIDE; ++c)
        ok &= s_out[p][c] == (c < B_OCH ? d_out[p][c] : (elem_t)0x33);
    check(ok, type == CPU ? "tiled_conv_stride_auto (CPU)" : "tiled_conv_stride_auto (WS)");
  }

  for (size_t i = 0; i < sizeof dw_in; ++i)
    ((elem_t*)dw_in)[i] = (elem_t)(rand() % 9 - 4);
  for (size_t i = 0; i < sizeof dw_w; ++i)
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

int main() {
  seed_rand(6020, "gemmini_compat");
  gemmini_flush(0);
  without_semicolons();
  argument_counts();
  convolutions();
  if (failures) {
    printf("gemmini_compat: FAIL (%d)\n", failures);
    return 1;
  }
  printf("gemmini_compat: PASS\n");
  return 0;
}
