// ONNX -> graph IR (compiler/onnx_import.h). One method per op family; docs/compiler.md lists
// what each accepts.
#include "compiler/onnx_import.h"

#include "onnx_importer.h"
#include "support/hash.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <set>
#include <sstream>
#include <variant>

namespace by::compiler {
namespace importer {
namespace {

constexpr int64_t kMinOpset = 11, kMaxOpset = 17;

const char* const kRequantizeHint =
    "re-quantize with symmetric int8 activations and weights (onnxruntime: quantize_static(..., "
    "activation_type=QuantType.QInt8, weight_type=QuantType.QInt8, extra_options="
    "{'ActivationSymmetric': True, 'WeightSymmetric': True})), or give brickyard the float "
    "model and let it quantize";

} // namespace

// ------------------------------------------------------------------------------------------

void Importer::requireSingleOutput() {
  for (int i = 1; i < node_->output_size(); ++i)
    if (!node_->output(i).empty()) {
      // Only an error if something reads it.
      for (const auto& n : model_.graph().node())
        for (const auto& in : n.input())
          if (in == node_->output(i))
            throw err("output " + std::to_string(i) + " ('" + node_->output(i) +
                      "') is used; only the first output of this op is supported (inference)");
      for (const auto& o : model_.graph().output())
        if (o.name() == node_->output(i))
          throw err("output " + std::to_string(i) +
                    " is a model output; only the first output "
                    "of this op is supported (inference)");
    }
}

int Importer::newLike(int x) {
  const int y = newTensor(tensor(x).shape, tensor(x).onnxShape);
  g_.tensors[y].chwFrom = tensor(x).chwFrom;
  g_.tensors[y].channelsLast = tensor(x).channelsLast;
  return y;
}

bool Importer::lastAxisOnly(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    if (dims[i] != 1)
      return false;
  return true;
}

int Importer::newTensor(const Shape& shape, const std::vector<int64_t>& onnxShape) {
  Tensor t;
  t.name = node_ && node_->output_size() ? node_->output(0) : "input";
  t.shape = shape;
  t.onnxShape = onnxShape;
  if (shape.n <= 0 || shape.h <= 0 || shape.w <= 0 || shape.c <= 0)
    throw err("output shape " + dimsString(onnxShape) + " is empty");
  return g_.addTensor(std::move(t));
}

Layer& Importer::addLayer(LayerKind kind, std::vector<int> inputs, int output) {
  Layer l;
  l.kind = kind;
  l.name = nodeName(*node_);
  l.onnxNodes = {l.name};
  l.onnxOps = {node_->op_type()};
  l.inputs = std::move(inputs);
  l.output = output;
  g_.layers.push_back(std::move(l));
  return g_.layers.back();
}

Shape Importer::fromOnnx(const std::vector<int64_t>& d) const {
  for (int64_t v : d)
    if (v <= 0 || v > (int64_t(1) << 30))
      throw CompileError("shape " + dimsString(d) + " has an empty or huge dimension");
  if (d.size() == 4)
    return Shape{int(d[0]), int(d[2]), int(d[3]), int(d[1])};
  if (d.size() == 2)
    return Shape{int(d[0]), 1, 1, int(d[1])};
  if (d.size() == 3) // [N, C, L]: a 1-D map, one row of L pixels
    return Shape{int(d[0]), 1, int(d[2]), int(d[1])};
  throw CompileError("shape " + dimsString(d) + " has rank " + std::to_string(d.size()) +
                     "; the compiler handles [N, C] and [N, C, H, W] activations");
}

// ---- model level --------------------------------------------------------------------------

void Importer::checkOpsets() {
  bool found = false;
  for (const auto& op : model_.opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") {
      found = true;
      g_.opset = op.version();
      if (op.version() < kMinOpset || op.version() > kMaxOpset)
        throw CompileError("opset " + std::to_string(op.version()) + " is not supported (" +
                           std::to_string(kMinOpset) + "-" + std::to_string(kMaxOpset) +
                           "); convert the model with onnx.version_converter.convert_version("
                           "model, 13)");
    }
  }
  if (!found)
    throw CompileError("the model imports no default-domain (ai.onnx) opset");
}

void Importer::runShapeInference() {
  try {
    onnx::shape_inference::InferShapes(model_);
  } catch (const std::exception& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw CompileError("ONNX shape inference failed: " + what);
  }
  for (const auto& v : model_.graph().value_info()) {
    std::vector<int64_t> dims;
    if (onnxio::staticShape(v, dims))
      inferred_[v.name()] = dims;
  }
}

void Importer::importInputs() {
  std::map<std::string, bool> isInit;
  for (const auto& init : model_.graph().initializer())
    isInit[init.name()] = true;
  const onnx::ValueInfoProto* in = nullptr;
  for (const auto& v : model_.graph().input()) {
    if (isInit.count(v.name()))
      continue;
    if (in)
      throw CompileError("the model has several inputs ('" + in->name() + "', '" + v.name() +
                         "'); the compiler takes models with one input tensor");
    in = &v;
  }
  if (!in)
    throw CompileError("the model has no input tensor");
  const auto& type = in->type();
  if (!type.has_tensor_type() || type.tensor_type().elem_type() != onnx::TensorProto_DataType_FLOAT)
    throw CompileError("input '" + in->name() +
                       "' is not a float tensor; the compiler takes float inputs (pre-quantized "
                       "models start with a QuantizeLinear)");
  if (!type.tensor_type().has_shape())
    throw CompileError("input '" + in->name() +
                       "' has no shape; export the model with a fixed "
                       "input shape");
  std::vector<int64_t> dims;
  const auto& shapeProto = type.tensor_type().shape();
  for (int i = 0; i < shapeProto.dim_size(); ++i) {
    const auto& d = shapeProto.dim(i);
    if (i == 0 && options_.batch > 0) {
      dims.push_back(options_.batch);
    } else if (d.has_dim_value() && d.dim_value() > 0) {
      dims.push_back(d.dim_value());
    } else {
      const std::string sym = d.has_dim_param() ? "'" + d.dim_param() + "'" : "unknown";
      throw CompileError("input '" + in->name() + "' dimension " + std::to_string(i) + " is " +
                         sym + " (dynamic); " +
                         (i == 0 ? "give --batch N" : "export the model with a fixed shape"));
    }
  }
  if (dims.size() != 2 && dims.size() != 4)
    throw CompileError("input '" + in->name() + "' has shape " + dimsString(dims) +
                       "; the compiler takes [N, C] or [N, C, H, W] inputs");
  // The (possibly overridden) batch goes back into the model for shape inference; shapes
  // recorded for the old batch (value_info, outputs) are dropped or made symbolic.
  auto* mutableIn = const_cast<onnx::ValueInfoProto*>(in);
  auto* shape = mutableIn->mutable_type()->mutable_tensor_type()->mutable_shape();
  const bool batchChanged = !shape->dim(0).has_dim_value() || shape->dim(0).dim_value() != dims[0];
  for (int i = 0; i < shape->dim_size(); ++i)
    shape->mutable_dim(i)->set_dim_value(dims[i]);
  if (batchChanged) {
    model_.mutable_graph()->clear_value_info();
    for (auto& out : *model_.mutable_graph()->mutable_output())
      if (out.type().tensor_type().has_shape() && out.type().tensor_type().shape().dim_size() > 0)
        out.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param(
            "batch");
  }
  const int t = g_.addTensor(Tensor{in->name(), fromOnnx(dims), dims, {}, -1, 0, 0});
  g_.input = t;
  values_[in->name()] = Value{t, {}};
}

void Importer::importOutput() {
  if (model_.graph().output_size() != 1)
    throw CompileError("the model has " + std::to_string(model_.graph().output_size()) +
                       " outputs; the compiler takes models with one output tensor");
  const std::string& name = model_.graph().output(0).name();
  auto it = values_.find(name);
  if (it == values_.end())
    throw CompileError("output '" + name + "' is not produced by any node");
  if (it->second.isConst())
    throw CompileError("output '" + name + "' is a constant; nothing to compute");
  int t = it->second.tensor;
  if (t == g_.input)
    throw CompileError("output '" + name + "' is the input; nothing to compute");
  g_.output = t;
}

// ---- shapes of windows --------------------------------------------------------------------

Window Importer::windowAttrs(const Shape& in, int kh, int kw, bool dilationTaken) {
  Window w;
  w.kh = kh;
  w.kw = kw;
  const auto strides = onnxio::attrInts(*node_, "strides", {1, 1});
  const auto dil = onnxio::attrInts(*node_, "dilations", {1, 1});
  if (strides.size() != 2 || strides[0] <= 0 || strides[1] <= 0)
    throw err("strides " + dimsString(strides) + " must be two positive numbers");
  if (!dilationTaken && (dil.size() != 2 || dil[0] != 1 || dil[1] != 1))
    throw err("dilations " + dimsString(dil) + " are not supported here; only 1");
  w.strideH = int(strides[0]);
  w.strideW = int(strides[1]);
  const std::string autoPad = onnxio::attrString(*node_, "auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    const auto pads = onnxio::attrInts(*node_, "pads", {0, 0, 0, 0});
    if (pads.size() != 4)
      throw err("pads " + dimsString(pads) + " must have 4 values (2-D)");
    for (int64_t p : pads)
      if (p < 0 || p > 1024)
        throw err("pads " + dimsString(pads) + " must be in 0..1024");
    w.padT = int(pads[0]);
    w.padL = int(pads[1]);
    w.padB = int(pads[2]);
    w.padR = int(pads[3]);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    auto same = [&](int size, int k, int s, int& a, int& b) {
      const int out = (size + s - 1) / s;
      const int total = std::max((out - 1) * s + k - size, 0);
      a = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      b = total - a;
    };
    same(in.h, kh, w.strideH, w.padT, w.padB);
    same(in.w, kw, w.strideW, w.padL, w.padR);
  } else if (autoPad != "VALID") {
    throw err("auto_pad '" + autoPad + "' is not an ONNX value");
  }
  w.ceilMode = onnxio::attrInt(*node_, "ceil_mode", 0) != 0;
  if (w.outH(in.h) <= 0 || w.outW(in.w) <= 0)
    throw err("the " + std::to_string(kh) + "x" + std::to_string(kw) + " window does not fit the " +
              std::to_string(in.h) + "x" + std::to_string(in.w) + " input with its padding");
  return w;
}

void Importer::checkInferredShape(int t, const std::string& name) {
  auto it = inferred_.find(name);
  if (it == inferred_.end())
    return;
  int64_t n = 1;
  for (int64_t d : it->second)
    n *= d;
  if (n != tensor(t).shape.elems())
    throw err("the compiler computes output shape " + dimsString(tensor(t).onnxShape) +
              " but ONNX shape inference says " + dimsString(it->second));
}

// ---- convolution and dense layers ----------------------------------------------------------

void Importer::conv(int x, const Const& w, const Const* b, double outFixedScale) {
  const Shape in = tensor(x).shape;
  if (rankOf(x) != 4 && rankOf(x) != 3)
    throw err("input has shape " + dimsString(tensor(x).onnxShape) +
              "; a convolution needs [N, C, H, W]");
  const bool conv1d = rankOf(x) == 3;
  if (w.dims.size() != (conv1d ? 3u : 4u))
    throw err("weights have shape " + dimsString(w.dims) + "; expected [M, C/group, kH, kW]");
  const int m = int(w.dims[0]), cg = int(w.dims[1]);
  const int kh = conv1d ? 1 : int(w.dims[2]), kw = int(w.dims[conv1d ? 2 : 3]);
  const int64_t group = onnxio::attrInt(*node_, "group", 1);
  if (group <= 0 || in.c % group != 0 || cg * group != in.c)
    throw err("weights " + dimsString(w.dims) + " with group " + std::to_string(group) +
              " do not match " + std::to_string(in.c) + " input channels");
  if (m % group != 0)
    throw err(std::to_string(m) + " output channels do not divide into " + std::to_string(group) +
              " groups");
  // Depthwise: one filter per channel. Any other group count (channel multipliers included)
  // is a grouped convolution: dense block-diagonal weights, cut into pieces by the passes.
  const bool depthwise = group > 1 && group == in.c && m == in.c;
  Window win; // a 1-D conv is a 2-D one over a 1-row image
  int dilH = 1, dilW = 1;
  if (conv1d) {
    const auto s = onnxio::attrInts(*node_, "strides", {1});
    const auto p = onnxio::attrInts(*node_, "pads", {0, 0});
    const auto d = onnxio::attrInts(*node_, "dilations", {1});
    if (s.size() != 1 || p.size() != 2 || d.size() != 1 || d[0] != 1 || s[0] <= 0)
      throw err("1-D strides/pads/dilations " + dimsString(s) + "/" + dimsString(p) + "/" +
                dimsString(d) + " are not supported (dilation must be 1)");
    if (onnxio::attrString(*node_, "auto_pad", "NOTSET") != "NOTSET")
      throw err("auto_pad on a 1-D convolution is not supported; give pads");
    win.kw = kw;
    win.strideW = int(s[0]);
    win.padL = int(p[0]);
    win.padR = int(p[1]);
  } else {
    const auto ks = onnxio::attrInts(*node_, "kernel_shape", {kh, kw});
    if (ks.size() != 2 || ks[0] != kh || ks[1] != kw)
      throw err("kernel_shape " + dimsString(ks) + " does not match the weights " +
                dimsString(w.dims));
    const auto dil = onnxio::attrInts(*node_, "dilations", {1, 1});
    if (dil.size() != 2 || dil[0] <= 0 || dil[1] <= 0 || dil[0] > 64 || dil[1] > 64)
      throw err("dilations " + dimsString(dil) + " must be two numbers in 1..64");
    dilH = int(dil[0]);
    dilW = int(dil[1]);
    win = windowAttrs(in, (kh - 1) * dilH + 1, (kw - 1) * dilW + 1, true);
    // by_conv takes one dilation for both axes (an axis of one tap has none): the kernel keeps
    // its taps, dilated. Else the kernel becomes that of its whole span, zeros between the taps.
    if (kh == 1 || kw == 1 || dilH == dilW) {
      win.kh = kh;
      win.kw = kw;
      win.dilH = win.dilW = kh > 1 ? dilH : kw > 1 ? dilW : 1;
      dilH = dilW = 1; // nothing to expand
    }
  }
  if (win.outH(in.h) <= 0 || win.outW(in.w) <= 0)
    throw err("the kernel does not fit the input with its padding");
  Shape out{in.n, win.outH(in.h), win.outW(in.w), m};
  std::vector<int64_t> onnxShape = conv1d ? std::vector<int64_t>{out.n, out.c, out.w}
                                          : std::vector<int64_t>{out.n, out.c, out.h, out.w};
  const int y = newTensor(out, onnxShape);
  g_.tensors[y].fixedScale = outFixedScale;
  Layer& l = addLayer(LayerKind::Conv, {x}, y);
  l.window = win;
  l.depthwise = depthwise;
  l.fixedWeightScale = w.qscale;
  const int cin = depthwise ? 1 : in.c;
  if (group > 1 && !depthwise)
    groupedWeights(l, w, in.c, int(group), kh, kw);
  else
    l.weights.resize(size_t(kh) * kw * cin * m);
  for (int o = 0; o < m && l.groups == 1; ++o)
    for (int c = 0; c < cin; ++c)
      for (int i = 0; i < kh; ++i)
        for (int j = 0; j < kw; ++j) {
          const double v = w.values[((size_t(o) * cin + c) * kh + i) * kw + j];
          if (depthwise)
            l.weights[(size_t(o) * kh + i) * kw + j] = float(v);
          else
            l.weights[((size_t(i) * kw + j) * cin + c) * m + o] = float(v);
        }
  if (dilH > 1 || dilW > 1)
    dilateKernel(l, kh, kw, dilH, dilW);
  if (b) {
    if (b->numel() != m)
      throw err("bias has " + std::to_string(b->numel()) + " values for " + std::to_string(m) +
                " output channels");
    l.bias.assign(b->values.begin(), b->values.end());
  }
  setActivation(y);
  checkInferredShape(y, node_->output(0));
}

void Importer::convNode() {
  const int x = act(0);
  conv(x, cst(1), hasInput(2) ? &cst(2) : nullptr, 0);
}

void Importer::batchNorm() {
  requireSingleOutput();
  if (onnxio::attrInt(*node_, "training_mode", 0) != 0)
    throw err("training_mode = 1 is not supported (inference only)");
  const int x = act(0);
  const Shape in = tensor(x).shape;
  const float eps = onnxio::attrFloat(*node_, "epsilon", 1e-5f);
  const Const &gamma = cst(1), &beta = cst(2), &mean = cst(3), &var = cst(4);
  for (const Const* c : {&gamma, &beta, &mean, &var})
    if (c->numel() != in.c)
      throw err("a parameter has " + std::to_string(c->numel()) + " values for " +
                std::to_string(in.c) + " channels");
  // y = gamma * (x - mean) / sqrt(var + eps) + beta: a depthwise 1x1 convolution, which the
  // passes fold into the convolution before it.
  const int y = newTensor(in, tensor(x).onnxShape);
  Layer& l = addLayer(LayerKind::Conv, {x}, y);
  l.depthwise = true;
  l.weights.resize(in.c);
  l.bias.resize(in.c);
  for (int c = 0; c < in.c; ++c) {
    const double a = gamma.values[c] / std::sqrt(var.values[c] + double(eps));
    if (!std::isfinite(a))
      throw err("channel " + std::to_string(c) + " has a non-finite scale (variance " +
                std::to_string(var.values[c]) + ")");
    l.weights[c] = float(a);
    l.bias[c] = float(beta.values[c] - mean.values[c] * a);
  }
  setActivation(y);
}

void Importer::dense(int x, const Const& w, bool transB, float alpha, const Const* c, float beta,
                     double outFixedScale) {
  const Tensor& xt = tensor(x);
  if (xt.shape.h != 1 || xt.shape.w != 1 || rankOf(x) != 2)
    throw err("input has shape " + dimsString(xt.onnxShape) +
              "; a matrix product needs a 2-D [N, K] input (Flatten it first)");
  if (w.dims.size() != 2)
    throw err("weights have shape " + dimsString(w.dims) + "; expected a 2-D matrix");
  const int k = xt.shape.c;
  const int rows = int(transB ? w.dims[1] : w.dims[0]);
  const int j = int(transB ? w.dims[0] : w.dims[1]);
  if (rows != k)
    throw err("weights " + dimsString(w.dims) + (transB ? " (transposed)" : "") +
              " do not match the input's " + std::to_string(k) + " columns");
  const int y = newTensor(Shape{xt.shape.n, 1, 1, j}, {xt.shape.n, j});
  g_.tensors[y].fixedScale = outFixedScale;
  Layer& l = addLayer(LayerKind::Dense, {x}, y);
  l.fixedWeightScale = alpha == 1.0f ? w.qscale : 0;
  l.weights.resize(size_t(k) * j);
  // The input's data may be a flattened NHWC map: row r of the weights goes where the input
  // keeps ONNX element r.
  const std::optional<Shape> chw = xt.chwFrom;
  for (int r = 0; r < k; ++r) {
    int phys = r;
    if (chw) {
      const int ch = r / (chw->h * chw->w), rem = r % (chw->h * chw->w);
      phys = rem * chw->c + ch;
    }
    for (int o = 0; o < j; ++o) {
      const double v = transB ? w.values[size_t(o) * k + r] : w.values[size_t(r) * j + o];
      l.weights[size_t(phys) * j + o] = float(alpha * v);
    }
  }
  if (c) {
    std::vector<double> b(j, 0);
    const int64_t n = c->numel();
    if (n == 1) {
      std::fill(b.begin(), b.end(), c->values[0]);
    } else if (n == j && (c->dims.size() == 1 || (c->dims.size() == 2 && c->dims[0] == 1))) {
      b = c->values;
    } else {
      throw err("bias C of shape " + dimsString(c->dims) + " is not supported; only [" +
                std::to_string(j) + "], [1, " + std::to_string(j) + "] or a scalar");
    }
    l.bias.resize(j);
    for (int o = 0; o < j; ++o)
      l.bias[o] = float(beta * b[o]);
  }
  setActivation(y);
  checkInferredShape(y, node_->output(0));
}

void Importer::gemm() {
  if (onnxio::attrInt(*node_, "transA", 0) != 0)
    throw err("transA = 1 is not supported (the activation must be [N, K])");
  const int x = act(0);
  if (!input(1).isConst())
    throw err("B is an activation; only a constant (weight) B is supported");
  dense(x, cst(1), onnxio::attrInt(*node_, "transB", 0) != 0,
        onnxio::attrFloat(*node_, "alpha", 1.0f), hasInput(2) ? &cst(2) : nullptr,
        onnxio::attrFloat(*node_, "beta", 1.0f), 0);
}

void Importer::matmul() {
  const int x = act(0);
  if (!input(1).isConst())
    throw err("the right-hand side is an activation; only MatMul by a constant (weight) matrix "
              "is supported");
  if (!tensor(x).channelsLast) {
    dense(x, cst(1), false, 1.0f, nullptr, 1.0f, 0);
    return;
  }
  // [N, H, W, C] x [C, J]: a 1x1 convolution whose output is viewed channels-last too.
  const Const& w = cst(1);
  const int c = tensor(x).shape.c;
  if (w.dims.size() != 2 || w.dims[0] != c)
    throw err("weights have shape " + dimsString(w.dims) + "; expected [" + std::to_string(c) +
              ", J] for the channels-last " + dimsString(tensor(x).onnxShape));
  const int j = int(w.dims[1]);
  Const kernel; // [J, C, 1, 1]
  kernel.dims = {j, c, 1, 1};
  kernel.dataType = w.dataType;
  kernel.qscale = w.qscale;
  kernel.values.resize(size_t(j) * c);
  for (int r = 0; r < c; ++r)
    for (int o = 0; o < j; ++o)
      kernel.values[size_t(o) * c + r] = w.values[size_t(r) * j + o];
  conv(x, kernel, nullptr, 0);
  Tensor& y = g_.tensors[values_[node_->output(0)].tensor];
  y.channelsLast = true;
  y.onnxShape = {y.shape.n, y.shape.h, y.shape.w, y.shape.c};
}

void Importer::add() {
  const Value &a = input(0), &b = input(1);
  if (a.isConst() && b.isConst()) {
    Const c = a.constant;
    if (c.numel() != b.constant.numel())
      throw err("adding constants of different shapes is not supported");
    for (size_t i = 0; i < c.values.size(); ++i)
      c.values[i] += b.constant.values[i];
    setConst(std::move(c));
    return;
  }
  if (a.isConst() || b.isConst()) {
    addConstant(a.isConst() ? b.tensor : a.tensor, a.isConst() ? a.constant : b.constant);
    return;
  }
  if (tensor(a.tensor).shape != tensor(b.tensor).shape)
    throw err("inputs have shapes " + dimsString(tensor(a.tensor).onnxShape) + " and " +
              dimsString(tensor(b.tensor).onnxShape) +
              "; only the element-wise sum of equal shapes is supported (no broadcasting)");
  if (tensor(a.tensor).chwFrom != tensor(b.tensor).chwFrom ||
      tensor(a.tensor).channelsLast != tensor(b.tensor).channelsLast)
    throw err("inputs are flattened from different layouts or viewed in different axis orders");
  const int y = newLike(a.tensor);
  addLayer(LayerKind::Add, {a.tensor, b.tensor}, y);
  setActivation(y);
}

void Importer::addConstant(int x, const Const& c) {
  // A per-channel constant: the bias of the layer before (folded by the passes).
  const Shape s = tensor(x).shape;
  const int rank = rankOf(x);
  const int64_t n = c.numel();
  bool perChannel = n == 1 || (n == s.c && (c.dims.size() == 1 ? rank == 2 : true));
  if (tensor(x).channelsLast && n > 1)
    perChannel = n == s.c && lastAxisOnly(c.dims);
  else if (n == s.c && c.dims.size() >= 2) {
    // [1, C] for 2-D; [C, 1, 1] or [1, C, 1, 1] for 4-D.
    const size_t r = c.dims.size();
    perChannel = (rank == 2 && r == 2 && c.dims[0] == 1) ||
                 (rank == 4 && ((r == 3 && c.dims[1] == 1 && c.dims[2] == 1) ||
                                (r == 4 && c.dims[0] == 1 && c.dims[2] == 1 && c.dims[3] == 1)));
  }
  if (!perChannel)
    throw err("adding a constant of shape " + dimsString(c.dims) + " to " +
              dimsString(tensor(x).onnxShape) +
              " is not supported; only a per-channel constant (a bias)");
  if (tensor(x).chwFrom && n != 1)
    throw err("adding a per-channel constant to a flattened map is not supported");
  const int y = newLike(x);
  Layer& l = addLayer(LayerKind::Add, {x}, y);
  l.bias.resize(s.c);
  for (int i = 0; i < s.c; ++i)
    l.bias[i] = float(c.values[n == 1 ? 0 : i]);
  setActivation(y);
}

// ---- pooling ------------------------------------------------------------------------------

void Importer::pool(bool isMax) {
  requireSingleOutput();
  const int x = act(0);
  if (rankOf(x) != 4)
    throw err("input has shape " + dimsString(tensor(x).onnxShape) + "; pooling needs 4-D");
  const Shape in = tensor(x).shape;
  const auto ks = onnxio::attrInts(*node_, "kernel_shape", {});
  if (ks.size() != 2 || ks[0] <= 0 || ks[1] <= 0)
    throw err("kernel_shape " + dimsString(ks) + " must be two positive numbers (2-D pooling)");
  if (isMax && onnxio::attrInt(*node_, "storage_order", 0) != 0 && node_->output_size() > 1)
    throw err("storage_order for indices is not supported");
  Window w = windowAttrs(in, int(ks[0]), int(ks[1]));
  w.countIncludePad = !isMax && onnxio::attrInt(*node_, "count_include_pad", 0) != 0;
  if (w.padT >= w.kh || w.padB >= w.kh || w.padL >= w.kw || w.padR >= w.kw)
    throw err("padding must be smaller than the window");
  const Shape out{in.n, w.outH(in.h), w.outW(in.w), in.c};
  const int y = newTensor(out, {out.n, out.c, out.h, out.w});
  Layer& l = addLayer(isMax ? LayerKind::MaxPool : LayerKind::AvgPool, {x}, y);
  l.window = w;
  setActivation(y);
  checkInferredShape(y, node_->output(0));
}

void Importer::globalPool(bool isMax) {
  const int x = act(0);
  if (rankOf(x) != 4)
    throw err("input has shape " + dimsString(tensor(x).onnxShape) + "; expected 4-D");
  const Shape in = tensor(x).shape;
  const int y = newTensor(Shape{in.n, 1, 1, in.c}, {in.n, in.c, 1, 1});
  if (isMax) {
    Layer& l = addLayer(LayerKind::MaxPool, {x}, y);
    l.window.kh = in.h;
    l.window.kw = in.w;
  } else {
    addLayer(LayerKind::GlobalAvgPool, {x}, y);
  }
  setActivation(y);
}

void Importer::activation(const std::string& op) {
  const int x = act(0);
  Activation a;
  if (op == "Relu") {
    a.hasLo = true;
  } else { // Clip
    auto bound = [&](int input, const char* attr, bool& has, float& v) {
      if (g_.opset >= 11) {
        if (hasInput(input)) {
          const Const& c = cst(input);
          if (c.numel() != 1)
            throw err(std::string(attr) + " must be a scalar");
          has = true;
          v = float(c.values[0]);
        }
      } else if (const auto* at = onnxio::findAttr(*node_, attr)) {
        has = true;
        v = at->f();
      }
    };
    bound(1, "min", a.hasLo, a.lo);
    bound(2, "max", a.hasHi, a.hi);
    if (a.hasLo && a.hasHi && a.lo >= a.hi)
      throw err("min " + std::to_string(a.lo) + " is not below max " + std::to_string(a.hi));
  }
  if (a.none()) { // Clip without bounds is the identity
    setActivation(x);
    return;
  }
  const int y = newLike(x); // element-wise: the layout carries over
  addLayer(LayerKind::Clamp, {x}, y).act = a;
  setActivation(y);
}

// ---- reshaping ----------------------------------------------------------------------------

void Importer::reshapeLike(const std::vector<int64_t>& target) {
  const int x = act(0);
  const Tensor& xt = tensor(x);
  int64_t n = 1;
  for (int64_t d : target)
    n *= d;
  if (n != xt.shape.elems())
    throw err("cannot reshape " + dimsString(xt.onnxShape) + " into " + dimsString(target));
  // Accepted: dims of 1 added or removed (the data keeps its order), and flattening a map
  // into [N, C*H*W] (the data stays NHWC; the next matrix product's weights are permuted).
  auto squeezed = [](const std::vector<int64_t>& d) {
    std::vector<int64_t> s;
    for (int64_t v : d)
      if (v != 1)
        s.push_back(v);
    return s;
  };
  const Shape& s = xt.shape;
  Tensor y;
  y.name = node_->output(0);
  y.onnxShape = target;
  y.aliasOf = x;
  y.fixedScale = xt.fixedScale;
  const bool isFlatten = target.size() == 2 && target[0] == s.n;
  const bool mapIn = s.h * s.w > 1 && s.c > 1;
  if (xt.chwFrom && target.size() == 4 && target[0] == xt.chwFrom->n &&
      target[1] == xt.chwFrom->c && target[2] == xt.chwFrom->h && target[3] == xt.chwFrom->w) {
    y.shape = *xt.chwFrom; // un-flattening restores the map
  } else if (target.size() != 2 && target.size() != 4 && target.size() != 3) {
    throw err("reshape to " + dimsString(target) + " (rank " + std::to_string(target.size()) +
              ") is not supported; activations are [N, C] or [N, C, H, W]");
  } else if (isFlatten && (mapIn || xt.chwFrom)) {
    y.shape = Shape{s.n, 1, 1, int(target[1])};
    y.chwFrom = xt.chwFrom ? xt.chwFrom : std::optional<Shape>(s);
  } else if (!xt.chwFrom && !mapIn && squeezed(target) == squeezed(xt.onnxShape)) {
    y.shape = fromOnnx(target);
  } else if (!xt.chwFrom && s.c == 1 && squeezed(target) == squeezed(xt.onnxShape)) {
    y.shape = fromOnnx(target);
  } else {
    throw err("reshape of " + dimsString(xt.onnxShape) + " into " + dimsString(target) +
              " would reorder the data; only flattening [N, C, H, W] into [N, C*H*W] and "
              "adding or removing dimensions of size 1 are supported");
  }
  if (y.shape.elems() != s.elems())
    throw err("cannot reshape " + dimsString(xt.onnxShape) + " into " + dimsString(target));
  setActivation(g_.addTensor(std::move(y)));
}

void Importer::reshape() {
  const Const& shape = cst(1);
  // The input's dims and size: an activation, or the 5-D view of a channel shuffle.
  std::vector<int64_t> inDims;
  auto view = shuffles_.find(node_->input(0));
  if (view != shuffles_.end()) {
    const ShuffleView& v = view->second;
    const Shape& s = tensor(v.tensor).shape;
    const int64_t g = v.groups, cg = s.c / v.groups;
    inDims = {s.n, v.transposed ? cg : g, v.transposed ? g : cg, s.h, s.w};
  } else {
    inDims = tensor(act(0)).onnxShape;
  }
  int64_t elems = 1;
  for (int64_t d : inDims)
    elems *= d;
  const bool allowZero = onnxio::attrInt(*node_, "allowzero", 0) != 0;
  std::vector<int64_t> target;
  int minusOne = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.values.size(); ++i) {
    int64_t d = int64_t(shape.values[i]);
    if (d == 0 && !allowZero) {
      if (i >= inDims.size())
        throw err("shape " + dimsString(target) + " copies a dimension the input lacks");
      d = inDims[i];
    }
    if (d == -1) {
      if (minusOne >= 0)
        throw err("shape has two -1 dimensions");
      minusOne = int(i);
    } else if (d <= 0) {
      throw err("shape value " + std::to_string(d) + " is not supported");
    } else {
      known *= d;
    }
    target.push_back(d);
  }
  if (minusOne >= 0) {
    if (known == 0 || elems % known != 0)
      throw err("cannot infer the -1 dimension");
    target[minusOne] = elems / known;
  }
  if (!shuffleReshape(target))
    reshapeLike(target);
}

