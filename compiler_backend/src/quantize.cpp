#include "compiler/quantize.h"

#include "compiler/error.h"
#include "compiler/interpret.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <stdexcept>

namespace by::compiler {
namespace {

/// Union-find over tensor storage ids.
struct Classes {
  std::vector<int> parent;
  explicit Classes(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int a) { return parent[a] == a ? a : parent[a] = find(parent[a]); }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

bool sameScale(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(a, b);
}

/// The scale the model fixes for t's storage (through any alias), or 0.
double fixedOf(const Graph& g, int t) {
  double f = 0;
  for (int a : g.aliasGroup(t))
    f = g.tensors[a].fixedScale != 0 ? g.tensors[a].fixedScale : f;
  return f;
}

/// Inserts, before layer `at`, a requantizing layer (a depthwise 1x1 convolution by 1) from
/// `from` into `to`.
void insertRequantize(Graph& g, int at, int from, int to) {
  Layer l;
  l.kind = LayerKind::Conv;
  l.depthwise = true;
  l.name = g.tensors[to].name + ".requantize";
  l.onnxNodes = {l.name};
  l.onnxOps = {"(requantize)"};
  l.inputs = {from};
  l.output = to;
  l.weights.assign(size_t(g.tensors[from].shape.c), 1.0f);
  l.fixedWeightScale = 1.0;
  g.layers.insert(g.layers.begin() + at, std::move(l));
}

/// A new tensor like t (shape, layout), with its own storage and no fixed scale.
int cloneTensor(Graph& g, int t, const std::string& suffix) {
  Tensor c = g.tensors[t];
  c.name += suffix;
  c.aliasOf = -1;
  c.fixedScale = 0;
  return g.addTensor(std::move(c));
}

/// The tensors each layer needs in one scale: (a, b) pairs.
std::vector<std::pair<int, int>> scaleLinks(const Layer& l) {
  std::vector<std::pair<int, int>> links;
  switch (l.kind) {
  case LayerKind::Add:
    if (l.inputs.size() == 2)
      links.push_back({l.inputs[0], l.inputs[1]});
    break;
  case LayerKind::Concat:
    for (int in : l.inputs)
      links.push_back({in, l.output});
    break;
  case LayerKind::MaxPool:
  case LayerKind::Pad:
  case LayerKind::Clamp:
  case LayerKind::Reorder:
  case LayerKind::GlobalAvgPool:
  case LayerKind::Slice:
  case LayerKind::Resize:
    links.push_back({l.inputs[0], l.output});
    break;
  case LayerKind::Conv: // a channel shuffle copies its input exactly (weights 1, multiplier 1)
    if (l.channelPermutation)
      links.push_back({l.inputs[0], l.output});
    break;
  default:
    break;
  }
  return links;
}

/// Where a layer links two tensors whose fixed scales differ, a requantizer goes in between:
/// before the second input of an Add or an input of a Concat (into the partner's scale), after
/// the output of a pass-through op (which then writes its input's scale).
std::vector<std::string> resolveFixedConflicts(Graph& g) {
  std::vector<std::string> notes;
  for (size_t li = 0; li < g.layers.size(); ++li) {
    for (auto [a, b] : scaleLinks(g.layers[li])) {
      const double fa = fixedOf(g, a), fb = fixedOf(g, b);
      if (fa == 0 || fb == 0 || sameScale(fa, fb))
        continue;
      const std::string name = g.layers[li].name;
      if (g.layers[li].kind == LayerKind::Add || g.layers[li].kind == LayerKind::Concat) {
        const bool add = g.layers[li].kind == LayerKind::Add;
        const int in = add ? b : a;
        const int y = cloneTensor(g, in, ".requantized");
        g.tensors[y].fixedScale = add ? fa : fb;
        auto& ins = g.layers[li].inputs;
        std::replace(ins.begin(), ins.end(), in, y);
        insertRequantize(g, int(li), in, y);
        notes.push_back("inserted a requantizer for '" + g.tensors[in].name + "' before '" + name +
                        "' (its inputs have different fixed scales)");
      } else {
        const int out = g.layers[li].output;
        const int mid = cloneTensor(g, out, ".unscaled");
        g.layers[li].output = mid;
        insertRequantize(g, int(li) + 1, mid, out);
        notes.push_back("inserted a requantizer after '" + name +
                        "' (its input and output have different fixed scales)");
      }
      break; // the layer changed: the next iteration checks the following one
    }
  }
  return notes;
}

int8_t quantizeValue(double v, double scale, int lo, int hi) {
  const double q = std::nearbyint(v / scale);
  return int8_t(std::clamp<double>(q, lo, hi));
}

/// int8 clamp bounds of an activation at output scale s: round(lo/s), round(hi/s).
void activationBounds(const Activation& a, double s, int& qmin, int& qmax) {
  qmin = -128;
  qmax = 127;
  if (a.hasLo)
    qmin = int(std::clamp<double>(std::nearbyint(a.lo / s), -128, 127));
  if (a.hasHi)
    qmax = int(std::clamp<double>(std::nearbyint(a.hi / s), -128, 127));
  qmax = std::max(qmax, qmin);
}

/// The layer's weight scale before its bias is considered: the model's own for pre-quantized
/// weights that are int8 multiples of it, else max|w| / 127.
double plainWeightScale(const Layer& l, std::vector<std::string>& notes) {
  if (l.fixedWeightScale > 0) {
    const double sw = l.fixedWeightScale;
    bool exact = true;
    for (float w : l.weights) {
      const double q = double(w) / sw;
      exact &= std::abs(q - std::nearbyint(q)) <= 1e-3 && std::abs(q) <= 127.5;
    }
    if (exact)
      return sw;
    notes.push_back("'" + l.name +
                    "': weights are not int8 multiples of their scale; re-quantized per tensor");
  }
  double amax = 0;
  for (float w : l.weights)
    amax = std::max(amax, double(std::abs(w)));
  return amax > 0 ? amax / 127.0 : 1.0;
}

std::string sig(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

/// Picks the weight scale (widened where the bias needs it, see biasFitWeightScale), then
/// quantizes the weights, the bias and the multiplier at it.
void quantizeWeights(Layer& l, double sIn, double sOut, int accWidth,
                     std::vector<std::string>& notes) {
  const double plain = plainWeightScale(l, notes);
  double sw = plain, maxBias = 0;
  for (float b : l.bias) {
    if (!std::isfinite(b))
      throw nodeError(l.name, l.opsString(), "a bias is infinite or NaN");
    maxBias = std::max(maxBias, double(std::abs(b)));
  }
  // Products summed into one accumulator: the weights of one output channel.
  const int64_t k = l.bias.empty() ? 0 : int64_t(l.weights.size() / l.bias.size());
  if (maxBias > 0)
    sw = biasFitWeightScale(plain, sIn, maxBias, k, accWidth);
  if (!std::isfinite(sw) || !std::isfinite(float(sIn * sw / sOut)))
    throw nodeError(l.name, l.opsString(),
                    "cannot be quantized: weight scale " + sig(sw) + " and multiplier " +
                        sig(sIn * sw / sOut) + " (input scale " + sig(sIn) + ", output scale " +
                        sig(sOut) + ", largest bias " + sig(maxBias) +
                        ") are beyond the float range");
  l.weightScale = sw;
  l.qweights.resize(l.weights.size());
  for (size_t i = 0; i < l.weights.size(); ++i)
    l.qweights[i] = quantizeValue(l.weights[i], sw, -127, 127);
  const double sAcc = sIn * sw;
  l.qbias.clear();
  for (float b : l.bias) {
    const double q = std::nearbyint(double(b) / sAcc);
    if (std::abs(q) > double(biasHeadroom(k, accWidth))) // biasFitWeightScale's promise
      throw std::logic_error("quantize: the bias of '" + l.name + "' does not fit after all");
    l.qbias.push_back(int32_t(q));
  }
  l.multiplier = float(sAcc / sOut);
  if (sw != plain) {
    // The weights' rounding errs by at most sw/2 per weight, times |x| <= 128 and sIn per
    // product: 64 K sIn sw, plus half a step of the bias; in output steps (/ sOut).
    auto worst = [&](double s) { return (64.0 * double(k) + 0.5) * sIn * s / sOut; };
    notes.push_back(
        "'" + l.name + "': a bias of " + sig(maxBias) + " is " + sig(maxBias / (sIn * plain)) +
        " accumulator steps at weight scale " + sig(plain) + ", more than the int" +
        std::to_string(std::min(accWidth, 32)) + " accumulator holds beside " + std::to_string(k) +
        " products (" + std::to_string(biasHeadroom(k, accWidth)) +
        "); weight scale widened from " + sig(plain) + " to " + sig(sw) +
        (plain == l.fixedWeightScale ? " (the model's int8 weights re-quantized)" : "") +
        ": the weights' and bias's rounding errs by at most " + sig(worst(sw)) + " output steps (" +
        sig(worst(plain)) + " before)");
  }
}

} // namespace

void layerNormConstants(Layer& l, int c, double sIn, double sOut) {
  if (c > 65536)
    throw CompileError("layer normalization '" + l.name + "' over " + std::to_string(c) +
                       " channels; by_layernorm takes up to 65536");
  // scale = k / sqrt(V + e) with V = c^2 var in input units^2 (by_layernorm): the normalized
  // value (64 x - 64 mean) c / (64 sqrt(V + e)) in output units.
  l.lnScale = double(c) / (kLayerNormOne * sOut);
  l.lnEps = double(l.epsilon) * c * c / (sIn * sIn);
}

std::vector<int8_t> pointwiseTable(const Layer& l, double sIn, double sOut) {
  std::vector<int8_t> table(256);
  for (int q = -128; q <= 127; ++q)
    table[size_t(q + 128)] =
        quantizeValue(applyPointwise(l.fn, q * sIn, l.alpha, l.beta), sOut, -128, 127);
  return table;
}

int64_t biasHeadroom(int64_t k, int accWidth) {
  // The largest |x w| of one product: activations in [-128, 127], weights in [-127, 127].
  constexpr int64_t kMaxProduct = 128 * 127;
  // Biases are int32 (the layer's qbias) also where the accumulator is wider. Beyond K = 66052
  // the products' worst case alone passes 2^30 (and beyond 132104 the whole 32-bit
  // accumulator, bias or not): no bias scale can rule a wrap out there, and the bias keeps half
  // of the accumulator. A 16-bit accumulator is so already at K = 2.
  const int bits = std::min(accWidth, 32);
  const int64_t max = (int64_t(1) << (bits - 1)) - 1;
  return std::max(max - k * kMaxProduct, int64_t(1) << (bits - 2));
}

double biasFitWeightScale(double sw, double sIn, double maxAbsBias, int64_t k, int accWidth) {
  const double room = double(biasHeadroom(k, accWidth));
  // Rounded as quantizeWeights rounds the bias, so that "fits" means the same there.
  if (std::nearbyint(maxAbsBias / (sIn * sw)) <= room)
    return sw;
  // max|b| / (sIn sw') = room up to a relative rounding of 1e-16: far below half a step.
  return maxAbsBias / (sIn * room);
}

Calibration calibrate(const Graph& g, const std::vector<std::vector<float>>& inputs,
                      const CalibOptions& options) {
  Calibration c;
  const size_t n = g.tensors.size();
  c.absMax.assign(n, 0);
  c.observed.assign(n, 0);
  c.zeros.assign(n, 0);
  c.histogram.assign(n, {});
  c.samples = int(inputs.size());
  std::vector<uint64_t> count(n, 0), zeroCount(n, 0);
  // Pass 1: ranges. Pass 2: histograms over [0, observed] (percentiles, clipped fractions).
  for (const auto& in : inputs) {
    const FloatValues v = runFloat(g, in);
    for (size_t t = 0; t < n; ++t)
      for (float x : v[t]) {
        c.observed[t] = std::max(c.observed[t], double(std::abs(x)));
        zeroCount[t] += x == 0;
        ++count[t];
      }
  }
  for (size_t t = 0; t < n; ++t) {
    c.zeros[t] = count[t] ? double(zeroCount[t]) / double(count[t]) : 0;
    c.histogram[t].assign(Calibration::kBins, 0);
  }
  for (const auto& in : inputs) {
    const FloatValues v = runFloat(g, in);
    for (size_t t = 0; t < n; ++t) {
      if (c.observed[t] == 0)
        continue;
      const double k = Calibration::kBins / c.observed[t];
      for (float x : v[t])
        ++c.histogram[t][std::min<size_t>(size_t(std::abs(x) * k), Calibration::kBins - 1)];
    }
  }
  for (size_t t = 0; t < n; ++t) {
    c.absMax[t] = c.observed[t];
    if (options.method == CalibOptions::Method::Percentile && count[t] > 0 && c.observed[t] > 0) {
      const double want = options.percentile / 100.0 * double(count[t]);
      uint64_t cum = 0;
      for (int b = 0; b < Calibration::kBins; ++b) {
        cum += c.histogram[t][b];
        if (double(cum) >= want) {
          c.absMax[t] = c.observed[t] * double(b + 1) / Calibration::kBins;
          break;
        }
      }
    }
  }
  return c;
}

QuantResult quantize(Graph& g, const Calibration& calib, int accWidth) {
  QuantResult r;
  const size_t calibTensors = calib.absMax.size();
  r.notes = resolveFixedConflicts(g);

  // Scale classes.
  Classes cls(g.tensors.size());
  for (const Layer& l : g.layers)
    for (auto [a, b] : scaleLinks(l))
      cls.join(g.storageOf(a), g.storageOf(b));
  std::map<int, double> range, fixed;
  auto rangeOf = [&](int t) { return size_t(t) < calibTensors ? calib.absMax[t] : 0.0; };
  for (int t = 0; t < int(g.tensors.size()); ++t) {
    if (g.storageOf(t) != t)
      continue;
    const int root = cls.find(t);
    range[root] = std::max(range[root], rangeOf(t));
    // A requantizer's output has no calibration of its own: its input's range.
    if (size_t(t) >= calibTensors)
      for (const Layer& l : g.layers)
        if (l.output == t)
          range[root] = std::max(range[root], rangeOf(g.storageOf(l.inputs[0])));
    const double f = fixedOf(g, t);
    if (f != 0) {
      if (fixed.count(root) && !sameScale(fixed[root], f))
        throw CompileError("tensor '" + g.tensors[t].name + "' must share its scale with " +
                           "others (an Add, Concat or pooling), but the model fixes different "
                           "scales for them");
      fixed[root] = f;
    }
  }
  // Softmax outputs are probabilities in [0, 1]: scale 1/127.
  for (const Layer& l : g.layers)
    if (l.kind == LayerKind::Softmax)
      fixed[cls.find(g.storageOf(l.output))] = 1.0 / 127.0;

  for (int t = 0; t < int(g.tensors.size()); ++t) {
    const int root = cls.find(g.storageOf(t));
    double s = fixed.count(root) ? fixed[root] : range[root] / 127.0;
    if (!(s > 0) || !std::isfinite(s))
      s = 1.0 / 127.0; // a tensor that was zero in every calibration sample
    g.tensors[t].scale = s;
  }
  for (int t = 0; t < int(g.tensors.size()); ++t) {
    if (g.storageOf(t) != t)
      continue;
    TensorQuant q;
    q.tensor = t;
    q.scale = g.tensors[t].scale;
    q.range = 127.0 * q.scale;
    q.fixed = fixed.count(cls.find(t)) > 0;
    if (size_t(t) < calibTensors) {
      q.observed = calib.observed[t];
      q.zeroFraction = calib.zeros[t];
      g.tensors[t].zeroFraction = calib.zeros[t];
      const auto& h = calib.histogram[t];
      uint64_t total = 0, beyond = 0;
      for (int b = 0; b < int(h.size()); ++b) {
        total += h[b];
        if (calib.observed[t] * double(b) / Calibration::kBins >= q.range)
          beyond += h[b];
      }
      q.clippedFraction = total ? double(beyond) / double(total) : 0;
    }
    r.tensors.push_back(q);
  }

  // Layers.
  for (Layer& l : g.layers) {
    const double sIn = g.tensors[l.inputs[0]].scale, sOut = g.tensors[l.output].scale;
    activationBounds(l.act, sOut, l.qmin, l.qmax);
    switch (l.kind) {
    case LayerKind::Conv:
    case LayerKind::Dense:
      quantizeWeights(l, sIn, sOut, accWidth, r.notes);
      break;
    case LayerKind::Add:
      l.multiplier = float(sIn / sOut);
      break;
    case LayerKind::AvgPool: {
      const int taps = l.window.kh * l.window.kw;
      l.multiplier = float(sIn / (taps * sOut));
      l.poolScales.clear();
      const Window& w = l.window;
      const bool padded = w.padT || w.padL || w.padB || w.padR;
      const Shape& is = g.tensors[l.inputs[0]].shape;
      // ceil_mode adds a window that reaches past the image only where floor would not.
      const bool ceilWindow =
          w.ceilMode && (w.outH(is.h) != (is.h + w.padT + w.padB - w.kh) / w.strideH + 1 ||
                         w.outW(is.w) != (is.w + w.padL + w.padR - w.kw) / w.strideW + 1);
      if ((!w.countIncludePad && padded) || ceilWindow) {
        // The divisor is the number of elements counted at each position.
        l.poolScales.push_back(0);
        for (int cnt = 1; cnt <= taps; ++cnt)
          l.poolScales.push_back(float(sIn / (cnt * sOut)));
        if (l.window.countIncludePad)
          r.notes.push_back("'" + l.name +
                            "': ceil-mode average pooling divides by the "
                            "elements inside the image");
      }
      break;
    }
    case LayerKind::Softmax:
      l.expTable = softmaxTable(sIn);
      break;
    case LayerKind::LayerNorm:
      layerNormConstants(l, g.tensors[l.inputs[0]].shape.c, sIn, sOut);
      break;
    case LayerKind::Pointwise:
      l.table = pointwiseTable(l, sIn, sOut);
      break;
    case LayerKind::Mul: // int8 product, then accScale from s_a * s_b into the output scale
      l.multiplier = float(sIn * g.tensors[l.inputs[1]].scale / sOut);
      break;
    case LayerKind::Clamp:
      activationBounds(l.act, sOut, l.qmin, l.qmax);
      break;
    default:
      break;
    }
  }
  return r;
}

double sqnrDb(const std::vector<float>& ref, const std::vector<int8_t>& q, double scale) {
  double sig = 0, noise = 0;
  for (size_t i = 0; i < ref.size() && i < q.size(); ++i) {
    const double e = double(ref[i]) - double(q[i]) * scale;
    sig += double(ref[i]) * ref[i];
    noise += e * e;
  }
  if (noise == 0)
    return 200.0; // exact
  if (sig == 0)
    return -200.0;
  return 10.0 * std::log10(sig / noise);
}

} // namespace by::compiler
