// Lowering and memory planning (compiler/plan.h).
#include "compiler/plan.h"

#include "boveda_weights.h"
#include "compiler/error.h"
#include "hw_facts.h"
#include "tiling.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

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
  case Kernel::AvgPool:
    return "by_avgpool";
  case Kernel::MaxPool:
    return "by_maxpool";
  case Kernel::Copy:
    return "by_copy";
  case Kernel::Softmax:
    return "by_softmax";
  case Kernel::Clamp:
    return "by_clamp";
  case Kernel::Reorder:
    return "by_nhwc_to_chw";
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

constexpr int64_t kAlign = 64;

int64_t alignUp(int64_t v) {
  return (v + kAlign - 1) / kAlign * kAlign;
}

BlobRange put(std::string& blob, const void* data, size_t bytes) {
  blob.resize(size_t(alignUp(int64_t(blob.size()))), '\0');
  BlobRange r{int64_t(blob.size()), int64_t(bytes)};
  blob.append(static_cast<const char*>(data), bytes);
  return r;
}

template <typename T> BlobRange putVec(std::string& blob, const std::vector<T>& v) {
  return put(blob, v.data(), v.size() * sizeof(T));
}

/// The weights of a Dense / im2col matmul, K x J int8, lane-packed for vector PEs
/// (docs/isa.md "Vector PEs": packed[t][j*L + l] = B[t*L + l][j]).
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

/// Convolution weights [tap][cin][cout] lane-packed per tap for vector PEs (by_pack_conv_weights:
/// each tap's cin x cout matrix packed as packB packs B).
std::vector<int8_t> packConvWeights(const std::vector<int8_t>& w, int64_t taps, int64_t cin,
                                    int64_t cout, int lanes) {
  if (lanes == 1)
    return w;
  std::vector<int8_t> out;
  for (int64_t t = 0; t < taps; ++t) {
    const std::vector<int8_t> tap(w.begin() + t * cin * cout, w.begin() + (t + 1) * cin * cout);
    const std::vector<int8_t> packed = packB(tap, cin, cout, lanes);
    out.insert(out.end(), packed.begin(), packed.end());
  }
  return out;
}

/// The activation the hardware applies on mvout, and whether a CPU clamp must follow.
void mvoutActivation(const Layer& l, LayerPlan& p) {
  p.clampAfter = (l.qmin != 0 && l.qmin != -128) || l.qmax != 127;
}

class Planner {
public:
  Planner(const Graph& g, const config::Config& cfg, const PlanOptions& o)
      : g_(g), hw_(hwFacts(cfg)), opt_(o) {
    prog_.config = cfg;
  }
  Program run();

private:
  const Graph& g_;
  HwFacts hw_;
  PlanOptions opt_;
  Program prog_;

  const Shape& shapeOf(int t) const { return g_.tensors[t].shape; }
  double calibZeros(int t) const { return g_.tensors[g_.storageOf(t)].zeroFraction; }
  void planLayer(int li, LayerPlan& p);
  void planConv(const Layer& l, LayerPlan& p);
  bool planConvLoopLanes(const Layer& l, LayerPlan& p, const Shape& in, const Shape& co);
  void setTensorDash(LayerPlan& p, double zerosA, const std::vector<int8_t>& weights) const;
  void planDepthwise(const Layer& l, LayerPlan& p);
  bool planAvgPoolConv(const Layer& l, LayerPlan& p);
  void planMatmul(const Layer& l, LayerPlan& p, int64_t rows, int64_t k, int64_t j, double zerosA);
  bool poolOnMvout(const Layer& l, const Shape& convOut) const;
  void planPooling(const Layer& l, LayerPlan& p, const Shape& convOut);
  by_conv_shape_t convCallShape(const Layer& l, const Shape& in, const Window& w, bool depthwise,
                                bool pool) const;
  void recordConv(const Layer& l, LayerPlan& p, const by_conv_shape_t& s) const;
  void planMemory();
};

