// The whole compiler: ONNX model + config -> quantized graph, plan and bare-metal program
// (docs/compiler.md). `brickyard compile` writes the files; `brickyard run` also runs them.
#pragma once

#include "compiler/graph.h"
#include "compiler/plan.h"
#include "compiler/quantize.h"
#include "compiler/toolchain.h"
#include "config/config.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::compiler {

struct CompileOptions {
  std::string modelPath;
  config::Config config;
  int batch = 0; // override of the input's first dimension
  Hal hal = Hal::Rocc;
  CalibOptions calib;
  std::vector<std::string> calibFiles; // .npy samples; empty: random ones
  int calibRandom = 4;                 // random samples when no files are given
  uint64_t seed = 1;                   // of the random samples
  PlanOptions plan;
  std::string cacheDir;
  std::function<void(const std::string&)> progress; // one line per step (may be empty)
};

struct Compiled {
  Graph graph; // quantized
  Program program;
  QuantResult quant;
  Calibration calib;
  std::vector<std::string> passLog;
  std::vector<double> sqnr; // per tensor (storage id), on the first calibration sample
  std::string modelHash, configHash;
};

/// Import, passes, calibration, quantization, lowering. Throws CompileError for bad input.
Compiled compileModel(const CompileOptions& options);

/// The report files' contents.
nlohmann::json planJson(const Compiled& c, const CompileOptions& options);
nlohmann::json quantJson(const Compiled& c, const CompileOptions& options);

/// Writes model.c, weights.bin, weights.S, plan.json, quant.json and model.elf into outDir:
/// everything is built in a staging directory first and moved in at the end, so a failure
/// leaves outDir as it was. Throws CompileError / ToolchainError.
void writeProgram(const Compiled& c, const CompileOptions& options,
                  const std::filesystem::path& outDir);

/// The program of `c` in the program cache (<cache>/programs/<config>-<key>, support/cache.h):
/// written there by writeProgram on first use, keyed by everything that goes into it (the
/// emitted C, the weights and the driver build). Returns the entry, which holds model.elf.
std::filesystem::path cachedProgram(const Compiled& c, const CompileOptions& options);

/// An input tensor file (.npy of the model input's ONNX shape, float or int8; other files:
/// raw little-endian float32 of that size) as float values in NHWC, or int8 values if the
/// file holds int8 (then `isInt8`). Throws CompileError naming the file.
std::vector<float> readInputFile(const std::string& path, const Tensor& input, bool* isInt8,
                                 int samples = 1);

/// Quantizes an NHWC float input with the input tensor's scale (round half to even,
/// saturating): the int8 values the program reads.
std::vector<int8_t> quantizeInput(const std::vector<float>& x, double scale);

/// The compiler's identity for file headers ("brickyard X.Y.Z").
std::string toolVersion();
/// The version and a hash of this executable's bytes (the compiler, the embedded driver and the
/// simulators are in it): what cached results of a run key on, so that a rebuilt tool reruns
/// what it might compute differently. The version alone where the executable is unreadable.
std::string toolBuildId();

} // namespace by::compiler
