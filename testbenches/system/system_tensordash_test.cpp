// TensorDash on the whole accelerator (docs/tensordash.md, "In the accelerator"): OS
// accumulations over several K tiles with the scheduled operand at every sparsity from 0 to
// 100%, adversarial patterns, both scheduled sides and TensorDash switched off. Each run is
// checked three ways:
//  - the result against a CPU reference of docs/isa.md (and, by runAndCompare, every DRAM byte
//    against the functional model): TensorDash must be bit-exact with the dense array;
//  - MACS and MACS_SKIPPED against the C++ schedule model (tensordash::summarize) of the same
//    operand streams; these do not depend on the schedule's timing;
//  - the compute beats and window stalls against the model's cycles and stalls, which holds
//    exactly when the operand feeder kept the window full (SHORT_BEATS = 0). With the operands
//    resident and scratchpad words of at least lookahead+1 rows the feeder keeps up, and that is
//    asserted; with narrower words (td_w1) only that a beat retires at least one step and that
//    no short beat means the model's schedule.
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "hwspec/array_params.h"
#include "rtl_config.h"
#include "seed.h"
#include "system_run.h"
#include "tensordash/scheduler.h"
#include "tensordash/stats.h"

#include <cstdio>
#include <functional>
#include <gtest/gtest.h>

namespace by::test {
namespace {

namespace fm = funcmodel;

constexpr uint64_t kBase = 0x80000000ull;
constexpr uint64_t kA = kBase + 0x1000;  // A, row-major DIM x K
constexpr uint64_t kB = kBase + 0x9000;  // B, one lane-packed K tile after the other
constexpr uint64_t kD = kBase + 0x11000; // D, DIM x DIM
constexpr uint64_t kOut = kBase + 0x12000;
constexpr uint64_t kSize = 0x20000;

using Gen = std::function<int64_t(int row, int k)>; // a value of A[row][k] or B[k][col=row]

struct Case {
  std::string name;
  int kTiles = 3;     // K tiles of DIM*lanes reduction elements
  int lastCols = 0;   // elements of the last K tile (0: a full one)
  int side = 0;       // the scheduled operand: 0 A, 1 B
  bool tdOff = false; // TensorDash off: dense beats
  bool bias = false;  // a real D (else GARBAGE: zeros)
  bool toAcc = false; // C raw into the accumulator (else shifted and saturated to elem_t)
  Gen a, b;           // A[i][k], B[k][j] (as b(j, k))
};

class TensorDashSystem : public ::testing::Test {
protected:
  TensorDashSystem()
      : cfg(builtConfig()), p(fm::ModelParams::from(cfg)), arr(hw::arrayParams(cfg)),
        td(hw::tensorDashParams(arr)), dim(p.dim), lanes(p.lanes), ib(p.inputBytes),
        image(kSize, 0), rng(testSeed(11, "TensorDash system test data")) {}

  void put(uint64_t addr, int64_t v, int bytes) { putLittleEndian(image, addr - kBase, v, bytes); }
  static int64_t get(const std::vector<uint8_t>& dram, uint64_t addr, int bytes) {
    return getLittleEndian(dram, addr - kBase, bytes);
  }
  int64_t nonZero() { // a random non-zero elem_t
    const int64_t span = int64_t{1} << p.inputWidth;
    const int64_t v = static_cast<int64_t>(rng.next() % static_cast<uint64_t>(span - 1)) - span / 2;
    return v >= 0 ? v + 1 : v;
  }
  Gen sparse(double zeros) {
    return [this, zeros](int, int) {
      return static_cast<double>(rng.next() % 100000) < zeros * 100000 ? 0 : nonZero();
    };
  }

  /// Reduction steps of K tile `kt` (a full tile: DIM steps).
  int tileSteps(const Case& c, int kt) const {
    const int cols = kt + 1 == c.kTiles && c.lastCols ? c.lastCols : dim * lanes;
    return (cols + lanes - 1) / lanes;
  }

  struct Outcome {
    std::map<std::string, uint64_t> counters;
    tensordash::ScheduleStats model;
    int64_t steps = 0;
  };

