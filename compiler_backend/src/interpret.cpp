#include "compiler/interpret.h"

#include "golden/arith.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace by::compiler {
namespace {

// ---- shared geometry ------------------------------------------------------------------------

/// Calls f(n, oy, ox, outIndex) for every output pixel of a window op.
template <typename F> void forEachPixel(const Shape& out, F&& f) {
  for (int n = 0; n < out.n; ++n)
    for (int y = 0; y < out.h; ++y)
      for (int x = 0; x < out.w; ++x)
        f(n, y, x, ((int64_t(n) * out.h + y) * out.w + x) * out.c);
}

/// Input pixel offset of tap (ky, kx) for output (n, oy, ox), or -1 in the padding.
int64_t tapOffset(const Shape& in, const Window& w, int n, int oy, int ox, int ky, int kx) {
  const int iy = oy * w.strideH + ky * w.dilH - w.padT, ix = ox * w.strideW + kx * w.dilW - w.padL;
  if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w)
    return -1;
  return ((int64_t(n) * in.h + iy) * in.w + ix) * in.c;
}

Shape convShape(const Graph& g, const Layer& l) {
  const Shape& in = g.tensors[l.inputs[0]].shape;
  return Shape{in.n, l.window.outH(in.h), l.window.outW(in.w), g.tensors[l.output].shape.c};
}

/// The fused max-pool of a convolution: window `size` x `size`, `stride`, `pad` on every side.
/// Outside the image counts as `padValue`.
template <typename T>
void maxPoolSquare(const std::vector<T>& in, const Shape& s, const FusedPool& p, T padValue,
                   std::vector<T>& out, const Shape& os) {
  forEachPixel(os, [&](int n, int oy, int ox, int64_t o) {
    for (int c = 0; c < s.c; ++c) {
      T m = std::numeric_limits<T>::lowest();
      for (int wy = 0; wy < p.size; ++wy)
        for (int wx = 0; wx < p.size; ++wx) {
          const int iy = oy * p.stride + wy - p.pad, ix = ox * p.stride + wx - p.pad;
          const bool inside = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
          const T v = inside ? in[((int64_t(n) * s.h + iy) * s.w + ix) * s.c + c] : padValue;
          m = std::max(m, v);
        }
      out[o + c] = m;
    }
  });
}

/// Stand-alone max pool with ONNX semantics (padding never wins).
template <typename T>
void maxPool(const std::vector<T>& in, const Shape& s, const Window& w, std::vector<T>& out,
             const Shape& os) {
  forEachPixel(os, [&](int n, int oy, int ox, int64_t o) {
    for (int c = 0; c < s.c; ++c) {
      T m = std::numeric_limits<T>::lowest();
      for (int ky = 0; ky < w.kh; ++ky)
        for (int kx = 0; kx < w.kw; ++kx) {
          const int64_t off = tapOffset(s, w, n, oy, ox, ky, kx);
          if (off >= 0)
            m = std::max(m, in[off + c]);
        }
      out[o + c] = m;
    }
  });
}

/// One strided 2-D copy (Graph::copyOf).
template <typename T> void copy2d(const Copy2d& c, const T* src, T* dst) {
  for (int64_t r = 0; r < c.rows; ++r)
    std::copy_n(src + c.src + r * c.lds, c.cols, dst + c.dst + r * c.ldd);
}

/// Every input of a Concat into its place along the layer's axis (Graph::copyOf).
template <typename T>
void concat(const Graph& g, const Layer& l, const std::vector<const std::vector<T>*>& ins,
            std::vector<T>& out) {
  for (size_t i = 0; i < l.inputs.size(); ++i)
    copy2d(g.copyOf(l, i), ins[i]->data(), out.data());
}

/// Indices [sliceBegin, sliceBegin + extent) along the layer's axis.
template <typename T>
void slice(const Graph& g, const Layer& l, const std::vector<T>& in, std::vector<T>& out) {
  copy2d(g.copyOf(l, 0), in.data(), out.data());
}