void Importer::flatten() {
  const int x = act(0);
  const auto& d = tensor(x).onnxShape;
  int64_t axis = onnxio::attrInt(*node_, "axis", 1);
  if (axis < 0)
    axis += int64_t(d.size());
  if (axis < 0 || axis > int64_t(d.size()))
    throw err("axis " + std::to_string(axis) + " is out of range");
  int64_t a = 1, b = 1;
  for (size_t i = 0; i < d.size(); ++i)
    (int64_t(i) < axis ? a : b) *= d[i];
  reshapeLike({a, b});
}

void Importer::squeeze(bool un) {
  const int x = act(0);
  std::vector<int64_t> axes;
  if (g_.opset >= 13) {
    if (hasInput(1))
      for (double v : cst(1).values)
        axes.push_back(int64_t(v));
  } else {
    axes = onnxio::attrInts(*node_, "axes", {});
  }
  std::vector<int64_t> d = tensor(x).onnxShape;
  if (un) {
    const int64_t outRank = int64_t(d.size() + axes.size());
    for (int64_t& a : axes)
      if (a < 0)
        a += outRank;
    std::sort(axes.begin(), axes.end());
    for (int64_t a : axes) {
      if (a < 0 || a > int64_t(d.size()))
        throw err("axis " + std::to_string(a) + " is out of range");
      d.insert(d.begin() + a, 1);
    }
  } else {
    std::vector<int64_t> out;
    for (int64_t& a : axes)
      if (a < 0)
        a += int64_t(d.size());
    for (size_t i = 0; i < d.size(); ++i) {
      const bool listed = std::find(axes.begin(), axes.end(), int64_t(i)) != axes.end();
      if (listed && d[i] != 1)
        throw err("cannot squeeze dimension " + std::to_string(i) + " of size " +
                  std::to_string(d[i]));
      if (!(listed || (axes.empty() && d[i] == 1)))
        out.push_back(d[i]);
    }
    d = out;
  }
  reshapeLike(d);
}

