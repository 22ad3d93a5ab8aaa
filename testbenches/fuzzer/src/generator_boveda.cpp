// The fuzzer's Boveda operation (configs with compression.boveda.enabled): compressed MVOUTs
// of 1 to 4 blocks into a fresh stream, a fence, and compressed MVINs of those blocks back to
// the scratchpad. The generator cannot write compressed data into the input region, so the
// streams it reads are the ones the program wrote, behind a COUNTER_OP (on which the system
// harness waits for idle, as a host fences before reading a counter). The stream and the
// pointer entries get output-region bytes sized for the worst case, so no other MVOUT
// touches them. The entries form a table (consecutive 8-byte entries, so that moves share the
// loader's pointer lines) or are allocated one by one (aligned or not, with gaps up to a few
// lines); the MVINs read them in order, shuffled, or with repeats, sometimes with a FLUSH
// among them (which invalidates the pointer lines). Both channels are put back to plain
// configurations afterwards.
#include "boveda_spec/params.h"
#include "funcmodel/int_math.h"
#include "generator.h"
#include "hwspec/array_params.h"
#include "hwspec/isa.h"

#include <algorithm>

namespace by::fuzzer {

using namespace funcmodel;

void Generation::opCompressed() {
  const uint32_t dim = static_cast<uint32_t>(p_.dim);
  const uint32_t spRow = static_cast<uint32_t>(p_.spRowElems); // DIM*lanes
  const boveda::BovedaParams& f = p_.bovedaFormat;
  const uint64_t containerBytes = static_cast<uint64_t>(f.containerBits / 8);
  struct Move {
    bool acc;
    uint32_t row, rows, cols;
    uint64_t entry;
  };
  std::vector<Move> moves(static_cast<size_t>(uniform(1, 4)));
  uint64_t worst = 0; // stream bytes if every group is at full width
  for (Move& m : moves) {
    m.acc = chance(0.3);
    // Column blocks one local row wide (DIM, or DIM*lanes in the scratchpad), DIM rows apart.
    const uint32_t width = m.acc ? dim : spRow;
    m.cols = pickSize(m.acc ? static_cast<uint32_t>(p_.maxColsAccElems)
                            : static_cast<uint32_t>(p_.maxBlockLen) * spRow);
    m.rows = pickSize(2 * dim);
    const uint64_t memRows = static_cast<uint64_t>(m.acc ? p_.accRows : p_.spRows);
    uint64_t span = (ceilDiv(m.cols, width) - 1) * dim + m.rows;
    if (span > memRows) {
      m.cols = std::min(m.cols, width);
      m.rows = static_cast<uint32_t>(std::min<uint64_t>(m.rows, memRows));
      span = m.rows;
    }
    m.row = static_cast<uint32_t>(uniform(0, memRows - span));
    const uint64_t n = uint64_t{m.rows} * m.cols;
    worst += ceilDiv(ceilDiv(n, static_cast<uint64_t>(f.groupSize)) *
                         static_cast<uint64_t>(f.maxGroupBits()),
                     static_cast<uint64_t>(f.containerBits)) *
             containerBytes;
  }
  uint64_t stream = 0;
  if (!allocOutput(worst, 4, stream))
    return;
  if (chance(0.5)) {
    uint64_t table = 0;
    if (!allocOutput(8 * moves.size(), 8, table))
      return;
    for (size_t i = 0; i < moves.size(); ++i)
      moves[i].entry = table + 8 * i;
  } else {
    for (Move& m : moves) {
      const uint64_t gap = chance(0.3) ? uniform(1, 256) : 0;
      if (!allocOutput(8 + gap, chance(0.5) ? 8 : 1, m.entry))
        return;
    }
  }

  ConfigStArgs st = plainConfigSt(0);
  st.stride = static_cast<uint32_t>(stream);
  st.compressed = true;
  emit(configSt(st), "boveda: compressed stream");
  for (const Move& m : moves)
    emit(mvout(m.entry, m.acc ? accAddr(m.row) : spAddr(m.row), m.rows, m.cols),
         m.acc ? "boveda: compressed mvout (scaled)" : "boveda: compressed mvout");
  emitConfigSt(plainConfigSt(static_cast<uint32_t>(uniform(0, 64))), "boveda: plain again");

  CounterOpArgs fence; // a plain read: the harness waits for idle first
  emit(counterOp(fence), "boveda: fence before reading the stream back");
  const int channel = uniformInt(0, 2);
  ConfigLdArgs ld = randomConfigLd(channel);
  ld.stride = stream;
  ld.compressed = true;
  emit(configLd(ld), "boveda: compressed mvin channel");
  const uint32_t blockStride = ld.blockStride == 0 ? dim : ld.blockStride;
  std::vector<size_t> order;
  for (size_t i = 0; i < moves.size(); ++i)
    order.push_back(i);
  const int how = uniformInt(0, 2); // in order, shuffled, with repeats
  if (how == 1)
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<size_t>(uniform(0, i - 1))]);
  else if (how == 2)
    for (int k = uniformInt(1, 4); k > 0; --k)
      order.push_back(static_cast<size_t>(uniform(0, moves.size() - 1)));
  for (size_t i : order) {
    const Move& m = moves[i];
    if (chance(0.1))
      emit(Instruction{static_cast<uint32_t>(hw::isa::kFlush), 0, 0},
           "boveda: FLUSH (invalidates the pointer lines)");
    const uint32_t blocks = static_cast<uint32_t>(ceilDiv(m.cols, spRow));
    if (blocks > 1 && blockStride < m.rows)
      continue; // column blocks would overlap: not a legal MVIN
    const uint64_t span = uint64_t{blocks - 1} * blockStride + m.rows;
    if (span > uint64_t(p_.spRows))
      continue;
    const uint32_t row = static_cast<uint32_t>(uniform(0, uint64_t(p_.spRows) - span));
    emit(mvin(channel, m.entry, spAddr(row), m.rows, m.cols), "boveda: compressed mvin");
  }
  emitConfigLd(randomConfigLd(channel), "boveda: plain channel again");
}

} // namespace by::fuzzer
