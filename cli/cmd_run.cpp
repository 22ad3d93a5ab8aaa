// brickyard run: the options of eval::runModel (evaluation/run.h, docs/compiler.md).
#include "command.h"
#include "compile_args.h"
#include "eval/run.h"
#include "soc/platform.h"

namespace by::cli {
namespace {

struct RunArgs {
  CompileArgs compile;
  std::string input, model = "rtl", outPath, reportPath;
  std::optional<uint64_t> maxCycles;
  std::optional<double> minSqnr;
  bool strict = false;

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
    p.real("--min-sqnr", "DB",
           "warn when the output's SQNR against the float model is below DB (default 10)", &minSqnr,
           -1000.0, 1000.0, "a number of dB");
    p.flag("--strict", "exit 1 when it warns: an output of zeros only, or an SQNR below --min-sqnr",
           &strict);
  }
};

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
              "It warns on stderr when the output says little whatever the bit-exactness: every\n"
              "value 0, or an SQNR against the float model below --min-sqnr (10 dB).\n"
              "\n"
              "exit codes: 0 bit-exact, 1 a mismatch, a failed run or (--strict) a warning,\n"
              "2 input rejected");
  a.add(p);
  if (!p.parse(args))
    return kExitOk;
  if (a.input.empty())
    throw UsageError("missing --input X.npy");
  eval::RunRequest r;
  r.compile = a.compile.options();
  r.input = a.input;
  r.model = a.model;
  r.outPath = a.outPath;
  r.reportPath = a.reportPath;
  r.maxCycles = a.maxCycles.value_or(0);
  r.quiet = a.compile.quiet;
  r.minSqnrDb = a.minSqnr.value_or(r.minSqnrDb);
  r.strict = a.strict;
  return eval::runModel(r) ? kExitOk : kExitFailure;
}

} // namespace by::cli
