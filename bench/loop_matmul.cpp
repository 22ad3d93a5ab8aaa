// The 512x512x512 int8 matmul as LOOP_WS commands on the Verilated accelerator of the default
// config (no host: the commands are queued up front), to see what bounds LOOP_WS once the
// host does not: prints the cycles, the utilization (MACs / (cycles x DIM^2)) and where the
// cycles go (the exclusive causes of docs/evaluation.md: a beat entering the array, waiting for
// the DMA, waiting for a hazard, other), and the DMA bytes, and checks C against the functional
// model (the same program on it, byte for byte).
//
//   bench_loop_matmul [M N K TI TJ TK] [--bytes-per-cycle B] [--latency L] [--bias]
//                     [--keep a|b]
//     (tiles TI x TJ x TK blocks per loop; default the driver's choice for the default config,
//      4 x 8 x 32; DRAM as the config's soc.dram unless overridden; --bias: a repeating int32
//      bias row, as the compiler's convolutions have; --keep: the driver's kept-operand loop
//      orders, by_matmul_plan_t.keep, with one K tile: A kept over the column tiles at the start
//      of its row tile's half, or B over the row tiles at the end of its column tile's half)
#include "accel_system.h"
#include "funcmodel/dram.h"
#include "funcmodel/encode.h"
#include "funcmodel/func_model.h"
#include "funcmodel/params.h"
#include "loop_report.h"
#include "matmul_dram.h"
#include "rtl_config.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace by;
namespace fm = by::funcmodel;

