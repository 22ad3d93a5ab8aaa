// The compiler's graph IR: layers over tensors with explicit shapes and one physical layout.
//
// Every activation tensor is stored NHWC (the layout the driver's kernels read and write); a
// 2-D ONNX tensor [N, C] is N x 1 x 1 x C. Constants (weights, biases) belong to the layers
// that use them, already in the kernels' layouts. ONNX ops that only rename or reshape data
// (Identity, Dropout, Flatten, Reshape, Squeeze, Unsqueeze) become *aliases*: tensors that
// share their source's storage. A layer is one accelerator (or CPU) operation; the passes
// fold BatchNormalization into convolutions and fuse activations and max-pooling into the
// layer before them, so that a layer may stand for several ONNX nodes (`onnxNodes`).
//
// The same graph carries the quantization (quantize.h): a scale per tensor, int8 weights,
// int32 biases and the requantization multiplier of each layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace by::compiler {

struct Shape {
  int n = 1, h = 1, w = 1, c = 1; // NHWC
  int64_t elems() const { return int64_t(n) * h * w * c; }
  int64_t pixels() const { return int64_t(n) * h * w; }
  bool operator==(const Shape& o) const { return n == o.n && h == o.h && w == o.w && c == o.c; }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  std::string str() const; // "1x8x8x16 (NHWC)"
};

struct Tensor {
  std::string name;               // ONNX value name
  Shape shape;                    // physical, NHWC
  std::vector<int64_t> onnxShape; // the ONNX shape (NCHW for 4-D), for files and messages
  /// A flattened map [N, C*H*W] whose data is still in the NHWC order of `chwFrom` (C, H, W):
  /// ONNX element (c*H + y)*W + x of a row lives at physical (y*W + x)*C + c.
  std::optional<Shape> chwFrom;
  int aliasOf = -1; // shares the storage of this tensor (a reshape or identity)
  double scale = 0; // int8 quantization: real value = q * scale (0: not quantized yet)
  /// The scale a pre-quantized model (QDQ, QLinear*) gives this tensor; 0: calibrate it.
  double fixedScale = 0;
  double zeroFraction = 0; // exact zeros in calibration (TensorDash side choice)
  /// A 4-D map viewed channels-last: its ONNX shape is [N, H, W, C] (a Transpose perm
  /// [0, 2, 3, 1] of an [N, C, H, W] map), the same physical NHWC data. Ops over the last
  /// axis (LayerNormalization, MatMul) then work on the channels.
  bool channelsLast = false;
  /// Boveda configs: the bytes the tensor would take stored compressed between layers (its
  /// blocks and pointer entries) over its raw bytes, on the first calibration sample; 0: not
  /// measured.
  double storedFraction = 0;
};

enum class LayerKind {
  Conv,          // dense or depthwise 2-D convolution (+ bias, activation, fused max-pool)
  Dense,         // x[N, K] * W[K, J] + b (Gemm, MatMul)
  Add,           // element-wise sum of two tensors of one shape (+ activation)
  MaxPool,       // stand-alone max pooling
  AvgPool,       // average pooling
  GlobalAvgPool, // mean over all pixels of a channel
  Concat,        // concatenation along channels, rows or columns
  Pad,           // constant zero padding of H and W
  Softmax,       // over the channels of each row
  Clamp,         // stand-alone activation (Relu, Clip) that could not be fused
  Reorder,       // a flattened map from NHWC order into ONNX's CHW order
  Slice,         // a range of channels, rows or columns (Split, Slice, a grouped conv's piece)
  Pointwise,     // a function of each element (Sigmoid, HardSwish, ...): an int8 table
  Mul,           // element-wise product; the second factor of the same shape or per channel
  Resize,        // nearest or bilinear resampling of H and W (Resize, Upsample)
  LayerNorm,     // normalization over the channels of each pixel (gain and bias: a layer after)
};
const char* layerKindName(LayerKind kind);

