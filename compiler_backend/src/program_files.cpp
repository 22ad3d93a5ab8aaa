// The files `brickyard compile` writes (compiler/compile.h): plan.json, quant.json, model.c,
// weights.bin, weights.S and model.elf, staged and moved into place together.
#include "compiler/compile.h"
#include "compiler/emit_c.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "support/cache.h"
#include "support/files.h"
#include "support/hash.h"

namespace by::compiler {
namespace fs = std::filesystem;

namespace {

nlohmann::json shapeJson(const Shape& s) {
  return {s.n, s.h, s.w, s.c};
}

const char* tdModeName(int m) {
  return m == 1 ? "B" : m == 2 ? "off" : "A";
}

/// The tiles the program forces (none where the driver chooses).
nlohmann::json forcedTilesJson(const LayerPlan& lp) {
  const auto t = forcedTiles(lp);
  if (!t)
    return nullptr;
  if (lp.conv)
    return {{"rows", (*t)[0]}, {"out_channel_blocks", (*t)[1]}, {"k_blocks", (*t)[2]}};
  return {{"i_blocks", (*t)[0]}, {"j_blocks", (*t)[1]}, {"k_blocks", (*t)[2]}};
}

/// What the driver runs for the layer's call: its planner's decision (brickyard/plan.h).
nlohmann::json plannerJson(const LayerPlan& lp) {
  if (lp.onCpu)
    return nullptr;
  if (lp.conv) {
    const by_conv_plan_t& c = lp.conv->plan;
    return {{"path", c.path == BY_CONV_LOOP     ? "loop"
                     : c.path == BY_CONV_MATMUL ? "matmul"
                                                : "commands"},
            {"dataflow", lp.dataflow},
            {"folded", c.folded != 0},
            {"depthwise_mode", c.depthwise_mode != 0},
            {"row_pixels", lp.rowPixels},
            {"tiles",
             {{"batch", c.tile_batch},
              {"rows", c.tile_rows},
              {"out_channel_blocks", c.tile_och},
              {"k_blocks", c.tile_k}}},
            {"workspace_bytes", c.workspace_bytes}};
  }
  if (lp.matmul) {
    const by_matmul_plan_t& m = lp.matmul->plan;
    return {{"dataflow", lp.dataflow},
            {"loop", m.loop != 0},
            {"transposed", m.transposed != 0},
            {"tiles", {{"i_blocks", m.tile_i}, {"j_blocks", m.tile_j}, {"k_blocks", m.tile_k}}},
            {"k_chunk", m.k_chunk}};
  }
  return nullptr;
}

} // namespace

nlohmann::json planJson(const Compiled& c, const CompileOptions& o) {
  const Graph& g = c.graph;
  const Program& p = c.program;
  nlohmann::json layers = nlohmann::json::array();
  std::vector<std::string> cpu;
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& l = g.layers[i];
    const LayerPlan& lp = p.layers[i];
    nlohmann::json inputs = nlohmann::json::array();
    for (int t : l.inputs)
      inputs.push_back(
          {{"tensor", g.tensors[t].name}, {"shape_nhwc", shapeJson(g.tensors[t].shape)}});
    nlohmann::json j = {
        {"index", i},
        {"name", l.name},
        {"kind", layerKindName(l.kind)},
        {"onnx_nodes", l.onnxNodes},
        {"onnx_ops", l.onnxOps},
        {"inputs", inputs},
        {"output",
         {{"tensor", g.tensors[l.output].name},
          {"shape_nhwc", shapeJson(g.tensors[l.output].shape)}}},
        {"kernel", kernelName(lp.kernel)},
        {"on_cpu", lp.onCpu},
        {"macs", lp.macs},
        {"activation", l.act.str()},
        {"est_dram_bytes", lp.estDramBytes},
        {"chunk",
         {{"elements", lp.chunk.chunk},
          {"per_tap", lp.chunk.perTap},
          {"saturate", lp.chunk.saturate}}},
    };
    if (lp.onCpu) {
      j["cpu_reason"] = lp.cpuReason;
      cpu.push_back(l.name + " (" + lp.cpuReason + ")");
    }
    if (!lp.dataflow.empty())
      j["dataflow"] = lp.dataflow;
    if (lp.conv && lp.conv->shape.path == BY_CONV_COMMANDS)
      j["path"] = "commands";
    if (const nlohmann::json t = forcedTilesJson(lp); !t.is_null())
      j["tiles"] = t;
    if (const nlohmann::json d = plannerJson(lp); !d.is_null())
      j["planner"] = d;
    if (l.hasWeights() || lp.kernel == Kernel::AvgPoolConv || lp.kernel == Kernel::MaxPoolConv)
      j["weights_bytes"] =
          lp.weights.bytes + lp.bias.bytes + lp.bovedaStream.bytes + lp.bovedaTable.bytes;
    if (lp.bovedaStream.present())
      j["boveda_weights"] = {{"raw_bytes", int64_t(l.qweights.size())},
                             {"stream_bytes", lp.bovedaStream.bytes},
                             {"table_bytes", lp.bovedaTable.bytes},
                             {"block_cols", lp.bovedaBlockCols}};
    if (l.pool.present())
      j["fused_pool"] = {{"size", l.pool.size},
                         {"stride", l.pool.stride},
                         {"pad", l.pool.pad},
                         {"on", lp.poolOnMvout ? "mvout" : "cpu"}};
    if (lp.clampAfter)
      j["cpu_clamp"] = {l.qmin, l.qmax};
    if (lp.writesTo >= 0) // the next layer's pointwise function on this layer's mvout
      j["mvout_table"] = {{"writes", g.tensors[size_t(lp.writesTo)].name}};
    if (lp.fusedInto >= 0)
      j["fused_into"] = lp.fusedInto;
    if (o.config.tensordash.enabled && !lp.onCpu && !lp.tdReason.empty())
      j["tensordash"] = {{"scheduled", tdModeName(lp.tdMode)},
                         {"zeros_a", lp.zerosA},
                         {"zeros_b", lp.zerosB},
                         {"est_speedup_a", lp.tdSpeedupA},
                         {"est_speedup_b", lp.tdSpeedupB},
                         {"reason", lp.tdReason}};
    if (lp.workspaceBytes)
      j["workspace"] = {{"offset", lp.workspaceOffset}, {"bytes", lp.workspaceBytes}};
    layers.push_back(j);
  }
  nlohmann::json tensors = nlohmann::json::array();
  for (size_t t = 0; t < g.tensors.size(); ++t)
    if (p.memory.offset.size() > t && p.memory.offset[t] >= 0) {
      nlohmann::json j = {{"tensor", g.tensors[t].name},
                          {"offset", p.memory.offset[t]},
                          {"bytes", g.tensors[t].shape.elems()}};
      if (p.memory.compressed(int(t))) // Boveda: the table, and the stream at its worst
        j["compressed"] = {{"table_bytes", p.memory.bovedaTable[t]},
                           {"stream_max_bytes", p.memory.bovedaStream[t]}};
      tensors.push_back(j);
    }
  return {
      {"model", o.modelPath},
      {"model_hash", c.modelHash},
      {"config", {{"name", o.config.name}, {"hash", c.configHash}}},
      {"hal", halName(o.hal)},
      {"tool", toolVersion()},
      {"input",
       {{"tensor", g.tensors[g.input].name},
        {"onnx_shape", g.tensors[g.input].onnxShape},
        {"scale", g.tensors[g.input].scale}}},
      {"output",
       {{"tensor", g.tensors[g.output].name},
        {"onnx_shape", g.tensors[g.output].onnxShape},
        {"scale", g.tensors[g.output].scale}}},
      {"layers", layers},
      {"cpu_fallbacks", cpu},
      {"memory",
       {{"arena_bytes", p.memory.arenaBytes},
        {"arena_bytes_without_reuse", p.memory.naiveBytes},
        {"input_bytes", p.memory.inputBytes},
        {"output_bytes", p.memory.outputBytes},
        {"weights_bytes", int64_t(p.blob.size())},
        {"dram_bytes", p.dramBytesNeeded},
        {"tensors", tensors}}},
      {"stat_fields", statFields()},
      {"passes", c.passLog},
      {"notes", p.notes},
  };
}

