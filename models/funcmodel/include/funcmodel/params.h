// The hardware parameters the functional model needs, taken once from a validated Config.
#pragma once

#include "boveda_spec/params.h"
#include "config/config.h"

namespace by::funcmodel {

struct ModelParams {
  int dim = 0;
  int lanes = 1;       // L: MACs per PE; reduction elements per PE per beat
  int spRowElems = 0;  // elem_t per scratchpad row: DIM * L
  int inputWidth = 0;  // IW: elem_t bits
  int accWidth = 0;    // AW: acc_t bits
  int outputWidth = 0; // OW: spatial output bits
  int inputBytes = 0;
  int accBytes = 0;
  int spRows = 0;
  int accRows = 0;
  int maxBlockLen = 0;     // MAX_BLOCK_LEN: column blocks of an mvin/mvout of elem_t
  int maxBlockLenAcc = 0;  // MAX_BLOCK_LEN_ACC: column blocks of an mvin of acc_t
  int maxColsAccElems = 0; // columns of an accumulator move of elem_t (shrink MVIN, scaled MVOUT)
  int dmaMaxBytes = 0;     // dma.max_bytes: bytes of one DMA request
  bool hasWs = false;
  bool hasOs = false;
  /// TensorDash (sparsity.tensordash): OS computes skip zeros; CONFIG_EX td_off is legal.
  bool tensordash = false;
  /// ... and CONFIG_EX may schedule B (td_side = 1; sparsity.tensordash.schedule_b).
  bool tdScheduleB = false;
  /// Boveda on the DMA path (compression.boveda): compressed MVIN/MVOUT are legal, in this
  /// format (blockValues is per move: rows x cols).
  bool boveda = false;
  /// The on-chip form (compression.boveda.on_chip): DECOMPRESS is legal.
  bool bovedaOnChip = false;
  /// The LOOP_WS unroller (loops.ws): LOOP_WS and LOOP_WS_CONFIG_* are legal.
  bool loopWs = false;
  /// The LOOP_CONV_WS unroller (loops.conv): LOOP_CONV_WS and LOOP_CONV_WS_CONFIG_* are legal.
  bool loopConv = false;
  /// The mvout's function table (activations.table): CONFIG_TABLE is legal.
  bool table = false;
  boveda::BovedaParams bovedaFormat;
  /// Bytes of one line of the Boveda loader's pointer-line buffer (hw::isa::kBovedaPtrLines
  /// lines; docs/boveda.md, "Pointer lines").
  int bovedaPtrLineBytes = 0;

  /// Throws std::invalid_argument for configurations the model cannot execute: Boveda with
  /// vector PEs (lanes > 1), which the config validation refuses too.
  static ModelParams from(const config::Config& config);
};

} // namespace by::funcmodel
