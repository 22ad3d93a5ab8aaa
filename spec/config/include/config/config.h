// Typed, validated Brickyard configuration (defaults, ranges and docs live in schema.cpp only).
// Everything downstream of YAML parsing (generators,
// header emitters, models, the CLI) sees only these structs, never YAML nodes.
#pragma once

#include <cstdint>
#include <string>

namespace by::config {

enum class Dataflow { WS, OS, Both };

const char* toString(Dataflow df);

struct ArrayConfig {
  int meshRows{};
  int meshCols{};
  int tileRows{};
  int tileCols{};
  int lanes{}; // MACs per PE reducing into one sum (vector PE); 1 = classic Gemmini PE
  Dataflow dataflow{};
};

struct TypesConfig {
  int inputWidth{};         // elem_t: scratchpad / array operand width
  int accWidth{};           // acc_t: accumulator and OS in-PE accumulation width
  int spatialOutputWidth{}; // width of partial sums / results leaving the array
};

struct SramConfig {
  int capacityKiB{};
  int banks{};
  int ports{}; // 1 = single-port (read or write per cycle), 2 = one read + one write port
};

struct ScratchpadConfig : SramConfig {
  int rowsPerWord{}; // consecutive rows one SRAM access reads (writes are masked to one row)
};

struct MemoryConfig {
  ScratchpadConfig scratchpad;
  SramConfig accumulator;
};

struct DmaConfig {
  int busWidth{};          // AXI4 data width in bits
  int maxInflight{};       // outstanding AXI transactions (IDs)
  int maxInflightWrites{}; // outstanding AXI writes; 0: maxInflight
  int maxBurst{};          // beats per INCR burst
  int maxBytes{};          // bytes per DMA row request (Gemmini's MAX_BYTES)

  /// Outstanding reads: max_inflight.
  int readsInflight() const { return maxInflight; }
  /// Outstanding writes: max_inflight_writes, or max_inflight where it is 0 (not set).
  int writesInflight() const { return maxInflightWrites ? maxInflightWrites : maxInflight; }
};

struct TensorDashConfig {
  bool enabled{};
  int lookahead{};        // window depth is lookahead + 1
  int rowsPerScheduler{}; // PE rows that share one schedule (advance in lockstep)
  bool scheduleB{};       // CONFIG_EX td_side = 1 schedules B (D and C transposers)
};

struct BovedaConfig {
  bool enabled{};
  int groupSize{};     // values per group
  int headerBits{};    // width header per group
  int containerBits{}; // container ("brick") size
  bool zeroAware{};    // zero bitmap + non-zero values only
  bool onChip{};       // compressed scratchpad storage (the stronger form)
};

struct LoopsConfig {
  bool ws{};   // the LOOP_WS matmul loop unroller (Gemmini funct 8, configured by 9-13)
  bool conv{}; // the LOOP_CONV_WS convolution unroller (Gemmini funct 15, configured by 16-21)
};

struct CommandsConfig {
  int reservationStationEntries{}; // commands queued between the decoder and the controllers
};

struct ActivationsConfig {
  bool table{}; // the mvout's function table (CONFIG_TABLE, Brickyard funct 34)
};

struct DramConfig {
  int latencyCycles{}; // first-beat latency in accelerator clock cycles
  int bytesPerCycle{}; // sustained bandwidth in bytes per accelerator cycle
  int sizeMiB{};       // backing-store size
};

struct SocConfig {
  int clockMHz{};
  int hostCpiTenths{}; // host CPU cycles per instruction x10 (10 = CPI 1.0)
  DramConfig dram;
};

struct Config {
  std::string name;
  ArrayConfig array;
  TypesConfig types;
  MemoryConfig memory;
  DmaConfig dma;
  TensorDashConfig tensordash;
  BovedaConfig boveda;
  LoopsConfig loops;
  CommandsConfig commands;
  ActivationsConfig activations;
  SocConfig soc;
};

} // namespace by::config
