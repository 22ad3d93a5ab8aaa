/* Gemmini compatibility: the names and semantics of Gemmini's gemmini.h (its documented
 * software API: the gemmini_* command macros, the tiled_* kernels, matmul_cpu), implemented
 * on Brickyard's native driver (brickyard/accel.h, brickyard/kernels.h) and the generated
 * gemmini_params.h. Written from Gemmini's documented behaviour; what Brickyard does not
 * support is listed in docs/driver.md ("Gemmini compatibility") and reported at run time with
 * a message and exit(1), never silently ignored.
 *
 * Unlike the native driver this header is hosted: it uses stdio, stdlib (exit, malloc for the
 * workspaces of transposes and depthwise convolutions) as Gemmini's does. */
#ifndef BRICKYARD_GEMMINI_H
#define BRICKYARD_GEMMINI_H

#include "brickyard/brickyard.h"
#include "gemmini_counter.h"
#include "gemmini_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- Command codes and constants ------------------------------------------------------- */
#define k_CONFIG BY_FUNCT_CONFIG
#define k_MVIN2 BY_FUNCT_MVIN2
#define k_MVIN BY_FUNCT_MVIN
#define k_MVOUT BY_FUNCT_MVOUT
#define k_COMPUTE_PRELOADED BY_FUNCT_COMPUTE_PRELOADED
#define k_COMPUTE_ACCUMULATE BY_FUNCT_COMPUTE_ACCUMULATED
#define k_PRELOAD BY_FUNCT_PRELOAD
#define k_FLUSH BY_FUNCT_FLUSH
#define k_MVIN3 BY_FUNCT_MVIN3
#define k_LOOP_WS BY_FUNCT_LOOP_WS
#define k_LOOP_WS_CONFIG_BOUNDS BY_FUNCT_LOOP_WS_CONFIG_BOUNDS
#define k_LOOP_WS_CONFIG_ADDRS_AB BY_FUNCT_LOOP_WS_CONFIG_ADDRS_AB
#define k_LOOP_WS_CONFIG_ADDRS_DC BY_FUNCT_LOOP_WS_CONFIG_ADDRS_DC
#define k_LOOP_WS_CONFIG_STRIDES_AB BY_FUNCT_LOOP_WS_CONFIG_STRIDES_AB
#define k_LOOP_WS_CONFIG_STRIDES_DC BY_FUNCT_LOOP_WS_CONFIG_STRIDES_DC
#define k_COUNTER BY_FUNCT_COUNTER_OP

#define CONFIG_EX BY_CONFIG_TYPE_EX
#define CONFIG_LD BY_CONFIG_TYPE_LD
#define CONFIG_ST BY_CONFIG_TYPE_ST

#define GARBAGE_ADDR ((uint32_t)BY_GARBAGE_ADDR)
#define OUTPUT_STATIONARY BY_DATAFLOW_OS
#define WEIGHT_STATIONARY BY_DATAFLOW_WS

#define NO_ACTIVATION BY_ACT_NONE
#define RELU BY_ACT_RELU
#define LAYERNORM 2 /* Gemmini's other activations: rejected (no such hardware) */
#define IGELU 3
#define SOFTMAX 4
#define RELU6 LAYERNORM /* older Gemmini numbering */

enum tiled_matmul_type_t { OS = BY_DATAFLOW_OS, WS = BY_DATAFLOW_WS, CPU = 2 };

#ifndef ROUND_NEAR_EVEN
/* Round to nearest, ties to even (double arithmetic). */
#define ROUND_NEAR_EVEN(x) by_gemmini_round_near_even((double)(x))
#endif
static inline double by_gemmini_round_near_even(double x) {
  const long long i = (long long)x;
  const double rem = x - (double)i;
  if (rem > 0.5 || (rem == 0.5 && (i & 1)))
    return (double)(i + 1);
  if (rem < -0.5 || (rem == -0.5 && (i & 1)))
    return (double)(i - 1);
  return (double)i;
}

static inline acc_scale_t_bits acc_scale_t_to_acc_scale_t_bits(acc_scale_t x) {
  return by_float_bits(x);
}
static inline acc_scale_t acc_scale_t_bits_to_acc_scale_t(acc_scale_t_bits x) {
  union {
    acc_scale_t_bits b;
    acc_scale_t f;
  } u;
  u.b = x;
  return u.f;
}
static inline scale_t_bits scale_t_to_scale_t_bits(scale_t x) {
  return by_float_bits(x);
}

