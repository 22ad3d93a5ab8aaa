/* The native command API: one inline function per accelerator command (docs/isa.md), issued
 * through the HAL chosen at build time (brickyard/hal.h), plus fence, errors and counters.
 * Nothing here checks arguments: the hardware validates every command and latches the first
 * error in ERROR (by_error()); the kernels in brickyard/kernels.h check their inputs. */
#ifndef BRICKYARD_ACCEL_H
#define BRICKYARD_ACCEL_H

#include "brickyard/hal.h"
#include "brickyard/isa.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A DRAM address as the accelerator sees it (32-bit physical, docs/isa.md). */
static inline uint64_t by_dram(const void* p) {
  return (uint64_t)(uintptr_t)p;
}
/* True when n bytes at p lie below 4 GiB, where the accelerator's DMA can reach them. */
static inline int by_dram_reachable(const void* p, uint64_t n) {
  const uint64_t a = by_dram(p);
  return a <= UINT64_C(0x100000000) && n <= UINT64_C(0x100000000) - a;
}

/* ---- CONFIG ---------------------------------------------------------------------------- */

/* Dataflow (BY_DATAFLOW_WS / _OS), activation of results written to the scratchpad
 * (BY_ACT_NONE / BY_ACT_RELU), OS output shift, A and C row strides (0 means 1). Invalidates
 * the array's stationary data. */
static inline void by_config_ex(int dataflow, int activation, uint32_t in_shift, uint32_t a_stride,
                                uint32_t c_stride) {
  BY_HAL_CMD(BY_FUNCT_CONFIG, by_enc_config_ex_rs1(dataflow, activation, 0, a_stride),
             by_enc_config_ex_rs2(in_shift, c_stride));
}
/* by_config_ex with a TensorDash mode (BY_TD_SCHEDULE_A / _B / BY_TD_OFF, brickyard/isa.h);
 * by_config_ex is BY_TD_SCHEDULE_A. */
static inline void by_config_ex_td(int dataflow, int activation, uint32_t in_shift,
                                   uint32_t a_stride, uint32_t c_stride, int td) {
  BY_HAL_CMD(BY_FUNCT_CONFIG,
             by_enc_config_ex_rs1(dataflow, activation, 0, a_stride) | by_enc_config_ex_td(td),
             by_enc_config_ex_rs2(in_shift, c_stride));
}
/* by_config_ex with operands stored transposed (docs/isa.md, "Transposes"): A (the COMPUTE's
 * rs1) and B (WS: the PRELOAD's weights; OS: the COMPUTE's rs2) as K x I and J x K blocks.
 * One-lane configs without TensorDash (HW_FEATURES bit TRANSPOSER; BY_LANES == 1 &&
 * !BY_TENSORDASH); WS takes one of the two, OS A or both; anything else is UNSUPPORTED. */
static inline void by_config_ex_transpose(int dataflow, int activation, uint32_t in_shift,
                                          int a_transpose, int b_transpose) {
  BY_HAL_CMD(BY_FUNCT_CONFIG,
             by_enc_config_ex_rs1(dataflow, activation, 0, 1) |
                 BY_FIELD(BY_CONFIG_EX_RS1_A_TRANSPOSE, a_transpose != 0) |
                 BY_FIELD(BY_CONFIG_EX_RS1_B_TRANSPOSE, b_transpose != 0),
             by_enc_config_ex_rs2(in_shift, 1));
}
/* Only the A and C strides; the stationary data stays. */
static inline void by_config_ex_strides(uint32_t a_stride, uint32_t c_stride) {
  BY_HAL_CMD(BY_FUNCT_CONFIG, by_enc_config_ex_rs1(0, 0, 1, a_stride),
             by_enc_config_ex_rs2(0, c_stride));
}
/* mvin channel 0..2: DRAM bytes between rows (0 repeats one row), shrink (accumulator mvin of
 * elem_t values), local rows between column blocks (0 means DIM). */
static inline void by_config_ld(int channel, uint64_t stride_bytes, int shrink,
                                uint32_t block_stride) {
  BY_HAL_CMD(BY_FUNCT_CONFIG, by_enc_config_ld_rs1(channel, shrink, block_stride),
             by_enc_config_ld_rs2(stride_bytes));
}
/* mvout: DRAM bytes between rows, activation and float scale of accumulator reads, and
 * max-pooling / strided mvout (pool NULL: off). */