/// Element-wise product a * b, b of a's shape or one value per image and channel: calls
/// f(i, a[i], b[j]) for every element.
template <typename T, typename F>
void product(const Graph& g, const Layer& l, const std::vector<T>& a, const std::vector<T>& b,
             F&& f) {
  const Shape& s = g.tensors[l.inputs[0]].shape;
  const bool perChannel = g.tensors[l.inputs[1]].shape != s;
  const int64_t pixels = int64_t(s.h) * s.w;
  for (int64_t i = 0; i < s.elems(); ++i)
    f(i, a[size_t(i)], b[size_t(perChannel ? i / (pixels * s.c) * s.c + i % s.c : i)]);
}

/// Calls f(outIndex, inIndex of tap (a, b), weight of row tap a, weight of column tap b) for
/// the four taps of every output element of a Resize (weights of taps a, b = 0 or 1).
template <typename F> void forEachResizeTap(const Graph& g, const Layer& l, F&& f) {
  const Shape &is = g.tensors[l.inputs[0]].shape, &os = g.tensors[l.output].shape;
  const auto rows = resizeTaps(l.resize, is.h, os.h, l.resize.scaleH);
  const auto cols = resizeTaps(l.resize, is.w, os.w, l.resize.scaleW);
  forEachPixel(os, [&](int n, int oy, int ox, int64_t o) {
    const ResizeTap &ty = rows[size_t(oy)], &tx = cols[size_t(ox)];
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const int64_t i =
            ((int64_t(n) * is.h + (a ? ty.i1 : ty.i0)) * is.w + (b ? tx.i1 : tx.i0)) * is.c;
        for (int c = 0; c < is.c; ++c)
          f(o + c, i + c, ty, tx, a, b);
      }
  });
}

/// Zero padding of H and W; a Pad layer's strides put strideH - 1 zero rows (strideW - 1 zero
/// columns) between the input's (a transposed convolution's zero insertion).
template <typename T>
void pad(const Shape& s, const Window& w, const std::vector<T>& in, std::vector<T>& out,
         const Shape& os) {
  std::fill(out.begin(), out.end(), T(0));
  for (int n = 0; n < s.n; ++n)
    for (int y = 0; y < s.h; ++y)
      for (int x = 0; x < s.w; ++x)
        std::copy_n(in.data() + ((int64_t(n) * s.h + y) * s.w + x) * s.c, s.c,
                    out.data() + ((int64_t(n) * os.h + y * w.strideH + w.padT) * os.w +
                                  x * w.strideW + w.padL) *
                                     s.c);
}

/// A flattened NHWC map into ONNX's CHW order.
template <typename T>
void reorder(const Shape& from, const std::vector<T>& in, std::vector<T>& out) {
  for (int n = 0; n < from.n; ++n)
    for (int y = 0; y < from.h; ++y)
      for (int x = 0; x < from.w; ++x)
        for (int c = 0; c < from.c; ++c) {
          const int64_t base = int64_t(n) * from.h * from.w * from.c;
          out[base + (int64_t(c) * from.h + y) * from.w + x] =
              in[base + (int64_t(y) * from.w + x) * from.c + c];
        }
}

Shape reorderSource(const Graph& g, const Layer& l) {
  return *g.tensors[l.inputs[0]].chwFrom;
}

// ---- float ------------------------------------------------------------------------------------

float applyAct(const Activation& a, float v) {
  if (a.hasLo)
    v = std::max(v, a.lo);
  if (a.hasHi)
    v = std::min(v, a.hi);
  return v;
}

void floatConv(const Graph& g, const Layer& l, const std::vector<float>& x, std::vector<float>& y) {
  const Shape& in = g.tensors[l.inputs[0]].shape;
  const Shape cs = convShape(g, l);
  std::vector<float> conv(size_t(cs.elems()));
  const Window& w = l.window;
  std::vector<double> acc(static_cast<size_t>(cs.c));
  forEachPixel(cs, [&](int n, int oy, int ox, int64_t o) {
    for (int co = 0; co < cs.c; ++co)
      acc[co] = l.bias.empty() ? 0.0 : l.bias[co];
    for (int ky = 0; ky < w.kh; ++ky)
      for (int kx = 0; kx < w.kw; ++kx) {
        const int64_t off = tapOffset(in, w, n, oy, ox, ky, kx);
        if (off < 0)
          continue;
        if (l.depthwise) {
          for (int c = 0; c < cs.c; ++c)
            acc[c] += double(x[off + c]) * l.weights[(size_t(c) * w.kh + ky) * w.kw + kx];
          continue;
        }
        for (int ci = 0; ci < in.c; ++ci) {
          const double xv = x[off + ci];
          if (xv == 0)
            continue;
          const float* wr = &l.weights[((size_t(ky) * w.kw + kx) * in.c + ci) * cs.c];
          for (int co = 0; co < cs.c; ++co)
            acc[co] += xv * wr[co];
        }
      }
    for (int co = 0; co < cs.c; ++co)
      conv[o + co] = applyAct(l.act, float(acc[co]));
  });
  if (!l.pool.present()) {
    y = std::move(conv);
    return;
  }
  maxPoolSquare(conv, cs, l.pool, -std::numeric_limits<float>::infinity(), y,
                g.tensors[l.output].shape);
}