nlohmann::json quantJson(const Compiled& c, const CompileOptions& o) {
  const Graph& g = c.graph;
  nlohmann::json tensors = nlohmann::json::array();
  for (const TensorQuant& q : c.quant.tensors)
    tensors.push_back({{"tensor", g.tensors[q.tensor].name},
                       {"scale", q.scale},
                       {"range", q.range},
                       {"observed_abs_max", q.observed},
                       {"clipped_fraction", q.clippedFraction},
                       {"zero_fraction", q.zeroFraction},
                       {"fixed_by_model", q.fixed},
                       {"sqnr_db", c.sqnr.size() > size_t(q.tensor) ? c.sqnr[q.tensor] : 0.0}});
  nlohmann::json layers = nlohmann::json::array();
  for (const Layer& l : g.layers) {
    nlohmann::json j = {{"name", l.name},
                        {"kind", layerKindName(l.kind)},
                        {"output_scale", g.tensors[l.output].scale},
                        {"multiplier", l.multiplier},
                        {"clamp", {l.qmin, l.qmax}}};
    if (l.hasWeights())
      j["weight_scale"] = l.weightScale;
    const double s =
        c.sqnr.size() > size_t(g.storageOf(l.output)) ? c.sqnr[g.storageOf(l.output)] : 0;
    j["sqnr_db"] = s;
    layers.push_back(j);
  }
  return {
      {"scheme", "int8 symmetric per-tensor activations and weights, int32 biases; "
                 "requantization by the mvout accScale (docs/arithmetic.md)"},
      {"calibration",
       {{"method", o.calib.method == CalibOptions::Method::Percentile ? "percentile" : "minmax"},
        {"percentile", o.calib.percentile},
        {"samples", c.calib.samples},
        {"source",
         o.calibFiles.empty() ? "random normal(0, 1), seed " + std::to_string(o.seed) : "files"},
        {"files", o.calibFiles}}},
      {"sqnr_measured_on", "the first calibration sample"},
      {"tensors", tensors},
      {"layers", layers},
      {"notes", c.quant.notes},
  };
}

