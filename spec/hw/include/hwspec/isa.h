// The Brickyard ISA: Gemmini's funct codes and operand layouts, written once. This table
// drives the RTL decoder's field positions, the functional model's decoder, the generated C
// header (brickyard_isa.h) and the encoding tables in docs/isa.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace by::hw::isa {

/// RoCC funct7 values (Gemmini's k_* constants).
enum Funct : int {
  kConfig = 0,
  kMvin2 = 1,
  kMvin = 2,
  kMvout = 3,
  kComputePreloaded = 4,
  kComputeAccumulated = 5,
  kPreload = 6,
  kFlush = 7,
  kLoopWs = 8,                 // LOOP_WS: runs the configured matmul loop (loops.ws)
  kLoopWsConfigBounds = 9,     // LOOP_WS_CONFIG_BOUNDS
  kLoopWsConfigAddrsAb = 10,   // LOOP_WS_CONFIG_ADDRS_AB
  kLoopWsConfigAddrsDc = 11,   // LOOP_WS_CONFIG_ADDRS_DC
  kLoopWsConfigStridesAb = 12, // LOOP_WS_CONFIG_STRIDES_AB
  kLoopWsConfigStridesDc = 13, // LOOP_WS_CONFIG_STRIDES_DC
  kMvin3 = 14,
  kLoopConvWs = 15,        // LOOP_CONV_WS: runs the configured convolution loop (loops.conv)
  kLoopConvWsConfig1 = 16, // LOOP_CONV_WS_CONFIG_1 .. _6 (17..21)
  kLoopConvWsConfig6 = 21,
  kDecompress = 32,  // Brickyard: Boveda on-chip decompression (not a Gemmini funct)
  kLoopConvOs = 33,  // Brickyard: the LOOP_CONV_WS_CONFIG_* tile, output-stationary (loops.conv)
  kConfigTable = 34, // Brickyard: the mvout's function table (activations.table)
  kCounterOp = 126,
};

/// CONFIG sub-commands, in rs1[1:0].
enum ConfigType : int { kConfigEx = 0, kConfigLd = 1, kConfigSt = 2 };

/// Which controller executes a command.
enum class Queue { Load, Store, Execute, Immediate, Loop, LoopConv };

/// A bit field of rs1 or rs2.
struct Field {
  std::string name; // C identifier fragment, e.g. "local_addr"
  int lsb = 0;
  int width = 0;
  std::string doc;
  uint64_t mask() const { return width >= 64 ? ~0ull : ((1ull << width) - 1); }
  uint64_t extract(uint64_t word) const { return (word >> lsb) & mask(); }
  uint64_t place(uint64_t value) const { return (value & mask()) << lsb; }
};

struct Command {
  std::string name;        // e.g. "MVIN", "CONFIG_EX"
  int funct = 0;           // RoCC funct7
  int configType = -1;     // for CONFIG: the rs1[1:0] value; -1 otherwise
  std::string gemminiName; // the gemmini.h macro that issues it
  Queue queue = Queue::Immediate;
  std::string summary;
  std::vector<Field> rs1;
  std::vector<Field> rs2;
  bool writesRd = false; // returns a value in rd (RoCC response)

  const Field& rs1Field(const std::string& field) const;
  const Field& rs2Field(const std::string& field) const;
};

/// Every command, in funct order (the CONFIG sub-commands separately).
const std::vector<Command>& commands();
const Command& command(const std::string& name);

// --- Local addresses (32 bits, the low word of rs1/rs2 operands).
constexpr int kLocalAccBit = 31;        // 1: accumulator, 0: scratchpad
constexpr int kLocalAccumulateBit = 30; // accumulator writes add instead of overwriting
constexpr int kLocalFullBit = 29;       // MVOUT from the accumulator: raw acc_t values
constexpr int kLocalRowBits = 29;       // bits 28:0: row number
constexpr uint32_t kGarbageAddr = 0xffffffffu;
constexpr uint32_t kAccScaleKeep = 0xffffffffu; // CONFIG_ST acc_scale that keeps the old one
constexpr uint32_t kFloatOne = 0x3f800000u;     // 1.0f
constexpr uint32_t kIdValue = 0x42594431u;      // the ID register: "BYD1"
constexpr uint32_t kVersion = 1;                // the VERSION register: interface version
constexpr uint32_t kPerfRegisterBase = 0x100;   // the 64-bit counters' registers (LO, HI, ...)

