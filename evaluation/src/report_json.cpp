// report.json, the one place its keys are written and read: to_json writes the records in the
// order people read them (ordered_json), from_json reads them back.
#include "eval/report.h"

namespace by::eval {
namespace {

template <class T> Json orNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json();
}

template <class T> std::optional<T> optional(const Json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null())
    return std::nullopt;
  return j.at(key).get<T>();
}

} // namespace

void to_json(Json& j, const EnergyEstimate& e) {
  j = Json::object();
  for (const EnergyPart& p : e.parts)
    j[p.name] = {
        {"count", p.count}, {"pj_per_unit", p.pjPerUnit}, {"pj", p.pj}, {"entry", p.entry}};
  j["total_pj"] = e.totalPj;
}

void from_json(const Json& j, EnergyEstimate& e) {
  e = {};
  for (const auto& [name, v] : j.items()) {
    if (name == "total_pj")
      continue;
    e.parts.push_back({name, v.at("count").get<double>(), v.at("pj_per_unit").get<double>(),
                       v.at("pj").get<double>(), v.at("entry").get<std::string>()});
  }
  e.totalPj = j.at("total_pj").get<double>();
}

void to_json(Json& j, const LayerReport& l) {
  j = {{"config", l.config},
       {"index", l.index},
       {"layer", l.layer},
       {"kind", l.kind},
       {"kernel", l.kernel},
       {"on_cpu", l.onCpu},
       {"macs", l.macs},
       {"macs_issued", l.macsIssued},
       {"total_cycles", l.totalCycles},
       {"ideal_cycles", l.idealCycles},
       {"utilization", l.utilization},
       {"compute_cycles", l.computeCycles},
       {"stall_dma_cycles", l.stallDmaCycles},
       {"stall_dependency_cycles", l.stallDependencyCycles},
       {"stall_host_cycles", l.stallHostCycles},
       {"stall_other_cycles", l.stallOtherCycles},
       {"stall_cycles", l.stallCycles},
       {"dram_read_bytes", l.dramReadBytes},
       {"dram_write_bytes", l.dramWriteBytes},
       {"sp_reads", l.spReads},
       {"sp_writes", l.spWrites},
       {"acc_reads", l.accReads},
       {"acc_writes", l.accWrites},
       {"td_macs_skipped", l.tdMacsSkipped},
       {"td_window_stalls", l.tdWindowStalls},
       {"td_feed_stalls", l.tdFeedStalls},
       {"boveda_compressed_bytes", l.bovedaCompressedBytes},
       {"output_raw_bytes", l.outputRawBytes},
       {"output_stored_bytes", l.outputStoredBytes},
       {"dram_bytes_uncompressed", orNull(l.dramBytesUncompressed)},
       {"boveda_bytes_saved", orNull(l.bovedaBytesSaved)}};
  if (l.cyclesUncompressed)
    j["cycles_uncompressed"] = *l.cyclesUncompressed;
  j["energy_pj"] = l.energyPj;
  j["energy"] = l.energy;
  j["speedup_vs_first"] = orNull(l.speedupVsFirst);
  j["energy_ratio_vs_first"] = orNull(l.energyRatioVsFirst);
}

