// Post-training quantization (docs/compiler.md, "Quantization"): int8 symmetric per-tensor
// scales for activations (calibrated on sample inputs: min/max or a percentile of |x|) and
// weights (max |w| / 127), int32 biases, and per layer the mvout multiplier that maps the
// accumulator onto the output scale (docs/arithmetic.md accScale). A bias too large for the
// int32 accumulator at scale s_in * s_w widens that layer's weight scale until it fits
// (biasFitWeightScale); nothing is ever clipped.
//
// Tensors that one kernel reads or writes in one scale share it: the two inputs of an Add
// (the residual add sums int8 values, then scales), the inputs and output of a Concat, and the
// input and output of MaxPool, Pad, Clamp, Reorder, GlobalAveragePool, Slice and a channel
// shuffle (a permutation that copies exactly). Such a class takes
// the largest range of its members. Pre-quantized models fix scales (QDQ / QLinear*); where
// two fixed scales meet in one class a requantizing layer (a depthwise 1x1 convolution by 1)
// is inserted.
#pragma once

#include "compiler/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::compiler {

struct CalibOptions {
  enum class Method { MinMax, Percentile } method = Method::MinMax;
  double percentile = 99.99; // of |x|, per tensor
};

/// What calibration measured per tensor (indexed by storage id).
struct Calibration {
  std::vector<double> absMax;                   // the range the scale covers
  std::vector<double> observed;                 // the largest |x| seen
  std::vector<std::vector<uint64_t>> histogram; // |x| in kBins bins over [0, observed]
  std::vector<double> zeros;                    // fraction of exact zeros
  int samples = 0;
  static constexpr int kBins = 2048;
};

/// Runs the float graph on every input (NHWC) and measures each tensor.
Calibration calibrate(const Graph& g, const std::vector<std::vector<float>>& inputs,
                      const CalibOptions& options);

/// One line of the quantization report (quant.json) for a tensor.
struct TensorQuant {
  int tensor = -1;
  double scale = 0;
  double range = 0;           // |x| the scale covers (127 * scale)
  double observed = 0;        // largest |x| in calibration
  double clippedFraction = 0; // calibration values beyond the range
  double zeroFraction = 0;
  bool fixed = false; // the model gave the scale
};

struct QuantResult {
  std::vector<TensorQuant> tensors; // one per quantized storage tensor
  std::vector<std::string> notes;   // requantizers inserted, re-quantized weights, ...
};

/// A Pointwise layer's int8 table between input scale sIn and output scale sOut: entry x + 128
/// is round(f(x sIn) / sOut), saturated.
std::vector<int8_t> pointwiseTable(const Layer& l, double sIn, double sOut);

/// A LayerNorm layer's constants (Layer::lnScale, lnEps) for its input and output scales; a
/// CompileError if the layer has more channels than by_layernorm takes (docs/compiler.md,
/// "Layer normalization").
void layerNormConstants(Layer& l, int channels, double sIn, double sOut);

/// Quantizes the graph in place (scales, int8 weights, int32 biases, multipliers, clamps,
/// softmax tables); may insert requantizing layers. Throws CompileError for a model whose
/// fixed scales cannot be honoured.
/// accWidth: the config's types.acc_width, which bounds the biases (biasHeadroom).
QuantResult quantize(Graph& g, const Calibration& calib, int accWidth = 32);

/// Room for a layer's bias in its accumulator of accWidth bits (biases are int32: at most 32),
/// in accumulator steps: 2^(w-1) - 1 less the largest sum of its K int8 products (|x| <= 128,
/// |w| <= 127), so that the bias and any partial sum never wrap; at least 2^(w-2) (where the
/// products alone may fill half: K > 66052 at 32 bits, K > 1 at 16).
int64_t biasHeadroom(int64_t k, int accWidth = 32);

/// The weight scale at which a layer's bias fits its accumulator (docs/compiler.md, "Oversized
/// biases"): sw itself when round(max|b| / (sIn sw)) <= biasHeadroom(k); otherwise the wider
/// scale max|b| / (sIn biasHeadroom(k)), at which the largest bias is exactly the headroom.
/// Why widening is nearly lossless: such a bias is over 2^30 accumulator steps, so when it is
/// within the output's range (|b| <= 127 sOut) an accumulator step is over 2^30 / 127 times
/// finer than an output step, and the coarser weights err by at most 64 K sIn sw' / sOut
/// output steps (quant.json notes the figure).
double biasFitWeightScale(double sw, double sIn, double maxAbsBias, int64_t k, int accWidth = 32);

/// Signal-to-quantization-noise ratio in dB of int8 values (times scale) against floats.
double sqnrDb(const std::vector<float>& ref, const std::vector<int8_t>& q, double scale);

} // namespace by::compiler
