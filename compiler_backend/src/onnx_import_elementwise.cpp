// ONNX import of element-wise functions (one Pointwise layer each), products (Mul of two
// activations; Mul, Div and Sub by constants, which fold into the layer before) and reductions
// over the spatial axes (ReduceMean, ReduceMax: global pooling; ReduceSum: the mean scaled).
#include "onnx_importer.h"

#include <algorithm>
#include <cmath>

namespace by::compiler::importer {

void Importer::pointwise(const std::string& op) {
  const int x = act(0);
  PointwiseFn fn = PointwiseFn::Sigmoid;
  float alpha = 0, beta = 0;
  if (op == "Tanh") {
    fn = PointwiseFn::Tanh;
  } else if (op == "HardSigmoid") {
    fn = PointwiseFn::HardSigmoid;
    alpha = onnxio::attrFloat(*node_, "alpha", 0.2f);
    beta = onnxio::attrFloat(*node_, "beta", 0.5f);
  } else if (op == "HardSwish") {
    fn = PointwiseFn::HardSwish;
  } else if (op == "LeakyRelu") {
    fn = PointwiseFn::LeakyRelu;
    alpha = onnxio::attrFloat(*node_, "alpha", 0.01f);
  } else if (op == "Elu") {
    fn = PointwiseFn::Elu;
    alpha = onnxio::attrFloat(*node_, "alpha", 1.0f);
  } else if (op == "PRelu") {
    const Const& slope = cst(1);
    for (double v : slope.values)
      if (v != slope.values.at(0))
        throw err("a slope per channel is not supported; only one slope for the tensor");
    fn = PointwiseFn::LeakyRelu;
    alpha = float(slope.values.at(0));
  } else if (op == "Gelu") {
    if (onnxio::attrString(*node_, "approximate", "none") != "none")
      throw err("approximate = '" + onnxio::attrString(*node_, "approximate", "") +
                "' is not supported; only the exact GELU (approximate = 'none')");
    fn = PointwiseFn::Gelu;
  }
  const int y = newLike(x); // element-wise: the layout carries over
  Layer& l = addLayer(LayerKind::Pointwise, {x}, y);
  l.fn = fn;
  l.alpha = alpha;
  l.beta = beta;
  setActivation(y);
}

void Importer::scaleByConstant(int x, const Const& c, bool reciprocal) {
  const Shape s = tensor(x).shape;
  const int64_t n = c.numel();
  // A scalar, or one value per channel: [C] on [N, C]; [C, 1, 1] or [1, C, 1, 1] on a map.
  bool perChannel = n == 1;
  if (tensor(x).channelsLast && n > 1) {
    perChannel = n == s.c && lastAxisOnly(c.dims);
  } else if (n == s.c && n > 1) {
    const size_t r = c.dims.size();
    const int rank = rankOf(x);
    perChannel = (rank == 2 && (r == 1 || (r == 2 && c.dims[0] == 1))) ||
                 (rank == 4 && ((r == 3 && c.dims[1] == 1 && c.dims[2] == 1) ||
                                (r == 4 && c.dims[0] == 1 && c.dims[2] == 1 && c.dims[3] == 1)));
  }
  if (!perChannel || (tensor(x).chwFrom && n != 1))
    throw err("a product with a constant of shape " + dimsString(c.dims) + " on " +
              dimsString(tensor(x).onnxShape) +
              " is not supported; only a scalar or one value per channel");
  // y = x * c: a depthwise 1x1 convolution by c (folded into the layer before when it can be).
  const int y = newLike(x);
  Layer& l = addLayer(LayerKind::Conv, {x}, y);
  l.depthwise = true;
  l.weights.resize(size_t(s.c));
  for (int i = 0; i < s.c; ++i) {
    const double v = c.values[n == 1 ? 0 : size_t(i)];
    l.weights[size_t(i)] = float(reciprocal ? 1.0 / v : v);
    if (!std::isfinite(l.weights[size_t(i)]))
      throw err("the constant gives a non-finite factor (" + std::to_string(v) + ")");
  }
  setActivation(y);
}

void Importer::mul() {
  const Value &a = input(0), &b = input(1);
  if (a.isConst() || b.isConst()) {
    scaleByConstant(a.isConst() ? b.tensor : a.tensor, a.isConst() ? a.constant : b.constant,
                    false);
    return;
  }
  // The map first; the second factor has its shape or one value per image and channel
  // ([N, C, 1, 1], a squeeze-and-excitation scale).
  int x = a.tensor, s = b.tensor;
  auto perChannelOf = [&](int map, int t) {
    const Shape &m = tensor(map).shape, &v = tensor(t).shape;
    return v.h == 1 && v.w == 1 && v.n == m.n && v.c == m.c && rankOf(t) == rankOf(map);
  };
  if (tensor(x).shape != tensor(s).shape && perChannelOf(s, x))
    std::swap(x, s);
  const bool same = tensor(x).shape == tensor(s).shape;
  if (!same && !perChannelOf(x, s))
    throw err("inputs have shapes " + dimsString(tensor(a.tensor).onnxShape) + " and " +
              dimsString(tensor(b.tensor).onnxShape) +
              "; only equal shapes or a [N, C, 1, 1] factor on an [N, C, H, W] map are supported");
  if (tensor(x).chwFrom != tensor(s).chwFrom && same)
    throw err("inputs are flattened from different layouts");
  if (tensor(x).channelsLast != tensor(s).channelsLast)
    throw err("inputs are viewed in different axis orders (one channels-last)");
  const int y = newLike(x);
  addLayer(LayerKind::Mul, {x, s}, y);
  setActivation(y);
}

void Importer::divSub(bool div) {
  const Value &a = input(0), &b = input(1);
  if (a.isConst() || !b.isConst())
    throw err(std::string(div ? "division" : "subtraction") +
              " is supported only of an activation by a constant");
  if (div) {
    scaleByConstant(a.tensor, b.constant, true);
    return;
  }
  Const negated = b.constant;
  for (double& v : negated.values)
    v = -v;
  addConstant(a.tensor, negated);
}

bool Importer::readsChannelsLast(const std::string& op) {
  static const char* const kOps[] = {"Transpose",   "LayerNormalization",
                                     "MatMul",      "Add",
                                     "Sub",         "Mul",
                                     "Div",         "Gelu",
                                     "Relu",        "Clip",
                                     "Sigmoid",     "Tanh",
                                     "HardSigmoid", "HardSwish",
                                     "LeakyRelu",   "Elu",
                                     "PRelu",       "Identity",
                                     "Dropout"};
  for (const char* o : kOps)
    if (op == o)
      return true;
  return false;
}

void Importer::layerNorm() {
  requireSingleOutput();
  const int x = act(0);
  const Tensor& xt = tensor(x);
  const int rank = rankOf(x);
  int64_t axis = onnxio::attrInt(*node_, "axis", -1);
  if (axis < 0)
    axis += rank;
  // The channels are the last axis of a channels-last view or of an [N, C] matrix.
  if (axis != rank - 1 || !(xt.channelsLast || rank == 2) || xt.chwFrom)
    throw err("normalizing from axis " + std::to_string(axis) + " of " + dimsString(xt.onnxShape) +
              " is not supported; only over the channels: the last axis of [N, C] or of a "
              "channels-last view [N, H, W, C] (Transpose perm [0, 2, 3, 1]) (the op, or "
              "torch's ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div chain from this node)");
  const int c = xt.shape.c;
  auto perChannel = [&](int i, double dflt) {
    std::vector<float> v = std::vector<float>(size_t(c), float(dflt)); // input missing: dflt
    if (!hasInput(i))
      return v;
    const Const& k = cst(i);
    if (k.numel() != c && k.numel() != 1)
      throw err("input " + std::to_string(i) + " has shape " + dimsString(k.dims) + "; expected [" +
                std::to_string(c) + "]");
    for (int j = 0; j < c; ++j)
      v[size_t(j)] = float(k.values[k.numel() == 1 ? 0 : size_t(j)]);
    return v;
  };
  const float epsilon = onnxio::attrFloat(*node_, "epsilon", 1e-5f);
  if (!(epsilon >= 0) || !std::isfinite(epsilon))
    throw err("epsilon must be a finite number >= 0");
  const int y = newLike(x);
  Layer& l = addLayer(LayerKind::LayerNorm, {x}, y);
  l.weights = perChannel(1, 1.0);
  l.bias = perChannel(2, 0.0);
  l.epsilon = epsilon;
  setActivation(y);
}

void Importer::reduce(const std::string& op) {
  const bool isMax = op == "ReduceMax";
  const int x = act(0);
  const Tensor& xt = tensor(x);
  std::vector<int64_t> axes = onnxio::attrInts(*node_, "axes", {});
  if (hasInput(1)) // ReduceMax 18+: axes as an input (the compiler takes opsets up to 17)
    for (double v : cst(1).values)
      axes.push_back(int64_t(v));
  for (int64_t& v : axes)
    if (v < 0)
      v += int64_t(xt.onnxShape.size());
  std::sort(axes.begin(), axes.end());
  if (rankOf(x) != 4 || axes != std::vector<int64_t>{2, 3})
    throw err("reducing axes " + dimsString(axes) + " of " + dimsString(xt.onnxShape) +
              " is not supported; only over H and W (axes [2, 3]) of a 4-D map");
  const int64_t pixels = int64_t(xt.shape.h) * xt.shape.w;
  globalPool(isMax);
  const int mean = values_[node_->output(0)].tensor;
  if (onnxio::attrInt(*node_, "keepdims", 1) == 0) // [N, C]: the same data
    g_.tensors[mean].onnxShape = {xt.shape.n, xt.shape.c};
  if (op == "ReduceSum") { // the mean times the pixels (a per-channel scale, folded or not)
    g_.tensors[mean].name += ".mean";
    Const pixelCount;
    pixelCount.values = {double(pixels)};
    pixelCount.dims = {1};
    scaleByConstant(mean, pixelCount, false);
  }
}

} // namespace by::compiler::importer
