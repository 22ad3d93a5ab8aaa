#include "command.h"
#include "config/loader.h"
#include "config/names.h"
#include "funcaccel/func_accelerator.h"
#include "rtlmodel/rtl_accelerator.h"
#include "rtlmodel/sim_cache.h"
#include "soc/elf.h"
#include "soc/platform.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

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
    "~/.cache/brickyard; later runs start at once. --model func puts the functional ISA model\n"
    "in the accelerator's place: the same results, untimed (cycles are the host's alone).\n"
    "\n"
    "--load FILE@WHERE copies a file's bytes into DRAM after the program is loaded, before it\n"
    "starts; --dump WHERE=FILE writes DRAM to a file when the run ends. WHERE is a symbol of\n"
    "the program (its whole size for a dump, SYMBOL:BYTES for part of it) or ADDRESS:BYTES\n"
    "(hex with 0x). Both may be given several times (comma-separated lists also work).\n"
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

/// A number in decimal or 0x hex.
uint64_t parseNumber(const std::string& option, const std::string& text) {
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(text, &used, 0);
    if (used == text.size())
      return v;
  } catch (const std::exception&) {
  }
  throw UsageError(option + ": '" + text + "' is not a number");
}

/// WHERE = SYMBOL, SYMBOL:BYTES or ADDRESS:BYTES.
void parseWhere(const std::string& option, const std::string& where, std::string& symbol,
                uint64_t& address, uint64_t& size) {
  const size_t colon = where.find(':');
  const std::string head = where.substr(0, colon);
  if (colon != std::string::npos)
    size = parseNumber(option, where.substr(colon + 1));
  if (head.empty())
    throw UsageError(option + " '" + where + "': expected SYMBOL[:BYTES] or ADDRESS:BYTES");
  if (head[0] >= '0' && head[0] <= '9') {
    address = parseNumber(option, head);
    if (colon == std::string::npos)
      throw UsageError(option + " '" + where + "': an address needs :BYTES");
  } else {
    symbol = head;
  }
}

std::vector<std::string> splitList(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      const size_t comma = item.find(',', start);
      const std::string part =
          item.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!part.empty())
        out.push_back(part);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  return out;
}

soc::MemoryLoad parseLoad(const std::string& spec) {
  const size_t at = spec.rfind('@');
  if (at == std::string::npos || at == 0)
    throw UsageError("--load '" + spec + "': expected FILE@SYMBOL or FILE@ADDRESS");
  soc::MemoryLoad l;
  l.source = spec.substr(0, at);
  uint64_t size = 0;
  parseWhere("--load", spec.substr(at + 1), l.symbol, l.address, size);
  if (l.symbol.empty() && size == 0)
    size = ~uint64_t(0); // an address load takes the whole file
  std::ifstream f(l.source, std::ios::binary);
  if (!f)
    throw UsageError("--load: cannot read " + l.source + ": " + std::strerror(errno));
  l.bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (l.bytes.empty())
    throw UsageError("--load: " + l.source + " is empty");
  return l;
}

struct SimArgs {
  std::string configPath, program, statsPath, model = "rtl", trace, window, cacheDir;
  std::optional<uint64_t> maxCycles, quantumNs;
  std::vector<std::string> loadSpecs, dumpSpecs;
  bool quiet = false, noGating = false;

  void add(ArgParser& p) {
    p.positional("PROGRAM.elf", "bare-metal RISC-V ELF64 executable", &program);
    p.option("--config", "CONFIG.yaml", "SoC + accelerator configuration (required)", &configPath);
    p.option("--model", "rtl|func|none",
             "accelerator: rtl (the Verilated RTL, default), func (the functional model, "
             "untimed) or none (no accelerator)",
             &model);
    p.option("--trace", "FILE.fst",
             "write an FST waveform of the accelerator (builds a traced "
             "simulator on first use)",
             &trace);
    p.option("--trace-window", "FIRST:LAST",
             "trace only clock cycles FIRST..LAST (either may be left out)", &window);
    p.option("--stats", "FILE.json", "write run statistics as JSON (fields: docs/soc.md)",
             &statsPath);
    p.number("--max-cycles", "N", "stop with exit code 124 after N clock cycles (default: none)",
             &maxCycles, 1, soc::kMaxCycles);
    p.number("--quantum-ns", "N",
             "TLM-2.0 quantum in ns, a multiple of the clock period (default 1000 cycles)",
             &quantumNs, 1, 1'000'000'000, "a whole number of ns from 1 to 1000000000 (1 s)");
    p.option("--cache-dir", "DIR", "where accelerator simulators are cached (see above)",
             &cacheDir);
    p.flag("--no-clock-gating",
           "clock the accelerator in every cycle, also while idle (slower; the CYCLES register "
           "then counts every cycle)",
           &noGating);
    p.flag("--quiet", "no progress or summary lines on stderr after a normal exit", &quiet);
    p.multiOption("--load", "FILE@WHERE", "copy FILE into DRAM at WHERE before the program starts",
                  &loadSpecs);
    p.multiOption("--dump", "WHERE=FILE", "write DRAM at WHERE to FILE when the run ends",
                  &dumpSpecs);
  }

  /// The combinations of options that cannot go together.
  void check() const {
    if (configPath.empty())
      throw UsageError("missing --config CONFIG.yaml (usage: brickyard sim --config CONFIG.yaml "
                       "PROGRAM.elf)");
    if (model == "tlm")
      throw UsageError("--model tlm: the fast timed model is not available yet; use --model rtl "
                       "or --model func");
    if (model != "rtl" && model != "func" && model != "none")
      throw UsageError("--model " + model + ": expected rtl, func or none");
    if (!trace.empty() && model != "rtl")
      throw UsageError("--trace: waveforms come from the RTL model (--model rtl)");
    if (!window.empty() && trace.empty())
      throw UsageError("--trace-window needs --trace FILE.fst");
  }
};

/// The simulation's options without its accelerator, checked (program, quantum) before the
/// simulator is built; the files of the dumps in `dumpFiles`.
soc::SimOptions simOptions(const SimArgs& a, std::vector<std::string>& dumpFiles) {
  soc::SimOptions options;
  options.config = config::loadConfigFile(config::resolveConfigArg(a.configPath));
  options.programPath = a.program;
  for (const std::string& spec : splitList(a.loadSpecs))
    options.loads.push_back(parseLoad(spec));
  for (const std::string& spec : splitList(a.dumpSpecs)) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw UsageError("--dump '" + spec + "': expected WHERE=FILE");
    soc::MemoryDump d;
    parseWhere("--dump", spec.substr(0, eq), d.symbol, d.address, d.size);
    options.dumps.push_back(d);
    dumpFiles.push_back(spec.substr(eq + 1));
  }
  options.maxCycles = a.maxCycles.value_or(0);
  options.quantumPs = a.quantumNs.value_or(0) * 1000;
  try {
    soc::checkSimOptions(options);
  } catch (const soc::ElfError& e) {
    throw UsageError(e.what());
  } catch (const soc::SimSetupError& e) {
    throw UsageError(e.what());
  }
  return options;
}