int Importer::nhwcAxis(int x, int64_t axis, const char* what) const {
  const Tensor& t = tensor(x);
  const int64_t rank = int64_t(t.onnxShape.size());
  if (axis < 0)
    axis += rank;
  int k = -1;
  if (t.chwFrom)
    k = -1; // a flattened map's columns are not in ONNX order
  else if (rank == 4)
    k = t.channelsLast ? int(axis) : axis == 1 ? 3 : axis == 2 ? 1 : axis == 3 ? 2 : -1;
  else if (rank == 3) // [N, C, L]: one row of L pixels
    k = axis == 1 ? 3 : axis == 2 ? 2 : -1;
  else if (rank == 2)
    k = axis == 1 ? 3 : -1;
  if (k < 1 || k > 3)
    throw err(std::string(what) + " along axis " + std::to_string(axis) + " of " +
              dimsString(t.onnxShape) +
              " is not supported; only along the channels, rows or columns of a map (not the "
              "batch, nor a flattened map's columns)");
  return k;
}

namespace {
int& extentOf(Shape& s, int axis) {
  return axis == 1 ? s.h : axis == 2 ? s.w : s.c;
}
} // namespace

void Importer::concat() {
  std::vector<int> ins;
  for (int i = 0; i < node_->input_size(); ++i)
    ins.push_back(act(i));
  const auto& d0 = tensor(ins[0]).onnxShape;
  int64_t onnxAxis = onnxio::attrInt(*node_, "axis", 1);
  if (onnxAxis < 0)
    onnxAxis += int64_t(d0.size());
  const int axis = nhwcAxis(ins[0], onnxAxis, "concatenation");
  Shape out = tensor(ins[0]).shape, others = out; // others: the shape outside the axis
  extentOf(out, axis) = extentOf(others, axis) = 0;
  for (int t : ins) {
    const Tensor& tt = tensor(t);
    Shape rest = tt.shape;
    extentOf(rest, axis) = 0;
    if (tt.chwFrom || tt.channelsLast != tensor(ins[0]).channelsLast ||
        tt.onnxShape.size() != d0.size() || rest != others)
      throw err("input '" + tt.name + "' of shape " + dimsString(tt.onnxShape) +
                " does not match " + dimsString(d0) + " outside axis " + std::to_string(onnxAxis));
    Shape each = tt.shape;
    extentOf(out, axis) += extentOf(each, axis);
  }
  std::vector<int64_t> onnxShape = d0;
  onnxShape[size_t(onnxAxis)] = extentOf(out, axis);
  const int y = newTensor(out, onnxShape);
  g_.tensors[y].channelsLast = tensor(ins[0]).channelsLast;
  addLayer(LayerKind::Concat, ins, y).axis = axis;
  setActivation(y);
}