void floatDense(const Graph& g, const Layer& l, const std::vector<float>& x,
                std::vector<float>& y) {
  const Shape& os = g.tensors[l.output].shape;
  const int k = g.tensors[l.inputs[0]].shape.c, j = os.c;
  std::vector<double> acc(static_cast<size_t>(j));
  for (int64_t r = 0; r < os.pixels(); ++r) {
    for (int o = 0; o < j; ++o)
      acc[o] = l.bias.empty() ? 0.0 : l.bias[o];
    for (int i = 0; i < k; ++i) {
      const double xv = x[r * k + i];
      const float* wr = &l.weights[size_t(i) * j];
      for (int o = 0; o < j; ++o)
        acc[o] += xv * wr[o];
    }
    for (int o = 0; o < j; ++o)
      y[r * j + o] = applyAct(l.act, float(acc[o]));
  }
}

void floatAvgPool(const Layer& l, const Shape& s, const std::vector<float>& x,
                  std::vector<float>& y, const Shape& os) {
  const Window& w = l.window;
  forEachPixel(os, [&](int n, int oy, int ox, int64_t o) {
    for (int c = 0; c < s.c; ++c) {
      double sum = 0;
      int count = 0, padded = 0;
      for (int ky = 0; ky < w.kh; ++ky)
        for (int kx = 0; kx < w.kw; ++kx) {
          const int64_t off = tapOffset(s, w, n, oy, ox, ky, kx);
          const int iy = oy * w.strideH + ky - w.padT, ix = ox * w.strideW + kx - w.padL;
          // Positions in the explicit padding count with count_include_pad; positions past it
          // (ceil mode) never do.
          const bool inPadding =
              iy >= -w.padT && iy < s.h + w.padB && ix >= -w.padL && ix < s.w + w.padR;
          if (off >= 0) {
            sum += x[off + c];
            ++count;
          } else if (inPadding) {
            ++padded;
          }
        }
      const int div = w.countIncludePad ? count + padded : count;
      y[o + c] = applyAct(l.act, float(sum / std::max(div, 1)));
    }
  });
}

void floatSoftmax(const Shape& s, const std::vector<float>& x, std::vector<float>& y) {
  for (int64_t r = 0; r < s.pixels(); ++r) {
    const float* xr = &x[r * s.c];
    const float m = *std::max_element(xr, xr + s.c);
    double sum = 0;
    for (int c = 0; c < s.c; ++c)
      sum += std::exp(double(xr[c]) - m);
    for (int c = 0; c < s.c; ++c)
      y[r * s.c + c] = float(std::exp(double(xr[c]) - m) / sum);
  }
}

void floatLayerNorm(const Layer& l, const Shape& s, const std::vector<float>& x,
                    std::vector<float>& y) {
  // The importer's layer has its gain and bias; after splitLayerNormAffine they are a layer of
  // their own and the normalization has none.
  auto gain = [&](int c) { return l.weights.empty() ? 1.0 : double(l.weights[size_t(c)]); };
  auto bias = [&](int c) { return l.bias.empty() ? 0.0 : double(l.bias[size_t(c)]); };
  for (int64_t r = 0; r < s.pixels(); ++r) {
    const float* xr = &x[r * s.c];
    double mean = 0, var = 0;
    for (int c = 0; c < s.c; ++c)
      mean += xr[c];
    mean /= s.c;
    for (int c = 0; c < s.c; ++c)
      var += (xr[c] - mean) * (xr[c] - mean);
    const double inv = 1.0 / std::sqrt(var / s.c + l.epsilon);
    for (int c = 0; c < s.c; ++c)
      y[r * s.c + c] = applyAct(l.act, float((xr[c] - mean) * inv * gain(c) + bias(c)));
  }
}

