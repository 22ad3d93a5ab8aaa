/* Gemmini's tile-level functions (included by gemmini_tiles.h): each issues the commands of
 * one tile on Brickyard's native command API (brickyard/accel.h). As on Gemmini they do not
 * fence, and they use the CONFIG state their caller set as Gemmini's tiled kernels do:
 *  - sp_tiled_matmul_ws / _os: CONFIG_EX (the dataflow; OS: the activation) and CONFIG_ST (C's
 *    row stride in bytes, activation, scale); they set the mvin channels themselves;
 *  - sp_tiled_resadd: CONFIG_ST (C's row stride in bytes, activation, C_scale); it sets the
 *    mvin channels itself;
 *  - sp_tiled_conv: nothing (it has act and scale: it sets CONFIG_EX, the mvin channels and
 *    CONFIG_ST with the tile's pooling itself).
 * Accumulation across calls works as on Gemmini: D == NULL adds onto the partial sums the
 * previous call left in the accumulator (C == NULL leaves them there). The mvin scale factors
 * are ignored, as by Gemmini built without mvin scaling (docs/driver.md), except sp_tiled_resadd's,
 * which are applied as tiled_resadd_auto applies them. */
#ifndef BRICKYARD_GEMMINI_SP_TILES_H
#define BRICKYARD_GEMMINI_SP_TILES_H

#include "gemmini_tiles.h"

static inline size_t by_gemmini_part(size_t t, size_t n, size_t pad) {
  return DIM - (t == n - 1 ? pad : 0); /* rows or columns of tile t of n, the last padded */
}

/* Weight-stationary: one LOOP_WS over I x J x K tiles of DIM x DIM (pad_*: elements missing
 * from the last tile). A transposed A or B (stored K x I / J x K) goes to the loop, which reads
 * it through the transposer: as on Gemmini the caller's CONFIG_EX names the same transposes
 * (tiled_matmul sets it); otherwise the hardware refuses the loop and the next gemmini_fence()
 * stops the program. */
static inline void sp_tiled_matmul_ws(const elem_t* A, const elem_t* B, const void* D, void* C,
                                      scale_t A_scale_factor, scale_t B_scale_factor,
                                      scale_acc_t D_scale_factor, size_t I, size_t J, size_t K,
                                      size_t pad_I, size_t pad_J, size_t pad_K, size_t A_row_stride,
                                      size_t B_row_stride, size_t D_row_stride, size_t C_row_stride,
                                      bool a_transpose, bool b_transpose, bool full_C, bool low_D,
                                      bool no_bias, bool repeating_bias, int act, int a_spad_id,
                                      int b_spad_id) {
  (void)A_scale_factor, (void)B_scale_factor, (void)D_scale_factor;
  if (!BY_HAS_LOOP_WS)
    by_gemmini_unsupported("sp_tiled_matmul_ws on hardware without loops.ws");
  by_gemmini_check_act(act, "sp_tiled_matmul_ws");
  if (I == 0 || J == 0 || K == 0) {
    printf("sp_tiled_matmul_ws: an empty (0-tile) dimension\n");
    exit(1);
  }
  const size_t d_bytes = low_D ? sizeof(elem_t) : sizeof(acc_t);
  by_config_ld(0, A_row_stride * sizeof(elem_t), 0, DIM);
  by_config_ld(1, B_row_stride * sizeof(elem_t), 0, DIM);
  by_config_ld(2, repeating_bias ? 0 : D_row_stride * d_bytes, low_D, DIM);
  /* D == NULL: add onto the previous call's sums; D with no_bias: start from zero. */
  by_gemmini_loop_ws(I, J, K, pad_I, pad_J, pad_K, A, B, no_bias ? NULL : D, C, A_row_stride,
                     B_row_stride, repeating_bias ? 0 : D_row_stride, C_row_stride, a_transpose,
                     b_transpose, full_C, low_D, !no_bias || D == NULL, act, a_spad_id, b_spad_id,
                     false);
}

/* Output-stationary: A at the scratchpad's first rows, B at its last, C at the accumulator's
 * first rows; one PRELOAD / COMPUTE pair per K tile, the result written (added onto D or the
 * previous call's sums) on the last. */
