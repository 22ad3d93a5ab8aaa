// Convolutions, depthwise convolutions and average pooling on by_conv (compiler/plan.h,
// planner.h): the compiler's choices (the thin-input im2col, the command path's tiles by
// estimated time, forcing the command path where the loop runs slower) and the call the program
// makes, which the driver's planner plans: what it records is what by_conv runs.
#include "boveda_weights.h"
#include "compiler/error.h"
#include "planner.h"
#include "tiling.h"

#include <algorithm>

namespace by::compiler::lowering {
namespace {

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

/// Depthwise weights [c][tap] as the diagonal stripes of the loops' depthwise mode (docs/isa.md
/// "Depthwise mode", the driver's build_stripes): per tap ceil(dim / lanes) packed rows of
/// channels x lanes elements, channel c's weight in packed row (c % dim) / lanes, element
/// c x lanes + (c % dim) % lanes, zeros elsewhere.
std::vector<int8_t> depthwiseStripes(const std::vector<int8_t>& w, int64_t taps, int64_t channels,
                                     int64_t dim, int64_t lanes) {
  const int64_t bandRows = (dim + lanes - 1) / lanes, row = channels * lanes;
  std::vector<int8_t> out(size_t(taps * bandRows * row), 0);
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t i = c % dim;
    for (int64_t t = 0; t < taps; ++t)
      out[size_t((t * bandRows + i / lanes) * row + c * lanes + i % lanes)] =
          w[size_t(c * taps + t)];
  }
  return out;
}

} // namespace

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
int64_t Planner::recordConv(const Layer& l, LayerPlan& p, const by_conv_shape_t& s) const {
  p.conv = ConvCall{s, {}};
  if (p.onCpu) {
    by_conv_workspace_t w;
    by_plan_conv_workspace(&hw_.planner, &s, &w);
    p.conv->plan.workspace_bytes = w.bytes;
    return 0;
  }
  const by_status_t st = by_plan_conv(&hw_.planner, &s, &p.conv->plan);
  if (st != BY_OK)
    throw CompileError("layer '" + l.name + "': the driver cannot run its convolution (" +
                       by_status_string(st) + ")");
  p.dataflow = dataflowName(hw_, p.conv->plan.dataflow);
  int64_t weightLoads = 0;
  if (const int64_t bytes = convPathDramBytes(hw_, s, p.conv->plan, &weightLoads))
    p.estDramBytes = bytes;
  return weightLoads;
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
  regroupPointwiseRows(l, p, in, co, s, plan);
  const int64_t taps = int64_t(l.window.kh) * l.window.kw;
  s.dataflow = plan.dataflow; // model.c names it
  const bool os = plan.dataflow == hw_.planner.dataflow_os;
  p.kernel = Kernel::Conv;
  p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.kb, true, false};
  // Lane-packed as the loop reads them: per tap, or per kernel row of kw x cin channels where it
  // folds the kernel columns (the same bytes as kh taps of kw x cin channels).
  p.weights =
      putVec(prog_.blob, plan.folded ? packConvWeights(l.qweights, l.window.kh,
                                                       int64_t(l.window.kw) * in.c, co.c, hw_.lanes)
                                     : packConvWeights(l.qweights, taps, in.c, co.c, hw_.lanes));
  if (!l.qbias.empty())
    p.bias = putBias(l);
  const ConvTiles t = chooseConvTiles(hw_, in, l.window, co.c, false, FusedPool{});
  p.estDramBytes = t.bytes;
  setTensorDash(p, calibZeros(l.inputs[0]), l.qweights, taps * in.c, co.c, os);
  planPooling(l, p, co);
  recordConv(l, p, s);
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
  return true;
}