void from_json(const Json& j, LayerReport& l) {
  l.config = j.at("config").get<std::string>();
  l.index = j.at("index").get<size_t>();
  l.layer = j.at("layer").get<std::string>();
  l.kind = j.at("kind").get<std::string>();
  l.kernel = j.at("kernel").get<std::string>();
  l.onCpu = j.at("on_cpu").get<bool>();
  l.macs = j.at("macs").get<int64_t>();
  l.macsIssued = j.at("macs_issued").get<uint64_t>();
  l.totalCycles = j.at("total_cycles").get<int64_t>();
  l.idealCycles = j.at("ideal_cycles").get<int64_t>();
  l.utilization = j.at("utilization").get<double>();
  l.computeCycles = j.at("compute_cycles").get<int64_t>();
  l.stallDmaCycles = j.at("stall_dma_cycles").get<int64_t>();
  l.stallDependencyCycles = j.at("stall_dependency_cycles").get<int64_t>();
  l.stallHostCycles = j.at("stall_host_cycles").get<int64_t>();
  l.stallOtherCycles = j.at("stall_other_cycles").get<int64_t>();
  l.stallCycles = j.at("stall_cycles").get<int64_t>();
  l.dramReadBytes = j.at("dram_read_bytes").get<uint64_t>();
  l.dramWriteBytes = j.at("dram_write_bytes").get<uint64_t>();
  l.spReads = j.at("sp_reads").get<uint64_t>();
  l.spWrites = j.at("sp_writes").get<uint64_t>();
  l.accReads = j.at("acc_reads").get<uint64_t>();
  l.accWrites = j.at("acc_writes").get<uint64_t>();
  l.tdMacsSkipped = j.at("td_macs_skipped").get<uint64_t>();
  l.tdWindowStalls = j.at("td_window_stalls").get<uint64_t>();
  l.tdFeedStalls = j.at("td_feed_stalls").get<uint64_t>();
  l.bovedaCompressedBytes = j.at("boveda_compressed_bytes").get<uint64_t>();
  l.outputRawBytes = j.at("output_raw_bytes").get<int64_t>();
  l.outputStoredBytes = j.at("output_stored_bytes").get<int64_t>();
  l.dramBytesUncompressed = optional<int64_t>(j, "dram_bytes_uncompressed");
  l.bovedaBytesSaved = optional<int64_t>(j, "boveda_bytes_saved");
  l.cyclesUncompressed = optional<uint64_t>(j, "cycles_uncompressed");
  l.energyPj = j.at("energy_pj").get<double>();
  l.energy = j.at("energy").get<EnergyEstimate>();
  l.speedupVsFirst = optional<double>(j, "speedup_vs_first");
  l.energyRatioVsFirst = optional<double>(j, "energy_ratio_vs_first");
}

void to_json(Json& j, const Totals& t) {
  j = {{"macs", t.macs},
       {"macs_issued", t.macsIssued},
       {"total_cycles", t.totalCycles},
       {"ideal_cycles", t.idealCycles},
       {"compute_cycles", t.computeCycles},
       {"stall_dma_cycles", t.stallDmaCycles},
       {"stall_dependency_cycles", t.stallDependencyCycles},
       {"stall_host_cycles", t.stallHostCycles},
       {"stall_other_cycles", t.stallOtherCycles},
       {"stall_cycles", t.stallCycles},
       {"dram_read_bytes", t.dramReadBytes},
       {"dram_write_bytes", t.dramWriteBytes},
       {"sp_reads", t.spReads},
       {"sp_writes", t.spWrites},
       {"acc_reads", t.accReads},
       {"acc_writes", t.accWrites},
       {"td_macs_skipped", t.tdMacsSkipped},
       {"td_window_stalls", t.tdWindowStalls},
       {"td_feed_stalls", t.tdFeedStalls},
       {"boveda_compressed_bytes", t.bovedaCompressedBytes},
       {"output_raw_bytes", t.outputRawBytes},
       {"output_stored_bytes", t.outputStoredBytes},
       {"boveda_bytes_saved", orNull(t.bovedaBytesSaved)},
       {"dram_bytes_uncompressed", orNull(t.dramBytesUncompressed)},
       {"utilization", t.utilization}};
}