static inline void by_config_st(uint32_t stride_bytes, int activation, float acc_scale,
                                const by_pool_t* pool) {
  BY_HAL_CMD(BY_FUNCT_CONFIG, by_enc_config_st_rs1(activation, pool),
             by_enc_config_st_rs2(stride_bytes, by_float_bits(acc_scale)));
}

/* ---- Moves ----------------------------------------------------------------------------- */

/* rows x cols elements from DRAM (NULL: zeros) to a local address on mvin channel 0..2. */
static inline void by_mvin(int channel, const void* dram, uint32_t local, uint32_t rows,
                           uint32_t cols) {
  const uint64_t rs2 = by_enc_mvin_rs2(local, rows, cols);
  if (channel == 1)
    BY_HAL_CMD(BY_FUNCT_MVIN2, by_dram(dram), rs2);
  else if (channel == 2)
    BY_HAL_CMD(BY_FUNCT_MVIN3, by_dram(dram), rs2);
  else
    BY_HAL_CMD(BY_FUNCT_MVIN, by_dram(dram), rs2);
}
static inline void by_mvout(void* dram, uint32_t local, uint32_t rows, uint32_t cols) {
  BY_HAL_CMD(BY_FUNCT_MVOUT, by_dram(dram), by_enc_mvout_rs2(local, rows, cols));
}

/* ---- The array ------------------------------------------------------------------------- */

/* PRELOAD: the stationary operand BD (WS weights / OS initial accumulators) and the output C
 * of the COMPUTE that must follow. */
static inline void by_preload(uint32_t bd, uint32_t bd_rows, uint32_t bd_cols, uint32_t c,
                              uint32_t c_rows, uint32_t c_cols) {
  BY_HAL_CMD(BY_FUNCT_PRELOAD, by_enc_preload_bd(bd, bd_rows, bd_cols),
             by_enc_preload_c(c, c_rows, c_cols));
}
/* COMPUTE_PRELOADED (preloaded != 0) or COMPUTE_ACCUMULATED: A and BD (WS bias / OS B). */
static inline void by_compute(int preloaded, uint32_t a, uint32_t a_rows, uint32_t a_cols,
                              uint32_t bd, uint32_t bd_rows, uint32_t bd_cols) {
  const uint64_t rs1 = by_enc_compute_a(a, a_rows, a_cols);
  const uint64_t rs2 = by_enc_compute_bd(bd, bd_rows, bd_cols);
  if (preloaded)
    BY_HAL_CMD(BY_FUNCT_COMPUTE_PRELOADED, rs1, rs2);
  else
    BY_HAL_CMD(BY_FUNCT_COMPUTE_ACCUMULATED, rs1, rs2);
}
/* LOOP_WS (configs with loops.ws, BY_HAS_LOOP_WS; docs/isa.md "LOOP_WS"): one weight-stationary
 * tiled matmul C = A x B (+ D) of I x J x K tiles of DIM x DIM, unrolled by the accelerator.
 * Like gemmini_loop_ws it issues only the five LOOP_WS_CONFIG_* commands and LOOP_WS: the
 * caller configures CONFIG_EX (WS), the mvin channels 0 (A), 1 (B), 2 (D: shrink = low_D) with
 * the strides in bytes, and CONFIG_ST (C's stride, activation, scale), as gemmini.h does. */
typedef struct {
  uint32_t I, J, K;             /* tiles */
  uint32_t pad_I, pad_J, pad_K; /* elements missing from the last tile (< DIM) */
  const void* A;                /* NULL: A is already in the scratchpad (a_spad_id) */
  const void* B;                /* NULL: B is already in the scratchpad (b_spad_id) */
  const void* D;                /* NULL: no bias loaded */
  void* C;                      /* NULL: C stays in the accumulator for the next loop */
  uint64_t a_stride, b_stride, d_stride, c_stride; /* elements between rows (D: 0 repeats) */
  int ex_accumulate;        /* the first K step adds onto the accumulator (bias, earlier loop) */
  int full_C;               /* C as acc_t */
  int low_D;                /* D as elem_t */
  int act;                  /* BY_ACT_NONE or BY_ACT_RELU (CONFIG_ST applies it, as on Gemmini) */
  int a_spad_id, b_spad_id; /* 0: the loop's own scratchpad half; 1, 2: half 0, 1 */
  /* A stored transposed (K x I, a_stride between its rows) or B (J x K): the loop moves the
   * tiles in as stored and the computes read them through the transposer, so CONFIG_EX must
   * have the same transposes (by_config_ex_transpose; docs/isa.md "LOOP_WS"). */
  int a_transpose, b_transpose;
  /* Boveda: A / B are compressed matrices read by the compressed mvin channels 0 / 1, C is
   * written by compressed MVOUTs (CONFIG_ST compressed): A, B and C then point at pointer
   * entries and the strides count entries (docs/isa.md "LOOP_WS", compressed operands). */
  int a_compressed, b_compressed, c_compressed;
} by_loop_ws_t;

