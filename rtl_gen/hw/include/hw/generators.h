// Block generators. Each is built from typed parameters and produces one module with build().
// All of them are listed in one place, buildDesign() in design.cpp.
#pragma once

#include "config/config.h"
#include "hwspec/accel_params.h"
#include "hwspec/array_params.h"
#include "vlog/ir.h"

#include <algorithm>
#include <string>

namespace by::hw {

/// Module names, one place, so that instantiating generators and tests agree.
namespace names {
inline constexpr const char* kDelayLine = "by_delay_line";
inline constexpr const char* kPe = "by_pe";
inline constexpr const char* kTile = "by_tile";
inline constexpr const char* kMesh = "by_mesh";
inline constexpr const char* kAccScale = "by_acc_scale";
inline constexpr const char* kSramSp = "by_sram_sp";
inline constexpr const char* kSramDp = "by_sram_dp";
inline constexpr const char* kFifo = "by_fifo";
inline constexpr const char* kScratchpad = "by_scratchpad";
inline constexpr const char* kAccumulator = "by_accumulator";
inline constexpr const char* kTransposer = "by_transposer";
inline constexpr const char* kCmdDecoder = "by_cmd_decoder";
inline constexpr const char* kReservationStation = "by_reservation_station";
inline constexpr const char* kLoadController = "by_load_controller";
inline constexpr const char* kStoreController = "by_store_controller";
inline constexpr const char* kMvoutTable = "by_mvout_table";
inline constexpr const char* kExecController = "by_execute_controller";
inline constexpr const char* kExecMerger = "by_exec_merger";
inline constexpr const char* kExecSplitter = "by_exec_splitter";
inline constexpr const char* kFrontend = "by_cmd_frontend";
inline constexpr const char* kAccelerator = "by_accelerator";
inline constexpr const char* kTdScheduler = "by_td_scheduler";
inline constexpr const char* kTdFrontend = "by_td_frontend";
inline constexpr const char* kTdArray = "by_td_array";
inline constexpr const char* kTdTileBuffer = "by_td_tile_buffer";
inline constexpr const char* kTdFeeder = "by_td_feeder";
inline constexpr const char* kDmaReader = "by_dma_reader";
inline constexpr const char* kDmaWriter = "by_dma_writer";
inline constexpr const char* kBovedaCompressor = "by_boveda_compressor";
inline constexpr const char* kBovedaDecompressor = "by_boveda_decompressor";
inline constexpr const char* kBovedaLoader = "by_boveda_loader";
inline constexpr const char* kValueRepacker = "by_value_repacker";
inline constexpr const char* kLoopWs = "by_loop_ws";
inline constexpr const char* kLoopConv = "by_loop_conv_ws";
} // namespace names

/// A reset-to-zero shift register of Width bits and Depth stages (Depth 0 is a wire).
class DelayLineGenerator {
public:
  vlog::Module build() const;
};

/// One processing element: `lanes` MACs reducing into one sum, two stationary registers
/// (Gemmini's double-buffered preload/propagate scheme), WS and/or OS datapaths.
class PeGenerator {
public:
  explicit PeGenerator(const ArrayParams& params) : p_(params) { initSizes(); }
  vlog::Module build() const;

private:
  void initSizes();
  vlog::Module ports() const;
  void dotProduct(vlog::Body& b) const;
  void weightStationary(vlog::Body& b) const;
  void outputStationary(vlog::Body& b) const;
  void outputsAndNextState(vlog::Body& b) const;
  void emitTensorDashMux(vlog::Body& body) const;
  ArrayParams p_;
  bool both_ = false;
};

/// A combinational grid of tile_rows x tile_cols PEs.
class TileGenerator {
public:
  explicit TileGenerator(const ArrayParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

/// The mesh: mesh_rows x mesh_cols tiles with pipeline registers between them, input skew and
/// output de-skew, so that its ports see whole aligned row beats.
class MeshGenerator {
public:
  explicit MeshGenerator(const ArrayParams& params) : p_(params) { initSizes(); }
  vlog::Module build() const;

private:
  void initSizes();
  vlog::Module ports() const;
  void tileSignals(vlog::Body& b) const;
  void inputSkew(vlog::Body& b) const;
  void tileGrid(vlog::Body& b) const;
  void outputDeskew(vlog::Body& b) const;

  ArrayParams p_;
  bool both_ = false;
};

/// mvout scaling of one accumulator value (docs/arithmetic.md, accScale): int to IEEE single,
/// multiply by an IEEE single scale, round half to even to an integer, saturate to AccWidth.
/// Combinational.
class AccScaleGenerator {
public:
  explicit AccScaleGenerator(int accWidth) : accWidth_(accWidth) {}
  vlog::Module build() const;

private:
  int accWidth_;
};

/// The mvout's function table (activations.table): 256 int8 entries and an enable bit that
/// CONFIG_TABLE writes; the store controller applies it to accumulator MVOUTs.
class MvoutTableGenerator {
public:
  vlog::Module build() const;
};

/// Behavioural SRAMs behind one interface each, so that foundry macros can replace them:
/// by_sram_sp (one read-or-write port) and by_sram_dp (one read and one write port). Read
/// data appears the cycle after the read; writes have a per-element mask.
class SramGenerator {
public:
  vlog::Module buildSinglePort() const;
  vlog::Module buildDualPort() const;
};

/// A synchronous FIFO (valid/ready on both sides), Width bits, Depth entries.
class FifoGenerator {
public:
  vlog::Module build() const;
};

/// The double-buffered transposer feeding A columns to the array in OS.
class TransposerGenerator {
public:
  explicit TransposerGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

/// The banked scratchpad (rows of DIM elem_t).
class ScratchpadGenerator {
public:
  explicit ScratchpadGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

/// The banked accumulator (rows of DIM acc_t) with read-modify-write accumulation.
class AccumulatorGenerator {
public:
  explicit AccumulatorGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

/// The AXI4 DMA engine's parameters (docs/dma.md), fixed by the config's `dma` section. The
/// generated modules carry them as parameters with these values as defaults.
struct DmaParams {
  std::string configName;
  int addrWidth = 32;  // AXI address bits
  int dataWidth = 128; // AXI data bits (dma.bus_width)
  int maxInflight = 8; // this engine's outstanding bursts (reads: dma.max_inflight)
  int maxWrites = 8;   // the writer's (dma.max_inflight_writes, as max_inflight when not set)
  int maxBurst = 16;   // beats per INCR burst (dma.max_burst)
  int maxBytes = 64;   // bytes per request (dma.max_bytes)
  int tagWidth = 8;    // request tag bits, chosen by the instantiating controller

  int beatBytes() const { return dataWidth / 8; }
  /// AXI ID bits, one width for both directions: enough for the reads' and the writes' distinct
  /// IDs (at least 1); an engine with fewer slots keeps its IDs' high bits zero.
  int idWidth() const;
  /// The writer's: maxInflight = maxWrites, the same ID width.
  DmaParams writer() const {
    DmaParams w = *this;
    w.idSlots_ = std::max(maxInflight, maxWrites);
    w.maxInflight = maxWrites;
    return w;
  }
  /// Bits of a request length, 1..maxBytes.
  int lenWidth() const;
  /// Beats one request can touch: maxBytes/beatBytes, plus one for an unaligned start.
  int bufferBeats() const { return maxBytes / beatBytes() + 1; }

private:
  int idSlots_ = 0; // IDs the shared port carries, where not max(maxInflight, maxWrites)
};

DmaParams dmaParams(const config::Config& config, int tagWidth = 8);

/// AXI4 read master: splits byte-addressed requests of up to MaxBytes into INCR bursts
/// (4 KiB rule, MaxBurst beats, MaxInflight outstanding IDs), reassembles each request's bytes
/// and answers every request once, in any order, identified by its tag.
class DmaReaderGenerator {
public:
  explicit DmaReaderGenerator(const DmaParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  vlog::Module ports() const;
  void slots(vlog::Body& b) const;
  void splitQueue(vlog::Body& b) const;
  void channels(vlog::Body& b) const;
  DmaParams p_;
};

/// AXI4 write master: writes the bytes of each request with INCR bursts whose WSTRB marks
/// exactly the request's bytes, and reports each request once after all its B responses.
class DmaWriterGenerator {
public:
  explicit DmaWriterGenerator(const DmaParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  vlog::Module ports() const;
  void requests(vlog::Body& b) const;
  void awSide(vlog::Body& b) const;
  void wSide(vlog::Body& b) const;
  void completions(vlog::Body& b) const;
  DmaParams p_;
};

/// The Boveda codec's hardware parameters (docs/boveda.md), fixed by compression.boveda and
/// types.input_width. The generated modules carry them as parameters with these defaults.
struct BovedaHwParams {
  std::string configName;
  int elementBits = 8;     // ElemWidth: signed element width (types.input_width)
  int groupSize = 16;      // GroupSize: values per group
  int headerBits = 4;      // HeaderBits: width field per group
  int containerBits = 512; // ContainerBits: blocks start and end on a container boundary
  bool zeroAware = false;  // ZeroAware: zero bitmap + non-zero values only
  int streamWidth = 64;    // StreamWidth: bits of one stream word (divides containerBits)
  int lenWidth = 32;       // LenWidth: bits of a block length in values (decompressor)
};

/// The parameters for a config: the stream word is one DMA bus beat, or one container if
/// that is narrower, so that words never straddle a container boundary.
BovedaHwParams bovedaHwParams(const config::Config& config);

/// A FIFO of elements between chunk sizes: chunks of up to InVals values in, chunks of as many
/// values as the consumer asks for out (rows to Boveda groups and back).
class ValueRepackerGenerator {
public:
  vlog::Module build() const;
};

/// Streaming Boveda compressor: one group of values in per cycle, the container stream of
/// docs/boveda.md out in StreamWidth-bit words, each block zero-padded to a container.
class BovedaCompressorGenerator {
public:
  explicit BovedaCompressorGenerator(const BovedaHwParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  BovedaHwParams p_;
};

/// Streaming Boveda decompressor: StreamWidth-bit words of the container stream in, one
/// decoded group per cycle out; drops (and checks) each block's padding.
class BovedaDecompressorGenerator {
public:
  explicit BovedaDecompressorGenerator(const BovedaHwParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  vlog::Module ports() const;
  void groupDecode(vlog::Body& b) const;
  void consume(vlog::Body& b) const;
  BovedaHwParams p_;
};

} // namespace by::hw