// The shape of layer l's by_conv call over `in` with window w (a thin input's im2col matrix is a
// 1x1 convolution over it), with the fused pool when the mvout runs it: the path, dataflow and
// tiles automatic.
by_conv_shape_t Planner::convCallShape(const Layer& l, const Shape& in, const Window& w,
                                       bool depthwise, bool pool) const {
  by_conv_shape_t s =
      convShape(hw_, in, w, shapeOf(l.output).c, depthwise, pool ? l.pool : FusedPool{});
  s.bias = !l.qbias.empty();
  s.activation = reluOnMvout(l) ? hw_.planner.act_relu : hw_.planner.act_none;
  return s;
}

// The call as the program makes it, and what the driver runs for it (the driver's planner; on
// the CPU only the workspace by_conv checks). A call the driver would refuse fails the compile.
void Planner::recordConv(const Layer& l, LayerPlan& p, const by_conv_shape_t& s) const {
  p.conv = ConvCall{s, {}};
  if (p.onCpu) {
    by_conv_workspace_t w;
    by_plan_conv_workspace(&hw_.planner, &s, &w);
    p.conv->plan.workspace_bytes = w.bytes;
    return;
  }
  const by_status_t st = by_plan_conv(&hw_.planner, &s, &p.conv->plan);
  if (st != BY_OK)
    throw CompileError("layer '" + l.name + "': the driver cannot run its convolution (" +
                       by_status_string(st) + ")");
  p.dataflow = dataflowName(hw_, p.conv->plan.dataflow);
}

void Planner::planMatmul(const Layer& l, LayerPlan& p, int64_t rows, int64_t k, int64_t j,
                         double zerosA) {
  // Boveda weights: blocks of DIM rows x up to MAX_BLOCK_LEN column blocks (fewer pointer
  // entries per value), which J tiles must not split.
  const bool boveda = hw_.boveda && opt_.bovedaWeights && hw_.lanes == 1;
  const int64_t jBlocks = (j + hw_.dim - 1) / hw_.dim;
  const int64_t jGroup = boveda ? std::min<int64_t>(hw_.maxBlockLen, jBlocks) : 1;
  std::optional<BovedaMatrix> b;
  if (boveda) // weights stored compressed, read by compressed mvins
    b = compressMatrix(l.qweights, k, j, int(jGroup * hw_.dim), hw_.dim, prog_.config);
  MatmulCall call;
  by_matmul_shape_t& s = call.shape;
  s.I = size_t(rows), s.J = size_t(j), s.K = size_t(k);
  s.b_packed = !boveda; // the blob holds B lane-packed (vector PEs)
  s.b_block_cols = b ? size_t(b->blockCols) : 0;
  s.dataflow = BY_DATAFLOW_AUTO;
  // The program passes the planner's dataflow and tiles (the driver's automatic choice: the
  // fewest blocks of A and B moved) explicitly, so that the chunks below are the ones it runs.
  if (by_plan_matmul(&hw_.planner, &s, &call.plan) != BY_OK)
    throw CompileError("layer '" + l.name + "': no matmul tiling fits the config's memories");
  s.dataflow = call.plan.dataflow;
  s.tile_i = call.plan.tile_i, s.tile_j = call.plan.tile_j, s.tile_k = call.plan.tile_k;
  if (by_plan_matmul(&hw_.planner, &s, &call.plan) != BY_OK)
    throw CompileError("layer '" + l.name + "': the driver refuses its matmul tiles");
  const bool os = call.plan.dataflow == hw_.planner.dataflow_os;
  p.matmul = call;
  p.dataflow = dataflowName(hw_, call.plan.dataflow);
  p.estDramBytes = matmulDramBytes(hw_, rows, j, k, int64_t(s.tile_i), int64_t(s.tile_j));
  p.chunk.chunk = int(call.plan.k_chunk);
  p.chunk.saturate = os;
  p.chunk.perTap = false;
  if (b) {
    p.bovedaStream = put(prog_.blob, b->stream.data(), b->stream.size());
    p.bovedaTable = put(prog_.blob, b->table.data(), b->table.size());
    p.bovedaBlockCols = b->blockCols;
    p.bovedaRows = k;
    p.estDramBytes += int64_t(b->stream.size() + b->table.size()) - k * j;
  } else {
    p.weights = putVec(prog_.blob, packB(l.qweights, k, j, hw_.lanes));
  }
  if (!l.qbias.empty())
    p.bias = putVec(prog_.blob, l.qbias);
  setTensorDash(p, zerosA, l.qweights);
}