void Importer::pad() {
  const int x = act(0);
  if (onnxio::attrString(*node_, "mode", "constant") != "constant")
    throw err("mode '" + onnxio::attrString(*node_, "mode", "") +
              "' is not supported; only constant (zero) padding");
  std::vector<int64_t> pads;
  double value = 0;
  if (g_.opset >= 11) {
    for (double v : cst(1).values)
      pads.push_back(int64_t(v));
    if (hasInput(2))
      value = cst(2).values.at(0);
    if (hasInput(3))
      throw err("the axes input is not supported");
  } else {
    pads = onnxio::attrInts(*node_, "pads", {});
    value = onnxio::attrFloat(*node_, "value", 0);
  }
  if (value != 0)
    throw err("padding value " + std::to_string(value) + " is not supported; only zero");
  if (rankOf(x) != 4 || pads.size() != 8)
    throw err("pads " + dimsString(pads) + " must have 8 values for a 4-D input");
  if (pads[0] || pads[1] || pads[4] || pads[5])
    throw err("pads " + dimsString(pads) +
              " pad the batch or channel axis; only H and W can be padded");
  for (int64_t p : pads)
    if (p < 0 || p > 1024)
      throw err("pads " + dimsString(pads) + " must be in 0..1024 (no cropping)");
  const Shape in = tensor(x).shape;
  const Shape out{in.n, in.h + int(pads[2] + pads[6]), in.w + int(pads[3] + pads[7]), in.c};
  const int y = newTensor(out, {out.n, out.c, out.h, out.w});
  Layer& l = addLayer(LayerKind::Pad, {x}, y);
  l.window.padT = int(pads[2]);
  l.window.padL = int(pads[3]);
  l.window.padB = int(pads[6]);
  l.window.padR = int(pads[7]);
  setActivation(y);
}

