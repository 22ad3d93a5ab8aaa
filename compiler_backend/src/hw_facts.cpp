#include "hw_facts.h"

#include "config/derived.h"
#include "hwspec/isa.h"

namespace by::compiler {

HwFacts hwFacts(const config::Config& c) {
  const config::Derived d = config::derive(c);
  HwFacts h;
  h.dim = d.dim;
  h.lanes = c.array.lanes;
  h.kb = d.dim * c.array.lanes;
  h.spRows = d.spRows;
  h.accRows = d.accRows;
  h.spHalf = d.spRows / 2;
  h.accHalf = d.accRows / 2;
  h.maxBlockLen = d.maxBlockLen;
  h.ws = c.array.dataflow != config::Dataflow::OS;
  h.os = c.array.dataflow != config::Dataflow::WS;
  h.td = c.tensordash.enabled;
  h.tdScheduleB = c.tensordash.enabled && c.tensordash.scheduleB;
  h.boveda = c.boveda.enabled;
  h.loopConv = c.loops.conv && c.array.lanes == 1 && h.ws;
  h.loopConvOs = c.loops.conv && h.os && c.types.spatialOutputWidth >= c.types.accWidth;
  h.loopLanes = c.loops.conv && c.array.lanes > 1 && (h.ws || h.loopConvOs);
  h.anyConvLoop = c.loops.conv;
  h.inputWidth = c.types.inputWidth;
  h.spatialWidth = c.types.spatialOutputWidth;
  h.dramBytesPerCycle = c.soc.dram.bytesPerCycle;
  const double cpi = c.soc.hostCpiTenths / 10.0;
  h.moveCycles = 30 * cpi;
  h.pairCycles = 10 * cpi;
  const auto& st = hw::isa::command("CONFIG_ST");
  h.poolSmallMax = int(st.rs1Field("pool_size").mask());
  h.poolDimMax = int(st.rs1Field("orows").mask());
  return h;
}

int64_t denseConvWorkspace(const HwFacts& hw, int64_t batch, int64_t rows, int64_t cols, int cin,
                           const Window& w, int cout, bool weightsPacked) {
  const int64_t pads = w.padL + w.padR, L = hw.lanes;
  const uint64_t largest = uint64_t(w.kw) * uint64_t(cin) << (2 * hw.inputWidth - 2);
  const bool folds = hw.anyConvLoop && w.kw > 1 && int64_t(w.kw) * cin <= hw.kb &&
                     largest < (uint64_t(1) << (hw.spatialWidth - 1)) && w.strideH == w.strideW &&
                     pads * cin <= int64_t(hw.maxBlockLen) * hw.kb &&
                     (cols * cin + hw.kb - 1) / hw.kb <= hw.spHalf / 2;
  auto packed = [&](int64_t taps, int64_t k) { return taps * ((k + L - 1) / L) * cout * L; };
  const bool packs = L != 1 && (!weightsPacked || folds);
  const int64_t weights = !packs  ? 0
                          : folds ? packed(w.kh, int64_t(w.kw) * cin)
                                  : packed(int64_t(w.kh) * w.kw, cin);
  if (!folds || pads == 0)
    return weights;
  return (weights + 63) / 64 * 64 + batch * rows * (cols + pads) * cin;
}

int64_t depthwiseWorkspace(const HwFacts& hw, int channels, int taps) {
  const int64_t packedRows = (hw.dim + hw.lanes - 1) / hw.lanes;
  return int64_t((channels + hw.dim - 1) / hw.dim) * taps * packedRows * hw.dim * hw.lanes;
}

} // namespace by::compiler
