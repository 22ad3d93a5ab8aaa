// Gemmini-style program for the training convolutions of tiled_conv_auto / tiled_conv: each of
// wrot180, trans_input_3120, trans_weight_1203, trans_weight_0132, trans_output_1203, input
// dilation, kernel dilation and negative padding alone and in the combinations backprop uses,
// on the accelerator (WS) and in CPU mode, against conv_cpu and against loops written here from
// the definitions (operands stored in the transposed layouts by this program); with pooling
// (the plain copies' path). Then one backprop step of a strided 3x3 layer: the input gradient and
// the weight gradient through the training convolutions, against the gradients computed
// directly, the weight gradient also as one LOOP_CONV_WS. tiled_conv_auto runs the forms in
// LOOP_CONV_WS tiles where the hardware has them (the transposed input and [o][i] weights
// through the transposer); each case also runs through sp_tiled_conv, one loop per image (with
// trans_input_3120 one for the batch). Random operands from a fixed, printed seed.
#include "check.h"
#include "include/gemmini_testutils.h"
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static elem_t out_of(int64_t s, float scale) {
  const int64_t y = ACC_SCALE(s, scale);
  return (elem_t)(y > elem_t_max ? elem_t_max : (y < elem_t_min ? elem_t_min : y));
}

#define B 2
#define H 7
#define W 7 /* square: the weight gradient takes the output gradient as a (square) kernel */
#define CI 5
#define CO 6
#define K 3
#define MAXO 16 /* output rows or columns at most */
static elem_t x[B * H * W * CI], x_t[B * H * W * CI], w[K * K * CI * CO], w_t[K * K * CI * CO];
static acc_t bias[CO];
static elem_t want[B * MAXO * MAXO * CO], want_t[B * MAXO * MAXO * CO];
static elem_t got[B * MAXO * MAXO * CO], ref[B * MAXO * MAXO * CO];

typedef struct {
  const char* name;
  int stride, input_dilation, kernel_dilation, padding;
  bool wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132;
} train_case_t;

/* Output rows of the case over n input rows, from the definition. */
static int out_dim(const train_case_t* t, int n) {
  return ((n - 1) * t->input_dilation + 1 + 2 * t->padding - ((K - 1) * t->kernel_dilation + 1)) /
             t->stride +
         1;
}

/* The plain convolution of x (NHWC) and w ([kr][kc][i][o]) over the dilated input, taps spread
 * by the kernel dilation: exact sums of small operands, then scaled and saturated. */
static void hand(const train_case_t* t, int orows, int ocols, float scale) {
  for (int b = 0; b < B; ++b)
    for (int r = 0; r < orows; ++r)
      for (int c = 0; c < ocols; ++c)
        for (int o = 0; o < CO; ++o) {
          int64_t s = bias[o];
          for (int kr = 0; kr < K; ++kr)
            for (int kc = 0; kc < K; ++kc) {
              const int yd = r * t->stride + kr * t->kernel_dilation - t->padding;
              const int xd = c * t->stride + kc * t->kernel_dilation - t->padding;
              if (yd < 0 || xd < 0 || yd % t->input_dilation || xd % t->input_dilation)
                continue;
              const int y = yd / t->input_dilation, z = xd / t->input_dilation;
              if (y >= H || z >= W)
                continue;
              for (int i = 0; i < CI; ++i)
                s += (int64_t)x[((b * H + y) * W + z) * CI + i] *
                     w[((kr * K + kc) * CI + i) * CO + o];
            }
          want[((b * orows + r) * ocols + c) * CO + o] = out_of(s, scale);
        }
}

