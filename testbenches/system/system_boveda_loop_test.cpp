// The loop unrollers moving Boveda-compressed operands (label boveda, system; docs/isa.md,
// "LOOP_WS", a/b/c_compressed, and "LOOP_CONV_WS", weights_compressed): A and B read as codec
// blocks named by pointer tables, C written as compressed blocks with their entries, and a
// convolution's weights read band by band, against CPU references and the codec; illegal
// combinations are refused. Every program also runs on the functional model and every DRAM
// byte, the error registers and the DMA byte counters are compared (system_run.h).
#include "boveda_system_test.h"
#include "conv_loop_case.h"
#include "funcmodel/encode.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

#include <algorithm>

namespace by::test {
namespace {

using namespace boveda_system;

constexpr uint64_t kBias = kRaw;             // D, int32, plain
constexpr uint64_t kCTable = kOut + 0x10000; // C's pointer entries

class BovedaLoop : public BovedaSystemTest {
protected:
  BovedaLoop() : BovedaSystemTest(29, "system boveda loop test data") {}

  void SetUp() override {
    if (!p.loopWs)
      GTEST_SKIP() << "config has no LOOP_WS (loops.ws)";
  }

  fm::Instruction configLd(int channel, bool compressed, uint64_t stride, bool shrink = false) {
    fm::ConfigLdArgs a;
    a.channel = channel;
    a.compressed = compressed;
    a.stride = stride;
    a.shrink = shrink;
    return fm::configLd(a);
  }
  void loop(const fm::LoopWsArgs& l) {
    for (const fm::Instruction& i : fm::loopWs(l))
      prog.push_back(i);
  }

  /// Runs a conv_loop_case program (RTL against the model) and checks its output against the
  /// direct CPU convolution (a compressed output: every block against the codec's stream).
  void runConv(const std::string& name, const ConvLoopCase& c) {
    SCOPED_TRACE(c.describe());
    const ConvLoopProgram cp = buildConvLoop(p, c, kBase, kSize, rng.next());
    prog = cp.program;
    image = cp.image;
    const RunOutcome r = run(name);
    EXPECT_EQ(r.modelErrors.count, 0u);
    if (c.compressedOutput) {
      EXPECT_EQ(checkCompressedOutput(p, c, cp, r.dram, kBase), "");
      return;
    }
    for (size_t i = 0; i < cp.want.size(); ++i)
      ASSERT_EQ(getElem(r.dram, cp.output + i * p.inputBytes, p.inputBytes), cp.want[i])
          << "output element " << i;
  }

