#include "eval/run.h"

#include "compiler/emit_c.h"
#include "compiler/files.h"
#include "compiler/interpret.h"
#include "compiler/npy.h"
#include "compiler/run_report.h"
#include "funcaccel/func_accelerator.h"
#include "rtlmodel/rtl_accelerator.h"
#include "rtlmodel/sim_cache.h"
#include "soc/platform.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace by::eval {
namespace {

namespace fs = std::filesystem;

/// The input as the program reads it: int8, quantized with the input's scale unless it is int8
/// already. `x` gets the values as read (for the float model).
std::vector<int8_t> programInput(const RunRequest& a, const compiler::Tensor& in,
                                 std::vector<float>& x, bool& isInt8) {
  x = compiler::readInputFile(a.input, in, &isInt8);
  if (!isInt8)
    return compiler::quantizeInput(x, in.scale);
  std::vector<int8_t> q(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    q[i] = int8_t(x[i]);
  return q;
}

/// Runs the program on the SoC; false (with a message) when it did not end with exit code 0 or
/// its simulator could not be built.
bool simulate(const RunRequest& a, const compiler::CompileOptions& o, const compiler::Compiled& c,
              const fs::path& program, const std::vector<int8_t>& q, soc::SimResult& r) {
  soc::SimOptions so;
  so.config = o.config;
  so.programPath = program.string();
  std::FILE* devNull = a.quiet ? std::fopen("/dev/null", "w") : nullptr;
  so.console = devNull ? devNull : stderr;
  so.loads.push_back(
      {compiler::kInputSymbol, 0, std::vector<uint8_t>(q.begin(), q.end()), a.input});
  so.dumps.push_back({compiler::kOutputSymbol, 0, 0});
  so.dumps.push_back({compiler::kStatsSymbol, 0, 0});
  so.maxCycles = a.maxCycles;
  if (a.model == "rtl") {
    rtlmodel::CacheOptions cache;
    cache.cacheDir = o.cacheDir;
    cache.quiet = a.quiet;
    rtlmodel::RtlOptions rtl;
    try {
      rtl.library = rtlmodel::findOrBuildModel(o.config, cache).library;
    } catch (const rtlmodel::BuildError& e) {
      std::fprintf(stderr, "brickyard run: error: cannot build the RTL simulator: %s\n", e.what());
      return false;
    }
    so.accelerator = rtlmodel::rtlAcceleratorFactory(rtl);
  } else {
    so.accelerator = funcaccel::funcAcceleratorFactory();
  }
  if (o.progress)
    o.progress("running " + std::to_string(c.graph.layers.size()) + " layers on the " +
               (a.model == "rtl" ? "RTL co-simulation" : "functional model"));
  r = soc::runSimulation(so);
  if (devNull)
    std::fclose(devNull);
  if (r.end == soc::SimEnd::Exit && r.exitCode == 0)
    return true;
  std::fprintf(stderr, "brickyard run: error: the program %s\n",
               r.end == soc::SimEnd::Exit ? ("exited with code " + std::to_string(r.exitCode) +
                                             " (a layer failed; see its message above)")
                                                .c_str()
                                          : r.message.c_str());
  return false;
}

/// How the output compares with the int8 reference and the float model, for people.
void printCheck(const RunRequest& a, const compiler::RunReport& rep) {
  const auto& k = rep.check;
  if (k.exact())
    std::printf("output: bit-exact with the int8 reference (%lld values)\n",
                static_cast<long long>(k.values));
  else
    std::printf("output: %lld of %lld values differ from the int8 reference (first at %lld: "
                "got %d, want %d)\n",
                static_cast<long long>(k.mismatches), static_cast<long long>(k.values),
                static_cast<long long>(k.firstMismatch), k.firstGot, k.firstWant);
  if (k.haveFloat)
    std::printf("float model: top-1 agrees on %lld of %lld rows, SQNR %.1f dB, max |error| "
                "%.4g\n",
                static_cast<long long>(k.top1Agree), static_cast<long long>(k.rows), k.sqnrDb,
                k.maxAbsError);
  std::printf("simulated %llu cycles (%llu host instructions) in %.2f s on the %s\n",
              static_cast<unsigned long long>(rep.totalCycles),
              static_cast<unsigned long long>(rep.hostInstructions), rep.wallSeconds,
              a.model == "rtl" ? "RTL co-simulation" : "functional model");
}

/// The run's report: the program's counters and its output against the int8 reference (the
/// graph as the accelerator computes it) and, for a float input, the float model.
compiler::RunReport checkRun(const RunRequest& a, const compiler::CompileOptions& o,
                             const compiler::Compiled& c, const std::vector<int8_t>& q,
                             const std::vector<float>& x, bool isInt8, const soc::SimResult& r) {
  const compiler::Int8Values ref =
      compiler::runInt8(c.graph, q, compiler::chunkRules(c.program), compiler::intWidths(o.config));
  const int outStore = c.graph.storageOf(c.graph.output);
  const std::vector<int8_t> got(r.dumps[0].begin(), r.dumps[0].end());
  std::vector<float> floatOut;
  if (!isInt8)
    floatOut = compiler::runFloat(c.graph, x)[outStore];
  compiler::RunReport rep;
  rep.model = a.model;
  rep.layers = compiler::parseStats(r.dumps[1], c.graph.layers.size());
  rep.check = compiler::checkOutput(c.graph, got, ref[outStore], isInt8 ? nullptr : &floatOut);
  rep.wallSeconds = r.stats["wall"]["seconds"].get<double>();
  rep.totalCycles = r.stats["simulated"]["cycles"].get<uint64_t>();
  rep.hostInstructions = r.stats["host"]["instructions"].get<uint64_t>();
  return rep;
}

/// --out: the output dequantized, in the ONNX layout.
void writeOutput(const std::string& path, const compiler::Compiled& c,
                 const std::vector<uint8_t>& dump) {
  const compiler::Tensor& out = c.graph.tensors[c.graph.output];
  std::vector<float> deq(dump.size());
  for (size_t i = 0; i < dump.size(); ++i)
    deq[i] = float(int8_t(dump[i]) * out.scale);
  compiler::writeNpyFloat(path, out.onnxShape, compiler::nhwcToOnnx(out, deq));
}

} // namespace

/// Warns (stderr) when the output says little: all zeros, or an SQNR against the float model
/// below the threshold. False when it warned.
bool agreementOk(const RunRequest& a, const compiler::RunReport& rep,
                 const std::vector<uint8_t>& out) {
  bool ok = true;
  if (!out.empty() && std::all_of(out.begin(), out.end(), [](uint8_t v) { return v == 0; })) {
    std::fprintf(stderr,
                 "brickyard run: warning: every one of the %zu output values is 0: the "
                 "int8 model computes nothing useful (e.g. activations that vanish "
                 "below their int8 step; see quant.json)\n",
                 out.size());
    ok = false;
  }
  const auto& k = rep.check;
  if (k.haveFloat && k.sqnrDb < a.minSqnrDb) {
    std::fprintf(stderr,
                 "brickyard run: warning: the int8 output agrees poorly with the float "
                 "model: SQNR %.1f dB, below %.1f dB (top-1 agrees on %lld of %lld "
                 "rows); quant.json has every tensor's SQNR\n",
                 k.sqnrDb, a.minSqnrDb, static_cast<long long>(k.top1Agree),
                 static_cast<long long>(k.rows));
    ok = false;
  }
  if (!ok && a.strict)
    std::fprintf(stderr, "brickyard run: error: --strict: the run fails on the warning above\n");
  return ok;
}

bool runModel(const RunRequest& a) {
  const compiler::CompileOptions& o = a.compile;
  const compiler::Compiled c = compiler::compileModel(o);
  std::vector<float> x;
  bool isInt8 = false;
  const std::vector<int8_t> q = programInput(a, c.graph.tensors[c.graph.input], x, isInt8);
  const fs::path dir = compiler::cachedProgram(c, o);
  soc::SimResult r;
  if (!simulate(a, o, c, dir / "model.elf", q, r))
    return false;
  const compiler::RunReport rep = checkRun(a, o, c, q, x, isInt8, r);
  std::printf("%s", compiler::reportTable(c, rep).c_str());
  printCheck(a, rep);
  if (!a.outPath.empty())
    writeOutput(a.outPath, c, r.dumps[0]);
  if (!a.reportPath.empty())
    compiler::writeFileAtomic(a.reportPath,
                              nlohmann::json(compiler::runRecord(c, rep)).dump(2) + "\n");
  const bool agrees = agreementOk(a, rep, r.dumps[0]);
  return rep.check.exact() && (agrees || !a.strict);
}

} // namespace by::eval
