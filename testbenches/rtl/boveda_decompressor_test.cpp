// by_boveda_decompressor against the C++ reference codec: fed the words of compress() of each
// block (announced with its length), it must return the block's values group by group, with
// out_last_o on the last group and one done pulse per block without error. Streams with a
// bad width code or non-zero padding must be flagged.
#include <gtest/gtest.h>
#include <memory>
#include <random>

#include BY_MODEL_HEADER
#include "boveda_blocks.h"
#include "seed.h"
#include "verilator_ports.h"

using namespace by;

namespace {

struct Result {
  long cycles = -1;
  std::vector<bool> errors; // done_error_o per block
};

class DecompressorBench {
public:
  explicit DecompressorBench(const hw::BovedaHwParams& p)
      : p_(p), ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<BY_MODEL>(ctx_.get(), "decompressor")) {
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~DecompressorBench() { dut_->final(); }

  /// Streams `words` (the blocks' streams back to back) and announces the blocks' lengths;
  /// checks every group against `blocks`.
  /// `blockWords[b]` is the number of words announced for block b; `unchecked[b]` skips the
  /// value check of a malformed block (its values are unspecified).
  Result run(const std::vector<std::vector<int16_t>>& blocks,
             const std::vector<golden::BitVec>& words, const std::vector<size_t>& blockWords,
             int inPercent, int outPercent, std::mt19937_64& rng,
             const std::vector<bool>& unchecked = {}) {
    Result r;
    size_t announced = 0, nextWord = 0, block = 0, value = 0, done = 0;
    long cycle = 0, idle = 0;
    bool held = false;
    golden::BitVec heldData;
    std::uniform_int_distribution<int> pct(0, 99);
    const int g = p_.groupSize, w = p_.elementBits;
    while (done < blocks.size()) {
      const bool announce = announced < blocks.size() && pct(rng) < inPercent;
      dut_->blk_valid_i = announce;
      dut_->blk_len_i = announce ? static_cast<uint32_t>(blocks[announced].size()) : 0;
      dut_->blk_words_i = announce ? static_cast<uint32_t>(blockWords[announced]) : 0;
      const bool offer = nextWord < words.size() && pct(rng) < inPercent;
      dut_->in_valid_i = offer;
      if (offer)
        test::setPort(dut_->in_data_i, words[nextWord]);
      dut_->out_ready_i = pct(rng) < outPercent;
      dut_->eval();
      const golden::BitVec out = test::getPort(dut_->out_data_o, g * w);
      if (held && (!dut_->out_valid_o || out != heldData)) {
        ADD_FAILURE() << "cycle " << cycle << ": output group changed or dropped while stalled";
        return r;
      }
      held = dut_->out_valid_o && !dut_->out_ready_i;
      heldData = out;
      const bool outFire = dut_->out_valid_o && dut_->out_ready_i;
      if (outFire) {
        if (block >= blocks.size()) {
          ADD_FAILURE() << "a group after the last block";
          return r;
        }
        const auto& b = blocks[block];
        const size_t n = std::min<size_t>(static_cast<size_t>(g), b.size() - value);
        const bool last = value + n == b.size();
        bool ok = dut_->out_count_o == n && dut_->out_last_o == last;
        const bool check = unchecked.empty() || !unchecked[block];
        for (int i = 0; i < g && ok && check; ++i) {
          const int64_t want = static_cast<size_t>(i) < n ? b[value + static_cast<size_t>(i)] : 0;
          ok = out.getSigned(i * w, w) == want;
        }
        if (!ok) {
          ADD_FAILURE() << "block " << block << " (" << b.size() << " values), group at value "
                        << value << ": rtl " << out.hex() << " count " << int(dut_->out_count_o)
                        << " last " << int(dut_->out_last_o) << "; expected count " << n << " last "
                        << last;
          return r;
        }
        value += n;
        if (last) {
          ++block;
          value = 0;
        }
      }
      if (dut_->done_valid_o) {
        if (done >= block) {
          ADD_FAILURE() << "block " << done << " reported done before its last group left";
          return r;
        }
        r.errors.push_back(dut_->done_error_o);
        ++done;
      }
      const bool inFire = offer && dut_->in_ready_o;
      const bool blkFire = announce && dut_->blk_ready_o;
      nextWord += inFire;
      announced += blkFire;
      idle = inFire || outFire || blkFire || dut_->done_valid_o ? 0 : idle + 1;
      if (idle > 1000) {
        ADD_FAILURE() << "no progress for 1000 cycles: block " << block << ", word " << nextWord
                      << " of " << words.size();
        return r;
      }
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      ++cycle;
    }
    EXPECT_EQ(nextWord, words.size()) << "words left over after the last block";
    r.cycles = cycle;
    return r;
  }

private:
  hw::BovedaHwParams p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
};

struct Stream {
  std::vector<golden::BitVec> words;
  std::vector<size_t> blockWords;
  void append(std::vector<golden::BitVec> ws) {
    blockWords.push_back(ws.size());
    for (auto& w : ws)
      words.push_back(w);
  }
};

Stream streamOf(const hw::BovedaHwParams& p, const std::vector<std::vector<int16_t>>& blocks) {
  Stream s;
  for (const auto& b : blocks)
    s.append(test::referenceWords(p, b));
  return s;
}

} // namespace

