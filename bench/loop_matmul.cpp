// The 512x512x512 int8 matmul as LOOP_WS commands on the Verilated accelerator of the default
// config (no host: the commands are queued up front), to see what bounds LOOP_WS once the
// host does not: prints the cycles, the utilization (MACs / (cycles x DIM^2)) and where the
// cycles go (the exclusive causes of docs/evaluation.md: a beat entering the array, waiting for
// the DMA, waiting for a hazard, other), and the DMA bytes, and checks C against the functional
// model (the same program on it, byte for byte).
//
//   bench_loop_matmul [M N K TI TJ TK] [--bytes-per-cycle B] [--latency L]
//     (tiles TI x TJ x TK blocks per loop; default the driver's choice for the default config,
//      4 x 8 x 32; DRAM as the config's soc.dram unless overridden)
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
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--bytes-per-cycle") && a + 1 < argc)
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
  bench::MatmulDram dram = bench::matmulDram(M, N, K, latency);
  dram.options.bytesPerCycle = bytesPerCycle;
  const uint64_t aAddr = dram.a, bAddr = dram.b, cAddr = dram.c;
  const test::SystemOptions& so = dram.options;
  test::AccelSystem sys(cfg, so);
  fm::DramImage model(so.memBase, so.memSize);
  axi::Rng rng(42);
  for (uint64_t a = aAddr; a < cAddr; ++a) {
    const uint8_t v = static_cast<uint8_t>(rng.next());
    sys.memory().write8(a, v);
    model.bytes()[a - so.memBase] = v;
  }

  fm::Program prog;
  fm::ConfigExArgs ex;
  ex.dataflow = 1;
  prog.push_back(fm::configEx(ex));
  prog.push_back(fm::configLd({0, false, 1, 0, fm::floatBits(1), uint64_t(K)}));
  prog.push_back(fm::configLd({1, false, 1, 0, fm::floatBits(1), uint64_t(N)}));
  fm::ConfigStArgs st;
  st.stride = static_cast<uint32_t>(N);
  st.accScaleBits = fm::floatBits(1.0f / 2048);
  prog.push_back(fm::configSt(st));
  int loops = 0;
  for (int i0 = 0; i0 < M / dim; i0 += ti)
    for (int j0 = 0; j0 < N / dim; j0 += tj)
      for (int k0 = 0; k0 < K / dim; k0 += tk, ++loops) {
        fm::LoopWsArgs l;
        l.I = uint32_t(ti), l.J = uint32_t(tj), l.K = uint32_t(tk);
        l.A = aAddr + uint64_t(i0) * dim * K + uint64_t(k0) * dim;
        l.B = bAddr + uint64_t(k0) * dim * N + uint64_t(j0) * dim;
        l.C = k0 + tk == K / dim ? cAddr + uint64_t(i0) * dim * N + uint64_t(j0) * dim : 0;
        l.aStride = uint64_t(K), l.bStride = uint64_t(N), l.cStride = uint64_t(N);
        l.exAccumulate = k0 > 0;
        for (const fm::Instruction& c : fm::loopWs(l))
          prog.push_back(c);
      }
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
  std::printf("LOOP_WS matmul %dx%dx%d, %d loops of %dx%dx%d tiles, DRAM %d cycles, %d B/cycle\n",
              M, N, K, loops, ti, tj, tk, latency, bytesPerCycle);
  bench::printLoopReport(sys, cycles, macs, dim * dim);
  std::printf("  C against the functional model: %s\n",
              mismatches ? (std::to_string(mismatches) + " bytes differ").c_str() : "equal");
  return mismatches ? 1 : 0;
}