/* Whether this hardware has LOOP_WS: the config the driver was built for (BY_HAS_LOOP_WS) and
 * the HW_FEATURES register (so that one program also runs on the same config without it). */
static inline int by_has_loop_ws(void) {
  return BY_HAS_LOOP_WS &&
         BY_REG_FIELD(HW_FEATURES, LOOP_WS, by_hal_reg_read(BY_REG_HW_FEATURES)) != 0;
}

static inline void by_loop_ws(const by_loop_ws_t* l) {
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_BOUNDS,
             BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_I, l->pad_I) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_J, l->pad_J) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_K, l->pad_K),
             BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_I, l->I) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_J, l->J) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_K, l->K));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_ADDRS_AB, by_dram(l->A), by_dram(l->B));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_ADDRS_DC, by_dram(l->D), by_dram(l->C));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_STRIDES_AB, l->a_stride, l->b_stride);
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_STRIDES_DC, l->d_stride, l->c_stride);
  BY_HAL_CMD(BY_FUNCT_LOOP_WS,
             BY_FIELD(BY_LOOP_WS_RS1_EX_ACCUMULATE, l->ex_accumulate) |
                 BY_FIELD(BY_LOOP_WS_RS1_FULL_C, l->full_C) |
                 BY_FIELD(BY_LOOP_WS_RS1_LOW_D, l->low_D) | BY_FIELD(BY_LOOP_WS_RS1_ACT, l->act) |
                 BY_FIELD(BY_LOOP_WS_RS1_A_SPAD_ID, l->a_spad_id) |
                 BY_FIELD(BY_LOOP_WS_RS1_B_SPAD_ID, l->b_spad_id),
             BY_FIELD(BY_LOOP_WS_RS2_A_TRANSPOSE, l->a_transpose) |
                 BY_FIELD(BY_LOOP_WS_RS2_B_TRANSPOSE, l->b_transpose) |
                 BY_FIELD(BY_LOOP_WS_RS2_A_COMPRESSED, l->a_compressed) |
                 BY_FIELD(BY_LOOP_WS_RS2_B_COMPRESSED, l->b_compressed) |
                 BY_FIELD(BY_LOOP_WS_RS2_C_COMPRESSED, l->c_compressed));
}

/* LOOP_CONV_WS (configs with loops.conv, BY_HAS_LOOP_CONV_WS; docs/isa.md "LOOP_CONV_WS"): one
 * weight-stationary convolution tile, unrolled by the accelerator: bias (or zeros, or nothing
 * with no_bias: the tile then adds onto the accumulator, as input-channel tiles do), weights,
 * the padded input window, computes, and C row by row or pooled. Like gemmini_loop_conv_ws it
 * issues only the six LOOP_CONV_WS_CONFIG_* commands and LOOP_CONV_WS: the caller configures
 * CONFIG_EX (WS, a_stride = stride), the mvin channels 0 (input: in_stride bytes, block stride
 * batches x irows x icols), 1 (weights: weight_stride bytes, block stride krows x kcols x
 * ceil(kchs / DIM) x DIM), 2 (bias: stride 0), and CONFIG_ST (out_stride bytes, activation,
 * scale, the tile's pooling). Gemmini's argument names; sizes in elements and pixels. The
 * Gemmini fields Brickyard does not read (padding, the pooling sizes, porows, pocols, the pooled
 * paddings) are left 0. The training forms (docs/isa.md, "Training convolutions in the loop"):
 * kernel_dilation; wrot180; trans_weight_1203 (one lane; mvin channel 1's stride kernel_dim^2 x
 * weight_stride bytes); trans_weight_0132 (the WS loop with the transposer: CONFIG_EX with
 * b_transpose; a tap's rows out_channels apart, weight_stride elements each); trans_output_1203
 * (unpooled; CONFIG_ST's stride batch_size x out_stride bytes); input_dilated; trans_input_3120
 * (the WS loop with the transposer: CONFIG_EX with a_transpose; mvin channel 0's stride
 * batch_size bytes; the loop sets CONFIG_EX's strides for its computes and restores them). */
