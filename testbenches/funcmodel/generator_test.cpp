// The program generator: determinism, programs that run on the model with exactly the
// intended rejections, the DRAM discipline it promises (checked by a recording DRAM, not by
// the generator's own bookkeeping), coverage of the ISA, the final dump, and text replay.
#include "fm_util.h"
#include "fuzzer/program_generator.h"
#include "hwspec/isa.h"
#include "seed.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace by;
using namespace by::funcmodel;
using namespace by::fuzzer;

namespace {

constexpr uint64_t kBase = 0x80000000ull;

/// DRAM that records every access: reads must hit the input region, writes the output or
/// dump region, and no byte may be written twice (so the order of DMA writes cannot matter).
class RecordingDram : public DramPort {
public:
  RecordingDram(const DramLayout& layout, uint64_t size)
      : layout_(layout), image_(kBase, size), writes_(size, 0) {}

  bool read(uint64_t addr, uint8_t* dst, size_t n) override {
    const bool ok = inside(layout_.input, addr, n);
    EXPECT_TRUE(ok) << "read outside the input region at 0x" << std::hex << addr;
    if (!ok)
      ++violations;
    return image_.read(addr, dst, n);
  }
  bool write(uint64_t addr, const uint8_t* src, size_t n) override {
    const bool ok = inside(layout_.output, addr, n) || inside(layout_.dump, addr, n);
    EXPECT_TRUE(ok) << "write outside the output/dump regions at 0x" << std::hex << addr;
    for (size_t k = 0; ok && k < n; ++k)
      if (writes_[addr - kBase + k]++ != 0) {
        ADD_FAILURE() << "byte 0x" << std::hex << addr + k << " written twice";
        ++violations;
        break;
      }
    if (!ok)
      ++violations;
    return image_.write(addr, src, n);
  }
  DramImage& image() { return image_; }
  int violations = 0;

private:
  static bool inside(const DramRegion& r, uint64_t addr, size_t n) {
    return addr >= r.base && addr + n <= r.end();
  }
  DramLayout layout_;
  DramImage image_;
  std::vector<uint8_t> writes_;
};

struct Fuzz {
  explicit Fuzz(const config::Config& c, GeneratorOptions o = {})
      : config(c), layout(ProgramGenerator::layoutAt(c, kBase, 64 * 1024, 256 * 1024)),
        generator(c, layout, o) {}
  uint64_t dramSize() const { return layout.dump.end() - kBase; }
  config::Config config;
  DramLayout layout;
  ProgramGenerator generator;
};

/// Fills the input region with a deterministic pattern (as a system test would).
void fillInput(DramImage& image, const DramRegion& input, uint64_t seed) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (uint64_t a = input.base; a < input.end(); ++a) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    image.at(a) = static_cast<uint8_t>(x);
  }
}

struct RunStats {
  std::map<int, int> rejected; // error code -> count
  std::map<std::string, int> names;
  int nonZeroDeterministicReads = 0;
};

/// Runs the program, checking every result against the generator's expectations.
RunStats runChecked(FuncModel& model, const GeneratedProgram& g) {
  RunStats stats;
  const int unpaired = hw::isa::errorCode("UNPAIRED");
  for (size_t i = 0; i < g.program.size(); ++i) {
    const Instruction& in = g.program[i];
    const ExecResult r = model.execute(in);
    SCOPED_TRACE("instruction " + std::to_string(i) + ": " + formatInstruction(in) + " # " +
                 g.comments[i]);
    ++stats.names[instructionName(in)];
    // A PRELOAD meant to dangle is accepted; the next instruction reports its rejection.
    const bool dangling = g.expectedError[i] == unpaired && instructionName(in) == "PRELOAD";
    EXPECT_EQ(r.error, dangling ? 0 : g.expectedError[i]);
    if (r.error != 0)
      ++stats.rejected[r.error];
    const bool previousDangles = i > 0 && g.expectedError[i - 1] == unpaired &&
                                 instructionName(g.program[i - 1]) == "PRELOAD";
    EXPECT_EQ(r.preloadRejected, previousDangles);
    if (r.preloadRejected)
      ++stats.rejected[unpaired];
    if (r.hasRd && r.rdDeterministic && r.rd != 0)
      ++stats.nonZeroDeterministicReads;
  }
  return stats;
}

