// Post-training quantization (docs/compiler.md, "Quantization"): int8 symmetric per-tensor
// scales for activations (calibrated on sample inputs: min/max or a percentile of |x|) and
// weights (max |w| / 127), int32 biases, and per layer the mvout multiplier that maps the
// accumulator onto the output scale (docs/arithmetic.md accScale).
//
// Tensors that one kernel reads or writes in one scale share it: the two inputs of an Add
// (the residual add sums int8 values, then scales), the inputs and output of a Concat, and the
// input and output of MaxPool, Pad, Clamp, Reorder and GlobalAveragePool. Such a class takes
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

/// Quantizes the graph in place (scales, int8 weights, int32 biases, multipliers, clamps,
/// softmax tables); may insert requantizing layers. Throws CompileError for a model whose
/// fixed scales cannot be honoured.
QuantResult quantize(Graph& g, const Calibration& calib);

/// Signal-to-quantization-noise ratio in dB of int8 values (times scale) against floats.
double sqnrDb(const std::vector<float>& ref, const std::vector<int8_t>& q, double scale);

} // namespace by::compiler
