// TensorDash on the whole accelerator (docs/BENCHMARKS.md "TensorDash"): output-stationary
// matrix products C = A x B on the Verilated accelerator with A and B resident in the
// scratchpad, run twice on the same hardware, TensorDash on (A scheduled) and off (CONFIG_EX
// td_off), and compared with the C++ schedule model of the same operands and with the ideal
// bound min(1/(1-s), lookahead+1). Workloads: A uniformly random at several zero fractions,
// and the post-ReLU activations of a trained int8 network (bench/boveda/train_int8_net.py)
// times that network's next-layer weights. Every result is checked against a CPU reference.
//
//   bench_td_accel_<config> [NET_DIR]
//
// On a config without TensorDash only the dense run is made (for comparisons at equal peak
// MACs). Program: A's DIM x (DIM*lanes) blocks in scratchpad bank 0, B's lane-packed blocks
// from bank 1 on, then for every DIM x DIM block of C one accumulation over all of K (one
// PRELOAD/COMPUTE pair per K block, C written raw to the accumulator by the last); the cycles
// counted are those of the computation, from the first pair to the last result.
#include "accel_system.h"
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "hwspec/array_params.h"
#include "rtl_config.h"
#include "tensordash/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace by;
namespace fm = by::funcmodel;

namespace {

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<int8_t> v;
  int8_t at(int r, int c) const { return r < rows && c < cols ? v[size_t(r) * cols + c] : 0; }
};

struct Workload {
  std::string name;
  Matrix a, b; // A is M x K, B is K x N (padded to whole blocks with zeros when run)
};

struct Result {
  uint64_t cycles = 0, beats = 0, macs = 0, skipped = 0, shortBeats = 0;
  bool ok = true;
};

class Bench {
public:
  Bench()
      : cfg_(test::builtConfig()), p_(fm::ModelParams::from(cfg_)), arr_(hw::arrayParams(cfg_)),
        dim_(p_.dim), lanes_(p_.lanes) {}

  bool tensordash() const { return cfg_.tensordash.enabled; }

