// The report for spreadsheets and people: layers.csv (the layers' fields of report.json, one row
// per layer and config) and report.md (the tables).
#include "eval/report.h"
#include "support/format.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace by::eval {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// A figure in a table: with `f`, or readable (12.3k); "-" when there is none.
std::string num(double v, const char* f = nullptr) {
  return f ? fmt(f, v) : support::humanNumber(v);
}
template <class T> std::string num(const std::optional<T>& v, const char* f = nullptr) {
  return v ? num(double(*v), f) : "-";
}

std::string pct(double part, double whole) {
  return whole > 0 ? fmt("%.1f%%", 100.0 * part / whole) : "-";
}

/// The causes that partition a layer's or a config's cycles (compute, DMA wait, dependency,
/// host, other busy: docs/evaluation.md, "Where the cycles go").
template <class T> std::vector<double> causes(const T& x) {
  return {double(x.computeCycles), double(x.stallDmaCycles), double(x.stallDependencyCycles),
          double(x.stallHostCycles), double(x.stallOtherCycles)};
}

void configTable(std::ostringstream& o, const EvalReport& report) {
  o << "## Configs\n\n| config | status | cycles | ideal | util | inf/s | energy/inf (uJ) | "
       "inf/J | area (M transistors: logic + SRAM) | inf/s per M tr. | speedup | energy "
       "ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ConfigReport& c : report.configs) {
    o << "| " << c.name << " | " << c.status;
    if (!c.figures) {
      o << " | - | - | - | - | - | - | - | - | - | - |\n";
      continue;
    }
    const Totals& t = c.figures->totals;
    const Derived& dv = c.figures->derived;
    std::string area = "-";
    if (c.area)
      area = fmt("%.3f", double(c.area->transistors) / 1e6) + " (" +
             fmt("%.3f", double(c.area->logicTransistors) / 1e6) + " + " +
             fmt("%.3f", double(c.area->sramTransistors) / 1e6) + ")";
    o << " | " << num(double(t.totalCycles)) << " | " << num(double(t.idealCycles)) << " | "
      << num(t.utilization * 100, "%.1f%%") << " | " << num(dv.inferencesPerSecond, "%.4g") << " | "
      << num(dv.energyPerInferenceUj, "%.4g") << " | " << num(dv.inferencesPerJoule, "%.4g")
      << " | " << area << " | " << num(dv.inferencesPerSecondPerMTransistor, "%.4g") << " | "
      << num(dv.speedupVsFirst, "%.3fx") << " | " << num(dv.energyRatioVsFirst, "%.3f") << " |\n";
  }
}

void cyclesTable(std::ostringstream& o, const EvalReport& report) {
  o << "\n## Where the cycles go\n\n| config | total | compute | DMA wait | dependency | host | "
       "other busy |\n|---|---|---|---|---|---|---|\n";
  for (const ConfigReport& c : report.configs) {
    if (!c.figures)
      continue;
    const Totals& t = c.figures->totals;
    o << "| " << c.name << " | " << num(double(t.totalCycles));
    for (double cause : causes(t))
      o << " | " << num(cause) << " (" << pct(cause, double(t.totalCycles)) << ")";
    o << " |\n";
  }
}

void trafficTable(std::ostringstream& o, const EvalReport& report) {
  o << "\n## Traffic and memories\n\n| config | DRAM read | DRAM write | without Boveda | Boveda "
       "saved | activations raw | activations stored | SP reads | SP writes | ACC reads | ACC "
       "writes | TD MACs skipped | TD window stalls |\n|---|---|---|---|---|---|---|---|---|---|"
       "---|---|---|\n";
  for (const ConfigReport& c : report.configs) {
    if (!c.figures)
      continue;
    const Totals& t = c.figures->totals;
    o << "| " << c.name;
    for (const std::string& cell :
         {num(double(t.dramReadBytes)), num(double(t.dramWriteBytes)), num(t.dramBytesUncompressed),
          num(t.bovedaBytesSaved), num(double(t.outputRawBytes)), num(double(t.outputStoredBytes)),
          num(double(t.spReads)), num(double(t.spWrites)), num(double(t.accReads)),
          num(double(t.accWrites)), num(double(t.tdMacsSkipped)), num(double(t.tdWindowStalls))})
      o << " | " << cell;
    o << " |\n";
  }
}

void energyTable(std::ostringstream& o, const EvalReport& report) {
  o << "\n## Energy (pJ per inference run, by component)\n\n| config";
  const EnergyEstimate* any = nullptr;
  for (const ConfigReport& c : report.configs)
    if (c.figures && !any)
      any = &c.figures->energy;
  if (!any)
    return;
  for (const EnergyPart& p : any->parts)
    o << " | " << p.name;
  o << " | total |\n|---";
  for (size_t i = 0; i < any->parts.size() + 1; ++i)
    o << "|---";
  o << "|\n";
  for (const ConfigReport& c : report.configs) {
    if (!c.figures)
      continue;
    o << "| " << c.name;
    for (const EnergyPart& p : c.figures->energy.parts)
      o << " | " << num(p.pj);
    o << " | " << num(c.figures->energy.totalPj) << " |\n";
  }
}

void layersTable(std::ostringstream& o, const ConfigReport& c) {
  o << "\n## Layers on " << c.name
    << "\n\n| # | layer | kernel | MACs | cycles | ideal | util | compute | DMA wait | "
       "dependency | host | other | DRAM rd | DRAM wr | energy (pJ) | speedup |\n"
       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const LayerReport& l : c.layers) {
    o << "| " << l.index << " | " << l.layer << " | " << l.kernel << (l.onCpu ? " (cpu)" : "")
      << " | " << num(double(l.macs)) << " | " << num(double(l.totalCycles)) << " | "
      << num(double(l.idealCycles)) << " | " << num(l.utilization * 100, "%.1f%%");
    for (double cause : causes(l))
      o << " | " << num(cause);
    o << " | " << num(double(l.dramReadBytes)) << " | " << num(double(l.dramWriteBytes)) << " | "
      << num(l.energyPj) << " | " << num(l.speedupVsFirst, "%.2fx") << " |\n";
  }
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

std::string layersCsv(const EvalReport& report) {
  std::string out;
  for (size_t i = 0; i < layerColumns().size(); ++i)
    out += (i ? "," : "") + layerColumns()[i];
  out += "\n";
  // A row is the layer's record in report.json, column by column.
  for (const ConfigReport& c : report.configs)
    for (const LayerReport& l : c.layers) {
      const Json row = l;
      for (size_t i = 0; i < layerColumns().size(); ++i)
        out += (i ? "," : "") + csvCell(row.value(layerColumns()[i], Json()));
      out += "\n";
    }
  return out;
}

std::string reportMarkdown(const EvalReport& report) {
  std::ostringstream o;
  o << "# brickyard eval: " << report.model.path << "\n\n"
    << "Model hash " << report.model.hash << ", batch " << report.model.batch << ", input "
    << report.input.description << "; accelerator model `" << report.acceleratorModel << "`; "
    << report.version << ". Fields and sources: docs/evaluation.md.\n\n";
  configTable(o, report);
  cyclesTable(o, report);
  trafficTable(o, report);
  energyTable(o, report);
  for (const ConfigReport& c : report.configs)
    if (c.figures)
      layersTable(o, c);
  o << "\n## Plots\n\n";
  for (const char* p :
       {"utilization.png", "cycles.png", "energy.png", "speedup.png", "dram_traffic.png"})
    o << "![" << p << "](" << p << ")\n";
  return o.str();
}

} // namespace by::eval