/// An activation on a layer's output, in real values: max(x, lo) and min(x, hi).
struct Activation {
  bool hasLo = false, hasHi = false;
  float lo = 0, hi = 0;
  bool none() const { return !hasLo && !hasHi; }
  bool isRelu() const { return hasLo && lo == 0 && !hasHi; }
  std::string str() const; // "none", "relu", "clip(0, 6)"
};

/// Window geometry of convolutions and pools (ONNX pads: top, left, bottom, right).
struct Window {
  int kh = 1, kw = 1, strideH = 1, strideW = 1;
  int padT = 0, padL = 0, padB = 0, padR = 0;
  /// Convolutions: taps dil pixels apart (ONNX dilations; 1: adjacent). The importer keeps a
  /// dilation only where the driver's by_conv takes it (one value for both axes).
  int dilH = 1, dilW = 1;
  bool ceilMode = false;        // pools: output size rounds up
  bool countIncludePad = false; // AveragePool: padding counts in the divisor
  int outH(int inH) const;
  int outW(int inW) const;
  /// The input rows (columns) one output pixel's taps span.
  int spanH() const { return (kh - 1) * dilH + 1; }
  int spanW() const { return (kw - 1) * dilW + 1; }
  bool symmetricPads() const { return padT == padB && padL == padR && padT == padL; }
};

/// The functions of a Pointwise layer (ONNX semantics; alpha and beta as the op defines them).
enum class PointwiseFn { Sigmoid, Tanh, HardSigmoid, HardSwish, Silu, LeakyRelu, Elu, Gelu };
const char* pointwiseFnName(PointwiseFn fn);
/// The real function: f(x) with the layer's alpha and beta.
double applyPointwise(PointwiseFn fn, double x, double alpha, double beta);

/// The int8 weight 1 of a Resize blend: weights are in 1/64 steps, so that 1 fits an int8 matrix
/// entry and the mvout's scale 1/64 is exact (docs/compiler.md, "Resize").
constexpr int kResizeOne = 64;
/// The unit of layer normalization's centered values: 64 x - round(64 mean) (by_layernorm's
/// BY_LAYERNORM_ONE), so that the mean's rounding is at most 1/128 of an input step.
constexpr int kLayerNormOne = 64;
/// One output index of a Resize axis: the two input indices it blends and the weight of the
/// second, exactly (float model) and in 1/64 steps (int8: w1 = round(64 * lambda)).
struct ResizeTap {
  int i0 = 0, i1 = 0;
  double lambda = 0;
  int w1 = 0;
};
/// How a Resize maps output to input coordinates (ONNX's attributes).
struct ResizeRule {
  bool linear = false;                        // mode linear, else nearest
  std::string coordinates = "half_pixel";     // coordinate_transformation_mode
  std::string nearest = "round_prefer_floor"; // nearest_mode
  double scaleH = 1, scaleW = 1;              // output / input, as ONNX defines the scale
};
/// The taps of one axis of `in` -> `out` elements at `scale` (ONNX Resize semantics).
std::vector<ResizeTap> resizeTaps(const ResizeRule& r, int in, int out, double scale);
/// The same axis as an `out` x `in` int8 matrix in 1/64 steps, row o = (64 - w1) at i0 plus w1
/// at i1: every row sums to 64. The array resamples an axis as the product by this matrix.
std::vector<int8_t> resizeMatrix(const ResizeRule& r, int in, int out, double scale);
/// Whether a Resize of `in` to `out` resamples the columns first (per input row, then the rows
/// of the whole image) rather than the rows first: where it has fewer input rows than output
/// rows, so that the per-row products are fewer and smaller. The int8 result depends on the
/// order (the intermediate is rounded), so the reference and the program both ask this.
inline bool resizeColumnsFirst(const Shape& in, const Shape& out) {
  return in.h < out.h;
}

/// Max pooling the hardware applies on a convolution's way out (mvout).
struct FusedPool {
  int size = 0, stride = 0, pad = 0; // stride 0: none
  bool present() const { return stride != 0; }
};

struct Layer {
  LayerKind kind = LayerKind::Conv;
  std::string name;                   // the first ONNX node's name (messages, report)
  std::vector<std::string> onnxNodes; // every ONNX node folded into this layer
  std::vector<std::string> onnxOps;   // their op types, e.g. Conv, BatchNormalization, Relu
  std::vector<int> inputs;            // tensor ids
  int output = -1;

