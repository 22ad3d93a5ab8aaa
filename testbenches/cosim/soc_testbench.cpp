// The SoC with the test accelerator plugged in, as its own simulator process (SystemC
// allows one elaboration per process):
//   soc_testbench --config CONFIG.yaml --log FILE [--max-cycles N] [--stats FILE] PROGRAM.elf
// Console output, messages and exit codes follow `brickyard sim`; FILE receives the test
// accelerator's log (one line per RoCC command or register access).
#include "config/loader.h"
#include "soc/elf.h"
#include "soc/platform.h"
#include "test_accelerator.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string configPath, logPath, statsPath, program;
  by::soc::SimOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--config" && hasValue)
      configPath = argv[++i];
    else if (a == "--log" && hasValue)
      logPath = argv[++i];
    else if (a == "--stats" && hasValue)
      statsPath = argv[++i];
    else if (a == "--max-cycles" && hasValue)
      options.maxCycles = std::stoull(argv[++i]);
    else if (program.empty() && a[0] != '-')
      program = a;
    else {
      std::fprintf(stderr, "soc_testbench: error: bad argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (configPath.empty() || logPath.empty() || program.empty()) {
    std::fprintf(stderr, "usage: soc_testbench --config CONFIG.yaml --log FILE "
                         "[--max-cycles N] [--stats FILE] PROGRAM.elf\n");
    return 2;
  }
  std::vector<std::string> log;
  try {
    options.config = by::config::loadConfigFile(configPath);
    options.programPath = program;
    options.accelerator = [&log](const by::config::Config& config) {
      const sc_core::sc_time period(1e6 / config.soc.clockMHz, sc_core::SC_PS);
      return std::make_unique<by::test::TestAccelerator>("accelerator", period, log);
    };
    const by::soc::SimResult result = by::soc::runSimulation(options);
    std::ofstream logFile(logPath);
    for (const std::string& line : log)
      logFile << line << "\n";
    if (!statsPath.empty())
      std::ofstream(statsPath) << result.stats.dump(2) << "\n";
    if (result.end != by::soc::SimEnd::Exit)
      std::fprintf(stderr, "soc_testbench: error: %s: %s\n",
                   result.end == by::soc::SimEnd::Timeout ? "timeout" : "guest fault",
                   result.message.c_str());
    return by::soc::processExitCode(result);
  } catch (const by::config::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const by::soc::ElfError& e) {
    std::fprintf(stderr, "soc_testbench: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soc_testbench: error: %s\n", e.what());
    return 1;
  }
}
