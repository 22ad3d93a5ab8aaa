// Lowering and memory planning (compiler/plan.h).
#include "compiler/plan.h"

#include "boveda_weights.h"
#include "compiler/error.h"
#include "planner.h"
#include "td_estimate.h"
#include "tiling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <tuple>

namespace by::compiler {

const char* kernelName(Kernel k) {
  switch (k) {
  case Kernel::Conv:
    return "by_conv";
  case Kernel::Im2colMatmul:
    return "by_im2col+by_matmul";
  case Kernel::Im2colConv:
    return "by_im2col+by_conv";
  case Kernel::Matmul:
    return "by_matmul";
  case Kernel::Resadd:
    return "by_resadd";
  case Kernel::GlobalAvg:
    return "by_global_average";
  case Kernel::AvgPoolConv:
    return "by_conv(avgpool)";
  case Kernel::ScaleConv:
    return "by_conv(scale)";
  case Kernel::MaxPoolConv:
    return "by_conv(maxpool)";
  case Kernel::AvgPool:
    return "by_avgpool";
  case Kernel::MaxPool:
    return "by_maxpool";
  case Kernel::Copy:
    return "by_copy";
  case Kernel::Softmax:
    return "by_softmax";
  case Kernel::LayerNorm:
    return "by_layernorm";
  case Kernel::Clamp:
    return "by_clamp";
  case Kernel::Reorder:
    return "by_nhwc_to_chw";
  case Kernel::Lookup:
    return "by_lookup";
  case Kernel::Mul:
    return "by_mul";
  case Kernel::Resize:
    return "resize_matmuls";
  case Kernel::FusedTable:
    return "(mvout table)";
  }
  return "?";
}

IntWidths intWidths(const config::Config& c) {
  return IntWidths{c.types.accWidth, c.types.spatialOutputWidth};
}

std::optional<std::array<int64_t, 3>> forcedTiles(const LayerPlan& p) {
  if (p.conv && p.conv->shape.tile_rows)
    return std::array<int64_t, 3>{int64_t(p.conv->shape.tile_rows), int64_t(p.conv->shape.tile_och),
                                  int64_t(p.conv->shape.tile_k)};
  if (p.matmul && p.matmul->shape.tile_i)
    return std::array<int64_t, 3>{int64_t(p.matmul->shape.tile_i), int64_t(p.matmul->shape.tile_j),
                                  int64_t(p.matmul->shape.tile_k)};
  return std::nullopt;
}

std::vector<ChunkRule> chunkRules(const Program& p) {
  std::vector<ChunkRule> r;
  for (const LayerPlan& l : p.layers)
    r.push_back(l.chunk);
  return r;
}

namespace {

/// The activation the hardware applies on mvout, and whether a CPU clamp must follow.
void mvoutActivation(const Layer& l, LayerPlan& p) {
  p.clampAfter = (l.qmin != 0 && l.qmin != -128) || l.qmax != 127;
}

/// The DRAM a program needs besides its own buffers: code, the C library, stack and the
/// per-layer statistics (a generous bound).
constexpr int64_t kProgramReserve = int64_t(4) << 20;

void dramError(const config::Config& cfg, int64_t need, int64_t weights, int64_t activations) {
  throw CompileError("the model needs at least " + std::to_string((need + (1 << 20) - 1) >> 20) +
                     " MiB of DRAM (weights " + std::to_string(weights >> 10) +
                     " KiB, activations " + std::to_string(activations >> 10) +
                     " KiB, program 4 MiB); the config has " +
                     std::to_string(cfg.soc.dram.sizeMiB) + " MiB (soc.dram.size_mib)");
}

} // namespace

namespace lowering {

constexpr int64_t kAlign = 64;

int64_t alignUp(int64_t v) {
  return (v + kAlign - 1) / kAlign * kAlign;
}

bool replicates(const ResizeRule& r, int in, int out, double scale) {
  if (out % in != 0)
    return false;
  const int factor = out / in;
  const std::vector<ResizeTap> taps = resizeTaps(r, in, out, scale);
  for (int o = 0; o < out; ++o) {
    const ResizeTap& t = taps[size_t(o)];
    // The int8 blend (256 - w1) x[i0] + w1 x[i1] is x[i0] exactly when w1 = 0 or i1 = i0.
    if (t.i0 != o / factor || (t.w1 != 0 && t.i1 != t.i0))
      return false;
  }
  return true;
}

BlobRange put(std::string& blob, const void* data, size_t bytes) {
  blob.resize(size_t(alignUp(int64_t(blob.size()))), '\0');
  BlobRange r{int64_t(blob.size()), int64_t(bytes)};
  blob.append(static_cast<const char*>(data), bytes);
  return r;
}

std::vector<int8_t> packB(const std::vector<int8_t>& b, int64_t k, int64_t j, int lanes) {
  if (lanes == 1)
    return b;
  const int64_t rows = (k + lanes - 1) / lanes;
  std::vector<int8_t> p(size_t(rows * j * lanes), 0);
  for (int64_t t = 0; t < rows; ++t)
    for (int64_t c = 0; c < j; ++c)
      for (int l = 0; l < lanes; ++l)
        if (t * lanes + l < k)
          p[size_t((t * j + c) * lanes + l)] = b[size_t((t * lanes + l) * j + c)];
  return p;
}

std::vector<int8_t> transposeMatrix(const std::vector<int8_t>& m, int64_t rows, int64_t cols) {
  std::vector<int8_t> t(m.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t[size_t(c * rows + r)] = m[size_t(r * cols + c)];
  return t;
}

void Planner::planMatmul(const Layer& l, LayerPlan& p, int64_t rows, int64_t k, int64_t j,
                         double zerosA) {
  // Boveda weights: blocks of DIM rows x up to MAX_BLOCK_LEN column blocks (fewer pointer
  // entries per value), which J tiles must not split.
  const bool boveda = hw_.boveda && opt_.bovedaWeights && hw_.lanes == 1;
  const int64_t jBlocks = (j + hw_.dim - 1) / hw_.dim;
  const int64_t jGroup = boveda ? std::min<int64_t>(hw_.maxBlockLen, jBlocks) : 1;
  std::optional<BovedaMatrix> b;
  if (boveda) { // weights stored compressed, read by compressed mvins, where that saves bytes
    b = compressMatrix(l.qweights, k, j, int(jGroup * hw_.dim), hw_.dim, prog_.config);
    if (!compressionPays(*b, k * j, kDenseWeightsMaxPercent)) {
      b.reset();
      ++rawWeightLayers_;
    }
  }
  MatmulCall call;
  by_matmul_shape_t& s = call.shape;
  s.I = size_t(rows), s.J = size_t(j), s.K = size_t(k);
  s.b_packed = !b; // the blob holds B lane-packed (vector PEs)
  s.b_block_cols = b ? size_t(b->blockCols) : 0;
  s.dataflow = BY_DATAFLOW_AUTO;
  // The program passes the planner's dataflow and tiles (the driver's automatic choice: the
  // fewest blocks of A and B moved) explicitly, so that the chunks below are the ones it runs.
  // Compressed weights only where LOOP_WS moves them (else the host would issue their moves).
  by_status_t planned = by_plan_matmul(&hw_.planner, &s, &call.plan);
  if (b && (planned != BY_OK || !call.plan.loop)) {
    b.reset();
    ++rawWeightLayers_;
    s.b_packed = 1, s.b_block_cols = 0;
    planned = by_plan_matmul(&hw_.planner, &s, &call.plan);
  }
  if (planned != BY_OK)
    throw CompileError("layer '" + l.name + "': no matmul tiling fits the config's memories");
  // One image: the weights stored transposed (J x K) let the driver run the transpose, the
  // weights streaming as A (by_matmul_plan_t.transposed), where the planner says it does.
  if (rows == 1 && !b) {
    by_matmul_plan_t t;
    s.b_transposed = 1;
    if (by_plan_matmul(&hw_.planner, &s, &t) == BY_OK && t.transposed)
      call.plan = t;
    else
      s.b_transposed = 0;
  }
  s.dataflow = call.plan.dataflow;
  s.tile_i = call.plan.tile_i, s.tile_j = call.plan.tile_j, s.tile_k = call.plan.tile_k;
  if (by_plan_matmul(&hw_.planner, &s, &call.plan) != BY_OK)
    throw CompileError("layer '" + l.name + "': the driver refuses its matmul tiles");
  const bool os = call.plan.dataflow == hw_.planner.dataflow_os;
  p.matmul = call;
  p.dataflow = dataflowName(hw_, call.plan.dataflow);
  p.estDramBytes = matmulDramBytes(hw_, s, call.plan, !l.qbias.empty());
  p.chunk.chunk = int(call.plan.k_chunk);
  p.chunk.saturate = os;
  p.chunk.perTap = false;
  if (b) {
    p.bovedaStream = put(prog_.blob, b->stream.data(), b->stream.size());
    p.bovedaTable = put(prog_.blob, b->table.data(), b->table.size());
    p.bovedaBlockCols = b->blockCols;
    p.bovedaRows = k;
    p.estDramBytes += int64_t(b->stream.size() + b->table.size()) - k * j;
  } else if (s.b_transposed) {
    p.weights = putVec(prog_.blob, transposeMatrix(l.qweights, k, j));
  } else {
    p.weights = putVec(prog_.blob, packB(l.qweights, k, j, hw_.lanes));
  }
  if (!l.qbias.empty())
    p.bias = putBias(l);
  setTensorDash(p, zerosA, l.qweights, k, j, os);
}

// by_global_average sums an image's pixels in the accumulator, one accumulating mvin per pixel
// and chunk, each waiting for the one before (ResNet-18's 7x7x512: 14 k cycles for 25 kB). On
// the one-lane WS array with LOOP_WS one image's average is the product ones[1 x pixels] x
// input[pixels x C]: the same exact int32 sum (a pass adds DIM products of 1 and an int8, far
// from the spatial output width) and the same mvout scale 1 / pixels, so the same output.
bool Planner::planGlobalAverageMatmul(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const int64_t pixels = int64_t(in.h) * in.w;
  if (in.n != 1 || pixels < 2 || hw_.lanes != 1 || !hw_.ws || !hw_.planner.loop_ws)
    return false;
  MatmulCall call;
  call.onesA = true;
  by_matmul_shape_t& s = call.shape;
  s.I = 1, s.J = size_t(in.c), s.K = size_t(pixels);
  s.b_packed = 1;
  s.dataflow = hw_.planner.dataflow_ws;
  if (by_plan_matmul(&hw_.planner, &s, &call.plan) != BY_OK || !call.plan.loop)
    return false;
  s.tile_i = call.plan.tile_i, s.tile_j = call.plan.tile_j, s.tile_k = call.plan.tile_k;
  if (by_plan_matmul(&hw_.planner, &s, &call.plan) != BY_OK)
    return false;
  p.kernel = Kernel::Matmul;
  p.matmul = call;
  p.dataflow = dataflowName(hw_, call.plan.dataflow);
  p.estDramBytes = in.elems() + in.c + pixels;
  p.chunk = ChunkRule{int(call.plan.k_chunk), false, false};
  p.weights = putVec(prog_.blob, std::vector<int8_t>(size_t(pixels), 1));
  return true;
}

namespace {
// The smallest speedup the schedule model must expect for TensorDash to be switched on.
constexpr double kTdMinGain = 1.02;
} // namespace

// Whether a layer may schedule an operand at all: a TensorDash config, not --no-tensordash, an
// OS layer. Else it sets the layer's mode (0 without TensorDash, else off) and reason.
bool Planner::tensorDashApplies(LayerPlan& p, bool os) const {
  p.tdMode = hw_.td ? 2 : 0;
  if (!hw_.td)
    return false;
  if (!opt_.tensordash)
    p.tdReason = "off: --no-tensordash";
  else if (!os)
    p.tdReason = "off: the layer runs weight-stationary (TensorDash schedules OS computes)";
  return opt_.tensordash && os;
}

// TensorDash: schedule the operand the schedule model expects to skip most of (C^T = B^T A^T,
// docs/tensordash.md), or neither where it expects less than 2% (dense beats then).
void Planner::setTensorDash(LayerPlan& p, double zerosA, const std::vector<int8_t>& weights,
                            int64_t k, int64_t n, bool os) const {
  int64_t zw = 0;
  for (int8_t w : weights)
    zw += w == 0;
  p.zerosA = zerosA;
  p.zerosB = weights.empty() ? 0 : double(zw) / double(weights.size());
  if (!tensorDashApplies(p, os))
    return;
  const TdEstimate e = estimateTensorDash(prog_.config, zerosA, weights, k, n);
  p.tdSpeedupA = e.speedupA;
  p.tdSpeedupB = hw_.tdScheduleB ? e.speedupB : 1.0;
  const bool b = p.tdSpeedupB > p.tdSpeedupA;
  const double best = b ? p.tdSpeedupB : p.tdSpeedupA;
  char text[160];
  if (best < kTdMinGain) {
    std::snprintf(text, sizeof text, "off: the model expects %.2fx at most (A %.2fx, B %.2fx)",
                  best, p.tdSpeedupA, p.tdSpeedupB);
  } else {
    p.tdMode = b ? 1 : 0;
    std::snprintf(text, sizeof text,
                  "%s: the model expects %.2fx over dense beats (A %.2fx, B %.2fx)", b ? "B" : "A",
                  best, p.tdSpeedupA, p.tdSpeedupB);
  }
  p.tdReason = text;
}

// TensorDash for a pass over diagonal blocks (depthwise convolution, average pooling as a
// depthwise pass of ones): the blocks of a pass's KB = DIM x lanes channels are 1 - 1/KB zeros,
// and in the loops' depthwise mode (plan.depthwise_mode) each output-channel block computes with
// its DIM x DIM diagonal block of the stripes, 1 - 1/DIM zeros; so B where it can be scheduled;
// else A, the input's zeros, where the model expects them to pay.
void Planner::setDiagonalTensorDash(LayerPlan& p, const Layer& l, const by_conv_shape_t& s, bool os,
                                    const by_conv_plan_t& plan, const char* blocks) const {
  const int64_t taps = int64_t(s.kernel_rows * s.kernel_cols);
  const int side = plan.depthwise_mode ? hw_.dim : hw_.kb; // a diagonal block's
  p.zerosA = calibZeros(l.inputs[0]);
  p.zerosB = 1.0 - 1.0 / double(side);
  if (!tensorDashApplies(p, os))
    return;
  char text[160];
  if (hw_.tdScheduleB) {
    p.tdMode = 1;
    std::snprintf(text, sizeof text, "B: the %s are 1 - 1/%d zeros", blocks, side);
  } else {
    // Each output tile accumulates every tap of one diagonal block.
    p.tdSpeedupA = estimateTensorDash(prog_.config, p.zerosA, {}, taps * side, hw_.dim).speedupA;
    p.tdMode = p.tdSpeedupA < kTdMinGain ? 2 : 0;
    std::snprintf(text, sizeof text,
                  "%s: B scheduling is not built; the model expects %.2fx from A's zeros",
                  p.tdMode == 0 ? "A" : "off", p.tdSpeedupA);
  }
  p.tdReason = text;
}

// A layer's int32 biases as the driver reads them: by_acc_t, the config's accumulator width
// (the quantizer bounds them for 32 bits; a narrower accumulator must hold each as it is).
BlobRange Planner::putBias(const Layer& l) {
  switch (prog_.config.types.accWidth) {
  case 64:
    return putVec(prog_.blob, std::vector<int64_t>(l.qbias.begin(), l.qbias.end()));
  case 16: {
    std::vector<int16_t> narrow;
    for (int32_t b : l.qbias) {
      if (b < INT16_MIN || b > INT16_MAX)
        throw CompileError("layer '" + l.name + "': its quantized bias " + std::to_string(b) +
                           " does not fit the config's 16-bit accumulator (types.acc_width)");
      narrow.push_back(int16_t(b));
    }
    return putVec(prog_.blob, narrow);
  }
  default:
    return putVec(prog_.blob, l.qbias);
  }
}

// Residual add and global average pooling sum chunks in the accumulator: an accumulator of
// fewer than DIM rows holds none (by_plan_eltwise_chunk_cols), and the driver would refuse.
void Planner::eltwiseOnCpuIfNoChunk(LayerPlan& p) const {
  if (by_plan_eltwise_chunk_cols(&hw_.planner) != 0)
    return;
  p.onCpu = true;
  p.cpuReason = "the accumulator holds fewer than DIM rows, the chunk the kernel sums in";
}

void Planner::planLayer(int li, LayerPlan& p) {
  const Layer& l = g_.layers[li];
  p.layer = li;
  p.macs = g_.macs(l);
  mvoutActivation(l, p);
  switch (l.kind) {
  case LayerKind::Conv:
    if (l.depthwise)
      planDepthwise(l, p);
    else
      planConv(l, p);
    break;
  case LayerKind::Dense: {
    const Shape& in = shapeOf(l.inputs[0]);
    // Vector PEs without LOOP_WS: a dense layer is a 1x1 convolution (its weights are the
    // [1][K][N] kernel), which the convolution loop runs without the host issuing every tile.
    const Shape co{in.n, in.h, in.w, shapeOf(l.output).c};
    p.zerosA = calibZeros(l.inputs[0]);
    if (hw_.lanes > 1 && !hw_.planner.loop_ws && planConvLoopLanes(l, p, in, co))
      break;
    p.kernel = Kernel::Matmul;
    planMatmul(l, p, in.pixels(), in.c, shapeOf(l.output).c, calibZeros(l.inputs[0]));
    break;
  }
  case LayerKind::Add:
    p.kernel = Kernel::Resadd;
    p.estDramBytes = 3 * shapeOf(l.output).elems();
    eltwiseOnCpuIfNoChunk(p);
    break;
  case LayerKind::GlobalAvgPool:
    if (planGlobalAverageMatmul(l, p))
      break;
    p.kernel = Kernel::GlobalAvg;
    p.estDramBytes = shapeOf(l.inputs[0]).elems() + shapeOf(l.output).elems();
    eltwiseOnCpuIfNoChunk(p);
    break;
  case LayerKind::AvgPool:
    if (planAvgPoolConv(l, p))
      break;
    p.kernel = Kernel::AvgPool;
    p.onCpu = true;
    p.cpuReason = "average pooling on the array needs one-lane PEs and WS, or a conv loop";
    if (!l.poolScales.empty())
      p.table = putVec(prog_.blob, l.poolScales);
    break;
  case LayerKind::MaxPool:
    if (planMaxPoolConv(l, p))
      break;
    p.kernel = Kernel::MaxPool;
    p.onCpu = true;
    p.cpuReason = "max pooling the mvout cannot do (a window that is not square with one "
                  "padding on every side, ceil_mode adding a row or column, a window or map "
                  "beyond the pooling fields, or padding over values that may be negative)";
    break;
  case LayerKind::Concat:
  case LayerKind::Pad:
  case LayerKind::Slice:
    p.kernel = Kernel::Copy;
    p.estDramBytes = 2 * shapeOf(l.output).elems();
    break;
  case LayerKind::Softmax:
    p.kernel = Kernel::Softmax;
    p.onCpu = true;
    p.cpuReason = "softmax (exp table)";
    p.table = putVec(prog_.blob, l.expTable);
    break;
  case LayerKind::LayerNorm: {
    // by_layernorm: the sums and the normalized values on the array, a scale per pixel on the
    // host (by_plan_layernorm_on_array: the same rule as the driver's).
    p.kernel = Kernel::LayerNorm;
    const Shape& s = shapeOf(l.output);
    if (by_plan_layernorm_on_array(&hw_.planner, l.qmin, l.qmax)) {
      p.workspaceBytes =
          int64_t(by_plan_layernorm_workspace_bytes(&hw_.planner, size_t(s.pixels())));
      p.estDramBytes = 3 * s.elems() + p.workspaceBytes; // read twice, written once; the sums
    } else {
      p.onCpu = true;
      const by_hw_t& h = hw_.planner;
      p.cpuReason = !h.transposer ? "layer normalization (its sums need the transposer)"
                    : by_plan_layernorm_on_array(&h, -(1 << (h.input_width - 1)),
                                                 (1 << (h.input_width - 1)) - 1)
                        ? "layer normalization with a clamp the mvout lacks"
                        : "layer normalization (its sums of squares would not be exact in the "
                          "spatial output or accumulator width)";
    }
    break;
  }
  case LayerKind::Clamp:
    p.kernel = Kernel::Clamp;
    p.onCpu = true;
    p.cpuReason = "stand-alone activation";
    p.clampAfter = false;
    break;
  case LayerKind::Reorder:
    p.kernel = Kernel::Reorder;
    p.onCpu = true;
    p.cpuReason = "layout change to ONNX's CHW order";
    break;
  case LayerKind::Pointwise:
    p.kernel = Kernel::Lookup;
    p.onCpu = true;
    p.cpuReason = std::string(pointwiseFnName(l.fn)) +
                  (hw_.table ? " (an int8 table; the layer before cannot apply it on its mvout)"
                             : " (an int8 table; the config has no mvout table)");
    p.table = putVec(prog_.blob, l.table);
    break;
  case LayerKind::Resize:
    planResize(l, p);
    break;
  case LayerKind::Mul: {
    const bool perChannel = shapeOf(l.inputs[1]) != shapeOf(l.inputs[0]);
    const LayerPlan before = p;
    if (perChannel && planScaleConv(l, p))
      break;
    p = before;
    p.kernel = Kernel::Mul;
    p.onCpu = true;
    p.cpuReason = perChannel ? "product by a factor per channel (depthwise convolutions run on "
                               "the CPU on this config)"
                             : "element-wise product of two maps (the array multiplies a map "
                               "only by weights)";
    break;
  }
  }
  if (p.onCpu) {
    p.dataflow.clear();
    p.estDramBytes = 0;
  }
}

// A pointwise function whose input only its layer reads runs on the mvout of the layer that
// writes that input (activations.table): an accumulator kernel on the accelerator with nothing
// the CPU does after it (a clamp or a pool would then come after the table).
void Planner::fuseTables() {
  if (!hw_.table)
    return;
  for (int li = 0; li < int(g_.layers.size()); ++li) {
    const Layer& l = g_.layers[li];
    if (l.kind != LayerKind::Pointwise)
      continue;
    const int t = l.inputs[0];
    int lp = -1;
    for (int i = 0; i < li; ++i)
      if (g_.layers[i].output == t)
        lp = i;
    if (lp < 0 || g_.storageOf(t) != t || g_.aliasGroup(t).size() != 1 || t == g_.output ||
        g_.consumers(t) != std::vector<int>{li})
      continue;
    LayerPlan& p = prog_.layers[lp];
    const bool accKernel = p.kernel == Kernel::Conv || p.kernel == Kernel::Im2colConv ||
                           p.kernel == Kernel::Matmul || p.kernel == Kernel::Im2colMatmul ||
                           p.kernel == Kernel::AvgPoolConv || p.kernel == Kernel::MaxPoolConv ||
                           p.kernel == Kernel::ScaleConv || p.kernel == Kernel::Resadd ||
                           p.kernel == Kernel::GlobalAvg;
    if (!accKernel || p.onCpu || p.clampAfter || p.separatePool || p.mvoutTable.present())
      continue;
    p.mvoutTable = putVec(prog_.blob, l.table);
    p.writesTo = l.output;
    LayerPlan& q = prog_.layers[li];
    q.kernel = Kernel::FusedTable;
    q.onCpu = false;
    q.cpuReason.clear();
    q.table = BlobRange{};
    q.fusedInto = lp;
  }
}

void Planner::planMemory() {
  MemoryPlan& m = prog_.memory;
  const int nl = int(g_.layers.size());
  m.offset.assign(g_.tensors.size(), -1);
  const int in = g_.storageOf(g_.input), out = g_.storageOf(g_.output);
  m.inputBytes = shapeOf(in).elems();
  m.outputBytes = shapeOf(out).elems();
  struct Buf {
    int tensor; // -1: a layer's workspace
    int layer;  // for workspaces
    bool temp;  // workspace vs pre-pool temp
    int first, last;
    int64_t bytes;
    int64_t offset = -1;
  };
  std::vector<Buf> bufs;
  for (int li = 0; li < nl; ++li) {
    const int t = g_.storageOf(g_.layers[li].output);
    if (t != out) {
      int last = li;
      for (int lj = li + 1; lj < nl; ++lj)
        for (int x : g_.layers[lj].inputs)
          if (g_.storageOf(x) == t)
            last = lj;
      // A fused table's output is written by the layer before (LayerPlan::writesTo).
      const int first = prog_.layers[li].fusedInto >= 0 ? prog_.layers[li].fusedInto : li;
      // A compressed tensor: its pointer table, then its stream (the worst case).
      const int64_t bytes =
          m.compressed(t) ? alignUp(m.bovedaTable[size_t(t)]) + alignUp(m.bovedaStream[size_t(t)])
                          : alignUp(shapeOf(t).elems());
      bufs.push_back({t, li, false, first, last, bytes});
    }
    const LayerPlan& p = prog_.layers[li];
    if (p.workspaceBytes > 0)
      bufs.push_back({-1, li, false, li, li, alignUp(p.workspaceBytes)});
    if (p.tempBytes > 0)
      bufs.push_back({-1, li, true, li, li, alignUp(p.tempBytes)});
  }
  for (const Buf& b : bufs)
    m.naiveBytes += b.bytes;
  // Largest first, each at the lowest offset free over its lifetime.
  std::vector<int> order(bufs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return bufs[a].bytes > bufs[b].bytes; });
  std::vector<int> placed;
  for (int i : order) {
    Buf& b = bufs[i];
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (int j : placed)
      if (!(bufs[j].last < b.first || bufs[j].first > b.last))
        busy.push_back({bufs[j].offset, bufs[j].offset + bufs[j].bytes});
    std::sort(busy.begin(), busy.end());
    int64_t at = 0;
    for (auto [lo, hi] : busy) {
      if (at + b.bytes <= lo)
        break;
      at = std::max(at, hi);
    }
    b.offset = at;
    placed.push_back(i);
    m.arenaBytes = std::max(m.arenaBytes, at + b.bytes);
  }
  m.bovedaStreamOffset.assign(m.bovedaTable.size(), 0);
  for (const Buf& b : bufs) {
    if (b.tensor >= 0 && m.compressed(b.tensor))
      m.bovedaStreamOffset[size_t(b.tensor)] = b.offset + alignUp(m.bovedaTable[size_t(b.tensor)]);
    if (b.tensor >= 0)
      m.offset[b.tensor] = b.offset;
    else if (b.temp)
      prog_.layers[b.layer].tempOffset = b.offset;
    else
      prog_.layers[b.layer].workspaceOffset = b.offset;
  }
}

Program Planner::run() {
  if (hw_.boveda && opt_.bovedaWeights && hw_.lanes != 1)
    prog_.notes.push_back("Boveda: the weights stay uncompressed: vector PEs (array.lanes " +
                          std::to_string(hw_.lanes) +
                          ") read lane-packed weights, which have no compressed form yet");
  prog_.layers.resize(g_.layers.size());
  for (int li = 0; li < int(g_.layers.size()); ++li)
    planLayer(li, prog_.layers[li]);
  if (rawWeightLayers_)
    prog_.notes.push_back("Boveda: the weights of " + std::to_string(rawWeightLayers_) +
                          " layers stay uncompressed: no loop moves them, or their compressed form "
                          "(stream and pointer table) would not be smaller enough (convolutions: "
                          "10%)");
  fuseTables();
  compressActivations();
  passPlannedTiles();
  planMemory();
  const MemoryPlan& m = prog_.memory;
  prog_.dramBytesNeeded =
      int64_t(prog_.blob.size()) + m.arenaBytes + alignUp(m.inputBytes) + alignUp(m.outputBytes);
  const int64_t need = prog_.dramBytesNeeded + kProgramReserve;
  if (need > int64_t(prog_.config.soc.dram.sizeMiB) << 20)
    dramError(prog_.config, need, int64_t(prog_.blob.size()),
              m.arenaBytes + m.inputBytes + m.outputBytes);
  return std::move(prog_);
}

} // namespace lowering

void checkFitsDram(const Graph& g, const config::Config& config) {
  int64_t weights = 0, largest = 0;
  for (const Layer& l : g.layers)
    weights += int64_t(l.weights.size()) + 4 * int64_t(l.bias.size());
  for (const Tensor& t : g.tensors)
    largest = std::max(largest, t.shape.elems());
  const int64_t acts =
      g.tensors[g.input].shape.elems() + g.tensors[g.output].shape.elems() + largest;
  const int64_t need = weights + acts + kProgramReserve;
  if (need > int64_t(config.soc.dram.sizeMiB) << 20)
    dramError(config, need, weights, acts);
}

Program planProgram(const Graph& g, const config::Config& config, const PlanOptions& options) {
  return lowering::Planner(g, config, options).run();
}

} // namespace by::compiler
