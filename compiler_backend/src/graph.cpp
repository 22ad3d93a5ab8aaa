#include "compiler/graph.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace by::compiler {

std::string Shape::str() const {
  return std::to_string(n) + "x" + std::to_string(h) + "x" + std::to_string(w) + "x" +
         std::to_string(c) + " (NHWC)";
}

const char* layerKindName(LayerKind kind) {
  switch (kind) {
  case LayerKind::Conv:
    return "conv";
  case LayerKind::Dense:
    return "dense";
  case LayerKind::Add:
    return "add";
  case LayerKind::MaxPool:
    return "maxpool";
  case LayerKind::AvgPool:
    return "avgpool";
  case LayerKind::GlobalAvgPool:
    return "global_avgpool";
  case LayerKind::Concat:
    return "concat";
  case LayerKind::Pad:
    return "pad";
  case LayerKind::Softmax:
    return "softmax";
  case LayerKind::Clamp:
    return "clamp";
  case LayerKind::Reorder:
    return "reorder";
  case LayerKind::Slice:
    return "slice";
  case LayerKind::Pointwise:
    return "pointwise";
  case LayerKind::Mul:
    return "mul";
  case LayerKind::Resize:
    return "resize";
  case LayerKind::LayerNorm:
    return "layernorm";
  }
  return "?";
}

const char* pointwiseFnName(PointwiseFn fn) {
  switch (fn) {
  case PointwiseFn::Sigmoid:
    return "sigmoid";
  case PointwiseFn::Tanh:
    return "tanh";
  case PointwiseFn::HardSigmoid:
    return "hard_sigmoid";
  case PointwiseFn::HardSwish:
    return "hard_swish";
  case PointwiseFn::Silu:
    return "silu";
  case PointwiseFn::LeakyRelu:
    return "leaky_relu";
  case PointwiseFn::Elu:
    return "elu";
  case PointwiseFn::Gelu:
    return "gelu";
  }
  return "?";
}

double applyPointwise(PointwiseFn fn, double x, double alpha, double beta) {
  const auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  switch (fn) {
  case PointwiseFn::Sigmoid:
    return sigmoid(x);
  case PointwiseFn::Tanh:
    return std::tanh(x);
  case PointwiseFn::HardSigmoid:
    return std::clamp(alpha * x + beta, 0.0, 1.0);
  case PointwiseFn::HardSwish:
    return x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0);
  case PointwiseFn::Silu:
    return x * sigmoid(x);
  case PointwiseFn::LeakyRelu:
    return x >= 0 ? x : alpha * x;
  case PointwiseFn::Elu:
    return x >= 0 ? x : alpha * (std::exp(x) - 1.0);
  case PointwiseFn::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  }
  return x;
}

std::string Activation::str() const {
  if (none())
    return "none";
  if (isRelu())
    return "relu";
  std::ostringstream s;
  s << "clip(" << (hasLo ? std::to_string(lo) : "-inf") << ", "
    << (hasHi ? std::to_string(hi) : "inf") << ")";
  return s.str();
}

std::vector<ResizeTap> resizeTaps(const ResizeRule& r, int in, int out, double scale) {
  std::vector<ResizeTap> taps(static_cast<size_t>(out));
  for (int x = 0; x < out; ++x) {
    double src; // the output index's coordinate in the input
    if (r.coordinates == "align_corners")
      src = out > 1 ? double(x) * (in - 1) / (out - 1) : 0.0;
    else if (r.coordinates == "asymmetric")
      src = double(x) / scale;
    else if (r.coordinates == "pytorch_half_pixel" && out == 1)
      src = 0.0;
    else // half_pixel, pytorch_half_pixel
      src = (double(x) + 0.5) / scale - 0.5;
    ResizeTap& t = taps[size_t(x)];
    if (r.linear) {
      src = std::clamp(src, 0.0, double(in - 1));
      t.i0 = int(std::floor(src));
      t.i1 = std::min(t.i0 + 1, in - 1);
      t.lambda = src - t.i0;
      t.w1 = int(std::lround(kResizeOne * t.lambda));
    } else {
      const double f = std::floor(src), frac = src - f;
      const double i = r.nearest == "floor"  ? f
                       : r.nearest == "ceil" ? std::ceil(src)
                       : frac == 0.5         ? (r.nearest == "round_prefer_ceil" ? f + 1 : f)
                                             : std::round(src);
      t.i0 = t.i1 = int(std::clamp(i, 0.0, double(in - 1)));
    }
  }
  return taps;
}

