#include "compiler/passes.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace by::compiler {
namespace {

std::vector<std::string>* gLog = nullptr; // runPasses' change log (null outside it)

void note(const std::string& line) {
  if (gLog)
    gLog->push_back(line);
}

/// The layer producing tensor t directly (not through an alias), or -1.
int producerOf(const Graph& g, int t) {
  for (int i = 0; i < int(g.layers.size()); ++i)
    if (g.layers[i].output == t)
      return i;
  return -1;
}

/// True if t is read only by `layer` (no alias, not the model output).
bool onlyConsumer(const Graph& g, int t, int layer) {
  if (t == g.output || g.storageOf(g.output) == t)
    return false;
  for (int a : g.aliasGroup(t))
    if (a != t)
      return false;
  const auto users = g.consumers(t);
  return users.size() == 1 && users[0] == layer;
}

/// The tensor a layer's input `t` really reads for a per-channel fold: t itself, or what t
/// relabels when t is a view in the other axis order (Transpose to or from channels-last) that
/// only `layer` reads, of a tensor nothing else reads.
int foldSource(const Graph& g, int t, int layer) {
  const Tensor& v = g.tensors[t];
  if (v.aliasOf < 0)
    return t;
  const int src = v.aliasOf;
  const Tensor& s = g.tensors[src];
  const bool view = s.aliasOf < 0 && v.shape == s.shape && v.channelsLast != s.channelsLast &&
                    !v.chwFrom && !s.chwFrom;
  if (!view || t == g.output || src == g.output || g.consumers(t) != std::vector<int>{layer} ||
      g.aliasGroup(src).size() != 2 || !g.consumers(src).empty())
    return t;
  return src;
}

/// `into` absorbs `from` (which read into's output): into takes from's output and names.
void absorb(Graph& g, int into, int from) {
  Layer& a = g.layers[into];
  Layer& b = g.layers[from];
  a.output = b.output;
  a.onnxNodes.insert(a.onnxNodes.end(), b.onnxNodes.begin(), b.onnxNodes.end());
  a.onnxOps.insert(a.onnxOps.end(), b.onnxOps.begin(), b.onnxOps.end());
  g.layers.erase(g.layers.begin() + from);
}

/// A pre-quantized model fixes scales: merging the layers that write `a` and `b` (a feeds
/// only b) is exact only if they agree (or `a` has none).
bool mergeableScales(const Graph& g, int a, int b) {
  const double fa = g.tensors[a].fixedScale, fb = g.tensors[b].fixedScale;
  return fa == 0 || fa == fb;
}

/// A per-channel affine map imported as a depthwise 1x1 convolution: BatchNormalization, or a
/// Mul / Div by a constant.
bool isChannelAffine(const Layer& l) {
  return l.kind == LayerKind::Conv && l.depthwise && l.window.kh == 1 && l.window.kw == 1 &&
         !l.onnxOps.empty() &&
         (l.onnxOps[0] == "BatchNormalization" || l.onnxOps[0] == "Mul" || l.onnxOps[0] == "Div");
}

/// Scales output channel `o` of a Conv/Dense by a and adds b to its bias.
void scaleChannels(Graph& g, Layer& p, const std::vector<float>& a, const std::vector<float>& b) {
  const int cout = g.tensors[p.output].shape.c;
  if (p.bias.empty())
    p.bias.assign(size_t(cout), 0.0f);
  if (p.kind == LayerKind::Conv && p.depthwise) {
    const size_t taps = size_t(p.window.kh) * p.window.kw;
    for (size_t i = 0; i < p.weights.size(); ++i)
      p.weights[i] *= a[i / taps];
  } else { // dense conv [..][cout] and Dense [K][J]: the output channel is innermost
    for (size_t i = 0; i < p.weights.size(); ++i)
      p.weights[i] *= a[i % size_t(cout)];
  }
  for (int o = 0; o < cout; ++o)
    p.bias[o] = p.bias[o] * a[o] + b[o];
}

/// Whether `l` reads its first input through weights per input channel with no padding: a
/// Dense, or a dense convolution whose taps all lie inside the image.
bool weighsChannelsUnpadded(const Layer& l) {
  if (l.kind == LayerKind::Dense)
    return true;
  const Window& w = l.window;
  return l.kind == LayerKind::Conv && !l.depthwise && l.groups == 1 && !l.channelPermutation &&
         w.padT == 0 && w.padL == 0 && w.padB == 0 && w.padR == 0;
}

/// Folds the channel affine map x a + b over `c` channels into consumer `l`'s weights (input
/// channel of weight i: i / cout mod c for a convolution, row mod c for a Dense).
void foldIntoWeights(Graph& g, Layer& l, const std::vector<float>& a, const std::vector<float>& b,
                     int c) {
  const int cout = g.tensors[l.output].shape.c;
  if (l.bias.empty())
    l.bias.assign(size_t(cout), 0.0f);
  std::vector<double> shift(size_t(cout), 0.0);
  for (size_t i = 0; i < l.weights.size(); ++i) {
    const size_t ch = (i / size_t(cout)) % size_t(c), o = i % size_t(cout);
    shift[o] += double(l.weights[i]) * b[ch];
    l.weights[i] *= a[ch];
  }
  for (int o = 0; o < cout; ++o)
    l.bias[size_t(o)] = float(l.bias[size_t(o)] + shift[size_t(o)]);
}

} // namespace

