// ONNX import of Resize (opsets 11-17): nearest or linear resampling of H and W of a map, by
// scales or to sizes, with ONNX's coordinate transformations.
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

} // namespace by::compiler::importer
