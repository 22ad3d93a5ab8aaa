// Unit tests of the compiler backend that need no simulation: the importer and the float
// interpreter against numpy (make_models.py computes each test model's output with its own
// numpy implementation of the ONNX ops), the passes (folding keeps the float results), the
// quantizer's scale classes, the int8 reference's arithmetic against hand-worked cases, the
// memory plan (no two live tensors overlap), the tiling rules, and the .npy reader.
#include "compiler/compile.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/interpret.h"
#include "compiler/npy.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "compiler/plan.h"
#include "compiler/quantize.h"
#include "config/derived.h"
#include "config/loader.h"
#include "seed.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <unistd.h>

namespace by::compiler {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kModels = {
    "mlp",     "lenet",    "resnet_block",   "mbv2_block",    "pool_concat", "oversized_bias",
    "zoo_ops", "seg_head", "convnext_block", "spatial_copies"};

std::string modelPath(const std::string& name, const std::string& suffix = ".onnx") {
  return std::string(BY_SOURCE_DIR) + "/testbenches/compiler/models/" + name + suffix;
}

config::Config tiny() {
  return config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
}

/// A test model compiled for a config (a path under the source tree), calibrated on one seeded
/// random sample.
Compiled compileForTest(const std::string& model, const std::string& configPath) {
  CompileOptions o;
  o.modelPath = modelPath(model);
  o.config = config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/" + configPath);
  o.calibRandom = 1;
  return compileModel(o);
}

std::vector<float> toFloat(const NpyArray& a) {
  return std::vector<float>(a.values.begin(), a.values.end());
}

/// Largest |a - b| relative to the largest |b|.
double relError(const std::vector<float>& a, const std::vector<float>& b) {
  double err = 0, mag = 1e-6;
  for (size_t i = 0; i < b.size(); ++i) {
    err = std::max(err, double(std::abs(a[i] - b[i])));
    mag = std::max(mag, double(std::abs(b[i])));
  }
  return err / mag;
}

std::vector<float> runModelFloat(const Graph& g, const std::string& name) {
  const Tensor& in = g.tensors[g.input];
  const std::vector<float> x = onnxToNhwc(in, toFloat(readNpy(modelPath(name, ".input.npy"))));
  const FloatValues v = runFloat(g, x);
  const Tensor& out = g.tensors[g.output];
  return nhwcToOnnx(out, v[g.storageOf(g.output)]);
}

TEST(Import, FloatInterpreterMatchesNumpyBeforeAndAfterPasses) {
  for (const std::string& name : kModels) {
    SCOPED_TRACE(name);
    Graph g = importOnnxFile(modelPath(name));
    const std::vector<float> want = toFloat(readNpy(modelPath(name, ".output.npy")));
    const std::vector<float> raw = runModelFloat(g, name);
    ASSERT_EQ(raw.size(), want.size());
    EXPECT_LT(relError(raw, want), 1e-5);
    const auto log = runPasses(g);
    EXPECT_FALSE(log.empty());
    const std::vector<float> folded = runModelFloat(g, name);
    EXPECT_LT(relError(folded, want), 1e-5);
  }
}

TEST(Import, ConvNextChainsBecomeLayerNormAndGelu) {
  // torch's LayerNorm and GELU chains fuse into one layer each; the channels-last Transposes
  // are views (no layer); the layer scale after the Transpose back folds into the MatMul. The
  // normalizations' gains and biases become layers of their own, and the block's (read by the
  // MatMul, a 1x1 convolution) folds into it; the stem's is read by a padded convolution and
  // the head's by a GELU: those two stay.
  Graph g = importOnnxFile(modelPath("convnext_block"));
  runPasses(g);
  int norms = 0, gelus = 0, mulConvs = 0, affines = 0;
  for (const Layer& l : g.layers) {
    norms += l.kind == LayerKind::LayerNorm;
    gelus += l.kind == LayerKind::Pointwise && l.fn == PointwiseFn::Gelu;
    mulConvs += l.kind == LayerKind::Conv && l.depthwise && l.onnxOps[0] == "Mul";
    affines += l.kind == LayerKind::Conv && l.depthwise && l.onnxOps[0] == "LayerNormalization";
    if (l.kind == LayerKind::LayerNorm) {
      EXPECT_TRUE(l.weights.empty() && l.bias.empty()) << l.name;
    }
    for (const std::string& op : l.onnxOps)
      EXPECT_TRUE(op != "Transpose" && op != "Erf" && op != "Sqrt") << op << " in " << l.name;
  }
  EXPECT_EQ(norms, 3);
  EXPECT_EQ(gelus, 2);
  EXPECT_EQ(mulConvs, 0);
  EXPECT_EQ(affines, 2);
  EXPECT_EQ(g.layers.size(), 14u);
}

TEST(Import, LayerNormAffineStaysBeforePreQuantizedWeights) {
  // A pre-quantized model (QDQ) fixes its int8 weights: folding the normalization's gain and
  // bias into them would re-quantize them silently. Marked so, the MatMul that took the fold
  // above keeps its weights, and the affine stays a layer with a note saying why.
  Graph g = importOnnxFile(modelPath("convnext_block"));
  for (Layer& l : g.layers)
    if (l.hasWeights() && !l.depthwise)
      l.fixedWeightScale = 1.0;
  const std::vector<std::string> log = runPasses(g);
  int affines = 0;
  for (const Layer& l : g.layers)
    affines += l.kind == LayerKind::Conv && l.depthwise && l.onnxOps[0] == "LayerNormalization";
  EXPECT_EQ(affines, 3);
  const auto said = std::count_if(log.begin(), log.end(), [](const std::string& s) {
    return s.find("has the model's int8 weights") != std::string::npos;
  });
  EXPECT_EQ(said, 1);
}

TEST(Quantize, LayerNormFollowsTheFloatNormalization) {
  // layerNormRow (by_layernorm's definition: exact sums, a scale per pixel, 64 x - round(64
  // mean) through accScale) against the float normalization of the same int8 row, for rows of
  // one outlier, constant rows (the output is 0) and random ones (seed 29).
  for (int c : {2, 16, 96, 768}) {
    Layer l;
    l.kind = LayerKind::LayerNorm;
    l.epsilon = 1e-5f;
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const double sIn = 0.05, sOut = 4.0 / 127; // outputs to 4 (clipped beyond: outliers)
    layerNormConstants(l, c, sIn, sOut);
    for (int pattern = 0; pattern < 3; ++pattern) {
      SCOPED_TRACE("c " + std::to_string(c) + " pattern " + std::to_string(pattern));
      std::vector<int8_t> x(static_cast<size_t>(c), 7);
      if (pattern == 1)
        x[0] = -100;
      for (int j = 0; pattern == 2 && j < c; ++j)
        x[size_t(j)] = int8_t(std::lround(127 * u(rng)));
      std::vector<int8_t> y(static_cast<size_t>(c));
      layerNormRow(x.data(), y.data(), c, l);
      double mean = 0, var = 0;
      for (int8_t v : x)
        mean += v * sIn / c;
      for (int8_t v : x)
        var += (v * sIn - mean) * (v * sIn - mean) / c;
      for (int j = 0; j < c; ++j) {
        const double want = (x[size_t(j)] * sIn - mean) / std::sqrt(var + l.epsilon);
        const double clipped = std::clamp(want, -128 * sOut, 127 * sOut);
        EXPECT_NEAR(y[size_t(j)] * sOut, clipped, 0.51 * sOut + 1e-3 * std::abs(want))
            << "channel " << j;
      }
    }
  }
}

TEST(Boveda, ActivationsAreStoredCompressedOnlyWhereTheCalibrationSampleShrinks) {
  // td_boveda_l4 (zero-aware Boveda, conv loops), boveda_chain: the post-ReLU tensor between
  // the first two convolutions compresses; the next one has no ReLU (few zeros, as MobileNetV2's
  // linear bottlenecks) and would take more than its raw bytes, which the compiler measures on
  // the calibration sample: it keeps that one raw and says so in the plan's notes.
  const Compiled c = compileForTest("boveda_chain", "testbenches/configs/td_boveda_l4.yaml");
  ASSERT_EQ(c.graph.layers.size(), 3u);
  const int relu = c.graph.layers[0].output, linear = c.graph.layers[1].output;
  const double reluStored = c.graph.tensors[size_t(relu)].storedFraction;
  const double linearStored = c.graph.tensors[size_t(linear)].storedFraction;
  EXPECT_TRUE(c.program.memory.compressed(relu));
  EXPECT_GT(reluStored, 0.3);
  EXPECT_LT(reluStored, 0.9);
  EXPECT_FALSE(c.program.memory.compressed(linear));
  EXPECT_GT(linearStored, 0.9);
  int notes = 0;
  for (const std::string& note : c.program.notes)
    notes += note.find("' stay raw: compressed they took") != std::string::npos;
  EXPECT_EQ(notes, 1);
}

TEST(Import, PassesFoldWhatTheyShould) {
  Graph g = importOnnxFile(modelPath("resnet_block"));
  runPasses(g);
  int bn = 0, clamps = 0, adds = 0;
  for (const Layer& l : g.layers) {
    bn += std::count(l.onnxOps.begin(), l.onnxOps.end(), "BatchNormalization");
    clamps += l.kind == LayerKind::Clamp;
    adds += l.kind == LayerKind::Add;
    if (l.kind == LayerKind::Conv) {
      EXPECT_EQ(l.onnxOps[0], "Conv") << l.name; // every BN was folded into a conv
    }
  }
  EXPECT_EQ(bn, 6);
  EXPECT_EQ(clamps, 0); // every Relu fused
  EXPECT_EQ(adds, 2);

  Graph lenet = importOnnxFile(modelPath("lenet"));
  runPasses(lenet);
  int pooled = 0;
  for (const Layer& l : lenet.layers)
    pooled += l.pool.present();
  EXPECT_EQ(pooled, 2); // both max-pools ride on the convolutions' mvout

  Graph pc = importOnnxFile(modelPath("pool_concat"));
  runPasses(pc);
  for (const Layer& l : pc.layers)
    EXPECT_NE(l.kind, LayerKind::Pad) << "the Pad folds into the next convolution";
}

TEST(Import, ZooOpsBecomeTheLayersTheirSemanticsNeed) {
  // zoo_ops (make_models.py): grouped convolutions 8->16 in 2 groups, 16->32 in 16 (channel
  // multiplier 2) and 32->32 in 4; two squeeze-and-excitation blocks; SiLU as x * Sigmoid(x)
  // twice; a channel shuffle; a Split into two halves.
  Graph g = importOnnxFile(modelPath("zoo_ops"));
  PassOptions o;
  o.groupPieceChannels = 8; // pieces: 2 of 1 group (8 wide), 4 of 4 groups (8), 4 of 1 (8)
  runPasses(g, o);
  int slices = 0, muls = 0, shuffles = 0, concats = 0;
  std::map<PointwiseFn, int> fns;
  for (const Layer& l : g.layers) {
    slices += l.kind == LayerKind::Slice;
    muls += l.kind == LayerKind::Mul;
    shuffles += l.channelPermutation;
    concats += l.kind == LayerKind::Concat;
    if (l.kind == LayerKind::Pointwise)
      ++fns[l.fn];
    if (l.kind == LayerKind::Conv && l.groups > 1) {
      EXPECT_LE(g.tensors[l.inputs[0]].shape.c, 8) << l.name;
      EXPECT_LE(g.tensors[l.output].shape.c, 8) << l.name;
    }
  }
  EXPECT_EQ(slices, 2 + 4 + 4 + 2); // the pieces' inputs and the Split
  EXPECT_EQ(concats, 3 + 1);        // the pieces' outputs and the model's Concat
  EXPECT_EQ(muls, 2);               // the two excitation scales; the SiLU products fused
  EXPECT_EQ(shuffles, 1);
  EXPECT_EQ(fns[PointwiseFn::Silu], 2);
  EXPECT_EQ(fns[PointwiseFn::HardSwish], 1);
  EXPECT_EQ(fns[PointwiseFn::HardSigmoid], 1);
  EXPECT_EQ(fns[PointwiseFn::Sigmoid], 1);
  EXPECT_EQ(fns[PointwiseFn::Tanh], 1);
  EXPECT_EQ(fns[PointwiseFn::LeakyRelu], 1);
  // The pieces compute what the grouped convolutions did.
  const std::vector<float> want = toFloat(readNpy(modelPath("zoo_ops", ".output.npy")));
  EXPECT_LT(relError(runModelFloat(g, "zoo_ops"), want), 1e-5);
}

TEST(Import, ResizeTapsFollowOnnxCoordinates) {
  // Worked by hand from the ONNX Resize spec: {i0, i1, w1 in 1/64}.
  auto taps = [](ResizeRule r, int in, int out, double scale) {
    std::vector<std::array<int, 3>> v;
    for (const ResizeTap& t : resizeTaps(r, in, out, scale))
      v.push_back({t.i0, t.i1, t.w1});
    return v;
  };
  ResizeRule linear;
  linear.linear = true; // half_pixel: src = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25
  EXPECT_EQ(taps(linear, 2, 4, 2.0),
            (std::vector<std::array<int, 3>>{{0, 1, 0}, {0, 1, 16}, {0, 1, 48}, {1, 1, 0}}));
  linear.coordinates = "align_corners"; // src = x * 2 / 4 = 0, 0.5, 1, 1.5, 2
  EXPECT_EQ(
      taps(linear, 3, 5, 5.0 / 3),
      (std::vector<std::array<int, 3>>{{0, 1, 0}, {0, 1, 32}, {1, 2, 0}, {1, 2, 32}, {2, 2, 0}}));
  ResizeRule nearest;
  nearest.coordinates = "asymmetric";
  nearest.nearest = "floor"; // src = x / 2 = 0, 0.5, 1, 1.5
  EXPECT_EQ(taps(nearest, 2, 4, 2.0),
            (std::vector<std::array<int, 3>>{{0, 0, 0}, {0, 0, 0}, {1, 1, 0}, {1, 1, 0}}));
  nearest.nearest = "round_prefer_floor"; // 0, 0.5 -> 0, 1, 1.5 -> 1
  EXPECT_EQ(taps(nearest, 2, 4, 2.0)[1][0], 0);
  EXPECT_EQ(taps(nearest, 2, 4, 2.0)[3][0], 1);
  nearest.nearest = "round_prefer_ceil"; // 0.5 -> 1, 1.5 -> 2, clamped to 1
  EXPECT_EQ(taps(nearest, 2, 4, 2.0)[1][0], 1);
  EXPECT_EQ(taps(nearest, 2, 4, 2.0)[3][0], 1);
}

// seg_head's dilated convolutions (make_models.py): dilation 2 stays a 3x3 kernel whose taps are
// 2 pixels apart (by_conv's dilation: no MACs on zeros); dilations (1, 2) become the 3x5 kernel
// of their span, zeros between the taps; the ASPP-style dilation 6 on a 4x4 map is cropped to
// its centre tap, a 1x1 convolution, by runPasses (the other taps read only padding). The float
// model of every form still matches the numpy reference (checked against torch).
TEST(Import, DilatedKernelsKeepTheirTapsAndTapsOnPaddingAreCropped) {
  Graph g = importOnnxFile(modelPath("seg_head"));
  runPasses(g);
  std::vector<Window> convs;
  std::vector<size_t> weights;
  for (const Layer& l : g.layers)
    if (l.kind == LayerKind::Conv) {
      convs.push_back(l.window);
      weights.push_back(l.weights.size());
    }
  ASSERT_GE(convs.size(), 5u);
  const Window &d2 = convs[1], &d12 = convs[2], &dw = convs[3], &aspp = convs[4];
  EXPECT_EQ(std::tuple(d2.kh, d2.kw, d2.dilH, d2.dilW, d2.padT), std::tuple(3, 3, 2, 2, 2));
  EXPECT_EQ(weights[1], size_t(9 * 8 * 16));
  EXPECT_EQ(std::tuple(d12.kh, d12.kw, d12.dilH, d12.dilW), std::tuple(3, 5, 1, 1));
  EXPECT_EQ(weights[2], size_t(15 * 16 * 16));
  EXPECT_EQ(std::tuple(dw.kh, dw.kw, dw.dilH, dw.strideH), std::tuple(3, 3, 2, 2));
  EXPECT_EQ(std::tuple(aspp.kh, aspp.kw, aspp.dilH, aspp.padT, aspp.padB, aspp.padL, aspp.padR),
            std::tuple(1, 1, 1, 0, 0, 0, 0));
  EXPECT_EQ(weights[4], size_t(16 * 16));
  const std::vector<float> want = toFloat(readNpy(modelPath("seg_head", ".output.npy")));
  EXPECT_LT(relError(runModelFloat(g, "seg_head"), want), 1e-5);
}

TEST(Import, ResizeMatricesBlendTwoTapsIn64ths) {
  // The matrices the array multiplies by (docs/compiler.md "Resize"), out x in, worked by hand.
  ResizeRule linear;
  linear.linear = true; // half_pixel 2 -> 4: taps {0, 1, 0}, {0, 1, 16}, {0, 1, 48}, {1, 1, 0}
  EXPECT_EQ(resizeMatrix(linear, 2, 4, 2.0), (std::vector<int8_t>{64, 0, 48, 16, 16, 48, 0, 64}));
  linear.coordinates = "align_corners"; // 3 -> 2: src = 0, 2
  EXPECT_EQ(resizeMatrix(linear, 3, 2, 2.0 / 3), (std::vector<int8_t>{64, 0, 0, 0, 0, 64}));
  ResizeRule nearest;
  nearest.coordinates = "asymmetric";
  nearest.nearest = "floor"; // 4 -> 3 at scale 3/4: src = 0, 4/3, 8/3 -> 0, 1, 2
  EXPECT_EQ(resizeMatrix(nearest, 4, 3, 0.75),
            (std::vector<int8_t>{64, 0, 0, 0, 0, 64, 0, 0, 0, 0, 64, 0}));
  // Every row of every form sums to 64 (a constant map stays constant), non-negative.
  for (const std::string coords :
       {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"})
    for (const auto& [in, out] : {std::pair{7, 17}, {28, 224}, {17, 5}, {1, 3}, {3, 1}}) {
      linear.coordinates = coords;
      const std::vector<int8_t> m = resizeMatrix(linear, in, out, double(out) / in);
      for (int o = 0; o < out; ++o) {
        int sum = 0;
        for (int i = 0; i < in; ++i) {
          EXPECT_GE(m[size_t(o * in + i)], 0);
          sum += m[size_t(o * in + i)];
        }
        EXPECT_EQ(sum, kResizeOne) << coords << " " << in << " -> " << out << " row " << o;
      }
    }
}

TEST(Quantize, AChannelShuffleIsAnExactCopyAndTablesFollowTheFunction) {
  Graph g = importOnnxFile(modelPath("zoo_ops"));
  runPasses(g);
  const Tensor& in = g.tensors[g.input];
  std::vector<float> x(static_cast<size_t>(in.shape.elems()));
  std::mt19937 rng(by::test::testSeed(3, "compiler_unit_test"));
  std::normal_distribution<float> n(0, 1);
  for (float& v : x)
    v = n(rng);
  quantize(g, calibrate(g, {x}, {}));
  int checked = 0;
  for (const Layer& l : g.layers) {
    const double sIn = g.tensors[l.inputs[0]].scale, sOut = g.tensors[l.output].scale;
    if (l.channelPermutation) {
      EXPECT_EQ(sIn, sOut);
      EXPECT_EQ(l.multiplier, 1.0f);
      for (int8_t w : l.qweights)
        EXPECT_TRUE(w == 0 || w == 1);
      ++checked;
    }
    if (l.kind == LayerKind::Pointwise) {
      ASSERT_EQ(l.table.size(), 256u);
      for (int q : {-128, -50, -1, 0, 1, 37, 127}) {
        const double v = applyPointwise(l.fn, q * sIn, l.alpha, l.beta) / sOut;
        EXPECT_EQ(l.table[size_t(q + 128)], int8_t(std::clamp(std::nearbyint(v), -128.0, 127.0)))
            << l.name << " at " << q;
      }
      ++checked;
    }
    if (l.kind == LayerKind::Mul) {
      EXPECT_FLOAT_EQ(l.multiplier, float(sIn * g.tensors[l.inputs[1]].scale / sOut));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1 + 7 + 2);
}

TEST(Import, FlattenOfAMapPermutesTheNextWeights) {
  // lenet flattens a 16x2x2 map: the Gemm's rows are permuted, the output stays exact
  // (covered by the numpy comparison); here the alias keeps the NHWC data.
  Graph g = importOnnxFile(modelPath("lenet"));
  bool found = false;
  for (const Tensor& t : g.tensors)
    if (t.chwFrom) {
      found = true;
      EXPECT_EQ(t.chwFrom->c, 16);
      EXPECT_EQ(t.chwFrom->h * t.chwFrom->w, 4);
      EXPECT_GE(t.aliasOf, 0);
    }
  EXPECT_TRUE(found);
}

TEST(Import, BatchOverride) {
  ImportOptions o;
  o.batch = 3;
  Graph g = importOnnxFile(modelPath("lenet"), o);
  EXPECT_EQ(g.tensors[g.input].shape.n, 3);
  EXPECT_EQ(g.tensors[g.output].shape.n, 3);
}

TEST(Quantize, AddInputsShareAScaleAndWeightsUseTheirRange) {
  Graph g = importOnnxFile(modelPath("resnet_block"));
  runPasses(g);
  const Tensor& in = g.tensors[g.input];
  std::vector<std::vector<float>> samples;
  std::mt19937 rng(by::test::testSeed(1, "compiler_unit_test"));
  std::normal_distribution<float> n(0, 1);
  for (int s = 0; s < 2; ++s) {
    std::vector<float> x(static_cast<size_t>(in.shape.elems()));
    for (float& v : x)
      v = n(rng);
    samples.push_back(x);
  }
  const Calibration c = calibrate(g, samples, {});
  quantize(g, c);
  for (const Layer& l : g.layers) {
    if (l.kind == LayerKind::Add) {
      EXPECT_EQ(g.tensors[l.inputs[0]].scale, g.tensors[l.inputs[1]].scale) << l.name;
      EXPECT_NEAR(l.multiplier, g.tensors[l.inputs[0]].scale / g.tensors[l.output].scale, 1e-6);
    }
    if (l.hasWeights()) {
      int8_t maxAbs = 0;
      for (int8_t w : l.qweights)
        maxAbs = std::max<int8_t>(maxAbs, int8_t(std::abs(int(w))));
      EXPECT_EQ(maxAbs, 127) << l.name << ": the largest weight maps to 127";
      EXPECT_EQ(l.qweights.size(), l.weights.size());
    }
    EXPECT_GT(g.tensors[l.output].scale, 0);
  }
}

TEST(Quantize, PreQuantizedModelsKeepTheirScalesAndAgreeWithTheirArithmetic) {
  // make_models.py computes the QDQ / QLinear models' outputs with numpy in their own
  // arithmetic (float products, rounding at every QuantizeLinear); the compiler's int8 graph
  // uses the model's scales, so its dequantized output is within a few output steps.
  for (const char* name : {"qdq_cnn", "qlinear_cnn"}) {
    SCOPED_TRACE(name);
    CompileOptions o;
    o.modelPath = modelPath(name);
    o.config = tiny();
    o.calibRandom = 1;
    const Compiled c = compileModel(o);
    const Graph& g = c.graph;
    EXPECT_NEAR(g.tensors[g.input].scale, 0.03, 1e-9);
    int fixed = 0;
    for (const TensorQuant& q : c.quant.tensors)
      fixed += q.fixed;
    EXPECT_GE(fixed, 4);
    bool i8 = false;
    const std::vector<float> x =
        readInputFile(modelPath(name, ".input.npy"), g.tensors[g.input], &i8);
    const Int8Values v = runInt8(g, quantizeInput(x, g.tensors[g.input].scale),
                                 chunkRules(c.program), intWidths(o.config));
    const std::vector<int8_t>& out = v[g.storageOf(g.output)];
    const std::vector<float> want = toFloat(readNpy(modelPath(name, ".output.npy")));
    const double s = g.tensors[g.output].scale;
    ASSERT_EQ(out.size(), want.size());
    for (size_t i = 0; i < out.size(); ++i)
      EXPECT_NEAR(out[i] * s, want[i], 3 * s + 1e-6) << "output " << i;
  }
}

TEST(Quantize, Relu6OutputSaturatesAtSix) {
  Graph g = importOnnxFile(modelPath("mbv2_block"));
  runPasses(g);
  std::vector<float> x(static_cast<size_t>(g.tensors[g.input].shape.elems()), 3.0f);
  quantize(g, calibrate(g, {x}, {}));
  int relu6 = 0;
  for (const Layer& l : g.layers)
    if (l.act.hasHi && l.act.hi == 6.0f) {
      ++relu6;
      // The clip at 6 is the int8 saturation (scale <= 6/127) or an explicit clamp.
      EXPECT_TRUE(g.tensors[l.output].scale <= 6.0 / 127 + 1e-12 || l.qmax < 127) << l.name;
      EXPECT_EQ(l.qmin, 0);
    }
  EXPECT_EQ(relu6, 4);
}

/// A one-layer float graph: Dense "fc", x[1, K] * w[K, J] + bias, with calibrated ranges of x
/// and y (their scales are range / 127).
struct FloatDense {
  Graph g;
  Calibration calib;
};
FloatDense floatDense(const std::vector<float>& w, const std::vector<float>& bias, double xRange,
                      double yRange) {
  FloatDense d;
  Graph& g = d.g;
  const int j = int(bias.size()), k = int(w.size()) / j;
  g.input = g.addTensor(Tensor{"x", Shape{1, 1, 1, k}, {1, k}, {}, -1, 0, 0, 0});
  g.output = g.addTensor(Tensor{"y", Shape{1, 1, 1, j}, {1, j}, {}, -1, 0, 0, 0});
  Layer l;
  l.kind = LayerKind::Dense;
  l.name = "fc";
  l.onnxOps = {"Gemm"};
  l.inputs = {g.input};
  l.output = g.output;
  l.weights = w;
  l.bias = bias;
  g.layers.push_back(l);
  d.calib.absMax = d.calib.observed = {xRange, yRange};
  d.calib.zeros = {0, 0};
  d.calib.histogram.assign(2, {});
  return d;
}

/// The worked example of the tests below: K = 64, J = 2, weights 0.5 but the first 127/128
/// (so s_w = 2^-7), s_in = 2^-20, s_out = 1.
FloatDense workedDense(const std::vector<float>& bias) {
  std::vector<float> w(128, 0.5f);
  w[0] = 127.0f / 128;
  return floatDense(w, bias, 127 * std::ldexp(1.0, -20), 127.0);
}

TEST(Quantize, BiasHeadroomLeavesRoomForEveryProduct) {
  // 2^31 - 1 - K * 128 * 127, and at least 2^30.
  EXPECT_EQ(biasHeadroom(0), 2147483647);
  EXPECT_EQ(biasHeadroom(64), 2146443263);
  EXPECT_EQ(biasHeadroom(66052), 1073742335);
  EXPECT_EQ(biasHeadroom(66053), 1073741824); // 2147483647 - 1073757568 < 2^30
  EXPECT_EQ(biasHeadroom(200000), 1073741824);
  // A 16-bit accumulator: 2^15 - 1 - K * 16256, at least 2^14; a 64-bit one keeps int32 biases.
  EXPECT_EQ(biasHeadroom(0, 16), 32767);
  EXPECT_EQ(biasHeadroom(1, 16), 16511);
  EXPECT_EQ(biasHeadroom(2, 16), 16384);
  EXPECT_EQ(biasHeadroom(64, 64), 2146443263);
}

// On a 16-bit accumulator an oversized bias widens the weight scale until it fits the
// accumulator's headroom (it was refused: "does not fit the config's 16-bit accumulator").
TEST(Quantize, OversizedBiasFitsA16BitAccumulator) {
  const Compiled c = compileForTest("oversized_bias", "testbenches/configs/acc16.yaml");
  bool widened = false;
  for (const std::string& n : c.quant.notes)
    widened = widened || n.find("int16 accumulator") != std::string::npos;
  EXPECT_TRUE(widened);
  for (const Layer& l : c.graph.layers)
    for (int32_t b : l.qbias)
      EXPECT_LE(std::abs(b), 16384) << l.name;
}

TEST(Quantize, AnOversizedBiasWidensTheWeightScaleInsteadOfClipping) {
  // K = 64, J = 2; s_in = 2^-20, s_out = 1, s_w = (127/128) / 127 = 2^-7: the accumulator's
  // scale is 2^-27 and a bias of 64 would be 2^33 steps, beyond the headroom 2146443263 (and
  // int32). Worked by hand (exact fractions): s_w' = 64 / (2^-20 * 2146443263) = 0.0312651...;
  // biases 64 -> 2146443263, -16 -> -536610815.75 -> -536610816; weights 0.5 -> 15.99 -> 16,
  // 127/128 -> 31.7 -> 32; multiplier 2^-20 s_w' = 2.9816768e-8.
  FloatDense d = workedDense({64.0f, -16.0f});
  const QuantResult r = quantize(d.g, d.calib);
  const Layer& l = d.g.layers[0];
  EXPECT_EQ(d.g.tensors[d.g.input].scale, std::ldexp(1.0, -20));
  EXPECT_NEAR(l.weightScale, 0.031265146932514094, 1e-15);
  EXPECT_EQ(l.qbias, (std::vector<int32_t>{2146443263, -536610816}));
  EXPECT_EQ(l.qweights[0], 32);
  for (size_t i = 1; i < l.qweights.size(); ++i)
    ASSERT_EQ(l.qweights[i], 16) << i;
  EXPECT_FLOAT_EQ(l.multiplier, 2.9816768e-8f);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("'fc'"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("widened from 0.00781 to 0.0313"), std::string::npos) << r.notes[0];
  // The int8 graph gives the float output, 64 + 0.0031 and -16 + 0.0031 for x = 100 * 2^-20
  // (clipping at int32 gave 16 and -16).
  const std::vector<int8_t> x(64, 100);
  const Int8Values v = runInt8(d.g, x, {}, IntWidths{32, 20});
  EXPECT_EQ(v[d.g.storageOf(d.g.output)], (std::vector<int8_t>{64, -16}));

  // Pre-quantized weights (64 and 127 times 2^-7) are re-quantized alike, and the note says so.
  FloatDense fixed = workedDense({64.0f, -16.0f});
  fixed.g.layers[0].fixedWeightScale = 1.0 / 128;
  const QuantResult rf = quantize(fixed.g, fixed.calib);
  EXPECT_EQ(fixed.g.layers[0].qbias, l.qbias);
  EXPECT_EQ(fixed.g.layers[0].qweights, l.qweights);
  ASSERT_EQ(rf.notes.size(), 1u);
  EXPECT_NE(rf.notes[0].find("the model's int8 weights re-quantized"), std::string::npos)
      << rf.notes[0];
}

TEST(Quantize, ABiasThatFitsKeepsTheWeightScale) {
  FloatDense d = workedDense({4.0f, -1.0f});
  const QuantResult r = quantize(d.g, d.calib);
  const Layer& l = d.g.layers[0];
  EXPECT_EQ(l.weightScale, 1.0 / 128);
  EXPECT_EQ(l.qbias, (std::vector<int32_t>{536870912, -134217728})); // 4 and -1 times 2^27
  EXPECT_EQ(l.qweights[0], 127);
  EXPECT_EQ(l.qweights[1], 64);
  EXPECT_TRUE(r.notes.empty());
}

TEST(Quantize, ABiasThatCannotBeRepresentedIsRejected) {
  const std::vector<float> w(4, 1.0f);
  auto rejects = [&](float bias, double yRange, const std::string& what) {
    FloatDense d = floatDense(w, {bias, 1.0f}, 127.0, yRange);
    try {
      quantize(d.g, d.calib);
      ADD_FAILURE() << "accepted a bias of " << bias;
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find("node 'fc' (Gemm)"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  rejects(std::numeric_limits<float>::infinity(), 127.0, "infinite or NaN");
  rejects(std::numeric_limits<float>::quiet_NaN(), 127.0, "infinite or NaN");
  // A bias of 3e38 at s_in = 1: s_w' = 3e38 / (2^31 - 1 - 2 * 16256), and the multiplier
  // s_w' / 1e-12 is beyond float.
  rejects(3e38f, 127e-12, "beyond the float range");
}

/// A one-layer graph: a 1 x K Dense layer with given int8 values, for hand-worked arithmetic.
Graph denseGraph(const std::vector<int8_t>& x, const std::vector<int8_t>& w, int32_t bias,
                 float multiplier) {
  Graph g;
  const int k = int(x.size());
  g.input = g.addTensor(Tensor{"x", Shape{1, 1, 1, k}, {1, k}, {}, -1, 1.0, 0, 0});
  g.output = g.addTensor(Tensor{"y", Shape{1, 1, 1, 1}, {1, 1}, {}, -1, 1.0, 0, 0});
  Layer l;
  l.kind = LayerKind::Dense;
  l.inputs = {g.input};
  l.output = g.output;
  l.qweights = w;
  l.qbias = {bias};
  l.multiplier = multiplier;
  g.layers.push_back(l);
  return g;
}

TEST(Int8Reference, ChunksWrapInWsAndSaturateInOs) {
  // 40 products of -128 * -128 = 655,360: over the 20-bit spatial range.
  const std::vector<int8_t> x(40, -128), w(40, -128);
  const IntWidths iw{32, 20};
  Graph g = denseGraph(x, w, 0, 1.0f / 65536.0f);
  // One chunk of 40 in WS wraps: 655360 - 2^20 = -393216 -> * 2^-16 = -6.
  auto run = [&](ChunkRule r) { return runInt8(g, x, {r}, iw)[g.storageOf(g.output)][0]; };
  EXPECT_EQ(run({40, false, false}), -6);
  // OS saturates at 2^19 - 1 = 524287 -> 8.0 (rounded) = 8.
  EXPECT_EQ(run({40, false, true}), 8);
  // Chunks of 8 never overflow: 655360 * 2^-16 = 10.
  EXPECT_EQ(run({8, false, false}), 10);
  EXPECT_EQ(run({8, false, true}), 10);
}

TEST(Int8Reference, RequantizationRoundsHalfToEvenAndSaturates) {
  const IntWidths iw{32, 20};
  auto one = [&](int32_t bias, float m) {
    Graph g = denseGraph({0}, {0}, bias, m);
    return int(runInt8(g, {0}, {}, iw)[g.storageOf(g.output)][0]);
  };
  EXPECT_EQ(one(5, 0.5f), 2);      // 2.5 -> 2
  EXPECT_EQ(one(7, 0.5f), 4);      // 3.5 -> 4
  EXPECT_EQ(one(-5, 0.5f), -2);    // -2.5 -> -2
  EXPECT_EQ(one(1000, 1.0f), 127); // saturates
  EXPECT_EQ(one(-1000, 1.0f), -128);
}

TEST(Int8Reference, SoftmaxSumsToAbout127AndKeepsOrder) {
  const std::vector<uint32_t> t = softmaxTable(0.05);
  std::mt19937 rng(by::test::testSeed(1, "compiler_unit_test"));
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int8_t> x(10), y(10);
    for (int8_t& v : x)
      v = int8_t(int(rng() % 256) - 128);
    softmaxRow(x.data(), y.data(), 10, t);
    int sum = 0;
    for (int i = 0; i < 10; ++i) {
      sum += y[i];
      for (int j = 0; j < 10; ++j) {
        if (x[i] > x[j]) {
          EXPECT_GE(y[i], y[j]);
        }
      }
    }
    EXPECT_NEAR(sum, 127, 6);
  }
}

TEST(Plan, LiveTensorsNeverOverlapAndWeightsAreAligned) {
  for (const char* cfgName : {"tiny", "td8"}) {
    const config::Config cfg = config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/" +
                                                      std::string(cfgName) + ".yaml");
    for (const std::string& name : kModels) {
      SCOPED_TRACE(name + " on " + std::string(cfgName));
      CompileOptions o;
      o.modelPath = modelPath(name);
      o.config = cfg;
      o.calibRandom = 1;
      const Compiled c = compileModel(o);
      const Graph& g = c.graph;
      const Program& p = c.program;
      // Lifetimes: [producer, last reader] per storage tensor.
      const int n = int(g.layers.size());
      std::vector<int> first(g.tensors.size(), -1), last(g.tensors.size(), -1);
      for (int li = 0; li < n; ++li) {
        first[g.storageOf(g.layers[li].output)] = li;
        for (int in : g.layers[li].inputs)
          last[g.storageOf(in)] = std::max(last[g.storageOf(in)], li);
      }
      for (size_t a = 0; a < g.tensors.size(); ++a)
        for (size_t b = a + 1; b < g.tensors.size(); ++b) {
          if (p.memory.offset[a] < 0 || p.memory.offset[b] < 0)
            continue;
          const int la = std::max(last[a], first[a]), lb = std::max(last[b], first[b]);
          if (la < first[b] || lb < first[a])
            continue; // not alive together
          const int64_t a0 = p.memory.offset[a], a1 = a0 + g.tensors[a].shape.elems();
          const int64_t b0 = p.memory.offset[b], b1 = b0 + g.tensors[b].shape.elems();
          EXPECT_TRUE(a1 <= b0 || b1 <= a0) << g.tensors[a].name << " / " << g.tensors[b].name;
        }
      EXPECT_LE(p.memory.arenaBytes, p.memory.naiveBytes);
      for (const LayerPlan& l : p.layers) {
        if (l.weights.present()) {
          EXPECT_EQ(l.weights.offset % 64, 0);
        }
        EXPECT_EQ(l.onCpu, !l.cpuReason.empty());
      }
    }
  }
}

// On loop configs the driver's planner picks the path and the tiles (which the program then
// passes), except for strided convolutions with a 1x1 kernel or output rows shorter than DIM:
// their im2col matrix and the LOOP_WS matmul over it (docs/compiler.md). resnet_block (10x10
// input): Conv_14 is 3x3/2 (5-pixel output rows), Conv_34 1x1/2, the others 3x3/1.
TEST(Plan, LoopConfigsRunStridedShortOrPointwiseConvsAsIm2colMatmuls) {
  struct Want {
    const char* config;
    std::set<std::string> im2col; // the layers that take the im2col matrix
  };
  for (const Want& want : {Want{"tiny", {"Conv_34"}},                  // DIM 4: 5 >= 4
                           Want{"default", {"Conv_14", "Conv_34"}}}) { // DIM 16
    SCOPED_TRACE(want.config);
    const Compiled c =
        compileForTest("resnet_block", std::string("configs/") + want.config + ".yaml");
    int convs = 0;
    for (const LayerPlan& l : c.program.layers) {
      if (l.kernel != Kernel::Conv && l.kernel != Kernel::Im2colConv)
        continue;
      const std::string& name = c.graph.layers[size_t(l.layer)].name;
      SCOPED_TRACE(name);
      ++convs;
      const bool im2col = want.im2col.count(name) > 0;
      ASSERT_TRUE(l.conv);
      EXPECT_EQ(l.kernel, im2col ? Kernel::Im2colConv : Kernel::Conv);
      // The 1x1 convolution over the im2col matrix is one LOOP_WS matmul; the others (all 3x3
      // here) the loop. Either way the driver planner's path and tiles are passed
      // (passPlannedTiles), so by_conv does not search on the host.
      EXPECT_EQ(l.conv->plan.path, im2col ? BY_CONV_MATMUL : BY_CONV_LOOP);
      EXPECT_EQ(l.conv->shape.path, l.conv->plan.path);
      EXPECT_GT(l.conv->shape.tile_rows, 0u);
      EXPECT_EQ(l.conv->shape.tile_rows, l.conv->plan.tile_rows);
      EXPECT_EQ(l.conv->shape.tile_och, l.conv->plan.tile_och);
      EXPECT_EQ(l.conv->shape.tile_k, l.conv->plan.tile_k);
    }
    EXPECT_EQ(convs, 6);
  }
}

// pool_concat's average poolings, the one that counts the padding, the one that does not (a
// 3x3 window, stride 1, padding 1: divisors 4, 6 and 9) and the ceil-mode one, all run on the
// array as depthwise convolutions by ones, the last two in regions of one divisor (each region a
// call with its scale, the regions of several column counts through the workspace). Their
// results against the int8 reference: compiler_run_pool_concat_*.
TEST(Plan, AveragePoolingOfEveryFormRunsOnTheArray) {
  const Compiled c = compileForTest("pool_concat", "configs/tiny.yaml");
  int pools = 0, regions = 0;
  for (const LayerPlan& p : c.program.layers) {
    const Layer& l = c.graph.layers[size_t(p.layer)];
    if (l.kind != LayerKind::AvgPool)
      continue;
    SCOPED_TRACE(l.name);
    ++pools;
    EXPECT_FALSE(p.onCpu) << p.cpuReason;
    EXPECT_EQ(p.kernel, Kernel::AvgPoolConv);
    if (l.poolScales.empty())
      continue;
    ++regions;
    ASSERT_TRUE(p.conv);
    EXPECT_GT(p.workspaceBytes, int64_t(p.conv->plan.workspace_bytes)); // the region buffer
  }
  EXPECT_EQ(pools, 3);
  EXPECT_EQ(regions, 2);
}

// seg_head's bilinear Resizes (4x4 -> 8x8 half_pixel, 8x8 -> 16x16 align_corners, both columns
// first; 16x16 -> 12x20 pytorch_half_pixel, rows first) run on the array as two products by the
// interpolation matrices, with one lane and with vector PEs (where the driver packs the map, B,
// in the workspace after the intermediate image); its nearest x2 upsampling is DMA copies.
// Bit-exactness on the RTL: compiler_run_seg_head_*.
TEST(Plan, ResizeRunsOnTheArrayAsTwoProductsByInterpolationMatrices) {
  for (const char* cfg : {"configs/tiny.yaml", "configs/lanes4.yaml"}) {
    SCOPED_TRACE(cfg);
    const Compiled c = compileForTest("seg_head", cfg);
    int products = 0, copies = 0, firstOrders = 0;
    for (const LayerPlan& p : c.program.layers) {
      const Layer& l = c.graph.layers[size_t(p.layer)];
      if (l.kind != LayerKind::Resize)
        continue;
      SCOPED_TRACE(l.name);
      EXPECT_FALSE(p.onCpu) << p.cpuReason;
      const Shape &is = c.graph.tensors[l.inputs[0]].shape, &os = c.graph.tensors[l.output].shape;
      if (p.kernel == Kernel::Copy) {
        ++copies;
        continue;
      }
      ++products;
      ASSERT_EQ(p.kernel, Kernel::Resize);
      EXPECT_EQ(p.weights.bytes, int64_t(os.h) * is.h + int64_t(os.w) * is.w);
      const bool colsFirst = resizeColumnsFirst(is, os);
      const int64_t mid = colsFirst ? int64_t(is.h) * os.w * is.c : int64_t(os.h) * is.w * is.c;
      firstOrders += colsFirst ? 1 : 0;
      EXPECT_GE(p.workspaceBytes, mid);
      if (c.program.config.array.lanes > 1) { // B packed by the driver
        EXPECT_GT(p.workspaceBytes, (mid + 63) / 64 * 64);
      }
    }
    EXPECT_EQ(products, 3);
    EXPECT_EQ(firstOrders, 2); // the two upsamplings columns first, the last one rows first
    EXPECT_EQ(copies, 1);
  }
}

// Vector PEs with the convolution loops (td8, td_l4): every layer of resnet_block runs on the
// accelerator, each convolution through LOOP_CONV_OS with TensorDash and lane-packed weights,
// the OS loop's exact sum (one chunk), the operand the schedule model gains most on scheduled
// (the dense classifier too, as a 1x1 convolution: these configs have no LOOP_WS); without the
// loops (lanes4) convolutions lower to im2col matmuls.
TEST(Plan, VectorPeConfigsRunConvolutionsThroughTheOsLoop) {
  for (const char* cfg : {"configs/td8.yaml", "testbenches/configs/td_l4.yaml"}) {
    SCOPED_TRACE(cfg);
    const Compiled c = compileForTest("resnet_block", cfg);
    int convs = 0;
    for (const LayerPlan& l : c.program.layers) {
      SCOPED_TRACE(c.graph.layers[size_t(l.layer)].name);
      EXPECT_FALSE(l.onCpu) << l.cpuReason;
      if (l.kernel != Kernel::Conv)
        continue;
      ++convs;
      ASSERT_TRUE(l.conv);
      // TensorDash skips zeros only in OS; an accumulation shorter than DIM reduction steps
      // runs WS (docs/driver.md, "Convolution paths").
      const by_conv_shape_t& s = l.conv->shape;
      const int lanes = c.program.config.array.lanes, dim = config::derive(c.program.config).dim;
      const size_t steps = s.kernel_rows * s.kernel_cols * ((s.in_ch + size_t(lanes) - 1) / lanes);
      EXPECT_TRUE(s.weights_packed);
      // The planner's path and tiles, passed to by_conv (Planner::passPlannedTiles).
      EXPECT_EQ(s.path, BY_CONV_LOOP);
      EXPECT_EQ(s.tile_rows, l.conv->plan.tile_rows);
      EXPECT_EQ(s.tile_och, l.conv->plan.tile_och);
      EXPECT_EQ(s.tile_k, l.conv->plan.tile_k);
      EXPECT_EQ(l.conv->plan.path, BY_CONV_LOOP);
      if (steps < size_t(dim)) {
        EXPECT_EQ(l.dataflow, "WS") << steps << " steps";
        EXPECT_EQ(l.tdMode, 2);
        EXPECT_EQ(l.chunk.chunk, dim * lanes); // a WS pass sums DIM x lanes channels of a tap
        continue;
      }
      EXPECT_EQ(l.dataflow, "OS") << steps << " steps";
      // The side the schedule model expects to gain most on, or off below 2%; the model sees
      // nothing to skip without zeros and skips much of a post-ReLU input.
      const double best = std::max(l.tdSpeedupA, l.tdSpeedupB);
      EXPECT_EQ(l.tdMode, best < 1.02 ? 2 : l.tdSpeedupB > l.tdSpeedupA ? 1 : 0) << l.tdReason;
      EXPECT_FALSE(l.tdReason.empty());
      if (l.zerosA < 0.01) {
        EXPECT_LT(l.tdSpeedupA, 1.02);
      }
      if (l.zerosA > 0.3) {
        EXPECT_GT(l.tdSpeedupA, 1.1);
      }
      EXPECT_EQ(l.chunk.chunk, 0);
    }
    EXPECT_EQ(convs, 7); // six convolutions and the classifier, a 1x1 convolution without LOOP_WS
  }
  const Compiled c = compileForTest("resnet_block", "configs/lanes4.yaml");
  int im2col = 0;
  for (const LayerPlan& l : c.program.layers)
    im2col += l.kernel == Kernel::Im2colMatmul;
  EXPECT_EQ(im2col, 6);
}

// On vector PEs with the conv loops, a 1x1 stride-1 convolution over rows of W % DIM pixels is
// passed to by_conv as fewer, longer rows (k rows each, k dividing H) where that takes fewer
// blocks of DIM pixels and the loops still keep two or more output-channel blocks a tile; the
// bytes are the same NHWC tensor.
TEST(Plan, PointwiseConvolutionsRegroupTheirRows) {
  const Compiled c = compileForTest("zoo_ops", "configs/td8.yaml");
  const int64_t dim = config::derive(c.program.config).dim;
  auto blocks = [&](int64_t rows, int64_t cols) { return rows * ((cols + dim - 1) / dim); };
  int regrouped = 0;
  for (const LayerPlan& p : c.program.layers) {
    if (p.rowPixels == 0)
      continue;
    const Layer& l = c.graph.layers[size_t(p.layer)];
    SCOPED_TRACE(l.name);
    ++regrouped;
    const Shape& in = c.graph.tensors[size_t(l.inputs[0])].shape;
    ASSERT_TRUE(p.conv);
    const by_conv_shape_t& s = p.conv->shape;
    EXPECT_EQ(int64_t(s.in_cols), p.rowPixels);
    EXPECT_EQ(int64_t(s.in_rows * s.in_cols), int64_t(in.h) * in.w);
    EXPECT_EQ(p.rowPixels % in.w, 0);
    EXPECT_EQ(s.kernel_rows * s.kernel_cols * s.stride, 1u);
    EXPECT_LT(blocks(int64_t(s.in_rows), int64_t(s.in_cols)), blocks(in.h, in.w));
    EXPECT_EQ(p.conv->plan.path, BY_CONV_LOOP);
    EXPECT_GE(p.conv->plan.tile_och, std::min<size_t>(2, (s.out_ch + size_t(dim) - 1) / dim));
  }
  EXPECT_GE(regrouped, 1);
}

// Depthwise passes over diagonal weight blocks schedule B (the blocks' zeros) where the
// hardware can; with sparsity.tensordash.schedule_b false they schedule A, the input's zeros,
// where the schedule model expects a gain, else TensorDash is off: never B (UNSUPPORTED there).
TEST(Plan, DepthwiseSchedulesAWithoutBScheduling) {
  for (bool scheduleB : {true, false}) {
    SCOPED_TRACE(scheduleB ? "schedule_b" : "no schedule_b");
    CompileOptions o;
    o.modelPath = modelPath("mbv2_block");
    o.config = config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/td8.yaml");
    o.config.tensordash.scheduleB = scheduleB;
    o.calibRandom = 1;
    const Compiled c = compileModel(o);
    int depthwise = 0;
    for (const LayerPlan& l : c.program.layers) {
      const Layer& layer = c.graph.layers[size_t(l.layer)];
      if (!layer.depthwise || l.onCpu || l.dataflow != "OS")
        continue;
      SCOPED_TRACE(layer.name);
      ++depthwise;
      if (scheduleB) {
        EXPECT_EQ(l.tdMode, 1) << l.tdReason;
        continue;
      }
      EXPECT_EQ(l.tdMode, l.tdSpeedupA < 1.02 ? 2 : 0) << l.tdReason;
      EXPECT_NE(l.tdReason.find("B scheduling is not built"), std::string::npos) << l.tdReason;
      if (l.zerosA > 0.3) {
        EXPECT_GT(l.tdSpeedupA, 1.1) << l.zerosA;
      }
    }
    EXPECT_GE(depthwise, 1);
  }
}

// One image's global average pool on the one-lane WS array with LOOP_WS is the product
// ones[1 x pixels] x input[pixels x C] (its mvout scale 1 / pixels, as by_global_average's);
// elsewhere by_global_average. resnet_block pools a 5x5 map of 32 channels.
TEST(Plan, GlobalAveragePoolingOfOneImageIsAProductByOnes) {
  for (const char* cfg : {"configs/default.yaml", "configs/td8.yaml"}) {
    SCOPED_TRACE(cfg);
    const Compiled c = compileForTest("resnet_block", cfg);
    int pools = 0;
    for (const LayerPlan& p : c.program.layers) {
      const Layer& l = c.graph.layers[size_t(p.layer)];
      if (l.kind != LayerKind::GlobalAvgPool)
        continue;
      ++pools;
      const Shape& in = c.graph.tensors[size_t(l.inputs[0])].shape;
      if (c.program.config.array.lanes != 1) { // vector PEs: B would need lane packing
        EXPECT_EQ(p.kernel, Kernel::GlobalAvg);
        continue;
      }
      ASSERT_EQ(p.kernel, Kernel::Matmul);
      ASSERT_TRUE(p.matmul && p.matmul->onesA);
      EXPECT_EQ(p.matmul->shape.I, 1u);
      EXPECT_EQ(p.matmul->shape.J, size_t(in.c));
      EXPECT_EQ(p.matmul->shape.K, size_t(in.h * in.w));
      EXPECT_TRUE(p.matmul->plan.loop);
      ASSERT_EQ(p.weights.bytes, int64_t(in.h * in.w));
      const auto* ones = reinterpret_cast<const int8_t*>(c.program.blob.data()) + p.weights.offset;
      for (int64_t i = 0; i < p.weights.bytes; ++i)
        EXPECT_EQ(ones[i], 1) << i;
    }
    EXPECT_EQ(pools, 1);
  }
}

// One image's dense layer on the one-lane WS loops runs as its transpose: the weights stored
// J x K (as ONNX keeps them) stream as A, DIM of their rows a compute, instead of every DIM x DIM
// block of them loaded into the array for one compute beat. Vector PEs keep the lane-packed
// K x J weights.
TEST(Plan, OneImageDenseLayersRunAsTheirTranspose) {
  for (const char* cfg : {"configs/default.yaml", "configs/td8.yaml"}) {
    SCOPED_TRACE(cfg);
    const Compiled c = compileForTest("resnet_block", cfg);
    const bool oneLane = c.program.config.array.lanes == 1;
    int dense = 0;
    for (const LayerPlan& p : c.program.layers) {
      const Layer& l = c.graph.layers[size_t(p.layer)];
      if (l.kind != LayerKind::Dense || p.kernel != Kernel::Matmul)
        continue;
      ++dense;
      ASSERT_TRUE(p.matmul);
      const by_matmul_shape_t& s = p.matmul->shape;
      EXPECT_EQ(s.I, 1u);
      EXPECT_EQ(s.b_transposed, oneLane ? 1 : 0);
      EXPECT_EQ(p.matmul->plan.transposed, oneLane ? 1 : 0);
      if (!oneLane)
        continue;
      // The plan's tiles are the transpose's: C^T is J x 1.
      EXPECT_EQ(p.matmul->plan.tile_j, 1u);
      ASSERT_EQ(p.weights.bytes, int64_t(s.J * s.K));
      const auto* w = reinterpret_cast<const int8_t*>(c.program.blob.data()) + p.weights.offset;
      for (size_t j = 0; j < s.J; ++j)
        for (size_t k = 0; k < s.K; ++k)
          ASSERT_EQ(w[j * s.K + k], l.qweights[k * s.J + j]) << j << "," << k;
    }
    EXPECT_GE(dense, oneLane ? 1 : 0);
    // plan.json says so (its tiles are the transpose's).
    const nlohmann::json plan = planJson(c, CompileOptions{});
    int listed = 0;
    for (const nlohmann::json& l : plan["layers"])
      if (l["kind"] == "dense" && l["kernel"] == "by_matmul") {
        ++listed;
        EXPECT_EQ(l["planner"]["transposed"], oneLane) << l["name"];
      }
    EXPECT_EQ(listed, dense);
  }
}

// A thin input (fewer channels than DIM, e.g. an RGB stem) runs as the loop with the kernel
// columns folded into the channels wherever that takes fewer K blocks than tap by tap, also
// over several blocks on one lane (resnet_block's 3 x 8 = 24 channels on the default's 16-wide
// array), instead of an im2col matrix written to DRAM and read back.
TEST(Plan, ThinInputsFoldOnTheLoops) {
  const Compiled c = compileForTest("resnet_block", "configs/default.yaml");
  const LayerPlan& p = c.program.layers.front();
  EXPECT_EQ(p.kernel, Kernel::Conv);
  EXPECT_FALSE(p.onCpu) << p.cpuReason;
  ASSERT_TRUE(p.conv);
  EXPECT_EQ(p.conv->plan.path, BY_CONV_LOOP);
  EXPECT_TRUE(p.conv->plan.folded);
  // by_conv's workspace: the column-padded input copy the folded loop reads.
  EXPECT_EQ(p.workspaceBytes, int64_t(p.conv->plan.workspace_bytes));
  EXPECT_GT(p.workspaceBytes, 0);
  // The rule: ResNet's stem (7 x 7 / 2 over 3 channels: 2 blocks of 16 instead of 7) folds on
  // the default (td8: one block of 8 x 4); 3 x 3 over 16 channels saves no block.
  by_conv_shape_t s{};
  s.batch = 1, s.in_rows = s.in_cols = 224, s.in_ch = 3, s.out_ch = 64;
  s.kernel_rows = s.kernel_cols = 7, s.stride = s.stride_cols = 2;
  s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 3;
  const auto hwOf = [](const char* cfg) {
    return plannerHw(config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/" + cfg));
  };
  const by_hw_t def = hwOf("configs/default.yaml"), td8 = hwOf("configs/td8.yaml");
  EXPECT_TRUE(by_plan_conv_folds(&def, &s));
  EXPECT_TRUE(by_plan_conv_folds(&td8, &s));
  s.in_ch = 16, s.kernel_rows = s.kernel_cols = 3, s.pad_top = s.pad_left = 1;
  s.pad_bottom = s.pad_right = 1, s.in_rows = s.in_cols = 56;
  EXPECT_FALSE(by_plan_conv_folds(&def, &s));
  s.in_ch = 12; // 36 channels: 3 blocks of 16 instead of 3 on the default, 2 of 32 on td8
  EXPECT_FALSE(by_plan_conv_folds(&def, &s));
  EXPECT_TRUE(by_plan_conv_folds(&td8, &s));
  s.in_ch = 6; // 18 channels: 2 blocks instead of 3 on the default, one on td8
  EXPECT_TRUE(by_plan_conv_folds(&def, &s));
  EXPECT_TRUE(by_plan_conv_folds(&td8, &s));
}

// The loops' depthwise mode (docs/isa.md "Depthwise mode"): where the config's loop has it (one
// lane: both loops; vector PEs: the OS loop of TensorDash configs), mbv2_block's depthwise
// convolutions run as loops in the mode, in tiles of DIM-channel blocks (the planner's, passed to
// by_conv), over diagonal stripes the program holds: taps x ceil(DIM / lanes) packed rows of the
// layer's channels (weights_packed; no workspace).
// The WS loop of vector PEs has no mode: the planner keeps its passes over KB x KB diagonal
// blocks. Bit-exactness: compiler_run_mbv2_block_*_func, bm_loop_conv_*.
TEST(Plan, DepthwiseConvolutionsTakeTheLoopsDepthwiseMode) {
  for (const char* cfg :
       {"configs/tiny.yaml", "configs/td8.yaml", "testbenches/configs/td_l4.yaml"}) {
    SCOPED_TRACE(cfg);
    const Compiled c = compileForTest("mbv2_block", cfg);
    const config::Derived d = config::derive(c.program.config);
    const int64_t lanes = c.program.config.array.lanes, bandRows = (d.dim + lanes - 1) / lanes;
    int depthwise = 0;
    for (const LayerPlan& p : c.program.layers) {
      const Layer& l = c.graph.layers[size_t(p.layer)];
      if (!l.depthwise || p.kernel != Kernel::Conv)
        continue;
      SCOPED_TRACE(l.name);
      ++depthwise;
      EXPECT_FALSE(p.onCpu) << p.cpuReason;
      ASSERT_TRUE(p.conv);
      const by_conv_shape_t& s = p.conv->shape;
      const by_conv_plan_t& plan = p.conv->plan;
      EXPECT_EQ(plan.path, BY_CONV_LOOP);
      EXPECT_TRUE(plan.depthwise_mode);
      EXPECT_GE(plan.tile_och, 1u);
      // The planner's tiles, passed to by_conv (which then checks rather than searches them).
      EXPECT_EQ(s.tile_och, plan.tile_och);
      EXPECT_EQ(s.tile_rows, plan.tile_rows);
      EXPECT_EQ(plan.tile_k, 1u);
      // The weights in the program as the mode's diagonal stripes (weights_packed), so by_conv
      // needs no workspace: channel c's tap t at packed row t x bandRows + (c % DIM) / lanes,
      // element c x lanes + (c % DIM) % lanes, zeros elsewhere.
      const int64_t taps = int64_t(s.kernel_rows * s.kernel_cols), ch = int64_t(s.in_ch);
      const int64_t row = ch * lanes;
      EXPECT_EQ(s.weights_packed, 1);
      EXPECT_EQ(p.workspaceBytes, 0);
      ASSERT_EQ(p.weights.bytes, taps * bandRows * row * d.inputBytes);
      const auto* stripes =
          reinterpret_cast<const int8_t*>(c.program.blob.data()) + p.weights.offset;
      int64_t nonzeroElsewhere = 0;
      std::vector<bool> placed(size_t(p.weights.bytes), false);
      for (int64_t k = 0; k < ch; ++k)
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t i = k % d.dim,
                        at = (t * bandRows + i / lanes) * row + k * lanes + i % lanes;
          EXPECT_EQ(stripes[at], l.qweights[size_t(k * taps + t)])
              << "channel " << k << " tap " << t;
          placed[size_t(at)] = true;
        }
      for (int64_t e = 0; e < p.weights.bytes; ++e)
        nonzeroElsewhere += !placed[size_t(e)] && stripes[e] != 0;
      EXPECT_EQ(nonzeroElsewhere, 0);
      if (lanes > 1) { // TensorDash's B: a block's DIM x DIM diagonal
        EXPECT_DOUBLE_EQ(p.zerosB, 1.0 - 1.0 / double(d.dim));
      }
    }
    EXPECT_EQ(depthwise, 2);
  }
  // td8 (8x8 PEs of 4 lanes, TensorDash): the mode on the OS loop, not on the WS one.
  const by_hw_t hw =
      plannerHw(config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/td8.yaml"));
  EXPECT_TRUE(hw.loop_conv_os_depthwise);
  EXPECT_FALSE(hw.loop_conv_ws_depthwise);
  by_conv_shape_t s{};
  s.batch = 1, s.in_rows = s.in_cols = 14, s.in_ch = s.out_ch = 96;
  s.kernel_rows = s.kernel_cols = 3, s.stride = s.stride_cols = 1;
  s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 1;
  s.depthwise = 1, s.bias = 1, s.activation = hw.act_none;
  for (int df : {hw.dataflow_os, hw.dataflow_ws}) {
    s.dataflow = df;
    by_conv_plan_t plan;
    ASSERT_EQ(by_plan_conv(&hw, &s, &plan), BY_OK);
    EXPECT_EQ(plan.path, BY_CONV_LOOP);
    const bool mode = df == hw.dataflow_os;
    EXPECT_EQ(plan.depthwise_mode, mode);
    const size_t kb = hw.dim * hw.lanes; // passes: a KB x KB block per KB channels and tap
    EXPECT_EQ(plan.workspace_bytes, mode ? 9 * (hw.dim / hw.lanes) * 96 * hw.lanes
                                         : 96 / kb * 9 * hw.dim * kb * hw.lanes);
    if (!mode) {
      EXPECT_EQ(plan.tile_och, hw.lanes); // a pass's blocks
    }
  }
}

TEST(Npy, RoundTripAndRejections) {
  const fs::path dir = fs::temp_directory_path() / ("by_npy_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string f = (dir / "a.npy").string();
  writeNpyFloat(f, {2, 3}, {1, 2, 3, 4, 5, 6.5f});
  NpyArray a = readNpy(f);
  EXPECT_EQ(a.dtype, "f4");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.values.back(), 6.5);
  writeNpyInt8(f, {4}, {-1, 2, -3, 4});
  a = readNpy(f);
  EXPECT_EQ(a.dtype, "i1");
  EXPECT_EQ(a.values[2], -3);
  writeFileAtomic(f, "not numpy");
  EXPECT_THROW(readNpy(f), CompileError);
  writeFileAtomic(f, std::string("\x93NUMPY\x01\x00\x10\x00", 10) + "{'descr': '<f4'}");
  EXPECT_THROW(readNpy(f), CompileError);
  fs::remove_all(dir);
}

TEST(Input, WrongShapeOrTypeIsRejected) {
  Graph g = importOnnxFile(modelPath("mlp"));
  const fs::path dir = fs::temp_directory_path() / ("by_in_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string f = (dir / "x.npy").string();
  bool i8 = false;
  writeNpyFloat(f, {1, 63}, std::vector<float>(63, 0.0f));
  EXPECT_THROW(readInputFile(f, g.tensors[g.input], &i8), CompileError);
  writeNpyFloat(f, {1, 64}, std::vector<float>(64, NAN));
  EXPECT_THROW(readInputFile(f, g.tensors[g.input], &i8), CompileError);
  writeNpyInt8(f, {1, 64}, std::vector<int8_t>(64, 3));
  EXPECT_EQ(readInputFile(f, g.tensors[g.input], &i8)[5], 3.0f);
  EXPECT_TRUE(i8);
  fs::remove_all(dir);
}

} // namespace
} // namespace by::compiler