/* The operands in the layouts the case says, and the expected output in its layout. */
static void store_layouts(const train_case_t* t, int orows, int ocols) {
  for (int b = 0; b < B; ++b)
    for (int p = 0; p < H * W; ++p)
      for (int i = 0; i < CI; ++i)
        x_t[t->trans_input_3120 ? (i * H * W + p) * B + b : (b * H * W + p) * CI + i] =
            x[(b * H * W + p) * CI + i];
  for (int kr = 0; kr < K; ++kr)
    for (int kc = 0; kc < K; ++kc) {
      /* wrot180: the program stores the kernel rotated, the convolution rotates it back */
      const int sr = t->wrot180 ? K - 1 - kr : kr, sc = t->wrot180 ? K - 1 - kc : kc;
      for (int i = 0; i < CI; ++i)
        for (int o = 0; o < CO; ++o) {
          int at = ((sr * K + sc) * CI + i) * CO + o;
          if (t->trans_weight_1203)
            at = ((i * K + sr) * K + sc) * CO + o;
          else if (t->trans_weight_0132)
            at = ((sr * K + sc) * CO + o) * CI + i;
          w_t[at] = w[((kr * K + kc) * CI + i) * CO + o];
        }
    }
  for (int b = 0; b < B; ++b)
    for (int p = 0; p < orows * ocols; ++p)
      for (int o = 0; o < CO; ++o)
        want_t[t->trans_output_1203 ? (p * B + b) * CO + o : (b * orows * ocols + p) * CO + o] =
            want[(b * orows * ocols + p) * CO + o];
}

static void run_case(const train_case_t* t) {
  const float scale = 0.25f;
  const int orows = out_dim(t, H), ocols = out_dim(t, W);
  const size_t n = (size_t)(B * orows * ocols * CO);
  hand(t, orows, ocols, scale);
  store_layouts(t, orows, ocols);
  char what[160];
  snprintf(what, sizeof what, "%s: conv_cpu vs loops", t->name);
  conv_cpu_without_pool(B, H, W, CI, CO, orows, ocols, t->stride, t->input_dilation,
                        t->kernel_dilation, t->padding, K, t->wrot180, t->trans_output_1203,
                        t->trans_input_3120, t->trans_weight_1203, t->trans_weight_0132, x_t, w_t,
                        bias, ref, NO_ACTIVATION, scale);
  check(ref, want_t, n, what);
  const enum tiled_matmul_type_t types[2] = {WS, CPU};
  for (int m = 0; m < 2; ++m) {
    for (size_t i = 0; i < n; ++i)
      got[i] = (elem_t)0x55;
    tiled_conv_auto(B, H, W, CI, CO, orows, ocols, t->stride, t->input_dilation, t->kernel_dilation,
                    t->padding, K, t->wrot180, t->trans_output_1203, t->trans_input_3120,
                    t->trans_weight_1203, t->trans_weight_0132, x_t, w_t, bias, got, NO_ACTIVATION,
                    scale, 0, 0, 0, types[m]);
    snprintf(what, sizeof what, "%s: tiled_conv_auto (%s)", t->name, m ? "CPU" : "WS");
    check(got, want_t, n, what);
  }
  /* The explicitly tiled form takes the same path (its tiles are hints). */
  tiled_conv(B, H, W, CI, CO, orows, ocols, t->stride, t->input_dilation, t->kernel_dilation,
             t->padding, K, CI, CO, CO, t->wrot180, t->trans_output_1203, t->trans_input_3120,
             t->trans_weight_1203, t->trans_weight_0132, 1, 2, 2, DIM, 1, 1, DIM, x_t, w_t, bias,
             got, NO_ACTIVATION, scale, 1, 0, 0, WS);
  snprintf(what, sizeof what, "%s: tiled_conv", t->name);
  check(got, want_t, n, what);
}

/* The case as sp_tiled_conv tiles, one per image (each a single LOOP_CONV_WS with the case's
 * flags), where the loop runs the case's forms itself and an image's convolution fits one loop
 * (a dilated input's window may not on small configs: system_loop_conv_test covers those). */