// --- Boveda: a pointer-table entry is {first container, containers}, two little-endian
// 32-bit words (docs/isa.md, "Boveda: compressed moves").
constexpr uint64_t kBovedaEntryBytes = 8;

// --- MVIN requests (docs/architecture.md, "Load controller"). DRAM rows that touch or overlap
// (0 < stride <= rowBytes) go several to a DMA read: the largest power of two n whose span
// (n-1) x stride + rowBytes fits maxBytes, at most the rows left; other rows one to a read
// (stride 0, a broadcast, reads its row once). Which bytes are read (the DMA byte counters) is
// architectural: the load controller's RTL implements this rule and the functional model
// follows it.
constexpr uint64_t mvinRowsPerRead(uint64_t rowBytes, uint64_t stride, uint64_t maxBytes,
                                   uint64_t rowsLeft) {
  uint64_t n = 1;
  if (stride != 0 && stride <= rowBytes)
    while (2 * n <= maxBytes && (2 * n - 1) * stride + rowBytes <= maxBytes)
      n *= 2;
  return n < rowsLeft ? n : rowsLeft;
}

// --- Boveda: the loader's pointer-line buffer (docs/boveda.md, "Pointer lines"). Compressed
// MVINs read their 8-byte pointer entries through kBovedaPtrLines aligned lines of
// bovedaPtrLineBytes(dma.max_bytes) bytes; which lines it reads (and so the DMA byte counters
// and what a stale line returns) is architectural, and the functional model follows it.
constexpr int kBovedaPtrLines = 4;
constexpr int bovedaPtrLineBytes(int maxBytes) {
  return maxBytes < 64 ? maxBytes : 64;
}
constexpr uint64_t kBovedaPtrPageBytes = 4096; // a prefetch never leaves the entry's page

// --- Activations (CONFIG_EX, CONFIG_ST).
constexpr int kActNone = 0;
constexpr int kActRelu = 1;

/// Error codes latched in the ERROR register (the first error wins; all are counted).
struct ErrorCode {
  int code;
  std::string name;
  std::string doc;
};
const std::vector<ErrorCode>& errorCodes();
int errorCode(const std::string& name);

/// Events the COUNTER_OP counters can count (Gemmini's CounterEvent numbering where Gemmini
/// has the event; Brickyard's own events above it).
struct CounterEvent {
  int id;
  std::string name;
  std::string doc;
  bool external; // a value maintained elsewhere (rs1[31] = 1 selects it), not a cycle count
};
const std::vector<CounterEvent>& counterEvents();
constexpr int kNumCounters = 8; // COUNTER_OP counters (rs1[6:4])

/// The AXI4-Lite control registers (32-bit, byte addresses).
struct Register {
  uint32_t offset;
  std::string name;
  std::string access; // "RO", "RW", "W1C", "WO"
  std::string doc;
};
const std::vector<Register>& registers();
uint32_t registerOffset(const std::string& name);

/// Bit fields of the control registers that software tests or sets (STATUS, ERROR, IRQ_*,
/// HW_FEATURES), so that a driver reads them from the generated header, not from prose.
struct RegisterField {
  std::string reg;  // register name (registers())
  std::string name; // field name
  int lsb;
  int width;
};
const std::vector<RegisterField>& registerFields();

/// Markdown tables of the encodings, registers, errors and events (docs/isa.md).
std::string referenceMarkdown();
/// C99 header with funct codes, field shifts/masks, register offsets, error codes and events.
std::string cHeader(const std::string& generator);

} // namespace by::hw::isa
