#include "compiler/run_report.h"

#include "compiler/emit_c.h"
#include "config/derived.h"
#include "support/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace by::compiler {

std::vector<std::string> LayerStats::names() {
  return statFields();
}

uint64_t LayerStats::field(const std::string& name) const {
  static const std::vector<std::string> n = names();
  for (size_t i = 0; i < n.size() && i < fields.size(); ++i)
    if (n[i] == name)
      return fields[i];
  return 0;
}

std::vector<LayerStats> parseStats(const std::vector<uint8_t>& bytes, size_t layers) {
  const size_t per = LayerStats::names().size();
  std::vector<LayerStats> out(layers);
  for (size_t l = 0; l < layers; ++l) {
    out[l].fields.resize(per);
    for (size_t f = 0; f < per; ++f) {
      const size_t at = (l * per + f) * 8;
      if (at + 8 <= bytes.size())
        std::memcpy(&out[l].fields[f], bytes.data() + at, 8);
    }
  }
  return out;
}

RunCheck checkOutput(const Graph& g, const std::vector<int8_t>& got,
                     const std::vector<int8_t>& want, const std::vector<float>* floatOut) {
  RunCheck c;
  c.values = int64_t(want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (i >= got.size() || got[i] != want[i]) {
      if (c.firstMismatch < 0) {
        c.firstMismatch = int64_t(i);
        c.firstGot = i < got.size() ? got[i] : 0;
        c.firstWant = want[i];
      }
      ++c.mismatches;
    }
  if (!floatOut)
    return c;
  const Tensor& out = g.tensors[g.output];
  c.haveFloat = true;
  std::vector<float> deq(got.size());
  for (size_t i = 0; i < got.size(); ++i)
    deq[i] = float(got[i] * out.scale);
  double sig = 0, noise = 0;
  for (size_t i = 0; i < deq.size() && i < floatOut->size(); ++i) {
    const double e = double((*floatOut)[i]) - deq[i];
    sig += double((*floatOut)[i]) * (*floatOut)[i];
    noise += e * e;
    c.maxAbsError = std::max(c.maxAbsError, std::abs(e));
  }
  c.sqnrDb = noise == 0 ? 200.0 : sig == 0 ? -200.0 : 10.0 * std::log10(sig / noise);
  // Top-1 per row of the output's channels (NHWC: a row is one pixel's channels).
  const int64_t cols = out.shape.c, rows = out.shape.pixels();
  for (int64_t r = 0; r < rows; ++r) {
    const auto a = std::max_element(deq.begin() + r * cols, deq.begin() + (r + 1) * cols);
    const auto b =
        std::max_element(floatOut->begin() + r * cols, floatOut->begin() + (r + 1) * cols);
    c.top1Agree += (a - (deq.begin() + r * cols)) == (b - (floatOut->begin() + r * cols));
  }
  c.rows = rows;
  return c;
}

namespace {

struct Row {
  std::string name, kernel;
  int64_t macs = 0;
  uint64_t cycles = 0, rd = 0, wr = 0, skipped = 0, compressed = 0;
  bool cpu = false;
};

} // namespace

std::string reportTable(const Compiled& c, const RunReport& r) {
  const Graph& g = c.graph;
  const int peak = config::derive(c.program.config).peakMacsPerCycle;
  const bool timed = r.model == "rtl";
  std::vector<Row> rows;
  Row total;
  total.name = "total";
  for (size_t i = 0; i < g.layers.size() && i < r.layers.size(); ++i) {
    const LayerPlan& p = c.program.layers[i];
    const LayerStats& s = r.layers[i];
    Row row{g.layers[i].name,        kernelName(p.kernel),        p.macs,
            s.field("LAYER_CYCLES"), s.field("DMA_READ_BYTES"),   s.field("DMA_WRITE_BYTES"),
            s.field("MACS_SKIPPED"), s.field("COMPRESSED_BYTES"), p.onCpu};
    if (row.name.size() > 24)
      row.name = row.name.substr(0, 21) + "...";
    if (row.cpu)
      row.kernel += " (cpu)";
    total.macs += row.macs;
    total.cycles += row.cycles;
    total.rd += row.rd;
    total.wr += row.wr;
    total.skipped += row.skipped;
    total.compressed += row.compressed;
    rows.push_back(row);
  }
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%4s  %-24s %-26s %8s %10s %6s %9s %9s %9s %9s\n", "#", "layer",
                "kernel", "MACs", timed ? "cycles" : "host cyc", "util", "DRAM rd", "DRAM wr",
                "TD skip", "Boveda");
  out += line;
  auto emit = [&](const Row& row, const std::string& idx) {
    const double util =
        timed && row.cycles && row.macs ? double(row.macs) / (double(row.cycles) * peak) : -1;
    char u[16];
    if (util >= 0)
      std::snprintf(u, sizeof u, "%5.1f%%", 100.0 * util);
    else
      std::snprintf(u, sizeof u, "%6s", "-");
    std::snprintf(
        line, sizeof line, "%4s  %-24s %-26s %8s %10s %6s %9s %9s %9s %9s\n", idx.c_str(),
        row.name.c_str(), row.kernel.c_str(), support::humanNumber(double(row.macs)).c_str(),
        support::humanNumber(double(row.cycles)).c_str(), u,
        support::humanNumber(double(row.rd)).c_str(), support::humanNumber(double(row.wr)).c_str(),
        support::humanNumber(double(row.skipped)).c_str(),
        support::humanNumber(double(row.compressed)).c_str());
    out += line;
  };
  for (size_t i = 0; i < rows.size(); ++i)
    emit(rows[i], std::to_string(i));
  emit(total, "");
  // Activations stored compressed (Boveda): their raw bytes and what the run stored.
  int64_t tensors = 0, raw = 0, stored = 0;
  for (size_t i = 0; i < g.layers.size() && i < r.layers.size(); ++i)
    if (c.program.memory.compressed(g.storageOf(g.layers[i].output))) {
      ++tensors;
      raw += g.tensors[size_t(g.layers[i].output)].shape.elems();
      stored += int64_t(r.layers[i].field(kStoredBytesField));
    }
  if (tensors) {
    std::snprintf(line, sizeof line,
                  "Boveda: %lld activation tensors stored compressed: %s bytes raw, %s stored "
                  "(%.3f, pointer tables included)\n",
                  (long long)tensors, support::humanNumber(double(raw)).c_str(),
                  support::humanNumber(double(stored)).c_str(), double(stored) / double(raw));
    out += line;
  }
  return out;
}