void from_json(const Json& j, Totals& t) {
  t.macs = j.at("macs").get<int64_t>();
  t.macsIssued = j.at("macs_issued").get<int64_t>();
  t.totalCycles = j.at("total_cycles").get<int64_t>();
  t.idealCycles = j.at("ideal_cycles").get<int64_t>();
  t.computeCycles = j.at("compute_cycles").get<int64_t>();
  t.stallDmaCycles = j.at("stall_dma_cycles").get<int64_t>();
  t.stallDependencyCycles = j.at("stall_dependency_cycles").get<int64_t>();
  t.stallHostCycles = j.at("stall_host_cycles").get<int64_t>();
  t.stallOtherCycles = j.at("stall_other_cycles").get<int64_t>();
  t.stallCycles = j.at("stall_cycles").get<int64_t>();
  t.dramReadBytes = j.at("dram_read_bytes").get<int64_t>();
  t.dramWriteBytes = j.at("dram_write_bytes").get<int64_t>();
  t.spReads = j.at("sp_reads").get<int64_t>();
  t.spWrites = j.at("sp_writes").get<int64_t>();
  t.accReads = j.at("acc_reads").get<int64_t>();
  t.accWrites = j.at("acc_writes").get<int64_t>();
  t.tdMacsSkipped = j.at("td_macs_skipped").get<int64_t>();
  t.tdWindowStalls = j.at("td_window_stalls").get<int64_t>();
  t.tdFeedStalls = j.at("td_feed_stalls").get<int64_t>();
  t.bovedaCompressedBytes = j.at("boveda_compressed_bytes").get<int64_t>();
  t.outputRawBytes = j.at("output_raw_bytes").get<int64_t>();
  t.outputStoredBytes = j.at("output_stored_bytes").get<int64_t>();
  t.bovedaBytesSaved = optional<int64_t>(j, "boveda_bytes_saved");
  t.dramBytesUncompressed = optional<int64_t>(j, "dram_bytes_uncompressed");
  t.utilization = j.at("utilization").get<double>();
}

void to_json(Json& j, const Derived& d) {
  j = {{"latency_s", d.latencySeconds},
       {"inferences_per_s", d.inferencesPerSecond},
       {"energy_per_inference_uj", d.energyPerInferenceUj},
       {"power_w", d.powerWatts},
       {"inferences_per_joule", d.inferencesPerJoule},
       {"inferences_per_s_per_mtransistor", orNull(d.inferencesPerSecondPerMTransistor)},
       {"speedup_vs_first", orNull(d.speedupVsFirst)},
       {"energy_ratio_vs_first", orNull(d.energyRatioVsFirst)}};
}

void from_json(const Json& j, Derived& d) {
  d.latencySeconds = j.at("latency_s").get<double>();
  d.inferencesPerSecond = j.at("inferences_per_s").get<double>();
  d.energyPerInferenceUj = j.at("energy_per_inference_uj").get<double>();
  d.powerWatts = j.at("power_w").get<double>();
  d.inferencesPerJoule = j.at("inferences_per_joule").get<double>();
  d.inferencesPerSecondPerMTransistor = optional<double>(j, "inferences_per_s_per_mtransistor");
  d.speedupVsFirst = optional<double>(j, "speedup_vs_first");
  d.energyRatioVsFirst = optional<double>(j, "energy_ratio_vs_first");
}

void to_json(Json& j, const ConfigReport& c) {
  j = {{"name", c.name}, {"source", c.source}, {"config_hash", c.configHash}, {"status", c.status}};
  if (!c.message.empty())
    j["message"] = c.message;
  j["cached"] = c.cached;
  j["wall_seconds"] = c.wallSeconds;
  j["clock_mhz"] = c.clockMHz;
  j["dim"] = c.dim;
  j["lanes"] = c.lanes;
  j["peak_macs_per_cycle"] = c.peakMacsPerCycle;
  j["tensordash"] = c.tensordash;
  j["boveda"] = c.boveda;
  j["scratchpad_kib"] = c.scratchpadKiB;
  j["accumulator_kib"] = c.accumulatorKiB;
  j["sram_pj_per_access"] = {{"scratchpad", c.sram.scratchpad},
                             {"scratchpad_bits", c.sram.scratchpadBits},
                             {"accumulator", c.sram.accumulator},
                             {"accumulator_bits", c.sram.accumulatorBits}};
  // report.json has always listed the area's and the check's fields in alphabetical order.
  j["area"] = c.area ? Json(nlohmann::json(*c.area)) : Json();
  if (!c.figures) {
    j["layers"] = c.layers;
    return;
  }
  j["check"] = Json(nlohmann::json(c.figures->check));
  j["simulated_cycles"] = c.figures->simulatedCycles;
  j["layers"] = c.layers;
  j["totals"] = c.figures->totals;
  j["energy"] = c.figures->energy;
  j["derived"] = c.figures->derived;
  if (!c.comparedTo.empty())
    j["compared_to"] = c.comparedTo;
}

