#include "eval/report.h"

#include "config/derived.h"
#include "eval/energy.h"

#include <cmath>
#include <cstdio>
#include <sstream>

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

uint64_t counter(const nlohmann::json& layer, const char* name) {
  const auto& c = layer.at("counters");
  return c.contains(name) ? c.at(name).get<uint64_t>() : 0;
}

CycleSplit splitCycles(const nlohmann::json& layer) {
  CycleSplit s;
  s.total = int64_t(counter(layer, "LAYER_CYCLES"));
  const int64_t busy = int64_t(counter(layer, "BUSY_CYCLES"));
  s.compute = int64_t(counter(layer, "EXEC_ACTIVE_CYCLES"));
  s.dma = int64_t(counter(layer, "WAIT_DMA_CYCLES"));
  s.dependency = int64_t(counter(layer, "WAIT_DEPENDENCY_CYCLES"));
  s.other = busy - s.compute - s.dma - s.dependency;
  s.host = s.total - busy;
  return s;
}

// One energy part: count x the table entry (pJ per unit).
Json part(double count, double pjPerUnit, const std::string& entry) {
  return Json{
      {"count", count}, {"pj_per_unit", pjPerUnit}, {"pj", count * pjPerUnit}, {"entry", entry}};
}

// The energy estimate of a layer's counters (docs/evaluation.md, "Energy").
Json layerEnergy(const config::Config& c, const nlohmann::json& layer) {
  const config::Derived d = config::derive(c);
  const MemoryEnergy m = memoryEnergy(c);
  const double macs = double(counter(layer, "MACS"));
  const double beatBits = double(d.dim) * d.dim *
                          (double(c.array.lanes) * c.types.inputWidth + c.types.spatialOutputWidth);
  Json e;
  e["mac_mult"] = part(macs, energyEntry("mac_mult_int8").picojoules, "mac_mult_int8");
  e["mac_add"] = part(macs, energyEntry("mac_add_int32").picojoules, "mac_add_int32");
  e["array_registers"] = part(double(counter(layer, "COMPUTE_BEATS")) * beatBits,
                              energyEntry("register_bit").picojoules, "register_bit");
  e["scratchpad_sram"] = part(double(counter(layer, "SP_READS") + counter(layer, "SP_WRITES")),
                              m.spPicojoulesPerAccess, "sram_bit_8kib");
  e["accumulator_sram"] = part(double(counter(layer, "ACC_READS") + counter(layer, "ACC_WRITES")),
                               m.accPicojoulesPerAccess, "sram_bit_8kib");
  e["accumulator_add"] = part(double(counter(layer, "ACC_WRITES")) * d.dim,
                              energyEntry("acc_add_int32").picojoules, "acc_add_int32");
  e["dram"] = part(double(counter(layer, "DMA_READ_BYTES") + counter(layer, "DMA_WRITE_BYTES")),
                   energyEntry("dram_byte").picojoules, "dram_byte");
  double total = 0;
  for (const auto& [k, v] : e.items())
    total += v["pj"].get<double>();
  e["total_pj"] = total;
  return e;
}

const char* const kSummed[] = {"macs",
                               "macs_issued",
                               "total_cycles",
                               "ideal_cycles",
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
                               "boveda_bytes_saved",
                               "dram_bytes_uncompressed"};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

} // namespace

std::string csvCell(const Json& v) {
  if (v.is_null())
    return "";
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.find_first_of(",\"\n") == std::string::npos)
      return s;
    std::string q = "\"";
    for (char ch : s)
      q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  }
  if (v.is_boolean())
    return v.get<bool>() ? "1" : "0";
  if (v.is_number_float())
    return fmt("%.9g", v.get<double>());
  return v.dump();
}

const std::vector<std::string>& cycleCauses() {
  static const std::vector<std::string> c = {"compute_cycles", "stall_dma_cycles",
                                             "stall_dependency_cycles", "stall_host_cycles",
                                             "stall_other_cycles"};
  return c;
}

