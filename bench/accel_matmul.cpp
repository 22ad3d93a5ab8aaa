// A 256x256x256 int8 matrix product (weight-stationary) on the Verilated whole accelerator of
// the default config: the command program a tiled-matmul driver issues, run against an AXI4
// memory with the config's DRAM latency. Prints the accelerator cycles, the array
// utilization (MACs / (cycles x DIM^2)) and the simulation speed, and checks every output
// element against a CPU reference with the golden arithmetic.
//
//   bench_accel_matmul [M N K]      (multiples of DIM; default 256 256 256)
//
// Program (Gemmini's WS order): A and B are moved into the scratchpad once, A in bank 0, B
// in bank 1, as DIM x DIM tiles (A through MVIN, B through MVIN2), each just before the first
// computation that needs it. For each column block j of C and each K tile k, one PRELOAD
// of the weights B[k][j] is followed by COMPUTE_PRELOADED for row block 0 and
// COMPUTE_ACCUMULATED for the other row blocks, which reuse the weights; the partial sums
// accumulate in the accumulator (four column blocks of C at a time). Each finished C tile
// leaves through MVOUT, scaled to int8.
#include "accel_system.h"
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "matmul_dram.h"
#include "rtl_config.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace by;
namespace fm = by::funcmodel;

int main(int argc, char** argv) {
  const config::Config cfg = test::builtConfig();
  const fm::ModelParams p = fm::ModelParams::from(cfg);
  const int dim = p.dim;
  const int M = argc > 3 ? std::atoi(argv[1]) : 256;
  const int N = argc > 3 ? std::atoi(argv[2]) : 256;
  const int K = argc > 3 ? std::atoi(argv[3]) : 256;
  if (M % dim || N % dim || K % dim || !p.hasWs) {
    std::fprintf(stderr, "M, N, K must be multiples of DIM=%d and the config must have WS\n", dim);
    return 2;
  }
  const int mb = M / dim, nb = N / dim, kb = K / dim;
  const int spBankRows = p.spRows / static_cast<int>(cfg.memory.scratchpad.banks);
  const int accBlocks = p.accRows / M; // column blocks of C the accumulator holds at once
  if (mb * kb * dim > spBankRows || kb * nb * dim > spBankRows || accBlocks < 1) {
    std::fprintf(stderr, "matrices too large for this config's local memories\n");
    return 2;
  }

  bench::MatmulDram dram = bench::matmulDram(M, N, K, static_cast<int>(cfg.soc.dram.latencyCycles));
  const uint64_t aAddr = dram.a, bAddr = dram.b, cAddr = dram.c;
  const test::SystemOptions& so = dram.options;
  test::AccelSystem sys(cfg, so);
  axi::Rng rng(42);
  std::vector<int8_t> A(size_t(M) * K), B(size_t(K) * N);
  for (auto* m : {&A, &B})
    for (int8_t& v : *m)
      v = static_cast<int8_t>(rng.next());
  for (size_t i = 0; i < A.size(); ++i)
    sys.memory().write8(aAddr + i, static_cast<uint8_t>(A[i]));
  for (size_t i = 0; i < B.size(); ++i)
    sys.memory().write8(bAddr + i, static_cast<uint8_t>(B[i]));

  const float scale = 1.0f / 2048;
  const uint32_t d = static_cast<uint32_t>(dim);
  const auto spA = [&](int i, int k) { return fm::spAddr(uint32_t((i * kb + k) * dim)); };
  const auto spB = [&](int k, int j) {
    return fm::spAddr(uint32_t(spBankRows + (k * nb + j) * dim));
  };
  const auto accC = [&](int i, int j, bool accumulate) {
    return fm::accAddr(uint32_t((j % accBlocks) * M + i * dim), accumulate);
  };
  fm::Program prog;
  fm::ConfigExArgs ex;
  ex.dataflow = 1;
  prog.push_back(fm::configEx(ex));
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(N);
  st.accScaleBits = fm::floatBits(scale);
  prog.push_back(fm::configSt(st));
  // Moves of DIM rows x up to MAX_BLOCK_LEN tiles per MVIN (block stride DIM rows), issued
  // just before the first computation that needs them (the reservation station holds only
  // a few commands, so loads issued far ahead would keep the array waiting).
  const int blocks = p.maxBlockLen;
  prog.push_back(fm::configLd({0, false, 1, d, fm::floatBits(1), uint64_t(K)}));
  prog.push_back(fm::configLd({1, false, 1, d, fm::floatBits(1), uint64_t(N)}));
  const auto loadA = [&](int kg) { // A[:, kg .. kg+blocks)
    for (int i = 0; i < mb; ++i)
      prog.push_back(fm::mvin(0, aAddr + uint64_t(i) * dim * K + uint64_t(kg) * dim, spA(i, kg), d,
                              uint32_t(std::min(kb - kg, blocks) * dim)));
  };
  const auto loadB = [&](int k, int jg) { // B[k, jg .. jg+blocks)
    prog.push_back(fm::mvin(1, bAddr + uint64_t(k) * dim * N + uint64_t(jg) * dim, spB(k, jg), d,
                            uint32_t(std::min(nb - jg, blocks) * dim)));
  };
  const uint32_t garbage = hw::isa::kGarbageAddr;
  for (int j = 0; j < nb; ++j) {
    for (int k = 0; k < kb; ++k) {
      if (j == 0 && k % blocks == 0)
        loadA(k);
      if (j % blocks == 0)
        loadB(k, j);
      for (int i = 0; i < mb; ++i) {
        const fm::Operand c{accC(i, j, k > 0), d, d};
        prog.push_back(fm::preload({i == 0 ? spB(k, j) : garbage, d, d}, c));
        prog.push_back(fm::compute(i == 0, {spA(i, k), d, d}, {garbage, d, d}));
      }
    }
    for (int i = 0; i < mb; ++i)
      prog.push_back(
          fm::mvout(cAddr + uint64_t(i) * dim * N + uint64_t(j) * dim, accC(i, j, false), d, d));
  }

  for (const fm::Instruction& instr : prog)
    sys.issue(instr);
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = sys.cycle();
  if (std::getenv("BY_BENCH_TIMELINE")) // counters every 10k cycles, to see where time goes
    while (sys.commandsIssued() && !sys.idle()) {
      sys.run(10000);
      std::printf("  t=%7llu exec %7llu load %7llu store %7llu dep %6llu\n",
                  static_cast<unsigned long long>(sys.cycle() - c0),
                  static_cast<unsigned long long>(sys.readCounter("EXEC_ACTIVE_CYCLES")),
                  static_cast<unsigned long long>(sys.readCounter("LOAD_ACTIVE_CYCLES")),
                  static_cast<unsigned long long>(sys.readCounter("STORE_ACTIVE_CYCLES")),
                  static_cast<unsigned long long>(sys.readCounter("STALL_DEPENDENCY_CYCLES")));
    }
  if (!sys.drain()) {
    std::fprintf(stderr, "%s\n", sys.hangReport().c_str());
    return 1;
  }
  const uint64_t cycles = sys.cycle() - c0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // CPU reference.
  long mismatches = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int64_t acc = 0;
      for (int k = 0; k < K; ++k)
        acc += int64_t{A[size_t(i) * K + k]} * B[size_t(k) * N + j];
      const int64_t want = golden::saturate(
          golden::accScale(golden::wrap(acc, p.accWidth), scale, p.accWidth), p.inputWidth);
      const int64_t got = static_cast<int8_t>(sys.memory().read8(cAddr + uint64_t(i) * N + j));
      if (got != want && mismatches++ < 5)
        std::fprintf(stderr, "C[%d][%d] = %lld, reference %lld\n", i, j,
                     static_cast<long long>(got), static_cast<long long>(want));
    }
  sys.finish();
  const double macs = double(M) * N * K;
  std::printf("accelerator %dx%d (%s): %dx%dx%d int8 WS matmul, %zu commands, DRAM latency %d\n",
              dim, dim, BY_CONFIG_NAME, M, N, K, prog.size(), so.fixedLatency);
  std::printf("  %llu cycles, utilization %.1f%% (%.0f MACs / (cycles x %d))\n",
              static_cast<unsigned long long>(cycles), 100.0 * macs / (double(cycles) * dim * dim),
              macs, dim * dim);
  std::printf("  simulation: %.2f s wall, %.0f cycles/s\n", wall, double(cycles) / wall);
  std::printf("  performance counters (cycles unless noted):\n");
  for (const char* c :
       {"BUSY_CYCLES", "EXEC_ACTIVE_CYCLES", "LOAD_ACTIVE_CYCLES", "STORE_ACTIVE_CYCLES",
        "STALL_DEPENDENCY_CYCLES", "STALL_BANK_CYCLES", "STALL_DMA_CYCLES", "MACS",
        "DMA_READ_BYTES", "DMA_WRITE_BYTES", "COMMANDS"})
    std::printf("    %-24s %llu\n", c, static_cast<unsigned long long>(sys.readCounter(c)));
  std::printf("  result: %s; AXI protocol: %s\n",
              mismatches ? "MISMATCH against the CPU reference" : "matches the CPU reference",
              sys.protocolClean() ? "clean" : sys.protocolReport().c_str());
  return mismatches || !sys.protocolClean() ? 1 : 0;
}
