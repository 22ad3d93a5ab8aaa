// The functional ISA model: executes Brickyard commands one at a time in program order,
// exactly as docs/isa.md specifies (the reservation station makes the hardware's result
// equal to that order). It is the reference for the fast TLM model, the RTL system tests
// and the driver's bare-metal suite.
//
// Timing does not exist here: COUNTER_OP counters configured with cycle events
// (MAIN_*_CYCLES, *_ACTIVE_CYCLE, ...) and the reservation-station occupancy counters
// (ROB_*_COUNT) count nothing and read 0. The external byte counters RDMA_BYTES_REC and
// WDMA_BYTES_SENT are deterministic and count the payload bytes of the elements moved
// (see dramBytesRead()). ExecResult::rdDeterministic says which reads a system test may
// compare against this model.
//
// Where docs/isa.md is silent, this model decides (as the RTL command decoder does, unless
// noted; to be folded into the doc):
//  - Check order when a command breaks several rules: UNKNOWN_FUNCT / BAD_CONFIG_TYPE,
//    UNPAIRED, UNSUPPORTED, BAD_LOCAL_ADDR, BAD_POOL, BAD_SIZE, LOCAL_RANGE, BAD_SHIFT,
//    DMA_ERROR.
//  - A PRELOAD is checked on arrival; a bad one is rejected at once (the next COMPUTE is then
//    UNPAIRED). A COMPUTE that fails its checks rejects the pair: one error, the PRELOAD is
//    consumed, nothing changes. Any command other than a COMPUTE (FLUSH and COUNTER_OP
//    included) leaves a PRELOAD dangling.
//  - COMPUTE_ACCUMULATED with no valid stationary data (after reset or a full CONFIG_EX) is
//    UNPAIRED.
//  - Multiplier operands (A, OS B, WS weights) are scratchpad or GARBAGE; the bias / initial
//    accumulators D may also be accumulator rows. Source operands of the array carry no
//    flags. `accumulate` on an MVOUT accumulator source and `full` on an accumulator C are
//    accepted and ignored, because gemmini.h issues both (sp_tiled_conv / sp_tiled_matmul_*
//    use C = 3 << 30 | full_C << 29 for PRELOAD and MVOUT); the RTL decoder of 651e644 rejects
//    them. `full` on an MVIN destination is BAD_LOCAL_ADDR.
//  - WS: C.rows > A.rows is BAD_SIZE. GARBAGE operands still need sizes in 1..DIM.
//  - CONFIG_EX: transposes are UNSUPPORTED even with set_only_strides, which otherwise reads
//    and checks nothing but the strides. CONFIG_LD: state_id 3 is UNSUPPORTED, a stride of 2^32
//    or more is BAD_SIZE. Pooling parameters are checked by the MVOUT that uses them.
//  - Pooled and strided (1-D) MVOUT ignore `rows`; both need cols <= DIM and a non-empty image
//    (and pooled output), else BAD_POOL; cols = 0 is BAD_SIZE. A strided mvout may read the
//    scratchpad or the accumulator (scaled or full). Pooled elements are IW/8 bytes apart.
//  - DMA_ERROR for a span beyond 32 bits is found before any transfer. A DramPort failure
//    (AXI error) leaves local memory unchanged, but MVOUT rows written before it stay written
//    and transferred bytes are counted. MVOUT to DRAM address 0 is an ordinary address.
//  - COUNTER_OP returns the counter as the command finds it; `reset` clears counters and the
//    snapshot but keeps event configurations and dominates the snapshot bits of the same
//    command; `snapshot_reset` dominates `snapshot`; event ids the table does not define are
//    accepted and count nothing; external counters count from their configure / reset.
//  - Local memories are zero after construction (hardware SRAMs are not reset).
#pragma once

#include "config/config.h"
#include "funcmodel/dram.h"
#include "funcmodel/params.h"
#include "funcmodel/program.h"
#include "funcmodel/state.h"

#include <cstdint>
#include <vector>

namespace by::funcmodel {

struct LocalOperand; // a decoded operand (internal)

struct ExecResult {
  bool accepted = true;
  int error = 0;      // hw::isa error code when rejected (0 when accepted)
  bool hasRd = false; // COUNTER_OP: rd holds the selected counter
  uint64_t rd = 0;    // the counter as this command found it (before its effect), zero-extended
  bool rdDeterministic = true; // rd does not depend on timing (see the header comment)
  /// A PRELOAD that was waiting for its COMPUTE was rejected (UNPAIRED) when this command
  /// arrived; this command itself was then executed normally (accepted/error are its own).
  bool preloadRejected = false;
};

class FuncModel {
public:
  /// Throws std::invalid_argument for configurations the model does not support (lanes > 1).
  /// `dram` must outlive the model.
  FuncModel(const config::Config& config, DramPort& dram);

  /// Executes one command (funct7, rs1, rs2).
  ExecResult execute(uint32_t funct, uint64_t rs1, uint64_t rs2);
  ExecResult execute(const Instruction& instr) {
    aColOffset_ = instr.aColOffset;
    const ExecResult r = execute(instr.funct, instr.rs1, instr.rs2);
    aColOffset_ = 0;
    return r;
  }

