// A convolution (default: ResNet-50's 3x3 56x56x64 -> 64, stride 1, padding 1, bias, ReLU) as
// LOOP_CONV_WS or LOOP_CONV_OS tiles on the Verilated accelerator (bench_loop_conv: the default
// config; bench_loop_conv_td8: TensorDash), with no host (the commands are queued up front), to
// see what bounds the unroller once the host does not: cycles, utilization (MACs / (cycles x
// peak)), where the cycles go (the exclusive causes of docs/evaluation.md) and the DMA bytes;
// the output is checked against a direct CPU convolution and the functional model (the same
// program on it, byte for byte).
//
//   bench_loop_conv [H C OC TILE_ROWS TILE_OCH] [--bytes-per-cycle B] [--latency L] [--no-bias]
//                   [--kernel K] [--stride S] [--os] [--zeros PERCENT] [--td-off] [--loops N]
//                   [--depthwise] [--trace FILE]
//     (H x H x C input, OC output channels; tiles of TILE_ROWS output rows x TILE_OCH output
//      channels, all input channels; default 56 64 64 2 64; --os: LOOP_CONV_OS (TensorDash on
//      A unless --td-off), --zeros: that share of the inputs zero, as after a ReLU; --loops: only
//      the first N loops, for the time of one; the output check then covers what they wrote;
//      --depthwise: the loops' depthwise mode, OC = C, TILE_OCH channels a loop; --trace: a VCD
//      of the run, with bench_loop_conv_trace, whose model traces)
#include "accel_system.h"
#include "conv_loop_case.h"
#include "funcmodel/dram.h"
#include "funcmodel/func_model.h"
#include "funcmodel/params.h"
#include "loop_report.h"
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
  std::vector<int> n = {56, 64, 64, 2, 64};
  int bytesPerCycle = static_cast<int>(cfg.soc.dram.bytesPerCycle);
  int latency = static_cast<int>(cfg.soc.dram.latencyCycles);
  bool bias = true, os = false, tdOff = false, depthwise = false;
  int kernel = 3, stride = 1, zeros = 0, loops = 0;
  std::string trace;
  size_t pos = 0;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--bytes-per-cycle") && a + 1 < argc)
      bytesPerCycle = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--latency") && a + 1 < argc)
      latency = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--no-bias"))
      bias = false;
    else if (!std::strcmp(argv[a], "--os"))
      os = true;
    else if (!std::strcmp(argv[a], "--trace") && a + 1 < argc)
      trace = argv[++a];
    else if (!std::strcmp(argv[a], "--depthwise"))
      depthwise = true;
    else if (!std::strcmp(argv[a], "--td-off"))
      tdOff = true;
    else if (!std::strcmp(argv[a], "--kernel") && a + 1 < argc)
      kernel = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--stride") && a + 1 < argc)
      stride = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--zeros") && a + 1 < argc)
      zeros = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--loops") && a + 1 < argc)
      loops = std::atoi(argv[++a]);
    else if (pos < n.size())
      n[pos++] = std::atoi(argv[a]);
  }
  if (!p.loopConv) {
    std::fprintf(stderr, "needs loops.conv\n");
    return 2;
  }
  test::ConvLoopCase c;
  c.inRows = c.inCols = n[0], c.inCh = n[1], c.outCh = n[2], c.kernel = kernel, c.pad = kernel / 2;
  c.stride = stride, c.relu = true, c.bias = bias, c.valueBits = 3, c.tileRows = n[3];
  c.tileOch = n[4], c.os = os, c.zeroPercent = zeros, c.tdMode = tdOff ? 2 : 0;
  c.depthwise = depthwise;
  if (depthwise)
    c.outCh = c.inCh;
  test::SystemOptions so;
  so.memBase = 0x80000000ull;
  so.memSize = 4u << 20;
  so.stress = false;
  so.fixedLatency = latency;
  so.bytesPerCycle = bytesPerCycle;
  so.tracePath = trace;
  const test::ConvLoopProgram cp = test::buildConvLoop(p, c, so.memBase, so.memSize, 42);
  test::AccelSystem sys(cfg, so);
  fm::DramImage model(so.memBase, so.memSize);
  for (size_t a = 0; a < cp.image.size(); ++a) {
    sys.memory().write8(so.memBase + a, cp.image[a]);
    model.bytes()[a] = cp.image[a];
  }
  fm::FuncModel fmodel(cfg, model);
  // The set-up (5 commands) and the first `loops` loops of 7 commands each (all by default).
  const size_t commands =
      loops > 0 ? std::min(cp.program.size(), size_t(5 + 7 * loops)) : cp.program.size();
  for (size_t i = 0; i < commands; ++i) {
    fmodel.execute(cp.program[i]);
    sys.issue(cp.program[i]);
  }
  const uint64_t c0 = sys.cycle();
  if (!sys.drain()) {
    std::fprintf(stderr, "%s\n", sys.hangReport().c_str());
    return 1;
  }
  const uint64_t cycles = sys.cycle() - c0;
  if (bench::reportRejected(sys)) // after the cycles: the register read takes some
    return 2;
  long mismatches = 0, wrong = 0;
  const size_t outBytes = cp.want.size() * static_cast<size_t>(p.inputBytes);
  for (size_t i = 0; i < outBytes; ++i)
    mismatches += sys.memory().image()[cp.output - so.memBase + i] !=
                  model.bytes()[cp.output - so.memBase + i];
  const bool whole = commands == cp.program.size();    // a partial run leaves outputs unwritten
  for (size_t i = 0; whole && i < cp.want.size(); ++i) // int8 outputs
    wrong += static_cast<int8_t>(sys.memory().image()[cp.output - so.memBase + i]) != cp.want[i];
  const int oh = c.outRows();
  const double macs =
      double(oh) * c.outCols() * c.outCh * (depthwise ? 1 : c.inCh) * kernel * kernel;
  std::printf("%s%s %dx%d/%d conv %dx%dx%d -> %d (%d%% zeros), %d loops of %d rows x %d channels, "
              "DRAM %d cycles, %d B/cycle\n",
              os ? (tdOff ? "LOOP_CONV_OS (TensorDash off)" : "LOOP_CONV_OS") : "LOOP_CONV_WS",
              depthwise ? " depthwise" : "", kernel, kernel, stride, n[0], n[0], n[1], c.outCh,
              zeros, cp.loops, n[3], n[4], latency, bytesPerCycle);
  bench::printLoopReport(sys, cycles, macs, p.dim * p.dim * p.lanes);
  std::printf("  output against the functional model: %s; against the CPU convolution: %s\n",
              mismatches ? (std::to_string(mismatches) + " bytes differ").c_str() : "equal",
              !whole  ? "not checked (a partial run)"
              : wrong ? (std::to_string(wrong) + " elements differ").c_str()
                      : "equal");
  return mismatches || wrong ? 1 : 0;
}
