#include "hw_facts.h"

#include "config/derived.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

namespace by::compiler {

by_hw_t plannerHw(const config::Config& c) {
  const config::Derived d = config::derive(c);
  by_hw_t h{};
  h.dim = size_t(d.dim);
  h.lanes = size_t(c.array.lanes);
  h.sp_rows = size_t(d.spRows);
  h.acc_rows = size_t(d.accRows);
  h.max_block_len = size_t(d.maxBlockLen);
  h.dma_max_bytes = size_t(c.dma.maxBytes);
  h.dma_request_min_bytes = size_t(d.dmaRequestMinBytes);
  h.dma_write_request_min_bytes = size_t(d.dmaWriteRequestMinBytes);
  h.dma_round_trip_bytes = size_t(d.dmaRoundTripBytes);
  h.mvout_cols_max = size_t(d.maxColsAccElems);
  h.elem_bytes = size_t(d.inputBytes);
  h.acc_bytes = size_t(d.accBytes);
  h.input_width = unsigned(c.types.inputWidth);
  h.acc_width = unsigned(c.types.accWidth);
  h.spatial_output_width = unsigned(c.types.spatialOutputWidth);
  h.ws = c.array.dataflow != config::Dataflow::OS;
  h.os = c.array.dataflow != config::Dataflow::WS;
  h.tensordash = c.tensordash.enabled;
  h.boveda = c.boveda.enabled;
  // The loop unrollers of each dataflow (BY_HAS_LOOP_*, which HW_FEATURES reports).
  h.loop_ws = c.loops.ws;
  h.loop_conv_ws = c.loops.conv && h.ws;
  h.loop_conv_os = c.loops.conv && h.os;
  // The loops' depthwise mode: by the rule the driver's by_hw_get applies to its headers.
  h.loop_conv_ws_depthwise =
      by_plan_loop_depthwise(h.loop_conv_ws, h.dim, h.lanes, h.tensordash, /*os=*/0);
  h.loop_conv_os_depthwise =
      by_plan_loop_depthwise(h.loop_conv_os, h.dim, h.lanes, h.tensordash, /*os=*/1);
  h.transposer = c.array.lanes == 1 && !c.tensordash.enabled; // docs/isa.md "Transposes"
  h.dataflow_ws = hw::kDataflowWS;
  h.dataflow_os = hw::kDataflowOS;
  h.act_none = hw::isa::kActNone;
  h.act_relu = hw::isa::kActRelu;
  const auto& loop1 = hw::isa::command("LOOP_CONV_WS_CONFIG_1");
  h.loop_dim_max = size_t(loop1.rs1Field("in_row_dim").mask());
  h.loop_stride_max = size_t(loop1.rs2Field("stride").mask());
  h.loop_dilation_max =
      size_t(hw::isa::command("LOOP_CONV_WS_CONFIG_4").rs1Field("kernel_dilation").mask());
  h.loop_dpad_max = size_t(hw::isa::command("LOOP_CONV_WS_CONFIG_3").rs2Field("dpad").mask());
  h.mvin_rows_max = size_t(hw::isa::command("MVIN").rs2Field("rows").mask());
  const auto& st = hw::isa::command("CONFIG_ST");
  h.pool_small_max = size_t(st.rs1Field("pool_size").mask());
  h.pool_dim_max = size_t(st.rs1Field("orows").mask());
  return h;
}

HwFacts hwFacts(const config::Config& c) {
  HwFacts h;
  h.planner = plannerHw(c);
  h.dim = int(h.planner.dim);
  h.lanes = int(h.planner.lanes);
  h.kb = h.dim * h.lanes;
  h.maxBlockLen = int(h.planner.max_block_len);
  h.ws = h.planner.ws;
  h.os = h.planner.os;
  h.td = h.planner.tensordash;
  h.tdScheduleB = c.tensordash.enabled && c.tensordash.scheduleB;
  h.table = c.activations.table;
  h.boveda = h.planner.boveda;
  h.dramBytesPerCycle = c.soc.dram.bytesPerCycle;
  const double cpi = c.soc.hostCpiTenths / 10.0;
  h.moveCycles = 30 * cpi;
  h.pairCycles = 10 * cpi;
  return h;
}

by_conv_shape_t convShape(const HwFacts& hw, const Shape& in, const Window& w, int outCh,
                          bool depthwise, const FusedPool& pool) {
  by_conv_shape_t s{};
  s.batch = size_t(in.n), s.in_rows = size_t(in.h), s.in_cols = size_t(in.w);
  s.in_ch = size_t(in.c), s.out_ch = size_t(outCh);
  s.kernel_rows = size_t(w.kh), s.kernel_cols = size_t(w.kw);
  s.stride = size_t(w.strideH), s.stride_cols = size_t(w.strideW);
  s.dilation = size_t(w.dilH); // the importer keeps dilH == dilW
  s.pad_top = size_t(w.padT), s.pad_left = size_t(w.padL);
  s.pad_bottom = size_t(w.padB), s.pad_right = size_t(w.padR);
  if (pool.present()) {
    s.pool_size = size_t(pool.size);
    s.pool_stride = size_t(pool.stride);
    s.pool_padding = size_t(pool.pad);
  }
  s.depthwise = depthwise;
  s.activation = hw.planner.act_none;
  s.path = BY_CONV_AUTO;
  s.dataflow = BY_DATAFLOW_AUTO;
  return s;
}

const char* dataflowName(const HwFacts& hw, int dataflow) {
  return dataflow == hw.planner.dataflow_os ? "OS" : "WS";
}

} // namespace by::compiler