void splitLayerNormAffine(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    Layer& l = g.layers[i];
    if (l.kind != LayerKind::LayerNorm)
      continue;
    const bool identity =
        std::all_of(l.weights.begin(), l.weights.end(), [](float v) { return v == 1.0f; }) &&
        std::all_of(l.bias.begin(), l.bias.end(), [](float v) { return v == 0.0f; });
    if (identity && l.act.none()) {
      l.weights.clear();
      l.bias.clear();
      continue;
    }
    Tensor z = g.tensors[l.output];
    z.name = l.name + ".normalized";
    z.aliasOf = -1;
    z.fixedScale = 0;
    const int zId = g.addTensor(std::move(z));
    Layer affine;
    affine.kind = LayerKind::Conv;
    affine.depthwise = true;
    affine.name = l.name + "/affine";
    affine.onnxNodes = l.onnxNodes;
    affine.onnxOps = {"LayerNormalization"};
    affine.inputs = {zId};
    affine.output = l.output;
    affine.weights = std::move(l.weights);
    affine.bias = std::move(l.bias);
    affine.act = l.act;
    l.weights.clear();
    l.bias.clear();
    l.act = Activation{};
    l.output = zId;
    g.layers.insert(g.layers.begin() + i + 1, std::move(affine));
    ++i;
  }
}

void foldAffineIntoConsumers(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    const Layer& l = g.layers[i];
    const bool lnAffine = l.kind == LayerKind::Conv && l.depthwise && !l.onnxOps.empty() &&
                          l.onnxOps[0] == "LayerNormalization";
    if (!lnAffine || !l.act.none() || l.pool.present())
      continue;
    const int t = l.output, src = l.inputs[0];
    const auto group = g.aliasGroup(t);
    std::vector<int> users; // readers of t and of its views (a Transpose back, a Flatten)
    for (int v : group)
      for (int u : g.consumers(v))
        users.push_back(u);
    std::string blocker;
    if (std::find(group.begin(), group.end(), g.output) != group.end() || users.empty())
      blocker = "it is the model's output";
    else if (g.tensors[t].fixedScale != 0)
      blocker = "the model fixes its scale";
    for (int u : users) {
      const Layer& c = g.layers[size_t(u)];
      if (blocker.empty() &&
          (!weighsChannelsUnpadded(c) || c.inputs.size() != 1 ||
           g.storageOf(c.inputs[0]) != g.storageOf(t) || g.tensors[c.inputs[0]].chwFrom))
        blocker = "'" + c.name + "' reads it and is not a Dense or an unpadded dense convolution";
      else if (blocker.empty() && c.fixedWeightScale != 0)
        blocker = "'" + c.name + "' has the model's int8 weights (folding would re-quantize them)";
    }
    if (!blocker.empty()) {
      note("layer normalization '" + l.name +
           "': gain and bias run as a depthwise 1x1 "
           "convolution (" +
           blocker + ")");
      continue;
    }
    const int c = g.tensors[t].shape.c;
    const std::vector<float> a = l.weights,
                             b = l.bias.empty() ? std::vector<float>(size_t(c), 0.0f) : l.bias;
    std::string names;
    for (int u : users) {
      Layer& consumer = g.layers[size_t(u)];
      foldIntoWeights(g, consumer, a, b, c);
      if (consumer.inputs[0] == t)
        consumer.inputs[0] = src;
      names += (names.empty() ? "'" : ", '") + consumer.name + "'";
    }
    for (int v : group)
      if (g.tensors[v].aliasOf == t)
        g.tensors[v].aliasOf = src;
    note("layer normalization '" + l.name + "': gain and bias folded into " + names);
    g.layers.erase(g.layers.begin() + i);
    --i;
  }
}