// ---- int8 -------------------------------------------------------------------------------------

/// The mvout path: requantize an accumulator, saturate to int8, clamp to the activation.
int8_t requantize(int64_t acc, float multiplier, const Layer& l, const IntWidths& w) {
  const int64_t v = golden::saturate(golden::accScale(acc, multiplier, w.accBits), 8);
  return int8_t(std::clamp<int64_t>(v, l.qmin, l.qmax));
}

/// Adds one array sum (`part`) into an accumulator by the chunk rule.
int64_t addChunk(int64_t acc, int64_t part, const ChunkRule& r, const IntWidths& w) {
  const int64_t leaving = r.saturate
                              ? golden::saturate(golden::wrap(part, w.accBits), w.spatialBits)
                              : golden::wrap(part, w.spatialBits);
  return golden::wrap(acc + leaving, w.accBits);
}

/// One axis of a Resize as the array runs it: for each of `blocks` blocks of an image, the
/// `out` x `in` matrix m (1/64 steps) times the block taken as `in` rows of `cols` values
/// (`stride` between the blocks of x and of y), requantized by 1/64 (`clampTo`: the layer's clamp,
/// else plain int8 saturation).
void resizeAxis(const std::vector<int8_t>& m, int64_t out, int64_t in, int64_t cols, int64_t blocks,
                const int8_t* x, int64_t xStride, int8_t* y, int64_t yStride, const Layer* clampTo,
                const IntWidths& iw) {
  const float scale = 1.0f / kResizeOne;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t o = 0; o < out; ++o)
      for (int64_t e = 0; e < cols; ++e) {
        int64_t acc = 0;
        for (int64_t i = 0; i < in; ++i)
          acc += int64_t(m[size_t(o * in + i)]) * x[b * xStride + i * cols + e];
        y[b * yStride + o * cols + e] =
            clampTo ? requantize(acc, scale, *clampTo, iw)
                    : int8_t(golden::saturate(golden::accScale(acc, scale, iw.accBits), 8));
      }
}

/// Resize as the array runs it (docs/compiler.md, "Resize"): per image, one axis then the other
/// (resizeColumnsFirst), each a product by its matrix (resizeMatrix, 1/64 steps) requantized by
/// 1/64, the intermediate to int8, the output with the layer's clamp. The rows' product takes an
/// image as H x (W C); the columns' one each image row as W x C. A sum holds two taps of at most
/// 64 x 128, so no chunk rule applies.
void int8Resize(const Graph& g, const Layer& l, const std::vector<int8_t>& x,
                std::vector<int8_t>& y, const IntWidths& iw) {
  const Shape &is = g.tensors[l.inputs[0]].shape, &os = g.tensors[l.output].shape;
  const std::vector<int8_t> rows = resizeMatrix(l.resize, is.h, os.h, l.resize.scaleH);
  const std::vector<int8_t> cols = resizeMatrix(l.resize, is.w, os.w, l.resize.scaleW);
  const bool colsFirst = resizeColumnsFirst(is, os);
  const Shape mid{1, colsFirst ? is.h : os.h, colsFirst ? os.w : is.w, is.c};
  std::vector<int8_t> m(size_t(mid.elems()));
  for (int64_t n = 0; n < is.n; ++n) {
    const int8_t* image = x.data() + n * is.h * is.w * is.c;
    int8_t* out = y.data() + n * os.h * os.w * os.c;
    if (colsFirst) {
      resizeAxis(cols, os.w, is.w, is.c, is.h, image, int64_t(is.w) * is.c, m.data(),
                 int64_t(os.w) * os.c, nullptr, iw);
      resizeAxis(rows, os.h, is.h, int64_t(os.w) * os.c, 1, m.data(), 0, out, 0, &l, iw);
    } else {
      resizeAxis(rows, os.h, is.h, int64_t(is.w) * is.c, 1, image, 0, m.data(), 0, nullptr, iw);
      resizeAxis(cols, os.w, is.w, is.c, os.h, m.data(), int64_t(is.w) * is.c, out,
                 int64_t(os.w) * os.c, &l, iw);
    }
  }
}