/* Stops a program that asks for something Brickyard does not have (docs/driver.md). */
static inline void by_gemmini_unsupported(const char* what) {
  printf("gemmini.h on Brickyard: %s is not supported (see docs/driver.md)\n", what);
  exit(1);
}

/* ---- Raw instructions ------------------------------------------------------------------ */
/* Gemmini's command macros end in rocc-software's ROCC_INSTRUCTION_0_R_R, a braced block
 * `{ asm volatile(...); }`: Gemmini programs use them with or without a `;` after them, and
 * gemmini.h's own multi-command macros write them back to back. Every command macro here is such
 * a block as well, on every HAL (BY_HAL_CMD alone is an expression on some and a do-while on
 * others). Like Gemmini's they are statements, not expressions: `if (c) gemmini_fence(); else`
 * works, `if (c) gemmini_mvin(..); else` does not, on Gemmini either (use braces).
 * funct must be a constant expression (the RoCC HAL puts it in the instruction word). */
#define ROCC_INSTRUCTION_0_R_R(x, rs1, rs2, funct)                                                 \
  { BY_HAL_CMD(funct, (uint64_t)(rs1), (uint64_t)(rs2)); }
#define ROCC_INSTRUCTION_R_R_R(x, rd, rs1, rs2, funct)                                             \
  { (rd) = BY_HAL_CMD_RD(funct, (uint64_t)(rs1), (uint64_t)(rs2)); }
#define ROCC_INSTRUCTION(x, rd, rs1, rs2, funct) ROCC_INSTRUCTION_R_R_R(x, rd, rs1, rs2, funct)
#define ROCC_INSTRUCTION_RS1_RS2(x, rs1, rs2, funct) ROCC_INSTRUCTION_0_R_R(x, rs1, rs2, funct)

/* Argument-count dispatch for the commands Gemmini has had in several forms: a count that no
 * Gemmini version used stops the build with a message naming the forms. */
#define BY_GEMMINI_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,     \
                        _17, _18, _19, _20, _21, _22, _23, _24, NAME, ...)                         \
  NAME
#define BY_GEMMINI_BAD_ARGS(msg)                                                                   \
  { _Static_assert(0, msg); }

#define BY_GEMMINI_OPERAND(addr, cols, rows)                                                       \
  (((uint64_t)(rows) << (ADDR_LEN + 16)) | ((uint64_t)(cols) << ADDR_LEN) |                        \
   (uint64_t)(uint32_t)(addr))

#define gemmini_extended_mvin(dram_addr, spad_addr, cols, rows)                                    \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, (uintptr_t)(dram_addr),                                    \
                           BY_GEMMINI_OPERAND(spad_addr, cols, rows), k_MVIN)
#define gemmini_extended_mvin2(dram_addr, spad_addr, cols, rows)                                   \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, (uintptr_t)(dram_addr),                                    \
                           BY_GEMMINI_OPERAND(spad_addr, cols, rows), k_MVIN2)
#define gemmini_extended_mvin3(dram_addr, spad_addr, cols, rows)                                   \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, (uintptr_t)(dram_addr),                                    \
                           BY_GEMMINI_OPERAND(spad_addr, cols, rows), k_MVIN3)
#define gemmini_block_mvin(dram_addr, spad_addr, len)                                              \
  gemmini_extended_mvin(dram_addr, spad_addr, (len)*DIM, DIM)
#define gemmini_mvin(dram_addr, spad_addr) gemmini_extended_mvin(dram_addr, spad_addr, DIM, DIM)
#define gemmini_extended_mvout(dram_addr, spad_addr, cols, rows)                                   \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, (uintptr_t)(dram_addr),                                    \
                           BY_GEMMINI_OPERAND(spad_addr, cols, rows), k_MVOUT)
#define gemmini_mvout(dram_addr, spad_addr) gemmini_extended_mvout(dram_addr, spad_addr, DIM, DIM)

#define gemmini_extended_compute_preloaded(A, BD, A_cols, A_rows, BD_cols, BD_rows)                \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, BY_GEMMINI_OPERAND(A, A_cols, A_rows),                     \
                           BY_GEMMINI_OPERAND(BD, BD_cols, BD_rows), k_COMPUTE_PRELOADED)