/// Puts the accelerator of --model into `options`; false (with a message) when its simulator
/// could not be built.
bool attachAccelerator(const SimArgs& a, soc::SimOptions& options) {
  if (a.model == "func")
    options.accelerator = funcaccel::funcAcceleratorFactory();
  if (a.model != "rtl")
    return true;
  rtlmodel::RtlOptions rtl;
  rtl.clockGating = !a.noGating;
  if (!a.window.empty())
    parseWindow(a.window, rtl.traceFirstCycle, rtl.traceLastCycle);
  rtlmodel::CacheOptions cache;
  cache.cacheDir = a.cacheDir;
  cache.trace = !a.trace.empty();
  cache.quiet = a.quiet;
  try {
    rtl.library = rtlmodel::findOrBuildModel(options.config, cache).library;
  } catch (const rtlmodel::BuildError& e) {
    std::fprintf(stderr, "brickyard sim: error: cannot build the RTL simulator: %s\n", e.what());
    return false;
  }
  rtl.tracePath = a.trace;
  options.accelerator = rtlmodel::rtlAcceleratorFactory(rtl);
  return true;
}

/// The dumps' files and the statistics.
void writeOutputs(const soc::SimResult& result, const std::vector<std::string>& dumpFiles,
                  std::ofstream& stats, const std::string& statsPath) {
  for (size_t i = 0; i < dumpFiles.size() && i < result.dumps.size(); ++i) {
    std::ofstream f(dumpFiles[i], std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(result.dumps[i].data()),
            std::streamsize(result.dumps[i].size()));
    if (!f.flush())
      std::fprintf(stderr, "brickyard sim: error: cannot write %s\n", dumpFiles[i].c_str());
  }
  if (stats.is_open()) {
    stats << result.stats.dump(2) << "\n";
    if (!stats.flush())
      std::fprintf(stderr, "brickyard sim: error: cannot write %s\n", statsPath.c_str());
  }
}

/// How the program ended, on stderr.
void printEnd(const SimArgs& a, const soc::SimOptions& options, const soc::SimResult& result) {
  const auto& sim = result.stats["simulated"];
  const auto& wall = result.stats["wall"];
  switch (result.end) {
  case soc::SimEnd::Exit:
    if (!a.quiet)
      std::fprintf(
          stderr,
          "brickyard sim: %s exited with code %d after %llu cycles "
          "(%llu host instructions, %.3f s, %.3g instructions/s)\n",
          a.program.c_str(), result.exitCode,
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
}

} // namespace

int runSim(const std::vector<std::string>& args) {
  SimArgs a;
  ArgParser p("sim",
              "--config CONFIG.yaml PROGRAM.elf [--model rtl|func|none] [--trace FILE.fst "
              "[--trace-window FIRST:LAST]] [--stats FILE.json] [--max-cycles N] "
              "[--quantum-ns N] [--cache-dir DIR] [--load FILE@WHERE] [--dump WHERE=FILE]",
              kSimDescription);
  a.add(p);
  if (!p.parse(args))
    return kExitOk;
  a.check();
  if (!a.window.empty()) { // a bad window is rejected before anything else
    uint64_t first = 0, last = ~uint64_t(0);
    parseWindow(a.window, first, last);
  }
  // Reject bad input before the (possibly long) simulator build: the program, the quantum and
  // the output files.
  std::vector<std::string> dumpFiles;
  soc::SimOptions options = simOptions(a, dumpFiles);
  std::ofstream stats;
  if (!a.statsPath.empty()) {
    stats.open(a.statsPath, std::ios::trunc);
    if (!stats)
      throw UsageError("cannot write --stats " + a.statsPath + ": " + std::strerror(errno));
  }
  if (!a.trace.empty() && !std::ofstream(a.trace, std::ios::trunc))
    throw UsageError("cannot write --trace " + a.trace + ": " + std::strerror(errno));
  if (!attachAccelerator(a, options))
    return kExitFailure;
  soc::SimResult result;
  try {
    result = soc::runSimulation(options);
  } catch (const soc::ElfError& e) {
    throw UsageError(e.what());
  } catch (const soc::SimSetupError& e) {
    throw UsageError(e.what());
  }
  writeOutputs(result, dumpFiles, stats, a.statsPath);
  printEnd(a, options, result);
  return soc::processExitCode(result);
}

} // namespace by::cli