const std::vector<std::string>& layerColumns() {
  // The layer's identity, the summed counters (utilization after the ideal cycles it derives
  // from), then the per-layer derived figures.
  static const std::vector<std::string> c = [] {
    std::vector<std::string> cols = {"config", "index", "layer", "kind", "kernel", "on_cpu"};
    for (const char* f : kSummed) {
      cols.push_back(f);
      if (std::string(f) == "ideal_cycles")
        cols.push_back("utilization");
    }
    for (const char* f : {"energy_pj", "speedup_vs_first", "energy_ratio_vs_first"})
      cols.push_back(f);
    return cols;
  }();
  return c;
}

Json evaluateConfig(const ConfigRun& r) {
  const config::Config& c = r.config;
  const config::Derived d = config::derive(c);
  Json out;
  out["name"] = c.name;
  out["source"] = r.source;
  out["config_hash"] = r.configHash;
  out["status"] = r.status;
  if (!r.message.empty())
    out["message"] = r.message;
  out["cached"] = r.cached;
  out["wall_seconds"] = r.wallSeconds;
  out["clock_mhz"] = c.soc.clockMHz;
  out["dim"] = d.dim;
  out["lanes"] = c.array.lanes;
  out["peak_macs_per_cycle"] = d.peakMacsPerCycle;
  out["tensordash"] = c.tensordash.enabled;
  out["boveda"] = c.boveda.enabled;
  out["scratchpad_kib"] = c.memory.scratchpad.capacityKiB;
  out["accumulator_kib"] = c.memory.accumulator.capacityKiB;
  const MemoryEnergy m = memoryEnergy(c);
  out["sram_pj_per_access"] = {{"scratchpad", m.spPicojoulesPerAccess},
                               {"scratchpad_bits", m.spAccessBits},
                               {"accumulator", m.accPicojoulesPerAccess},
                               {"accumulator_bits", m.accAccessBits}};
  out["area"] = r.area.is_null() ? Json() : Json(r.area);
  if (r.run.is_null()) {
    out["layers"] = Json::array();
    return out;
  }
  out["check"] = Json(r.run.at("check"));
  out["simulated_cycles"] = r.run.value("total_cycles", uint64_t(0));

  const bool haveBaseline =
      !r.baseline.is_null() && r.baseline.at("layers").size() == r.run.at("layers").size();
  Json layers = Json::array();
  Json totals;
  for (const char* k : kSummed)
    totals[k] = int64_t(0);
  Json energyTotals;
  for (size_t i = 0; i < r.run.at("layers").size(); ++i) {
    const nlohmann::json& src = r.run.at("layers")[i];
    const CycleSplit s = splitCycles(src);
    const int64_t macs = src.at("macs").get<int64_t>();
    Json l;
    l["config"] = c.name;
    l["index"] = i;
    l["layer"] = src.at("name");
    l["kind"] = src.at("kind");
    l["kernel"] = src.at("kernel");
    l["on_cpu"] = src.at("on_cpu");
    l["macs"] = macs;
    l["macs_issued"] = counter(src, "MACS");
    l["total_cycles"] = s.total;
    l["ideal_cycles"] = (macs + d.peakMacsPerCycle - 1) / d.peakMacsPerCycle;
    l["utilization"] =
        r.model == "rtl" && s.total ? double(macs) / (double(s.total) * d.peakMacsPerCycle) : 0.0;
    l["compute_cycles"] = s.compute;
    l["stall_dma_cycles"] = s.dma;
    l["stall_dependency_cycles"] = s.dependency;
    l["stall_host_cycles"] = s.host;
    l["stall_other_cycles"] = s.other;
    l["stall_cycles"] = s.total - s.compute;
    l["dram_read_bytes"] = counter(src, "DMA_READ_BYTES");
    l["dram_write_bytes"] = counter(src, "DMA_WRITE_BYTES");
    l["sp_reads"] = counter(src, "SP_READS");
    l["sp_writes"] = counter(src, "SP_WRITES");
    l["acc_reads"] = counter(src, "ACC_READS");
    l["acc_writes"] = counter(src, "ACC_WRITES");
    l["td_macs_skipped"] = counter(src, "MACS_SKIPPED");
    l["td_window_stalls"] = counter(src, "WINDOW_STALLS");
    l["td_feed_stalls"] = counter(src, "FEED_STALLS");
    l["boveda_compressed_bytes"] = counter(src, "COMPRESSED_BYTES");
    if (haveBaseline) {
      const nlohmann::json& b = r.baseline.at("layers")[i];
      const int64_t raw = int64_t(counter(b, "DMA_READ_BYTES") + counter(b, "DMA_WRITE_BYTES"));
      l["dram_bytes_uncompressed"] = raw;
      l["boveda_bytes_saved"] =
          raw - int64_t(counter(src, "DMA_READ_BYTES") + counter(src, "DMA_WRITE_BYTES"));
      l["cycles_uncompressed"] = counter(b, "LAYER_CYCLES");
    } else {
      l["dram_bytes_uncompressed"] = nullptr;
      l["boveda_bytes_saved"] = nullptr;
    }
    const Json e = layerEnergy(c, src);
    l["energy_pj"] = e["total_pj"];
    l["energy"] = e;
    l["speedup_vs_first"] = nullptr;
    l["energy_ratio_vs_first"] = nullptr;
    for (const char* k : kSummed)
      if (l.contains(k) && !l[k].is_null())
        totals[k] = totals[k].get<int64_t>() + l[k].get<int64_t>();
    for (const auto& [k, v] : e.items()) {
      if (k == "total_pj")
        continue;
      if (!energyTotals.contains(k))
        energyTotals[k] = Json{
            {"count", 0.0}, {"pj_per_unit", v["pj_per_unit"]}, {"pj", 0.0}, {"entry", v["entry"]}};
      energyTotals[k]["count"] = energyTotals[k]["count"].get<double>() + v["count"].get<double>();
      energyTotals[k]["pj"] = energyTotals[k]["pj"].get<double>() + v["pj"].get<double>();
    }
    layers.push_back(l);
  }
  if (!haveBaseline) {
    totals["boveda_bytes_saved"] = nullptr;
    totals["dram_bytes_uncompressed"] = nullptr;
  }
  const int64_t cycles = totals["total_cycles"].get<int64_t>();
  totals["utilization"] = r.model == "rtl" && cycles ? double(totals["macs"].get<int64_t>()) /
                                                           (double(cycles) * d.peakMacsPerCycle)
                                                     : 0.0;
  double energyPj = 0;
  for (const auto& [k, v] : energyTotals.items())
    energyPj += v["pj"].get<double>();
  energyTotals["total_pj"] = energyPj;
  out["layers"] = layers;
  out["totals"] = totals;
  out["energy"] = energyTotals;

  // Derived figures: one inference is one run of the model (batch inputs).
  Json dv;
  const double seconds = double(cycles) / (double(c.soc.clockMHz) * 1e6);
  const double joules = energyPj * 1e-12;
  dv["latency_s"] = seconds;
  dv["inferences_per_s"] = seconds > 0 ? r.batch / seconds : 0.0;
  dv["energy_per_inference_uj"] = energyPj * 1e-6 / r.batch;
  dv["power_w"] = seconds > 0 ? joules / seconds : 0.0;
  dv["inferences_per_joule"] = joules > 0 ? r.batch / joules : 0.0; // perf/W
  if (!r.area.is_null() && r.area.value("transistors", 0.0) > 0) {
    const double mtr = r.area.at("transistors").get<double>() / 1e6;
    dv["inferences_per_s_per_mtransistor"] = dv["inferences_per_s"].get<double>() / mtr;
  } else {
    dv["inferences_per_s_per_mtransistor"] = nullptr;
  }
  dv["speedup_vs_first"] = nullptr;
  dv["energy_ratio_vs_first"] = nullptr;
  out["derived"] = dv;
  return out;
}

