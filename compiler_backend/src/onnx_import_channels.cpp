// ONNX import of the ops that regroup channels: grouped convolutions (their weights), channel
// shuffle (Reshape to 5-D, Transpose, Reshape back), channels-last views, and Split and Slice
// along channels, rows or columns (strided DMA copies).
#include "onnx_importer.h"

#include <algorithm>
#include <array>

namespace by::compiler::importer {

void Importer::groupedWeights(Layer& l, const Const& w, int cin, int group, int kh, int kw) {
  // ONNX [M][C/group][kH][kW] into the dense [kH][kW][C][M] kernel: output channel o sees only
  // the input channels of its group; the rest stay zero (splitGroupedConvs cuts the kernel
  // along the groups, so the array never multiplies most of them).
  const int m = int(w.dims[0]), cg = cin / group, mg = m / group;
  l.groups = group;
  l.weights.assign(size_t(kh) * kw * cin * m, 0.0f);
  for (int o = 0; o < m; ++o)
    for (int c = 0; c < cg; ++c)
      for (int i = 0; i < kh; ++i)
        for (int j = 0; j < kw; ++j) {
          const int ch = o / mg * cg + c; // the input channel of group o / mg
          l.weights[((size_t(i) * kw + j) * cin + ch) * m + o] =
              float(w.values[((size_t(o) * cg + c) * kh + i) * kw + j]);
        }
}

void Importer::dilateKernel(Layer& l, int kh, int kw, int dh, int dw) {
  // Tap (i, j) of the kernel goes to (i*dh, j*dw) of the window; the taps between are zero.
  const int wh = l.window.kh, ww = l.window.kw;
  const size_t taps = size_t(kh) * kw, per = l.weights.size() / taps; // values per tap
  std::vector<float> out(size_t(wh) * ww * per, 0.0f);
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j)
      for (size_t v = 0; v < per; ++v) {
        const size_t to = size_t(i * dh) * ww + size_t(j * dw);
        if (l.depthwise) // [c][kh][kw]
          out[v * wh * ww + to] = l.weights[v * taps + size_t(i) * kw + size_t(j)];
        else // [kh][kw][cin][cout]
          out[to * per + v] = l.weights[(size_t(i) * kw + size_t(j)) * per + v];
      }
  l.weights = std::move(out);
}

bool Importer::shuffleReshape(const std::vector<int64_t>& target) {
  auto view = shuffles_.find(node_->input(0));
  if (view == shuffles_.end()) {
    // [N, C, H, W] -> [N, g, C/g, H, W]: the first step of a channel shuffle.
    if (target.size() != 5)
      return false;
    const int x = act(0);
    const auto& d = tensor(x).onnxShape;
    if (d.size() != 4 || tensor(x).chwFrom || target[0] != d[0] || target[1] * target[2] != d[1] ||
        target[3] != d[2] || target[4] != d[3])
      throw err("reshape of " + dimsString(d) + " into " + dimsString(target) +
                " is not supported; a 5-D view is supported only as the [N, groups, C/groups, H, "
                "W] of a channel shuffle");
    shuffles_[node_->output(0)] = ShuffleView{x, int(target[1]), false};
    return true;
  }
  const ShuffleView v = view->second;
  const Tensor& xt = tensor(v.tensor);
  if (target != xt.onnxShape)
    throw err("a channel shuffle's 5-D view must be reshaped back to " + dimsString(xt.onnxShape) +
              ", not " + dimsString(target));
  if (!v.transposed) { // reshaped back unchanged
    setActivation(v.tensor);
    return true;
  }
  // Output channel o = j*g + i of the [C/g][g] order reads input channel i*(C/g) + j: a 1x1
  // convolution by a permutation matrix, an exact copy on the array.
  const Shape s = xt.shape;
  const int g = v.groups, cg = s.c / g;
  const int y = newTensor(s, xt.onnxShape);
  Layer& l = addLayer(LayerKind::Conv, {v.tensor}, y);
  l.onnxOps = {"Reshape", "Transpose", "Reshape"};
  l.channelPermutation = true;
  l.fixedWeightScale = 1.0;
  l.weights.assign(size_t(s.c) * s.c, 0.0f);
  for (int o = 0; o < s.c; ++o)
    l.weights[size_t(o % g * cg + o / g) * s.c + o] = 1.0f;
  setActivation(y);
  return true;
}

void Importer::transpose() {
  const std::vector<int64_t> perm = onnxio::attrInts(*node_, "perm", {});
  auto view = shuffles_.find(node_->input(0));
  if (view != shuffles_.end() && !view->second.transposed &&
      perm == std::vector<int64_t>{0, 2, 1, 3, 4}) {
    ShuffleView v = view->second;
    v.transposed = true;
    shuffles_[node_->output(0)] = v;
    return;
  }
  const int x = act(0);
  std::vector<int64_t> identity(tensor(x).onnxShape.size());
  for (size_t i = 0; i < identity.size(); ++i)
    identity[i] = int64_t(i);
  if (perm == identity) {
    setActivation(x);
    return;
  }
  // [N, C, H, W] <-> [N, H, W, C]: the physical data is NHWC either way, so the result is a
  // view of the same storage in the other axis order.
  const Tensor& xt = tensor(x);
  const bool toLast = perm == std::vector<int64_t>{0, 2, 3, 1} && !xt.channelsLast;
  const bool toFirst = perm == std::vector<int64_t>{0, 3, 1, 2} && xt.channelsLast;
  if ((toLast || toFirst) && !xt.chwFrom) {
    Tensor view;
    view.name = node_->output(0);
    view.shape = xt.shape;
    view.channelsLast = toLast;
    view.onnxShape = toLast ? std::vector<int64_t>{xt.shape.n, xt.shape.h, xt.shape.w, xt.shape.c}
                            : std::vector<int64_t>{xt.shape.n, xt.shape.c, xt.shape.h, xt.shape.w};
    view.aliasOf = x;
    view.fixedScale = xt.fixedScale;
    setActivation(g_.addTensor(std::move(view)));
    return;
  }
  throw err("transpose " + dimsString(perm) + " of " + dimsString(tensor(x).onnxShape) +
            " is not supported; only the channel shuffle's (Reshape to [N, g, C/g, H, W], "
            "Transpose perm [0, 2, 1, 3, 4], Reshape back) and the channels-last view of a map "
            "(perm [0, 2, 3, 1]) and back (perm [0, 3, 1, 2])");
}