void int8Conv(const Graph& g, const Layer& l, const std::vector<int8_t>& x, std::vector<int8_t>& y,
              const ChunkRule& rule, const IntWidths& iw) {
  const Shape& in = g.tensors[l.inputs[0]].shape;
  const Shape cs = convShape(g, l);
  const Window& w = l.window;
  const int cin = l.depthwise ? 1 : in.c;
  const int64_t kTotal = int64_t(w.kh) * w.kw * cin;
  const int chunk = rule.chunk > 0 ? rule.chunk : int(std::min<int64_t>(kTotal, 1 << 30));
  std::vector<int8_t> conv(size_t(cs.elems()));
  std::vector<int64_t> acc(static_cast<size_t>(cs.c)), part(static_cast<size_t>(cs.c));
  forEachPixel(cs, [&](int n, int oy, int ox, int64_t o) {
    for (int co = 0; co < cs.c; ++co)
      acc[co] = l.qbias.empty() ? 0 : l.qbias[co];
    int filled = 0; // reduction elements in the current chunk
    std::fill(part.begin(), part.end(), 0);
    auto flush = [&] {
      for (int co = 0; co < cs.c; ++co)
        acc[co] = addChunk(acc[co], part[co], rule, iw);
      std::fill(part.begin(), part.end(), 0);
      filled = 0;
    };
    for (int ky = 0; ky < w.kh; ++ky)
      for (int kx = 0; kx < w.kw; ++kx) {
        const int64_t off = tapOffset(in, w, n, oy, ox, ky, kx);
        for (int ci = 0; ci < cin; ++ci) {
          if (l.depthwise && off >= 0) { // each channel with its own filter
            for (int c = 0; c < cs.c; ++c)
              part[c] += int64_t(x[off + c]) * l.qweights[(size_t(c) * w.kh + ky) * w.kw + kx];
          } else if (off >= 0 && x[off + ci] != 0) {
            const int64_t xv = x[off + ci];
            const int8_t* wr = &l.qweights[((size_t(ky) * w.kw + kx) * in.c + ci) * cs.c];
            for (int co = 0; co < cs.c; ++co)
              part[co] += xv * wr[co];
          }
          if (++filled == chunk)
            flush();
        }
        if (rule.perTap && filled > 0)
          flush();
      }
    if (filled > 0)
      flush();
    for (int co = 0; co < cs.c; ++co)
      conv[o + co] = requantize(acc[co], l.multiplier, l, iw);
  });
  if (!l.pool.present()) {
    y = std::move(conv);
    return;
  }
  // The hardware pools on mvout with zero padding (docs/isa.md).
  maxPoolSquare(conv, cs, l.pool, int8_t(0), y, g.tensors[l.output].shape);
}

void int8Dense(const Graph& g, const Layer& l, const std::vector<int8_t>& x, std::vector<int8_t>& y,
               const ChunkRule& rule, const IntWidths& iw) {
  const Shape& os = g.tensors[l.output].shape;
  const int k = g.tensors[l.inputs[0]].shape.c, j = os.c;
  const int chunk = rule.chunk > 0 ? rule.chunk : k;
  std::vector<int64_t> acc(static_cast<size_t>(j)), part(static_cast<size_t>(j));
  for (int64_t r = 0; r < os.pixels(); ++r) {
    for (int o = 0; o < j; ++o)
      acc[o] = l.qbias.empty() ? 0 : l.qbias[o];
    for (int k0 = 0; k0 < k; k0 += chunk) {
      std::fill(part.begin(), part.end(), 0);
      for (int i = k0; i < std::min(k, k0 + chunk); ++i) {
        const int64_t xv = x[r * k + i];
        const int8_t* wr = &l.qweights[size_t(i) * j];
        for (int o = 0; o < j; ++o)
          part[o] += xv * wr[o];
      }
      for (int o = 0; o < j; ++o)
        acc[o] = addChunk(acc[o], part[o], rule, iw);
    }
    for (int o = 0; o < j; ++o)
      y[r * j + o] = requantize(acc[o], l.multiplier, l, iw);
  }
}