#define gemmini_extended_compute_accumulated(A, BD, A_cols, A_rows, BD_cols, BD_rows)              \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, BY_GEMMINI_OPERAND(A, A_cols, A_rows),                     \
                           BY_GEMMINI_OPERAND(BD, BD_cols, BD_rows), k_COMPUTE_ACCUMULATE)
#define gemmini_compute_preloaded(A, BD)                                                           \
  gemmini_extended_compute_preloaded(A, BD, DIM, DIM, DIM, DIM)
#define gemmini_compute_accumulated(A, BD)                                                         \
  gemmini_extended_compute_accumulated(A, BD, DIM, DIM, DIM, DIM)
#define gemmini_extended_preload(BD, C, BD_cols, BD_rows, C_cols, C_rows)                          \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, BY_GEMMINI_OPERAND(BD, BD_cols, BD_rows),                  \
                           BY_GEMMINI_OPERAND(C, C_cols, C_rows), k_PRELOAD)
#define gemmini_preload(BD, C) gemmini_extended_preload(BD, C, DIM, DIM, DIM, DIM)
#define gemmini_preload_zeros(C) gemmini_preload(GARBAGE_ADDR, C)

/* CONFIG_EX in all of Gemmini's forms:
 *   gemmini_config_ex(dataflow, act, sys_shift)                             current
 *   gemmini_config_ex(dataflow, act, sys_shift, relu6_shift)                older
 *   gemmini_config_ex(dataflow, act, sys_shift, acc_scale, relu6_shift)     older
 *   gemmini_extended[2]_config_ex(dataflow, act, sys_shift, A_stride, A_transpose, B_transpose)
 *   gemmini_extended_config_ex(.., sys_shift, relu6_shift, A_stride, A_transpose, B_transpose)
 *   gemmini_extended_config_ex(.., sys_shift, acc_scale, relu6_shift, A_stride, A_t, B_t)
 *   gemmini_extended2_config_ex(the 7 or 8 above, then 9 im2col fields)     older
 *   gemmini_extended3_config_ex(dataflow, act, sys_shift, sys_acc_scale, C_stride, A_stride,
 *                               A_transpose, B_transpose, set_only_strides)  current
 * acc_scale / sys_acc_scale and relu6_shift are accepted and ignored, as by the hardware
 * (docs/isa.md: mvout scaling belongs to CONFIG_ST; there is no ReLU6); the im2col fields of the
 * old form configured Gemmini's im2col unit, which Brickyard has not: they are dropped. The
 * hardware answers UNSUPPORTED to transposes. */
#define BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, c_stride, only_strides)           \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC,                                                            \
                           by_enc_config_ex_rs1((df), (act), (only_strides), (a_stride)) |         \
                               BY_FIELD(BY_CONFIG_EX_RS1_A_TRANSPOSE, (a_t)) |                     \
                               BY_FIELD(BY_CONFIG_EX_RS1_B_TRANSPOSE, (b_t)),                      \
                           by_enc_config_ex_rs2((shift), (c_stride)), k_CONFIG)
#define BY_GEMMINI_CONFIG_EX_3(df, act, shift) BY_GEMMINI_CONFIG_EX(df, act, shift, 1, 0, 0, 1, 0)
#define BY_GEMMINI_CONFIG_EX_4(df, act, shift, relu6)                                              \
  BY_GEMMINI_CONFIG_EX(df, act, shift, 1, 0, 0, 1, 0)
#define BY_GEMMINI_CONFIG_EX_5(df, act, shift, acc_scale, relu6)                                   \
  BY_GEMMINI_CONFIG_EX(df, act, shift, 1, 0, 0, 1, 0)
#define BY_GEMMINI_CONFIG_EX_BAD(...)                                                              \
  BY_GEMMINI_BAD_ARGS("gemmini_config_ex takes (dataflow, act, sys_shift) or Gemmini's older "     \
                      "4- and 5-argument forms")
#define BY_GEMMINI_EXT_CONFIG_EX_6(df, act, shift, a_stride, a_t, b_t)                             \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, 1, 0)
#define BY_GEMMINI_EXT_CONFIG_EX_7(df, act, shift, relu6, a_stride, a_t, b_t)                      \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, 1, 0)
#define BY_GEMMINI_EXT_CONFIG_EX_8(df, act, shift, acc_scale, relu6, a_stride, a_t, b_t)           \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, 1, 0)
#define BY_GEMMINI_EXT_CONFIG_EX_BAD(...)                                                          \
  BY_GEMMINI_BAD_ARGS("gemmini_extended_config_ex takes (dataflow, act, sys_shift, A_stride, "     \
                      "A_transpose, B_transpose) or Gemmini's older 7- and 8-argument forms")
