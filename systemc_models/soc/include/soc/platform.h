// Running a bare-metal program on the SoC: host CPU (Unicorn RV64), router, DRAM, UART,
// exit device, cycle timer, interrupt status and an optional accelerator. SystemC allows one
// elaboration per process, so runSimulation() may be called once per process.
#pragma once

#include "config/config.h"
#include "soc/accelerator.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace by::soc {

/// Creates the accelerator during elaboration (as a child of the SoC module).
using AcceleratorFactory =
    std::function<std::unique_ptr<AcceleratorDevice>(const config::Config& config)>;

/// Quantum used when SimOptions::quantumPs is 0: 1000 clock periods (1 us at 1 GHz).
constexpr uint64_t kDefaultQuantumCycles = 1000;

/// Bytes placed into DRAM after the program is loaded, before it starts: at a program
/// symbol (whose size must hold them) or at an address.
struct MemoryLoad {
  std::string symbol; // empty: use address
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
  std::string source; // for messages (e.g. the file they came from)
};

/// DRAM read when the simulation ends: a program symbol (its whole size, or `size` bytes)
/// or `size` bytes at an address. The bytes appear in SimResult::dumps, in order.
struct MemoryDump {
  std::string symbol;
  uint64_t address = 0;
  uint64_t size = 0;
};

/// The largest SimOptions::maxCycles: the simulated time must fit SystemC's 64-bit picosecond
/// clock.
constexpr uint64_t kMaxCycles = 1'000'000'000'000'000; // 1e15

struct SimOptions {
  config::Config config;
  std::string programPath;
  uint64_t maxCycles = 0;         // stop with SimEnd::Timeout after this many; 0 = never
  uint64_t quantumPs = 0;         // TLM global quantum; a multiple of the clock period
  std::FILE* console = stdout;    // where the UART writes (flushed at newlines)
  AcceleratorFactory accelerator; // empty: no accelerator
  std::vector<MemoryLoad> loads;  // checked with the program (SimSetupError)
  std::vector<MemoryDump> dumps;
};

enum class SimEnd {
  Exit,    // the program wrote the exit device (or returned from main)
  Timeout, // maxCycles reached
  Fault,   // the program crashed or the platform stalled; message says why
};

struct SimResult {
  SimEnd end = SimEnd::Fault;
  int exitCode = 0;    // the program's exit code when end == Exit
  std::string message; // one line for Timeout / Fault
  nlohmann::json stats;
  std::vector<std::vector<uint8_t>> dumps; // SimOptions::dumps, however the run ended
};

/// Exit codes of a simulator process (besides 2 = input rejected, see cli/command.h).
constexpr int kExitTimeout = 124; // --max-cycles reached (as coreutils `timeout`)
constexpr int kExitFault = 125;   // guest fault or stalled simulation

/// The input was rejected before simulating (e.g. a quantum that is not a whole number of
/// clock periods). Programs that cannot be loaded throw ElfError (soc/elf.h).
class SimSetupError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Everything runSimulation() checks before simulating: the program (readable, RISC-V, fits
/// the config's DRAM) and the quantum. Throws ElfError / SimSetupError. Lets a caller reject
/// bad input before expensive preparation (e.g. building an accelerator model).
void checkSimOptions(const SimOptions& options);

/// Elaborates the SoC, loads the program and simulates until it exits, faults or times out.
/// Throws ElfError / SimSetupError for rejected input; std::logic_error if called twice.
SimResult runSimulation(const SimOptions& options);

/// The process exit status for a result: the program's code modulo 256 on Exit,
/// kExitTimeout or kExitFault otherwise.
int processExitCode(const SimResult& result);

} // namespace by::soc