void int8AvgPool(const Layer& l, const Shape& s, const std::vector<int8_t>& x,
                 std::vector<int8_t>& y, const Shape& os, const IntWidths& iw) {
  const Window& w = l.window;
  forEachPixel(os, [&](int n, int oy, int ox, int64_t o) {
    for (int c = 0; c < s.c; ++c) {
      int64_t sum = 0;
      int count = 0;
      for (int ky = 0; ky < w.kh; ++ky)
        for (int kx = 0; kx < w.kw; ++kx) {
          const int64_t off = tapOffset(s, w, n, oy, ox, ky, kx);
          if (off >= 0) {
            sum = golden::wrap(sum + x[off + c], iw.accBits);
            ++count;
          }
        }
      const float m = l.poolScales.empty() ? l.multiplier : l.poolScales.at(size_t(count));
      y[o + c] = requantize(sum, m, l, iw);
    }
  });
}

} // namespace

// ---- public -------------------------------------------------------------------------------------

FloatValues runFloat(const Graph& g, const std::vector<float>& input) {
  FloatValues v(g.tensors.size());
  if (int64_t(input.size()) != g.tensors[g.input].shape.elems())
    throw std::invalid_argument("runFloat: input has the wrong size");
  v[g.storageOf(g.input)] = input;
  auto val = [&](int t) -> const std::vector<float>& { return v[g.storageOf(t)]; };
  for (const Layer& l : g.layers) {
    const Shape& os = g.tensors[l.output].shape;
    std::vector<float> y(size_t(os.elems()));
    const Shape& is = g.tensors[l.inputs[0]].shape;
    const std::vector<float>& x = val(l.inputs[0]);
    switch (l.kind) {
    case LayerKind::Conv:
      floatConv(g, l, x, y);
      break;
    case LayerKind::Dense:
      floatDense(g, l, x, y);
      break;
    case LayerKind::Add:
      if (l.inputs.size() == 1) { // a per-channel constant (before the passes fold it)
        for (size_t i = 0; i < y.size(); ++i)
          y[i] = applyAct(l.act, x[i] + l.bias[i % l.bias.size()]);
      } else {
        const std::vector<float>& b = val(l.inputs[1]);
        for (size_t i = 0; i < y.size(); ++i)
          y[i] = applyAct(l.act, x[i] + b[i]);
      }
      break;
    case LayerKind::MaxPool:
      maxPool(x, is, l.window, y, os);
      break;
    case LayerKind::AvgPool:
      floatAvgPool(l, is, x, y, os);
      break;
    case LayerKind::GlobalAvgPool:
      for (int n = 0; n < is.n; ++n)
        for (int c = 0; c < is.c; ++c) {
          double sum = 0;
          for (int64_t p = 0; p < int64_t(is.h) * is.w; ++p)
            sum += x[(n * int64_t(is.h) * is.w + p) * is.c + c];
          y[size_t(n) * is.c + c] = float(sum / (double(is.h) * is.w));
        }
      break;
    case LayerKind::Concat: {
      std::vector<const std::vector<float>*> ins;
      for (int t : l.inputs)
        ins.push_back(&val(t));
      concat(g, l, ins, y);
      break;
    }
    case LayerKind::Pad:
      pad(is, l.window, x, y, os);
      break;
    case LayerKind::Softmax:
      floatSoftmax(is, x, y);
      break;
    case LayerKind::LayerNorm:
      floatLayerNorm(l, is, x, y);
      break;
    case LayerKind::Clamp:
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = applyAct(l.act, x[i]);
      break;
    case LayerKind::Reorder:
      reorder(reorderSource(g, l), x, y);
      break;
    case LayerKind::Slice:
      slice(g, l, x, y);
      break;
    case LayerKind::Pointwise:
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = float(applyPointwise(l.fn, x[i], l.alpha, l.beta));
      break;
    case LayerKind::Mul:
      product(g, l, x, val(l.inputs[1]),
              [&](int64_t i, float a, float b) { y[size_t(i)] = a * b; });
      break;
    case LayerKind::Resize: {
      std::vector<double> acc(y.size(), 0.0);
      forEachResizeTap(
          g, l, [&](int64_t o, int64_t i, const ResizeTap& ty, const ResizeTap& tx, int a, int b) {
            acc[size_t(o)] +=
                (a ? ty.lambda : 1 - ty.lambda) * (b ? tx.lambda : 1 - tx.lambda) * x[i];
          });
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = float(acc[i]);
      break;
    }
    }
    v[g.storageOf(l.output)] = std::move(y);
  }
  return v;
}

