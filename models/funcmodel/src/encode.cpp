#include "funcmodel/encode.h"

#include "funcmodel/isa_fields.h"
#include "hwspec/isa.h"

#include <cstring>

namespace by::funcmodel {

namespace {

uint64_t operandWord(const LocalOperandFields& f, const Operand& op) {
  return f.addr.place(op.addr) | f.rows.place(op.rows) | f.cols.place(op.cols);
}

} // namespace

uint32_t spAddr(uint32_t row) {
  return row & ((1u << hw::isa::kLocalRowBits) - 1);
}

uint32_t accAddr(uint32_t row, bool accumulate, bool full) {
  return spAddr(row) | (1u << hw::isa::kLocalAccBit) |
         (accumulate ? 1u << hw::isa::kLocalAccumulateBit : 0u) |
         (full ? 1u << hw::isa::kLocalFullBit : 0u);
}

uint32_t garbageAddr() {
  return hw::isa::kGarbageAddr;
}

uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

Program loopConv(const LoopConvArgs& a) {
  auto put = [](int n, bool rs2, const char* name, uint64_t v) {
    const hw::isa::Command& c =
        hw::isa::command(n == 0 ? "LOOP_CONV_WS" : "LOOP_CONV_WS_CONFIG_" + std::to_string(n));
    return (rs2 ? c.rs2Field(name) : c.rs1Field(name)).place(v);
  };
  auto cfg = [](int n, uint64_t rs1, uint64_t rs2) {
    return Instruction{static_cast<uint32_t>(hw::isa::kLoopConvWsConfig1 + n - 1), rs1, rs2};
  };
  return {cfg(1,
              put(1, false, "in_row_dim", a.inRowDim) | put(1, false, "in_channels", a.inChannels) |
                  put(1, false, "batch_size", a.batchSize ? a.batchSize : a.batches) |
                  put(1, false, "out_channels", a.outChannels),
              put(1, true, "out_row_dim", a.outRowDim) |
                  put(1, true, "pool_out_row_dim", a.poolOutRowDim) |
                  put(1, true, "out_col_dim", a.outColDim) | put(1, true, "stride", a.stride)),
          cfg(2,
              put(2, false, "pool_out_col_dim", a.poolOutColDim) |
                  put(2, false, "kernel_dim", a.kernelDim),
              put(2, true, "pochs", a.pochs) | put(2, true, "batches", a.batches)),
          cfg(3,
              put(3, false, "lpad", a.lpad) | put(3, false, "kchs", a.kchs) |
                  put(3, false, "kcols", a.kcols) | put(3, false, "krows", a.krows),
              put(3, true, "in_col_dim", a.inColDim) | put(3, true, "dpad", a.dpad) |
                  put(3, true, "upad", a.upad) | put(3, true, "rpad", a.rpad)),
          cfg(4,
              put(4, false, "kernel_dilation", a.kernelDilation) | put(4, false, "orows", a.orows),
              put(4, true, "ocols", a.ocols) | put(4, true, "out_stride", a.outStride) |
                  put(4, true, "weight_stride", a.weightStride) |
                  put(4, true, "in_stride", a.inStride)),
          cfg(5, a.weights, a.output),
          cfg(6, a.bias, a.input),
          {static_cast<uint32_t>(a.os ? hw::isa::kLoopConvOs : hw::isa::kLoopConvWs),
           put(0, false, "no_bias", a.noBias) |
               put(0, false, "a_spad_id", static_cast<uint64_t>(a.aSpadId)) |
               put(0, false, "b_spad_id", static_cast<uint64_t>(a.bSpadId)) |
               put(0, false, "wrot180", a.wrot180) |
               put(0, false, "trans_weight_1203", a.transWeight1203) |
               put(0, false, "trans_weight_0132", a.transWeight0132) |
               put(0, false, "trans_output_1203", a.transOutput1203) |
               put(0, false, "trans_input_3120", a.transInput3120) |
               put(0, false, "depthwise", a.depthwise) | a.extraRs1,
           put(0, true, "no_pool", a.noPool) |
               put(0, true, "activation", static_cast<uint64_t>(a.act)) |
               put(0, true, "input_dilated", a.inputDilated) |
               put(0, true, "weights_compressed", a.weightsCompressed) |
               put(0, true, "input_compressed", a.inputCompressed) |
               put(0, true, "output_compressed", a.outputCompressed) | a.extraRs2}};
}

Program loopWs(const LoopWsArgs& a) {
  auto put = [](const char* cmd, bool rs2, const char* name, uint64_t v) {
    const hw::isa::Command& c = hw::isa::command(cmd);
    return (rs2 ? c.rs2Field(name) : c.rs1Field(name)).place(v);
  };
  const char* b = "LOOP_WS_CONFIG_BOUNDS";
  const char* l = "LOOP_WS";
  return {{static_cast<uint32_t>(hw::isa::kLoopWsConfigBounds),
           put(b, false, "pad_I", a.padI) | put(b, false, "pad_J", a.padJ) |
               put(b, false, "pad_K", a.padK),
           put(b, true, "I", a.I) | put(b, true, "J", a.J) | put(b, true, "K", a.K)},
          {static_cast<uint32_t>(hw::isa::kLoopWsConfigAddrsAb), a.A, a.B},
          {static_cast<uint32_t>(hw::isa::kLoopWsConfigAddrsDc), a.D, a.C},
          {static_cast<uint32_t>(hw::isa::kLoopWsConfigStridesAb), a.aStride, a.bStride},
          {static_cast<uint32_t>(hw::isa::kLoopWsConfigStridesDc), a.dStride, a.cStride},
          {static_cast<uint32_t>(hw::isa::kLoopWs),
           put(l, false, "ex_accumulate", a.exAccumulate) | put(l, false, "full_C", a.fullC) |
               put(l, false, "low_D", a.lowD) | put(l, false, "act", static_cast<uint64_t>(a.act)) |
               put(l, false, "a_spad_id", static_cast<uint64_t>(a.aSpadId)) |
               put(l, false, "b_spad_id", static_cast<uint64_t>(a.bSpadId)),
           put(l, true, "a_transpose", a.aTranspose) | put(l, true, "b_transpose", a.bTranspose) |
               put(l, true, "is_resadd", a.isResadd) | put(l, true, "a_compressed", a.aCompressed) |
               put(l, true, "b_compressed", a.bCompressed) |
               put(l, true, "c_compressed", a.cCompressed)}};
}

Instruction configEx(const ConfigExArgs& a) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functConfig);
  i.rs1 = f.cmdType.place(f.configEx) | f.ex.dataflow.place(a.dataflow) |
          f.ex.activation.place(a.activation) | f.ex.setOnlyStrides.place(a.setOnlyStrides) |
          f.ex.aTranspose.place(a.aTranspose) | f.ex.bTranspose.place(a.bTranspose) |
          f.ex.tdOff.place(a.tdOff) | f.ex.tdSide.place(static_cast<uint64_t>(a.tdSide)) |
          f.ex.aStride.place(a.aStride) | f.ex.accScale.place(a.accScaleBits);
  i.rs2 = f.ex.inShift.place(a.inShift) | f.ex.relu6Shift.place(a.relu6Shift) |
          f.ex.cStride.place(a.cStride);
  return i;
}

