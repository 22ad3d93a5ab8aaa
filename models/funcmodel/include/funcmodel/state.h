// The architectural state of the accelerator as docs/isa.md defines it: local memories,
// the CONFIG state, the array's stationary data, the pending PRELOAD, the COUNTER_OP
// counters and the error register. Plain data, comparable, so that tests can check that a
// rejected command changed nothing.
#pragma once

#include "hwspec/isa.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace by::funcmodel {

/// CONFIG_EX state. Strides are stored as effective values (a 0 in the command means 1).
struct ExecConfig {
  int dataflow = 0;   // hw::kDataflowOS or hw::kDataflowWS
  int activation = 0; // hw::isa::kActNone or kActRelu, for results written to the scratchpad
  uint32_t inShift = 0;
  uint32_t aStride = 1;
  uint32_t cStride = 1;
  // TensorDash run-time control (performance only: results do not depend on it).
  bool tdOff = false; // OS computes run as dense beats
  int tdSide = 0;     // the scheduled operand: 0 A, 1 B
  // COMPUTE's A / B (OS: the COMPUTE's BD) are stored transposed (docs/isa.md, "Transposes").
  bool aTranspose = false;
  bool bTranspose = false;
  bool operator==(const ExecConfig& o) const;
};

/// CONFIG_LD state of one mvin channel (MVIN 0, MVIN2 1, MVIN3 2). blockStride is the
/// effective value (0 in the command means DIM).
struct LoadChannel {
  uint64_t stride = 0; // compressed: the stream base
  uint32_t blockStride = 0;
  bool shrink = false;
  bool compressed = false; // Boveda: MVINs read compressed blocks
  bool operator==(const LoadChannel& o) const;
};

/// CONFIG_ST pooling parameters; stride = size = 0 is a plain mvout.
struct PoolConfig {
  uint32_t stride = 0, size = 0, upad = 0, lpad = 0, outDim = 0;
  uint32_t porows = 0, pocols = 0, orows = 0, ocols = 0;
  bool pooling() const { return stride != 0; }
  bool strided() const { return stride == 0 && size != 0; } // Gemmini's 1-D mvout
  bool operator==(const PoolConfig& o) const;
};

struct StoreConfig {
  uint32_t stride = 0;        // compressed: the stream base
  bool compressed = false;    // Boveda: MVOUTs write compressed blocks
  uint64_t nextContainer = 0; // compressed: where the next block goes (reset by CONFIG_ST)
  int activation = 0;
  uint32_t accScaleBits = 0x3f800000u; // IEEE single; 1.0f after reset
  PoolConfig pool;
  /// The function table (CONFIG_TABLE): entry x + 128 replaces an accumulator MVOUT's output x
  /// while enabled.
  std::array<int8_t, 256> table{};
  bool tableEnabled = false;
  /// An int8 output through the table while it is enabled.
  int64_t tabled(int64_t v) const {
    return tableEnabled ? table[static_cast<size_t>(v + 128) & 255u] : v;
  }
  float accScale() const;
  bool operator==(const StoreConfig& o) const;
};

/// The array's stationary state: WS weights W (DIM*lanes x DIM) or the OS accumulation P
/// (DIM x DIM), row major, and whether it may be continued by COMPUTE_ACCUMULATED.
struct ArrayState {
  bool valid = false;
  std::vector<int64_t> w;
  std::vector<int64_t> p;
  bool operator==(const ArrayState& o) const;
};

/// A PRELOAD waiting for its COMPUTE (already checked on arrival).
struct PendingPreload {
  uint64_t rs1 = 0;
  uint64_t rs2 = 0;
  bool operator==(const PendingPreload& o) const { return rs1 == o.rs1 && rs2 == o.rs2; }
};

constexpr int kCounters = hw::isa::kNumCounters;

/// The COUNTER_OP counter file.
struct CounterState {
  std::array<uint32_t, kCounters> value{};
  std::array<uint32_t, kCounters> snapshot{};
  std::array<int, kCounters> event{};     // event id (hw::isa::counterEvents())
  std::array<bool, kCounters> external{}; // the event id names an external value counter
  std::array<bool, kCounters> snapshotDeterministic{};
  bool snapshotMode = false;
  bool operator==(const CounterState& o) const;
};

/// LOOP_WS state (loops.ws): what the LOOP_WS_CONFIG_* commands set (kept until overwritten)
/// and the halves the next loop uses (docs/isa.md, "LOOP_WS").
struct LoopWsState {
  uint32_t maxI = 0, maxJ = 0, maxK = 0; // tiles (16-bit fields)
  uint32_t padI = 0, padJ = 0, padK = 0; // elements missing from the last tile
  uint64_t a = 0, b = 0, d = 0, c = 0;   // DRAM addresses
  uint64_t aStride = 0, bStride = 0, dStride = 0, cStride = 0; // in elements
  int spHalf = 0;  // scratchpad half of the next loop (toggles with every loop)
  int accHalf = 0; // accumulator half of the next loop (toggles after a loop that stores C)
  bool operator==(const LoopWsState& o) const;
};

/// LOOP_CONV_WS state (loops.conv): the rs1/rs2 words of LOOP_CONV_WS_CONFIG_1..6 (kept until
/// overwritten) and the halves the next loop uses (docs/isa.md, "LOOP_CONV_WS").
struct LoopConvState {
  std::array<uint64_t, 12> words{}; // CONFIG_n rs1 at 2(n-1), rs2 at 2(n-1)+1
  int spHalf = 0;
  int accHalf = 0;
  bool operator==(const LoopConvState& o) const {
    return words == o.words && spHalf == o.spHalf && accHalf == o.accHalf;
  }
};

struct ArchState {
  std::vector<int64_t> sp;  // spRows x DIM*lanes elem_t values, row major
  std::vector<int64_t> acc; // accRows x DIM acc_t values, row major
  ExecConfig ex;
  std::array<LoadChannel, 3> ld;
  StoreConfig st;
  ArrayState array;
  std::optional<PendingPreload> preload;
  CounterState counters;
  LoopWsState loop;
  LoopConvState conv;
  bool operator==(const ArchState& o) const;
  bool operator!=(const ArchState& o) const { return !(*this == o); }
};

/// The ERROR / ERROR_COUNT registers.
struct ErrorState {
  int code = 0;       // first error since the last clear (0 = none)
  int funct = 0;      // its funct7
  uint32_t count = 0; // commands rejected since reset
  bool operator==(const ErrorState& o) const {
    return code == o.code && funct == o.funct && count == o.count;
  }
};

} // namespace by::funcmodel