  Outcome run(const Case& c) {
    const int kw = dim * lanes, K = c.kTiles * kw;
    const int kLen = (c.kTiles - 1) * kw + (c.lastCols ? c.lastCols : kw); // real K
    std::vector<int64_t> a(static_cast<size_t>(dim) * K, 0), b(static_cast<size_t>(K) * dim, 0),
        d(static_cast<size_t>(dim) * dim, 0);
    for (int i = 0; i < dim; ++i)
      for (int k = 0; k < kLen; ++k)
        a[i * K + k] = c.a(i, k);
    for (int k = 0; k < kLen; ++k)
      for (int j = 0; j < dim; ++j)
        b[k * dim + j] = c.b(j, k);
    for (auto& v : d)
      v = c.bias ? nonZero() : 0;
    // DRAM: A row-major; B one packed tile after the other (X[t][j*L + l] = B[t*L + l][j]).
    for (int i = 0; i < dim; ++i)
      for (int k = 0; k < K; ++k)
        put(kA + (static_cast<uint64_t>(i) * K + k) * ib, a[i * K + k], ib);
    for (int kt = 0; kt < c.kTiles; ++kt)
      for (int t = 0; t < dim; ++t)
        for (int j = 0; j < dim; ++j)
          for (int l = 0; l < lanes; ++l)
            put(kB + ((static_cast<uint64_t>(kt) * dim + t) * kw + j * lanes + l) * ib,
                b[((kt * dim + t) * lanes + l) * dim + j], ib);
    for (int i = 0; i < dim * dim; ++i)
      put(kD + static_cast<uint64_t>(i) * ib, d[i], ib);

    // Scratchpad: A tiles, B tiles, D and C each in a bank of their own, so that the feeder's
    // A and B reads never wait for each other (as a compiler places them).
    const uint32_t bank = static_cast<uint32_t>(p.spRows / cfg.memory.scratchpad.banks);
    EXPECT_GE(cfg.memory.scratchpad.banks, 4);
    EXPECT_LE(static_cast<uint32_t>(c.kTiles * dim), bank);
    const uint32_t aRow = 0, bRow = bank, dRow = 2 * bank, cRow = 3 * bank;
    const uint32_t n = static_cast<uint32_t>(dim);
    const int shift = c.toAcc ? 0 : 3;
    fm::ConfigExArgs ex;
    ex.dataflow = hw::kDataflowOS;
    ex.inShift = static_cast<uint32_t>(shift);
    ex.tdOff = c.tdOff;
    ex.tdSide = c.side;
    fm::Program prog = {fm::configEx(ex)};
    fm::ConfigLdArgs ld;
    ld.stride = static_cast<uint64_t>(K) * ib;
    prog.push_back(fm::configLd(ld));
    ld.channel = 1;
    ld.stride = static_cast<uint64_t>(kw) * ib;
    prog.push_back(fm::configLd(ld));
    ld.channel = 2;
    ld.stride = static_cast<uint64_t>(dim) * ib;
    prog.push_back(fm::configLd(ld));
    // The first operation's tiles come last: the later operations queue behind it in the
    // reservation station, so that all of them reach the feeder as soon as it can start (the
    // host's command rate does not bound the pass), which lets the feeder keep the window full.
    prog.push_back(fm::mvin(2, kD, fm::spAddr(dRow), n, n));
    for (int i = 1; i <= c.kTiles; ++i) {
      const int kt = i % c.kTiles;
      prog.push_back(fm::mvin(0, kA + static_cast<uint64_t>(kt) * kw * ib,
                              fm::spAddr(aRow + kt * n), n, static_cast<uint32_t>(kw)));
      prog.push_back(fm::mvin(1, kB + static_cast<uint64_t>(kt) * dim * kw * ib,
                              fm::spAddr(bRow + kt * n), n, static_cast<uint32_t>(kw)));
    }
    const uint32_t cAddr = c.toAcc ? fm::accAddr(0) : fm::spAddr(cRow);
    for (int kt = 0; kt < c.kTiles; ++kt) {
      const bool last = kt + 1 == c.kTiles;
      const uint32_t cols = static_cast<uint32_t>(last && c.lastCols ? c.lastCols : kw);
      const uint32_t bRows = static_cast<uint32_t>(tileSteps(c, kt));
      prog.push_back(fm::preload({kt == 0 && c.bias ? fm::spAddr(dRow) : fm::garbageAddr(), n, n},
                                 {last ? cAddr : fm::garbageAddr(), n, n}));
      prog.push_back(fm::compute(kt == 0, {fm::spAddr(aRow + kt * n), n, cols},
                                 {fm::spAddr(bRow + kt * n), bRows, static_cast<uint32_t>(kw)}));
    }
    fm::ConfigStArgs st;
    st.stride = static_cast<uint32_t>(dim * (c.toAcc ? p.accBytes : ib));
    st.accScaleBits = hw::isa::kFloatOne;
    prog.push_back(fm::configSt(st));
    prog.push_back(fm::mvout(kOut, c.toAcc ? fm::accAddr(0, false, true) : fm::spAddr(cRow), n, n));

    RunOptions o;
    o.name = "td_" + c.name;
    o.system.memBase = kBase;
    o.system.memSize = kSize;
    o.system.seed = rng.next();
    o.system.stress = false; // a fixed DRAM latency: the commands queue before tile 0 arrives
    o.system.fixedLatency = 60;
    o.readCounters = true;
    const RunOutcome r = runAndCompare(cfg, prog, image, o);
    EXPECT_TRUE(r.ok) << c.name << ": " << r.failure << "program saved to "
                      << saveProgram(o.name, prog) << ", its DRAM image to "
                      << saveImage(o.name, image, o);

    // CPU reference (docs/isa.md, output-stationary; B's rows past the tile are zero).
    for (int i = 0; i < dim; ++i)
      for (int j = 0; j < dim; ++j) {
        int64_t acc = golden::wrap(d[i * dim + j], p.outputWidth);
        for (int k = 0; k < kLen; ++k)
          acc = golden::wrap(acc + a[i * K + k] * b[k * dim + j], p.accWidth);
        const int64_t res = golden::saturate(golden::roundingShift(acc, shift), p.outputWidth);
        const int64_t want = c.toAcc ? res : golden::saturate(res, p.inputWidth);
        const int bytes = c.toAcc ? p.accBytes : ib;
        EXPECT_EQ(get(r.dram, kOut + (static_cast<uint64_t>(i) * dim + j) * bytes, bytes), want)
            << c.name << ": C[" << i << "][" << j << "]";
      }

    // The schedule model over the accumulation's steps: the scheduled operand as streams, one
    // per PE row (A[r][k], or for B scheduled B[k][r]).
    Outcome out;
    for (int kt = 0; kt < c.kTiles; ++kt)
      out.steps += tileSteps(c, kt);
    tensordash::Streams s(dim, static_cast<int>(out.steps), lanes);
    int step = 0;
    for (int kt = 0; kt < c.kTiles; ++kt)
      for (int t = 0; t < tileSteps(c, kt); ++t, ++step)
        for (int r = 0; r < dim; ++r)
          for (int l = 0; l < lanes; ++l) {
            const int k = kt * kw + t * lanes + l;
            s.at(r, step, l) = static_cast<int32_t>(c.side ? b[k * dim + r] : a[r * K + k]);
          }
    out.model = tensordash::summarize(tensordash::runScheduler(td, s), s);
    out.counters = r.counters;
    return out;
  }

