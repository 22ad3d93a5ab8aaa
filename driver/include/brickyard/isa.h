/* Command words of Brickyard's ISA (docs/isa.md), built from the generated brickyard_isa.h:
 * every funct code, field position and flag comes from that header, none is written here.
 * The builders place values as given, masked to their fields; the hardware checks legality
 * (docs/isa.md "Validation"). */
#ifndef BRICKYARD_DRIVER_ISA_H
#define BRICKYARD_DRIVER_ISA_H

#include "brickyard_isa.h"
#include "brickyard_params.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Places v in field F (a BY_<COMMAND>_<RS>_<FIELD> prefix of brickyard_isa.h). */
#define BY_FIELD(F, v) ((((uint64_t)(v)) & F##_MASK) << F##_SHIFT)

/* Local addresses (docs/isa.md "Local addresses"). */
#define BY_LOCAL_ACC (1u << BY_LOCAL_ACC_BIT)
#define BY_LOCAL_ACCUMULATE (1u << BY_LOCAL_ACCUMULATE_BIT)
#define BY_LOCAL_FULL (1u << BY_LOCAL_FULL_BIT)

static inline uint32_t by_sp_addr(uint32_t row) {
  return row & BY_LOCAL_ROW_MASK;
}
static inline uint32_t by_acc_addr(uint32_t row, int accumulate, int full) {
  return BY_LOCAL_ACC | (accumulate ? BY_LOCAL_ACCUMULATE : 0u) | (full ? BY_LOCAL_FULL : 0u) |
         (row & BY_LOCAL_ROW_MASK);
}

/* The bits of a float (acc_scale fields). */
static inline uint32_t by_float_bits(float f) {
  union {
    float f;
    uint32_t u;
  } v;
  v.f = f;
  return v.u;
}

/* CONFIG_EX. a_stride / c_stride 0 mean 1. */
static inline uint64_t by_enc_config_ex_rs1(int dataflow, int activation, int set_only_strides,
                                            uint32_t a_stride) {
  return BY_FIELD(BY_CONFIG_EX_RS1_CMD_TYPE, BY_CONFIG_TYPE_EX) |
         BY_FIELD(BY_CONFIG_EX_RS1_DATAFLOW, dataflow) |
         BY_FIELD(BY_CONFIG_EX_RS1_ACTIVATION, activation) |
         BY_FIELD(BY_CONFIG_EX_RS1_SET_ONLY_STRIDES, set_only_strides) |
         BY_FIELD(BY_CONFIG_EX_RS1_A_STRIDE, a_stride) |
         BY_FIELD(BY_CONFIG_EX_RS1_ACC_SCALE, by_float_bits(1.0f));
}
/* TensorDash run-time control (CONFIG_EX td_off / td_side, docs/isa.md): which operand's zeros
 * OS computes skip, or none. Results do not depend on it. BY_TD_SCHEDULE_B needs TensorDash
 * hardware that schedules B (BY_TENSORDASH_SCHEDULE_B); the others are accepted everywhere. */
#define BY_TD_SCHEDULE_A 0 /* the scheduled operand is A: its zeros are skipped (after reset) */
#define BY_TD_SCHEDULE_B 1 /* B's zeros are skipped (the array then holds C transposed) */
#define BY_TD_OFF 2        /* dense beats: one reduction step per cycle */
static inline uint64_t by_enc_config_ex_td(int td) {
  return BY_FIELD(BY_CONFIG_EX_RS1_TD_OFF, td == BY_TD_OFF) |
         BY_FIELD(BY_CONFIG_EX_RS1_TD_SIDE, td == BY_TD_SCHEDULE_B);
}
static inline uint64_t by_enc_config_ex_rs2(uint32_t in_shift, uint32_t c_stride) {
  return BY_FIELD(BY_CONFIG_EX_RS2_IN_SHIFT, in_shift) |
         BY_FIELD(BY_CONFIG_EX_RS2_C_STRIDE, c_stride);
}

/* CONFIG_LD for mvin channel `channel` (0 MVIN, 1 MVIN2, 2 MVIN3). block_stride 0 means DIM. */
static inline uint64_t by_enc_config_ld_rs1(int channel, int shrink, uint32_t block_stride) {
  return BY_FIELD(BY_CONFIG_LD_RS1_CMD_TYPE, BY_CONFIG_TYPE_LD) |
         BY_FIELD(BY_CONFIG_LD_RS1_SHRINK, shrink) | BY_FIELD(BY_CONFIG_LD_RS1_STATE_ID, channel) |
         BY_FIELD(BY_CONFIG_LD_RS1_PIXEL_REPEATS, 1) |
         BY_FIELD(BY_CONFIG_LD_RS1_BLOCK_STRIDE, block_stride) |
         BY_FIELD(BY_CONFIG_LD_RS1_SCALE, by_float_bits(1.0f));
}
static inline uint64_t by_enc_config_ld_rs2(uint64_t stride_bytes) {
  return BY_FIELD(BY_CONFIG_LD_RS2_STRIDE, stride_bytes);
}