void compareToFirst(Json& configs) {
  const Json* first = nullptr;
  for (const Json& c : configs)
    if (c.contains("derived")) {
      first = &c;
      break;
    }
  if (!first)
    return;
  const Json base = *first; // copy: configs is modified below
  const double baseLatency = base["derived"]["latency_s"].get<double>();
  const double baseEnergy = base["energy"]["total_pj"].get<double>();
  for (Json& c : configs) {
    if (!c.contains("derived"))
      continue;
    c["compared_to"] = base["name"];
    const double lat = c["derived"]["latency_s"].get<double>();
    const double en = c["energy"]["total_pj"].get<double>();
    c["derived"]["speedup_vs_first"] = lat > 0 ? baseLatency / lat : 0.0;
    c["derived"]["energy_ratio_vs_first"] = baseEnergy > 0 ? en / baseEnergy : 0.0;
    if (c["layers"].size() != base["layers"].size())
      continue;
    // Per layer, at each config's own clock.
    const double f = c["clock_mhz"].get<double>(), bf = base["clock_mhz"].get<double>();
    for (size_t i = 0; i < c["layers"].size(); ++i) {
      Json& l = c["layers"][i];
      const Json& b = base["layers"][i];
      const double t = l["total_cycles"].get<double>() / f;
      const double bt = b["total_cycles"].get<double>() / bf;
      l["speedup_vs_first"] = t > 0 ? bt / t : 0.0;
      const double e = l["energy_pj"].get<double>(), be = b["energy_pj"].get<double>();
      l["energy_ratio_vs_first"] = be > 0 ? e / be : 0.0;
    }
  }
}