#define BY_GEMMINI_EXT2_CONFIG_EX_16(df, act, shift, relu6, a_stride, a_t, b_t, ocol, row_turn,    \
                                     kdim, stride, channel, row_left, kdim2, wdb, wtb)             \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, 1, 0)
#define BY_GEMMINI_EXT2_CONFIG_EX_17(df, act, shift, acc_scale, relu6, a_stride, a_t, b_t, ocol,   \
                                     row_turn, kdim, stride, channel, row_left, kdim2, wdb, wtb)   \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, 1, 0)
#define BY_GEMMINI_EXT2_CONFIG_EX_BAD(...)                                                         \
  BY_GEMMINI_BAD_ARGS("gemmini_extended2_config_ex takes (dataflow, act, sys_shift, A_stride, "    \
                      "A_transpose, B_transpose) or Gemmini's older 16- and 17-argument forms")
#define gemmini_extended3_config_ex(df, act, shift, acc_scale, c_stride, a_stride, a_t, b_t,       \
                                    only_strides)                                                  \
  BY_GEMMINI_CONFIG_EX(df, act, shift, a_stride, a_t, b_t, c_stride, only_strides)
#define gemmini_config_ex(...)                                                                     \
  BY_GEMMINI_PICK(__VA_ARGS__, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,                 \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,    \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,    \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,    \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,    \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD,    \
                  BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_BAD, BY_GEMMINI_CONFIG_EX_5,      \
                  BY_GEMMINI_CONFIG_EX_4, BY_GEMMINI_CONFIG_EX_3, BY_GEMMINI_CONFIG_EX_BAD,        \
                  BY_GEMMINI_CONFIG_EX_BAD, ~)                                                     \
  (__VA_ARGS__)
#define gemmini_extended_config_ex(...)                                                            \
  BY_GEMMINI_PICK(                                                                                 \
      __VA_ARGS__, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,                     \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_8,      \
      BY_GEMMINI_EXT_CONFIG_EX_7, BY_GEMMINI_EXT_CONFIG_EX_6, BY_GEMMINI_EXT_CONFIG_EX_BAD,        \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT_CONFIG_EX_BAD, ~)                                                             \
  (__VA_ARGS__)
#define gemmini_extended2_config_ex(...)                                                           \
  BY_GEMMINI_PICK(                                                                                 \
      __VA_ARGS__, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD,                   \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_17,  \
      BY_GEMMINI_EXT2_CONFIG_EX_16, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD,  \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT_CONFIG_EX_6, BY_GEMMINI_EXT2_CONFIG_EX_BAD,    \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, BY_GEMMINI_EXT2_CONFIG_EX_BAD, \
      BY_GEMMINI_EXT2_CONFIG_EX_BAD, ~)                                                            \
  (__VA_ARGS__)

/* CONFIG_LD: the mvin scale is accepted and ignored, as by a Gemmini built without mvin scaling
 * (gemmini_params.h's MVIN_SCALE is the identity, so a program's own reference ignores it too;
 * the hardware would reject a scale other than 1 as UNSUPPORTED). pixel_repeats must be 1
 * (Gemmini calls it experimental). */
#define gemmini_extended5_config_ld(stride, scale, shrunk, block_mvin_stride, pixel_repeats, id)   \
  {                                                                                                \
    (void)(scale);                                                                                 \
    ROCC_INSTRUCTION_RS1_RS2(                                                                      \
        XCUSTOM_ACC,                                                                               \
        (by_enc_config_ld_rs1((id), (shrunk), (block_mvin_stride)) &                               \
         ~BY_FIELD(BY_CONFIG_LD_RS1_PIXEL_REPEATS, ~0u)) |                                         \
            BY_FIELD(BY_CONFIG_LD_RS1_PIXEL_REPEATS, (pixel_repeats)),                             \
        by_enc_config_ld_rs2(stride), k_CONFIG)                                                    \
  }
#define gemmini_extended4_config_ld(stride, scale, shrunk, block_mvin_stride, id)                  \
  gemmini_extended5_config_ld(stride, scale, shrunk, block_mvin_stride, 1, id)