// TensorDash: schedule the operand with more zeros (C^T = B^T A^T, docs/tensordash.md).
void Planner::setTensorDash(LayerPlan& p, double zerosA, const std::vector<int8_t>& weights) const {
  int64_t zw = 0;
  for (int8_t w : weights)
    zw += w == 0;
  p.zerosA = zerosA;
  p.zerosB = weights.empty() ? 0 : double(zw) / double(weights.size());
  if (!hw_.td || !opt_.tensordash)
    p.tdMode = hw_.td ? 2 : 0;
  else
    p.tdMode = p.zerosB > p.zerosA ? 1 : 0;
}

// Vector PEs with a convolution loop: the loop is the convolution path (by_conv picks its
// tiles), output-stationary where the driver takes LOOP_CONV_OS (TensorDash skips zeros there),
// else weight-stationary; weights lane-packed per tap. A WS pass sums one tap's DIM x lanes
// channels (wrapping at the spatial output width); an OS loop sums a whole tile and saturates at
// that width, which is then the accumulator's: the exact sum (docs/arithmetic.md). Only where the
// driver's planner runs the convolution as a loop (not, e.g., with unequal strides).
bool Planner::planConvLoopLanes(const Layer& l, LayerPlan& p, const Shape& in, const Shape& co) {
  by_conv_shape_t s = convCallShape(l, in, l.window, false, poolOnMvout(l, co));
  s.weights_packed = 1;
  by_conv_plan_t plan;
  if (by_plan_conv(&hw_.planner, &s, &plan) != BY_OK || plan.path != BY_CONV_LOOP)
    return false;
  s.dataflow = plan.dataflow; // model.c names it
  const bool os = plan.dataflow == hw_.planner.dataflow_os;
  const int64_t taps = int64_t(l.window.kh) * l.window.kw;
  p.kernel = Kernel::Conv;
  p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.kb, true, false};
  p.weights = putVec(prog_.blob, packConvWeights(l.qweights, taps, in.c, co.c, hw_.lanes));
  if (!l.qbias.empty())
    p.bias = putVec(prog_.blob, l.qbias);
  const ConvTiles t = chooseConvTiles(hw_, in, l.window, co.c, false, FusedPool{});
  p.estDramBytes = t.bytes;
  setTensorDash(p, calibZeros(l.inputs[0]), l.qweights);
  if (!os)
    p.tdMode = hw_.td ? 2 : 0;
  planPooling(l, p, co);
  recordConv(l, p, s);
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
  return true;
}

// Whether the mvout runs the layer's fused max-pool (CONFIG_ST's pooling fields hold it).
bool Planner::poolOnMvout(const Layer& l, const Shape& convOut) const {
  return l.pool.present() &&
         by_plan_pool_fits(&hw_.planner, size_t(l.pool.size), size_t(l.pool.stride),
                           size_t(l.pool.pad), size_t(convOut.w), size_t(shapeOf(l.output).w));
}

void Planner::planPooling(const Layer& l, LayerPlan& p, const Shape& convOut) {
  if (!l.pool.present())
    return;
  const bool onConv = p.kernel == Kernel::Conv || p.kernel == Kernel::Im2colConv;
  if (onConv && !p.onCpu && poolOnMvout(l, convOut)) {
    p.poolOnMvout = true;
    return;
  }
  p.separatePool = true;
  p.tempBytes = convOut.elems();
}