void from_json(const Json& j, ConfigReport& c) {
  c.name = j.at("name").get<std::string>();
  c.source = j.at("source").get<std::string>();
  c.configHash = j.at("config_hash").get<std::string>();
  c.status = j.at("status").get<std::string>();
  c.message = j.value("message", "");
  c.cached = j.at("cached").get<bool>();
  c.wallSeconds = j.at("wall_seconds").get<double>();
  c.clockMHz = j.at("clock_mhz").get<int>();
  c.dim = j.at("dim").get<int>();
  c.lanes = j.at("lanes").get<int>();
  c.peakMacsPerCycle = j.at("peak_macs_per_cycle").get<int>();
  c.tensordash = j.at("tensordash").get<bool>();
  c.boveda = j.at("boveda").get<bool>();
  c.scratchpadKiB = j.at("scratchpad_kib").get<int>();
  c.accumulatorKiB = j.at("accumulator_kib").get<int>();
  const Json& s = j.at("sram_pj_per_access");
  c.sram = {s.at("scratchpad").get<double>(), s.at("scratchpad_bits").get<int>(),
            s.at("accumulator").get<double>(), s.at("accumulator_bits").get<int>()};
  c.area = optional<synthesis::DesignArea>(j, "area");
  c.layers = j.at("layers").get<std::vector<LayerReport>>();
  c.figures.reset();
  if (j.contains("check")) {
    RunFigures f;
    f.check = nlohmann::json(j.at("check")).get<compiler::RunCheck>();
    f.simulatedCycles = j.at("simulated_cycles").get<uint64_t>();
    f.totals = j.at("totals").get<Totals>();
    f.energy = j.at("energy").get<EnergyEstimate>();
    f.derived = j.at("derived").get<Derived>();
    c.figures = f;
  }
  c.comparedTo = j.value("compared_to", "");
}

void to_json(Json& j, const EnergyEntry& e) {
  j = {{"key", e.key},
       {"pj", e.picojoules},
       {"unit", e.unit},
       {"source", e.source},
       {"note", e.note}};
}

void from_json(const Json& j, EnergyEntry& e) {
  e = {j.at("key").get<std::string>(), j.at("pj").get<double>(), j.at("unit").get<std::string>(),
       j.at("source").get<std::string>(), j.at("note").get<std::string>()};
}

void to_json(Json& j, const EvalReport& r) {
  j = {{"generator", r.generator}, {"version", r.version}};
  j["model"] = {{"path", r.model.path},
                {"hash", r.model.hash},
                {"batch", r.model.batch},
                {"input_shape", r.model.inputShape},
                {"layers", r.model.layers}};
  j["input"] = {{"description", r.input.description}, {"hash", r.input.hash}};
  if (r.input.seed)
    j["input"]["seed"] = *r.input.seed;
  j["accelerator_model"] = r.acceleratorModel;
  j["configs"] = r.configs;
  j["energy_table"] = r.energyTable;
  j["wall_seconds"] = r.wallSeconds;
}

void from_json(const Json& j, EvalReport& r) {
  r.generator = j.at("generator").get<std::string>();
  r.version = j.at("version").get<std::string>();
  const Json& m = j.at("model");
  r.model = {m.at("path").get<std::string>(), m.at("hash").get<std::string>(),
             m.at("batch").get<int>(), m.at("input_shape").get<std::vector<int64_t>>(),
             m.at("layers").get<size_t>()};
  const Json& in = j.at("input");
  r.input = {in.at("description").get<std::string>(), in.at("hash").get<std::string>(),
             optional<uint64_t>(in, "seed")};
  r.acceleratorModel = j.at("accelerator_model").get<std::string>();
  r.configs = j.at("configs").get<std::vector<ConfigReport>>();
  r.energyTable = j.at("energy_table").get<std::vector<EnergyEntry>>();
  r.wallSeconds = j.at("wall_seconds").get<double>();
}

} // namespace by::eval