static inline void sp_tiled_matmul_os(const elem_t* A, const elem_t* B, const void* D, void* C,
                                      scale_t A_scale_factor, scale_t B_scale_factor,
                                      scale_acc_t D_scale_factor, size_t I, size_t J, size_t K,
                                      size_t pad_I, size_t pad_J, size_t pad_K, size_t A_row_stride,
                                      size_t B_row_stride, size_t D_row_stride, size_t C_row_stride,
                                      bool a_transpose, bool b_transpose, bool full_C, bool low_D,
                                      bool no_bias, bool repeating_bias, int act) {
  (void)A_scale_factor, (void)B_scale_factor, (void)D_scale_factor;
  if (!BY_HAS_OS)
    by_gemmini_unsupported("sp_tiled_matmul_os on hardware without the OS dataflow");
  if (a_transpose || b_transpose)
    by_gemmini_unsupported("sp_tiled_matmul_os with transposed operands");
  by_gemmini_check_act(act, "sp_tiled_matmul_os");
  const size_t sp_rows = (size_t)BANK_NUM * BANK_ROWS;
  if (I == 0 || J == 0 || K == 0 || (I * K + K * J) * DIM > sp_rows || I * J * DIM > ACC_ROWS) {
    printf("sp_tiled_matmul_os: %lux%lux%lu tiles do not fit the scratchpad and accumulator\n",
           (unsigned long)I, (unsigned long)J, (unsigned long)K);
    exit(1);
  }
  const uint32_t b_row0 = (uint32_t)(sp_rows - K * J * DIM);
  const size_t d_bytes = low_D ? sizeof(elem_t) : sizeof(acc_t);
  const size_t c_bytes = full_C ? sizeof(acc_t) : sizeof(elem_t);
  const bool load_d = D != NULL && !no_bias;
  if (load_d) {
    by_config_ld(2, repeating_bias ? 0 : D_row_stride * d_bytes, low_D, DIM);
    for (size_t i = 0; i < I; ++i)
      for (size_t j = 0; j < J; ++j) {
        const size_t row = repeating_bias ? 0 : i * DIM;
        by_mvin(2, (const char*)D + (row * D_row_stride + j * DIM) * d_bytes,
                by_acc_addr((uint32_t)((i * J + j) * DIM), 0, 0),
                (uint32_t)by_gemmini_part(i, I, pad_I), (uint32_t)by_gemmini_part(j, J, pad_J));
      }
  }
  by_config_ld(1, B_row_stride * sizeof(elem_t), 0, DIM);
  for (size_t k = 0; k < K; ++k)
    for (size_t j = 0; j < J; ++j)
      by_mvin(1, B + k * DIM * B_row_stride + j * DIM,
              by_sp_addr(b_row0 + (uint32_t)((k * J + j) * DIM)),
              (uint32_t)by_gemmini_part(k, K, pad_K), (uint32_t)by_gemmini_part(j, J, pad_J));
  by_config_ld(0, A_row_stride * sizeof(elem_t), 0, DIM);
  for (size_t i = 0; i < I; ++i)
    for (size_t k = 0; k < K; ++k)
      by_mvin(0, A + i * DIM * A_row_stride + k * DIM, by_sp_addr((uint32_t)((i * K + k) * DIM)),
              (uint32_t)by_gemmini_part(i, I, pad_I), (uint32_t)by_gemmini_part(k, K, pad_K));
  /* The sum adds onto the accumulator (D or the previous call's sums) unless D was given
   * with no_bias: then it overwrites. */
  const int add = !(D != NULL && no_bias);
  for (size_t i = 0; i < I; ++i)
    for (size_t j = 0; j < J; ++j) {
      const uint32_t rows = (uint32_t)by_gemmini_part(i, I, pad_I);
      const uint32_t cols = (uint32_t)by_gemmini_part(j, J, pad_J);
      for (size_t k = 0; k < K; ++k) {
        const uint32_t ks = (uint32_t)by_gemmini_part(k, K, pad_K);
        const uint32_t out = k == K - 1 ? by_acc_addr((uint32_t)((i * J + j) * DIM), add, 0)
                                        : (uint32_t)BY_GARBAGE_ADDR;
        by_preload((uint32_t)BY_GARBAGE_ADDR, DIM, DIM, out, rows, cols);
        by_compute(k == 0, by_sp_addr((uint32_t)((i * K + k) * DIM)), rows, ks,
                   by_sp_addr(b_row0 + (uint32_t)((k * J + j) * DIM)), ks, cols);
      }
    }
  if (C != NULL)
    for (size_t i = 0; i < I; ++i)
      for (size_t j = 0; j < J; ++j)
        by_mvout((char*)C + (i * DIM * C_row_stride + j * DIM) * c_bytes,
                 by_acc_addr((uint32_t)((i * J + j) * DIM), 0, full_C),
                 (uint32_t)by_gemmini_part(i, I, pad_I), (uint32_t)by_gemmini_part(j, J, pad_J));
}

