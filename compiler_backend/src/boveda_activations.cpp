// Boveda: activations that live compressed in DRAM between layers (docs/boveda.md, "Compressed
// activations"). A tensor is stored as the driver's compressed activation tensor
// (brickyard/boveda.h by_boveda_tensor_t) when the convolution loops move it on both sides: its
// producer writes it with compressed MVOUTs and every consumer reads it with compressed MVINs,
// with no host work and no copy. The loops take such tensors only in tiles of whole channel
// groups, whole rows and unpooled, so each candidate's producer and consumers are planned again
// by the driver's planner with the flags, and the tensor stays raw where one of them would no
// longer run as a loop or their tiles would move more bytes; so does a tensor that the
// calibration sample shows barely compressing (Tensor::storedFraction).
#include "boveda_weights.h"
#include "planner.h"

#include <algorithm>
#include <string>

namespace by::compiler::lowering {

namespace {
constexpr int64_t kMinBlockContainers = 8;
} // namespace

// A convolution the loops run on the accelerator, dense (the depthwise loop moves one channel
// block a pass, not a channel group).
bool Planner::loopConv(int layer) const {
  const LayerPlan& p = prog_.layers[size_t(layer)];
  return p.kernel == Kernel::Conv && !p.onCpu && p.conv && p.conv->plan.loop &&
         !p.conv->shape.depthwise && p.rowPixels == 0; // (compressed blocks are image rows)
}

void Planner::compressActivations() {
  if (!hw_.boveda || !opt_.bovedaActivations)
    return;
  MemoryPlan& m = prog_.memory;
  m.bovedaTable.assign(g_.tensors.size(), 0);
  m.bovedaStream.assign(g_.tensors.size(), 0);
  const int64_t group = int64_t(hw_.maxBlockLen) * hw_.kb;
  for (int lp = 0; lp < int(g_.layers.size()); ++lp) {
    const LayerPlan& producer = prog_.layers[size_t(lp)];
    const int t = g_.layers[size_t(lp)].output;
    // Written by this layer's loops alone, as it is: not the network's output, not part of a
    // concatenation, not rewritten by a function table or a clamp, not pooled on the way out.
    if (!loopConv(lp) || t == g_.output || g_.storageOf(t) != t || g_.aliasGroup(t).size() != 1 ||
        producer.writesTo >= 0 || producer.mvoutTable.present() || producer.clampAfter ||
        producer.separatePool || producer.conv->shape.pool_stride)
      continue;
    // Blocks too small to pay for their pointer entry and their last container's padding (a
    // block of fewer values than kMinBlockContainers containers hold) stay raw.
    const Shape& s = shapeOf(t);
    const int64_t blockBits =
        int64_t(s.w) * std::min<int64_t>(s.c, group) * prog_.config.types.inputWidth;
    if (blockBits < kMinBlockContainers * int64_t(prog_.config.boveda.containerBits))
      continue;
    const std::vector<int> readers = g_.consumers(t);
    bool ok = !readers.empty();
    for (int r : readers)
      ok = ok && loopConv(r) && g_.layers[size_t(r)].inputs.size() == 1;
    if (!ok)
      continue;
    // Tensors the calibration sample shows barely compressing stay raw.
    const double stored = g_.tensors[size_t(t)].storedFraction;
    if (stored > 0 && 100 * stored > double(kActivationsMaxPercent)) {
      prog_.notes.push_back("activations '" + g_.tensors[size_t(t)].name +
                            "' stay raw: compressed they took " + std::to_string(stored) +
                            " of their bytes on the calibration sample");
      continue;
    }
    // The calls with the flags, each still a loop (or the tensor stays raw).
    std::vector<std::pair<int, ConvCall>> calls = {{lp, *producer.conv}};
    calls[0].second.shape.output_compressed = 1;
    for (int r : readers) {
      calls.push_back({r, *prog_.layers[size_t(r)].conv});
      calls.back().second.shape.input_compressed = 1;
    }
    // Each still a loop, and together moving no more bytes by the planner's model of raw
    // operands (tiles of whole channel groups can re-read the weights more often, as on small
    // scratchpads): the compression then only saves.
    uint64_t before = 0, after = 0;
    for (auto& [layer, call] : calls) {
      before += by_plan_conv_loop_bytes(&hw_.planner, &prog_.layers[size_t(layer)].conv->shape,
                                        &prog_.layers[size_t(layer)].conv->plan);
      ok = ok && by_plan_conv(&hw_.planner, &call.shape, &call.plan) == BY_OK && call.plan.loop;
      after += ok ? by_plan_conv_loop_bytes(&hw_.planner, &call.shape, &call.plan) : 0;
    }
    if (!ok || after > before)
      continue;
    for (auto& [layer, call] : calls)
      prog_.layers[size_t(layer)].conv = call;
    const BovedaTensorBytes b = activationTensorBytes(s.n, s.h, s.w, s.c, group, prog_.config);
    m.bovedaTable[size_t(t)] = b.table;
    m.bovedaStream[size_t(t)] = b.stream;
  }
}

} // namespace by::compiler::lowering
