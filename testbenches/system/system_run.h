// Runs one command program on the RTL accelerator (AccelSystem) and on the functional ISA
// model (the reference) from the same DRAM image, and compares everything a host can see:
// every DRAM byte, the ERROR and ERROR_COUNT registers and the COUNTER_OP results the model
// calls deterministic. A hang or an AXI / AXI4-Lite protocol violation is a failure too.
#pragma once

#include "accel_system.h"
#include "funcmodel/func_model.h"
#include "fuzzer/program_generator.h"

#include <map>
#include <string>
#include <vector>

namespace by::test {

struct RunOptions {
  SystemOptions system;
  std::string name;          // for messages and the saved program
  bool readCounters = false; // read every 64-bit performance counter at the end
};

struct RunOutcome {
  bool ok = true;
  std::string failure;               // what went wrong, readable; empty when ok
  funcmodel::ErrorState modelErrors; // the reference's error registers
  uint64_t cycles = 0;               // accelerator cycles for the program
  std::vector<uint8_t> dram;         // the accelerator's DRAM afterwards
  std::vector<Response> responses;   // COUNTER_OP results the host received
  /// With RunOptions::readCounters: the performance counters (names without _LO/_HI) after
  /// the program, counted from the start of the run.
  std::map<std::string, uint64_t> counters;
};

/// `image` is the DRAM before the program (base = options.system.memBase, size =
/// options.system.memSize); the program's expected-error annotations are not used here.
RunOutcome runAndCompare(const config::Config& config, const funcmodel::Program& program,
                         const std::vector<uint8_t>& image, const RunOptions& options);

/// The fuzzer's set-up for one seed: where the program may touch DRAM, the harness options
/// (stressed memory, a tenth of the commands through the registers) and the DRAM image with
/// random input data. The replay tool uses the same, so a seed replays exactly.
struct FuzzSetup {
  fuzzer::DramLayout layout;
  RunOptions options;
  std::vector<uint8_t> image;
};
FuzzSetup fuzzSetup(const config::Config& config, uint64_t seed);

/// Little-endian signed values of `bytes` bytes at byte `offset` of a DRAM image.
void putLittleEndian(std::vector<uint8_t>& image, uint64_t offset, int64_t value, int bytes);
int64_t getLittleEndian(const std::vector<uint8_t>& image, uint64_t offset, int bytes);

/// Writes the program text next to the test outputs and returns the path (for replaying a
/// failure).
std::string saveProgram(const std::string& name, const funcmodel::Program& program,
                        const std::vector<std::string>& comments = {});

/// Writes the DRAM image a program started from, with the harness options that matter for
/// replaying it (memory base, AXI timing seed, share of register-path commands), as
/// `<name>.img` next to the saved programs; returns the path. `system_replay_<config> PROG
/// --image FILE` replays a directed test's failure exactly.
std::string saveImage(const std::string& name, const std::vector<uint8_t>& image,
                      const RunOptions& options);
/// Reads a file written by saveImage into `image` and the harness options into `options`;
/// false (with `error` set) for anything else.
bool loadImage(const std::string& path, std::vector<uint8_t>& image, RunOptions& options,
               std::string& error);

} // namespace by::test