void Importer::softmax() {
  const int x = act(0);
  const auto& d = tensor(x).onnxShape;
  int64_t axis = onnxio::attrInt(*node_, "axis", g_.opset >= 13 ? -1 : 1);
  if (axis < 0)
    axis += int64_t(d.size());
  const Shape s = tensor(x).shape;
  // Softmax over the channels of each pixel (the physically innermost axis); before opset 13
  // axis 1 covers C*H*W, which is the channels when H = W = 1.
  const bool channels = (d.size() == 2 && axis == 1) ||
                        (d.size() == 4 && axis == 1 && (g_.opset >= 13 || s.h * s.w == 1));
  if (!channels || tensor(x).chwFrom)
    throw err("softmax over axis " + std::to_string(axis) + " of " + dimsString(d) +
              " is not supported; only over the channels");
  const int y = newTensor(s, d);
  addLayer(LayerKind::Softmax, {x}, y);
  setActivation(y);
}

// ---- constants ----------------------------------------------------------------------------

void Importer::constantNode() {
  Const c;
  if (const auto* a = onnxio::findAttr(*node_, "value")) {
    try {
      c = onnxio::readTensor(a->t());
    } catch (const std::exception& e) {
      throw err(e.what());
    }
  } else if (const auto* af = onnxio::findAttr(*node_, "value_float")) {
    c.dataType = onnx::TensorProto_DataType_FLOAT;
    c.values = {af->f()};
  } else if (const auto* afs = onnxio::findAttr(*node_, "value_floats")) {
    c.dataType = onnx::TensorProto_DataType_FLOAT;
    c.values.assign(afs->floats().begin(), afs->floats().end());
    c.dims = {int64_t(c.values.size())};
  } else if (const auto* ai = onnxio::findAttr(*node_, "value_int")) {
    c.dataType = onnx::TensorProto_DataType_INT64;
    c.values = {double(ai->i())};
  } else if (const auto* ais = onnxio::findAttr(*node_, "value_ints")) {
    c.dataType = onnx::TensorProto_DataType_INT64;
    c.values.assign(ais->ints().begin(), ais->ints().end());
    c.dims = {int64_t(c.values.size())};
  } else {
    throw err("no supported value attribute (value, value_float(s), value_int(s))");
  }
  setConst(std::move(c));
}