static void run_sp_case(const train_case_t* t) {
  if (!BY_HAS_LOOP_CONV_WS || t->input_dilation > 2 || t->padding < 0 ||
      ((t->trans_weight_1203 || t->trans_weight_0132 || t->trans_input_3120) && BY_LANES > 1) ||
      ((t->trans_weight_0132 || t->trans_input_3120) && BY_TENSORDASH) ||
      (t->trans_weight_0132 && t->trans_input_3120))
    return;
  const float scale = 0.25f;
  const int orows = out_dim(t, H), ocols = out_dim(t, W);
  const size_t n = (size_t)(B * orows * ocols * CO);
  hand(t, orows, ocols, scale);
  store_layouts(t, orows, ocols);
  for (size_t i = 0; i < n; ++i)
    got[i] = (elem_t)0x55;
  /* The window over the (dilated) input: (H - 1) x dilation + 1 rows. */
  const int extent = (K - 1) * t->kernel_dilation + 1;
  const int hd = (H - 1) * t->input_dilation + 1, wd = (W - 1) * t->input_dilation + 1;
  const int irows = (orows - 1) * t->stride + extent, icols = (ocols - 1) * t->stride + extent;
  const int dpad = irows - t->padding - hd > 0 ? irows - t->padding - hd : 0;
  const int rpad = icols - t->padding - wd > 0 ? icols - t->padding - wd : 0;
  const int kb = (CI + DIM - 1) / DIM, ob = (CO + DIM - 1) / DIM;
  /* trans_input_3120: one loop over the batch, DIM images a compute row (A: per image block
   * and window row, each channel's columns); otherwise one loop per image. */
  const int images = t->trans_input_3120 ? B : 1;
  const int a_rows =
      t->trans_input_3120 ? (B + DIM - 1) / DIM * CI * irows * icols : irows * icols * kb;
  if ((a_rows + K * K * kb * ob * DIM) * 2 > BANK_NUM * BANK_ROWS ||
      images * orows * ocols * ob * 2 > ACC_ROWS) {
    printf("%s: sp_tiled_conv skipped (an image does not fit one loop here)\n", t->name);
    return;
  }
  for (int b = 0; b < B; b += images) {
    elem_t* out = got + (size_t)(t->trans_output_1203 ? b * CO : b * orows * ocols * CO);
    sp_tiled_conv(B, H, W, CI, CO, orows, ocols, orows, ocols, t->stride, t->padding, K,
                  t->kernel_dilation, CI, CO, CO, 1, 1, 0, images, orows, ocols, CO, K, K, CI,
                  t->padding, rpad, t->padding, dpad, 0, 0, 0, 0, x_t + (size_t)b * H * W * CI, w_t,
                  out, bias, NO_ACTIVATION, scale, t->wrot180, t->trans_output_1203,
                  t->trans_input_3120, t->trans_weight_1203, t->trans_weight_0132, false, true,
                  false, t->input_dilation == 2, false, 0, 0);
  }
  gemmini_fence();
  char what[160];
  snprintf(what, sizeof what, "%s: sp_tiled_conv (the loop's own flags)", t->name);
  check(got, want_t, n, what);
}

/* The case with 2x2 max pooling through tiled_conv_auto: the loop's training forms are unpooled,
 * so the operands go through gemmini_train_conv.h's plain copies (the path of configs without
 * the loop's forms). */
static void run_pooled_case(const train_case_t* t) {
  static elem_t pooled[B * MAXO * MAXO * CO];
  const float scale = 0.25f;
  const int orows = out_dim(t, H), ocols = out_dim(t, W), prows = orows / 2, pcols = ocols / 2;
  hand(t, orows, ocols, scale);
  store_layouts(t, orows, ocols);
  for (int b = 0; b < B; ++b)
    for (int r = 0; r < prows; ++r)
      for (int c = 0; c < pcols; ++c)
        for (int o = 0; o < CO; ++o) {
          elem_t m = want[((b * orows + 2 * r) * ocols + 2 * c) * CO + o];
          for (int d = 1; d < 4; ++d) {
            const elem_t v = want[((b * orows + 2 * r + d / 2) * ocols + 2 * c + d % 2) * CO + o];
            m = v > m ? v : m;
          }
          pooled[((b * prows + r) * pcols + c) * CO + o] = m;
        }
  const size_t n = (size_t)(B * prows * pcols * CO);
  for (size_t i = 0; i < n; ++i)
    got[i] = (elem_t)0x55;
  tiled_conv_auto(B, H, W, CI, CO, orows, ocols, t->stride, t->input_dilation, t->kernel_dilation,
                  t->padding, K, t->wrot180, false, t->trans_input_3120, t->trans_weight_1203,
                  t->trans_weight_0132, x_t, w_t, bias, got, NO_ACTIVATION, scale, 2, 2, 0, WS);
  char what[160];
  snprintf(what, sizeof what, "%s: tiled_conv_auto with 2x2 max pooling", t->name);
  check(got, pooled, n, what);
}

