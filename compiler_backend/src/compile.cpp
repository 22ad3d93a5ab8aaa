#include "compiler/compile.h"

#include "boveda_weights.h"
#include "brickyard_version.h"
#include "compiler/emit_c.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/interpret.h"
#include "compiler/npy.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "config/schema.h"
#include "hw_facts.h"
#include "support/hash.h"

#include <cmath>
#include <cstring>
#include <random>
#include <unistd.h>

namespace by::compiler {
namespace fs = std::filesystem;

std::string toolVersion() {
  return std::string("brickyard ") + BRICKYARD_VERSION;
}

std::string toolBuildId() {
  static const std::string id = [] {
    try {
      return toolVersion() + " " + support::hashHex(readFile("/proc/self/exe"));
    } catch (const CompileError&) {
      return toolVersion();
    }
  }();
  return id;
}

namespace {

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i)
    s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

void say(const CompileOptions& o, const std::string& line) {
  if (o.progress)
    o.progress(line);
}

/// Calibration inputs of the model's batch: the items (one batch element each) of the
/// --calib files, in order, filling each batch and wrapping around to complete the last one;
/// or seeded random batches.
std::vector<std::vector<float>> calibrationInputs(const CompileOptions& o, const Tensor& in) {
  std::vector<std::vector<float>> samples;
  const int64_t n = in.shape.elems(), batch = in.shape.n, item = n / batch;
  std::vector<float> items; // NHWC, one item after the other
  for (const std::string& f : o.calibFiles) {
    // A file holds one or more items stacked along the batch axis.
    Tensor one = in;
    one.shape.n = 1;
    one.onnxShape[0] = 1;
    int64_t count = 1;
    if (f.size() > 4 && f.substr(f.size() - 4) == ".npy") {
      const NpyArray probe = readNpy(f);
      if (probe.numel() % item != 0 || probe.shape.empty())
        throw CompileError(f + ": " + std::to_string(probe.numel()) +
                           " values are not a whole number of inputs of " + std::to_string(item) +
                           " (the input without its batch)");
      count = probe.numel() / item;
    }
    bool isInt8 = false;
    const std::vector<float> all = readInputFile(f, one, &isInt8, int(count));
    if (isInt8)
      throw CompileError(f + ": calibration samples must be float (they are the float model's "
                             "inputs)");
    items.insert(items.end(), all.begin(), all.end());
  }
  const int64_t nItems = int64_t(items.size()) / std::max<int64_t>(item, 1);
  for (int64_t first = 0; first < nItems; first += batch) {
    std::vector<float> x;
    x.reserve(size_t(n));
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t k = (first + b) % nItems;
      x.insert(x.end(), items.begin() + k * item, items.begin() + (k + 1) * item);
    }
    samples.push_back(std::move(x));
  }
  if (samples.empty()) {
    // Random samples: standard normal (the range of normalised image inputs), seeded.
    std::mt19937_64 rng(o.seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (int s = 0; s < std::max(o.calibRandom, 1); ++s) {
      std::vector<float> x(static_cast<size_t>(n));
      for (float& v : x)
        v = normal(rng);
      samples.push_back(std::move(x));
    }
  }
  return samples;
}

/// Boveda configs: how small each map would be stored compressed between layers
/// (Tensor::storedFraction), measured on the first calibration sample's int8 values (the
/// compiler keeps tensors that barely compress raw).
void measureStoredFractions(Graph& g, const std::vector<float>& sample,
                            const config::Config& config) {
  if (!config.boveda.enabled)
    return;
  const HwFacts hw = hwFacts(config);
  const int64_t group = int64_t(hw.maxBlockLen) * hw.kb;
  const Int8Values q =
      runInt8(g, quantizeInput(sample, g.tensors[g.input].scale), {}, intWidths(config));
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    const Shape& s = g.tensors[t].shape;
    if (g.storageOf(int(t)) != int(t) || q[t].empty() || s.h * s.w == 1 || group <= 0)
      continue;
    g.tensors[t].storedFraction =
        double(activationStoredBytes(q[t], s.n, s.h, s.w, s.c, group, config)) / double(s.elems());
  }
}

} // namespace