void Planner::planConv(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const Shape co{in.n, l.window.outH(in.h), l.window.outW(in.w), shapeOf(l.output).c};
  const int64_t taps = int64_t(l.window.kh) * l.window.kw;
  const double zerosA = calibZeros(l.inputs[0]);
  p.zerosA = zerosA;
  if (hw_.lanes > 1 && planConvLoopLanes(l, p, in, co))
    return;
  if (!(hw_.ws && hw_.lanes == 1)) {
    // The im2col matrix then a matmul (vector PEs without a loop for the shape, OS-only arrays).
    p.kernel = Kernel::Im2colMatmul;
    const int64_t k = taps * in.c;
    p.workspaceBytes = co.pixels() * k;
    planMatmul(l, p, co.pixels(), k, co.c, zerosA);
    p.estDramBytes += 2 * p.workspaceBytes; // the im2col matrix written and read
    planPooling(l, p, co);
    return;
  }
  // On the WS array: by_conv sums one kernel tap of DIM input channels per pass, so a thin
  // input (fewer channels than DIM, e.g. an RGB image) would use a fraction of the array and
  // issue a command per tap. Then the im2col matrix (by strided copies) goes first and
  // by_conv runs a 1x1 convolution over it: passes of DIM (tap, channel) pairs.
  // Whichever the time estimate (tiling.h) prefers.
  const bool hwPool = poolOnMvout(l, co);
  bool viaIm2col = false;
  if (taps > 1 && in.c < hw_.dim) {
    const FusedPool fp = hwPool ? l.pool : FusedPool{};
    const Shape flat{co.n, co.h, co.w, int(taps * in.c)};
    const ConvTiles direct = chooseConvTiles(hw_, in, l.window, co.c, false, fp);
    const ConvTiles over = chooseConvTiles(hw_, flat, Window{}, co.c, false, fp);
    viaIm2col =
        direct.rows == 0 ||
        (over.rows > 0 && over.cycles + im2colIssueCycles(hw_, in, l.window) < direct.cycles);
  }
  Shape convIn = in;
  Window convWin = l.window;
  if (viaIm2col) {
    convIn = Shape{co.n, co.h, co.w, int(taps * in.c)};
    convWin = Window{};
    p.workspaceBytes = convIn.elems();
  }
  p.kernel = viaIm2col ? Kernel::Im2colConv : Kernel::Conv;
  p.chunk = ChunkRule{hw_.dim, !viaIm2col, false};
  const bool boveda = hw_.boveda && opt_.bovedaWeights;
  const int64_t nBlocks = (co.c + hw_.dim - 1) / hw_.dim;
  // The tiling must leave room for the fused pool's rows. Compressed weights come in blocks of
  // nGroup out-channel blocks that tiles must not split: the widest block that still fits.
  int64_t nGroup = boveda ? std::min<int64_t>(hw_.maxBlockLen, nBlocks) : 1;
  ConvTiles t;
  for (;; nGroup = std::max<int64_t>(1, nGroup / 2)) {
    t = chooseConvTiles(hw_, convIn, convWin, co.c, false, hwPool ? l.pool : FusedPool{}, nGroup);
    if (t.rows > 0 || nGroup == 1)
      break;
  }
  if (t.rows == 0)
    throw CompileError("layer '" + l.name +
                       "': one output row of the convolution does not fit half the "
                       "accumulator of this config");
  by_conv_shape_t s = convCallShape(l, convIn, convWin, false, hwPool);
  // With the one-lane LOOP_CONV_WS the driver picks the path and the loops' tiles (a 1x1
  // stride-1 convolution, also the im2col one, runs as its LOOP_WS matmul); the command path's
  // tiles stay the estimate. Except for strided convolutions with a 1x1 kernel or output rows
  // shorter than DIM: the loop loads stride^2 times the pixels a 1x1 kernel reads, and a short
  // row fills part of the array per compute, so these take the command path with these tiles
  // (measured on ResNet-50's shapes, docs/BENCHMARKS.md). Elsewhere the program passes them.
  const bool loopConv = hw_.planner.loop_conv_ws && hw_.lanes == 1;
  const bool strided = convWin.strideH > 1 || convWin.strideW > 1;
  if (loopConv && !boveda && strided && ((convWin.kh == 1 && convWin.kw == 1) || co.w < hw_.dim))
    s.path = BY_CONV_COMMANDS;
  if (!loopConv || boveda || s.path == BY_CONV_COMMANDS)
    s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
  p.estDramBytes = t.bytes + (viaIm2col ? 2 * p.workspaceBytes : 0);
  if (boveda) {
    // Compressed weights: each (tap, channel block) of by_conv's input a band of DIM rows
    // (by_conv_t weights_boveda), a tap's last block padded with zero rows.
    const int64_t convTaps = int64_t(convWin.kh) * convWin.kw, cin = convIn.c;
    const int64_t cblocks = (cin + hw_.dim - 1) / hw_.dim, rows = convTaps * cblocks * hw_.dim;
    std::vector<int8_t> padded(size_t(rows * co.c), 0);
    for (int64_t tap = 0; tap < convTaps; ++tap)
      for (int64_t ci = 0; ci < cin; ++ci)
        std::copy_n(&l.qweights[size_t((tap * cin + ci) * co.c)], co.c,
                    &padded[size_t((tap * cblocks * hw_.dim + ci) * co.c)]);
    const BovedaMatrix b =
        compressMatrix(padded, rows, co.c, int(nGroup * hw_.dim), hw_.dim, prog_.config);
    p.bovedaStream = put(prog_.blob, b.stream.data(), b.stream.size());
    p.bovedaTable = put(prog_.blob, b.table.data(), b.table.size());
    p.bovedaBlockCols = b.blockCols;
    p.bovedaRows = rows;
    p.estDramBytes += (int64_t(b.stream.size()) - int64_t(l.qweights.size())) * t.bands;
    s.weights_block_cols = size_t(b.blockCols);
  } else {
    // [kh][kw][cin][cout] is also the 1x1 convolution's [1][1][kh*kw*cin][cout].
    p.weights = putVec(prog_.blob, l.qweights);
  }
  if (!l.qbias.empty())
    p.bias = putVec(prog_.blob, l.qbias);
  planPooling(l, p, co);
  recordConv(l, p, s);
  if (!viaIm2col) // a thin input's folded loop needs its padded copy
    p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
}

