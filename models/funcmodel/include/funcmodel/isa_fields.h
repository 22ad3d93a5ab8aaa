// Every operand field the model, the encoders and the generator use, resolved once from the
// ISA table (spec/hw/src/isa.cpp) so that no bit position is written here.
#pragma once

#include "hwspec/isa.h"

namespace by::funcmodel {

using hw::isa::Field;

/// {local_addr, cols, rows} of MVIN/MVOUT rs2 and of the PRELOAD/COMPUTE operands.
struct LocalOperandFields {
  Field addr, cols, rows;
};

struct IsaFields {
  int functMvin[3]; // MVIN, MVIN2, MVIN3: channels 0, 1, 2
  int functMvout, functPreload, functComputePreloaded, functComputeAccumulated;
  int functFlush, functCounterOp, functConfig, functDecompress;
  int configEx, configLd, configSt; // rs1[1:0] values

  Field cmdType;
  struct {
    Field dataflow, activation, setOnlyStrides, aTranspose, bTranspose, tdOff, tdSide, aStride,
        accScale;
    Field inShift, relu6Shift, cStride;
  } ex;
  struct {
    Field shrink, stateId, pixelRepeats, blockStride, scale, stride, compressed;
  } ld;
  struct {
    Field activation, poolStride, poolSize, upad, lpad, poolOutDim, porows, pocols, orows, ocols,
        stride, accScale, compressed;
  } st;
  // Each command's own fields, although the table gives them one layout today.
  Field mvinDram[3];               // rs1 of MVIN, MVIN2, MVIN3
  LocalOperandFields mvin[3];      // rs2 of MVIN, MVIN2, MVIN3
  Field mvoutDram;                 // rs1 of MVOUT
  LocalOperandFields mvout;        // rs2 of MVOUT
  LocalOperandFields computeA[2];  // rs1 of COMPUTE_ACCUMULATED [0], COMPUTE_PRELOADED [1]
  LocalOperandFields computeBD[2]; // rs2 of COMPUTE_ACCUMULATED [0], COMPUTE_PRELOADED [1]
  LocalOperandFields preloadBD;    // rs1 of PRELOAD
  LocalOperandFields preloadC;     // rs2 of PRELOAD
  struct {
    Field src, containers;  // rs1
    LocalOperandFields dst; // rs2
  } decompress;
  struct {
    Field reset, snapshotReset, snapshot, configure, index, event, external;
  } ctr;

  // Error codes by name.
  struct {
    int unknownFunct, badConfigType, unsupported, localRange, badLocalAddr, badSize, badShift,
        unpaired, dmaError, badPool;
  } err;
};

/// The table, resolved (built on first use, immutable afterwards).
const IsaFields& isaFields();

/// A decoded local address (docs/isa.md "Local addresses").
struct LocalAddr {
  uint32_t raw = 0;
  bool garbage() const { return raw == hw::isa::kGarbageAddr; }
  bool acc() const { return (raw >> hw::isa::kLocalAccBit) & 1u; }
  bool accumulate() const { return (raw >> hw::isa::kLocalAccumulateBit) & 1u; }
  bool full() const { return (raw >> hw::isa::kLocalFullBit) & 1u; }
  uint32_t row() const { return raw & ((1u << hw::isa::kLocalRowBits) - 1); }
};

/// An operand decoded through one of the LocalOperandFields.
struct LocalOperand {
  LocalAddr addr;
  uint32_t rows = 0;
  uint32_t cols = 0;
};

inline LocalOperand decodeOperand(const LocalOperandFields& f, uint64_t word) {
  LocalOperand op;
  op.addr.raw = static_cast<uint32_t>(f.addr.extract(word));
  op.rows = static_cast<uint32_t>(f.rows.extract(word));
  op.cols = static_cast<uint32_t>(f.cols.extract(word));
  return op;
}

} // namespace by::funcmodel
