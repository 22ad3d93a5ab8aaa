// LOOP_WS operations of a program generation (configs with loops.ws only, so that other
// configs' programs stay as they were): Gemmini-style set-up (CONFIG_EX WS, the three mvin
// channels and CONFIG_ST from the loop's strides) and one loop with random bounds, paddings,
// strides, bias kind, full_C, accumulation, operands already in the scratchpad (address 0), C
// kept in the accumulator (address 0), and now and then an illegal configuration.
#include "generator.h"
#include "hw/array_params.h"
#include "int_math.h"
#include "isa_fields.h"

#include <algorithm>

namespace by::funcmodel {

void Generation::opLoopWs() {
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t ib = static_cast<uint32_t>(p_.inputBytes), ab = static_cast<uint32_t>(p_.accBytes);
  // The loop's computes read A rows and write C rows one apart (Gemmini's set-up).
  if (ex_.dataflow != hw::kDataflowWS || ex_.aStride != 1 || ex_.cStride != 1 || chance(0.1)) {
    ConfigExArgs a = randomConfigEx(hw::kDataflowWS);
    a.aStride = 1, a.cStride = 1;
    emitConfigEx(a, "loop: config_ex");
  }
  LoopWsArgs l;
  auto bound = [&]() { return static_cast<uint32_t>(chance(0.7) ? uniform(1, 2) : uniform(1, 5)); };
  l.I = bound(), l.J = bound(), l.K = bound();
  auto pad = [&]() { return chance(0.5) ? 0u : static_cast<uint32_t>(uniform(0, dim - 1)); };
  l.padI = pad(), l.padJ = pad(), l.padK = pad();
  const uint64_t half = static_cast<uint64_t>(p_.spRows / 2);
  while ((uint64_t{l.I} * l.K + uint64_t{l.K} * l.J) * dim > half ||
         uint64_t{l.I} * l.J * dim > static_cast<uint64_t>(p_.accRows / 2)) {
    l.I = std::max(1u, l.I / 2), l.J = std::max(1u, l.J / 2), l.K = std::max(1u, l.K / 2);
  }
  l.exAccumulate = chance(0.6);
  l.fullC = chance(0.3);
  l.lowD = chance(0.4);
  l.act = chance(0.9) ? 0 : 1;
  // Strides in elements, at least a row of the matrix; sources inside the input region.
  const uint64_t rowsA = uint64_t{l.I} * dim, colsA = uint64_t{l.K} * dim;
  const uint64_t colsB = uint64_t{l.J} * dim;
  l.aStride = colsA + (chance(0.5) ? 0 : uniform(1, 9));
  l.bStride = colsB + (chance(0.5) ? 0 : uniform(1, 9));
  const bool repeating = chance(0.2);
  l.dStride = repeating ? 0 : colsB + (chance(0.5) ? 0 : uniform(1, 5));
  const uint64_t dBytes = l.lowD ? ib : ab, cBytes = l.fullC ? ab : ib;
  auto source = [&](uint64_t span) -> uint64_t {
    if (span + 4 > layout_.input.size)
      return 0;
    return layout_.input.base + uniform(0, layout_.input.size - span);
  };
  l.A = chance(0.1) ? 0 : source(((rowsA - 1) * l.aStride + colsA) * ib);
  l.B = chance(0.1) ? 0 : source(((colsA - 1) * l.bStride + colsB) * ib);
  l.D = chance(0.4) ? 0 : source(((repeating ? 0 : rowsA - 1) * l.dStride + colsB) * dBytes);
  l.cStride = colsB + (chance(0.5) ? 0 : uniform(1, 7));
  uint64_t c = 0;
  if (chance(0.85) && !allocOutput(((rowsA - 1) * l.cStride + colsB) * cBytes, 16, c))
    c = 0;
  l.C = c;
  emitConfigLd({0, false, 1, 0, floatBits(1.0f), l.aStride * ib, false}, "loop: config_ld A");
  emitConfigLd({1, false, 1, 0, floatBits(1.0f), l.bStride * ib, false}, "loop: config_ld B");
  emitConfigLd({2, l.lowD, 1, 0, floatBits(1.0f), l.dStride * dBytes, false}, "loop: config_ld D");
  ConfigStArgs st = plainConfigSt(static_cast<uint32_t>(l.cStride * cBytes));
  st.stride = static_cast<uint32_t>(l.cStride * cBytes);
  emitConfigSt(st, "loop: config_st");
  // Now and then an illegal configuration (its error is known without the loop's halves), in
  // programs that have illegal commands at all.
  int expected = 0;
  const bool illegal = chance(0.12);
  if (illegal && options_.illegalFraction > 0) {
    switch (uniformInt(0, 4)) {
    case 0:
      l.aTranspose = true, expected = isaFields().err.unsupported;
      break;
    case 1:
      l.act = 2, expected = isaFields().err.unsupported;
      break;
    case 2:
      l.J = 0, expected = isaFields().err.badSize;
      break;
    case 3:
      l.padK = dim, expected = isaFields().err.badSize;
      break;
    default:
      l.K = static_cast<uint32_t>(half / dim + 1), expected = isaFields().err.localRange;
      break;
    }
  }
  const Program cmds = loopWs(l);
  for (size_t i = 0; i < cmds.size(); ++i)
    emit(cmds[i], i + 1 < cmds.size() ? "loop: config" : "loop_ws",
         i + 1 < cmds.size() ? 0 : expected);
  if (expected == 0)
    arrayValid_ = true; // the loop's last compute leaves its weights
}

} // namespace by::funcmodel