/// The final dump in DRAM equals the model's local memories.
void expectDumpMatches(const FuncModel& model, const DramImage& image, const ProgramGenerator& g) {
  const ModelParams& p = model.params();
  test::Machine reader; // only for its byte decoder
  auto element = [&](uint64_t addr, int bytes) {
    uint64_t v = 0;
    for (int b = 0; b < bytes; ++b)
      v |= uint64_t{image.at(addr + b)} << (8 * b);
    const int bits = 8 * bytes;
    if (bits < 64 && ((v >> (bits - 1)) & 1))
      v |= ~((uint64_t{1} << bits) - 1);
    return static_cast<int64_t>(v);
  };
  for (int r = 0; r < p.spRows; ++r)
    for (int e = 0; e < p.dim; ++e)
      ASSERT_EQ(element(g.spDumpAddr(r) + uint64_t(e) * p.inputBytes, p.inputBytes), model.sp(r, e))
          << "SP row " << r;
  for (int r = 0; r < p.accRows; ++r)
    for (int e = 0; e < p.dim; ++e)
      ASSERT_EQ(element(g.accDumpAddr(r) + uint64_t(e) * p.accBytes, p.accBytes), model.acc(r, e))
          << "ACC row " << r;
}

} // namespace

TEST(FuncModelGenerator, SameSeedSameProgram) {
  Fuzz f(test::shippedConfig("tiny"));
  const uint64_t seed = test::testSeed(0x5eed0001, "FuncModelGenerator.SameSeedSameProgram");
  const GeneratedProgram a = f.generator.generate(seed);
  const GeneratedProgram b = f.generator.generate(seed);
  EXPECT_EQ(a.program, b.program);
  EXPECT_EQ(a.expectedError, b.expectedError);
  EXPECT_EQ(a.comments, b.comments);
  EXPECT_NE(a.program, f.generator.generate(seed + 1).program);
  // A fresh generator gives the same program too (no hidden state).
  Fuzz g(test::shippedConfig("tiny"));
  EXPECT_EQ(g.generator.generate(seed).program, a.program);
}

class FuncModelGeneratorRun : public ::testing::TestWithParam<std::string> {};

TEST_P(FuncModelGeneratorRun, ProgramsRunWithOnlyTheIntendedRejections) {
  GeneratorOptions o;
  o.operations = 300;
  o.illegalFraction = 0.08;
  o.gemminiAddressFlags = GetParam() == "tiles2x2";
  Fuzz f(test::shippedConfig(GetParam()), o);
  const uint64_t first = test::testSeed(0x5eed1000, "FuncModelGeneratorRun/" + GetParam());
  RunStats total;
  for (uint64_t seed = first; seed < first + 12; ++seed) {
    SCOPED_TRACE("generator seed " + std::to_string(seed));
    const GeneratedProgram g = f.generator.generate(seed);
    RecordingDram dram(f.layout, f.dramSize());
    fillInput(dram.image(), f.layout.input, seed);
    FuncModel model(f.config, dram);
    const RunStats s = runChecked(model, g);
    EXPECT_EQ(dram.violations, 0);
    expectDumpMatches(model, dram.image(), f.generator);
    EXPECT_FALSE(model.state().preload.has_value());
    for (const auto& [k, v] : s.rejected)
      total.rejected[k] += v;
    for (const auto& [k, v] : s.names)
      total.names[k] += v;
    total.nonZeroDeterministicReads += s.nonZeroDeterministicReads;
    if (HasFatalFailure() || HasNonfatalFailure())
      return;
  }
  // Every error class was exercised, and every command.
  for (const hw::isa::ErrorCode& e : hw::isa::errorCodes()) {
    if (e.code != 0) {
      EXPECT_GT(total.rejected[e.code], 0) << e.name;
    }
  }
  // DECOMPRESS exists only with compression.boveda.on_chip (UNKNOWN_FUNCT elsewhere).
  const bool onChip = f.config.boveda.enabled && f.config.boveda.onChip;
  // LOOP_WS and its configuration exist only with loops.ws, LOOP_CONV_WS with loops.conv.
  for (const hw::isa::Command& c : hw::isa::commands())
    if ((c.funct != hw::isa::kDecompress || onChip) &&
        (c.funct != hw::isa::kConfigTable || f.config.activations.table) &&
        (c.queue != hw::isa::Queue::Loop || f.config.loops.ws) &&
        (c.queue != hw::isa::Queue::LoopConv || f.config.loops.conv)) {
      EXPECT_GT(total.names[c.name], 0) << c.name;
    }
  EXPECT_GT(total.nonZeroDeterministicReads, 0);
}

INSTANTIATE_TEST_SUITE_P(Configs, FuncModelGeneratorRun,
                         ::testing::Values("tiny", "tiny16", "tiny64", "tiles2x2", "default",
                                           "large32"));

