// The generated bare-metal program (docs/compiler.md, "The generated program"): model.c with
// one function per layer (a driver call, commented with the ONNX nodes it stands for), the
// buffers the simulator fills and reads by symbol, per-layer counters, and weights.S, which
// links weights.bin into the ELF.
#pragma once

#include "compiler/graph.h"
#include "compiler/plan.h"

#include <string>
#include <vector>

namespace by::compiler {

/// Symbols of the generated program that `brickyard run` uses.
constexpr const char* kInputSymbol = "by_model_input";
constexpr const char* kOutputSymbol = "by_model_output";
constexpr const char* kStatsSymbol = "by_model_stats";

/// The performance registers each layer records (from the ISA register table), after the
/// cycles the host measured: by_model_stats[layer][0] = cycles, [1 + i] = register i.
std::vector<std::string> statRegisters();
/// What by_model_stats[layer] holds, in order: LAYER_CYCLES, the registers, and
/// OUTPUT_STORED_BYTES, the bytes the layer's output takes in DRAM as stored (a compressed
/// tensor's containers and pointer table as the run wrote them, else its raw bytes).
constexpr const char* kStoredBytesField = "OUTPUT_STORED_BYTES";
std::vector<std::string> statFields();

struct EmitInfo {
  std::string modelPath, modelHash, configHash, toolVersion;
};

std::string emitModelC(const Graph& g, const Program& p, const EmitInfo& info);
std::string emitWeightsAsm(const std::string& blobFile);

} // namespace by::compiler