Compiled compileModel(const CompileOptions& o) {
  Compiled c;
  if (o.config.types.inputWidth != 8)
    throw CompileError("config '" + o.config.name + "' has " +
                       std::to_string(o.config.types.inputWidth) +
                       "-bit inputs; the compiler quantizes to int8 (types.input_width: 8)");
  const std::string bytes = readFile(o.modelPath);
  c.modelHash = modelContentHash(bytes, o.modelPath);
  ImportOptions io;
  io.batch = o.batch;
  say(o, "importing " + o.modelPath);
  c.graph = importOnnxBytes(bytes, o.modelPath, io);
  PassOptions po;
  po.groupPieceChannels = hwFacts(o.config).dim;
  c.passLog = runPasses(c.graph, po);
  checkFitsDram(c.graph, o.config);
  const auto samples = calibrationInputs(o, c.graph.tensors[c.graph.input]);
  say(o, "calibrating on " + std::to_string(samples.size()) +
             (o.calibFiles.empty() ? " random samples (seed " + std::to_string(o.seed) + ")"
                                   : " samples"));
  c.calib = calibrate(c.graph, samples, o.calib);
  c.quant = quantize(c.graph, c.calib, o.config.types.accWidth);
  measureStoredFractions(c.graph, samples.front(), o.config);
  say(o,
      "planning " + std::to_string(c.graph.layers.size()) + " layers for '" + o.config.name + "'");
  c.program = planProgram(c.graph, o.config, o.plan);
  c.configHash = config::configHash(o.config);
  // SQNR of every tensor on the first calibration sample: the int8 graph (as the hardware
  // computes it) against the float one.
  const FloatValues f = runFloat(c.graph, samples.front());
  const Int8Values q =
      runInt8(c.graph, quantizeInput(samples.front(), c.graph.tensors[c.graph.input].scale),
              chunkRules(c.program), intWidths(o.config));
  c.sqnr.assign(c.graph.tensors.size(), 0);
  for (size_t t = 0; t < c.graph.tensors.size(); ++t)
    if (!f[t].empty() && !q[t].empty())
      c.sqnr[t] = sqnrDb(f[t], q[t], c.graph.tensors[t].scale);
  return c;
}

std::vector<int8_t> quantizeInput(const std::vector<float>& x, double scale) {
  std::vector<int8_t> q(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    q[i] = int8_t(std::clamp<double>(std::nearbyint(double(x[i]) / scale), -128, 127));
  return q;
}

std::vector<float> readInputFile(const std::string& path, const Tensor& in, bool* isInt8,
                                 int samples) {
  const int64_t n = in.shape.elems() * samples;
  std::vector<float> onnx;
  *isInt8 = false;
  if (path.size() > 4 && path.substr(path.size() - 4) == ".npy") {
    const NpyArray a = readNpy(path);
    if (a.dtype != "f4" && a.dtype != "f8" && a.dtype != "i1")
      throw CompileError(path + ": dtype " + a.dtype +
                         " is not an input type (float32, float64, or int8 already quantized)");
    std::vector<int64_t> want = in.onnxShape;
    want[0] *= samples;
    if (a.shape != want)
      throw CompileError(path + ": shape " + dimsText(a.shape) +
                         " does not match the model input '" + in.name + "' " + dimsText(want));
    *isInt8 = a.dtype == "i1";
    onnx.assign(a.values.begin(), a.values.end());
  } else {
    const std::string raw = readFile(path);
    if (int64_t(raw.size()) != n * 4)
      throw CompileError(path + ": " + std::to_string(raw.size()) + " bytes; a raw input of '" +
                         in.name + "' " + dimsText(in.onnxShape) + " is " + std::to_string(n * 4) +
                         " bytes of float32 (or give a .npy)");
    onnx.resize(size_t(n));
    std::memcpy(onnx.data(), raw.data(), raw.size());
  }
  for (float v : onnx)
    if (!std::isfinite(v))
      throw CompileError(path + ": the input holds a NaN or infinity");
  // Sample by sample into NHWC.
  std::vector<float> out;
  const int64_t per = in.shape.elems();
  for (int s = 0; s < samples; ++s) {
    const std::vector<float> one(onnx.begin() + s * per, onnx.begin() + (s + 1) * per);
    const std::vector<float> nhwc = onnxToNhwc(in, one);
    out.insert(out.end(), nhwc.begin(), nhwc.end());
  }
  return out;
}

} // namespace by::compiler