#define gemmini_extended3_config_ld(stride, scale, shrunk, id)                                     \
  gemmini_extended4_config_ld(stride, scale, shrunk, DIM, id)
#define gemmini_extended2_config_ld(stride, scale, shrunk)                                         \
  gemmini_extended3_config_ld(stride, scale, shrunk, 0)
#define gemmini_extended_config_ld(stride, scale) gemmini_extended2_config_ld(stride, scale, false)
#define gemmini_config_ld(stride) gemmini_extended_config_ld(stride, MVIN_SCALE_IDENTITY)

/* CONFIG_ST: gemmini_extended2_config_st(stride, acc_act, acc_scale, pool_stride, pool_size,
 * pool_out_dim, porows, pocols, orows, ocols, upad, lpad); gemmini_extended_config_st(stride,
 * acc_act, acc_scale) (current) or (stride, pool_stride, .., lpad) (older, 10 arguments; the
 * 12-argument form is accepted there too); gemmini_config_st(stride). */
#define BY_GEMMINI_CONFIG_ST_12(s, act, scale, ps, psz, pod, por, poc, orr, occ, up, lp)           \
  ROCC_INSTRUCTION_RS1_RS2(                                                                        \
      XCUSTOM_ACC,                                                                                 \
      BY_FIELD(BY_CONFIG_ST_RS1_CMD_TYPE, BY_CONFIG_TYPE_ST) |                                     \
          BY_FIELD(BY_CONFIG_ST_RS1_ACTIVATION, (act)) |                                           \
          BY_FIELD(BY_CONFIG_ST_RS1_POOL_STRIDE, (ps)) |                                           \
          BY_FIELD(BY_CONFIG_ST_RS1_POOL_SIZE, (psz)) | BY_FIELD(BY_CONFIG_ST_RS1_UPAD, (up)) |    \
          BY_FIELD(BY_CONFIG_ST_RS1_LPAD, (lp)) | BY_FIELD(BY_CONFIG_ST_RS1_POOL_OUT_DIM, (pod)) | \
          BY_FIELD(BY_CONFIG_ST_RS1_POROWS, (por)) | BY_FIELD(BY_CONFIG_ST_RS1_POCOLS, (poc)) |    \
          BY_FIELD(BY_CONFIG_ST_RS1_OROWS, (orr)) | BY_FIELD(BY_CONFIG_ST_RS1_OCOLS, (occ)),       \
      by_enc_config_st_rs2((uint32_t)(s), acc_scale_t_to_acc_scale_t_bits((acc_scale_t)(scale))),  \
      k_CONFIG)
#define BY_GEMMINI_EXT_CONFIG_ST_3(s, act, scale)                                                  \
  BY_GEMMINI_CONFIG_ST_12(s, act, scale, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#define BY_GEMMINI_EXT_CONFIG_ST_10(s, ps, psz, pod, por, poc, orr, occ, up, lp)                   \
  BY_GEMMINI_CONFIG_ST_12(s, NO_ACTIVATION, ACC_SCALE_IDENTITY, ps, psz, pod, por, poc, orr, occ,  \
                          up, lp)
#define BY_GEMMINI_EXT_CONFIG_ST_BAD(...)                                                          \
  BY_GEMMINI_BAD_ARGS("gemmini_extended_config_st takes (stride, acc_act, acc_scale) or "          \
                      "Gemmini's older 10-argument pooling form")
#define gemmini_extended_config_st(...)                                                            \
  BY_GEMMINI_PICK(                                                                                 \
      __VA_ARGS__, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,                     \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,    \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,    \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,    \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_CONFIG_ST_12, BY_GEMMINI_EXT_CONFIG_ST_BAD,         \
      BY_GEMMINI_EXT_CONFIG_ST_10, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,     \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_BAD,    \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, BY_GEMMINI_EXT_CONFIG_ST_3, BY_GEMMINI_EXT_CONFIG_ST_BAD,      \
      BY_GEMMINI_EXT_CONFIG_ST_BAD, ~)                                                             \
  (__VA_ARGS__)
#define gemmini_extended2_config_st(stride, acc_act, acc_scale, pool_stride, pool_size,            \
                                    pool_out_dim, porows, pocols, orows, ocols, upad, lpad)        \
  BY_GEMMINI_CONFIG_ST_12(stride, acc_act, acc_scale, pool_stride, pool_size, pool_out_dim,        \
                          porows, pocols, orows, ocols, upad, lpad)