void foldBatchNormAndBias(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    Layer& l = g.layers[i];
    const bool bn = isChannelAffine(l);
    const bool biasAdd = l.kind == LayerKind::Add && l.inputs.size() == 1;
    if (!bn && !biasAdd)
      continue;
    const int src = foldSource(g, l.inputs[0], i);
    const int p = producerOf(g, src);
    const bool foldable = p >= 0 && g.layers[p].hasWeights() && g.layers[p].act.none() &&
                          !g.layers[p].pool.present() && !g.layers[p].channelPermutation &&
                          g.layers[p].fixedWeightScale == 0 && // (the model's int8 weights stay)
                          (src != l.inputs[0] || onlyConsumer(g, src, i)) &&
                          g.tensors[src].fixedScale == 0 && g.tensors[l.inputs[0]].fixedScale == 0;

    if (foldable) {
      const int c = g.tensors[l.output].shape.c;
      std::vector<float> a = bn ? l.weights : std::vector<float>(size_t(c), 1.0f);
      std::vector<float> b = l.bias.empty() ? std::vector<float>(size_t(c), 0.0f) : l.bias;
      scaleChannels(g, g.layers[p], a, b); // a Mul or Div by constants has no bias
      note("folded " + l.onnxOps[0] + " '" + l.name + "' into '" + g.layers[p].name + "'");
      absorb(g, p, i);
      --i;
    } else if (biasAdd) {
      // Stays a layer of its own: a depthwise 1x1 convolution by 1 with the constant as bias.
      l.kind = LayerKind::Conv;
      l.depthwise = true;
      l.window = Window{};
      l.weights.assign(size_t(g.tensors[l.output].shape.c), 1.0f);
      note("constant Add '" + l.name + "' runs as a depthwise 1x1 convolution");
    } else {
      note(l.onnxOps[0] + " '" + l.name + "' runs as a depthwise 1x1 convolution");
    }
  }
}

void foldPadding(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    const Layer& pad = g.layers[i];
    if (pad.kind != LayerKind::Pad || pad.window.strideH > 1 || pad.window.strideW > 1)
      continue; // zeros between the pixels are not a convolution's padding
    const auto users = g.consumers(pad.output);
    if (users.size() != 1 || !onlyConsumer(g, pad.output, users[0]))
      continue;
    Layer& u = g.layers[users[0]];
    const bool conv = u.kind == LayerKind::Conv;
    const bool avgIncl = u.kind == LayerKind::AvgPool && u.window.countIncludePad;
    if (!conv && !avgIncl)
      continue;
    if (avgIncl && (u.window.padT + pad.window.padT >= u.window.kh ||
                    u.window.padB + pad.window.padB >= u.window.kh ||
                    u.window.padL + pad.window.padL >= u.window.kw ||
                    u.window.padR + pad.window.padR >= u.window.kw))
      continue;
    u.window.padT += pad.window.padT;
    u.window.padL += pad.window.padL;
    u.window.padB += pad.window.padB;
    u.window.padR += pad.window.padR;
    u.inputs[0] = pad.inputs[0];
    u.onnxNodes.insert(u.onnxNodes.begin(), pad.name);
    u.onnxOps.insert(u.onnxOps.begin(), "Pad");
    note("folded Pad '" + pad.name + "' into '" + u.name + "'");
    g.layers.erase(g.layers.begin() + i);
    --i;
  }
}