  /// Runs a case and checks the counters against the model; returns the beats.
  int64_t check(const Case& c) {
    const Outcome o = run(c);
    const auto& k = o.counters;
    const int64_t cols = dim, dense = static_cast<int64_t>(dim) * dim * lanes;
    const int64_t beats = static_cast<int64_t>(k.at("COMPUTE_BEATS"));
    if (c.tdOff) {
      EXPECT_EQ(beats, o.steps) << c.name;
      EXPECT_EQ(k.at("MACS"), static_cast<uint64_t>(o.steps * dense)) << c.name;
      EXPECT_EQ(k.at("MACS_SKIPPED"), 0u) << c.name;
      EXPECT_EQ(k.at("WINDOW_STALLS"), 0u) << c.name;
    } else {
      EXPECT_EQ(k.at("MACS"), static_cast<uint64_t>(o.model.macsIssued * cols)) << c.name;
      EXPECT_EQ(k.at("MACS_SKIPPED"), static_cast<uint64_t>(o.model.macsSkipped * cols)) << c.name;
      const bool keepsUp = cfg.memory.scratchpad.rowsPerWord >= arr.tdDepth;
      if (keepsUp) {
        EXPECT_EQ(k.at("SHORT_BEATS"), 0u) << c.name << ": the window was not kept full";
      }
      if (k.at("SHORT_BEATS") == 0) {
        EXPECT_EQ(beats, o.model.cycles) << c.name << ": beats against the model's cycles";
        EXPECT_EQ(k.at("WINDOW_STALLS"), static_cast<uint64_t>(o.model.windowStalls)) << c.name;
      }
      EXPECT_LE(beats, o.steps) << c.name << ": every beat retires a step";
    }
    std::printf("%-28s side %c %s: %4lld steps, %4lld beats (model %4lld), speedup %.2f, feed "
                "stalls %llu, short beats %llu\n",
                c.name.c_str(), c.side ? 'B' : 'A', c.tdOff ? "off" : "on ",
                static_cast<long long>(o.steps), static_cast<long long>(beats),
                static_cast<long long>(o.model.cycles),
                static_cast<double>(o.steps) / static_cast<double>(beats),
                static_cast<unsigned long long>(k.at("FEED_STALLS")),
                static_cast<unsigned long long>(k.at("SHORT_BEATS")));
    return beats;
  }

