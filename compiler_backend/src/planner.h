// Internal to the lowering (compiler/plan.h): the Planner, which lowers a quantized graph layer
// by layer onto driver calls, and what its files share. plan.cpp holds the layers' dispatch,
// matmuls and the memory plan; lower_conv.cpp convolutions, depthwise convolutions and average
// pooling on by_conv, each call planned by the driver's planner (brickyard/plan.h);
// lower_resize.cpp resampling as products by interpolation matrices.
#pragma once

#include "compiler/plan.h"
#include "hw_facts.h"

#include <string>
#include <vector>

namespace by::compiler::lowering {

/// `v` rounded up to the arena's and blob's 64-byte alignment.
int64_t alignUp(int64_t v);
/// Appends bytes to the weights blob at the next 64-byte boundary.
BlobRange put(std::string& blob, const void* data, size_t bytes);
/// Whether a Resize axis of `in` -> `out` elements only repeats each input index out / in
/// times (nearest modes with an integer factor, e.g. torch's Upsample(scale_factor=2)): then the
/// layer is DMA copies, exact.
bool replicates(const ResizeRule& r, int in, int out, double scale);

/// One product of a Resize on the array (lower_resize.cpp): the rows' matrix times an image as
/// H x (W C), one call; or the columns' matrix times each of its rows (W x C), `calls` calls
/// whose B and C are `inStride` and `outStride` elements apart.
struct ResizePass {
  by_matmul_shape_t shape{};
  bool rows = false;
  int64_t calls = 1, inStride = 0, outStride = 0;
};
/// Both products in their order (resizeColumnsFirst); the intermediate image takes `midBytes`
/// (aligned) at the workspace's start.
struct ResizePasses {
  ResizePass first, second;
  int64_t midBytes = 0;
};
ResizePasses resizePasses(const Shape& in, const Shape& out);

/// Average pooling that does not count the padding (or whose ceil mode adds windows past the
/// image) on the array (lower_conv.cpp): its outputs in regions of one divisor, each a depthwise
/// convolution by ones with that divisor's scale. A row run is output rows whose windows hold
/// `count` image rows; the columns go by how many image columns their windows hold.
struct PoolRowRun {
  int row0 = 0, rows = 0, count = 0;
  int in0 = 0, inRows = 0, padT = 0, padB = 0; // the input rows its convolution reads
};
struct AvgPoolRegions {
  std::vector<PoolRowRun> rowRuns;
  std::vector<int> colCount; // per output column
  int padR = 0;              // right padding that gives the output's width (ceil mode)
  bool oneColCount() const;
  /// One row run's output at full width (where the columns differ in count, the convolutions
  /// write there and copies take each column run of the run's count).
  int64_t tempBytes(const Shape& out) const;
};
AvgPoolRegions avgPoolRegions(const Window& w, const Shape& in, const Shape& out);

template <typename T> BlobRange putVec(std::string& blob, const std::vector<T>& v) {
  return put(blob, v.data(), v.size() * sizeof(T));
}

/// The weights of a Dense / im2col matmul, K x J int8, lane-packed for vector PEs
/// (docs/isa.md "Vector PEs": packed[t][j*L + l] = B[t*L + l][j]).
std::vector<int8_t> packB(const std::vector<int8_t>& b, int64_t k, int64_t j, int lanes);
/// A rows x cols row-major matrix transposed (cols x rows): a one-image Dense layer's weights
/// as the driver's transposed matmul reads them (J x K, by_matmul_plan_t.transposed).
std::vector<int8_t> transposeMatrix(const std::vector<int8_t>& m, int64_t rows, int64_t cols);

/// Plans one graph for one config: each layer's kernel and driver call (planLayer), then the
/// arena (planMemory).
class Planner {
public:
  Planner(const Graph& g, const config::Config& cfg, const PlanOptions& o)
      : g_(g), hw_(hwFacts(cfg)), opt_(o) {
    prog_.config = cfg;
  }
  Program run();

private:
  const Graph& g_;
  HwFacts hw_;
  PlanOptions opt_;
  Program prog_;
  int rawWeightLayers_ = 0; // Boveda: layers whose weights did not compress

  const Shape& shapeOf(int t) const { return g_.tensors[t].shape; }
  double calibZeros(int t) const { return g_.tensors[g_.storageOf(t)].zeroFraction; }
  void planLayer(int li, LayerPlan& p);
  void planMatmul(const Layer& l, LayerPlan& p, int64_t rows, int64_t k, int64_t j, double zerosA);
  bool planGlobalAverageMatmul(const Layer& l, LayerPlan& p);
  void setTensorDash(LayerPlan& p, double zerosA, const std::vector<int8_t>& weights, int64_t k,
                     int64_t n, bool os) const;
  std::string rowTooWide(const Shape& co) const;
  void regroupPointwiseRows(const Layer& l, LayerPlan& p, const Shape& in, const Shape& co,
                            by_conv_shape_t& s, by_conv_plan_t& plan) const;
  bool tensorDashApplies(LayerPlan& p, bool os) const;
  void setDiagonalTensorDash(LayerPlan& p, const Layer& l, const by_conv_shape_t& s, bool os,
                             const by_conv_plan_t& plan, const char* blocks) const;
  void passPlannedTiles();
  void fuseTables();
  void planMemory();
  // boveda_activations.cpp
  void compressActivations();
  bool loopConv(int layer) const;
  void eltwiseOnCpuIfNoChunk(LayerPlan& p) const;
  BlobRange putBias(const Layer& l);
  // lower_conv.cpp
  void planConv(const Layer& l, LayerPlan& p);
  bool planConvLoopLanes(const Layer& l, LayerPlan& p, const Shape& in, const Shape& co);
  void planDepthwise(const Layer& l, LayerPlan& p);
  bool planScaleConv(const Layer& l, LayerPlan& p);
  void planDepthwiseCall(const Layer& l, LayerPlan& p, const Shape& in);
  bool planAvgPoolConv(const Layer& l, LayerPlan& p);
  // lower_resize.cpp
  void planResize(const Layer& l, LayerPlan& p);
  bool planMaxPoolConv(const Layer& l, LayerPlan& p);
  bool planOnesConv(const Layer& l, LayerPlan& p, by_conv_shape_t s, Kernel kernel, int64_t taps);
  bool nonNegative(int t) const;
  bool poolOnMvout(const Layer& l, const Shape& convOut) const;
  void planPooling(const Layer& l, LayerPlan& p, const Shape& convOut);
  by_conv_shape_t convCallShape(const Layer& l, const Shape& in, const Window& w, bool depthwise,
                                bool pool) const;
  // Records the driver's plan of the call; on the loop and LOOP_WS matmul paths the estimate
  // becomes that path's traffic (convPathDramBytes). Returns how often it reads the weights
  // there (0 on the command path, whose estimate the caller's tiles made).
  int64_t recordConv(const Layer& l, LayerPlan& p, const by_conv_shape_t& s) const;
};

} // namespace by::compiler::lowering
