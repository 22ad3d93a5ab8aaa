// Random command programs (fuzzer::ProgramGenerator: mostly legal commands with corner-case
// parameters, some deliberately illegal ones, a final dump of both local memories) on the RTL
// accelerator against the functional model, with a stressed AXI memory and a share of the
// commands pushed through the AXI4-Lite registers. Every program's seed is printed; a failing
// program is saved as text and replays with BY_SEED=<seed> BY_FUZZ_PROGRAMS=1.
#include "fuzzer/program_generator.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

namespace by::test {
namespace {

int programCount() {
  const char* env = std::getenv("BY_FUZZ_PROGRAMS");
  return env ? std::atoi(env) : BY_FUZZ_DEFAULT_PROGRAMS;
}

TEST(SystemFuzz, RandomProgramsMatchTheFunctionalModel) {
  const config::Config config = builtConfig();
  const fuzzer::ProgramGenerator generator(config, fuzzSetup(config, 0).layout);
  const uint64_t firstSeed = testSeed(1000, "system fuzzer (first program)");
  const int programs = programCount();

  uint64_t cycles = 0, commands = 0, rejected = 0;
  int failures = 0, ran = 0;
  for (int i = 0; i < programs && failures < 3; ++i, ++ran) {
    const uint64_t seed = firstSeed + static_cast<uint64_t>(i);
    const fuzzer::GeneratedProgram gp = generator.generate(seed);
    const FuzzSetup setup = fuzzSetup(config, seed);
    const RunOptions& options = setup.options;
    const std::vector<uint8_t>& image = setup.image;
    const RunOutcome r = runAndCompare(config, gp.program, image, options);
    cycles += r.cycles;
    commands += gp.program.size();
    rejected += r.modelErrors.count;
    if (!r.ok) {
      ++failures;
      ADD_FAILURE() << "program seed " << seed << " (" << gp.program.size()
                    << " commands) differs from the functional model:\n"
                    << r.failure << "program saved to "
                    << saveProgram(options.name, gp.program, gp.comments)
                    << "\nreplay: BY_SEED=" << seed << " BY_FUZZ_PROGRAMS=1 " << BY_TEST_NAME
                    << ", or system_replay_" << BY_CONFIG_NAME << " PROGRAM --seed " << seed
                    << " [--shrink] [--trace FILE.vcd]";
    }
  }
  std::printf("system fuzzer on %s: %d programs (seeds %llu..%llu), %llu commands, %llu rejected "
              "as illegal, %llu accelerator cycles%s\n",
              BY_CONFIG_NAME, ran, static_cast<unsigned long long>(firstSeed),
              static_cast<unsigned long long>(firstSeed + ran - 1),
              static_cast<unsigned long long>(commands), static_cast<unsigned long long>(rejected),
              static_cast<unsigned long long>(cycles),
              ran < programs ? " (stopped after 3 failing programs)" : "");
  EXPECT_GE(ran, 1);
}

} // namespace
} // namespace by::test