/* CONFIG_ST pooling parameters (docs/isa.md "MVOUT"); all zero is a plain mvout. */
typedef struct {
  uint32_t stride, size, upad, lpad, out_dim, porows, pocols, orows, ocols;
} by_pool_t;

static inline uint64_t by_enc_config_st_rs1(int activation, const by_pool_t* pool) {
  uint64_t rs1 = BY_FIELD(BY_CONFIG_ST_RS1_CMD_TYPE, BY_CONFIG_TYPE_ST) |
                 BY_FIELD(BY_CONFIG_ST_RS1_ACTIVATION, activation);
  if (pool)
    rs1 |= BY_FIELD(BY_CONFIG_ST_RS1_POOL_STRIDE, pool->stride) |
           BY_FIELD(BY_CONFIG_ST_RS1_POOL_SIZE, pool->size) |
           BY_FIELD(BY_CONFIG_ST_RS1_UPAD, pool->upad) |
           BY_FIELD(BY_CONFIG_ST_RS1_LPAD, pool->lpad) |
           BY_FIELD(BY_CONFIG_ST_RS1_POOL_OUT_DIM, pool->out_dim) |
           BY_FIELD(BY_CONFIG_ST_RS1_POROWS, pool->porows) |
           BY_FIELD(BY_CONFIG_ST_RS1_POCOLS, pool->pocols) |
           BY_FIELD(BY_CONFIG_ST_RS1_OROWS, pool->orows) |
           BY_FIELD(BY_CONFIG_ST_RS1_OCOLS, pool->ocols);
  return rs1;
}
static inline uint64_t by_enc_config_st_rs2(uint32_t stride_bytes, uint32_t acc_scale_bits) {
  return BY_FIELD(BY_CONFIG_ST_RS2_STRIDE, stride_bytes) |
         BY_FIELD(BY_CONFIG_ST_RS2_ACC_SCALE, acc_scale_bits);
}

/* MVIN / MVIN2 / MVIN3 / MVOUT rs2: {rows, cols, local address}. The three mvin channels share
 * MVIN's layout (the ISA table gives them the same fields). */
static inline uint64_t by_enc_mvin_rs2(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_MVIN_RS2_LOCAL_ADDR, local) | BY_FIELD(BY_MVIN_RS2_COLS, cols) |
         BY_FIELD(BY_MVIN_RS2_ROWS, rows);
}
static inline uint64_t by_enc_mvout_rs2(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_MVOUT_RS2_LOCAL_ADDR, local) | BY_FIELD(BY_MVOUT_RS2_COLS, cols) |
         BY_FIELD(BY_MVOUT_RS2_ROWS, rows);
}

/* PRELOAD rs1 (BD) and rs2 (C); COMPUTE rs1 (A) and rs2 (WS bias D / OS B). */
static inline uint64_t by_enc_preload_bd(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_PRELOAD_RS1_LOCAL_ADDR, local) | BY_FIELD(BY_PRELOAD_RS1_COLS, cols) |
         BY_FIELD(BY_PRELOAD_RS1_ROWS, rows);
}
static inline uint64_t by_enc_preload_c(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_PRELOAD_RS2_LOCAL_ADDR, local) | BY_FIELD(BY_PRELOAD_RS2_COLS, cols) |
         BY_FIELD(BY_PRELOAD_RS2_ROWS, rows);
}
static inline uint64_t by_enc_compute_a(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_COMPUTE_PRELOADED_RS1_LOCAL_ADDR, local) |
         BY_FIELD(BY_COMPUTE_PRELOADED_RS1_COLS, cols) |
         BY_FIELD(BY_COMPUTE_PRELOADED_RS1_ROWS, rows);
}
static inline uint64_t by_enc_compute_bd(uint32_t local, uint32_t rows, uint32_t cols) {
  return BY_FIELD(BY_COMPUTE_PRELOADED_RS2_LOCAL_ADDR, local) |
         BY_FIELD(BY_COMPUTE_PRELOADED_RS2_COLS, cols) |
         BY_FIELD(BY_COMPUTE_PRELOADED_RS2_ROWS, rows);
}

/* COUNTER_OP rs1. */
static inline uint64_t by_enc_counter_op(int reset, int snapshot_reset, int snapshot, int configure,
                                         uint32_t index, uint32_t event, int external) {
  return BY_FIELD(BY_COUNTER_OP_RS1_RESET, reset) |
         BY_FIELD(BY_COUNTER_OP_RS1_SNAPSHOT_RESET, snapshot_reset) |
         BY_FIELD(BY_COUNTER_OP_RS1_SNAPSHOT, snapshot) |
         BY_FIELD(BY_COUNTER_OP_RS1_CONFIGURE, configure) |
         BY_FIELD(BY_COUNTER_OP_RS1_INDEX, index) | BY_FIELD(BY_COUNTER_OP_RS1_EVENT, event) |
         BY_FIELD(BY_COUNTER_OP_RS1_EXTERNAL, external);
}

#ifdef __cplusplus
}
#endif

#endif /* BRICKYARD_DRIVER_ISA_H */
