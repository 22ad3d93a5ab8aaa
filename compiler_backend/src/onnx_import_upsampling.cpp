// ONNX import of the upsampling ops: Resize (nearest or linear resampling of H and W, by scales
// or to sizes, with ONNX's coordinate transformations) and ConvTranspose (zeros inserted between
// the input's pixels, then a convolution by the flipped kernel).
#include "onnx_importer.h"

#include <cmath>

namespace by::compiler::importer {

void Importer::resize() {
  const int x = act(0);
  const Tensor& xt = tensor(x);
  if (rankOf(x) != 4 || xt.chwFrom)
    throw err("input has shape " + dimsString(xt.onnxShape) + "; Resize needs an [N, C, H, W] map");
  ResizeRule r;
  const std::string mode = onnxio::attrString(*node_, "mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    throw err("mode '" + mode + "' is not supported; only nearest and linear");
  r.linear = mode == "linear";
  r.coordinates = onnxio::attrString(*node_, "coordinate_transformation_mode", "half_pixel");
  if (r.coordinates != "half_pixel" && r.coordinates != "pytorch_half_pixel" &&
      r.coordinates != "align_corners" && r.coordinates != "asymmetric")
    throw err("coordinate_transformation_mode '" + r.coordinates +
              "' is not supported (half_pixel, pytorch_half_pixel, align_corners, asymmetric)");
  r.nearest = onnxio::attrString(*node_, "nearest_mode", "round_prefer_floor");
  if (onnxio::attrInt(*node_, "exclude_outside", 0) != 0)
    throw err("exclude_outside = 1 is not supported");
  const Shape in = xt.shape;
  Shape out = in;
  // Scales (input 2) or sizes (input 3); an empty scales tensor means sizes.
  const bool hasScales = hasInput(2) && cst(2).numel() > 0;
  if (hasScales) {
    const Const& s = cst(2);
    if (s.numel() != 4 || s.values[0] != 1 || s.values[1] != 1 || !(s.values[2] > 0) ||
        !(s.values[3] > 0))
      throw err("scales must have 4 positive values, 1 for N and C (only H and W resample)");
    r.scaleH = s.values[2];
    r.scaleW = s.values[3];
    out.h = int(std::floor(in.h * r.scaleH));
    out.w = int(std::floor(in.w * r.scaleW));
  } else {
    if (!hasInput(3))
      throw err("neither scales nor sizes is given");
    const Const& z = cst(3);
    if (z.numel() != 4 || z.values[0] != in.n || z.values[1] != in.c)
      throw err("sizes must give 4 values and keep N and C");
    out.h = int(z.values[2]);
    out.w = int(z.values[3]);
    r.scaleH = double(out.h) / in.h;
    r.scaleW = double(out.w) / in.w;
  }
  if (out.h <= 0 || out.w <= 0 || out.h > 16384 || out.w > 16384)
    throw err("the output size " + std::to_string(out.h) + "x" + std::to_string(out.w) +
              " is empty or too large");
  const int y = newTensor(out, {out.n, out.c, out.h, out.w});
  addLayer(LayerKind::Resize, {x}, y).resize = r;
  setActivation(y);
  checkInferredShape(y, node_->output(0));
}

void Importer::convTranspose() {
  const int x = act(0);
  const Tensor& xt = tensor(x);
  const Const& w = cst(1);
  if (rankOf(x) != 4 || xt.chwFrom)
    throw err("input has shape " + dimsString(xt.onnxShape) + "; ConvTranspose needs a 4-D map");
  const Shape in = xt.shape;
  const int64_t group = onnxio::attrInt(*node_, "group", 1);
  if (w.dims.size() != 4 || group <= 0 || w.dims[0] != in.c || in.c % group != 0)
    throw err("weights " + dimsString(w.dims) + " with group " + std::to_string(group) +
              " do not match " + std::to_string(in.c) + " input channels ([C, M/group, kH, kW])");
  const int g = int(group), cg = in.c / g, mg = int(w.dims[1]), m = mg * g;
  const int kh = int(w.dims[2]), kw = int(w.dims[3]);
  auto pair = [&](const char* name, int64_t dflt) {
    const auto v = onnxio::attrInts(*node_, name, {dflt, dflt});
    if (v.size() != 2)
      throw err(std::string(name) + " " + dimsString(v) + " must have 2 values (2-D)");
    return v;
  };
  const auto st = pair("strides", 1), dil = pair("dilations", 1), op = pair("output_padding", 0);
  const auto pads = onnxio::attrInts(*node_, "pads", {0, 0, 0, 0});
  if (onnxio::attrString(*node_, "auto_pad", "NOTSET") != "NOTSET" ||
      onnxio::findAttr(*node_, "output_shape"))
    throw err("auto_pad and output_shape are not supported; give pads (and output_padding)");
  if (pads.size() != 4 || st[0] <= 0 || st[1] <= 0 || dil[0] <= 0 || dil[1] <= 0 || st[0] > 64 ||
      st[1] > 64 || dil[0] > 64 || dil[1] > 64)
    throw err("strides, dilations and pads must be positive (strides and dilations <= 64)");
  // Zeros between the pixels (stride - 1), then a stride-1 convolution by the flipped kernel
  // with (span - 1 - pad) padding: the span is dilation * (k - 1) + 1.
  const int spanH = int(dil[0]) * (kh - 1) + 1, spanW = int(dil[1]) * (kw - 1) + 1;
  Window cw;
  cw.kh = spanH;
  cw.kw = spanW;
  cw.padT = spanH - 1 - int(pads[0]);
  cw.padL = spanW - 1 - int(pads[1]);
  cw.padB = spanH - 1 - int(pads[2]) + int(op[0]);
  cw.padR = spanW - 1 - int(pads[3]) + int(op[1]);
  if (cw.padT < 0 || cw.padL < 0 || cw.padB < 0 || cw.padR < 0)
    throw err("pads " + dimsString(pads) +
              " beyond the kernel's span (cropping) are not supported");
  int src = x;
  if (st[0] > 1 || st[1] > 1) {
    const Shape z{in.n, (in.h - 1) * int(st[0]) + 1, (in.w - 1) * int(st[1]) + 1, in.c};
    src = newTensor(z, {z.n, z.c, z.h, z.w});
    g_.tensors[src].name = node_->output(0) + ".zero_inserted";
    Layer& zl = addLayer(LayerKind::Pad, {x}, src);
    zl.name += ".zero_insert";
    zl.onnxOps = {"(zero insertion)"};
    zl.window.strideH = int(st[0]);
    zl.window.strideW = int(st[1]);
  }
  const Shape zin = tensor(src).shape;
  const Shape out{in.n, cw.outH(zin.h), cw.outW(zin.w), m};
  if (out.h <= 0 || out.w <= 0)
    throw err("the output is empty");
  const int y = newTensor(out, {out.n, out.c, out.h, out.w});
  Layer& l = addLayer(LayerKind::Conv, {src}, y);
  l.window = cw;
  l.fixedWeightScale = w.qscale;
  l.groups = g;
  // Conv weights [span][span][C][M], block-diagonal per group: tap (i, j) of output channel
  // gr*mg + o from input channel gr*cg + c is the ONNX weight [gr*cg + c][o] at the flipped
  // (kh-1-i, kw-1-j), dilated.
  l.weights.assign(size_t(spanH) * spanW * in.c * m, 0.0f);
  for (int gr = 0; gr < g; ++gr)
    for (int c = 0; c < cg; ++c)
      for (int o = 0; o < mg; ++o)
        for (int i = 0; i < kh; ++i)
          for (int j = 0; j < kw; ++j) {
            const int ci = gr * cg + c, co = gr * mg + o;
            const int ti = (kh - 1 - i) * int(dil[0]), tj = (kw - 1 - j) * int(dil[1]);
            l.weights[((size_t(ti) * spanW + tj) * in.c + ci) * m + co] =
                float(w.values[((size_t(ci) * mg + o) * kh + i) * kw + j]);
          }
  if (hasInput(2)) {
    const Const& b = cst(2);
    if (b.numel() != m)
      throw err("bias has " + std::to_string(b.numel()) + " values for " + std::to_string(m) +
                " output channels");
    l.bias.assign(b.values.begin(), b.values.end());
  }
  setActivation(y);
  checkInferredShape(y, node_->output(0));
}

} // namespace by::compiler::importer