/* One convolution tile through LOOP_CONV_WS (Gemmini's current 52 arguments): batches images x
 * (porows x pocols pooled, or orows x ocols) output pixels x pochs output channels, over
 * krows x kcols taps x kchs input channels; input, weights, output and bias point at the tile's
 * first real input pixel, weight row, output pixel and bias (docs/isa.md "LOOP_CONV_WS").
 * As Gemmini's: bias NULL adds onto the sums an earlier call left in the accumulator (a later
 * input-channel tile), a bias with no_bias starts from zeros, otherwise from the bias.
 * The loop runs kernel and input dilation, wrot180, trans_weight_1203, trans_weight_0132
 * (through the transposer), trans_output_1203 and trans_input_3120 (through the transposer)
 * itself (docs/isa.md, "Training convolutions in the loop"; as in Gemmini's loop, the transposed
 * layouts' rows are out_channels (0132: in_channels) elements apart, a 3120 input's pixels
 * batch_size, and with input_dilated the paddings count the dilated image); downsampling stops
 * the program with a message. */
static inline void
sp_tiled_conv(int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
              int out_row_dim, int out_col_dim, int pool_out_row_dim, int pool_out_col_dim,
              int stride, int padding, int kernel_dim, int kernel_dilation, int in_stride,
              int weight_stride, int out_stride, int pool_size, int pool_stride, int pool_padding,
              int batches, int porows, int pocols, int pochs, int krows, int kcols, int kchs,
              int lpad, int rpad, int upad, int dpad, int plpad, int prpad, int pupad, int pdpad,
              const elem_t* input, const elem_t* weights, elem_t* output, const acc_t* bias,
              int act, acc_scale_t scale, bool wrot180, bool trans_output_1203,
              bool trans_input_3120, bool trans_weight_1203, bool trans_weight_0132, bool no_bias,
              bool no_pool, bool downsample, bool input_dilated, bool dw, int a_spad_id,
              int b_spad_id) {
  if (!BY_HAS_LOOP_CONV_WS)
    by_gemmini_unsupported("sp_tiled_conv on hardware without loops.conv");
  /* On vector PEs the loop reads lane-packed weights; Gemmini's layouts are not packed (a
   * silent wrong answer otherwise). tiled_conv_auto packs them through by_conv. */
  if (BY_LANES > 1)
    by_gemmini_unsupported("sp_tiled_conv on vector PEs (its weights are not lane-packed)");
  if ((trans_weight_0132 || trans_input_3120) && (BY_LANES > 1 || BY_TENSORDASH))
    by_gemmini_unsupported("sp_tiled_conv with a transposed operand without the transposer");
  if (trans_weight_0132 && trans_input_3120) /* as Gemmini's: one operand through it */
    by_gemmini_unsupported("sp_tiled_conv with trans_weight_0132 and trans_input_3120");
  if (trans_output_1203 && !no_pool)
    by_gemmini_unsupported("sp_tiled_conv with trans_output_1203 and pooling");
  if (downsample)
    by_gemmini_unsupported("sp_tiled_conv with downsampling");
  if (kernel_dilation < 1)
    kernel_dilation = 1;
  if (trans_weight_1203)
    weight_stride = out_channels;
  if (trans_weight_0132)
    weight_stride = in_channels;
  if (trans_output_1203)
    out_stride = out_channels;
  if (dw || a_spad_id != 0 || b_spad_id != 0)
    by_gemmini_unsupported("sp_tiled_conv with dw or scratchpad ids");
  by_gemmini_check_act(act, "sp_tiled_conv");
  /* The tile's output rows and columns before pooling, and its input window. */
  const int orows = porows * pool_stride + pool_size - 1 - pupad - pdpad;
  const int ocols = pocols * pool_stride + pool_size - 1 - plpad - prpad;
  const int irows = (orows - 1) * stride + (krows - 1) * kernel_dilation + 1;
  const int icols = (ocols - 1) * stride + (kcols - 1) * kernel_dilation + 1;
  const int ich_blocks = (kchs + DIM - 1) / DIM;
  /* trans_weight_0132: the PRELOADs read the stored [o][i] blocks through the transposer;
   * trans_input_3120: the computes read the stored [c][b] blocks through it. */
  by_config_ex_transpose(BY_DATAFLOW_WS, BY_ACT_NONE, 0, trans_input_3120, trans_weight_0132);
  by_config_ex_strides((uint32_t)stride, 1);
  by_config_ld(0, (uint64_t)(trans_input_3120 ? batch_size : in_stride) * sizeof(elem_t), 0,
               (uint32_t)(batches * irows * icols));
  /* With trans_weight_1203 a tap's input channels are kernel_dim^2 weight rows apart. */
  by_config_ld(1,
               (uint64_t)weight_stride * sizeof(elem_t) *
                   (uint64_t)(trans_weight_1203 ? kernel_dim * kernel_dim : 1),
               0, (uint32_t)(krows * kcols * ich_blocks * DIM));
  by_config_ld(2, 0, 0, DIM);
  /* With trans_output_1203 an output row's pixels are batch_size pixels apart. */
  const uint32_t st_stride = (uint32_t)((size_t)out_stride * sizeof(elem_t) *
                                        (size_t)(trans_output_1203 ? batch_size : 1));
  if (no_pool) {
    by_config_st(st_stride, act, scale, NULL);
  } else {
    const by_pool_t pool = {(uint32_t)pool_stride,
                            (uint32_t)pool_size,
                            (uint32_t)pupad,
                            (uint32_t)plpad,
                            (uint32_t)pool_out_col_dim,
                            (uint32_t)porows,
                            (uint32_t)pocols,
                            (uint32_t)orows,
                            (uint32_t)ocols};
    by_config_st(st_stride, act, scale, &pool);
  }
  by_gemmini_loop_conv_ws(
      batch_size, in_row_dim, in_col_dim, in_channels, out_channels, out_row_dim, out_col_dim,
      pool_out_row_dim, pool_out_col_dim, stride, padding, kernel_dim, kernel_dilation, pool_size,
      pool_stride, pool_padding, batches, porows, pocols, pochs, krows, kcols, kchs, lpad, rpad,
      upad, dpad, plpad, prpad, pupad, pdpad, orows, ocols, weights, output, no_bias ? NULL : bias,
      input, bias == NULL, no_pool, false, wrot180, input_dilated, act, trans_output_1203,
      trans_weight_1203, trans_weight_0132, trans_input_3120, 1, in_stride, weight_stride,
      out_stride, false, 0, 0);
}

