#include "command.h"
#include "compile_args.h"

#include <chrono>
#include <cstdio>

namespace by::cli {

int runCompile(const std::vector<std::string>& args) {
  CompileArgs a;
  std::string outDir;
  ArgParser p("compile", "MODEL.onnx --config CONFIG -o OUT/ [options]",
              "Compiles an ONNX model for an accelerator config (docs/compiler.md): imports it,\n"
              "folds BatchNormalization and fuses activations and pooling, quantizes it to int8\n"
              "(calibrating float models), maps every layer onto the driver's kernels (or the\n"
              "CPU), plans the DRAM, and builds a bare-metal program. Writes into OUT/:\n"
              "  model.c      the generated program, one function per layer\n"
              "  weights.bin  the constants (int8 weights, int32 biases, tables), linked in\n"
              "  weights.S    the assembly that links weights.bin\n"
              "  plan.json    layers, kernels, tiles, dataflow, TensorDash sides, memory plan\n"
              "  quant.json   scales, clipped fractions and SQNR per tensor\n"
              "  model.elf    the program: brickyard run (or brickyard sim --load) runs it\n"
              "Nothing in OUT/ changes unless everything succeeds.\n"
              "\n"
              "exit codes: 0 compiled, 2 model, config or options rejected, 1 a tool failed");
  a.add(p);
  p.option("-o", "OUT/", "output directory (required)", &outDir);
  if (!p.parse(args))
    return kExitOk;
  if (outDir.empty())
    throw UsageError("missing -o OUT/ (usage: brickyard compile MODEL.onnx --config CONFIG -o "
                     "OUT/)");
  const compiler::CompileOptions o = a.options();
  const auto start = std::chrono::steady_clock::now();
  const compiler::Compiled c = compiler::compileModel(o);
  compiler::writeProgram(c, o, outDir);
  int cpu = 0;
  for (const auto& l : c.program.layers)
    cpu += l.onCpu;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!a.quiet)
    std::printf("brickyard compile: %s -> %s/model.elf for '%s': %zu layers (%zu on the "
                "accelerator, %d on the CPU), weights %.1f KiB, activations %.1f KiB peak "
                "(%.1f KiB without reuse), %.1f s\n",
                o.modelPath.c_str(), outDir.c_str(), o.config.name.c_str(), c.graph.layers.size(),
                c.graph.layers.size() - size_t(cpu), cpu, c.program.blob.size() / 1024.0,
                c.program.memory.arenaBytes / 1024.0, c.program.memory.naiveBytes / 1024.0, s);
  return kExitOk;
}

} // namespace by::cli