int main(int argc, char** argv) {
  const config::Config cfg = test::builtConfig();
  const fm::ModelParams p = fm::ModelParams::from(cfg);
  std::vector<int> n = {512, 512, 512, 4, 8, 32};
  int bytesPerCycle = static_cast<int>(cfg.soc.dram.bytesPerCycle);
  int latency = static_cast<int>(cfg.soc.dram.latencyCycles);
  size_t pos = 0;
  bool bias = false;
  char keep = 0;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--bias"))
      bias = true;
    else if (!std::strcmp(argv[a], "--keep") && a + 1 < argc)
      keep = argv[++a][0];
    else if (!std::strcmp(argv[a], "--bytes-per-cycle") && a + 1 < argc)
      bytesPerCycle = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--latency") && a + 1 < argc)
      latency = std::atoi(argv[++a]);
    else if (pos < n.size())
      n[pos++] = std::atoi(argv[a]);
  }
  const int dim = p.dim, M = n[0], N = n[1], K = n[2], ti = n[3], tj = n[4], tk = n[5];
  if (!p.loopWs || M % (dim * ti) || N % (dim * tj) || K % (dim * tk)) {
    std::fprintf(stderr, "needs loops.ws and M, N, K multiples of the tiles times DIM=%d\n", dim);
    return 2;
  }
  if ((keep && keep != 'a' && keep != 'b') || (keep && tk * dim != K)) {
    std::fprintf(stderr, "--keep a|b needs one K tile (TK x DIM = K)\n");
    return 2;
  }
  bench::MatmulDram dram = bench::matmulDram(M, N, K, latency);
  dram.options.bytesPerCycle = bytesPerCycle;
  const uint64_t aAddr = dram.a, bAddr = dram.b, cAddr = dram.c, dAddr = dram.d;
  const test::SystemOptions& so = dram.options;
  test::AccelSystem sys(cfg, so);
  fm::DramImage model(so.memBase, so.memSize);
  axi::Rng rng(42);
  auto fill = [&](uint64_t from, uint64_t to) {
    for (uint64_t a = from; a < to; ++a) {
      const uint8_t v = static_cast<uint8_t>(rng.next());
      sys.memory().write8(a, v);
      model.bytes()[a - so.memBase] = v;
    }
  };
  fill(aAddr, cAddr);
  fill(dAddr, dAddr + uint64_t(N) * 4);

  fm::Program prog;
  fm::ConfigExArgs ex;
  ex.dataflow = 1;
  prog.push_back(fm::configEx(ex));
  prog.push_back(fm::configLd({0, false, 1, 0, fm::floatBits(1), uint64_t(K)}));
  prog.push_back(fm::configLd({1, false, 1, 0, fm::floatBits(1), uint64_t(N)}));
  if (bias) // stride 0: the repeating row (a broadcast read)
    prog.push_back(fm::configLd({2, false, 1, 0, fm::floatBits(1), 0}));
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(N);
  st.accScaleBits = fm::floatBits(1.0f / 2048);
  prog.push_back(fm::configSt(st));
  int loops = 0;
  auto loop = [&](int i0, int j0, int k0, int aSpadId, bool aThere, int bSpadId, bool bThere) {
    fm::LoopWsArgs l;
    l.I = uint32_t(ti), l.J = uint32_t(tj), l.K = uint32_t(tk);
    l.A = aThere ? 0 : aAddr + uint64_t(i0) * dim * K + uint64_t(k0) * dim;
    l.B = bThere ? 0 : bAddr + uint64_t(k0) * dim * N + uint64_t(j0) * dim;
    l.C = k0 + tk == K / dim ? cAddr + uint64_t(i0) * dim * N + uint64_t(j0) * dim : 0;
    l.D = bias && k0 == 0 ? dAddr + uint64_t(j0) * dim * 4 : 0;
    l.aStride = uint64_t(K), l.bStride = uint64_t(N), l.cStride = uint64_t(N);
    l.aSpadId = aSpadId, l.bSpadId = bSpadId;
    l.exAccumulate = k0 > 0 || bias;
    for (const fm::Instruction& c : fm::loopWs(l))
      prog.push_back(c);
    ++loops;
  };
  if (keep == 'a')
    for (int i0 = 0, it = 0; i0 < M / dim; i0 += ti, ++it)
      for (int j0 = 0; j0 < N / dim; j0 += tj)
        loop(i0, j0, 0, 1 + (it & 1), j0 != 0, 0, false);
  else if (keep == 'b')
    for (int j0 = 0, jt = 0; j0 < N / dim; j0 += tj, ++jt)
      for (int i0 = 0; i0 < M / dim; i0 += ti)
        loop(i0, j0, 0, 0, false, 1 + (jt & 1), i0 != 0);
  else
    for (int i0 = 0; i0 < M / dim; i0 += ti)
      for (int j0 = 0; j0 < N / dim; j0 += tj)
        for (int k0 = 0; k0 < K / dim; k0 += tk)
          loop(i0, j0, k0, 0, false, 0, false);
  fm::FuncModel fmodel(cfg, model);
  for (const fm::Instruction& instr : prog) {
    fmodel.execute(instr);
    sys.issue(instr);
  }
  const uint64_t c0 = sys.cycle();
  if (!sys.drain()) {
    std::fprintf(stderr, "%s\n", sys.hangReport().c_str());
    return 1;
  }
  const uint64_t cycles = sys.cycle() - c0;
  if (bench::reportRejected(sys)) // after the cycles: the register read takes some
    return 2;
  long mismatches = 0;
  for (uint64_t a = cAddr; a < cAddr + uint64_t(M) * N; ++a)
    mismatches += sys.memory().image()[a - so.memBase] != model.bytes()[a - so.memBase];
  const double macs = double(M) * N * K;
  std::printf("LOOP_WS matmul %dx%dx%d, %d loops of %dx%dx%d tiles%s%s, DRAM %d cycles, %d "
              "B/cycle\n",
              M, N, K, loops, ti, tj, tk, bias ? ", repeating bias" : "",
              keep == 'a'   ? ", A kept"
              : keep == 'b' ? ", B kept"
                            : "",
              latency, bytesPerCycle);
  bench::printLoopReport(sys, cycles, macs, dim * dim);
  std::printf("  C against the functional model: %s\n",
              mismatches ? (std::to_string(mismatches) + " bytes differ").c_str() : "equal");
  return mismatches ? 1 : 0;
}
