// by_boveda_compressor against the C++ reference codec: every block's output words must equal
// compress() of the block bit for bit, with out_last_o on exactly the block's last word.
// Blocks run back to back under random valid/ready stalls, then at full speed.
#include <gtest/gtest.h>
#include <memory>
#include <random>

#include BY_MODEL_HEADER
#include "boveda_blocks.h"
#include "seed.h"
#include "verilator_ports.h"

using namespace by;

namespace {

struct Group {
  golden::BitVec data;
  int count;
  bool last;
};

class CompressorBench {
public:
  explicit CompressorBench(const hw::BovedaHwParams& p)
      : p_(p), ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<BY_MODEL>(ctx_.get(), "compressor")) {
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~CompressorBench() { dut_->final(); }

  /// Feeds the blocks; valid and ready are each high with the given percentage. Returns the
  /// cycles taken, or -1 after a failure.
  long run(const std::vector<std::vector<int16_t>>& blocks, int inPercent, int outPercent,
           std::mt19937_64& rng) {
    std::vector<Group> groups;
    std::vector<std::vector<golden::BitVec>> expected;
    for (const auto& b : blocks) {
      for (size_t g = 0; g < b.size(); g += static_cast<size_t>(p_.groupSize)) {
        const int n = static_cast<int>(std::min<size_t>(p_.groupSize, b.size() - g));
        golden::BitVec v(p_.groupSize * p_.elementBits);
        for (int i = 0; i < p_.groupSize; ++i) {
          // Lanes beyond the count carry junk: the compressor must ignore them.
          const uint64_t x = i < n ? static_cast<uint16_t>(b[g + static_cast<size_t>(i)]) : rng();
          v.set(i * p_.elementBits, p_.elementBits, x);
        }
        groups.push_back({v, n, g + static_cast<size_t>(n) == b.size()});
      }
      expected.push_back(test::referenceWords(p_, b));
    }
    size_t nextGroup = 0, block = 0, word = 0;
    long cycle = 0, idle = 0;
    bool held = false;
    golden::BitVec heldData;
    std::uniform_int_distribution<int> pct(0, 99);
    while (block < blocks.size()) {
      const bool offer = nextGroup < groups.size() && pct(rng) < inPercent;
      dut_->in_valid_i = offer;
      if (offer) {
        test::setPort(dut_->in_data_i, groups[nextGroup].data);
        dut_->in_count_i = static_cast<uint32_t>(groups[nextGroup].count);
        dut_->in_last_i = groups[nextGroup].last;
      }
      dut_->out_ready_i = pct(rng) < outPercent;
      dut_->eval();
      const golden::BitVec out = test::getPort(dut_->out_data_o, p_.streamWidth);
      if (held && (!dut_->out_valid_o || out != heldData)) {
        ADD_FAILURE() << "cycle " << cycle << ": output word changed or dropped while stalled";
        return -1;
      }
      const bool inFire = offer && dut_->in_ready_o;
      const bool outFire = dut_->out_valid_o && dut_->out_ready_i;
      held = dut_->out_valid_o && !dut_->out_ready_i;
      heldData = out;
      if (outFire) {
        const auto& want = expected[block];
        const bool last = word + 1 == want.size();
        if (out != want[word] || dut_->out_last_o != last) {
          ADD_FAILURE() << "block " << block << " (" << blocks[block].size() << " values) word "
                        << word << " of " << want.size() << ": rtl " << out.hex() << " last "
                        << int(dut_->out_last_o) << ", reference " << want[word].hex();
          return -1;
        }
        if (last) {
          ++block;
          word = 0;
        } else {
          ++word;
        }
      }
      nextGroup += inFire;
      idle = inFire || outFire ? 0 : idle + 1;
      if (idle > 1000) {
        ADD_FAILURE() << "no progress for 1000 cycles at block " << block << ", word " << word;
        return -1;
      }
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      ++cycle;
    }
    EXPECT_EQ(nextGroup, groups.size()) << "groups left over after the last block";
    return cycle;
  }

private:
  hw::BovedaHwParams p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BY_MODEL> dut_;
};

} // namespace

TEST(BovedaCompressorRtl, MatchesReferenceCodecUnderStalls) {
  const hw::BovedaHwParams p = test::builtBovedaParams();
  std::mt19937_64 rng(
      test::testSeed(7001, std::string("boveda compressor ") + test::bovedaVariant()));
  const auto blocks = test::testBlocks(p, rng, 600);
  CompressorBench bench(p);
  EXPECT_GT(bench.run(blocks, 70, 60, rng), 0);
}

TEST(BovedaCompressorRtl, FullSpeed) {
  const hw::BovedaHwParams p = test::builtBovedaParams();
  std::mt19937_64 rng(
      test::testSeed(7002, std::string("boveda compressor full speed ") + test::bovedaVariant()));
  const auto blocks = test::testBlocks(p, rng, 200);
  long values = 0, groups = 0;
  for (const auto& b : blocks) {
    values += static_cast<long>(b.size());
    groups += static_cast<long>((b.size() + static_cast<size_t>(p.groupSize) - 1) /
                                static_cast<size_t>(p.groupSize));
  }
  CompressorBench bench(p);
  const long cycles = bench.run(blocks, 100, 100, rng);
  ASSERT_GT(cycles, 0);
  std::printf("[boveda] compressor %s: %ld values in %ld groups, %ld cycles (%.2f cycles/group)\n",
              test::bovedaVariant(), values, groups, cycles, double(cycles) / double(groups));
}
