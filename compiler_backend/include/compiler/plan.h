// Lowering (docs/compiler.md, "Lowering"): each layer of the quantized graph onto a driver
// call for the configuration, with its tiling, dataflow, TensorDash side and arithmetic chunks;
// the constants laid out in the weights blob (packed for vector PEs, Boveda-compressed where
// the hardware reads them compressed); and a static DRAM plan of the activations (an arena
// with liveness-based reuse).
#pragma once

#include "brickyard/plan.h"
#include "compiler/graph.h"
#include "compiler/interpret.h"
#include "config/config.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace by::compiler {

enum class Kernel {
  Conv,         // by_conv: implicit-im2col convolution on the WS array (dense or depthwise)
  Im2colMatmul, // by_im2col (strided copies) then by_matmul
  Im2colConv,   // by_im2col then by_conv as a 1x1 convolution (thin inputs, e.g. RGB)
  Matmul,       // by_matmul
  Resadd,       // by_resadd
  GlobalAvg,    // by_global_average
  AvgPoolConv,  // by_conv, depthwise by ones, scaled: average pooling on the array
  MaxPoolConv,  // by_conv, depthwise 1x1 by ones, the mvout pooling: max pooling on the array
  ScaleConv,    // by_conv, depthwise 1x1 by a tensor's factors per image: Mul by a [N, C] scale
  AvgPool,      // by_avgpool (CPU)
  MaxPool,      // by_maxpool (CPU)
  Copy,         // by_copy: Concat, Slice, Pad
  Softmax,      // by_softmax (CPU)
  LayerNorm,    // by_layernorm (the array where the config has the transposer, else the CPU)
  Clamp,        // by_clamp (CPU)
  Reorder,      // by_nhwc_to_chw (CPU)
  Lookup,       // by_lookup: an int8 table per element (CPU)
  Mul,          // by_mul: element-wise product (CPU)
  Resize,       // resampling: two by_matmul passes by interpolation matrices
  FusedTable,   // none: a pointwise table the layer before applies on its mvout
};
const char* kernelName(Kernel k);

/// A range of the weights blob (weights.bin).
struct BlobRange {
  int64_t offset = -1, bytes = 0;
  bool present() const { return offset >= 0; }
};

/// A by_conv call as the program makes it (the planner's shape, driver/include/brickyard/plan.h:
/// sizes, the forced path, dataflow and tiles) and, off the CPU, the plan the driver's planner
/// makes of it, which is what by_conv runs (the workspace also on the CPU).
struct ConvCall {
  by_conv_shape_t shape{};
  by_conv_plan_t plan{};
};

/// A by_matmul call as the program makes it and the plan by_matmul runs.
struct MatmulCall {
  by_matmul_shape_t shape{};
  by_matmul_plan_t plan{};
  /// A global average pool of one image as ones[1 x pixels] x input[pixels x C] (the weights
  /// blob holds the ones; the mvout scales by 1 / pixels, as by_global_average's).
  bool onesA = false;
};

/// Whether the mvout applies ReLU: the layer's output range starts at zero.
inline bool reluOnMvout(const Layer& l) {
  return l.qmin == 0;
}