/* ---- One backprop step of y = conv(x, w), stride 2, padding 1 ----------------------------- */
#define BS 2 /* the layer's stride */
#define BP 1 /* and padding */
#define OH ((H + 2 * BP - K) / BS + 1)
#define OW ((W + 2 * BP - K) / BS + 1)
static elem_t dy[B * OH * OW * CO], dx[B * H * W * CI], dx_want[B * H * W * CI];
static elem_t dw[K * K * CI * CO], dw_want[K * K * CI * CO];

/* The weight gradient as one LOOP_CONV_WS through sp_tiled_conv, where the loop reads the
 * transposed forms itself (the transposer's configs): x as stored is the input [c][y][x][b] with
 * the layer's batch as channels and its channels as images (DIM to a compute), dy as stored the
 * kernel [in][kr][kc][out], dw lands [kr][kc][in][out]. */
static void backprop_dw_in_the_loop(float scale) {
  if (!BY_HAS_LOOP_CONV_WS || BY_LANES > 1 || BY_TENSORDASH)
    return;
  static elem_t dw_loop[K * K * CI * CO];
  static const acc_t zeros[CO];
  const int irows = (K - 1) + (OH - 1) * BS + 1; /* stride 1, the kernel dilated by BS */
  const int end_pad = irows - BP - H > 0 ? irows - BP - H : 0;
  for (size_t i = 0; i < sizeof dw_loop / sizeof dw_loop[0]; ++i)
    dw_loop[i] = (elem_t)0x55;
  sp_tiled_conv(CI, H, W, B, CO, K, K, K, K, 1, BP, OH, BS, B, CO, CO, 1, 1, 0, CI, K, K, CO, OH,
                OH, B, BP, end_pad, BP, end_pad, 0, 0, 0, 0, x, dy, dw_loop, zeros, NO_ACTIVATION,
                scale, false, true, true, true, false, false, true, false, false, false, 0, 0);
  gemmini_fence();
  check(dw_loop, dw_want, sizeof dw_loop / sizeof dw_loop[0],
        "backprop: weight gradient in one LOOP_CONV_WS (trans_input_3120, trans_weight_1203, "
        "trans_output_1203, kernel dilation; sp_tiled_conv)");
}