// The loop computes blocks of DIM pixels of one output row, so rows of W % DIM pixels leave
// part of a block idle (MobileNetV2's and ResNet-50's 14x14 maps: 16 rows of a block pass for
// 14 pixels). A 1x1 stride-1 unpadded convolution without a pool is one product over its pixels,
// so its image may be passed to by_conv as H / k rows of k W pixels (the same NHWC bytes): the
// k with the fewest blocks, (H / k) ceil(k W / DIM), fewer than as it is (28x28: k = 2, rows of
// 56; 14x14: k = 14, one row of 196), where the driver's loop takes that shape and still reads
// the input once: every output-channel block in one tile, or the input kept in the scratchpad
// across the tiles (by_plan_conv_loop_reuse), with two or more blocks a tile. On td8
// MobileNetV2's 14x14 layers, which keep their input, take 0.67-0.79x the cycles as one row;
// ResNet-50's 14x14 ones over 1024 channels, whose input is split and read per tile, 1.2x;
// MobileNetV2's 28x28 ones as one row, at one block a tile, 1.2-1.8x.
void Planner::regroupPointwiseRows(const Layer& l, LayerPlan& p, const Shape& in, const Shape& co,
                                   by_conv_shape_t& s, by_conv_plan_t& plan) const {
  const int64_t dim = hw_.dim;
  const bool pointwise =
      l.window.kh == 1 && l.window.kw == 1 && s.stride == 1 && s.stride_cols == 1 &&
      s.pad_top + s.pad_left + s.pad_bottom + s.pad_right == 0 && s.pool_stride == 0;
  if (!pointwise)
    return;
  auto blocksOf = [&](int64_t rows, int64_t cols) { return rows * ((cols + dim - 1) / dim); };
  const size_t ochBlocks = (size_t(co.c) + size_t(dim) - 1) / size_t(dim);
  int64_t best = blocksOf(in.h, in.w);
  for (int64_t k = 2; k <= in.h; ++k) {
    if (in.h % k != 0 || blocksOf(in.h / k, k * in.w) >= best)
      continue;
    by_conv_shape_t row = s;
    row.in_rows = size_t(in.h / k), row.in_cols = size_t(k * in.w);
    by_conv_plan_t rowPlan;
    if (by_plan_conv(&hw_.planner, &row, &rowPlan) != BY_OK || rowPlan.path != BY_CONV_LOOP ||
        rowPlan.dataflow != plan.dataflow || rowPlan.tile_och < std::min<size_t>(2, ochBlocks))
      continue;
    by_conv_geom_t g;
    by_plan_conv_geom(&hw_.planner, &row, &g);
    const by_conv_tiles_t t = {rowPlan.tile_batch, rowPlan.tile_rows, rowPlan.tile_och,
                               rowPlan.tile_k};
    if (rowPlan.tile_och < ochBlocks &&
        by_plan_conv_loop_reuse(0, row.batch, &g, &t) != BY_CONV_KEEP_INPUT)
      continue;
    best = blocksOf(in.h / k, k * in.w);
    s = row, plan = rowPlan, p.rowPixels = k * in.w;
  }
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

// Why a convolution whose output rows the accumulator cannot hold runs on the CPU: the driver
// tiles output rows, not columns, and needs a row of one DIM-channel block in half the
// accumulator (the other half takes the next tile).
std::string Planner::rowTooWide(const Shape& co) const {
  return "one output row (" + std::to_string(co.w) + " pixels of " + std::to_string(hw_.dim) +
         " channels) does not fit half the accumulator (" +
         std::to_string(hw_.planner.acc_rows / 2) + " rows)";
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
  // A strided convolution with a 1x1 kernel or output rows shorter than DIM fills the WS array
  // badly on the loop (it loads stride^2 times the pixels a 1x1 kernel reads; a compute covers
  // one short row) and on the command path (few computes per preloaded weight block). Its
  // im2col matrix is small (out pixels x taps x in_ch: a quarter of the input for 1x1/2, 9/4 of
  // it for 3x3/2) and runs as the LOOP_WS matmul, whose A blocks are DIM pixels of any rows.
  // Measured on ResNet-50's default RTL (docs/BENCHMARKS.md, "Whole-network utilization (issue
  // 30)"): 3x3/2 at 14x14 1.39 M -> 0.72 M cycles, 1x1/2 at 14x14 1.24 M -> 0.63 M, DRAM about the
  // same. (Stride-1 7x7 maps gain 12% of their cycles for 43% more DRAM bytes: they keep the loop.)
  const bool stridedWindow = l.window.strideH > 1 || l.window.strideW > 1;
  if (hw_.planner.loop_ws && stridedWindow && (taps == 1 || co.w < hw_.dim)) {
    viaIm2col = true;
  } else if (taps > 1 && in.c < hw_.dim) {
    const FusedPool fp = hwPool ? l.pool : FusedPool{};
    const Shape flat{co.n, co.h, co.w, int(taps * in.c)};
    // Where the driver's loop folds the kernel columns into the channels (docs/driver.md, "Thin
    // inputs") it reads the input where it lies (a column-padded copy, 2 bytes moved per input
    // byte); the im2col matrix is taps x in_ch bytes per output pixel written and read back:
    // ResNet-18's stem on the default took 4.98 M cycles through it and 1.65 M folded.
    by_conv_shape_t probe = convCallShape(l, in, l.window, false, hwPool);
    const bool folds = hw_.planner.loop_conv_ws && by_plan_conv_folds(&hw_.planner, &probe);
    const ConvTiles direct = chooseConvTiles(hw_, in, l.window, co.c, false, fp);
    const ConvTiles over = chooseConvTiles(hw_, flat, Window{}, co.c, false, fp);
    viaIm2col =
        direct.rows == 0 || (!folds && over.rows > 0 &&
                             over.cycles + im2colIssueCycles(hw_, in, l.window) < direct.cycles);
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
  // Compressed weights are unpacked matrices: one-lane PEs only (the driver's rule).
  const bool boveda = hw_.boveda && opt_.bovedaWeights && hw_.lanes == 1;
  // The tiling must leave room for the fused pool's rows. (Compressed weights only go to loops,
  // whose tiles the driver chooses: the command path's tiles split no block.)
  const ConvTiles t =
      chooseConvTiles(hw_, convIn, convWin, co.c, false, hwPool ? l.pool : FusedPool{}, 1);
  if (t.rows == 0) { // the CPU computes it as the array would (ChunkRule above)
    p.kernel = Kernel::Conv;
    p.onCpu = true;
    p.cpuReason = rowTooWide(co);
    p.workspaceBytes = 0;
    p.weights = putVec(prog_.blob, l.qweights); // [kh][kw][cin][cout], as below
    if (!l.qbias.empty())
      p.bias = putBias(l);
    planPooling(l, p, co);
    recordConv(l, p, convCallShape(l, in, l.window, false, false));
    // by_conv sizes its workspace by the shape (a thin input's padded copy) wherever it runs.
    p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
    return;
  }
  by_conv_shape_t s = convCallShape(l, convIn, convWin, false, hwPool);
  // With the one-lane LOOP_CONV_WS the driver picks the path and the loops' tiles (a 1x1
  // stride-1 convolution, also the im2col one, runs as its LOOP_WS matmul; compressed weights
  // run in the loop where its tiles hold whole weight blocks); the command path's
  // tiles stay the estimate. Except for strided convolutions with a 1x1 kernel or output rows
  // shorter than DIM: the loop loads stride^2 times the pixels a 1x1 kernel reads, and a short
  // row fills part of the array per compute, so these take the command path with these tiles
  // (measured on ResNet-50's shapes, docs/BENCHMARKS.md). Elsewhere the program passes them.
  const bool loopConv = hw_.planner.loop_conv_ws && hw_.lanes == 1;
  const bool strided = convWin.strideH > 1 || convWin.strideW > 1;
  if (loopConv && strided && ((convWin.kh == 1 && convWin.kw == 1) || co.w < hw_.dim))
    s.path = BY_CONV_COMMANDS;
  if (!loopConv || s.path == BY_CONV_COMMANDS)
    s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
  p.estDramBytes = t.bytes + (viaIm2col ? 2 * p.workspaceBytes : 0);
  const by_conv_shape_t plain = s;
  std::optional<BovedaMatrix> b;
  int64_t bovedaRows = 0;
  if (boveda) {
    // Compressed weights: each (tap, channel block) of by_conv's input a band of DIM rows
    // (by_conv_t weights_boveda), a tap's last block padded with zero rows.
    const int64_t convTaps = int64_t(convWin.kh) * convWin.kw, cin = convIn.c;
    const int64_t cblocks = (cin + hw_.dim - 1) / hw_.dim, rows = convTaps * cblocks * hw_.dim;
    bovedaRows = rows;
    std::vector<int8_t> padded(size_t(rows * co.c), 0);
    for (int64_t tap = 0; tap < convTaps; ++tap)
      for (int64_t ci = 0; ci < cin; ++ci)
        std::copy_n(&l.qweights[size_t((tap * cin + ci) * co.c)], co.c,
                    &padded[size_t((tap * cblocks * hw_.dim + ci) * co.c)]);
    // The loop reads blocks of one output-channel block (DIM x DIM) wherever the driver runs
    // the convolution as a loop. Elsewhere the weights stay raw: host-issued compressed moves of
    // the command path cost cycles and, with the tiles wide blocks force, bytes (ResNet-18's
    // strided 1x1 convolutions on boveda16: 1.9x the cycles, +12% bytes read).
    s.weights_block_cols = size_t(hw_.dim);
    by_conv_plan_t probe;
    if (s.tile_rows == 0 && by_plan_conv(&hw_.planner, &s, &probe) == BY_OK &&
        probe.path == BY_CONV_LOOP) {
      b = compressMatrix(padded, rows, co.c, hw_.dim, hw_.dim, prog_.config);
      if (!compressionPays(*b, int64_t(l.qweights.size()), kConvWeightsMaxPercent))
        b.reset();
    }
    if (!b) { // raw, planned as without Boveda
      s = plain;
      ++rawWeightLayers_;
    }
  }
  if (b) {
    p.bovedaStream = put(prog_.blob, b->stream.data(), b->stream.size());
    p.bovedaTable = put(prog_.blob, b->table.data(), b->table.size());
    p.bovedaBlockCols = b->blockCols;
    p.bovedaRows = bovedaRows;
    p.estDramBytes += (int64_t(b->stream.size()) - int64_t(l.qweights.size())) * t.bands;
  } else {
    // [kh][kw][cin][cout] is also the 1x1 convolution's [1][1][kh*kw*cin][cout].
    p.weights = putVec(prog_.blob, l.qweights);
  }
  if (!l.qbias.empty())
    p.bias = putBias(l);
  planPooling(l, p, co);
  const int64_t weightLoads = recordConv(l, p, s);
  if (p.conv->plan.path != BY_CONV_COMMANDS) // the driver's path's traffic, plus as above
    p.estDramBytes +=
        (viaIm2col ? 2 * p.workspaceBytes : 0) +
        (b ? (int64_t(b->stream.size()) - int64_t(l.qweights.size())) * weightLoads : 0);
  if (!viaIm2col) // a thin input's folded loop needs its padded copy
    p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
}

// In the loops' depthwise mode the weights go into the program as its diagonal stripes, laid out
// here once instead of by the host at every call (about 25 k host cycles a layer on
// MobileNetV2); by_conv then needs no workspace for them (weights_packed).
void Planner::planDepthwise(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  p.kernel = Kernel::Conv;
  if (!l.qbias.empty())
    p.bias = putBias(l);
  planDepthwiseCall(l, p, in);
  if (p.onCpu || !p.conv || !p.conv->plan.depthwise_mode) {
    p.weights = putVec(prog_.blob, l.qweights);
    return;
  }
  by_conv_shape_t s = p.conv->shape;
  s.weights_packed = 1;
  recordConv(l, p, s);
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
  const int64_t taps = int64_t(l.window.kh) * l.window.kw;
  p.weights =
      putVec(prog_.blob, depthwiseStripes(l.qweights, taps, in.c, hw_.dim, int64_t(hw_.lanes)));
}

// A product by a factor per image and channel (a squeeze-and-excitation scale): per image, a
// depthwise 1x1 convolution whose weights are that image's factors, read from the tensor at run
// time. One product per output: acc = a * b, then the mvout's accScale, as the int8 reference.
bool Planner::planScaleConv(const Layer& l, LayerPlan& p) {
  Shape image = shapeOf(l.inputs[0]);
  image.n = 1;
  p.kernel = Kernel::ScaleConv;
  p.macs = shapeOf(l.output).elems();
  planDepthwiseCall(l, p, image);
  return !p.onCpu;
}

// The by_conv call of a depthwise convolution of l's window over `in` (the weights and bias are
// in the plan already), on the array where the driver can, else on the CPU.
void Planner::planDepthwiseCall(const Layer& l, LayerPlan& p, const Shape& in) {
  const Shape co{in.n, l.window.outH(in.h), l.window.outW(in.w), in.c};
  p.chunk = ChunkRule{hw_.dim, true, false};
  by_conv_shape_t s = convCallShape(l, in, l.window, true, poolOnMvout(l, co));
  by_conv_plan_t loop;
  if (hw_.lanes > 1 && by_plan_conv(&hw_.planner, &s, &loop) == BY_OK &&
      loop.path == BY_CONV_LOOP) {
    // The loop over diagonal weight blocks (packed by the driver in the workspace).
    s.dataflow = loop.dataflow; // model.c names it
    const bool os = loop.dataflow == hw_.planner.dataflow_os;
    p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.dim, true, false};
    setDiagonalTensorDash(p, l, s, os, loop, "diagonal weight blocks");
  } else if (!(hw_.ws && hw_.lanes == 1)) {
    p.onCpu = true;
    const bool hasLoop = hw_.planner.loop_conv_ws || hw_.planner.loop_conv_os;
    p.cpuReason = hw_.lanes == 1 ? "depthwise convolution needs the WS dataflow"
                  : !hasLoop     ? "depthwise convolution needs one-lane PEs or a conv loop"
                                 : "depthwise convolution: the conv loop does not take it on "
                                   "this config (e.g. no tile of a pass's diagonal weight "
                                   "blocks, input window and output row fits the scratchpad's "
                                   "and accumulator's halves), and the command path needs "
                                   "one-lane PEs";
    s = convCallShape(l, in, l.window, true, false);
  } else {
    const ConvTiles t =
        chooseConvTiles(hw_, in, l.window, co.c, true, poolOnMvout(l, co) ? l.pool : FusedPool{});
    if (t.rows == 0) {
      p.onCpu = true;
      p.cpuReason = rowTooWide(co);
      s = convCallShape(l, in, l.window, true, false);
    } else {
      if (!(hw_.planner.loop_conv_ws && hw_.lanes == 1)) { // else the driver sizes the loops
        s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
      }
      p.estDramBytes = t.bytes;
    }
  }
  planPooling(l, p, co);
  recordConv(l, p, s);
  // by_conv checks a depthwise convolution's workspace also for its CPU version.
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
}

namespace {
bool samePlan(const by_conv_plan_t& a, const by_conv_plan_t& b) {
  return a.path == b.path && a.loop == b.loop && a.dataflow == b.dataflow && a.folded == b.folded &&
         a.depthwise_mode == b.depthwise_mode && a.tile_batch == b.tile_batch &&
         a.tile_rows == b.tile_rows && a.tile_och == b.tile_och && a.tile_k == b.tile_k &&
         a.workspace_bytes == b.workspace_bytes;
}
} // namespace

// Every convolution's path and tiles as the driver's planner chose them, passed to by_conv, which
// then checks them instead of searching again on the host at every call: the search costs a few
// hundred instructions a candidate, 5 k to 25 k host cycles a layer, which the array waits for
// where a layer's loops are short (td8's 7x7 layers, MobileNetV2's 1x1 layers). The loop path
// and the matmul path (1x1 convolutions as LOOP_WS matmuls, whose tiles by_conv hands to
// by_matmul) search; the command path's tiles are cheap to find and stay automatic. Run after
// every planning step that changes the calls (compressed activations plan them again), and kept
// only where the driver's plan with the tiles forced is the same plan.
void Planner::passPlannedTiles() {
  for (LayerPlan& p : prog_.layers) {
    if (!p.conv || p.onCpu || p.conv->shape.tile_rows)
      continue;
    const by_conv_plan_t& plan = p.conv->plan;
    if (!plan.loop && plan.path != BY_CONV_MATMUL)
      continue;
    by_conv_shape_t s = p.conv->shape;
    s.path = plan.path;
    s.tile_batch = plan.tile_batch, s.tile_rows = plan.tile_rows;
    s.tile_och = plan.tile_och, s.tile_k = plan.tile_k;
    by_conv_plan_t forced;
    if (by_plan_conv(&hw_.planner, &s, &forced) == BY_OK && samePlan(forced, plan))
      p.conv->shape = s;
  }
}

namespace {
// How many of a window's `taps` positions lie inside an image of `size` pixels, for output `o`.
int tapsInside(int o, int stride, int taps, int padBefore, int size) {
  const int first = o * stride - padBefore;
  return std::max(0, std::min(first + taps, size) - std::max(first, 0));
}
} // namespace

bool AvgPoolRegions::oneColCount() const {
  return std::all_of(colCount.begin(), colCount.end(), [&](int c) { return c == colCount[0]; });
}

int64_t AvgPoolRegions::tempBytes(const Shape& out) const {
  int rows = 0;
  for (const PoolRowRun& r : rowRuns)
    rows = std::max(rows, r.rows);
  return oneColCount() ? 0 : int64_t(rows) * out.w * out.c;
}

AvgPoolRegions avgPoolRegions(const Window& w, const Shape& in, const Shape& out) {
  AvgPoolRegions r;
  for (int oy = 0; oy < out.h; ++oy) {
    const int count = tapsInside(oy, w.strideH, w.kh, w.padT, in.h);
    if (r.rowRuns.empty() || r.rowRuns.back().count != count)
      r.rowRuns.push_back(PoolRowRun{oy, 0, count});
    ++r.rowRuns.back().rows;
  }
  for (PoolRowRun& run : r.rowRuns) {
    const int first = run.row0 * w.strideH - w.padT;                        // the first window row
    const int last = (run.row0 + run.rows - 1) * w.strideH - w.padT + w.kh; // past the last one
    run.in0 = std::max(first, 0);
    run.inRows = std::min(last, in.h) - run.in0;
    run.padT = run.in0 - first;
    run.padB = last - std::min(last, in.h);
  }
  for (int ox = 0; ox < out.w; ++ox)
    r.colCount.push_back(tapsInside(ox, w.strideW, w.kw, w.padL, in.w));
  // The least right padding that gives the output's width (none where the stride leaves the
  // image's last columns unread).
  r.padR = std::max(0, (out.w - 1) * w.strideW + w.kw - in.w - w.padL);
  return r;
}

// Average pooling = a depthwise convolution by ones, scaled by 1 / window, where the driver's
// planner runs it on the array (with the tiles of the time estimate). Where the divisor varies
// (padding not counted, ceil mode), one such convolution per region of one divisor
// (avgPoolRegions), the driver tiling each.
bool Planner::planAvgPoolConv(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const Shape& out = shapeOf(l.output);
  Window w = l.window;
  const bool regions = !l.poolScales.empty();
  if (regions) { // the whole layer's call, as the driver checks it: the output's exact size
    const AvgPoolRegions r = avgPoolRegions(l.window, in, out);
    if (std::any_of(r.rowRuns.begin(), r.rowRuns.end(),
                    [](const PoolRowRun& run) { return run.count == 0; }) ||
        std::count(r.colCount.begin(), r.colCount.end(), 0))
      return false; // a window wholly in the padding (none by ONNX's rules): the CPU's zeros
    w.ceilMode = false;
    w.padB = std::max(w.padB, (out.h - 1) * w.strideH + w.kh - in.h - w.padT);
    w.padR = std::max(w.padR, avgPoolRegions(l.window, in, out).padR);
  }
  const ConvTiles t = chooseConvTiles(hw_, in, w, out.c, true, FusedPool{});
  by_conv_shape_t s = convCallShape(l, in, w, true, false);
  s.bias = 0;
  // One lane: the compiler's tiles, but for the loops' depthwise mode, whose tiles are the
  // planner's (planOnesConv passes them; the command path's one channel block would make them one
  // block wide). Vector PEs run the depthwise loop, whose passes the driver sizes (a pass moves
  // `lanes` channel blocks: one-lane tiles overran the accumulator).
  by_conv_plan_t probe;
  const bool dwMode = by_plan_conv(&hw_.planner, &s, &probe) == BY_OK && probe.depthwise_mode;
  if (!regions && hw_.lanes == 1 && !dwMode)
    s.tile_rows = size_t(t.rows), s.tile_och = size_t(t.tn), s.tile_k = size_t(t.tk);
  const int64_t taps = int64_t(l.window.kh) * l.window.kw;
  p.estDramBytes = t.bytes; // the command path's; planOnesConv takes a loop's
  if (!planOnesConv(l, p, s, Kernel::AvgPoolConv, taps))
    return false;
  p.macs = in.n * int64_t(out.h) * out.w * out.c * taps;
  if (regions) {
    p.workspaceBytes = alignUp(p.workspaceBytes) + avgPoolRegions(l.window, in, out).tempBytes(out);
  }
  return true;
}

// A depthwise convolution by ones (average pooling, a max pool's copy) on the array where the
// driver's planner runs it: its dataflow, chunks, TensorDash side (the diagonal blocks of ones
// are mostly zeros: B) and weights. One-lane arrays without WS run depthwise convolutions, and
// so these, on the CPU: false.
bool Planner::planOnesConv(const Layer& l, LayerPlan& p, by_conv_shape_t s, Kernel kernel,
                           int64_t taps) {
  by_conv_plan_t plan;
  if ((hw_.lanes == 1 && !hw_.ws) || by_plan_conv(&hw_.planner, &s, &plan) != BY_OK)
    return false;
  if (hw_.lanes > 1)
    s.dataflow = plan.dataflow; // model.c names it
  const bool os = plan.dataflow == hw_.planner.dataflow_os;
  p.kernel = kernel;
  p.chunk = os ? ChunkRule{0, false, true} : ChunkRule{hw_.dim, true, false};
  setDiagonalTensorDash(p, l, s, os, plan, "diagonal blocks of ones");
  p.weights = putVec(prog_.blob, std::vector<int8_t>(size_t(shapeOf(l.inputs[0]).c) * taps, 1));
  recordConv(l, p, s);
  p.workspaceBytes = int64_t(p.conv->plan.workspace_bytes);
  return true;
}

// Whether every int8 value of tensor t is >= 0: its layer clamps at 0 or above (a ReLU), its
// table has no negative entry, or it only moves or picks such values.
bool Planner::nonNegative(int t) const {
  const int root = g_.storageOf(t);
  for (const Layer& l : g_.layers) {
    if (l.output != root)
      continue;
    if (l.qmin >= 0)
      return true;
    if (l.kind == LayerKind::Pointwise)
      return std::all_of(l.table.begin(), l.table.end(), [](int8_t v) { return v >= 0; });
    const bool moves = l.kind == LayerKind::Concat || l.kind == LayerKind::Slice ||
                       l.kind == LayerKind::MaxPool || l.kind == LayerKind::Pad ||
                       l.channelPermutation;
    return moves &&
           std::all_of(l.inputs.begin(), l.inputs.end(), [&](int in) { return nonNegative(in); });
  }
  return false; // the model's input
}

// Stand-alone max pooling on the array: a depthwise 1x1 convolution by ones (an exact copy: the
// pool's input and output share a scale, multiplier 1) whose mvout pools. The hardware pools
// square windows with one padding on every side and pads with zeros, which equals ONNX's
// -infinity only where the values are >= 0 (a window always holds one value of the image, also
// in ceil mode).
bool Planner::planMaxPoolConv(const Layer& l, LayerPlan& p) {
  const Shape& in = shapeOf(l.inputs[0]);
  const Shape& out = shapeOf(l.output);
  const Window& w = l.window;
  if (w.kh != w.kw || w.strideH != w.strideW || !w.symmetricPads())
    return false;
  // ceil_mode's last window: the 1x1 convolution pads the map's bottom and right with zeros
  // (`extra` rows and columns) for the pool's floor rule to reach it.
  auto extra = [&](int inDim, int outDim) {
    for (int e = 0; e < w.strideH; ++e)
      if ((inDim + 2 * w.padT + e - w.kh) / w.strideH + 1 == outDim)
        return e;
    return -1;
  };
  const int eh = extra(in.h, out.h), ew = extra(in.w, out.w);
  const bool zeros = w.padT > 0 || eh > 0 || ew > 0; // windows that read zeros
  if (eh < 0 || ew < 0 || (zeros && !nonNegative(l.inputs[0])))
    return false;
  Window grow; // 1x1, the extra zeros at the bottom and right
  grow.padB = eh;
  grow.padR = ew;
  Layer copy = l;
  copy.pool = FusedPool{w.kh, w.strideH, w.padT};
  if (!poolOnMvout(copy, Shape{in.n, in.h + eh, in.w + ew, in.c}))
    return false;
  by_conv_shape_t s = convCallShape(copy, in, grow, true, true);
  s.bias = 0;
  if (!planOnesConv(l, p, s, Kernel::MaxPoolConv, 1))
    return false;
  p.macs = in.elems();
  p.poolOnMvout = true;
  return true;
}

} // namespace by::compiler::lowering