RunRecord runRecord(const Compiled& c, const RunReport& r) {
  const Graph& g = c.graph;
  RunRecord rec;
  rec.model = r.model;
  rec.config = c.program.config.name;
  rec.peakMacsPerCycle = config::derive(c.program.config).peakMacsPerCycle;
  rec.totalCycles = r.totalCycles;
  rec.hostInstructions = r.hostInstructions;
  rec.wallSeconds = r.wallSeconds;
  rec.check = r.check;
  const auto names = LayerStats::names();
  const int peak = rec.peakMacsPerCycle;
  for (size_t i = 0; i < g.layers.size() && i < r.layers.size(); ++i) {
    const LayerPlan& p = c.program.layers[i];
    RunLayerRecord l;
    l.index = i;
    l.name = g.layers[i].name;
    l.kind = layerKindName(g.layers[i].kind);
    l.kernel = kernelName(p.kernel);
    l.onCpu = p.onCpu;
    l.macs = p.macs;
    l.outputRawBytes = g.tensors[size_t(g.layers[i].output)].shape.elems();
    for (size_t f = 0; f < names.size() && f < r.layers[i].fields.size(); ++f)
      l.counters[names[f]] = r.layers[i].fields[f];
    l.cycles = r.layers[i].field("LAYER_CYCLES");
    l.idealCycles = (p.macs + peak - 1) / peak;
    l.utilization = r.model == "rtl" && l.cycles ? double(p.macs) / (double(l.cycles) * peak) : 0.0;
    rec.layers.push_back(l);
  }
  return rec;
}

uint64_t RunLayerRecord::counter(const std::string& name) const {
  const auto it = counters.find(name);
  return it == counters.end() ? 0 : it->second;
}

void to_json(nlohmann::json& j, const RunCheck& c) {
  j = {{"values", c.values}, {"mismatches", c.mismatches}, {"bit_exact", c.exact()}};
  if (c.haveFloat)
    j["float"] = {{"sqnr_db", c.sqnrDb},
                  {"max_abs_error", c.maxAbsError},
                  {"rows", c.rows},
                  {"top1_agree", c.top1Agree}};
}

void from_json(const nlohmann::json& j, RunCheck& c) {
  c.values = j.at("values").get<int64_t>();
  c.mismatches = j.at("mismatches").get<int64_t>();
  c.haveFloat = j.contains("float");
  if (c.haveFloat) {
    const nlohmann::json& f = j.at("float");
    c.sqnrDb = f.at("sqnr_db").get<double>();
    c.maxAbsError = f.at("max_abs_error").get<double>();
    c.rows = f.at("rows").get<int64_t>();
    c.top1Agree = f.at("top1_agree").get<int64_t>();
  }
}

void to_json(nlohmann::json& j, const RunLayerRecord& l) {
  j = {{"index", l.index},
       {"name", l.name},
       {"kind", l.kind},
       {"kernel", l.kernel},
       {"on_cpu", l.onCpu},
       {"macs", l.macs},
       {"cycles", l.cycles},
       {"ideal_cycles", l.idealCycles},
       {"utilization", l.utilization},
       {"output_raw_bytes", l.outputRawBytes},
       {"counters", l.counters}};
}

void from_json(const nlohmann::json& j, RunLayerRecord& l) {
  l.index = j.at("index").get<size_t>();
  l.name = j.at("name").get<std::string>();
  l.kind = j.at("kind").get<std::string>();
  l.kernel = j.at("kernel").get<std::string>();
  l.onCpu = j.at("on_cpu").get<bool>();
  l.macs = j.at("macs").get<int64_t>();
  l.cycles = j.at("cycles").get<uint64_t>();
  l.idealCycles = j.at("ideal_cycles").get<int64_t>();
  l.utilization = j.at("utilization").get<double>();
  l.outputRawBytes = j.at("output_raw_bytes").get<int64_t>();
  l.counters = j.at("counters").get<std::map<std::string, uint64_t>>();
}

void to_json(nlohmann::json& j, const RunRecord& r) {
  j = {{"model", r.model},
       {"config", r.config},
       {"peak_macs_per_cycle", r.peakMacsPerCycle},
       {"total_cycles", r.totalCycles},
       {"host_instructions", r.hostInstructions},
       {"wall_seconds", r.wallSeconds},
       {"check", r.check},
       {"layers", r.layers}};
}

void from_json(const nlohmann::json& j, RunRecord& r) {
  r.model = j.at("model").get<std::string>();
  r.config = j.at("config").get<std::string>();
  r.peakMacsPerCycle = j.at("peak_macs_per_cycle").get<int>();
  r.totalCycles = j.at("total_cycles").get<uint64_t>();
  r.hostInstructions = j.at("host_instructions").get<uint64_t>();
  r.wallSeconds = j.at("wall_seconds").get<double>();
  r.check = j.at("check").get<RunCheck>();
  r.layers = j.at("layers").get<std::vector<RunLayerRecord>>();
}

} // namespace by::compiler
