// brickyard: one command for generation, checking, synthesis and (later) simulation and
// compilation. Each subcommand lives in its own cmd_*.cpp and is listed in commands().
#include "brickyard_version.h"
#include "command.h"
#include "compiler/error.h"
#include "config/loader.h"
#include "soc/platform.h"
#include "support/errors.h"

#include <cstdio>
#include <string>
#include <vector>

namespace by::cli {

int runGen(const std::vector<std::string>& args);
int runLint(const std::vector<std::string>& args);
int runSynth(const std::vector<std::string>& args);
int runDoc(const std::vector<std::string>& args);
int runSim(const std::vector<std::string>& args);
int runCompile(const std::vector<std::string>& args);
int runRun(const std::vector<std::string>& args);
int runEval(const std::vector<std::string>& args);
int runSweep(const std::vector<std::string>& args);

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"gen", "generate RTL, headers and manifest from a config", runGen},
      {"lint", "lint generated RTL with Verilator -Wall and Icarus Verilog", runLint},
      {"synth", "synthesize generated RTL with Yosys; per-module area report", runSynth},
      {"sim", "run a bare-metal RISC-V program on the SystemC SoC", runSim},
      {"compile", "compile an ONNX model into a bare-metal program for a config", runCompile},
      {"run", "compile, run on the SoC and check an ONNX model against its reference", runRun},
      {"eval", "run a model on several configs: cycles, traffic, energy, area, plots", runEval},
      {"sweep", "a grid of config overrides x models, locally or on Slurm; table, Pareto plots",
       runSweep},
      {"doc", "print generated reference documentation (config keys)", runDoc},
  };
  return table;
}

} // namespace by::cli

namespace {

void printUsage(std::FILE* to) {
  std::fprintf(to,
               "usage: brickyard COMMAND [ARGS...]   (brickyard COMMAND --help for more)\n\n"
               "Brickyard %s: a generator and evaluation platform for Gemmini-style DNN "
               "accelerators.\n\ncommands:\n",
               BRICKYARD_VERSION);
  for (const auto& c : by::cli::commands())
    std::fprintf(to, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(to, "\nexit codes: 0 success, 1 failure, 2 input rejected\n");
}

} // namespace

int main(int argc, char** argv) {
  using namespace by::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(stderr);
    return kExitRejected;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    printUsage(stdout);
    return kExitOk;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::printf("brickyard %s\n", BRICKYARD_VERSION);
    return kExitOk;
  }
  const Command* command = nullptr;
  for (const Command& c : commands())
    if (args[0] == c.name)
      command = &c;
  if (!command) {
    std::fprintf(stderr, "brickyard: error: unknown command '%s'\n", args[0].c_str());
    printUsage(stderr);
    return kExitRejected;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    return command->run(rest);
  } catch (const by::config::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitRejected;
  } catch (const by::compiler::CompileError& e) {
    std::fprintf(stderr, "brickyard %s: error: %s\n", command->name, e.what());
    return kExitRejected;
  } catch (const by::soc::SimSetupError& e) {
    std::fprintf(stderr, "brickyard %s: error: %s\n", command->name, e.what());
    return kExitRejected;
  } catch (const by::support::InputError& e) { // UsageError, OutputRefused, ...
    std::fprintf(stderr, "brickyard %s: error: %s\n", command->name, e.what());
    return kExitRejected;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "brickyard %s: error: %s\n", command->name, e.what());
    return kExitFailure;
  }
}