#define gemmini_config_st(stride)                                                                  \
  BY_GEMMINI_EXT_CONFIG_ST_3(stride, NO_ACTIVATION, ACC_SCALE_IDENTITY)

/* Gemmini's normalization unit (CONFIG_BERT: LayerNorm / IGELU / softmax statistics) is not in
 * Brickyard's hardware: configuring it stops the program with a message (the activations that
 * would use it are refused by CONFIG_ST too). */
#define gemmini_config_norm(q_const, q_const_type, set_stats_id_only, act_msb, stat_id, igelu_qb,  \
                            igelu_qc)                                                              \
  {                                                                                                \
    (void)(q_const), (void)(q_const_type), (void)(set_stats_id_only), (void)(act_msb);             \
    (void)(stat_id), (void)(igelu_qb), (void)(igelu_qc);                                           \
    by_gemmini_unsupported("gemmini_config_norm (no normalization unit)");                         \
  }

/* ---- LOOP_WS (configs with loops.ws) ---------------------------------------------------- */
/* gemmini_loop_ws issues the five LOOP_WS_CONFIG_* commands and LOOP_WS with Gemmini's
 * encodings (docs/isa.md, "LOOP_WS"); the caller has configured CONFIG_EX, the mvin channels and
 * CONFIG_ST as Gemmini's tiled_matmul does. Gemmini's current form has 23 arguments (act,
 * a_spad_id, b_spad_id, is_resadd last); its older forms 19 and 20 (weightA, a load-arbitration
 * hint that Brickyard does not need and drops). Transposes, is_resadd and the normalizer
 * activations reach the hardware, which rejects them (UNSUPPORTED). Without loops.ws the
 * program stops with a message. */
static inline void by_gemmini_loop_ws(size_t I, size_t J, size_t K, size_t pad_I, size_t pad_J,
                                      size_t pad_K, const void* A, const void* B, const void* D,
                                      void* C, size_t A_stride, size_t B_stride, size_t D_stride,
                                      size_t C_stride, bool A_transpose, bool B_transpose,
                                      bool full_C, bool low_D, bool ex_accumulate, int act,
                                      int a_spad_id, int b_spad_id, bool is_resadd) {
  if (!BY_HAS_LOOP_WS)
    by_gemmini_unsupported("gemmini_loop_ws on hardware without loops.ws");
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_BOUNDS,
             BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_I, pad_I) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_J, pad_J) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS1_PAD_K, pad_K),
             BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_I, I) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_J, J) |
                 BY_FIELD(BY_LOOP_WS_CONFIG_BOUNDS_RS2_K, K));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_ADDRS_AB, by_dram(A), by_dram(B));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_ADDRS_DC, by_dram(D), by_dram(C));
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_STRIDES_AB, (uint64_t)A_stride, (uint64_t)B_stride);
  BY_HAL_CMD(BY_FUNCT_LOOP_WS_CONFIG_STRIDES_DC, (uint64_t)D_stride, (uint64_t)C_stride);
  BY_HAL_CMD(BY_FUNCT_LOOP_WS,
             BY_FIELD(BY_LOOP_WS_RS1_EX_ACCUMULATE, ex_accumulate) |
                 BY_FIELD(BY_LOOP_WS_RS1_FULL_C, full_C) | BY_FIELD(BY_LOOP_WS_RS1_LOW_D, low_D) |
                 BY_FIELD(BY_LOOP_WS_RS1_ACT, act) | BY_FIELD(BY_LOOP_WS_RS1_A_SPAD_ID, a_spad_id) |
                 BY_FIELD(BY_LOOP_WS_RS1_B_SPAD_ID, b_spad_id),
             BY_FIELD(BY_LOOP_WS_RS2_A_TRANSPOSE, A_transpose) |
                 BY_FIELD(BY_LOOP_WS_RS2_B_TRANSPOSE, B_transpose) |
                 BY_FIELD(BY_LOOP_WS_RS2_IS_RESADD, is_resadd));
}
#define BY_GEMMINI_LOOP_WS_19(I, J, K, pI, pJ, pK, A, B, D, C, sA, sB, sD, sC, tA, tB, fC, lD,     \
                              acc)                                                                 \
  {                                                                                                \
    by_gemmini_loop_ws((I), (J), (K), (pI), (pJ), (pK), (A), (B), (D), (C), (sA), (sB), (sD),      \
                       (sC), (tA), (tB), (fC), (lD), (acc), NO_ACTIVATION, 0, 0, false);           \
  }