/// The kernel taps [first, last] of one axis that some output reads inside the image (`out`
/// outputs over `in` pixels); the taps outside read only padding, whatever the output. A tap
/// whose span of positions overlaps the image counts as inside (with a stride it may step over
/// it: then keeping it is merely not the least).
std::pair<int, int> tapsInside(int in, int out, int taps, int dil, int stride, int padBefore) {
  int first = taps, last = -1;
  for (int t = 0; t < taps; ++t) {
    const int64_t lo = int64_t(t) * dil - padBefore, hi = lo + int64_t(out - 1) * stride;
    if (hi >= 0 && lo < in) {
      first = std::min(first, t);
      last = t;
    }
  }
  return {first, last};
}

/// Crops a convolution's kernel to the taps that read inside the image: a dilated kernel on a
/// small map (DeepLabV3's ASPP, dilation 12 to 36) often has only its centre inside, so that it
/// is a 1x1 convolution. Exact: the cropped taps only ever multiplied padding.
void cropPaddingTaps(Graph& g) {
  for (Layer& l : g.layers) {
    if (l.kind != LayerKind::Conv)
      continue;
    const Shape& in = g.tensors[l.inputs[0]].shape;
    Window& w = l.window;
    const auto [r0, r1] = tapsInside(in.h, w.outH(in.h), w.kh, w.dilH, w.strideH, w.padT);
    const auto [c0, c1] = tapsInside(in.w, w.outW(in.w), w.kw, w.dilW, w.strideW, w.padL);
    if (r0 > r1 || c0 > c1 || (r0 == 0 && r1 == w.kh - 1 && c0 == 0 && c1 == w.kw - 1))
      continue;
    Window c = w;
    c.kh = r1 - r0 + 1, c.kw = c1 - c0 + 1;
    c.padT -= r0 * w.dilH, c.padB -= (w.kh - 1 - r1) * w.dilH;
    c.padL -= c0 * w.dilW, c.padR -= (w.kw - 1 - c1) * w.dilW;
    if (c.padT < 0 || c.padB < 0 || c.padL < 0 || c.padR < 0)
      continue; // the window cannot say it without a negative padding
    if (c.kh == 1 && c.kw == 1)
      c.dilH = c.dilW = 1;
    const size_t taps = size_t(w.kh) * w.kw, per = l.weights.size() / taps;
    std::vector<float> cropped(size_t(c.kh) * c.kw * per);
    for (int i = 0; i < c.kh; ++i)
      for (int j = 0; j < c.kw; ++j)
        for (size_t v = 0; v < per; ++v) {
          const size_t from = size_t(r0 + i) * w.kw + size_t(c0 + j), to = size_t(i) * c.kw + j;
          if (l.depthwise) // [c][kh][kw]
            cropped[v * c.kh * c.kw + to] = l.weights[v * taps + from];
          else // [kh][kw][cin][cout]
            cropped[to * per + v] = l.weights[from * per + v];
        }
    note("cropped the " + std::to_string(w.kh) + "x" + std::to_string(w.kw) + " kernel of '" +
         l.name + "' to " + std::to_string(c.kh) + "x" + std::to_string(c.kw) +
         ": its other taps read only padding");
    l.weights = std::move(cropped);
    w = c;
  }
}

void fuseActivations(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    Layer& c = g.layers[i];
    if (c.kind != LayerKind::Clamp)
      continue;
    const int p = producerOf(g, c.inputs[0]);
    if (p < 0 || !onlyConsumer(g, c.inputs[0], i) || !mergeableScales(g, c.inputs[0], c.output))
      continue;
    Layer& pl = g.layers[p];
    const bool canTake = pl.kind == LayerKind::Conv || pl.kind == LayerKind::Dense ||
                         pl.kind == LayerKind::Add || pl.kind == LayerKind::AvgPool ||
                         pl.kind == LayerKind::Clamp;
    if (!canTake || pl.pool.present())
      continue;
    // Intersect the two clamps (max then min commute for lo <= hi).
    Activation a = pl.act;
    if (c.act.hasLo) {
      a.lo = a.hasLo ? std::max(a.lo, c.act.lo) : c.act.lo;
      a.hasLo = true;
    }
    if (c.act.hasHi) {
      a.hi = a.hasHi ? std::min(a.hi, c.act.hi) : c.act.hi;
      a.hasHi = true;
    }
    if (a.hasLo && a.hasHi && a.lo > a.hi)
      a.hi = a.lo;
    pl.act = a;
    note("fused " + c.onnxOps[0] + " '" + c.name + "' into '" + pl.name + "'");
    absorb(g, p, i);
    --i;
  }
}