TEST(BovedaDecompressorRtl, MatchesReferenceCodecUnderStalls) {
  const hw::BovedaHwParams p = test::builtBovedaParams();
  std::mt19937_64 rng(
      test::testSeed(7101, std::string("boveda decompressor ") + test::bovedaVariant()));
  const auto blocks = test::testBlocks(p, rng, 600);
  DecompressorBench bench(p);
  const Stream s = streamOf(p, blocks);
  const Result r = bench.run(blocks, s.words, s.blockWords, 70, 60, rng);
  ASSERT_GT(r.cycles, 0);
  for (size_t b = 0; b < r.errors.size(); ++b)
    EXPECT_FALSE(r.errors[b]) << "block " << b << " flagged as malformed";
}

TEST(BovedaDecompressorRtl, FullSpeed) {
  const hw::BovedaHwParams p = test::builtBovedaParams();
  std::mt19937_64 rng(
      test::testSeed(7102, std::string("boveda decompressor full speed ") + test::bovedaVariant()));
  const auto blocks = test::testBlocks(p, rng, 200);
  const Stream s = streamOf(p, blocks);
  const auto& words = s.words;
  long groups = 0;
  for (const auto& b : blocks)
    groups += static_cast<long>((b.size() + static_cast<size_t>(p.groupSize) - 1) /
                                static_cast<size_t>(p.groupSize));
  DecompressorBench bench(p);
  const Result r = bench.run(blocks, words, s.blockWords, 100, 100, rng);
  ASSERT_GT(r.cycles, 0);
  std::printf("[boveda] decompressor %s: %zu words, %ld groups, %ld cycles (%.2f cycles/word)\n",
              test::bovedaVariant(), words.size(), groups, r.cycles,
              double(r.cycles) / double(words.size()));
}

// Malformed blocks between well-formed ones: a width code above ElemWidth, a 1 in the
// padding, a stream cut one container short, and one with a trailing zero container. Each
// must end after exactly its announced words, be flagged, and leave the blocks after it
// intact.
TEST(BovedaDecompressorRtl, FlagsMalformedBlocksAndStaysInStep) {
  const hw::BovedaHwParams p = test::builtBovedaParams();
  const int g = p.groupSize, w = p.elementBits;
  const size_t perContainer = static_cast<size_t>(p.containerBits / p.streamWidth);
  const std::vector<int16_t> zeros(static_cast<size_t>(g), 0);
  std::vector<int16_t> wide(static_cast<size_t>(8 * g), 0);
  for (size_t i = 0; i < wide.size(); ++i)
    wide[i] = static_cast<int16_t>(i % 2 ? (1 << (w - 1)) - 1 : -(1 << (w - 1)));
  const std::vector<std::vector<int16_t>> blocks = {
      zeros, zeros, zeros, std::vector<int16_t>{1}, zeros, wide, zeros, wide, zeros};
  Stream s;
  s.append(test::referenceWords(p, blocks[0]));
  // Block 1: code ElemWidth+1 is read as ElemWidth: g zero values of ElemWidth bits, padded.
  {
    const int bits = p.headerBits + (p.zeroAware ? g + w : g * w);
    const int containers = (bits + p.containerBits - 1) / p.containerBits;
    std::vector<golden::BitVec> bad(static_cast<size_t>(containers) * perContainer,
                                    golden::BitVec(p.streamWidth));
    bad[0].set(0, p.headerBits, static_cast<uint64_t>(w + 1));
    if (p.zeroAware)
      bad[0].set(p.headerBits, 1, 1); // one "non-zero" lane (stored as 0)
    s.append(bad);
  }
  s.append(test::referenceWords(p, blocks[2]));
  // Block 3: one value 1 (header + a few bits), then a 1 in the last padding bit.
  {
    auto padded = test::referenceWords(p, blocks[3]);
    padded.back().set(p.streamWidth - 1, 1, 1);
    s.append(padded);
  }
  s.append(test::referenceWords(p, blocks[4]));
  // Block 5: its last container missing (the full-width groups span several containers).
  {
    auto cut = test::referenceWords(p, blocks[5]);
    ASSERT_GT(cut.size(), perContainer);
    cut.resize(cut.size() - perContainer);
    s.append(cut);
  }
  s.append(test::referenceWords(p, blocks[6]));
  // Block 7: one zero container too many.
  {
    auto longer = test::referenceWords(p, blocks[7]);
    longer.resize(longer.size() + perContainer, golden::BitVec(p.streamWidth));
    s.append(longer);
  }
  s.append(test::referenceWords(p, blocks[8]));
  std::mt19937_64 rng(test::testSeed(7103, "boveda decompressor malformed streams"));
  DecompressorBench bench(p);
  const Result r = bench.run(blocks, s.words, s.blockWords, 80, 80, rng,
                             {false, false, false, false, false, true, false, false, false});
  ASSERT_GT(r.cycles, 0);
  ASSERT_EQ(r.errors.size(), blocks.size());
  EXPECT_EQ(r.errors,
            (std::vector<bool>{false, true, false, true, false, true, false, true, false}));
}
