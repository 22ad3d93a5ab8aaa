#include "command.h"
#include "config/loader.h"
#include "rtlmodel/rtl_accelerator.h"
#include "rtlmodel/sim_cache.h"
#include "soc/elf.h"
#include "soc/platform.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace by::cli {
namespace {

const char* kSimDescription =
    "Runs a bare-metal RISC-V ELF (rv64imafdc, linked with driver/runtime for this config)\n"
    "on the SystemC/TLM-2.0 SoC of docs/soc.md: a Unicorn host CPU, DRAM, UART, exit device,\n"
    "cycle timer and the accelerator. The program's console output goes to stdout; the\n"
    "simulator's messages go to stderr. The process exits with the program's exit code.\n"
    "\n"
    "The accelerator (--model rtl) is the config's Verilated RTL. Its simulator is built on\n"
    "the first run of a config (a minute for a small config, a few for the 16x16 default) and\n"
    "cached in --cache-dir, $BRICKYARD_CACHE_DIR, $XDG_CACHE_HOME/brickyard or\n"
    "~/.cache/brickyard; later runs start at once.\n"
    "\n"
    "exit codes:\n"
    "  0-255  the program's exit code (exit(code) or return from main), modulo 256\n"
    "  2      input rejected: bad arguments, config, or ELF (missing, not an ELF, not\n"
    "         RISC-V, truncated, does not fit the config's DRAM), before simulating\n"
    "  124    timeout: --max-cycles reached\n"
    "  125    guest fault: the program crashed (unmapped or bad MMIO access, illegal\n"
    "         instruction, ecall, RoCC without an accelerator), the accelerator broke a bus\n"
    "         protocol or hung, or the simulation stalled\n"
    "  1      internal error of the simulator, or building the accelerator's simulator failed\n"
    "A program that itself exits with 1, 2, 124 or 125 is indistinguishable by code alone;\n"
    "the last line on stderr and the --stats \"end\" record say which it was.";

/// A positive decimal count for option `name` (digits only, no sign, no suffix).
uint64_t parseCount(const std::string& name, const std::string& text) {
  bool digits = !text.empty() && text.size() <= 19;
  for (char c : text)
    digits &= c >= '0' && c <= '9';
  const uint64_t value = digits ? std::stoull(text) : 0;
  if (value == 0)
    throw UsageError(name + " '" + text + "': expected a positive whole number");
  return value;
}

/// "FIRST:LAST" (inclusive clock cycles; either side may be empty).
void parseWindow(const std::string& text, uint64_t& first, uint64_t& last) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw UsageError("--trace-window '" + text + "': expected FIRST:LAST (clock cycles)");
  const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  auto number = [&](const std::string& part) {
    for (char c : part)
      if (c < '0' || c > '9' || part.size() > 19)
        throw UsageError("--trace-window '" + text + "': expected FIRST:LAST (clock cycles)");
    return std::stoull(part);
  };
  if (!a.empty())
    first = number(a);
  if (!b.empty())
    last = number(b);
  if (first > last)
    throw UsageError("--trace-window '" + text + "': FIRST is after LAST");
}

} // namespace