// The array-level features the generator promises to exercise, seen in the model's state
// transitions of one long program.
TEST(FuncModelGenerator, ExercisesTheIsa) {
  GeneratorOptions o;
  o.operations = 1000;
  o.illegalFraction = 0;
  Fuzz f(test::shippedConfig("tiny"), o);
  const uint64_t seed = test::testSeed(0x5eed2000, "FuncModelGenerator.ExercisesTheIsa");
  const GeneratedProgram g = f.generator.generate(seed);
  RecordingDram dram(f.layout, f.dramSize());
  fillInput(dram.image(), f.layout.input, seed);
  FuncModel model(f.config, dram);
  std::set<std::string> seen;
  for (const Instruction& in : g.program) {
    const ArchState before = model.state();
    const ExecResult r = model.execute(in);
    ASSERT_TRUE(r.accepted) << formatInstruction(in);
    const ArchState& s = model.state();
    const std::string name = instructionName(in);
    if (name == "MVOUT") {
      seen.insert(s.st.pool.pooling() ? "pool" : s.st.pool.strided() ? "strided" : "plain");
      if (s.st.pool.pooling() && (s.st.pool.upad || s.st.pool.lpad))
        seen.insert("pool padding");
    }
    if (name == "COMPUTE_ACCUMULATED")
      seen.insert(s.ex.dataflow == 1 ? "ws accumulated" : "os accumulated");
    if (name == "COMPUTE_PRELOADED" && s.ex.dataflow == 0 && !s.array.valid)
      ADD_FAILURE() << "array not valid after a compute";
    if (name == "COMPUTE_PRELOADED" || name == "COMPUTE_ACCUMULATED") {
      if (s.ex.dataflow == 0 &&
          std::all_of(s.array.p.begin(), s.array.p.end(), [](int64_t v) { return v == 0; }))
        seen.insert("os result written");
      if (s.ex.dataflow == 0 &&
          std::any_of(s.array.p.begin(), s.array.p.end(), [](int64_t v) { return v != 0; }))
        seen.insert("os accumulation pending");
      if (s.ex.cStride > 1 || s.ex.aStride > 1)
        seen.insert("operand strides");
    }
    if (name == "CONFIG_EX" && before.ex.dataflow != s.ex.dataflow)
      seen.insert("dataflow switch");
    if (name == "MVIN" || name == "MVIN2" || name == "MVIN3") {
      const int ch = name == "MVIN" ? 0 : name == "MVIN2" ? 1 : 2;
      if (s.ld[ch].stride == 0)
        seen.insert("mvin stride 0");
      if (s.ld[ch].shrink)
        seen.insert("mvin shrink");
      if (in.rs1 == 0)
        seen.insert("zero fill");
    }
    if (name == "CONFIG_ST" && s.st.accScale() != s.st.accScale())
      seen.insert("NaN scale");
    if ((name == "LOOP_CONV_WS" || name == "LOOP_CONV_OS") &&
        hw::isa::command("LOOP_CONV_WS").rs1Field("depthwise").extract(in.rs1))
      seen.insert("depthwise loop");
  }
  for (const char* want :
       {"pool", "pool padding", "strided", "plain", "ws accumulated", "os accumulated",
        "os result written", "os accumulation pending", "operand strides", "dataflow switch",
        "mvin stride 0", "mvin shrink", "zero fill", "NaN scale", "depthwise loop"})
    EXPECT_TRUE(seen.count(want)) << want;
}

TEST(FuncModelGenerator, TextReplayGivesTheSameFinalState) {
  Fuzz f(test::shippedConfig("tiny"));
  const uint64_t seed = test::testSeed(0x5eed3000, "FuncModelGenerator.TextReplay");
  const GeneratedProgram g = f.generator.generate(seed);
  const std::string text = formatProgram(g.program, g.comments);
  const Program replay = parseProgram(text);
  ASSERT_EQ(replay, g.program);
  DramImage d1(kBase, f.dramSize()), d2(kBase, f.dramSize());
  fillInput(d1, f.layout.input, seed);
  fillInput(d2, f.layout.input, seed);
  FuncModel m1(f.config, d1), m2(f.config, d2);
  for (size_t i = 0; i < g.program.size(); ++i) {
    m1.execute(g.program[i]);
    m2.execute(replay[i]);
  }
  EXPECT_TRUE(m1.state() == m2.state());
  EXPECT_EQ(m1.error(), m2.error());
  EXPECT_TRUE(d1.bytes() == d2.bytes());
}

TEST(FuncModelGenerator, RejectsBadLayouts) {
  const config::Config c = test::shippedConfig("tiny");
  DramLayout l = ProgramGenerator::layoutAt(c, kBase, 4096, 4096);
  EXPECT_NO_THROW(ProgramGenerator(c, l));
  DramLayout overlap = l;
  overlap.output.base = l.input.base + 100;
  EXPECT_THROW(ProgramGenerator(c, overlap), std::invalid_argument);
  DramLayout small = l;
  small.dump.size = ProgramGenerator::dumpBytes(c) - 1;
  EXPECT_THROW(ProgramGenerator(c, small), std::invalid_argument);
  DramLayout zero = l;
  zero.input.base = 0;
  EXPECT_THROW(ProgramGenerator(c, zero), std::invalid_argument);
  DramLayout high = l;
  high.output.base = 0xfffff000;
  high.output.size = 0x2000;
  EXPECT_THROW(ProgramGenerator(c, high), std::invalid_argument);
  EXPECT_EQ(ProgramGenerator::dumpBytes(c), 1024u * 4 + 256u * 16);
}
