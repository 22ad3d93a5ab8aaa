#include "compiler/passes.h"

#include <algorithm>
#include <cmath>

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

bool isBatchNorm(const Layer& l) {
  return l.kind == LayerKind::Conv && l.depthwise && l.window.kh == 1 && l.window.kw == 1 &&
         !l.onnxOps.empty() && l.onnxOps[0] == "BatchNormalization";
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
  p.fixedWeightScale = 0; // the folded weights are no longer the pre-quantized ones
}

} // namespace

void foldBatchNormAndBias(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    Layer& l = g.layers[i];
    const bool bn = isBatchNorm(l);
    const bool biasAdd = l.kind == LayerKind::Add && l.inputs.size() == 1;
    if (!bn && !biasAdd)
      continue;
    const int p = producerOf(g, l.inputs[0]);
    const bool foldable = p >= 0 && g.layers[p].hasWeights() && g.layers[p].act.none() &&
                          !g.layers[p].pool.present() && onlyConsumer(g, l.inputs[0], i) &&
                          g.tensors[l.inputs[0]].fixedScale == 0;

    if (foldable) {
      const int c = g.tensors[l.output].shape.c;
      std::vector<float> a = bn ? l.weights : std::vector<float>(size_t(c), 1.0f);
      scaleChannels(g, g.layers[p], a, l.bias);
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
      note("BatchNormalization '" + l.name + "' runs as a depthwise 1x1 convolution");
    }
  }
}

void foldPadding(Graph& g) {
  for (int i = 0; i < int(g.layers.size()); ++i) {
    const Layer& pad = g.layers[i];
    if (pad.kind != LayerKind::Pad)
      continue;
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

std::vector<std::string> runPasses(Graph& g) {
  std::vector<std::string> log;
  gLog = &log;
  foldBatchNormAndBias(g);
  foldPadding(g);
  fuseActivations(g);
  fusePooling(g);
  removeDeadLayers(g);
  restoreOutputLayout(g);
  gLog = nullptr;
  return log;
}

} // namespace by::compiler