Int8Values runInt8(const Graph& g, const std::vector<int8_t>& input,
                   const std::vector<ChunkRule>& rules, const IntWidths& iw) {
  Int8Values v(g.tensors.size());
  if (int64_t(input.size()) != g.tensors[g.input].shape.elems())
    throw std::invalid_argument("runInt8: input has the wrong size");
  v[g.storageOf(g.input)] = input;
  auto val = [&](int t) -> const std::vector<int8_t>& { return v[g.storageOf(t)]; };
  for (size_t li = 0; li < g.layers.size(); ++li) {
    const Layer& l = g.layers[li];
    const ChunkRule rule = li < rules.size() ? rules[li] : ChunkRule{};
    const Shape& os = g.tensors[l.output].shape;
    std::vector<int8_t> y(size_t(os.elems()));
    const Shape& is = g.tensors[l.inputs[0]].shape;
    const std::vector<int8_t>& x = val(l.inputs[0]);
    switch (l.kind) {
    case LayerKind::Conv:
      int8Conv(g, l, x, y, rule, iw);
      break;
    case LayerKind::Dense:
      int8Dense(g, l, x, y, rule, iw);
      break;
    case LayerKind::Add: {
      if (l.inputs.size() != 2)
        throw std::logic_error("runInt8: a constant Add the passes did not fold");
      const std::vector<int8_t>& b = val(l.inputs[1]);
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = requantize(golden::wrap(int64_t(x[i]) + b[i], iw.accBits), l.multiplier, l, iw);
      break;
    }
    case LayerKind::MaxPool:
      maxPool(x, is, l.window, y, os);
      break;
    case LayerKind::AvgPool:
      int8AvgPool(l, is, x, y, os, iw);
      break;
    case LayerKind::GlobalAvgPool: {
      const int64_t pixels = int64_t(is.h) * is.w;
      const float scale = 1.0f / float(pixels);
      for (int n = 0; n < is.n; ++n)
        for (int c = 0; c < is.c; ++c) {
          int64_t sum = 0;
          for (int64_t p = 0; p < pixels; ++p)
            sum = golden::wrap(sum + x[(n * pixels + p) * is.c + c], iw.accBits);
          y[size_t(n) * is.c + c] =
              int8_t(golden::saturate(golden::accScale(sum, scale, iw.accBits), 8));
        }
      break;
    }
    case LayerKind::Concat: {
      std::vector<const std::vector<int8_t>*> ins;
      for (int t : l.inputs)
        ins.push_back(&val(t));
      concat(g, l, ins, y);
      break;
    }
    case LayerKind::Pad:
      pad(is, l.window, x, y, os);
      break;
    case LayerKind::Softmax:
      for (int64_t r = 0; r < is.pixels(); ++r)
        softmaxRow(&x[r * is.c], &y[r * is.c], is.c, l.expTable);
      break;
    case LayerKind::LayerNorm:
      for (int64_t r = 0; r < is.pixels(); ++r)
        layerNormRow(&x[r * is.c], &y[r * is.c], is.c, l);
      break;
    case LayerKind::Clamp:
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = int8_t(std::clamp<int>(x[i], l.qmin, l.qmax));
      break;
    case LayerKind::Reorder:
      reorder(reorderSource(g, l), x, y);
      break;
    case LayerKind::Slice:
      slice(g, l, x, y);
      break;
    case LayerKind::Pointwise:
      for (size_t i = 0; i < y.size(); ++i)
        y[i] = l.table.at(size_t(x[i] + 128));
      break;
    case LayerKind::Mul:
      product(g, l, x, val(l.inputs[1]), [&](int64_t i, int8_t a, int8_t b) {
        y[size_t(i)] = requantize(int64_t(a) * b, l.multiplier, l, iw);
      });
      break;
    case LayerKind::Resize:
      int8Resize(g, l, x, y, iw);
      break;
    }
    v[g.storageOf(l.output)] = std::move(y);
  }
  return v;
}