Instruction configLd(const ConfigLdArgs& a) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functConfig);
  i.rs1 = f.cmdType.place(f.configLd) | f.ld.shrink.place(a.shrink) |
          f.ld.stateId.place(static_cast<uint64_t>(a.channel)) |
          f.ld.pixelRepeats.place(a.pixelRepeats) | f.ld.blockStride.place(a.blockStride) |
          f.ld.scale.place(a.scaleBits) | f.ld.compressed.place(a.compressed);
  i.rs2 = f.ld.stride.place(a.stride);
  return i;
}

Instruction configSt(const ConfigStArgs& a) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functConfig);
  i.rs1 = f.cmdType.place(f.configSt) | f.st.activation.place(a.activation) |
          f.st.poolStride.place(a.poolStride) | f.st.poolSize.place(a.poolSize) |
          f.st.upad.place(a.upad) | f.st.lpad.place(a.lpad) | f.st.poolOutDim.place(a.poolOutDim) |
          f.st.porows.place(a.porows) | f.st.pocols.place(a.pocols) | f.st.orows.place(a.orows) |
          f.st.ocols.place(a.ocols) | f.st.compressed.place(a.compressed);
  i.rs2 = f.st.stride.place(a.stride) | f.st.accScale.place(a.accScaleBits);
  return i;
}

