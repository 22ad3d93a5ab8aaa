// The ONNX importer's class (compiler/onnx_import.h is its interface): one method per op
// family, defined in onnx_import.cpp (model level, convolutions, pooling, reshaping, constants,
// pre-quantized ops), onnx_import_elementwise.cpp (pointwise functions, products, reductions),
// onnx_import_channels.cpp (grouped and dilated convolution weights, channel shuffle, Split,
// Slice) and onnx_import_upsampling.cpp (Resize, ConvTranspose).
#pragma once

#include "compiler/error.h"
#include "compiler/graph.h"
#include "compiler/onnx_import.h"
#include "onnx_proto.h"

#include <map>
#include <string>
#include <vector>

namespace by::compiler::importer {

using onnxio::Const;
using onnxio::dimsString;

/// A graph value during import: an activation tensor or a constant.
struct Value {
  int tensor = -1; // activation
  Const constant;  // when tensor < 0
  bool isConst() const { return tensor < 0; }
};

/// A channel shuffle under way: Reshape [N, C, H, W] -> [N, g, C/g, H, W] (`transposed` false),
/// then Transpose perm [0, 2, 1, 3, 4] (true); a Reshape back to [N, C, H, W] completes it.
struct ShuffleView {
  int tensor = -1; // the 4-D map
  int groups = 1;  // g
  bool transposed = false;
};

/// LayerNormalization and Gelu put back together from the primitive chains exporters write
/// (onnx_import_patterns.cpp); `shapes` are ONNX shape inference's.
void fuseDecomposedOps(onnx::ModelProto& model,
                       const std::map<std::string, std::vector<int64_t>>& shapes);

class Importer {
public:
  Importer(onnx::ModelProto& model, const std::string& path, const ImportOptions& options)
      : model_(model), path_(path), options_(options) {}

  Graph run();

private:
  onnx::ModelProto& model_;
  std::string path_;
  ImportOptions options_;
  Graph g_;
  std::map<std::string, Value> values_;
  std::map<std::string, std::vector<int64_t>> inferred_; // ONNX shape inference results
  std::map<std::string, ShuffleView> shuffles_;          // 5-D views of channel shuffles
  const onnx::NodeProto* node_ = nullptr;                // the node being imported

  // ---- messages ----
  CompileError err(const std::string& what) const {
    return nodeError(nodeName(*node_), node_->op_type(), what);
  }
  static std::string nodeName(const onnx::NodeProto& n) {
    return n.name().empty() ? (n.output_size() ? n.output(0) : std::string("?")) : n.name();
  }

  // ---- values ----
  bool hasInput(int i) const { return i < node_->input_size() && !node_->input(i).empty(); }
  const Value& input(int i) const {
    if (!hasInput(i))
      throw err("input " + std::to_string(i) + " is missing");
    auto it = values_.find(node_->input(i));
    if (it == values_.end() && shuffles_.count(node_->input(i)))
      throw err("input '" + node_->input(i) +
                "' is a 5-D view of a channel shuffle; only Transpose (perm [0, 2, 1, 3, 4]) and "
                "a Reshape back to [N, C, H, W] may read it");
    if (it == values_.end())
      throw err("input '" + node_->input(i) + "' is not produced by any earlier node");
    return it->second;
  }
  int act(int i) const {
    const Value& v = input(i);
    if (v.isConst())
      throw err("input '" + node_->input(i) +
                "' is a constant; the compiler expects an activation there");
    if (g_.tensors[v.tensor].channelsLast && !readsChannelsLast(node_->op_type()))
      throw err("input '" + node_->input(i) + "' is a channels-last view " +
                dimsString(g_.tensors[v.tensor].onnxShape) +
                " (a Transpose perm [0, 2, 3, 1]); only Transpose back, LayerNormalization, "
                "MatMul and element-wise ops may read it");
    return v.tensor;
  }
  /// Ops that handle a channels-last view (Tensor::channelsLast) of a map themselves.
  static bool readsChannelsLast(const std::string& op);
  const Const& cst(int i) const {
    const Value& v = input(i);
    if (!v.isConst())
      throw err("input '" + node_->input(i) +
                "' must be a constant (an initializer or folded from constants)");
    return v.constant;
  }
  void setOutput(int i, Value v) {
    if (i < node_->output_size() && !node_->output(i).empty())
      values_[node_->output(i)] = std::move(v);
  }
  void setActivation(int tensor) { setOutput(0, Value{tensor, {}}); }
  void setConst(Const c) { setOutput(0, Value{-1, std::move(c)}); }
  /// Outputs past the first must be unused (e.g. Dropout's mask, MaxPool's indices).
  void requireSingleOutput();