  /// Runs a workload with TensorDash on (tdOff false) or off; checks C.
  Result run(const Workload& w, bool tdOff) {
    const int kw = dim_ * lanes_;
    const int M = roundUp(w.a.rows, dim_), K = roundUp(w.a.cols, kw), N = roundUp(w.b.cols, dim_);
    const int mb = M / dim_, kb = K / kw, nb = N / dim_;
    const int bankRows = p_.spRows / static_cast<int>(cfg_.memory.scratchpad.banks);
    if (mb * kb * dim_ > bankRows || kb * nb * dim_ > bankRows * 3 || mb * nb * dim_ > p_.accRows) {
      std::fprintf(stderr, "%s: too large for this config's memories\n", w.name.c_str());
      std::exit(2);
    }
    // DRAM: A row-major (M x K), B lane-packed (K/L rows of N*L), C raw (M x N acc_t).
    const uint64_t base = 0x80000000ull, aAddr = base, bAddr = aAddr + uint64_t(M) * K,
                   cAddr = bAddr + uint64_t(K) * N;
    test::SystemOptions so;
    so.memBase = base;
    so.memSize = (cAddr + uint64_t(M) * N * 4 - base + 0xfff) / 0x1000 * 0x1000;
    so.stress = false;
    so.fixedLatency = static_cast<int>(cfg_.soc.dram.latencyCycles);
    test::AccelSystem sys(cfg_, so);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        sys.memory().write8(aAddr + uint64_t(i) * K + k, uint8_t(w.a.at(i, k)));
    for (int t = 0; t < K / lanes_; ++t)
      for (int j = 0; j < N; ++j)
        for (int l = 0; l < lanes_; ++l)
          sys.memory().write8(bAddr + (uint64_t(t) * N + j) * lanes_ + l,
                              uint8_t(w.b.at(t * lanes_ + l, j)));

    const uint32_t d = uint32_t(dim_);
    const auto spA = [&](int m, int k) { return fm::spAddr(uint32_t((m * kb + k) * dim_)); };
    const auto spB = [&](int k, int n) {
      return fm::spAddr(uint32_t(bankRows + (k * nb + n) * dim_));
    };
    const auto accC = [&](int m, int n) { return uint32_t((m * nb + n) * dim_); };
    // Loads, then (counted) the computation, then the results out.
    sys.issue(fm::configLd({0, false, 1, d, fm::floatBits(1), uint64_t(K)}));
    sys.issue(fm::configLd({1, false, 1, d, fm::floatBits(1), uint64_t(N) * lanes_}));
    for (int m = 0; m < mb; ++m)
      for (int k = 0; k < kb; ++k)
        sys.issue(fm::mvin(0, aAddr + uint64_t(m) * dim_ * K + uint64_t(k) * kw, spA(m, k), d,
                           uint32_t(kw)));
    for (int k = 0; k < kb; ++k)
      for (int n = 0; n < nb; ++n)
        sys.issue(fm::mvin(1, bAddr + (uint64_t(k) * dim_ * N + uint64_t(n) * dim_) * lanes_,
                           spB(k, n), d, uint32_t(kw)));
    Result r;
    if (!sys.drain())
      return fail(sys, r);
    sys.writeRegister("COUNTERS_RESET", 1);
    const uint64_t c0 = sys.cycle();
    fm::ConfigExArgs ex;
    ex.dataflow = hw::kDataflowOS;
    ex.tdOff = tdOff;
    sys.issue(fm::configEx(ex));
    for (int m = 0; m < mb; ++m)
      for (int n = 0; n < nb; ++n)
        for (int k = 0; k < kb; ++k) {
          const uint32_t c = k + 1 == kb ? fm::accAddr(accC(m, n)) : hw::isa::kGarbageAddr;
          sys.issue(fm::preload({hw::isa::kGarbageAddr, d, d}, {c, d, d}));
          sys.issue(
              fm::compute(k == 0, {spA(m, k), d, uint32_t(kw)}, {spB(k, n), d, uint32_t(kw)}));
        }
    if (!sys.drain())
      return fail(sys, r);
    r.cycles = sys.cycle() - c0;
    r.beats = sys.readCounter("COMPUTE_BEATS");
    r.macs = sys.readCounter("MACS");
    r.skipped = sys.readCounter("MACS_SKIPPED");
    r.shortBeats = sys.readCounter("SHORT_BEATS");
    fm::ConfigStArgs st;
    st.stride = uint32_t(N) * 4;
    sys.issue(fm::configSt(st));
    for (int m = 0; m < mb; ++m)
      for (int n = 0; n < nb; ++n)
        sys.issue(fm::mvout(cAddr + (uint64_t(m) * dim_ * N + uint64_t(n) * dim_) * 4,
                            fm::accAddr(accC(m, n), false, true), d, d));
    if (!sys.drain())
      return fail(sys, r);
    // CPU reference: one OS accumulation over all of K per C block (docs/isa.md): the sum
    // wraps at acc_width and saturates to the spatial output width when it leaves the array.
    for (int i = 0; i < M && r.ok; ++i)
      for (int j = 0; j < N; ++j) {
        int64_t acc = 0;
        for (int k = 0; k < K; ++k)
          acc = golden::wrap(acc + int64_t(w.a.at(i, k)) * w.b.at(k, j), p_.accWidth);
        const int64_t want = golden::saturate(acc, p_.outputWidth);
        uint64_t got = 0;
        for (int byte = 0; byte < 4; ++byte)
          got |= uint64_t(sys.memory().read8(cAddr + (uint64_t(i) * N + j) * 4 + byte))
                 << (8 * byte);
        if (golden::wrap(int64_t(got), 32) != want) {
          std::fprintf(stderr, "%s: C[%d][%d] = %lld, want %lld\n", w.name.c_str(), i, j,
                       static_cast<long long>(golden::wrap(int64_t(got), 32)),
                       static_cast<long long>(want));
          r.ok = false;
          break;
        }
      }
    return r;
  }

  /// The C++ model's cycles for the workload's accumulations (A scheduled: one pass per C
  /// block over all of K, the same for every column block) and the dense steps.
  std::pair<int64_t, int64_t> model(const Workload& w) const {
    const int kw = dim_ * lanes_;
    const int M = roundUp(w.a.rows, dim_), K = roundUp(w.a.cols, kw), N = roundUp(w.b.cols, dim_);
    const tensordash::TensorDashParams td = hw::tensorDashParams(arr_);
    int64_t cycles = 0, steps = 0;
    for (int m = 0; m < M / dim_; ++m) {
      tensordash::Streams s(dim_, K / lanes_, lanes_);
      for (int r = 0; r < dim_; ++r)
        for (int k = 0; k < K; ++k)
          s.at(r, k / lanes_, k % lanes_) = w.a.at(m * dim_ + r, k);
      cycles += tensordash::cyclesFor(td, s) * (N / dim_);
      steps += int64_t(K / lanes_) * (N / dim_);
    }
    return {cycles, steps};
  }

private:
  static int roundUp(int v, int to) { return (v + to - 1) / to * to; }
  static Result fail(test::AccelSystem& sys, Result& r) {
    std::fprintf(stderr, "hang: %s\n", sys.hangReport().c_str());
    r.ok = false;
    return r;
  }

  config::Config cfg_;
  fm::ModelParams p_;
  hw::ArrayParams arr_;
  int dim_, lanes_;
};

double zeroFraction(const Matrix& m) {
  size_t z = 0;
  for (int8_t v : m.v)
    z += v == 0;
  return m.v.empty() ? 0 : double(z) / double(m.v.size());
}

/// Zeros with probability `zeros`, else a uniform non-zero int8.
Matrix randomMatrix(int rows, int cols, double zeros, axi::Rng& rng) {
  Matrix m{rows, cols, std::vector<int8_t>(size_t(rows) * cols)};
  for (int8_t& v : m.v) {
    const uint64_t r = rng.next();
    const int nz = int(r % 255) - 127;
    v = double((r >> 20) % 100000) < zeros * 100000 ? 0 : int8_t(nz ? nz : 1);
  }
  return m;
}