bool Importer::foldConstants() {
  const std::string& op = node_->op_type();
  auto allConst = [&]() {
    for (int i = 0; i < node_->input_size(); ++i)
      if (hasInput(i) && (shuffles_.count(node_->input(i)) || !input(i).isConst()))
        return false;
    return true;
  };
  if (op == "Shape") {
    const Value& v = input(0);
    Const c;
    c.dataType = onnx::TensorProto_DataType_INT64;
    const std::vector<int64_t> d = v.isConst() ? v.constant.dims : tensor(v.tensor).onnxShape;
    int64_t start = onnxio::attrInt(*node_, "start", 0),
            end = onnxio::attrInt(*node_, "end", int64_t(d.size()));
    if (start < 0)
      start += int64_t(d.size());
    if (end < 0)
      end += int64_t(d.size());
    start = std::clamp<int64_t>(start, 0, int64_t(d.size()));
    end = std::clamp<int64_t>(end, start, int64_t(d.size()));
    for (int64_t i = start; i < end; ++i)
      c.values.push_back(double(d[i]));
    c.dims = {int64_t(c.values.size())};
    setConst(std::move(c));
    return true;
  }
  if (!allConst())
    return false;
  if (op == "Gather") {
    const Const &data = cst(0), &idx = cst(1);
    if (data.dims.size() != 1 || onnxio::attrInt(*node_, "axis", 0) != 0)
      throw err("only gathering from a 1-D constant is supported");
    Const c;
    c.dataType = data.dataType;
    c.dims = idx.dims;
    for (double i : idx.values) {
      int64_t k = int64_t(i);
      if (k < 0)
        k += int64_t(data.values.size());
      if (k < 0 || k >= int64_t(data.values.size()))
        throw err("index " + std::to_string(k) + " is out of range");
      c.values.push_back(data.values[k]);
    }
    setConst(std::move(c));
    return true;
  }
  if (op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten" ||
      op == "Identity") {
    Const c = cst(0);
    if (op != "Identity") // shape constants are used as flat lists; Identity keeps its dims
      c.dims = {c.numel()};
    setConst(std::move(c));
    return true;
  }
  if (op == "Concat") {
    Const c = cst(0);
    for (int i = 1; i < node_->input_size(); ++i)
      c.values.insert(c.values.end(), cst(i).values.begin(), cst(i).values.end());
    c.dims = {int64_t(c.values.size())};
    setConst(std::move(c));
    return true;
  }
  if (op == "Slice") { // of a 1-D constant (shape arithmetic): starts, ends, axes 0, steps
    const Const& data = cst(0);
    if (data.dims.size() > 1 || (hasInput(3) && cst(3).values.at(0) != 0))
      throw err("only slicing a 1-D constant along its axis is supported");
    const int64_t n = data.numel();
    auto index = [&](double v, int64_t step) {
      int64_t k = v < -9e18 ? -n - 1 : v > 9e18 ? n : int64_t(v);
      if (k < 0)
        k += n;
      return std::clamp<int64_t>(k, step > 0 ? 0 : -1, step > 0 ? n : n - 1);
    };
    const int64_t step = hasInput(4) ? int64_t(cst(4).values.at(0)) : 1;
    if (step == 0)
      throw err("a step of 0");
    Const c;
    c.dataType = data.dataType;
    for (int64_t k = index(cst(1).values.at(0), step), e = index(cst(2).values.at(0), step);
         step > 0 ? k < e : k > e; k += step)
      c.values.push_back(data.values[size_t(k)]);
    c.dims = {int64_t(c.values.size())};
    setConst(std::move(c));
    return true;
  }
  if (op == "Cast") {
    Const c = cst(0);
    c.dataType = int(onnxio::attrInt(*node_, "to", c.dataType));
    if (c.isInteger())
      for (double& v : c.values)
        v = std::trunc(v);
    setConst(std::move(c));
    return true;
  }
  if (op == "Mul" || op == "Div" || op == "Sub") {
    Const a = cst(0);
    const Const& b = cst(1);
    if (a.numel() != b.numel() && b.numel() != 1)
      throw err("broadcasting between constants is not supported");
    for (size_t i = 0; i < a.values.size(); ++i) {
      const double y = b.values[b.numel() == 1 ? 0 : i];
      a.values[i] = op == "Mul" ? a.values[i] * y : op == "Sub" ? a.values[i] - y : a.values[i] / y;
      if (op == "Div" && a.isInteger())
        a.values[i] = std::trunc(a.values[i]);
    }
    setConst(std::move(a));
    return true;
  }
  return false;
}