  const ModelParams& params() const { return params_; }
  /// Element `col` of local row `row` (sign-extended elem_t / acc_t).
  int64_t sp(int row, int col) const;
  int64_t acc(int row, int col) const;
  /// Everything a command can change except DRAM and the error register.
  const ArchState& state() const { return state_; }
  /// ERROR (first code and funct since the last clear) and ERROR_COUNT.
  const ErrorState& error() const { return error_; }
  /// Writing 1s to ERROR[7:0]: clears the latched code and funct (not the count).
  void clearError();
  /// Payload bytes moved by the DMA since construction: rows x cols x element bytes of every
  /// DRAM read (MVIN from a non-zero address; a stride-0 mvin reads its row `rows` times) and
  /// of every DRAM write (MVOUT); for compressed moves the containers, the pointer-table
  /// lines the loader reads (pointerEntry()) and the entries written. Rejected commands move
  /// nothing, except that the transfers before a failing DramPort access (an AXI error) have
  /// happened.
  uint64_t dramBytesRead() const { return bytesRead_; }
  uint64_t dramBytesWritten() const { return bytesWritten_; }

private:
  // One handler per command family; each returns 0 or the error code that rejects it and
  // changes nothing when it rejects (DramPort failures excepted, see dramBytesRead()).
  int execConfig(uint64_t rs1, uint64_t rs2);
  int execConfigEx(uint64_t rs1, uint64_t rs2);
  /// CONFIG_EX's transposes are legal for this dataflow and hardware (docs/isa.md).
  bool transposesOk(int dataflow, bool aT, bool bT) const;
  int execConfigLd(uint64_t rs1, uint64_t rs2);
  int execConfigSt(uint64_t rs1, uint64_t rs2);
  int execMvin(int channel, uint64_t rs1, uint64_t rs2);
  int execMvout(uint64_t rs1, uint64_t rs2);
  // Boveda moves (boveda_moves.cpp): one block of rows x cols elem_t values.
  int execMvinCompressed(int channel, uint64_t rs1, uint64_t rs2);
  int execMvoutCompressed(uint64_t rs1, uint64_t rs2);
  int execDecompress(uint64_t rs1, uint64_t rs2);
  void execConfigTable(uint64_t rs1, uint64_t rs2);
  int checkPreload(uint64_t rs1, uint64_t rs2) const;
  int execCompute(bool preloaded, uint64_t rs1, uint64_t rs2);
  void computeWs(bool preloaded, uint64_t pre1, uint64_t pre2, uint64_t rs1, uint64_t rs2);
  void computeOs(bool preloaded, uint64_t pre1, uint64_t pre2, uint64_t rs1, uint64_t rs2);
  void writeResult(const LocalOperand& c, const std::vector<int64_t>& r);
  uint64_t execCounterOp(uint64_t rs1, bool& deterministic);
  // LOOP_WS and its configuration commands (loops.ws; loop_ws.cpp has the unroll order).
  int execLoopWs(uint32_t funct, uint64_t rs1, uint64_t rs2);
  // LOOP_CONV_WS and its configuration commands (loops.conv; loop_conv.cpp has the order).
  int execLoopConv(uint32_t funct, uint64_t rs1, uint64_t rs2);
  // Executes a loop's commands with its moves' own block strides (0: the channel's, or DIM for
  // MVOUT); the host's configured ones hold again after them.
  void runLoopCommands(const std::vector<Instruction>& commands, uint32_t mvin, uint32_t mvin2,
                       uint32_t mvin3, uint32_t mvout);

  // The Boveda loader's pointer-line buffer (boveda_moves.cpp; docs/boveda.md, "Pointer
  // lines"): a compressed MVIN reads its entry through it.
  bool pointerEntry(uint64_t addr, uint8_t* entry);
  void fillPointerLine(size_t slot, uint64_t line);
  void touchPointerLine(size_t slot);
  size_t pointerVictim() const;

  bool dramRead(uint64_t addr, uint8_t* dst, size_t n);
  bool dramWrite(uint64_t addr, const uint8_t* src, size_t n);
  void reject(int code, uint32_t funct);
  int64_t& spAt(uint64_t row, int col);
  int64_t& accAt(uint64_t row, int col);

  ModelParams params_;
  DramPort& dram_;
  ArchState state_;
  // While a loop runs: the block stride of its MVOUTs (0: DIM, as for the host's).
  uint32_t loopMvoutBlockStride_ = 0;
  // The A column offset of the COMPUTE executing (Instruction::aColOffset).
  uint32_t aColOffset_ = 0;
  ErrorState error_;
  uint64_t bytesRead_ = 0;
  uint64_t bytesWritten_ = 0;

  // The pointer-line buffer's state. Kept out of ArchState: it is invalidated by every
  // CONFIG_LD, MVOUT and FLUSH command, rejected or not, and a rejected command changes no
  // architectural state.
  struct PointerLine {
    bool valid = false;
    uint64_t line = 0;  // its address / line bytes
    int age = 0;        // 0: the most recently used; the lines' ages are a permutation
    bool error = false; // its read failed (an AXI error): entries in it are read alone
    std::vector<uint8_t> data;
  };
  std::vector<PointerLine> ptrLines_;
  bool ptrInvalidate_ = false; // a CONFIG_LD, MVOUT or FLUSH since the last lookup
  bool ptrLastValid_ = false;  // ptrLast_: the line of the last lookup since invalidation
  uint64_t ptrLast_ = 0;
};

} // namespace by::funcmodel
