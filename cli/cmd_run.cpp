#include "command.h"
#include "compile_args.h"
#include "compiler/emit_c.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/interpret.h"
#include "compiler/npy.h"
#include "compiler/run_report.h"
#include "funcaccel/func_accelerator.h"
#include "rtlmodel/rtl_accelerator.h"
#include "rtlmodel/sim_cache.h"
#include "soc/platform.h"
#include "support/cache.h"
#include "support/hash.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace by::cli {
namespace {

namespace fs = std::filesystem;

/// The program of a compile, cached by everything that goes into it.
fs::path cachedProgram(const compiler::Compiled& c, const compiler::CompileOptions& o) {
  const compiler::DriverBuild d = compiler::driverBuild(o.config, o.hal, o.cacheDir);
  const compiler::EmitInfo info{o.modelPath, c.modelHash, c.configHash, compiler::toolVersion()};
  const std::string key = support::hashHex(compiler::emitModelC(c.graph, c.program, info) +
                                           c.program.blob + d.dir.string());
  const support::DirectoryCache programs(support::cacheRoot(o.cacheDir) / "programs", "model.elf");
  const std::string name = o.config.name + "-" + key;
  if (programs.findOrMake(
          name, [&](const fs::path& staging) { compiler::writeProgram(c, o, staging); }) ==
          support::Outcome::Found &&
      o.progress)
    o.progress("program cached in " + programs.entry(name).string());
  return programs.entry(name);
}

struct RunArgs {
  CompileArgs compile;
  std::string input, model = "rtl", outPath, reportPath;
  std::optional<uint64_t> maxCycles;

  void add(ArgParser& p) {
    compile.add(p);
    p.option("--input", "X.npy", "the input tensor (required)", &input);
    p.choice("--model", "rtl|func",
             "accelerator model: the Verilated RTL (default) or the "
             "functional model (untimed)",
             &model, {"rtl", "func"});
    p.option("--out", "Y.npy", "write the output (dequantized float32, ONNX layout)", &outPath);
    p.option("--report", "FILE.json", "write the per-layer report as JSON", &reportPath);
    p.number("--max-cycles", "N", "stop the simulation after N cycles (exit 1)", &maxCycles, 1,
             soc::kMaxCycles);
  }
};

/// The input as the program reads it: int8, quantized with the input's scale unless it is int8
/// already. `x` gets the values as read (for the float model).
std::vector<int8_t> programInput(const RunArgs& a, const compiler::Tensor& in,
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
bool simulate(const RunArgs& a, const compiler::CompileOptions& o, const compiler::Compiled& c,
              const fs::path& program, const std::vector<int8_t>& q, soc::SimResult& r) {
  soc::SimOptions so;
  so.config = o.config;
  so.programPath = program.string();
  std::FILE* devNull = a.compile.quiet ? std::fopen("/dev/null", "w") : nullptr;
  so.console = devNull ? devNull : stderr;
  so.loads.push_back(
      {compiler::kInputSymbol, 0, std::vector<uint8_t>(q.begin(), q.end()), a.input});
  so.dumps.push_back({compiler::kOutputSymbol, 0, 0});
  so.dumps.push_back({compiler::kStatsSymbol, 0, 0});
  so.maxCycles = a.maxCycles.value_or(0);
  if (a.model == "rtl") {
    rtlmodel::CacheOptions cache;
    cache.cacheDir = o.cacheDir;
    cache.quiet = a.compile.quiet;
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
void printCheck(const RunArgs& a, const compiler::RunReport& rep) {
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
compiler::RunReport checkRun(const RunArgs& a, const compiler::CompileOptions& o,
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

int runRun(const std::vector<std::string>& args) {
  RunArgs a;
  ArgParser p("run",
              "MODEL.onnx --config CONFIG --input X.npy [--model rtl|func] [--out Y.npy] "
              "[--report FILE.json] [compile options]",
              "Compiles the model (cached), runs it on the config's SoC with the accelerator's\n"
              "RTL co-simulation (default) or the functional model, and checks the output bit\n"
              "for bit against the compiler's int8 reference interpreter (an implementation of\n"
              "docs/arithmetic.md independent of the driver). Prints a per-layer table (MACs,\n"
              "cycles, utilization, DRAM bytes, TensorDash skipped MACs, Boveda compressed\n"
              "bytes) and how the int8 output agrees with the float model.\n"
              "\n"
              "X.npy has the model input's ONNX shape: float32/64 (quantized with the input's\n"
              "scale) or int8 (used as is). A file that is not .npy is raw float32.\n"
              "\n"
              "exit codes: 0 bit-exact, 1 a mismatch or a failed run, 2 input rejected");
  a.add(p);
  if (!p.parse(args))
    return kExitOk;
  if (a.input.empty())
    throw UsageError("missing --input X.npy");
  const compiler::CompileOptions o = a.compile.options();
  const compiler::Compiled c = compiler::compileModel(o);
  std::vector<float> x;
  bool isInt8 = false;
  const std::vector<int8_t> q = programInput(a, c.graph.tensors[c.graph.input], x, isInt8);
  const fs::path dir = cachedProgram(c, o);
  soc::SimResult r;
  if (!simulate(a, o, c, dir / "model.elf", q, r))
    return kExitFailure;
  const compiler::RunReport rep = checkRun(a, o, c, q, x, isInt8, r);
  std::printf("%s", compiler::reportTable(c, rep).c_str());
  printCheck(a, rep);
  if (!a.outPath.empty())
    writeOutput(a.outPath, c, r.dumps[0]);
  if (!a.reportPath.empty())
    compiler::writeFileAtomic(a.reportPath,
                              nlohmann::json(compiler::runRecord(c, rep)).dump(2) + "\n");
  return rep.check.exact() ? kExitOk : kExitFailure;
}

} // namespace by::cli