void fusePooling(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    const Layer& m = g.layers[i];
    if (m.kind != LayerKind::MaxPool)
      continue;
    const Window& w = m.window;
    const Shape& in = g.tensors[m.inputs[0]].shape;
    const int p = producerOf(g, m.inputs[0]);
    if (p < 0 || g.layers[p].kind != LayerKind::Conv || g.layers[p].pool.present() ||
        !onlyConsumer(g, m.inputs[0], i) || !mergeableScales(g, m.inputs[0], m.output))
      continue;
    const Layer& conv = g.layers[p];
    // A square window, equal strides, one padding on every side, and the output size of the
    // hardware's floor rule.
    if (w.kh != w.kw || w.strideH != w.strideW || !w.symmetricPads())
      continue;
    if (w.outH(in.h) != (in.h + 2 * w.padT - w.kh) / w.strideH + 1 ||
        w.outW(in.w) != (in.w + 2 * w.padL - w.kw) / w.strideW + 1)
      continue;
    if (w.padT > 0 && !(conv.act.hasLo && conv.act.lo >= 0))
      continue; // zero padding equals ONNX's -inf only for values >= 0
    Layer& pc = g.layers[p];
    pc.pool = FusedPool{w.kh, w.strideH, w.padT};
    note("fused MaxPool '" + m.name + "' into '" + pc.name + "' (pooling on mvout)");
    absorb(g, p, i);
    --i;
  }
}

void fuseGatedActivations(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    const Layer& m = g.layers[i];
    if (m.kind != LayerKind::Mul || m.inputs.size() != 2)
      continue;
    // x * sigmoid(x) is SiLU; x * hard_sigmoid(x) with alpha 1/6, beta 1/2 is HardSwish.
    for (int side = 0; side < 2; ++side) {
      const int gate = m.inputs[side], x = m.inputs[1 - side];
      const int p = producerOf(g, gate);
      if (p < 0 || g.layers[p].kind != LayerKind::Pointwise || g.layers[p].inputs[0] != x ||
          !onlyConsumer(g, gate, i) || !mergeableScales(g, gate, m.output))
        continue;
      const Layer& f = g.layers[p];
      const bool silu = f.fn == PointwiseFn::Sigmoid;
      const bool hardSwish = f.fn == PointwiseFn::HardSigmoid &&
                             std::abs(f.alpha - 1.0f / 6.0f) < 1e-6f && f.beta == 0.5f;
      if (!silu && !hardSwish)
        continue;
      Layer& pf = g.layers[p];
      pf.fn = silu ? PointwiseFn::Silu : PointwiseFn::HardSwish;
      note("fused " + pf.opsString() + " '" + pf.name + "' and Mul '" + m.name + "' into one " +
           pointwiseFnName(pf.fn));
      absorb(g, p, i);
      --i;
      break;
    }
  }
}