/// The network's tensors (NET_DIR/tensors.txt: name kind rows cols, NAME.i8 row-major).
std::map<std::string, Matrix> loadNet(const std::string& dir) {
  std::map<std::string, Matrix> out;
  std::ifstream list(dir + "/tensors.txt");
  std::string name, kind;
  int rows = 0, cols = 0;
  while (list >> name >> kind >> rows >> cols) {
    Matrix m{rows, cols, std::vector<int8_t>(size_t(rows) * cols)};
    std::ifstream in(dir + "/" + name + ".i8", std::ios::binary);
    in.read(reinterpret_cast<char*>(m.v.data()), std::streamsize(m.v.size()));
    out[name] = m;
  }
  return out;
}

/// conv2's A: im2col (3x3, padding 1) of the first `pixels` output pixels of the 2x2-max-pooled
/// conv1 activations (images of 16x16 pixels, 16 channels, pixels x channels), K index
/// ci*9 + ky*3 + kx as in the dumped weights.
Matrix conv2Input(const Matrix& act, int pixels) {
  const int side = 16, pooled = 8, ch = act.cols;
  Matrix m{pixels, ch * 9, std::vector<int8_t>(size_t(pixels) * ch * 9, 0)};
  auto pool = [&](int img, int y, int x, int c) {
    int8_t v = -128;
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx)
        v = std::max(v, act.at((img * side + 2 * y + dy) * side + 2 * x + dx, c));
    return v;
  };
  for (int p = 0; p < pixels; ++p) {
    const int img = p / (pooled * pooled), y = p / pooled % pooled, x = p % pooled;
    for (int c = 0; c < ch; ++c)
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx) {
          const int yy = y + ky - 1, xx = x + kx - 1;
          if (yy >= 0 && xx >= 0 && yy < pooled && xx < pooled)
            m.v[size_t(p) * ch * 9 + c * 9 + ky * 3 + kx] = pool(img, yy, xx, c);
        }
  }
  return m;
}

} // namespace

int main(int argc, char** argv) {
  Bench bench;
  axi::Rng rng(7);
  std::vector<Workload> work;
  const int M = 64, K = 512, N = 64;
  const Matrix b = randomMatrix(K, N, 0, rng);
  for (double s : {0.0, 0.3, 0.5, 0.7, 0.9})
    work.push_back(
        {"random A, " + std::to_string(int(s * 100)) + "% zeros", randomMatrix(M, K, s, rng), b});
  if (argc > 1) {
    std::map<std::string, Matrix> net = loadNet(argv[1]);
    if (!net.count("fc1_in.act") || !net.count("conv1.act")) {
      std::fprintf(stderr, "%s: no network tensors (bench/boveda/train_int8_net.py)\n", argv[1]);
      return 2;
    }
    work.push_back({"conv2 (post-ReLU conv1, pooled, im2col)", conv2Input(net["conv1.act"], 256),
                    net["conv2.weight"]});
    work.push_back({"fc1 (post-ReLU conv2, pooled)", net["fc1_in.act"], net["fc1.weight"]});
    work.push_back({"fc2 (post-ReLU fc1)", net["fc1.act"], net["fc2.weight"]});
  }

  std::printf(
      "| workload (M x K x N) | A zeros | ideal | model | RTL beats | cycles off | cycles on "
      "| **speedup** | short beats |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int failures = 0;
  for (const Workload& w : work) {
    const Result off = bench.run(w, true);
    failures += !off.ok;
    const double s = zeroFraction(w.a);
    char dims[64];
    std::snprintf(dims, sizeof dims, " (%d x %d x %d)", w.a.rows, w.a.cols, w.b.cols);
    if (!bench.tensordash()) {
      std::printf("| %s%s | %.1f%% | | | | %llu | | | |\n", w.name.c_str(), dims, 100 * s,
                  static_cast<unsigned long long>(off.cycles));
      continue;
    }
    const Result on = bench.run(w, false);
    failures += !on.ok;
    const auto [modelCycles, steps] = bench.model(w);
    const double ideal = std::min(s < 1 ? 1 / (1 - s) : 3.0, 3.0);
    std::printf("| %s%s | %.1f%% | %.2f | %.2f | %.2f | %llu | %llu | **%.2f** | %llu |\n",
                w.name.c_str(), dims, 100 * s, ideal, double(steps) / double(modelCycles),
                double(off.beats) / double(on.beats), static_cast<unsigned long long>(off.cycles),
                static_cast<unsigned long long>(on.cycles), double(off.cycles) / double(on.cycles),
                static_cast<unsigned long long>(on.shortBeats));
    if (on.beats != uint64_t(modelCycles) && on.shortBeats == 0) {
      std::fprintf(stderr, "%s: %llu beats, the model %lld, with a full window\n", w.name.c_str(),
                   static_cast<unsigned long long>(on.beats), static_cast<long long>(modelCycles));
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
