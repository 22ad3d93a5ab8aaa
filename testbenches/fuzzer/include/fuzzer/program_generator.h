// Seeded random command programs for the system fuzzer: mostly legal commands with realistic
// and corner-case parameters, a configurable share of deliberately illegal ones (every error
// class in turn), ending with a dump of the whole scratchpad and accumulator to DRAM so that
// a system test can compare final states through DRAM alone.
//
// Programs never depend on what docs/isa.md leaves to fences or to the implementation:
//  - MVINs read only the input region; every MVOUT writes bytes of the output (or dump)
//    region that no other MVOUT writes, and no MVOUT row overlaps another row of the same
//    command, so DRAM contents do not depend on the order of DMA transfers; the exception,
//    on Boveda configs, is a compressed MVIN of a block an earlier compressed MVOUT wrote,
//    always behind a COUNTER_OP (the system harness fences before each);
//  - every local row is initialised first (SRAMs are not reset in hardware);
//  - MVIN column blocks never overlap each other, and a PRELOAD/COMPUTE pair never writes
//    local rows it also reads;
//  - COUNTER_OP commands set one action bit each;
//  - illegal commands are the unambiguous cases of each error class (a PRELOAD left dangling
//    is followed by an execute-queue command).
// Counter reads of cycle events are not deterministic on hardware: compare rd values only
// where the model reports ExecResult::rdDeterministic.
#pragma once

#include "config/config.h"
#include "funcmodel/params.h"
#include "funcmodel/program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::fuzzer {

struct DramRegion {
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t end() const { return base + size; }
};

/// Where a program may touch DRAM. Regions are disjoint, non-empty, below 2^32 and above
/// address 0 (an MVIN from address 0 is a zero fill).
struct DramLayout {
  DramRegion input;  // MVIN sources, read only (the test fills it)
  DramRegion output; // MVOUT destinations, each MVOUT with bytes of its own
  DramRegion dump;   // the final dump: dumpBytes(config) bytes
};

struct GeneratorOptions {
  int operations = 150;          // random operations (each one to a few commands) before the dump
  double illegalFraction = 0.05; // share of operations that issue a deliberately illegal command
  /// Also use the address flags gemmini.h issues whose legality is disputed (accumulate on an
  /// MVOUT accumulator source, full on a PRELOAD accumulator output; see func_model.h). Off
  /// by default so that a system fuzzer only checks agreed semantics.
  bool gemminiAddressFlags = false;
};

struct GeneratedProgram {
  uint64_t seed = 0;
  funcmodel::Program program;
  /// Per instruction: 0, or the error code the instruction is meant to be rejected with. A
  /// PRELOAD meant to dangle is rejected when the next instruction arrives (the model reports
  /// it as ExecResult::preloadRejected of that next instruction).
  std::vector<int> expectedError;
  /// Per instruction: what it is for (for the text form).
  std::vector<std::string> comments;
};

class ProgramGenerator {
public:
  /// Throws std::invalid_argument for an unusable layout or config (see
  /// funcmodel::ModelParams::from).
  ProgramGenerator(const config::Config& config, const DramLayout& layout,
                   GeneratorOptions options = {});

  /// The same seed always gives the same program (the generator uses its own integer
  /// distributions, so the program does not depend on the standard library either).
  GeneratedProgram generate(uint64_t seed) const;

  /// Bytes of the final dump: every scratchpad row (DIM elem_t), then every accumulator row
  /// (DIM raw acc_t), row after row.
  static uint64_t dumpBytes(const config::Config& config);
  /// Where the dump puts scratchpad row `row` / accumulator row `row`.
  uint64_t spDumpAddr(int row) const;
  uint64_t accDumpAddr(int row) const;

  /// A layout of consecutive 4 KiB-aligned regions starting at `base`.
  static DramLayout layoutAt(const config::Config& config, uint64_t base, uint64_t inputBytes,
                             uint64_t outputBytes);

  const DramLayout& layout() const { return layout_; }

private:
  funcmodel::ModelParams params_;
  DramLayout layout_;
  GeneratorOptions options_;
};

} // namespace by::fuzzer