  int newTensor(const Shape& shape, const std::vector<int64_t>& onnxShape);
  /// A tensor of x's shape and layout (an element-wise op's output).
  int newLike(int x);
  /// A constant of these dims broadcasts along the last axis only ([C], [1, 1, 1, C]).
  static bool lastAxisOnly(const std::vector<int64_t>& dims);
  Layer& addLayer(LayerKind kind, std::vector<int> inputs, int output);
  const Tensor& tensor(int id) const { return g_.tensors[id]; }
  /// The activation's ONNX rank, checking it is one the compiler handles.
  int rankOf(int t) const { return int(tensor(t).onnxShape.size()); }
  Shape fromOnnx(const std::vector<int64_t>& dims) const;

  // ---- model level ----
  void checkOpsets();
  void runShapeInference();
  void importInputs();
  void importOutput();
  void dispatch();

  // ---- ops ----
  void conv(int x, const Const& w, const Const* b, double outFixedScale);
  void convNode();
  void batchNorm();
  void dense(int x, const Const& w, bool transB, float alpha, const Const* c, float beta,
             double outFixedScale);
  void gemm();
  void matmul();
  void add();
  void addConstant(int x, const Const& c);
  void pool(bool isMax);
  void globalPool(bool isMax);
  void activation(const std::string& op);
  void reshapeLike(const std::vector<int64_t>& target);
  void reshape();
  void flatten();
  void squeeze(bool un);
  void concat();
  void pad();
  void softmax();
  // ---- element-wise ops, products and reductions (onnx_import_elementwise.cpp) ----
  void pointwise(const std::string& op); // Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, ...
  void layerNorm();      // LayerNormalization over the channels (last axis of a channels-last view)
  void mul();            // Mul of two activations, or by a constant
  void divSub(bool div); // Div / Sub of an activation by a constant
  /// A per-channel constant product: a depthwise 1x1 convolution the passes fold.
  void scaleByConstant(int x, const Const& c, bool reciprocal);
  void reduce(const std::string& op); // ReduceMean / ReduceMax / ReduceSum over H and W
  void resize();                      // onnx_import_upsampling.cpp
  void convTranspose();               // onnx_import_upsampling.cpp
  // ---- channels (onnx_import_channels.cpp) ----
  /// Grouped convolution weights [M, C/group, kH, kW] as the dense block-diagonal kernel.
  void groupedWeights(Layer& l, const Const& w, int cin, int group, int kh, int kw);
  /// A kh x kw kernel dilated by (dh, dw) as the dense kernel of the window l has already.
  static void dilateKernel(Layer& l, int kh, int kw, int dh, int dw);
  bool shuffleReshape(const std::vector<int64_t>& target); // true if it was part of a shuffle
  void transpose();
  void split();
  void slice();
  /// The NHWC axis (1 H, 2 W, 3 C) of ONNX axis `axis` of activation x; an error naming
  /// `what` for the batch axis or a flattened map.
  int nhwcAxis(int x, int64_t axis, const char* what) const;
  /// A Slice layer taking `count` indices of x along NHWC `axis` from `begin`.
  int sliceAlong(int x, int axis, int begin, int count, const std::string& name);
  void constantNode();
  bool foldConstants(); // Shape/Gather/... over constants; true if handled
  // QDQ and QLinear*
  double activationScale(int scaleInput, int zpInput, const std::string& what);
  Const dequantizeWeights(int qInput, int scaleInput, int zpInput, const std::string& what);
  void quantizeLinear();
  void dequantizeLinear();
  void qlinearConv();
  void qlinearMatMul();
  void qlinearAdd();
  void qlinearGlobalAveragePool();

  /// Strides and pads of a kh x kw window; dilations must be 1 unless the caller took them.
  Window windowAttrs(const Shape& in, int kh, int kw, bool dilationTaken = false);
  void checkInferredShape(int t, const std::string& name);
};

} // namespace by::compiler::importer