std::string layersCsv(const Json& report) {
  std::string out;
  for (size_t i = 0; i < layerColumns().size(); ++i)
    out += (i ? "," : "") + layerColumns()[i];
  out += "\n";
  for (const Json& c : report.at("configs"))
    for (const Json& l : c.at("layers")) {
      for (size_t i = 0; i < layerColumns().size(); ++i)
        out += (i ? "," : "") + csvCell(l.value(layerColumns()[i], Json()));
      out += "\n";
    }
  return out;
}

namespace {

std::string human(double v) {
  if (std::abs(v) >= 1e9)
    return fmt("%.2fG", v / 1e9);
  if (std::abs(v) >= 1e6)
    return fmt("%.2fM", v / 1e6);
  if (std::abs(v) >= 1e4)
    return fmt("%.1fk", v / 1e3);
  return fmt("%.0f", v);
}

std::string num(const Json& v, const char* f = nullptr) {
  if (v.is_null())
    return "-";
  if (f)
    return fmt(f, v.get<double>());
  return human(v.get<double>());
}

std::string pct(const Json& part, const Json& whole) {
  const double w = whole.get<double>();
  return w > 0 ? fmt("%.1f%%", 100.0 * part.get<double>() / w) : "-";
}

} // namespace

std::string reportMarkdown(const Json& report) {
  std::ostringstream o;
  const Json& model = report.at("model");
  o << "# brickyard eval: " << model.at("path").get<std::string>() << "\n\n"
    << "Model hash " << model.at("hash").get<std::string>() << ", batch "
    << model.at("batch").get<int>() << ", input "
    << report.at("input").at("description").get<std::string>() << "; accelerator model `"
    << report.at("accelerator_model").get<std::string>() << "`; "
    << report.at("version").get<std::string>() << ". Fields and sources: docs/evaluation.md.\n\n";

  o << "## Configs\n\n| config | status | cycles | ideal | util | inf/s | energy/inf (uJ) | "
       "inf/J | area (M transistors: logic + SRAM) | inf/s per M tr. | speedup | energy "
       "ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Json& c : report.at("configs")) {
    o << "| " << c["name"].get<std::string>() << " | " << c["status"].get<std::string>();
    if (!c.contains("totals")) {
      o << " | - | - | - | - | - | - | - | - | - | - |\n";
      continue;
    }
    const Json& t = c["totals"];
    const Json& dv = c["derived"];
    std::string area = "-";
    if (!c["area"].is_null())
      area = fmt("%.3f", c["area"]["transistors"].get<double>() / 1e6) + " (" +
             fmt("%.3f", c["area"]["logic_transistors"].get<double>() / 1e6) + " + " +
             fmt("%.3f", c["area"]["sram_transistors"].get<double>() / 1e6) + ")";
    o << " | " << num(t["total_cycles"]) << " | " << num(t["ideal_cycles"]) << " | "
      << num(t["utilization"].get<double>() * 100, "%.1f%%") << " | "
      << num(dv["inferences_per_s"], "%.4g") << " | " << num(dv["energy_per_inference_uj"], "%.4g")
      << " | " << num(dv["inferences_per_joule"], "%.4g") << " | " << area << " | "
      << num(dv["inferences_per_s_per_mtransistor"], "%.4g") << " | "
      << num(dv["speedup_vs_first"], "%.3fx") << " | " << num(dv["energy_ratio_vs_first"], "%.3f")
      << " |\n";
  }

  o << "\n## Where the cycles go\n\n| config | total | compute | DMA wait | dependency | host | "
       "other busy |\n|---|---|---|---|---|---|---|\n";
  for (const Json& c : report.at("configs")) {
    if (!c.contains("totals"))
      continue;
    const Json& t = c["totals"];
    o << "| " << c["name"].get<std::string>() << " | " << num(t["total_cycles"]);
    for (const std::string& k : cycleCauses())
      o << " | " << num(t[k]) << " (" << pct(t[k], t["total_cycles"]) << ")";
    o << " |\n";
  }

  o << "\n## Traffic and memories\n\n| config | DRAM read | DRAM write | without Boveda | Boveda "
       "saved | SP reads | SP writes | ACC reads | ACC writes | TD MACs skipped | TD window "
       "stalls |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Json& c : report.at("configs")) {
    if (!c.contains("totals"))
      continue;
    const Json& t = c["totals"];
    o << "| " << c["name"].get<std::string>();
    for (const char* k : {"dram_read_bytes", "dram_write_bytes", "dram_bytes_uncompressed",
                          "boveda_bytes_saved", "sp_reads", "sp_writes", "acc_reads", "acc_writes",
                          "td_macs_skipped", "td_window_stalls"})
      o << " | " << num(t[k]);
    o << " |\n";
  }

  o << "\n## Energy (pJ per inference run, by component)\n\n| config";
  const Json* any = nullptr;
  for (const Json& c : report.at("configs"))
    if (c.contains("energy") && !any)
      any = &c["energy"];
  if (any) {
    for (const auto& [k, v] : any->items())
      if (k != "total_pj")
        o << " | " << k;
    o << " | total |\n|---";
    for (size_t i = 0; i < any->size(); ++i)
      o << "|---";
    o << "|\n";
    for (const Json& c : report.at("configs")) {
      if (!c.contains("energy"))
        continue;
      o << "| " << c["name"].get<std::string>();
      for (const auto& [k, v] : c["energy"].items())
        if (k != "total_pj")
          o << " | " << num(v["pj"]);
      o << " | " << num(c["energy"]["total_pj"]) << " |\n";
    }
  }

  for (const Json& c : report.at("configs")) {
    if (!c.contains("totals"))
      continue;
    o << "\n## Layers on " << c["name"].get<std::string>()
      << "\n\n| # | layer | kernel | MACs | cycles | ideal | util | compute | DMA wait | "
         "dependency | host | other | DRAM rd | DRAM wr | energy (pJ) | speedup |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Json& l : c["layers"]) {
      o << "| " << l["index"].get<int>() << " | " << l["layer"].get<std::string>() << " | "
        << l["kernel"].get<std::string>() << (l["on_cpu"].get<bool>() ? " (cpu)" : "") << " | "
        << num(l["macs"]) << " | " << num(l["total_cycles"]) << " | " << num(l["ideal_cycles"])
        << " | " << num(l["utilization"].get<double>() * 100, "%.1f%%");
      for (const std::string& k : cycleCauses())
        o << " | " << num(l[k]);
      o << " | " << num(l["dram_read_bytes"]) << " | " << num(l["dram_write_bytes"]) << " | "
        << num(l["energy_pj"]) << " | " << num(l["speedup_vs_first"], "%.2fx") << " |\n";
    }
  }
  o << "\n## Plots\n\n";
  for (const char* p :
       {"utilization.png", "cycles.png", "energy.png", "speedup.png", "dram_traffic.png"})
    o << "![" << p << "](" << p << ")\n";
  return o.str();
}

} // namespace by::eval