  int mbl() const { return p.maxBlockLen; }
  /// Column groups of `tiles` tiles: one pointer entry each.
  int groups(int tiles) const { return (tiles + mbl() - 1) / mbl(); }
};

// C = saturate(D + A x B) in one LOOP_WS with A, B and C compressed: A's blocks are its I
// tiles' rows x MAX_BLOCK_LEN K tiles, B's a K tile's rows x MAX_BLOCK_LEN J tiles, each named
// by the entry (row x stride + group) of its table; C's blocks are written back to back in
// the loop's MVOUT order (J groups outer, I tiles inner) with their entries. Two shapes: K
// over two groups of A (the last padded), J over two groups of B and C.
TEST_F(BovedaLoop, LoopWsWithCompressedOperandsMatchesTheReference) {
  struct Shape {
    int ti, tj, tk;
  };
  for (const Shape sh : {Shape{2, 3, mbl() + 2}, Shape{1, mbl() + 2, 2}}) {
    const int m = sh.ti * dim - 1, n = sh.tj * dim - (dim > 2 ? 2 : 1), kk = sh.tk * dim - 1;
    std::vector<int16_t> a(static_cast<size_t>(m * kk)), b(static_cast<size_t>(kk * n));
    for (auto& v : a) // post-ReLU activations: half zeros
      v = static_cast<int16_t>(rng.next() % 2 ? 0 : rng.next() % 40);
    for (auto& v : b) // small weights
      v = static_cast<int16_t>(static_cast<int64_t>(rng.next() % 15) - 7);
    std::vector<int64_t> d(static_cast<size_t>(m * n));
    for (size_t i = 0; i < d.size(); ++i) {
      d[i] = static_cast<int64_t>(rng.next() % 2001) - 1000;
      put32(kBias + 4 * i, static_cast<uint32_t>(d[i]));
    }
    // A's blocks (entry i * aGroups + group), then B's (k * bGroups + group), one stream.
    const int aGroups = groups(sh.tk), bGroups = groups(sh.tj), cGroups = groups(sh.tj);
    std::vector<Block> blocks;
    auto cut = [&](const std::vector<int16_t>& x, int ld, int r0, int rows, int c0, int cols) {
      Block blk{rows, cols, {}};
      for (int r = r0; r < r0 + rows; ++r)
        for (int c = c0; c < c0 + cols; ++c)
          blk.values.push_back(x[static_cast<size_t>(r * ld + c)]);
      return blk;
    };
    const int groupCols = mbl() * dim;
    for (int i = 0; i < sh.ti; ++i)
      for (int g = 0; g < aGroups; ++g)
        blocks.push_back(cut(a, kk, i * dim, std::min(dim, m - i * dim), g * groupCols,
                             std::min(groupCols, kk - g * groupCols)));
    const size_t bFirst = blocks.size();
    for (int k = 0; k < sh.tk; ++k)
      for (int g = 0; g < bGroups; ++g)
        blocks.push_back(cut(b, n, k * dim, std::min(dim, kk - k * dim), g * groupCols,
                             std::min(groupCols, n - g * groupCols)));
    writeCompressed(blocks);

    prog.clear();
    fm::ConfigExArgs ex;
    ex.dataflow = hw::kDataflowWS;
    prog.push_back(fm::configEx(ex));
    prog.push_back(configLd(0, true, kStream));
    prog.push_back(configLd(1, true, kStream));
    prog.push_back(configLd(2, false, static_cast<uint64_t>(n) * p.accBytes));
    fm::ConfigStArgs st;
    st.stride = static_cast<uint32_t>(kOut);
    st.compressed = true;
    prog.push_back(fm::configSt(st));
    fm::LoopWsArgs l;
    l.I = static_cast<uint32_t>(sh.ti), l.J = static_cast<uint32_t>(sh.tj);
    l.K = static_cast<uint32_t>(sh.tk);
    l.padI = static_cast<uint32_t>(sh.ti * dim - m);
    l.padJ = static_cast<uint32_t>(sh.tj * dim - n);
    l.padK = static_cast<uint32_t>(sh.tk * dim - kk);
    l.A = kTable, l.B = kTable + 8 * bFirst, l.D = kBias, l.C = kCTable;
    l.aStride = static_cast<uint64_t>(aGroups), l.bStride = static_cast<uint64_t>(bGroups);
    l.dStride = static_cast<uint64_t>(n), l.cStride = static_cast<uint64_t>(cGroups);
    l.exAccumulate = true;
    l.aCompressed = l.bCompressed = l.cCompressed = true;
    loop(l);
    const RunOutcome r = run("boveda_loop_ws_" + std::to_string(sh.ti) + "x" +
                             std::to_string(sh.tj) + "x" + std::to_string(sh.tk));
    ASSERT_EQ(r.modelErrors.count, 0u);

    // C's blocks against the codec's compress() of the reference values, in MVOUT order.
    uint32_t next = 0;
    for (int g = 0; g < cGroups; ++g)
      for (int i = 0; i < sh.ti; ++i) {
        const int rows = std::min(dim, m - i * dim), c0 = g * groupCols;
        const int cols = std::min(groupCols, n - c0);
        std::vector<int16_t> want;
        for (int y = i * dim; y < i * dim + rows; ++y)
          for (int x = c0; x < c0 + cols; ++x) {
            int64_t acc = d[static_cast<size_t>(y * n + x)];
            for (int z = 0; z < kk; ++z)
              acc +=
                  int64_t{a[static_cast<size_t>(y * kk + z)]} * b[static_cast<size_t>(z * n + x)];
            want.push_back(static_cast<int16_t>(golden::saturate(acc, p.inputWidth)));
          }
        const auto t = boveda::compress(format(rows * cols), want);
        const uint64_t entry = kCTable + 8 * static_cast<uint64_t>(i * cGroups + g);
        ASSERT_EQ(get32(r.dram, entry), next) << "C block (" << i << ", " << g << ")";
        ASSERT_EQ(get32(r.dram, entry + 4), t.numContainers())
            << "C block (" << i << ", " << g << ")";
        const uint64_t at = kOut + uint64_t{next} * (p.bovedaFormat.containerBits / 8);
        for (size_t w = 0; w < t.words.size(); ++w)
          ASSERT_EQ(get32(r.dram, at + 4 * w), t.words[w])
              << "C block (" << i << ", " << g << ") word " << w;
        next += static_cast<uint32_t>(t.numContainers());
      }
  }
}

// A compressed operand the channel does not move compressed (or the reverse), a compressed
// operand stored transposed, a compressed C with full_C: UNSUPPORTED, nothing issued; a legal
// loop on plain channels then runs (its C against the reference).
TEST_F(BovedaLoop, MismatchedCompressedOperandsAreRefused) {
  fm::LoopWsArgs ok;
  ok.A = kRaw, ok.B = kRaw + 0x100, ok.C = kOut;
  ok.aStride = ok.bStride = ok.cStride = static_cast<uint64_t>(dim);
  std::vector<int16_t> a(static_cast<size_t>(dim * dim)), b(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<int16_t>(rng.next() % 9), b[i] = static_cast<int16_t>(rng.next() % 5);
    put8(ok.A + i * p.inputBytes, static_cast<uint8_t>(a[i]));
    put8(ok.B + i * p.inputBytes, static_cast<uint8_t>(b[i]));
  }
  auto plainChannels = [&] {
    prog.push_back(configLd(0, false, static_cast<uint64_t>(dim) * p.inputBytes));
    prog.push_back(configLd(1, false, static_cast<uint64_t>(dim) * p.inputBytes));
    fm::ConfigStArgs st;
    st.stride = static_cast<uint32_t>(dim * p.inputBytes);
    prog.push_back(fm::configSt(st));
  };
  fm::ConfigExArgs ex;
  ex.dataflow = hw::kDataflowWS;
  prog.push_back(fm::configEx(ex));
  plainChannels();
  uint32_t refused = 0;
  auto bad = [&](const fm::LoopWsArgs& l) {
    loop(l);
    ++refused;
  };
  fm::LoopWsArgs l = ok;
  l.aCompressed = true; // channel 0 moves plain blocks
  bad(l);
  l = ok;
  l.cCompressed = true; // the store path writes plain rows
  bad(l);
  prog.push_back(configLd(1, true, kStream)); // channel 1 compressed, B not
  bad(ok);
  l = ok;
  l.bCompressed = true, l.bTranspose = true; // compressed and transposed
  prog.push_back(fm::configEx({1, 0, false, false, true, 1, hw::isa::kFloatOne, 0, 0, 1}));
  bad(l);
  prog.push_back(fm::configEx(ex));
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(kOut);
  st.compressed = true;
  prog.push_back(fm::configSt(st));
  l = ok;
  l.bCompressed = true, l.cCompressed = true, l.fullC = true; // a compressed MVOUT has no `full`
  bad(l);
  plainChannels();
  loop(ok);
  const RunOutcome r = run("boveda_loop_ws_refused");
  EXPECT_EQ(r.modelErrors.code, hw::isa::errorCode("UNSUPPORTED"));
  EXPECT_EQ(r.modelErrors.funct, hw::isa::kLoopWs);
  EXPECT_EQ(r.modelErrors.count, refused);
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      int64_t acc = 0;
      for (int z = 0; z < dim; ++z)
        acc += int64_t{a[static_cast<size_t>(i * dim + z)]} * b[static_cast<size_t>(z * dim + j)];
      ASSERT_EQ(
          getElem(r.dram, kOut + static_cast<uint64_t>((i * dim + j) * p.inputBytes), p.inputBytes),
          golden::saturate(acc, p.inputWidth))
          << "C[" << i << "][" << j << "]";
    }
}

// Convolutions through LOOP_CONV_WS with the weights compressed by the codec (DIM x DIM blocks:
// a DIM-row band of a tap, one output-channel block), against the direct CPU convolution of
// conv_loop_case: a 2x2 padded one whose input channels end inside a band, tiled over rows,
// input channels and output channels (tiles of 3 output blocks, the last 2); a strided 3x3 with
// two bands per tap (the last partial) and rotated weights; 1x1 over two images with the
// weights kept over the bands.
TEST_F(BovedaLoop, LoopConvWsWithCompressedWeightsMatchesTheReference) {
  if (!p.loopConv)
    GTEST_SKIP() << "config has no LOOP_CONV_WS (loops.conv)";
  ConvLoopCase c;
  c.compressedWeights = true;
  c.inRows = c.inCols = 6, c.kernel = 2, c.inCh = 2 * dim + 1, c.outCh = mbl() * dim + 3;
  c.tileRows = 1, c.tileKch = dim, c.tileOch = 3 * dim, c.relu = true;
  runConv("boveda_loop_conv_2x2_tiles", c);
  c = ConvLoopCase{};
  c.compressedWeights = true;
  c.stride = 2, c.inRows = 7, c.inCols = 6, c.inCh = 2 * dim - 1, c.outCh = dim + 1;
  c.wrot180 = true;
  runConv("boveda_loop_conv_stride2_wrot180", c);
  c = ConvLoopCase{};
  c.compressedWeights = true;
  c.kernel = 1, c.pad = 0, c.batch = 2, c.inCh = dim + 2, c.outCh = 5, c.tileRows = 1, c.keep = 2;
  runConv("boveda_loop_conv_1x1_kept", c);
}

// Convolutions through LOOP_CONV_WS reading their input and/or writing their output as
// compressed activation tensors (one block per image row and channel group), against the
// direct CPU convolution (the input blocks made by the codec, every output block compared
// with the codec's stream of the expected values): a 1x1 over two input-channel groups tiled
// on them, with compressed weights and output; a padded 2x2 writing two output groups; a
// strided 3x3 over two images reading compressed rows.
TEST_F(BovedaLoop, LoopConvWsMovesCompressedActivations) {
  if (!p.loopConv)
    GTEST_SKIP() << "config has no LOOP_CONV_WS (loops.conv)";
  const int group = mbl() * row; // channels of an activation block
  ConvLoopCase c;
  c.kernel = 1, c.pad = 0, c.inRows = 3, c.inCols = 5, c.inCh = group + 6, c.outCh = dim + 3;
  c.tileRows = 1, c.tileKch = group, c.relu = true;
  c.compressedInput = c.compressedOutput = c.compressedWeights = true;
  runConv("boveda_loop_conv_1x1_all_compressed", c);
  c = ConvLoopCase{};
  c.kernel = 2, c.inRows = 4, c.inCols = 4, c.outCh = group + 3, c.tileRows = 1;
  c.compressedOutput = true;
  runConv("boveda_loop_conv_2x2_output_groups", c);
  c = ConvLoopCase{};
  c.stride = 2, c.inRows = 7, c.inCols = 7, c.batch = 2, c.inCh = dim + 1, c.outCh = dim;
  c.compressedInput = true;
  runConv("boveda_loop_conv_stride2_input", c);
}

// A LOOP_CONV_WS whose compressed flags are not its channels' state (weights: channel 1, input:
// channel 0, output: the store path), compressed input rows that are not whole image rows, a
// compressed pooled output: UNSUPPORTED, nothing issued; the legal loop after each runs.
TEST_F(BovedaLoop, MismatchedConvLoopChannelsAreRefused) {
  if (!p.loopConv)
    GTEST_SKIP() << "config has no LOOP_CONV_WS (loops.conv)";
  ConvLoopCase c;
  c.compressedWeights = true;
  const ConvLoopProgram cp = buildConvLoop(p, c, kBase, kSize, rng.next());
  // The case's set-up (CONFIG_EX, CONFIG_LD 0..2, CONFIG_ST) and its one legal loop (CONFIG_1..6,
  // LOOP_CONV_WS).
  const fm::Program setup(cp.program.begin(), cp.program.end() - 7);
  const fm::Program legal(cp.program.end() - 7, cp.program.end());
  const hw::isa::Command& cmd = hw::isa::command("LOOP_CONV_WS");
  auto withRs2 = [&](const char* name, uint64_t v) { // the legal loop with one rs2 field set
    fm::Program l = legal;
    l.back().rs2 =
        (l.back().rs2 & ~cmd.rs2Field(name).place(~uint64_t{0})) | cmd.rs2Field(name).place(v);
    return l;
  };
  fm::ConfigLdArgs compressedInput;
  compressedInput.channel = 0, compressedInput.compressed = true, compressedInput.stride = kStream;
  fm::ConfigStArgs compressedStore;
  compressedStore.compressed = true, compressedStore.stride = static_cast<uint32_t>(kOut);
  // A window whose real columns stop one short of the image row (its right padding 2, not 1).
  fm::Program shortRows = withRs2("input_compressed", 1);
  const hw::isa::Field rpad = hw::isa::command("LOOP_CONV_WS_CONFIG_3").rs2Field("rpad");
  shortRows[2].rs2 = (shortRows[2].rs2 & ~rpad.place(~uint64_t{0})) | rpad.place(2);
  fm::Program pooled = withRs2("output_compressed", 1);
  pooled.back().rs2 &= ~cmd.rs2Field("no_pool").place(1);
  struct Bad {
    const char* what;
    fm::Program before, loop, after; // the state the loop meets, then the case's again
  };
  const std::vector<Bad> bad = {
      {"weights_compressed on a compressed channel cleared",
       {},
       withRs2("weights_compressed", 0),
       {}},
      {"input_compressed on a plain channel 0", {}, withRs2("input_compressed", 1), {}},
      {"output_compressed with plain MVOUTs", {}, withRs2("output_compressed", 1), {}},
      {"a plain input on a compressed channel 0",
       {fm::configLd(compressedInput)},
       legal,
       {setup[1]}},
      {"compressed input rows that are not whole",
       {fm::configLd(compressedInput)},
       shortRows,
       {setup[1]}},
      {"a compressed pooled output", {fm::configSt(compressedStore)}, pooled, {setup[4]}}};
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    image = cp.image;
    prog = setup;
    for (const fm::Program* part : {&b.before, &b.loop, &b.after, &legal})
      prog.insert(prog.end(), part->begin(), part->end());
    const RunOutcome r = run("boveda_loop_conv_refused");
    EXPECT_EQ(r.modelErrors.code, hw::isa::errorCode("UNSUPPORTED"));
    EXPECT_EQ(r.modelErrors.funct, hw::isa::kLoopConvWs);
    EXPECT_EQ(r.modelErrors.count, 1u);
    for (size_t i = 0; i < cp.want.size(); ++i)
      ASSERT_EQ(getElem(r.dram, cp.output + i * p.inputBytes, p.inputBytes), cp.want[i])
          << "output element " << i;
  }
}

} // namespace
} // namespace by::test
