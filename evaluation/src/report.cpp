// The evaluation of one config from its runs (docs/evaluation.md): the cycles split by cause,
// the energy estimate, totals and derived figures, and the comparison against the first config.
#include "eval/report.h"

#include "config/derived.h"
#include "eval/energy.h"

namespace by::eval {

namespace {

// The cycle split of a layer (docs/evaluation.md, "Where the cycles go"). The host's cycle
// timer measures the layer (LAYER_CYCLES); the accelerator's counters split its busy cycles
// exclusively: a beat enters the array (compute), else the load or store controller waits for
// the DMA, else a queue head waits for an older command, else something else keeps it busy
// (pipeline fill and drain, bank conflicts, the TensorDash feeder, controller overheads). The
// cycles it is idle belong to the host: issuing commands, or computing a CPU layer.
struct CycleSplit {
  int64_t total, compute, dma, dependency, other, host;
};

CycleSplit splitCycles(const compiler::RunLayerRecord& layer) {
  CycleSplit s;
  s.total = int64_t(layer.counter("LAYER_CYCLES"));
  const int64_t busy = int64_t(layer.counter("BUSY_CYCLES"));
  s.compute = int64_t(layer.counter("EXEC_ACTIVE_CYCLES"));
  s.dma = int64_t(layer.counter("WAIT_DMA_CYCLES"));
  s.dependency = int64_t(layer.counter("WAIT_DEPENDENCY_CYCLES"));
  s.other = busy - s.compute - s.dma - s.dependency;
  s.host = s.total - busy;
  return s;
}

// One energy part: count x the table entry (pJ per unit).
EnergyPart part(const char* name, double count, double pjPerUnit, const std::string& entry) {
  return {name, count, pjPerUnit, count * pjPerUnit, entry};
}

// The energy estimate of a layer's counters (docs/evaluation.md, "Energy").
EnergyEstimate layerEnergy(const config::Config& c, const compiler::RunLayerRecord& layer) {
  const config::Derived d = config::derive(c);
  const MemoryEnergy m = memoryEnergy(c);
  const double macs = double(layer.counter("MACS"));
  const double beatBits = double(d.dim) * d.dim *
                          (double(c.array.lanes) * c.types.inputWidth + c.types.spatialOutputWidth);
  auto table = [](const char* key) { return energyEntry(key).picojoules; };
  EnergyEstimate e;
  e.parts = {
      part("mac_mult", macs, table("mac_mult_int8"), "mac_mult_int8"),
      part("mac_add", macs, table("mac_add_int32"), "mac_add_int32"),
      part("array_registers", double(layer.counter("COMPUTE_BEATS")) * beatBits,
           table("register_bit"), "register_bit"),
      part("scratchpad_sram", double(layer.counter("SP_READS") + layer.counter("SP_WRITES")),
           m.spPicojoulesPerAccess, "sram_bit_8kib"),
      part("accumulator_sram", double(layer.counter("ACC_READS") + layer.counter("ACC_WRITES")),
           m.accPicojoulesPerAccess, "sram_bit_8kib"),
      part("accumulator_add", double(layer.counter("ACC_WRITES")) * d.dim, table("acc_add_int32"),
           "acc_add_int32"),
      part("dram", double(layer.counter("DMA_READ_BYTES") + layer.counter("DMA_WRITE_BYTES")),
           table("dram_byte"), "dram_byte")};
  for (const EnergyPart& p : e.parts)
    e.totalPj += p.pj;
  return e;
}

LayerReport layerReport(const ConfigRun& r, const config::Derived& d, size_t i, bool haveBaseline) {
  const compiler::RunLayerRecord& src = r.run->layers[i];
  const CycleSplit s = splitCycles(src);
  LayerReport l;
  l.config = r.config.name;
  l.index = i;
  l.layer = src.name;
  l.kind = src.kind;
  l.kernel = src.kernel;
  l.onCpu = src.onCpu;
  l.macs = src.macs;
  l.macsIssued = src.counter("MACS");
  l.totalCycles = s.total;
  l.idealCycles = (src.macs + d.peakMacsPerCycle - 1) / d.peakMacsPerCycle;
  l.utilization =
      r.model == "rtl" && s.total ? double(src.macs) / (double(s.total) * d.peakMacsPerCycle) : 0.0;
  l.computeCycles = s.compute;
  l.stallDmaCycles = s.dma;
  l.stallDependencyCycles = s.dependency;
  l.stallHostCycles = s.host;
  l.stallOtherCycles = s.other;
  l.stallCycles = s.total - s.compute;
  l.dramReadBytes = src.counter("DMA_READ_BYTES");
  l.dramWriteBytes = src.counter("DMA_WRITE_BYTES");
  l.spReads = src.counter("SP_READS");
  l.spWrites = src.counter("SP_WRITES");
  l.accReads = src.counter("ACC_READS");
  l.accWrites = src.counter("ACC_WRITES");
  l.tdMacsSkipped = src.counter("MACS_SKIPPED");
  l.tdWindowStalls = src.counter("WINDOW_STALLS");
  l.tdFeedStalls = src.counter("FEED_STALLS");
  l.bovedaCompressedBytes = src.counter("COMPRESSED_BYTES");
  l.outputRawBytes = src.outputRawBytes;
  l.outputStoredBytes = int64_t(src.counter("OUTPUT_STORED_BYTES"));
  if (haveBaseline) {
    const compiler::RunLayerRecord& b = r.baseline->layers[i];
    const int64_t raw = int64_t(b.counter("DMA_READ_BYTES") + b.counter("DMA_WRITE_BYTES"));
    l.dramBytesUncompressed = raw;
    l.bovedaBytesSaved = raw - int64_t(l.dramReadBytes + l.dramWriteBytes);
    l.cyclesUncompressed = b.counter("LAYER_CYCLES");
  }
  l.energy = layerEnergy(r.config, src);
  l.energyPj = l.energy.totalPj;
  return l;
}

void addLayer(Totals& t, const LayerReport& l) {
  t.macs += l.macs;
  t.macsIssued += int64_t(l.macsIssued);
  t.totalCycles += l.totalCycles;
  t.idealCycles += l.idealCycles;
  t.computeCycles += l.computeCycles;
  t.stallDmaCycles += l.stallDmaCycles;
  t.stallDependencyCycles += l.stallDependencyCycles;
  t.stallHostCycles += l.stallHostCycles;
  t.stallOtherCycles += l.stallOtherCycles;
  t.stallCycles += l.stallCycles;
  t.dramReadBytes += int64_t(l.dramReadBytes);
  t.dramWriteBytes += int64_t(l.dramWriteBytes);
  t.spReads += int64_t(l.spReads);
  t.spWrites += int64_t(l.spWrites);
  t.accReads += int64_t(l.accReads);
  t.accWrites += int64_t(l.accWrites);
  t.tdMacsSkipped += int64_t(l.tdMacsSkipped);
  t.tdWindowStalls += int64_t(l.tdWindowStalls);
  t.tdFeedStalls += int64_t(l.tdFeedStalls);
  t.bovedaCompressedBytes += int64_t(l.bovedaCompressedBytes);
  t.outputRawBytes += l.outputRawBytes;
  t.outputStoredBytes += l.outputStoredBytes;
  if (l.bovedaBytesSaved)
    t.bovedaBytesSaved = t.bovedaBytesSaved.value_or(0) + *l.bovedaBytesSaved;
  if (l.dramBytesUncompressed)
    t.dramBytesUncompressed = t.dramBytesUncompressed.value_or(0) + *l.dramBytesUncompressed;
}

void addEnergy(EnergyEstimate& total, const EnergyEstimate& layer) {
  if (total.parts.empty())
    for (const EnergyPart& p : layer.parts)
      total.parts.push_back({p.name, 0.0, p.pjPerUnit, 0.0, p.entry});
  for (size_t i = 0; i < layer.parts.size(); ++i) {
    total.parts[i].count += layer.parts[i].count;
    total.parts[i].pj += layer.parts[i].pj;
  }
}

// Derived figures: one inference is one run of the model (batch inputs).
Derived derive(const ConfigRun& r, int64_t cycles, double energyPj) {
  Derived dv;
  const double seconds = double(cycles) / (double(r.config.soc.clockMHz) * 1e6);
  const double joules = energyPj * 1e-12;
  dv.latencySeconds = seconds;
  dv.inferencesPerSecond = seconds > 0 ? r.batch / seconds : 0.0;
  dv.energyPerInferenceUj = energyPj * 1e-6 / r.batch;
  dv.powerWatts = seconds > 0 ? joules / seconds : 0.0;
  dv.inferencesPerJoule = joules > 0 ? r.batch / joules : 0.0; // perf/W
  if (r.area && r.area->transistors > 0)
    dv.inferencesPerSecondPerMTransistor =
        dv.inferencesPerSecond / (double(r.area->transistors) / 1e6);
  return dv;
}

/// The figures of a config whose run ran: its layers, totals, energy and derived figures.
RunFigures runFigures(const ConfigRun& r, const config::Derived& d,
                      std::vector<LayerReport>& layers) {
  RunFigures f;
  f.check = r.run->check;
  f.simulatedCycles = r.run->totalCycles;
  const bool haveBaseline = r.baseline && r.baseline->layers.size() == r.run->layers.size();
  if (haveBaseline) { // summed below; without a baseline they stay null
    f.totals.bovedaBytesSaved = 0;
    f.totals.dramBytesUncompressed = 0;
  }
  for (size_t i = 0; i < r.run->layers.size(); ++i) {
    layers.push_back(layerReport(r, d, i, haveBaseline));
    addLayer(f.totals, layers.back());
    addEnergy(f.energy, layers.back().energy);
  }
  const int64_t cycles = f.totals.totalCycles;
  f.totals.utilization = r.model == "rtl" && cycles
                             ? double(f.totals.macs) / (double(cycles) * d.peakMacsPerCycle)
                             : 0.0;
  for (const EnergyPart& p : f.energy.parts)
    f.energy.totalPj += p.pj;
  f.derived = derive(r, cycles, f.energy.totalPj);
  return f;
}

} // namespace

const std::vector<std::string>& layerColumns() {
  // The layer's identity, the summed counters (utilization after the ideal cycles it derives
  // from), then the per-layer derived figures.
  static const std::vector<std::string> c = {"config",
                                             "index",
                                             "layer",
                                             "kind",
                                             "kernel",
                                             "on_cpu",
                                             "macs",
                                             "macs_issued",
                                             "total_cycles",
                                             "ideal_cycles",
                                             "utilization",
                                             "compute_cycles",
                                             "stall_dma_cycles",
                                             "stall_dependency_cycles",
                                             "stall_host_cycles",
                                             "stall_other_cycles",
                                             "stall_cycles",
                                             "dram_read_bytes",
                                             "dram_write_bytes",
                                             "sp_reads",
                                             "sp_writes",
                                             "acc_reads",
                                             "acc_writes",
                                             "td_macs_skipped",
                                             "td_window_stalls",
                                             "td_feed_stalls",
                                             "boveda_compressed_bytes",
                                             "output_raw_bytes",
                                             "output_stored_bytes",
                                             "boveda_bytes_saved",
                                             "dram_bytes_uncompressed",
                                             "energy_pj",
                                             "speedup_vs_first",
                                             "energy_ratio_vs_first"};
  return c;
}

ConfigReport evaluateConfig(const ConfigRun& r) {
  const config::Config& c = r.config;
  const config::Derived d = config::derive(c);
  ConfigReport out;
  out.name = c.name;
  out.source = r.source;
  out.configHash = r.configHash;
  out.status = r.status;
  out.message = r.message;
  out.cached = r.cached;
  out.wallSeconds = r.wallSeconds;
  out.clockMHz = c.soc.clockMHz;
  out.dim = d.dim;
  out.lanes = c.array.lanes;
  out.peakMacsPerCycle = d.peakMacsPerCycle;
  out.tensordash = c.tensordash.enabled;
  out.boveda = c.boveda.enabled;
  out.scratchpadKiB = c.memory.scratchpad.capacityKiB;
  out.accumulatorKiB = c.memory.accumulator.capacityKiB;
  const MemoryEnergy m = memoryEnergy(c);
  out.sram = {m.spPicojoulesPerAccess, m.spAccessBits, m.accPicojoulesPerAccess, m.accAccessBits};
  out.area = r.area;
  if (r.run)
    out.figures = runFigures(r, d, out.layers);
  return out;
}

void compareToFirst(std::vector<ConfigReport>& configs) {
  const auto first = std::find_if(configs.begin(), configs.end(),
                                  [](const ConfigReport& c) { return c.figures.has_value(); });
  if (first == configs.end())
    return;
  const ConfigReport base = *first; // copy: configs is modified below
  const double baseLatency = base.figures->derived.latencySeconds;
  const double baseEnergy = base.figures->energy.totalPj;
  for (ConfigReport& c : configs) {
    if (!c.figures)
      continue;
    c.comparedTo = base.name;
    Derived& dv = c.figures->derived;
    const double lat = dv.latencySeconds;
    const double en = c.figures->energy.totalPj;
    dv.speedupVsFirst = lat > 0 ? baseLatency / lat : 0.0;
    dv.energyRatioVsFirst = baseEnergy > 0 ? en / baseEnergy : 0.0;
    if (c.layers.size() != base.layers.size())
      continue;
    // Per layer, at each config's own clock.
    const double f = c.clockMHz, bf = base.clockMHz;
    for (size_t i = 0; i < c.layers.size(); ++i) {
      LayerReport& l = c.layers[i];
      const LayerReport& b = base.layers[i];
      const double t = double(l.totalCycles) / f;
      const double bt = double(b.totalCycles) / bf;
      l.speedupVsFirst = t > 0 ? bt / t : 0.0;
      l.energyRatioVsFirst = b.energyPj > 0 ? l.energyPj / b.energyPj : 0.0;
    }
  }
}

} // namespace by::eval