typedef struct {
  uint32_t in_row_dim, in_col_dim, in_channels;  /* the input image in DRAM */
  uint32_t out_row_dim, out_col_dim;             /* the output image (before pooling) */
  uint32_t pool_out_row_dim, pool_out_col_dim;   /* the pooled output image */
  uint32_t stride, kernel_dim, kernel_dilation;  /* kernel_dim: the weight tap pitch; 0, 1: none */
  uint32_t batches, orows, ocols, pochs;         /* the tile: images, output rows, cols, chans */
  uint32_t krows, kcols, kchs;                   /* its kernel extent and input channels */
  uint32_t lpad, rpad, upad, dpad;               /* zero columns / rows around its input */
  uint32_t in_stride, weight_stride, out_stride; /* elements between pixels / weight rows */
  const void* weights; /* the tile's first weight (tap 0, its first input and output channel) */
  void* output;        /* its first output pixel; NULL: the result stays in the accumulator */
  const void* bias;    /* by_acc_t at the tile's first output channel; NULL: zeros */
  const void* input;   /* its first real input pixel (past upad / lpad) */
  int no_bias;         /* load nothing: add onto the accumulator (an earlier input-channel tile) */
  int no_pool;         /* 1: C leaves row by row; 0: pooled with CONFIG_ST's pooling */
  int activation;      /* BY_ACT_NONE or BY_ACT_RELU (CONFIG_ST applies it, as on Gemmini) */
  /* 0: the operand in the loop's own scratchpad half; 1, 2: in half 0, 1 (docs/isa.md,
   * "Operands already in the scratchpad"); with input / weights NULL it is already there. */
  int a_spad_id, b_spad_id;
  /* Training forms: weights rotated by 180 degrees, stored [i][kr][kc][o] or [kr][kc][o][i]
   * (out_channels rows a tap); the output stored [y][x][b][o], its images batch_size pixels
   * apart; the input stored [c][y][x][b], its images batch_size elements a pixel. */
  int wrot180, trans_weight_1203, trans_weight_0132, trans_output_1203, trans_input_3120;
  uint32_t batch_size, out_channels;
  int input_dilated; /* the input dilated by 2: the window and paddings over the dilated image */
  /* Boveda: the weights are a compressed matrix of DIM-row bands read by the compressed mvin
   * channel 1: `weights` names the pointer entry of the tile's first band and group, and
   * weight_stride counts entries per band (docs/isa.md "LOOP_CONV_WS", compressed weights). */
  int weights_compressed;
  /* Boveda: the input / the output as compressed activation tensors (one block per image row and
   * channel group; `input` / `output` name pointer entries, in_stride / out_stride count them;
   * mvin channel 0 / CONFIG_ST compressed). Whole rows, unpooled (docs/isa.md "LOOP_CONV_WS"). */
  int input_compressed, output_compressed;
  /* The depthwise mode (docs/isa.md "Depthwise mode"; by_hw_t's loop_conv_*_depthwise): output
   * channel c sums input channel c over the taps (kchs = pochs); `weights` points at the tile's
   * first column of the diagonal stripes, ceil(DIM / lanes) packed rows per tap, weight_stride
   * elements apart; in_channels is not read. One lane, or the OS loop on TensorDash configs. */
  int depthwise;
} by_loop_conv_ws_t;

/* Whether this hardware has LOOP_CONV_WS: the config (BY_HAS_LOOP_CONV_WS) and HW_FEATURES. */
static inline int by_has_loop_conv_ws(void) {
  return BY_HAS_LOOP_CONV_WS &&
         BY_REG_FIELD(HW_FEATURES, LOOP_CONV_WS, by_hal_reg_read(BY_REG_HW_FEATURES)) != 0;
}
/* Whether this hardware has LOOP_CONV_OS: the config (BY_HAS_LOOP_CONV_OS) and HW_FEATURES. */
static inline int by_has_loop_conv_os(void) {
  return BY_HAS_LOOP_CONV_OS &&
         BY_REG_FIELD(HW_FEATURES, LOOP_CONV_OS, by_hal_reg_read(BY_REG_HW_FEATURES)) != 0;
}

