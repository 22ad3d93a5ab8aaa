#include "eval_inputs.h"

#include "compiler/compile.h"
#include "compiler/files.h"
#include "compiler/npy.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "compiler/plan.h"
#include "config/loader.h"
#include "config/names.h"
#include "config/schema.h"
#include "emit/generate.h"
#include "support/cache.h"
#include "support/errors.h"
#include "support/hash.h"
#include "support/install.h"

#include <cstdio>
#include <random>

namespace by::eval {
namespace {

namespace fs = std::filesystem;

void loadConfigs(const EvalRequest& r, EvalInputs& in) {
  for (const std::string& item : r.configs) {
    const std::string path = config::resolveConfigArg(item);
    in.configs.push_back(config::loadConfigFile(path)); // ConfigError: FILE:LINE:COL, exit 2
    const config::Config& c = in.configs.back();
    for (size_t i = 0; i + 1 < in.configs.size(); ++i)
      if (in.configs[i].name == c.name)
        throw support::InputError("--configs: '" + c.name + "' is listed twice");
    if (c.types.inputWidth != 8)
      throw support::InputError("config '" + c.name + "' has " +
                                std::to_string(c.types.inputWidth) +
                                "-bit inputs; the compiler quantizes to int8");
    in.configHashes.push_back(config::configHash(c));
    // What the hardware is, beyond the config: the generated RTL and headers (a generator
    // change invalidates the cached runs and areas of every config it touches).
    std::string generated;
    for (const emit::OutputFile& f : emit::renderOutputs(c))
      generated += f.path + "\n" + f.text;
    in.hardware.push_back(support::hashHex(generated));
    in.sources.push_back(fs::absolute(path).string());
  }
}

/// A random normal(0,1) input of the model's shape, kept in the cache under its model and seed.
void makeRandomInput(const compiler::Tensor& inT, uint64_t seed, EvalInputs& in) {
  const std::string name = "random-" + in.modelHash + "-seed" + std::to_string(seed) + ".npy";
  const fs::path path = in.cache / "eval" / "inputs" / name;
  support::Maker maker;
  maker.usable = [](const fs::path& p) { return fs::exists(p); };
  maker.make = [&](const fs::path& staging) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(size_t(inT.shape.elems()));
    for (float& v : x)
      v = normal(rng);
    compiler::writeNpyFloat(staging.string(), inT.onnxShape, x);
    return true;
  };
  support::findOrMake(path, maker);
  in.inputPath = path.string();
  in.inputHash = support::hashHex(compiler::readFile(in.inputPath));
  in.inputDescription = "random normal(0,1), seed " + std::to_string(seed);
  in.seed = seed;
}

} // namespace

EvalInputs prepareInputs(const EvalRequest& r) {
  EvalInputs in;
  in.cache = support::cacheRoot(r.cacheDir.empty() ? fs::path() : fs::absolute(r.cacheDir));
  in.self = support::executablePath();
  if (r.calibRandom > 0)
    in.calibArgs = {"--calib-random", std::to_string(r.calibRandom)};
  for (const std::string& f : r.calibFiles) {
    if (!fs::exists(f))
      throw support::InputError("--calib " + f + ": no such file");
    in.calibArgs.insert(in.calibArgs.end(), {"--calib", fs::absolute(f).string()});
  }
  if (r.maxCycles > 0)
    in.maxCycles = std::to_string(r.maxCycles);

  loadConfigs(r, in);
  in.model = fs::absolute(r.model).string();
  const std::string modelBytes = compiler::readFile(r.model);
  in.modelHash = compiler::modelContentHash(modelBytes, r.model);
  compiler::Graph g = compiler::importOnnxBytes(modelBytes, r.model); // CompileError: node, op
  compiler::runPasses(g);
  for (const config::Config& c : in.configs)
    compiler::checkFitsDram(g, c);
  const compiler::Tensor& inT = g.tensors[g.input];
  in.batch = int(inT.shape.n);
  in.inputShape = inT.onnxShape;
  in.layers = g.layers.size();
  if (!r.input.empty()) {
    bool isInt8 = false;
    compiler::readInputFile(r.input, inT, &isInt8); // CompileError naming the file
    in.inputPath = fs::absolute(r.input).string();
    in.inputHash = support::hashHex(compiler::readFile(r.input));
    in.inputDescription = r.input;
  } else {
    makeRandomInput(inT, r.seed.value_or(1), in);
    if (!r.quiet)
      std::fprintf(stderr, "brickyard eval: random input, seed %llu (%s)\n",
                   static_cast<unsigned long long>(*in.seed), in.inputPath.c_str());
  }
  return in;
}

} // namespace by::eval