/* C = A + B (I x J elements, each with its row stride) through the accumulator: A moved in,
 * B moved in adding onto it, the sum moved out with CONFIG_ST's activation and scale (the
 * caller's, as for Gemmini's; relu is what the caller configured there). A_scale / B_scale
 * other than 1 are applied to copies first, as tiled_resadd_auto does. */
static inline void sp_tiled_resadd(const size_t I, const size_t J, const scale_t A_scale,
                                   const scale_t B_scale, const elem_t* A, const elem_t* B,
                                   elem_t* C, size_t A_row_stride, size_t B_row_stride,
                                   size_t C_row_stride, bool relu) {
  (void)relu;
  elem_t* copies[2] = {by_gemmini_scaled_copy(I, J, A, A_row_stride, A_scale),
                       by_gemmini_scaled_copy(I, J, B, B_row_stride, B_scale)};
  const elem_t* src[2] = {copies[0] ? copies[0] : A, copies[1] ? copies[1] : B};
  const size_t lds[2] = {copies[0] ? J : A_row_stride, copies[1] ? J : B_row_stride};
  by_config_ld(0, lds[0] * sizeof(elem_t), 1, DIM);
  by_config_ld(1, lds[1] * sizeof(elem_t), 1, DIM);
  const size_t slots = ACC_ROWS / DIM;
  size_t n = 0;
  for (size_t i = 0; i < I; i += DIM)
    for (size_t j = 0; j < J; j += DIM, ++n) {
      const uint32_t rows = (uint32_t)(I - i < DIM ? I - i : DIM);
      const uint32_t cols = (uint32_t)(J - j < DIM ? J - j : DIM);
      const uint32_t row = (uint32_t)((n % slots) * DIM);
      by_mvin(0, src[0] + i * lds[0] + j, by_acc_addr(row, 0, 0), rows, cols);
      by_mvin(1, src[1] + i * lds[1] + j, by_acc_addr(row, 1, 0), rows, cols);
      by_mvout(C + i * C_row_stride + j, by_acc_addr(row, 0, 0), rows, cols);
    }
  if (copies[0] || copies[1]) {
    by_fence(); /* the moves have read the copies */
    free(copies[0]);
    free(copies[1]);
  }
}

#include "gemmini_train_loops.h"

#endif /* BRICKYARD_GEMMINI_SP_TILES_H */