#define BY_GEMMINI_LOOP_WS_20(I, J, K, pI, pJ, pK, A, B, D, C, sA, sB, sD, sC, tA, tB, fC, lD,     \
                              acc, weightA)                                                        \
  BY_GEMMINI_LOOP_WS_19(I, J, K, pI, pJ, pK, A, B, D, C, sA, sB, sD, sC, tA, tB, fC, lD, acc)
#define BY_GEMMINI_LOOP_WS_23(I, J, K, pI, pJ, pK, A, B, D, C, sA, sB, sD, sC, tA, tB, fC, lD,     \
                              acc, act, a_id, b_id, resadd)                                        \
  {                                                                                                \
    by_gemmini_loop_ws((I), (J), (K), (pI), (pJ), (pK), (A), (B), (D), (C), (sA), (sB), (sD),      \
                       (sC), (tA), (tB), (fC), (lD), (acc), (act), (a_id), (b_id), (resadd));      \
  }
#define BY_GEMMINI_LOOP_WS_BAD(...)                                                                \
  BY_GEMMINI_BAD_ARGS("gemmini_loop_ws takes 19, 20 or 23 arguments (Gemmini's forms)")
#define gemmini_loop_ws(...)                                                                       \
  BY_GEMMINI_PICK(__VA_ARGS__, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_23,                      \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_20,           \
                  BY_GEMMINI_LOOP_WS_19, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,           \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,          \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,          \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,          \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,          \
                  BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD, BY_GEMMINI_LOOP_WS_BAD,          \
                  BY_GEMMINI_LOOP_WS_BAD, ~)                                                       \
  (__VA_ARGS__)

/* ---- LOOP_CONV_WS (configs with loops.conv) ---------------------------------------------- */
/* gemmini_loop_conv_ws issues the six LOOP_CONV_WS_CONFIG_* commands and LOOP_CONV_WS with
 * Gemmini's current encodings and its 54 arguments (docs/isa.md, "LOOP_CONV_WS"); the caller
 * has configured CONFIG_EX, the mvin channels and CONFIG_ST as Gemmini's tiled_conv does (on
 * Brickyard the pooling comes from CONFIG_ST: the loop's pooling sizes and paddings are encoded
 * and not read). Flags Brickyard does not implement (wrot180, the transposes, downsample,
 * input_dilated, dw, the spad ids, dilated kernels) reach the hardware, which rejects the loop
 * (UNSUPPORTED). Without loops.conv the program stops with a message. */
