#include "op_layouts.h"

#include <algorithm>

namespace by::hw {

PackedLayout loadOpLayout(const AccelParams& p) {
  PackedLayout l;
  l.field("dram", 32, "DRAM byte address of row 0")
      .field("zero", 1, "write zeros (DRAM address 0)")
      .field("acc", 1, "destination is the accumulator")
      .field("accumulate", 1, "accumulator: add to the stored values")
      .field("shrink", 1, "accumulator: DRAM holds elem_t values")
      .field("row", p.localRowBits, "first local row")
      .field("rows", 16)
      .field("cols", 16)
      .field("blocks", 8, "column blocks of one local row (DIM*lanes or DIM elements)")
      .field("stride", 32, "DRAM bytes between rows")
      .field("block_stride", 16, "local rows between column blocks")
      .field("channel", 2, "0 MVIN, 1 MVIN2, 2 MVIN3, 3 DECOMPRESS: the funct a DMA error reports");
  if (p.config.boveda.enabled) // Boveda: stride is the stream base, dram the pointer entry
    l.field("compressed", 1, "one Boveda block through a pointer entry")
        .field("ptr_inval", 1,
               "compressed: invalidate the loader's pointer lines before this move's lookup");
  if (p.config.boveda.enabled && p.config.boveda.onChip) // DECOMPRESS: dram is the source row,
    l.field("onchip", 1,
            "DECOMPRESS: containers in scratchpad rows (dram: first row, stride: "
            "containers)");
  return l;
}

PackedLayout storeOpLayout(const AccelParams& p) {
  PackedLayout l;
  l.field("dram", 32, "DRAM byte address")
      .field("acc", 1, "source is the accumulator")
      .field("full", 1, "accumulator: raw acc_t values")
      .field("row", p.localRowBits, "first local row")
      .field("rows", 16)
      .field("cols", 16)
      .field("blocks", 8, "column blocks of one local row (DIM*lanes or DIM elements)")
      .field("block_stride", 16, "local rows between column blocks: DIM, a conv loop's own")
      .field("stride", 32, "DRAM bytes between rows / pooled pixels")
      .field("scale", 32, "accumulator read scale (IEEE single)")
      .field("relu", 1)
      .field("mode", 2, "0 rows, 1 max-pool, 2 strided 1-D")
      .field("pool_stride", 2)
      .field("pool_size", 2)
      .field("upad", 2)
      .field("lpad", 2)
      .field("pool_out_dim", 8)
      .field("porows", 8)
      .field("pocols", 8)
      .field("orows", 8)
      .field("ocols", 8);
  if (p.config.boveda.enabled) // Boveda: stride is the stream base, dram the pointer entry
    l.field("compressed", 1, "one Boveda block, mode 0")
        .field("epoch", 1, "stream of CONFIG_ST number");
  return l;
}

bool hasAStep(const AccelParams& p) {
  return p.config.loops.conv && p.lanes > 1 && p.config.tensordash.enabled && p.dim >= p.lanes;
}

PackedLayout execOpLayout(const AccelParams& p) {
  PackedLayout l;
  l.field("flip", 1, "COMPUTE_PRELOADED: switch to the preloaded stationary data")
      .field("ws", 1, "weight-stationary")
      .field("relu", 1, "activation of results written to the scratchpad")
      .field("shift", p.shiftBits, "OS output shift")
      .field("a_stride", 16)
      .field("c_stride", 16);
  for (const char* op : {"a", "bd", "d", "c"}) {
    const std::string o = op;
    l.field(o + "_garbage", 1).field(o + "_acc", 1).field(o + "_row", p.localRowBits);
    l.field(o + "_rows", p.dimBits).field(o + "_cols", p.spElemBits); // cols: up to DIM*lanes
  }
  l.field("c_accumulate", 1);
  if (!p.config.tensordash.enabled) // CONFIG_EX's transposes (0 where the config has none)
    l.field("a_t", 1, "A is stored transposed").field("b_t", 1, "B is stored transposed");
  if (p.config.tensordash.enabled) // CONFIG_EX's run-time control (docs/isa.md)
    l.field("td_off", 1, "TensorDash: dense beats");
  if (p.config.tensordash.enabled && p.config.tensordash.scheduleB)
    l.field("td_side", 1, "scheduled operand: B");
  if (hasAStep(p)) // a depthwise conv loop's computes (docs/isa.md, "Depthwise mode")
    l.field("a_step", std::max(1, config::log2Exact(p.dim)),
            "A's first reduction step (lane group) in its rows");
  return l;
}

bool mergesComputes(const AccelParams& p) {
  return p.config.array.dataflow != config::Dataflow::OS && !p.config.tensordash.enabled;
}

PackedLayout mergedExecLayout(const AccelParams& p) {
  PackedLayout l = execOpLayout(p);
  l.field("pieces", kPieceBits, "computes after the first (0 .. kMaxComputePieces - 1)")
      .field("last_rows", p.dimBits, "rows of the last piece");
  return l;
}

PackedLayout rangeLayout(const AccelParams& p) {
  PackedLayout l;
  l.field("valid", 1).field("acc", 1).field("start", p.localRowBits).field("end", p.localRowBits);
  return l;
}

int opPayloadWidth(const AccelParams& p) {
  return std::max({loadOpLayout(p).width(), storeOpLayout(p).width(),
                   mergesComputes(p) ? mergedExecLayout(p).width() : execOpLayout(p).width()});
}

} // namespace by::hw