// ---- pre-quantized models -----------------------------------------------------------------

double Importer::activationScale(int scaleInput, int zpInput, const std::string& what) {
  const Const& s = cst(scaleInput);
  if (s.numel() != 1)
    throw err(what + " has a per-axis scale; activations need one scale per tensor");
  const double scale = s.values[0];
  if (!(scale > 0) || !std::isfinite(scale))
    throw err(what + " scale " + std::to_string(scale) + " is not a positive number");
  if (hasInput(zpInput)) {
    const Const& zp = cst(zpInput);
    const bool u8 = zp.dataType == onnx::TensorProto_DataType_UINT8;
    for (double z : zp.values)
      if (!(u8 ? z == 128 : z == 0))
        throw err(what + " has zero point " + std::to_string(int64_t(z)) + (u8 ? " (uint8)" : "") +
                  ", an asymmetric quantization; " + kRequantizeHint);
    if (!u8 && zp.dataType != onnx::TensorProto_DataType_INT8)
      throw err(what + " is quantized to " +
                onnx::TensorProto::DataType_Name(onnx::TensorProto::DataType(zp.dataType)) +
                "; only int8 (or uint8 with zero point 128)");
  }
  return scale;
}

Const Importer::dequantizeWeights(int qInput, int scaleInput, int zpInput,
                                  const std::string& what) {
  const Const& q = cst(qInput);
  const Const& s = cst(scaleInput);
  if (q.dataType != onnx::TensorProto_DataType_INT8 &&
      q.dataType != onnx::TensorProto_DataType_INT32)
    throw err(what + " are " +
              onnx::TensorProto::DataType_Name(onnx::TensorProto::DataType(q.dataType)) +
              "; pre-quantized weights must be int8 (biases int32) with zero point 0; " +
              kRequantizeHint);
  if (hasInput(zpInput))
    for (double z : cst(zpInput).values)
      if (z != 0)
        throw err(what + " have zero point " + std::to_string(int64_t(z)) + "; " + kRequantizeHint);
  Const c = q;
  c.dataType = onnx::TensorProto_DataType_FLOAT;
  if (s.numel() == 1) {
    c.qscale = q.dataType == onnx::TensorProto_DataType_INT8 ? s.values[0] : 0;
    for (double& v : c.values)
      v *= s.values[0];
    return c;
  }
  // Per-axis (per output channel) scales: the values stay exact, the compiler re-quantizes
  // them per tensor (reported in quant.json).
  int64_t axis = onnxio::attrInt(*node_, "axis", 1);
  if (axis < 0)
    axis += int64_t(q.dims.size());
  if (axis < 0 || axis >= int64_t(q.dims.size()) || q.dims[axis] != s.numel())
    throw err(what + ": " + std::to_string(s.numel()) + " scales do not match axis " +
              std::to_string(axis) + " of " + dimsString(q.dims));
  int64_t inner = 1;
  for (size_t i = size_t(axis) + 1; i < q.dims.size(); ++i)
    inner *= q.dims[i];
  for (size_t i = 0; i < c.values.size(); ++i)
    c.values[i] *= s.values[(int64_t(i) / inner) % s.numel()];
  return c;
}

void Importer::quantizeLinear() {
  const Value& x = input(0);
  if (x.isConst()) { // a constant quantized offline: keep its real values
    setConst(x.constant);
    return;
  }
  const double s = activationScale(1, 2, "QuantizeLinear output");
  Tensor& t = g_.tensors[x.tensor];
  if (t.fixedScale != 0 && t.fixedScale != s) {
    // Re-quantizing to another scale: a new tensor with its own scale.
    const int y = newTensor(t.shape, t.onnxShape);
    Layer& l = addLayer(LayerKind::Conv, {x.tensor}, y);
    l.depthwise = true;
    l.weights.assign(size_t(t.shape.c), 1.0f);
    l.fixedWeightScale = 1.0;
    g_.tensors[y].fixedScale = s;
    setActivation(y);
    return;
  }
  t.fixedScale = s;
  setActivation(x.tensor);
}

void Importer::dequantizeLinear() {
  const Value& q = input(0);
  if (q.isConst()) {
    setConst(dequantizeWeights(0, 1, 2, "constant"));
    return;
  }
  const double s = activationScale(1, 2, "DequantizeLinear input");
  const Tensor& t = tensor(q.tensor);
  if (t.fixedScale != 0 && std::abs(t.fixedScale - s) > 1e-12 * s)
    throw err("scale " + std::to_string(s) + " differs from the scale " +
              std::to_string(t.fixedScale) + " the tensor was quantized with");
  setActivation(q.tensor);
}

void Importer::qlinearConv() {
  const int x = act(0);
  const double sx = activationScale(1, 2, "x");
  if (tensor(x).fixedScale != 0 && std::abs(tensor(x).fixedScale - sx) > 1e-12 * sx)
    throw err("x_scale differs from the scale of its input");
  g_.tensors[x].fixedScale = sx;
  const Const w = dequantizeWeights(3, 4, 5, "weights");
  const double sy = activationScale(6, 7, "y");
  std::optional<Const> b;
  if (hasInput(8)) {
    b = cst(8);
    const double sw = cst(4).numel() == 1 ? cst(4).values[0] : 0;
    if (sw == 0)
      for (size_t i = 0; i < b->values.size(); ++i)
        b->values[i] *= sx * cst(4).values[i % cst(4).values.size()];
    else
      for (double& v : b->values)
        v *= sx * sw;
  }
  conv(x, w, b ? &*b : nullptr, sy);
}

void Importer::qlinearMatMul() {
  const int x = act(0);
  const double sx = activationScale(1, 2, "a");
  g_.tensors[x].fixedScale = sx;
  if (!input(3).isConst())
    throw err("b is an activation; only a constant (weight) b is supported");
  const Const w = dequantizeWeights(3, 4, 5, "b");
  dense(x, w, false, 1.0f, nullptr, 1.0f, activationScale(6, 7, "y"));
}

