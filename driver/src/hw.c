/* by_hw_get (brickyard/kernels.h): this driver's config, from its generated headers, as the
 * planner (brickyard/plan.h) takes it. The compiler fills the same struct from the config itself
 * (compiler_backend/src/hw_facts.cpp); the planner agreement test compares the two. */
#include "brickyard/accel.h"
#include "brickyard/boveda.h"
#include "brickyard/kernels.h"

void by_hw_get(by_hw_t* hw) {
  hw->dim = BY_DIM;
  hw->lanes = BY_LANES;
  hw->sp_rows = BY_SP_ROWS;
  hw->acc_rows = BY_ACC_ROWS;
  hw->max_block_len = BY_MAX_BLOCK_LEN;
  hw->dma_max_bytes = BY_DMA_MAX_BYTES;
  hw->dma_request_min_bytes = BY_DMA_REQUEST_MIN_BYTES;
  hw->dma_write_request_min_bytes = BY_DMA_WRITE_REQUEST_MIN_BYTES;
  hw->dma_round_trip_bytes = BY_DMA_ROUND_TRIP_BYTES;
  hw->mvout_cols_max = BY_MAX_ACC_ELEM_COLS;
  hw->elem_bytes = sizeof(by_elem_t);
  hw->acc_bytes = sizeof(by_acc_t);
  hw->input_width = BY_INPUT_WIDTH;
  hw->acc_width = BY_ACC_WIDTH;
  hw->spatial_output_width = BY_SPATIAL_OUTPUT_WIDTH;
  hw->ws = BY_HAS_WS;
  hw->os = BY_HAS_OS;
  hw->tensordash = BY_TENSORDASH;
  hw->boveda = BY_HAS_BOVEDA;
  /* HW_FEATURES only where the config has a loop: a config without them reads no register. */
  const uint32_t features = BY_HAS_LOOP_WS || BY_HAS_LOOP_CONV_WS || BY_HAS_LOOP_CONV_OS
                                ? by_hal_reg_read(BY_REG_HW_FEATURES)
                                : 0;
  hw->loop_ws = BY_HAS_LOOP_WS && BY_REG_FIELD(HW_FEATURES, LOOP_WS, features) != 0;
  hw->loop_conv_ws = BY_HAS_LOOP_CONV_WS && BY_REG_FIELD(HW_FEATURES, LOOP_CONV_WS, features) != 0;
  hw->loop_conv_os = BY_HAS_LOOP_CONV_OS && BY_REG_FIELD(HW_FEATURES, LOOP_CONV_OS, features) != 0;
  hw->loop_conv_ws_depthwise =
      by_plan_loop_depthwise(hw->loop_conv_ws, BY_DIM, BY_LANES, BY_TENSORDASH, 0);
  hw->loop_conv_os_depthwise =
      by_plan_loop_depthwise(hw->loop_conv_os, BY_DIM, BY_LANES, BY_TENSORDASH, 1);
  hw->transposer = BY_LANES == 1 && !BY_TENSORDASH; /* what HW_FEATURES' TRANSPOSER bit says */
  hw->dataflow_ws = BY_DATAFLOW_WS;
  hw->dataflow_os = BY_DATAFLOW_OS;
  hw->act_none = BY_ACT_NONE;
  hw->act_relu = BY_ACT_RELU;
  hw->loop_dim_max = BY_LOOP_CONV_WS_CONFIG_1_RS1_IN_ROW_DIM_MASK;
  hw->loop_stride_max = BY_LOOP_CONV_WS_CONFIG_1_RS2_STRIDE_MASK;
  hw->loop_dilation_max = BY_LOOP_CONV_WS_CONFIG_4_RS1_KERNEL_DILATION_MASK;
  hw->loop_dpad_max = BY_LOOP_CONV_WS_CONFIG_3_RS2_DPAD_MASK;
  hw->mvin_rows_max = BY_MVIN_RS2_ROWS_MASK;
  hw->pool_small_max = BY_CONFIG_ST_RS1_POOL_SIZE_MASK;
  hw->pool_dim_max = BY_CONFIG_ST_RS1_OROWS_MASK;
}