// ---- layouts and softmax ---------------------------------------------------------------------

std::vector<float> onnxToNhwc(const Tensor& t, const std::vector<float>& onnx) {
  const Shape& s = t.shape;
  std::vector<float> out(onnx.size());
  if ((t.onnxShape.size() != 4 && t.onnxShape.size() != 3) || t.channelsLast)
    return onnx;
  for (int n = 0; n < s.n; ++n)
    for (int c = 0; c < s.c; ++c)
      for (int y = 0; y < s.h; ++y)
        for (int x = 0; x < s.w; ++x)
          out[((int64_t(n) * s.h + y) * s.w + x) * s.c + c] =
              onnx[((int64_t(n) * s.c + c) * s.h + y) * s.w + x];
  return out;
}

template <typename T> std::vector<T> nhwcToOnnxT(const Tensor& t, const std::vector<T>& nhwc) {
  const Shape& s = t.shape;
  if ((t.onnxShape.size() != 4 && t.onnxShape.size() != 3) || t.channelsLast)
    return nhwc;
  std::vector<T> out(nhwc.size());
  for (int n = 0; n < s.n; ++n)
    for (int c = 0; c < s.c; ++c)
      for (int y = 0; y < s.h; ++y)
        for (int x = 0; x < s.w; ++x)
          out[((int64_t(n) * s.c + c) * s.h + y) * s.w + x] =
              nhwc[((int64_t(n) * s.h + y) * s.w + x) * s.c + c];
  return out;
}
template std::vector<float> nhwcToOnnxT(const Tensor&, const std::vector<float>&);
template std::vector<int8_t> nhwcToOnnxT(const Tensor&, const std::vector<int8_t>&);

std::vector<float> nhwcToOnnx(const Tensor& t, const std::vector<float>& nhwc) {
  return nhwcToOnnxT(t, nhwc);
}

std::vector<uint32_t> softmaxTable(double scaleIn) {
  std::vector<uint32_t> table(256);
  for (int d = 0; d < 256; ++d)
    table[d] = uint32_t(std::lround(65536.0 * std::exp(-double(d) * scaleIn)));
  return table;
}

void softmaxRow(const int8_t* x, int8_t* y, int n, const std::vector<uint32_t>& table) {
  int m = -128;
  for (int i = 0; i < n; ++i)
    m = std::max<int>(m, x[i]);
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i)
    sum += table[size_t(m - x[i])];
  for (int i = 0; i < n; ++i) {
    const uint64_t e = table[size_t(m - x[i])];
    // round(127 * e / sum), ties to even, in integers.
    const uint64_t num = 127 * e, q = num / sum, r = num % sum;
    const uint64_t up = (2 * r > sum || (2 * r == sum && (q & 1))) ? 1 : 0;
    y[i] = int8_t(q + up);
  }
}

void layerNormRow(const int8_t* x, int8_t* y, int c, const Layer& l) {
  int64_t s1 = 0, s2 = 0;
  for (int j = 0; j < c; ++j) {
    s1 += x[j];
    s2 += x[j] * x[j];
  }
  const double v = double(int64_t(c) * s2 - s1 * s1) + l.lnEps; // the integer part is exact
  const float scale = v > 0 ? float(l.lnScale / std::sqrt(v)) : 0.0f;
  // D = -round(64 s1 / c), halves up: floor((128 s1 + c) / (2 c)).
  const int64_t n = 2 * kLayerNormOne * s1 + c, d = 2 * int64_t(c);
  const int64_t centering = -(n / d - (n % d != 0 && n < 0 ? 1 : 0));
  for (int j = 0; j < c; ++j) {
    const int64_t a = kLayerNormOne * x[j] + centering;
    const int64_t q = golden::saturate(golden::accScale(a, scale, 32), 8);
    y[j] = int8_t(std::clamp<int64_t>(q, l.qmin, l.qmax));
  }
}

} // namespace by::compiler
