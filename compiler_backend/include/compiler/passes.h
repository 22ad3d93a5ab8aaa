// Graph passes between import and quantization (docs/compiler.md, "Passes"). Each keeps the
// graph's float semantics exactly (up to float rounding of folded weights).
#pragma once

#include "compiler/graph.h"

#include <string>
#include <vector>

namespace by::compiler {

/// BatchNormalization (imported as a depthwise 1x1 convolution) and per-channel constant adds
/// folded into the Conv / Dense before them when that layer's output feeds nothing else; the
/// ones that cannot be folded stay depthwise 1x1 convolutions.
void foldBatchNormAndBias(Graph& g);
/// Each LayerNorm's gain and bias moved into a layer of their own after it (a depthwise 1x1
/// convolution): the normalization runs on the array without them (docs/compiler.md, "Layer
/// normalization").
void splitLayerNormAffine(Graph& g);
/// Such a gain and bias folded into the layers reading them when each is a Dense or a dense
/// convolution without padding (exact: W'[.., c, o] = W a_c, b'_o = b_o + sum W b_c).
void foldAffineIntoConsumers(Graph& g);
/// Zero Pad layers folded into the padding of the convolution (or count-including average
/// pool) that is their only consumer.
void foldPadding(Graph& g);
/// Relu / Clip folded into the Conv, Dense, Add or AvgPool before them (the mvout applies
/// them), consecutive clamps merged.
void fuseActivations(Graph& g);
/// Square max-pools with equal strides and symmetric padding folded into the convolution
/// before them (the hardware pools on mvout); padding only where the values are >= 0 (the
/// hardware pads with zeros, ONNX with -infinity).
void fusePooling(Graph& g);
/// x * Sigmoid(x) into one SiLU layer and x * HardSigmoid(x) (alpha 1/6, beta 1/2) into one
/// HardSwish.
void fuseGatedActivations(Graph& g);
/// Each grouped convolution cut into pieces of whole groups, each at most `pieceChannels`
/// channels wide where a group is narrower (the array's width: a piece fills it), run as
/// channel slices, one dense (block-diagonal) convolution per piece and a concatenation. A
/// convolution whose groups all fit stays one block-diagonal convolution.
void splitGroupedConvs(Graph& g, int pieceChannels);
/// Layers whose results reach no output removed.
void removeDeadLayers(Graph& g);
/// A flattened map leaving the model goes back into ONNX's CHW order (a Reorder layer).
void restoreOutputLayout(Graph& g);

struct PassOptions {
  /// splitGroupedConvs: the array's width (DIM) of the config; 0 (no config): a piece per group.
  int groupPieceChannels = 0;
};

/// All of the above, in order. Returns one line per change made ("folded BatchNormalization
/// 'bn_3' into 'conv_2'"), for the plan.
std::vector<std::string> runPasses(Graph& g, const PassOptions& options = {});

} // namespace by::compiler