/* The six LOOP_CONV_WS_CONFIG_* commands of a tile (LOOP_CONV_WS and LOOP_CONV_OS share them). */
static inline void by_loop_conv_config(const by_loop_conv_ws_t* l) {
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_1,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_BATCH_SIZE, l->batch_size) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_ROW_DIM, l->in_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_CHANNELS, l->in_channels) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_OUT_CHANNELS, l->out_channels),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_OUT_ROW_DIM, l->out_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_POOL_OUT_ROW_DIM, l->pool_out_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_OUT_COL_DIM, l->out_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_STRIDE, l->stride));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_2,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_POOL_OUT_COL_DIM, l->pool_out_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_KERNEL_DIM, l->kernel_dim),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_POCHS, l->pochs) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_BATCHES, l->batches));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_3,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_LPAD, l->lpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KCHS, l->kchs) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KCOLS, l->kcols) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KROWS, l->krows),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_IN_COL_DIM, l->in_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_DPAD, l->dpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_UPAD, l->upad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_RPAD, l->rpad));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_4,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_KERNEL_DILATION, l->kernel_dilation) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_OROWS, l->orows),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_OCOLS, l->ocols) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_OUT_STRIDE, l->out_stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_WEIGHT_STRIDE, l->weight_stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_IN_STRIDE, l->in_stride));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_5, by_dram(l->weights), by_dram(l->output));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_6, by_dram(l->bias), by_dram(l->input));
}

/* LOOP_CONV_WS's (and LOOP_CONV_OS's) rs1 and rs2 words. */
static inline uint64_t by_loop_conv_rs1(const by_loop_conv_ws_t* l) {
  return BY_FIELD(BY_LOOP_CONV_WS_RS1_NO_BIAS, l->no_bias) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_WROT180, l->wrot180) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_OUTPUT_1203, l->trans_output_1203) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_WEIGHT_1203, l->trans_weight_1203) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_WEIGHT_0132, l->trans_weight_0132) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_INPUT_3120, l->trans_input_3120) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_A_SPAD_ID, l->a_spad_id) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_B_SPAD_ID, l->b_spad_id) |
         BY_FIELD(BY_LOOP_CONV_WS_RS1_DEPTHWISE, l->depthwise);
}
static inline uint64_t by_loop_conv_rs2(const by_loop_conv_ws_t* l) {
  return BY_FIELD(BY_LOOP_CONV_WS_RS2_NO_POOL, l->no_pool) |
         BY_FIELD(BY_LOOP_CONV_WS_RS2_INPUT_DILATED, l->input_dilated) |
         BY_FIELD(BY_LOOP_CONV_WS_RS2_ACTIVATION, l->activation) |
         BY_FIELD(BY_LOOP_CONV_WS_RS2_WEIGHTS_COMPRESSED, l->weights_compressed) |
         BY_FIELD(BY_LOOP_CONV_WS_RS2_INPUT_COMPRESSED, l->input_compressed) |
         BY_FIELD(BY_LOOP_CONV_WS_RS2_OUTPUT_COMPRESSED, l->output_compressed);
}

static inline void by_loop_conv_ws(const by_loop_conv_ws_t* l) {
  by_loop_conv_config(l);
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS, by_loop_conv_rs1(l), by_loop_conv_rs2(l));
}

/* LOOP_CONV_OS (configs with loops.conv and the OS dataflow, BY_HAS_LOOP_CONV_OS; docs/isa.md
 * "LOOP_CONV_OS"): the same tile output-stationary, where TensorDash skips zero products. The
 * caller configures as for LOOP_CONV_WS, but CONFIG_EX with the OS dataflow (a_stride = stride,
 * in_shift 0, the TensorDash mode); with vector PEs the weights are lane-packed per tap
 * (by_pack_conv_weights) and weight_stride counts elements between packed rows. */
static inline void by_loop_conv_os(const by_loop_conv_ws_t* l) {
  by_loop_conv_config(l);
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_OS, by_loop_conv_rs1(l), by_loop_conv_rs2(l));
}

/* Whether this hardware has the mvout's function table: the config (BY_HAS_TABLE) and
 * HW_FEATURES. */
static inline int by_has_table(void) {
  return BY_HAS_TABLE && BY_REG_FIELD(HW_FEATURES, TABLE, by_hal_reg_read(BY_REG_HW_FEATURES)) != 0;
}

/* CONFIG_TABLE (activations.table): with write, entries 8*chunk .. 8*chunk+7 of the mvout's
 * function table from `entries` (entry 8*chunk+k in bits 8k+7:8k); enable: accumulator MVOUTs
 * apply the table from now on (in program order: earlier MVOUTs keep the old table). */