struct LayerPlan {
  int layer = -1;
  Kernel kernel = Kernel::Conv;
  bool onCpu = false;                    // the driver's CPU code runs it
  std::string cpuReason;                 // why (empty on the accelerator)
  std::string dataflow;                  // "WS" / "OS" for array kernels, else ""
  std::optional<ConvCall> conv;          // Conv, Im2colConv, AvgPoolConv
  std::optional<MatmulCall> matmul;      // Matmul, Im2colMatmul
  ChunkRule chunk;                       // how the array sums the reduction
  int tdMode = 0;                        // BY_TD_SCHEDULE_A (0), _B (1), OFF (2)
  double zerosA = 0, zerosB = 0;         // operand zero fractions the side choice used
  double tdSpeedupA = 1, tdSpeedupB = 1; // the schedule model's estimates (td_estimate.h)
  std::string tdReason;                  // why tdMode (TensorDash configs)
  int64_t rowPixels = 0;          // a 1x1 convolution's image passed as rows of this many pixels
  bool poolOnMvout = false;       // the fused max-pool runs on the mvout
  bool separatePool = false;      // ... or as a CPU max-pool after the layer
  bool clampAfter = false;        // a CPU clamp applies qmin/qmax after the kernel
  BlobRange weights, bias, table; // table: avgpool scales / softmax exp table / pointwise table
  BlobRange bovedaStream, bovedaTable; // Boveda-compressed weights
  int bovedaBlockCols = 0;
  int64_t bovedaRows = 0;                           // rows of the compressed matrix
  int64_t workspaceOffset = -1, workspaceBytes = 0; // in the arena (only during the layer)
  int64_t tempOffset = -1, tempBytes = 0;           // pre-pool output (separatePool)
  int64_t estDramBytes = 0;                         // the tiling's traffic estimate
  /// The mvout's function table (by_set_table): the next layer's pointwise function, applied
  /// by this layer's mvouts, which then write that layer's output (`writesTo`).
  BlobRange mvoutTable;
  int writesTo = -1;
  int fusedInto = -1; // FusedTable: the layer that applies this one's table
  int64_t macs = 0;
};

/// Where every activation lives. Offsets are into the arena; the model input and output have
/// their own buffers (the simulator fills / dumps them by symbol).
struct MemoryPlan {
  std::vector<int64_t> offset; // per tensor (storage roots); -1: not in the arena
  /// Boveda: per tensor, the pointer table and the worst-case stream of a tensor stored
  /// compressed (brickyard/boveda.h by_boveda_tensor_t: the table at `offset`, the stream at
  /// `bovedaStreamOffset`, after it), 0 for one stored raw. Empty without compressed tensors.
  std::vector<int64_t> bovedaTable, bovedaStream, bovedaStreamOffset;
  bool compressed(int t) const { return size_t(t) < bovedaTable.size() && bovedaTable[t] > 0; }
  int64_t arenaBytes = 0; // the peak of the arena
  int64_t naiveBytes = 0; // every tensor in its own buffer (for comparison)
  int64_t inputBytes = 0, outputBytes = 0;
};

struct PlanOptions {
  bool bovedaWeights = true;     // compress weights on Boveda configs
  bool tensordash = true;        // use TensorDash on configs that have it (else BY_TD_OFF)
  bool bovedaActivations = true; // keep activations compressed between layers on Boveda configs
};

struct Program {
  std::vector<LayerPlan> layers; // one per graph layer, same order
  MemoryPlan memory;
  std::string blob; // weights.bin
  std::vector<std::string> notes;
  config::Config config;
  int64_t dramBytesNeeded = 0; // blob + arena + input + output
};

/// The driver planner's view of a config's hardware: what the driver's by_hw_get returns on it
/// (its parameters, the ISA's encodings and field limits).
by_hw_t plannerHw(const config::Config& config);

/// The tiles the program passes to the driver (by_conv: rows, out-channel blocks, K blocks;
/// by_matmul: I, J, K blocks), or nothing where the driver chooses them.
std::optional<std::array<int64_t, 3>> forcedTiles(const LayerPlan& p);

/// Plans every layer of a quantized graph for `config`. Throws CompileError when the model
/// cannot fit (e.g. too large for DRAM).
Program planProgram(const Graph& g, const config::Config& config, const PlanOptions& options);

/// Rejects (CompileError) a model that cannot fit the config's DRAM whatever the plan: its
/// weights, input, output and largest activation; checked before the costly calibration.
void checkFitsDram(const Graph& g, const config::Config& config);

/// The chunk rules of a program (for runInt8).
std::vector<ChunkRule> chunkRules(const Program& p);
IntWidths intWidths(const config::Config& config);

} // namespace by::compiler