  Window window;          // Conv, MaxPool, AvgPool
  bool depthwise = false; // Conv: one filter per channel (group = channels)
  /// Conv: groups of a grouped convolution that is not depthwise. Its weights are the dense
  /// block-diagonal kernel (zero across groups) until splitGroupedConvs cuts it into pieces.
  int groups = 1;
  /// Conv: a channel permutation (channel shuffle) with 0/1 weights, output in the input's scale
  /// (an exact copy on the array). No pass may fold anything into it.
  bool channelPermutation = false;
  int axis = 3;       // Concat, Slice: the NHWC axis they work along (1 H, 2 W, 3 C)
  int sliceBegin = 0; // Slice: the first index taken along `axis`
  ResizeRule resize;  // Resize
  PointwiseFn fn = PointwiseFn::Sigmoid; // Pointwise
  float alpha = 0, beta = 0;             // Pointwise: the function's parameters
  /// Conv dense [kh][kw][cin][cout]; Conv depthwise [c][kh][kw]; Dense [K][J] (rows in the
  /// physical order of the input). Float, then int8 after quantization.
  std::vector<float> weights;
  std::vector<float> bias; // [cout] / [J]; empty: none
  /// Pre-quantized weights: their int8 scale (the float weights are exact multiples of it);
  /// 0: quantize from the float values.
  double fixedWeightScale = 0;
  Activation act;
  FusedPool pool;

  // ---- quantized (quantize.h) ----
  std::vector<int8_t> qweights;
  std::vector<int32_t> qbias;
  double weightScale = 0;
  /// The accumulator scale of the mvout (docs/arithmetic.md accScale): accumulator units to
  /// output units. AvgPool with count_include_pad = 0: one per window size (`poolScales`).
  float multiplier = 1.0f;
  std::vector<float> poolScales; // AvgPool without padding counted: index = elements counted
  int qmin = -128, qmax = 127;   // the activation as an int8 clamp on the output
  /// Softmax: exp table, entry d = round(2^16 * exp(-d * scale_in)) for d = max - x, 0..255.
  std::vector<uint32_t> expTable;
  /// Pointwise: the int8 output for each int8 input x, at index x + 128.
  std::vector<int8_t> table;
  /// LayerNorm (docs/compiler.md, "Layer normalization"): epsilon (float model); after
  /// quantization by_layernorm's k = channels / (64 s_out) and e = epsilon channels^2 / s_in^2.
  /// Its gain and bias (`weights`, `bias`) move to a layer of their own (splitLayerNormAffine).
  float epsilon = 1e-5f;
  double lnScale = 0, lnEps = 0;

  bool hasWeights() const { return kind == LayerKind::Conv || kind == LayerKind::Dense; }
  std::string opsString() const; // "Conv+BatchNormalization+Relu"
};

/// One strided 2-D copy of elements: `rows` runs of `cols`, source runs `lds` apart from
/// element `src` of the source tensor, destination runs `ldd` apart from element `dst`.
struct Copy2d {
  int64_t rows = 0, cols = 0, src = 0, lds = 0, dst = 0, ldd = 0;
};

struct Graph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<Layer> layers; // in execution (topological) order
  int input = -1, output = -1;
  int64_t opset = 0;

  /// The tensor that owns `t`'s storage (follows aliases).
  int storageOf(int t) const;
  /// Layers reading tensor `t` or any alias of it.
  std::vector<int> consumers(int t) const;
  /// Ids of `t` and every tensor aliasing it.
  std::vector<int> aliasGroup(int t) const;
  int addTensor(Tensor t);
  /// Number of multiply-accumulates of a layer (0 for data movement).
  int64_t macs(const Layer& l) const;
  /// The copy that moves input `i` of a Concat, or the input of a Slice, into its place in the
  /// output: along `axis` of NHWC data, a run is the axis's extent times everything inside it.
  Copy2d copyOf(const Layer& l, size_t i) const;
};

} // namespace by::compiler