void splitGroupedConvs(Graph& g, int pieceChannels) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    if (g.layers[i].kind != LayerKind::Conv || g.layers[i].groups <= 1)
      continue;
    const Layer l = g.layers[i];
    const Shape in = g.tensors[l.inputs[0]].shape, out = g.tensors[l.output].shape;
    const int groups = l.groups, cg = in.c / groups, mg = out.c / groups;
    // Groups per piece: as many as fill pieceChannels (a divisor of the group count).
    int per = 1;
    for (int d = 1; d <= groups; ++d)
      if (groups % d == 0 && d * std::max(cg, mg) <= pieceChannels)
        per = d;
    const int pieces = groups / per;
    if (pieces == 1) {
      note("grouped convolution '" + l.name + "' (" + std::to_string(groups) +
           " groups) runs as one block-diagonal convolution");
      continue;
    }
    std::vector<Layer> added;
    std::vector<int> outs;
    const int kt = l.window.kh * l.window.kw, pc = per * cg, pm = per * mg;
    for (int p = 0; p < pieces; ++p) {
      const std::string tag = "/group" + std::to_string(p);
      Tensor xs = g.tensors[l.inputs[0]];
      xs.name = l.name + tag + ".input";
      xs.shape.c = pc;
      xs.onnxShape[1] = pc;
      xs.aliasOf = -1;
      xs.fixedScale = 0;
      const int xsId = g.addTensor(std::move(xs));
      Layer slice;
      slice.kind = LayerKind::Slice;
      slice.name = l.name + tag + ".slice";
      slice.onnxNodes = {l.name};
      slice.onnxOps = {"(group slice)"};
      slice.inputs = {l.inputs[0]};
      slice.output = xsId;
      slice.sliceBegin = p * pc;
      added.push_back(slice);
      Tensor ys = g.tensors[l.output];
      ys.name = l.name + tag + ".output";
      ys.shape.c = pm;
      ys.onnxShape[1] = pm;
      ys.aliasOf = -1;
      const int ysId = g.addTensor(std::move(ys));
      Layer piece = l;
      piece.name = l.name + tag;
      piece.inputs = {xsId};
      piece.output = ysId;
      piece.groups = per;
      piece.weights.assign(size_t(kt) * pc * pm, 0.0f);
      for (int t = 0; t < kt; ++t)
        for (int c = 0; c < pc; ++c)
          for (int o = 0; o < pm; ++o)
            piece.weights[(size_t(t) * pc + c) * pm + o] =
                l.weights[(size_t(t) * in.c + p * pc + c) * out.c + p * pm + o];
      if (!l.bias.empty())
        piece.bias.assign(l.bias.begin() + p * pm, l.bias.begin() + (p + 1) * pm);
      added.push_back(std::move(piece));
      outs.push_back(ysId);
    }
    Layer concat;
    concat.kind = LayerKind::Concat;
    concat.name = l.name;
    concat.onnxNodes = {l.name};
    concat.onnxOps = {"(group concat)"};
    concat.inputs = outs;
    concat.output = l.output;
    added.push_back(std::move(concat));
    g.layers.erase(g.layers.begin() + i);
    g.layers.insert(g.layers.begin() + i, added.begin(), added.end());
    note("grouped convolution '" + l.name + "' (" + std::to_string(groups) + " groups of " +
         std::to_string(cg) + " -> " + std::to_string(mg) + " channels) runs as " +
         std::to_string(pieces) + " convolutions of " + std::to_string(per) +
         " groups each, between channel slices and a concatenation");
    i += int(added.size()) - 1;
  }
}

void removeDeadLayers(Graph& g) {
  std::vector<bool> live(g.tensors.size(), false);
  for (int t : g.aliasGroup(g.output))
    live[t] = true;
  live[g.storageOf(g.output)] = true;
  for (int i = int(g.layers.size()) - 1; i >= 0; --i) {
    const Layer& l = g.layers[i];
    bool used = false;
    for (int t : g.aliasGroup(l.output))
      used |= live[t];
    if (!used) {
      note("removed '" + l.name + "' (" + l.opsString() + "): its result is not used");
      g.layers.erase(g.layers.begin() + i);
      continue;
    }
    for (int in : l.inputs)
      for (int t : g.aliasGroup(in))
        live[t] = true;
  }
}

void restoreOutputLayout(Graph& g) {
  const Tensor& out = g.tensors[g.output];
  if (!out.chwFrom)
    return;
  Tensor t;
  t.name = out.name;
  t.shape = out.shape;
  t.onnxShape = out.onnxShape;
  const int old = g.output;
  g.tensors[old].name = out.name + ".nhwc";
  const int y = g.addTensor(std::move(t));
  Layer l;
  l.kind = LayerKind::Reorder;
  l.name = g.tensors[y].name + ".reorder";
  l.onnxNodes = {l.name};
  l.onnxOps = {"(layout)"};
  l.inputs = {old};
  l.output = y;
  g.layers.push_back(std::move(l));
  g.output = y;
  note("the output is a flattened map: a Reorder layer writes it in ONNX's CHW order");
}

std::vector<std::string> runPasses(Graph& g, const PassOptions& options) {
  std::vector<std::string> log;
  gLog = &log;
  splitLayerNormAffine(g);
  foldBatchNormAndBias(g);
  foldPadding(g);
  cropPaddingTaps(g);
  foldAffineIntoConsumers(g);
  fuseActivations(g);
  fusePooling(g);
  fuseGatedActivations(g);
  removeDeadLayers(g);
  splitGroupedConvs(g, options.groupPieceChannels);
  restoreOutputLayout(g);
  gLog = nullptr;
  return log;
}

} // namespace by::compiler