  /// Scheduled sides the config builds: A, and B unless sparsity.tensordash.schedule_b is off.
  int sides() const { return cfg.tensordash.scheduleB ? 2 : 1; }

  config::Config cfg;
  fm::ModelParams p;
  hw::ArrayParams arr;
  tensordash::TensorDashParams td;
  int dim, lanes, ib;
  std::vector<uint8_t> image;
  axi::Rng rng;
};

Gen constant(int64_t v) {
  return [v](int, int) { return v; };
}

TEST_F(TensorDashSystem, BitExactAndModelExactFromDenseToEmpty) {
  for (int side = 0; side < sides(); ++side)
    for (int pct = 0; pct <= 100; pct += 10) {
      Case c;
      c.name = "sparsity_" + std::to_string(pct);
      c.side = side;
      c.bias = pct % 20 == 10;
      c.toAcc = pct % 40 == 20;
      Gen scheduled = sparse(pct / 100.0), other = sparse(0);
      c.a = side ? other : scheduled;
      c.b = side ? scheduled : other;
      check(c);
    }
}

TEST_F(TensorDashSystem, OffIssuesDenseBeatsWithTheSameResults) {
  for (int side = 0; side < sides(); ++side) {
    Case c;
    c.name = "off_half_zero";
    c.side = side;
    c.tdOff = true;
    c.bias = true;
    c.a = sparse(0.5);
    c.b = sparse(0.5);
    check(c);
  }
}

TEST_F(TensorDashSystem, AdversarialPatterns) {
  const int dim = this->dim, lanes = this->lanes;
  struct Pattern {
    std::string name;
    Gen scheduled, other;
  };
  const std::vector<Pattern> patterns = {
      {"all_zero", constant(0), sparse(0)},
      {"single_nonzero", [](int r, int k) { return r == 1 && k == 5 ? -7 : 0; }, sparse(0)},
      {"checkerboard", [](int r, int k) { return (r + k) % 2 ? 0 : 3 - r; }, sparse(0)},
      {"one_dense_lane", [lanes](int, int k) { return k % lanes == 1 ? 5 : 0; }, sparse(0)},
      {"one_dense_row", [this](int r, int k) { return r == 0 || k % 7 == 0 ? nonZero() : 0; },
       sparse(0)},
      {"last_step_only", [dim, lanes](int, int k) { return k >= (3 * dim - 1) * lanes ? 9 : 0; },
       sparse(0)},
      {"zeros_only_in_other", sparse(0), sparse(0.9)},
      {"all_min", constant(-128), constant(-128)},
  };
  for (int side = 0; side < sides(); ++side)
    for (const Pattern& pt : patterns) {
      Case c;
      c.name = pt.name;
      c.side = side;
      c.toAcc = true;
      c.a = side ? pt.other : pt.scheduled;
      c.b = side ? pt.scheduled : pt.other;
      check(c);
    }
}

TEST_F(TensorDashSystem, PartialLastTileAndSingleTile) {
  for (int side = 0; side < sides(); ++side) {
    Case c;
    c.name = "partial_last_tile";
    c.side = side;
    c.kTiles = 3;
    c.lastCols = lanes + 1; // two steps, the second one lane deep
    c.a = sparse(side ? 0 : 0.6);
    c.b = sparse(side ? 0.6 : 0);
    check(c);
    c.name = "single_tile";
    c.kTiles = 1;
    c.lastCols = 0;
    c.bias = true;
    check(c);
  }
}

// CONFIG_EX td_side = 1 needs the B-scheduling hardware (sparsity.tensordash.schedule_b): without
// it the command is refused as UNSUPPORTED, by the RTL as by the model (runAndCompare).
TEST_F(TensorDashSystem, ScheduleBNeedsItsHardware) {
  fm::ConfigExArgs ex;
  ex.dataflow = hw::kDataflowOS;
  ex.tdSide = 1;
  RunOptions o;
  o.name = "td_schedule_b";
  o.system.memBase = kBase;
  o.system.memSize = kSize;
  o.system.seed = rng.next();
  const RunOutcome r = runAndCompare(cfg, {fm::configEx(ex)}, image, o);
  EXPECT_TRUE(r.ok) << r.failure;
  if (cfg.tensordash.scheduleB) {
    EXPECT_EQ(r.modelErrors.count, 0u);
  } else {
    EXPECT_EQ(r.modelErrors.count, 1u);
    EXPECT_EQ(r.modelErrors.code, hw::isa::errorCode("UNSUPPORTED"));
    EXPECT_EQ(r.modelErrors.funct, static_cast<int>(hw::isa::kConfig));
  }
}

} // namespace
} // namespace by::test