void Planner::planDepthwise(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const Shape co{in.n, l.window.outH(in.h), l.window.outW(in.w), in.c};
  p.kernel = Kernel::Conv;
  p.chunk = ChunkRule{hw_.dim, true, false};
  p.weights = putVec(prog_.blob, l.qweights);
  if (!l.qbias.empty())
    p.bias = putVec(prog_.blob, l.qbias);
  by_conv_shape_t s = convCallShape(l, in, l.window, true, poolOnMvout(l, co));
  by_conv_plan_t loop;
  if (hw_.lanes > 1 && by_plan_conv(&hw_.planner, &s, &loop) == BY_OK &&
      loop.path == BY_CONV_LOOP) {
    // The loop over diagonal weight blocks (packed by the driver in the workspace).
    s.dataflow = loop.dataflow; // model.c names it
    const bool os = loop.dataflow == hw_.planner.dataflow_os;
    p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.dim, true, false};
    // The diagonal blocks are mostly zeros: scheduling them (B) skips those products.
    p.tdMode = hw_.td && opt_.tensordash && os ? 1 : hw_.td ? 2 : 0;
    p.zerosB = 1.0 - 1.0 / hw_.dim;
  } else if (!(hw_.ws && hw_.lanes == 1)) {
    p.onCpu = true;
    p.cpuReason = hw_.lanes > 1 ? "depthwise convolution needs one-lane PEs or a conv loop"
                                : "depthwise convolution needs the WS dataflow";
    s = convCallShape(l, in, l.window, true, false);
  } else {
    const ConvTiles t =
        chooseConvTiles(hw_, in, l.window, co.c, true, poolOnMvout(l, co) ? l.pool : FusedPool{});
    if (t.rows == 0)
      throw CompileError("layer '" + l.name + "': one output row does not fit the accumulator");
    if (!(hw_.planner.loop_conv_ws && hw_.lanes == 1)) { // else the driver sizes the loops
      s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
    }
    p.estDramBytes = t.bytes;
  }
  planPooling(l, p, co);
  recordConv(l, p, s);
  // by_conv checks a depthwise convolution's workspace also for its CPU version.
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
}

