// Reference interpreters of the graph IR, independent of the driver and the hardware models:
//
// - runFloat: the float model (ONNX semantics, NHWC), for calibration and for the agreement
//   of the int8 program with the float network;
// - runInt8: the quantized graph in integers, following docs/arithmetic.md exactly as the
//   accelerator computes it (chunked sums in the array, wrap-around accumulators, accScale
//   requantization, saturation), so that the program's output must equal it bit for bit.
//
// Values are stored per tensor, NHWC, indexed by the id of the tensor that owns the storage
// (aliases read their root's vector).
#pragma once

#include "compiler/graph.h"

#include <cstdint>
#include <vector>

namespace by::compiler {

/// How the accelerator splits a layer's reduction (K) into sums computed inside the array
/// before they reach the accumulator (docs/arithmetic.md; plan.h decides it per layer).
struct ChunkRule {
  int chunk = 0;         // reduction elements per array sum; 0: the whole reduction at once
  bool perTap = false;   // convolutions by taps: chunks restart at every kernel tap
  bool saturate = false; // OS: the sum saturates (else, WS, it wraps) at spatialBits
};

/// Integer widths of the configuration.
struct IntWidths {
  int accBits = 32;     // types.acc_width
  int spatialBits = 20; // types.spatial_output_width
};

using FloatValues = std::vector<std::vector<float>>;
using Int8Values = std::vector<std::vector<int8_t>>;

/// Runs the float graph on an NHWC input; every tensor's values (per storage id).
FloatValues runFloat(const Graph& g, const std::vector<float>& input);

/// Runs the quantized graph (quantize() done) on an int8 NHWC input. `rules` has one entry
/// per layer (missing entries: one chunk).
Int8Values runInt8(const Graph& g, const std::vector<int8_t>& input,
                   const std::vector<ChunkRule>& rules, const IntWidths& widths);

/// ONNX layout <-> NHWC for a tensor of the graph (NCHW maps, [N, C] rows; a Reorder's
/// output is already in ONNX order).
std::vector<float> onnxToNhwc(const Tensor& t, const std::vector<float>& onnx);
std::vector<float> nhwcToOnnx(const Tensor& t, const std::vector<float>& nhwc);
template <typename T> std::vector<T> nhwcToOnnxT(const Tensor& t, const std::vector<T>& nhwc);

/// The softmax exp table of a layer whose input scale is `scaleIn` (see Layer::expTable).
std::vector<uint32_t> softmaxTable(double scaleIn);
/// Softmax of one row of int8 logits through the table: out = round(127 * e / sum) with
/// e = table[max - x], ties to even, in integers.
void softmaxRow(const int8_t* x, int8_t* y, int n, const std::vector<uint32_t>& table);
/// Layer normalization of one pixel's `c` int8 channels with the layer's constants
/// (Layer::lnScale, lnEps; docs/compiler.md "Layer normalization"): exact sums, the pixel's
/// scale in double then float, 64 x - round(64 mean) through the mvout's accScale.
void layerNormRow(const int8_t* x, int8_t* y, int c, const Layer& l);

} // namespace by::compiler