static void backprop_step(void) {
  const float scale = 0.5f;
  fill(dy, sizeof dy / sizeof dy[0], -4, 4);
  /* The gradients from their definitions: dx[b][y][z][i] = sum of dy[b][oy][oz][o] w[kr][kc][i][o]
   * over y = oy * BS + kr - BP, z = oz * BS + kc - BP; dw[kr][kc][i][o] = sum over b, oy, oz of
   * x[b][oy * BS + kr - BP][oz * BS + kc - BP][i] dy[b][oy][oz][o]. */
  for (int b = 0; b < B; ++b)
    for (int y = 0; y < H; ++y)
      for (int z = 0; z < W; ++z)
        for (int i = 0; i < CI; ++i) {
          int64_t s = 0;
          for (int kr = 0; kr < K; ++kr)
            for (int kc = 0; kc < K; ++kc) {
              const int ry = y + BP - kr, rz = z + BP - kc;
              if (ry < 0 || rz < 0 || ry % BS || rz % BS || ry / BS >= OH || rz / BS >= OW)
                continue;
              for (int o = 0; o < CO; ++o)
                s += (int64_t)dy[((b * OH + ry / BS) * OW + rz / BS) * CO + o] *
                     w[((kr * K + kc) * CI + i) * CO + o];
            }
          dx_want[((b * H + y) * W + z) * CI + i] = out_of(s, scale);
        }
  for (int kr = 0; kr < K; ++kr)
    for (int kc = 0; kc < K; ++kc)
      for (int i = 0; i < CI; ++i)
        for (int o = 0; o < CO; ++o) {
          int64_t s = 0;
          for (int b = 0; b < B; ++b)
            for (int oy = 0; oy < OH; ++oy)
              for (int oz = 0; oz < OW; ++oz) {
                const int y = oy * BS + kr - BP, z = oz * BS + kc - BP;
                if (y >= 0 && y < H && z >= 0 && z < W)
                  s += (int64_t)x[((b * H + y) * W + z) * CI + i] *
                       dy[((b * OH + oy) * OW + oz) * CO + o];
              }
          dw_want[((kr * K + kc) * CI + i) * CO + o] = out_of(s, scale);
        }
  /* Input gradient: dy dilated by the stride, padded by K - 1 - BP, convolved with the rotated
   * kernel whose in and out channels swap (w read as [kr][kc][out = CI][in = CO]). */
  tiled_conv_auto(B, OH, OW, CO, CI, H, W, 1, BS, 1, K - 1 - BP, K, true, false, false, false, true,
                  dy, w, NULL, dx, NO_ACTIVATION, scale, 0, 0, 0, WS);
  check(dx, dx_want, sizeof dx / sizeof dx[0],
        "backprop: input gradient (wrot180, trans_weight_0132, input dilation)");
  /* Weight gradient: the input transposed (its channels as the batch, its batch as the
   * channels), dy as an OH x OW kernel dilated by the stride, the output as [kr][kc][i][o]. OH ==
   * OW: Gemmini's kernels are square. */
  _Static_assert(OH == OW, "the weight-gradient kernel must be square");
  tiled_conv_auto(CI, H, W, B, CO, K, K, 1, 1, BS, BP, OH, false, true, true, true, false, x, dy,
                  NULL, dw, NO_ACTIVATION, scale, 0, 0, 0, WS);
  check(dw, dw_want, sizeof dw / sizeof dw[0],
        "backprop: weight gradient (trans_input_3120, trans_weight_1203, trans_output_1203, "
        "kernel dilation)");
  backprop_dw_in_the_loop(scale);
}

int main(void) {
  seed_rand(2027, "gemmini_train");
  fill(x, sizeof x / sizeof x[0], -8, 8);
  fill(w, sizeof w / sizeof w[0], -4, 4);
  for (int o = 0; o < CO; ++o)
    bias[o] = rand() % 201 - 100;
  static const train_case_t cases[] = {
      {"plain", 1, 1, 1, 1, false, false, false, false, false},
      {"wrot180", 1, 1, 1, 1, true, false, false, false, false},
      {"trans_input_3120", 1, 1, 1, 1, false, false, true, false, false},
      {"trans_weight_1203", 1, 1, 1, 1, false, false, false, true, false},
      {"trans_weight_0132", 1, 1, 1, 1, false, false, false, false, true},
      {"trans_output_1203", 1, 1, 1, 1, false, true, false, false, false},
      {"input dilation 2", 1, 2, 1, 1, false, false, false, false, false},
      {"kernel dilation 2", 1, 1, 2, 2, false, false, false, false, false},
      {"input dilation 2, padding -1", 1, 2, 1, -1, false, false, false, false, false},
      {"stride 2, kernel dilation 2", 2, 1, 2, 1, false, false, false, false, false},
      {"input gradient: wrot180, trans_weight_0132, input dilation 2", 1, 2, 1, 1, true, false,
       false, false, true},
      {"input gradient: wrot180, trans_weight_1203", 1, 1, 1, 1, true, false, false, true, false},
      {"weight gradient: trans_input_3120, trans_output_1203, kernel dilation 2", 1, 1, 2, 1, false,
       true, true, false, false},
      {"all transposes, rotated, both dilations", 1, 2, 2, 2, true, true, true, true, false},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    run_case(&cases[c]);
    run_sp_case(&cases[c]);
    if (!cases[c].trans_output_1203 && (cases[c].trans_input_3120 || cases[c].wrot180))
      run_pooled_case(&cases[c]);
  }
  backprop_step();
  printf("gemmini_train: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