// Average pooling = a depthwise convolution by ones, scaled by 1 / window, where the driver's
// planner runs it on the array (with the tiles of the time estimate).
bool Planner::planAvgPoolConv(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const Shape& out = shapeOf(l.output);
  const ConvTiles t = chooseConvTiles(hw_, in, l.window, out.c, true, FusedPool{});
  by_conv_shape_t s = convCallShape(l, in, l.window, true, false);
  s.bias = 0;
  s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
  by_conv_plan_t plan;
  // One-lane arrays without WS pool on the CPU (as they run depthwise convolutions there).
  if ((hw_.lanes == 1 && !hw_.ws) || by_plan_conv(&hw_.planner, &s, &plan) != BY_OK)
    return false;
  if (hw_.lanes > 1)
    s.dataflow = plan.dataflow; // model.c names it
  const bool os = plan.dataflow == hw_.planner.dataflow_os;
  p.kernel = Kernel::AvgPoolConv;
  p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.dim, true, false};
  p.tdMode = hw_.td && opt_.tensordash && os ? 1 : hw_.td ? 2 : 0;
  const std::vector<int8_t> ones(size_t(in.c) * l.window.kh * l.window.kw, 1);
  p.weights = putVec(prog_.blob, ones);
  p.estDramBytes = t.bytes;
  p.macs = in.n * int64_t(out.h) * out.w * out.c * l.window.kh * l.window.kw;
  recordConv(l, p, s);
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
  return true;
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
    p.kernel = Kernel::Matmul;
    planMatmul(l, p, in.pixels(), in.c, shapeOf(l.output).c, calibZeros(l.inputs[0]));
    break;
  }
  case LayerKind::Add:
    p.kernel = Kernel::Resadd;
    p.estDramBytes = 3 * shapeOf(l.output).elems();
    break;
  case LayerKind::GlobalAvgPool:
    p.kernel = Kernel::GlobalAvg;
    p.estDramBytes = shapeOf(l.inputs[0]).elems() + shapeOf(l.output).elems();
    break;
  case LayerKind::AvgPool:
    if (l.poolScales.empty() && planAvgPoolConv(l, p))
      break;
    p.kernel = Kernel::AvgPool;
    p.onCpu = true;
    p.cpuReason = !l.poolScales.empty()
                      ? "average pooling that does not count the padding"
                      : "average pooling on the array needs one-lane PEs and WS, or a conv loop";
    if (!l.poolScales.empty())
      p.table = putVec(prog_.blob, l.poolScales);
    break;
  case LayerKind::MaxPool:
    p.kernel = Kernel::MaxPool;
    p.onCpu = true;
    p.cpuReason = "stand-alone max pooling (the array pools only on a convolution's mvout)";
    break;
  case LayerKind::Concat:
  case LayerKind::Pad:
    p.kernel = Kernel::Copy;
    p.estDramBytes = 2 * shapeOf(l.output).elems();
    break;
  case LayerKind::Softmax:
    p.kernel = Kernel::Softmax;
    p.onCpu = true;
    p.cpuReason = "softmax (exp table)";
    p.table = putVec(prog_.blob, l.expTable);
    break;
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
  }
  if (p.onCpu) {
    p.dataflow.clear();
    p.estDramBytes = 0;
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
      bufs.push_back({t, li, false, li, last, alignUp(shapeOf(t).elems())});
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
  for (const Buf& b : bufs) {
    if (b.tensor >= 0)
      m.offset[b.tensor] = b.offset;
    else if (b.temp)
      prog_.layers[b.layer].tempOffset = b.offset;
    else
      prog_.layers[b.layer].workspaceOffset = b.offset;
  }
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

Program Planner::run() {
  prog_.layers.resize(g_.layers.size());
  for (int li = 0; li < int(g_.layers.size()); ++li)
    planLayer(li, prog_.layers[li]);
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

} // namespace

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
  return Planner(g, config, options).run();
}

} // namespace by::compiler
