// Resize on the array (docs/compiler.md, "Resize"). Each axis of a resampling is the product by
// a constant interpolation matrix (resizeMatrix: 1/64 steps, two taps a row): per image, the
// rows' matrix (H' x H) times the image taken as an H x (W C) matrix, into the workspace; then,
// per output row, the columns' matrix (W' x W) times that row (W x C). Both mvouts scale by
// 1/64, exactly. The map is the B operand, so nothing is transposed: an NHWC image is already
// H x (W C), and each of its rows W x C. Nearest upsampling by integer factors is DMA copies.
#include "compiler/error.h"
#include "planner.h"
#include "tiling.h"

#include <algorithm>

namespace by::compiler::lowering {

namespace {
double zeroFraction(const std::vector<int8_t>& m) {
  return double(std::count(m.begin(), m.end(), int8_t(0))) / double(m.size());
}
} // namespace

ResizePasses resizePasses(const Shape& in, const Shape& out) {
  ResizePasses r;
  r.rows.I = size_t(out.h), r.rows.K = size_t(in.h), r.rows.J = size_t(in.w) * size_t(in.c);
  r.cols.I = size_t(out.w), r.cols.K = size_t(in.w), r.cols.J = size_t(in.c);
  for (by_matmul_shape_t* s : {&r.rows, &r.cols})
    s->dataflow = BY_DATAFLOW_AUTO;
  r.midBytes = alignUp(int64_t(out.h) * in.w * in.c);
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
  for (by_matmul_shape_t* s : {&passes.rows, &passes.cols}) {
    by_matmul_plan_t plan;
    if (by_plan_matmul(&hw_.planner, s, &plan) != BY_OK)
      throw CompileError("layer '" + l.name +
                         "': no matmul tiling of its resampling fits the config's memories");
    packing = std::max<int64_t>(packing, int64_t(by_plan_matmul_workspace_bytes(&hw_.planner, s)));
    const int64_t calls = s == &passes.rows ? is.n : int64_t(is.n) * os.h;
    p.estDramBytes += calls * matmulDramBytes(hw_, int64_t(s->I), int64_t(s->J), int64_t(s->K),
                                              int64_t(plan.tile_i), int64_t(plan.tile_j));
    if (s == &passes.rows) {
      p.dataflow = dataflowName(hw_, plan.dataflow);
      setTensorDash(p, zeros, {}, int64_t(s->K), int64_t(s->J),
                    plan.dataflow == hw_.planner.dataflow_os);
    }
  }
  // The intermediate image, then what the driver packs B into (vector PEs).
  p.workspaceBytes = passes.midBytes + packing;
}

} // namespace by::compiler::lowering