static inline void by_gemmini_loop_conv_ws(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
    int out_row_dim, int out_col_dim, int pool_out_row_dim, int pool_out_col_dim, int stride,
    int padding, int kernel_dim, int kernel_dilation, int pool_size, int pool_stride,
    int pool_padding, int batches, int porows, int pocols, int pochs, int krows, int kcols,
    int kchs, int lpad, int rpad, int upad, int dpad, int plpad, int prpad, int pupad, int pdpad,
    int orows, int ocols, const void* weights, const void* output, const void* bias,
    const void* input, bool no_bias, bool no_pool, bool downsample, bool wrot180,
    bool input_dilated, int activation, bool trans_output_1203, bool trans_weight_1203,
    bool trans_weight_0132, bool trans_input_3120, int max_pixels_per_row, int in_stride,
    int weight_stride, int out_stride, bool dw, int a_spad_id, int b_spad_id) {
  if (!BY_HAS_LOOP_CONV_WS)
    by_gemmini_unsupported("gemmini_loop_conv_ws on hardware without loops.conv");
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_1,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_BATCH_SIZE, batch_size) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_ROW_DIM, in_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_CHANNELS, in_channels) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS1_OUT_CHANNELS, out_channels),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_OUT_ROW_DIM, out_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_POOL_OUT_ROW_DIM, pool_out_row_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_OUT_COL_DIM, out_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_STRIDE, stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_1_RS2_PADDING, padding));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_2,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_POOL_PADDING, pool_padding) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_POOL_STRIDE, pool_stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_POOL_SIZE, pool_size) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_POOL_OUT_COL_DIM, pool_out_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS1_KERNEL_DIM, kernel_dim),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_POCHS, pochs) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_POCOLS, pocols) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_POROWS, porows) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_2_RS2_BATCHES, batches));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_3,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_LPAD, lpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KCHS, kchs) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KCOLS, kcols) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS1_KROWS, krows),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_IN_COL_DIM, in_col_dim) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_PLPAD, plpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_DPAD, dpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_UPAD, upad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_3_RS2_RPAD, rpad));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_4,
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_KERNEL_DILATION, kernel_dilation) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_PDPAD, pdpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_PUPAD, pupad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_PRPAD, prpad) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS1_OROWS, orows),
             BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_OCOLS, ocols) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_OUT_STRIDE, out_stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_WEIGHT_STRIDE, weight_stride) |
                 BY_FIELD(BY_LOOP_CONV_WS_CONFIG_4_RS2_IN_STRIDE, in_stride));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_5, by_dram(weights), by_dram(output));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS_CONFIG_6, by_dram(bias), by_dram(input));
  BY_HAL_CMD(BY_FUNCT_LOOP_CONV_WS,
             BY_FIELD(BY_LOOP_CONV_WS_RS1_NO_BIAS, no_bias) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_WROT180, wrot180) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_OUTPUT_1203, trans_output_1203) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_WEIGHT_1203, trans_weight_1203) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_WEIGHT_0132, trans_weight_0132) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_TRANS_INPUT_3120, trans_input_3120) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_DW, dw) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_MAX_PIXELS_PER_ROW, max_pixels_per_row) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_B_SPAD_ID, b_spad_id) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS1_A_SPAD_ID, a_spad_id),
             BY_FIELD(BY_LOOP_CONV_WS_RS2_NO_POOL, no_pool) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS2_DOWNSAMPLE, downsample) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS2_INPUT_DILATED, input_dilated) |
                 BY_FIELD(BY_LOOP_CONV_WS_RS2_ACTIVATION, activation));
}
/* A braced block like Gemmini's macro; a wrong argument count is the function's error. */
#define gemmini_loop_conv_ws(...)                                                                  \
  { by_gemmini_loop_conv_ws(__VA_ARGS__); }

#define gemmini_flush(skip) ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, skip, 0, k_FLUSH)
/* Gemmini's fence, which also stops the program when the accelerator refused a command since
 * the driver last reported one: a Gemmini program never reads the error registers, and would
 * go on to print a result computed without the refused command. */
static inline void by_gemmini_fence(void) {
  by_error_t e;
  const uint32_t refused = by_take_refusals(&e);
  if (refused == 0)
    return;
  printf("gemmini_fence: the accelerator refused %lu command(s); the first was %s (funct %lu): "
         "%s: %s. Results that depend on it are wrong, so the program stops (docs/isa.md, "
         "\"Error codes\"; docs/driver.md, \"Gemmini compatibility\")\n",
         (unsigned long)refused, by_funct_name(e.funct), (unsigned long)e.funct,
         by_error_name(e.code), by_error_doc(e.code));
  exit(1);
}
#define gemmini_fence() by_gemmini_fence()

/* ---- Counters (COUNTER_OP) ------------------------------------------------------------- */
#define gemmini_counter_access(rd, config_reg)                                                     \
  ROCC_INSTRUCTION(XCUSTOM_ACC, rd, config_reg, 0, k_COUNTER)
static inline uint32_t counter_read(size_t index) {
  return (uint32_t)by_counter_read((uint32_t)index);
}
/* Gemmini's counter codes (gemmini_counter.h): above INCREMENTAL_COUNTERS an external value
 * counter, numbered from INCREMENTAL_COUNTERS + 1. */
static inline void counter_configure(size_t index, size_t counter_code) {
  const int external = counter_code > INCREMENTAL_COUNTERS;
  by_counter_configure((uint32_t)index,
                       (uint32_t)(external ? counter_code - INCREMENTAL_COUNTERS : counter_code),
                       external);
}
/* Brickyard's own: an external event by its id (BY_EVENT_RDMA_BYTES_REC, ...). */
static inline void counter_configure_external(size_t index, size_t event) {
  by_counter_configure((uint32_t)index, (uint32_t)event, 1);
}
static inline void counter_reset(void) {
  by_counter_reset();
}
static inline void counter_snapshot_take(void) {
  by_counter_snapshot();
}
static inline void counter_snapshot_reset(void) {
  by_counter_snapshot_reset();
}

#include "gemmini_kernels.h"

#endif /* BRICKYARD_GEMMINI_H */