int Importer::sliceAlong(int x, int axis, int begin, int count, const std::string& name) {
  const Tensor& xt = tensor(x);
  Shape s = xt.shape;
  (axis == 1 ? s.h : axis == 2 ? s.w : s.c) = count;
  // The ONNX dimension of that axis (NCHW, channels-last, [N, C, L] or [N, C]).
  const size_t rank = xt.onnxShape.size();
  const size_t onnxAxis = xt.channelsLast ? size_t(axis)
                          : axis == 3     ? 1
                          : rank == 3     ? 2
                                          : size_t(axis + 1);
  std::vector<int64_t> onnxShape = xt.onnxShape;
  onnxShape[onnxAxis] = count;
  const int y = newTensor(s, onnxShape);
  g_.tensors[y].name = name;
  g_.tensors[y].channelsLast = xt.channelsLast;
  Layer& l = addLayer(LayerKind::Slice, {x}, y);
  l.axis = axis;
  l.sliceBegin = begin;
  return y;
}

void Importer::split() {
  const int x = act(0);
  const Tensor& xt = tensor(x);
  int64_t onnxAxis = onnxio::attrInt(*node_, "axis", 0);
  if (onnxAxis < 0)
    onnxAxis += int64_t(xt.onnxShape.size());
  const int axis = nhwcAxis(x, onnxAxis, "splitting");
  const int outputs = node_->output_size();
  const int64_t extent = xt.onnxShape[size_t(onnxAxis)];
  std::vector<int64_t> parts;
  if (g_.opset >= 13 ? hasInput(1) : onnxio::findAttr(*node_, "split") != nullptr) {
    if (g_.opset >= 13)
      for (double v : cst(1).values)
        parts.push_back(int64_t(v));
    else
      parts = onnxio::attrInts(*node_, "split", {});
  } else {
    if (extent % outputs != 0)
      throw err("axis " + std::to_string(onnxAxis) + " of " + std::to_string(extent) +
                " does not split into " + std::to_string(outputs) + " equal parts");
    parts.assign(size_t(outputs), extent / outputs);
  }
  int64_t total = 0;
  for (int64_t p : parts)
    total += p;
  if (int(parts.size()) != outputs || total != extent)
    throw err("split " + dimsString(parts) + " does not divide axis " + std::to_string(onnxAxis) +
              " of " + std::to_string(extent) + " into " + std::to_string(outputs) + " outputs");
  int begin = 0;
  for (int i = 0; i < outputs; ++i) {
    if (parts[i] <= 0)
      throw err("split " + dimsString(parts) + " has an empty part");
    if (!node_->output(i).empty())
      setOutput(i, Value{sliceAlong(x, axis, begin, int(parts[i]), node_->output(i)), {}});
    begin += int(parts[i]);
  }
}

void Importer::slice() {
  int x = act(0);
  if (g_.opset < 10)
    throw err("Slice before opset 10 (attributes) is not supported");
  const Const &starts = cst(1), &ends = cst(2);
  std::vector<int64_t> axes;
  if (hasInput(3))
    for (double v : cst(3).values)
      axes.push_back(int64_t(v));
  else
    for (size_t i = 0; i < starts.values.size(); ++i)
      axes.push_back(int64_t(i));
  if (hasInput(4))
    for (double v : cst(4).values)
      if (v != 1)
        throw err("steps other than 1 are not supported");
  const std::vector<int64_t> dims = tensor(x).onnxShape;
  const int64_t rank = int64_t(dims.size());
  // One Slice layer per axis that is cut (a crop of rows and columns is two copies).
  std::vector<std::array<int64_t, 3>> cuts; // ONNX axis, begin, end
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank)
      throw err("axis " + std::to_string(axes[i]) + " is out of range for " + dimsString(dims));
    const int64_t dim = dims[size_t(axis)];
    auto clampIndex = [&](double v) {
      int64_t k = v < -9e18 ? -dim - 1 : v > 9e18 ? dim : int64_t(v);
      if (k < 0)
        k += dim;
      return std::clamp<int64_t>(k, 0, dim);
    };
    const int64_t b = clampIndex(starts.values.at(i)), e = clampIndex(ends.values.at(i));
    if (e <= b)
      throw err("the slice is empty");
    if (b != 0 || e != dim)
      cuts.push_back({axis, b, e});
  }
  for (size_t i = 0; i < cuts.size(); ++i) {
    const auto [axis, b, e] = cuts[i];
    const std::string name =
        i + 1 == cuts.size() ? node_->output(0) : node_->output(0) + "#" + std::to_string(axis);
    x = sliceAlong(x, nhwcAxis(x, axis, "slicing"), int(b), int(e - b), name);
  }
  setActivation(x);
}

} // namespace by::compiler::importer
