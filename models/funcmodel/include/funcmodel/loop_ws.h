// LOOP_WS (docs/isa.md, "LOOP_WS"): the checks of a LOOP_WS command and the command sequence
// it unrolls into, in the order the hardware unroller (rtl_gen/hw/src/loop_ws.cpp) issues it.
// The functional model executes that sequence command by command; tests use it to state what
// a loop does.
#pragma once

#include "funcmodel/params.h"
#include "funcmodel/program.h"
#include "funcmodel/state.h"

#include <cstdint>
#include <vector>

namespace by::funcmodel {

/// The error code that rejects LOOP_WS (rs1, rs2) in `state` (its loop configuration, CONFIG_EX,
/// the mvin channels and CONFIG_ST; 0: legal): UNSUPPORTED (resadd, an activation other than
/// none/ReLU, the OS dataflow, a_transpose / b_transpose that differ from CONFIG_EX's, Boveda's
/// a/b/c_compressed that differ from their channel's or the store path's compressed state, or
/// with a transpose of the same operand or full_C), BAD_SIZE (a zero bound, a padding of DIM or
/// more), LOCAL_RANGE (A, B or C do not fit their halves, or I x DIM rows exceed a block stride's
/// 65535), DMA_ERROR (an address or stride of
/// 2^32 or more).
int loopWsCheck(const ModelParams& p, const ArchState& state, uint64_t rs1, uint64_t rs2);

/// The block strides a LOOP_WS (rs2)'s moves use instead of the channels' (docs/isa.md,
/// "LOOP_WS", "Local layout"; 0: the channel's). The I tiles of one K step of A (unless
/// transposed or compressed), and of one J tile of C, lie DIM rows apart (so the computes of one
/// output column continue one another and merge, rtl_gen/hw/src/exec_merge.cpp): a move of a K
/// group of A, or of a J group of C or D, has its blocks I x DIM rows apart. B's moves use
/// MVIN2's as configured.
struct LoopWsBlockStrides {
  uint32_t a = 0, b = 0, d = 0, c = 0;
};
LoopWsBlockStrides loopWsBlockStrides(const ModelParams& p, const LoopWsState& loop, uint64_t rs2);

/// The commands a legal LOOP_WS (rs1, rs2) unrolls into with `loop` as configured.
std::vector<Instruction> loopWsUnroll(const ModelParams& p, const LoopWsState& loop, uint64_t rs1,
                                      uint64_t rs2);

} // namespace by::funcmodel