std::vector<int8_t> resizeMatrix(const ResizeRule& r, int in, int out, double scale) {
  std::vector<int8_t> m(size_t(out) * size_t(in), 0);
  const std::vector<ResizeTap> taps = resizeTaps(r, in, out, scale);
  for (int o = 0; o < out; ++o) {
    const ResizeTap& t = taps[size_t(o)];
    int8_t* row = m.data() + size_t(o) * size_t(in);
    row[t.i0] = int8_t(row[t.i0] + kResizeOne - t.w1);
    row[t.i1] = int8_t(row[t.i1] + t.w1);
  }
  return m;
}

namespace {
int windowOut(int in, int padA, int padB, int k, int stride, bool ceil) {
  const int span = in + padA + padB - k;
  if (span < 0)
    return 0;
  int out = (ceil ? (span + stride - 1) / stride : span / stride) + 1;
  // ONNX ceil mode: the last window must start inside the input or its left padding.
  if (ceil && (out - 1) * stride >= in + padA)
    --out;
  return out;
}
} // namespace

int Window::outH(int inH) const {
  return windowOut(inH, padT, padB, spanH(), strideH, ceilMode);
}
int Window::outW(int inW) const {
  return windowOut(inW, padL, padR, spanW(), strideW, ceilMode);
}

std::string Layer::opsString() const {
  std::string s;
  for (const std::string& op : onnxOps)
    s += (s.empty() ? "" : "+") + op;
  return s;
}

int Graph::storageOf(int t) const {
  while (tensors[t].aliasOf >= 0)
    t = tensors[t].aliasOf;
  return t;
}

std::vector<int> Graph::aliasGroup(int t) const {
  std::vector<int> group;
  const int root = storageOf(t);
  for (int i = 0; i < int(tensors.size()); ++i)
    if (storageOf(i) == root)
      group.push_back(i);
  return group;
}

std::vector<int> Graph::consumers(int t) const {
  std::vector<int> result;
  for (int i = 0; i < int(layers.size()); ++i)
    for (int in : layers[i].inputs)
      if (in == t) {
        result.push_back(i);
        break;
      }
  return result;
}

int Graph::addTensor(Tensor t) {
  tensors.push_back(std::move(t));
  return int(tensors.size()) - 1;
}

int64_t Graph::macs(const Layer& l) const {
  const Shape& out = tensors[l.output].shape;
  switch (l.kind) {
  case LayerKind::Conv: {
    const int64_t perOutput =
        int64_t(l.window.kh) * l.window.kw *
        (l.depthwise ? 1 : tensors[l.inputs[0]].shape.c / l.groups); // not the zeros across groups
    // Fused pooling: the convolution's own output size.
    const Shape& in = tensors[l.inputs[0]].shape;
    const int64_t convPixels = int64_t(in.n) * l.window.outH(in.h) * l.window.outW(in.w);
    return convPixels * out.c * perOutput;
  }
  case LayerKind::Dense:
    return out.pixels() * out.c * tensors[l.inputs[0]].shape.c;
  default:
    return 0;
  }
}

namespace {
/// Elements before axis k of NHWC (runs), the extent of axis k, and the elements inside one
/// index of it.
struct AxisSplit {
  int64_t outer, extent, inner;
};
AxisSplit splitAt(const Shape& s, int k) {
  switch (k) {
  case 1:
    return {s.n, s.h, int64_t(s.w) * s.c};
  case 2:
    return {int64_t(s.n) * s.h, s.w, s.c};
  default:
    return {s.pixels(), s.c, 1};
  }
}
} // namespace

Copy2d Graph::copyOf(const Layer& l, size_t i) const {
  const AxisSplit out = splitAt(tensors[l.output].shape, l.axis);
  Copy2d c;
  c.rows = out.outer;
  if (l.kind == LayerKind::Slice) {
    const AxisSplit in = splitAt(tensors[l.inputs[0]].shape, l.axis);
    c.cols = out.extent * out.inner;
    c.src = l.sliceBegin * in.inner;
    c.lds = in.extent * in.inner;
    c.ldd = c.cols;
    return c;
  }
  int64_t offset = 0; // Concat: the inputs before i along the axis
  for (size_t k = 0; k < i; ++k)
    offset += splitAt(tensors[l.inputs[k]].shape, l.axis).extent;
  c.cols = splitAt(tensors[l.inputs[i]].shape, l.axis).extent * out.inner;
  c.lds = c.cols;
  c.dst = offset * out.inner;
  c.ldd = out.extent * out.inner;
  return c;
}

} // namespace by::compiler