void writeProgram(const Compiled& c, const CompileOptions& o, const fs::path& outDir) {
  if (fs::exists(outDir) && !fs::is_directory(outDir))
    throw CompileError(outDir.string() + " exists and is not a directory");
  support::StagedFiles out(outDir);
  const fs::path& stage = out.stagingPath();
  EmitInfo info{o.modelPath, c.modelHash, c.configHash, toolVersion()};
  writeFileAtomic((stage / "model.c").string(), emitModelC(c.graph, c.program, info));
  writeFileAtomic((stage / "weights.bin").string(), c.program.blob);
  writeFileAtomic((stage / "weights.S").string(), emitWeightsAsm("weights.bin"));
  writeFileAtomic((stage / "plan.json").string(), planJson(c, o).dump(2) + "\n");
  writeFileAtomic((stage / "quant.json").string(), quantJson(c, o).dump(2) + "\n");
  if (o.progress)
    o.progress("building model.elf (" + std::string(halName(o.hal)) + ")");
  const DriverBuild driver = driverBuild(o.config, o.hal, o.cacheDir);
  linkProgram(driver, stage, {"model.c", "weights.S"}, stage / "model.elf");
  out.commit();
}

fs::path cachedProgram(const Compiled& c, const CompileOptions& o) {
  const DriverBuild d = driverBuild(o.config, o.hal, o.cacheDir);
  const EmitInfo info{o.modelPath, c.modelHash, c.configHash, toolVersion()};
  const std::string key =
      support::hashHex(emitModelC(c.graph, c.program, info) + c.program.blob + d.dir.string());
  const support::DirectoryCache programs(support::cacheRoot(o.cacheDir) / "programs", "model.elf");
  const std::string name = o.config.name + "-" + key;
  const support::Outcome found =
      programs.findOrMake(name, [&](const fs::path& staging) { writeProgram(c, o, staging); });
  if (found == support::Outcome::Found && o.progress)
    o.progress("program cached in " + programs.entry(name).string());
  return programs.entry(name);
}

} // namespace by::compiler
