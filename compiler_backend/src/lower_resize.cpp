// Resize on the array (docs/compiler.md, "Resize"). Each axis of a resampling is the product by
// a constant interpolation matrix (resizeMatrix: 1/64 steps, two taps a row): the rows' matrix
// (H' x H) times an image taken as an H x (W C) matrix, one call; the columns' matrix (W' x W)
// times each of its rows (W x C), a call per row. Per image, one axis into the workspace, then
// the other (resizeColumnsFirst: the columns first where that makes fewer, smaller calls). Both
// mvouts scale by 1/64, exactly. The map is the B operand, so nothing is transposed: an NHWC
// image is already H x (W C), and each of its rows W x C. Nearest upsampling by integer factors
// is DMA copies.
#include "compiler/error.h"
#include "planner.h"
#include "tiling.h"

#include <algorithm>

namespace by::compiler::lowering {

namespace {
double zeroFraction(const std::vector<int8_t>& m) {
  return double(std::count(m.begin(), m.end(), int8_t(0))) / double(m.size());
}

ResizePass rowsPass(int64_t in, int64_t out, int64_t rowElems) {
  ResizePass p;
  p.rows = true;
  p.shape.I = size_t(out), p.shape.K = size_t(in), p.shape.J = size_t(rowElems);
  p.shape.dataflow = BY_DATAFLOW_AUTO;
  return p;
}
ResizePass colsPass(int64_t in, int64_t out, int64_t channels, int64_t rows) {
  ResizePass p;
  p.shape.I = size_t(out), p.shape.K = size_t(in), p.shape.J = size_t(channels);
  p.shape.dataflow = BY_DATAFLOW_AUTO;
  p.calls = rows, p.inStride = in * channels, p.outStride = out * channels;
  return p;
}
} // namespace

ResizePasses resizePasses(const Shape& in, const Shape& out) {
  ResizePasses r;
  if (resizeColumnsFirst(in, out)) {
    r.first = colsPass(in.w, out.w, in.c, in.h);
    r.second = rowsPass(in.h, out.h, int64_t(out.w) * in.c);
    r.midBytes = alignUp(int64_t(in.h) * out.w * in.c);
  } else {
    r.first = rowsPass(in.h, out.h, int64_t(in.w) * in.c);
    r.second = colsPass(in.w, out.w, in.c, out.h);
    r.midBytes = alignUp(int64_t(out.h) * in.w * in.c);
  }
  return r;
}

void Planner::planResize(const Layer& l, LayerPlan& p) {
  const Shape &is = shapeOf(l.inputs[0]), &os = shapeOf(l.output);
  if (replicates(l.resize, is.h, os.h, l.resize.scaleH) &&
      replicates(l.resize, is.w, os.w, l.resize.scaleW)) {
    // Each input pixel repeated into a block of output pixels: DMA copies (copyOps).
    p.kernel = Kernel::Copy;
    p.estDramBytes = is.elems() + os.elems();
    return;
  }
  p.kernel = Kernel::Resize;
  std::vector<int8_t> matrices = resizeMatrix(l.resize, is.h, os.h, l.resize.scaleH);
  const std::vector<int8_t> cols = resizeMatrix(l.resize, is.w, os.w, l.resize.scaleW);
  const double zeros = std::min(zeroFraction(matrices), zeroFraction(cols));
  matrices.insert(matrices.end(), cols.begin(), cols.end());
  p.weights = putVec(prog_.blob, matrices);
  // Both passes with the driver's tiling (it owns the choice: the program passes none), checked
  // here so that a config whose memories take neither fails at compile time.
  ResizePasses passes = resizePasses(is, os);
  int64_t packing = 0;
  p.estDramBytes = 0;
  for (const ResizePass* pass : {&passes.first, &passes.second}) {
    by_matmul_plan_t plan;
    const by_matmul_shape_t& s = pass->shape;
    if (by_plan_matmul(&hw_.planner, &s, &plan) != BY_OK)
      throw CompileError("layer '" + l.name +
                         "': no matmul tiling of its resampling fits the config's memories");
    packing = std::max<int64_t>(packing, int64_t(by_plan_matmul_workspace_bytes(&hw_.planner, &s)));
    p.estDramBytes += is.n * pass->calls * matmulDramBytes(hw_, s, plan, false);
    if (pass == &passes.first) {
      p.dataflow = dataflowName(hw_, plan.dataflow);
      setTensorDash(p, zeros, {}, int64_t(s.K), int64_t(s.J),
                    plan.dataflow == hw_.planner.dataflow_os);
    }
  }
  // The intermediate image, then what the driver packs B into (vector PEs).
  p.workspaceBytes = passes.midBytes + packing;
}

} // namespace by::compiler::lowering