Instruction configRaw(int cmdType, uint64_t rs1Rest, uint64_t rs2) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functConfig);
  i.rs1 = (rs1Rest & ~f.cmdType.place(~0ull)) | f.cmdType.place(static_cast<uint64_t>(cmdType));
  i.rs2 = rs2;
  return i;
}

Instruction mvin(int channel, uint64_t dramAddr, uint32_t local, uint32_t rows, uint32_t cols) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functMvin[channel]);
  i.rs1 = f.mvinDram[channel].place(dramAddr);
  i.rs2 = operandWord(f.mvin[channel], {local, rows, cols});
  return i;
}

Instruction decompress(uint32_t src, uint32_t containers, uint32_t dst, uint32_t rows,
                       uint32_t cols) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functDecompress);
  i.rs1 = f.decompress.src.place(src) | f.decompress.containers.place(containers);
  i.rs2 = operandWord(f.decompress.dst, {dst, rows, cols});
  return i;
}

Instruction mvout(uint64_t dramAddr, uint32_t local, uint32_t rows, uint32_t cols) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functMvout);
  i.rs1 = f.mvoutDram.place(dramAddr);
  i.rs2 = operandWord(f.mvout, {local, rows, cols});
  return i;
}

Instruction preload(const Operand& bd, const Operand& c) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functPreload);
  i.rs1 = operandWord(f.preloadBD, bd);
  i.rs2 = operandWord(f.preloadC, c);
  return i;
}

Instruction compute(bool preloaded, const Operand& a, const Operand& bd) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(preloaded ? f.functComputePreloaded : f.functComputeAccumulated);
  i.rs1 = operandWord(f.computeA[preloaded], a);
  i.rs2 = operandWord(f.computeBD[preloaded], bd);
  return i;
}

Instruction flush() {
  Instruction i;
  i.funct = static_cast<uint32_t>(isaFields().functFlush);
  return i;
}

Instruction configTable(uint32_t chunk, bool write, bool enable, uint64_t entries) {
  const hw::isa::Command& c = hw::isa::command("CONFIG_TABLE");
  Instruction i;
  i.funct = static_cast<uint32_t>(c.funct);
  i.rs1 = c.rs1Field("chunk").place(chunk) | c.rs1Field("write").place(write ? 1 : 0) |
          c.rs1Field("enable").place(enable ? 1 : 0);
  i.rs2 = c.rs2Field("entries").place(entries);
  return i;
}

Instruction counterOp(const CounterOpArgs& a) {
  const IsaFields& f = isaFields();
  Instruction i;
  i.funct = static_cast<uint32_t>(f.functCounterOp);
  i.rs1 = f.ctr.reset.place(a.reset) | f.ctr.snapshotReset.place(a.snapshotReset) |
          f.ctr.snapshot.place(a.snapshot) | f.ctr.configure.place(a.configure) |
          f.ctr.index.place(static_cast<uint64_t>(a.index)) |
          f.ctr.event.place(static_cast<uint64_t>(a.event)) | f.ctr.external.place(a.external);
  return i;
}

} // namespace by::funcmodel