static inline void by_config_table(uint32_t chunk, int write, int enable, uint64_t entries) {
  BY_HAL_CMD(BY_FUNCT_CONFIG_TABLE,
             BY_FIELD(BY_CONFIG_TABLE_RS1_CHUNK, chunk) |
                 BY_FIELD(BY_CONFIG_TABLE_RS1_WRITE, write ? 1u : 0u) |
                 BY_FIELD(BY_CONFIG_TABLE_RS1_ENABLE, enable ? 1u : 0u),
             BY_FIELD(BY_CONFIG_TABLE_RS2_ENTRIES, entries));
}

static inline void by_flush(void) {
  BY_HAL_CMD(BY_FUNCT_FLUSH, 0, 0);
}
/* Waits until every command issued so far has completed (DRAM written by mvouts included). */
static inline void by_fence(void) {
  by_hal_fence();
}

/* ---- Errors ---------------------------------------------------------------------------- */

typedef struct {
  uint32_t code;  /* BY_ERROR_* of the first rejected command since the last clear */
  uint32_t funct; /* its funct7 */
  uint32_t count; /* commands rejected since reset */
} by_error_t;

/* Reads ERROR and ERROR_COUNT (fence first to include the commands in flight). */
static inline by_error_t by_error(void) {
  const uint32_t e = by_hal_reg_read(BY_REG_ERROR);
  by_error_t r;
  r.code = BY_REG_FIELD(ERROR, CODE, e);
  r.funct = BY_REG_FIELD(ERROR, FUNCT, e);
  r.count = by_hal_reg_read(BY_REG_ERROR_COUNT);
  return r;
}
static inline void by_error_clear(void) {
  by_hal_reg_write(BY_REG_ERROR, BY_REG_ERROR_CODE_MASK << BY_REG_ERROR_CODE_SHIFT);
}
/* The BY_ERROR_* name of an error code ("?" for an unknown one). */
const char* by_error_name(uint32_t code);
/* What an error code means (docs/isa.md's table). */
const char* by_error_doc(uint32_t code);
/* The BY_FUNCT_* name of a command's funct7 ("MVIN", "LOOP_CONV_WS"; "?" for an unknown one). */
const char* by_funct_name(uint32_t funct);
/* Fences, then returns how many commands the accelerator refused since the driver last
 * reported refusals (here, or as a kernel's BY_ERR_HW, which also counts those of raw commands
 * issued before the kernel), and counts them as reported; *e (unless NULL) gets ERROR and
 * ERROR_COUNT. gemmini.h's fence stops a program on them. */
uint32_t by_take_refusals(by_error_t* e);

/* ---- Counters -------------------------------------------------------------------------- */

/* COUNTER_OP (Gemmini's counters): each returns counter `index` as the command found it. */
static inline uint64_t by_counter_op(uint64_t rs1) {
  return BY_HAL_CMD_RD(BY_FUNCT_COUNTER_OP, rs1, 0);
}
static inline void by_counter_reset(void) {
  (void)by_counter_op(by_enc_counter_op(1, 0, 0, 0, 0, 0, 0));
}
/* Counter index counts event (BY_EVENT_*; external: an external value counter). */
static inline void by_counter_configure(uint32_t index, uint32_t event, int external) {
  (void)by_counter_op(by_enc_counter_op(0, 0, 0, 1, index, event, external));
}
static inline uint64_t by_counter_read(uint32_t index) {
  return by_counter_op(by_enc_counter_op(0, 0, 0, 0, index, 0, 0));
}
static inline void by_counter_snapshot(void) {
  (void)by_counter_op(by_enc_counter_op(0, 0, 1, 0, 0, 0, 0));
}
static inline void by_counter_snapshot_reset(void) {
  (void)by_counter_op(by_enc_counter_op(0, 1, 0, 0, 0, 0, 0));
}

/* The 64-bit performance counters of the register file (BY_REG_<NAME>_LO offsets). Reading
 * LO latches HI, so the pair is consistent. */
static inline uint64_t by_perf_read(uint32_t lo_offset) {
  const uint32_t lo = by_hal_reg_read(lo_offset);
  const uint32_t hi = by_hal_reg_read(lo_offset + 4u);
  return ((uint64_t)hi << 32) | lo;
}
static inline void by_perf_reset(void) {
  by_hal_reg_write(BY_REG_COUNTERS_RESET, 1u);
}
/* Cycles (SoC: the accelerator clock; host: nanoseconds, see BY_HAL_TIMED). */
static inline uint64_t by_cycles(void) {
  return by_hal_cycles();
}

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_ACCEL_H */