void Importer::qlinearAdd() {
  const int a = act(0), b = act(3);
  g_.tensors[a].fixedScale = activationScale(1, 2, "A");
  g_.tensors[b].fixedScale = activationScale(4, 5, "B");
  if (tensor(a).shape != tensor(b).shape)
    throw err("inputs of different shapes are not supported (no broadcasting)");
  const int y = newTensor(tensor(a).shape, tensor(a).onnxShape);
  g_.tensors[y].fixedScale = activationScale(6, 7, "C");
  addLayer(LayerKind::Add, {a, b}, y);
  setActivation(y);
}

void Importer::qlinearGlobalAveragePool() {
  if (onnxio::attrInt(*node_, "channels_last", 0) != 0)
    throw err("channels_last = 1 is not supported");
  const int x = act(0);
  g_.tensors[x].fixedScale = activationScale(1, 2, "x");
  globalPool(false);
  const int y = values_[node_->output(0)].tensor;
  g_.tensors[y].fixedScale = activationScale(3, 4, "y");
}

// ---- dispatch -----------------------------------------------------------------------------

void Importer::dispatch() {
  const std::string& op = node_->op_type();
  const std::string& domain = node_->domain();
  const bool ms = domain == "com.microsoft";
  if (!domain.empty() && domain != "ai.onnx" && !ms)
    throw err("op domain '" + domain + "' is not supported");
  if (ms) {
    if (op == "QLinearAdd")
      return qlinearAdd();
    if (op == "QLinearGlobalAveragePool")
      return qlinearGlobalAveragePool();
    throw err("com.microsoft op is not supported (supported: QLinearAdd, "
              "QLinearGlobalAveragePool)");
  }
  if (op == "Constant")
    return constantNode();
  if (foldConstants())
    return;
  if (op == "Conv")
    return convNode();
  if (op == "BatchNormalization")
    return batchNorm();
  if (op == "Gemm")
    return gemm();
  if (op == "MatMul")
    return matmul();
  if (op == "Add")
    return add();
  if (op == "Relu" || op == "Clip")
    return activation(op);
  if (op == "MaxPool" || op == "AveragePool")
    return pool(op == "MaxPool");
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool")
    return globalPool(op == "GlobalMaxPool");
  if (op == "Flatten")
    return flatten();
  if (op == "Reshape")
    return reshape();
  if (op == "Squeeze" || op == "Unsqueeze")
    return squeeze(op == "Unsqueeze");
  if (op == "Identity" || op == "Dropout") {
    requireSingleOutput();
    if (op == "Dropout" && hasInput(2) && !input(2).isConst())
      throw err("training_mode must be a constant");
    if (op == "Dropout" && hasInput(2) && cst(2).values.at(0) != 0)
      throw err("training_mode = true is not supported (inference only)");
    return setActivation(act(0));
  }
  if (op == "Concat")
    return concat();
  if (op == "Transpose")
    return transpose();
  if (op == "Split")
    return split();
  if (op == "Slice")
    return slice();
  if (op == "Sigmoid" || op == "Tanh" || op == "HardSigmoid" || op == "HardSwish" ||
      op == "LeakyRelu" || op == "Elu" || op == "PRelu" || op == "Gelu")
    return pointwise(op);
  if (op == "LayerNormalization")
    return layerNorm();
  if (op == "Mul")
    return mul();
  if (op == "Div" || op == "Sub")
    return divSub(op == "Div");
  if (op == "ReduceMean" || op == "ReduceMax" || op == "ReduceSum")
    return reduce(op);
  if (op == "Resize")
    return resize();
  if (op == "ConvTranspose")
    return convTranspose();
  if (op == "Pad")
    return pad();
  if (op == "Softmax")
    return softmax();
  if (op == "QuantizeLinear")
    return quantizeLinear();
  if (op == "DequantizeLinear")
    return dequantizeLinear();
  if (op == "QLinearConv")
    return qlinearConv();
  if (op == "QLinearMatMul")
    return qlinearMatMul();
  throw err(
      "op '" + op +
      "' is not supported. Supported ops: Conv, Gemm, MatMul, Relu, Clip, "
      "BatchNormalization, Add, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool, "
      "Flatten, Reshape, Squeeze, Unsqueeze, Concat, Pad, Identity, Dropout, Softmax, "
      "Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu, PRelu, Gelu (also as torch's Erf "
      "chain), LayerNormalization (also as torch's ReduceMean chain), Mul, Div, Sub, "
      "ReduceMean, ReduceMax, ReduceSum, Resize, ConvTranspose, Transpose (channel shuffle, "
      "channels-last views), "
      "Split, "
      "Slice, "
      "QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, QLinearAdd "
      "(docs/compiler.md)");
}

Graph Importer::run() {
  g_.name = model_.graph().name().empty() ? "model" : model_.graph().name();
  checkOpsets();
  importInputs();
  runShapeInference();
  fuseDecomposedOps(model_, inferred_);
  for (const auto& init : model_.graph().initializer()) {
    try {
      values_[init.name()] = Value{-1, onnxio::readTensor(init)};
    } catch (const std::exception& e) {
      throw CompileError(std::string("initializer: ") + e.what());
    }
  }
  for (const auto& n : model_.graph().node()) {
    node_ = &n;
    try {
      dispatch();
    } catch (const CompileError&) {
      throw;
    } catch (const std::exception& e) {
      throw err(e.what());
    }
  }
  node_ = nullptr;
  importOutput();
  return std::move(g_);
}

} // namespace importer

Graph importOnnxBytes(const std::string& bytes, const std::string& path,
                      const ImportOptions& options) {
  onnx::ModelProto model;
  if (bytes.empty())
    throw CompileError(path + ": the file is empty");
  if (!model.ParseFromString(bytes))
    throw CompileError(path + ": not an ONNX model (the protobuf does not parse; the file may "
                              "be truncated or of another format)");
  if (!model.has_graph() || model.graph().node_size() == 0)
    throw CompileError(path + ": the model has no graph nodes");
  try {
    onnxio::inlineExternalData(model, std::filesystem::path(path).parent_path().string());
  } catch (const std::exception& e) {
    throw CompileError(path + ": " + e.what());
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw CompileError(path + ": the ONNX checker rejects the model: " + what);
  }
  try {
    return importer::Importer(model, path, options).run();
  } catch (const CompileError& e) {
    throw CompileError(path + ": " + e.what());
  }
}

std::string modelContentHash(const std::string& bytes, const std::string& path) {
  std::string content = bytes;
  onnx::ModelProto model;
  if (model.ParseFromString(bytes)) {
    std::set<std::string> files;
    for (const onnx::TensorProto& t : model.graph().initializer())
      for (const onnx::StringStringEntryProto& kv : t.external_data())
        if (t.data_location() == onnx::TensorProto::EXTERNAL && kv.key() == "location")
          files.insert(kv.value());
    for (const std::string& f : files) {
      std::ifstream in(std::filesystem::path(path).parent_path() / f, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      content += "\n" + f + "\n" + s.str();
    }
  }
  return support::hashHex(content);
}

Graph importOnnxFile(const std::string& path, const ImportOptions& options) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw CompileError(path + ": cannot open the file");
  std::ostringstream s;
  s << f.rdbuf();
  return importOnnxBytes(s.str(), path, options);
}

} // namespace by::compiler