int runSim(const std::vector<std::string>& args) {
  std::string configPath, program, statsPath, maxCyclesText, quantumText, model = "rtl", trace,
                                                                          window, cacheDir;
  bool quiet = false, noGating = false;
  ArgParser p("sim",
              "--config CONFIG.yaml PROGRAM.elf [--model rtl|none] [--trace FILE.fst "
              "[--trace-window FIRST:LAST]] [--stats FILE.json] [--max-cycles N] "
              "[--quantum-ns N] [--cache-dir DIR]",
              kSimDescription);
  p.positional("PROGRAM.elf", "bare-metal RISC-V ELF64 executable", &program);
  p.option("--config", "CONFIG.yaml", "SoC + accelerator configuration (required)", &configPath);
  p.option("--model", "rtl|none",
           "accelerator: rtl (the Verilated RTL, default) or none (no accelerator); the fast "
           "tlm model is not available yet",
           &model);
  p.option("--trace", "FILE.fst",
           "write an FST waveform of the accelerator (builds a traced "
           "simulator on first use)",
           &trace);
  p.option("--trace-window", "FIRST:LAST",
           "trace only clock cycles FIRST..LAST (either may be left out)", &window);
  p.option("--stats", "FILE.json", "write run statistics as JSON (fields: docs/soc.md)",
           &statsPath);
  p.option("--max-cycles", "N", "stop with exit code 124 after N clock cycles (default: none)",
           &maxCyclesText);
  p.option("--quantum-ns", "N",
           "TLM-2.0 quantum in ns, a multiple of the clock period (default 1000 cycles)",
           &quantumText);
  p.option("--cache-dir", "DIR", "where accelerator simulators are cached (see above)", &cacheDir);
  p.flag("--no-clock-gating",
         "clock the accelerator in every cycle, also while idle (slower; the CYCLES register "
         "then counts every cycle)",
         &noGating);
  p.flag("--quiet", "no progress or summary lines on stderr after a normal exit", &quiet);
  if (!p.parse(args))
    return kExitOk;
  if (configPath.empty())
    throw UsageError("missing --config CONFIG.yaml (usage: brickyard sim --config CONFIG.yaml "
                     "PROGRAM.elf)");
  if (model == "tlm")
    throw UsageError("--model tlm: the fast TLM model is not available yet; use --model rtl");
  if (model != "rtl" && model != "none")
    throw UsageError("--model " + model + ": expected rtl or none");
  if (!trace.empty() && model != "rtl")
    throw UsageError("--trace: waveforms come from the RTL model (--model rtl)");
  if (!window.empty() && trace.empty())
    throw UsageError("--trace-window needs --trace FILE.fst");
  rtlmodel::RtlOptions rtl;
  rtl.clockGating = !noGating;
  if (!window.empty())
    parseWindow(window, rtl.traceFirstCycle, rtl.traceLastCycle);

  soc::SimOptions options;
  options.config = config::loadConfigFile(configPath);
  options.programPath = program;
  // The simulated time limit must fit SystemC's 64-bit picosecond clock.
  constexpr uint64_t kMaxCycles = 1'000'000'000'000'000; // 1e15
  if (!maxCyclesText.empty()) {
    options.maxCycles = parseCount("--max-cycles", maxCyclesText);
    if (options.maxCycles > kMaxCycles)
      throw UsageError("--max-cycles " + maxCyclesText + ": at most " + std::to_string(kMaxCycles));
  }
  if (!quantumText.empty()) {
    const uint64_t ns = parseCount("--quantum-ns", quantumText);
    if (ns > 1'000'000'000)
      throw UsageError("--quantum-ns " + quantumText + ": at most 1000000000 (1 s)");
    options.quantumPs = ns * 1000;
  }
  // Reject bad input before the (possibly long) simulator build: the program, the quantum and
  // the output files.
  try {
    soc::checkSimOptions(options);
  } catch (const soc::ElfError& e) {
    throw UsageError(e.what());
  } catch (const soc::SimSetupError& e) {
    throw UsageError(e.what());
  }
  std::ofstream stats;
  if (!statsPath.empty()) {
    stats.open(statsPath, std::ios::trunc);
    if (!stats)
      throw UsageError("cannot write --stats " + statsPath + ": " + std::strerror(errno));
  }
  if (!trace.empty() && !std::ofstream(trace, std::ios::trunc))
    throw UsageError("cannot write --trace " + trace + ": " + std::strerror(errno));

  if (model == "rtl") {
    rtlmodel::CacheOptions cache;
    cache.cacheDir = cacheDir;
    cache.trace = !trace.empty();
    cache.quiet = quiet;
    try {
      rtl.library = rtlmodel::findOrBuildModel(options.config, cache).library;
    } catch (const rtlmodel::BuildError& e) {
      std::fprintf(stderr, "brickyard sim: error: cannot build the RTL simulator: %s\n", e.what());
      return kExitFailure;
    }
    rtl.tracePath = trace;
    options.accelerator = rtlmodel::rtlAcceleratorFactory(rtl);
  }

  soc::SimResult result;
  try {
    result = soc::runSimulation(options);
  } catch (const soc::ElfError& e) {
    throw UsageError(e.what());
  } catch (const soc::SimSetupError& e) {
    throw UsageError(e.what());
  }
  if (stats.is_open()) {
    stats << result.stats.dump(2) << "\n";
    if (!stats.flush())
      std::fprintf(stderr, "brickyard sim: error: cannot write %s\n", statsPath.c_str());
  }

  const auto& sim = result.stats["simulated"];
  const auto& wall = result.stats["wall"];
  switch (result.end) {
  case soc::SimEnd::Exit:
    if (!quiet)
      std::fprintf(
          stderr,
          "brickyard sim: %s exited with code %d after %llu cycles "
          "(%llu host instructions, %.3f s, %.3g instructions/s)\n",
          program.c_str(), result.exitCode,
          static_cast<unsigned long long>(sim["cycles"].get<uint64_t>()),
          static_cast<unsigned long long>(result.stats["host"]["instructions"].get<uint64_t>()),
          wall["seconds"].get<double>(), wall["host_instructions_per_second"].get<double>());
    break;
  case soc::SimEnd::Timeout:
    std::fprintf(stderr, "brickyard sim: error: timeout after --max-cycles %llu: %s\n",
                 static_cast<unsigned long long>(options.maxCycles), result.message.c_str());
    break;
  case soc::SimEnd::Fault:
    std::fprintf(stderr, "brickyard sim: error: guest fault after %llu cycles: %s\n",
                 static_cast<unsigned long long>(sim["cycles"].get<uint64_t>()),
                 result.message.c_str());
    break;
  }
  return soc::processExitCode(result);
}

} // namespace by::cli
