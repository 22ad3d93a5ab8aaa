// The sweep's rows: each point's eval totals flattened next to the point's swept values, and
// the Pareto fronts marked per model.
#include "eval/sweep_table.h"

#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <type_traits>

namespace by::eval {
namespace {

// Column -> its value in configs[0] of the point's eval report (null when that config did not
// run, or has no area).
struct Figure {
  const char* column;
  std::function<Json(const ConfigReport&)> value;
};

Json json(int64_t v) {
  return v;
}
Json json(double v) {
  return v;
}
Json json(long long v) {
  return v;
}
template <class T> Json json(const std::optional<T>& v) {
  return v ? Json(*v) : Json();
}

// A field of the totals, the energy estimate, the derived figures or the area.
template <class S, class T> std::function<Json(const ConfigReport&)> from(T S::*member) {
  return [member](const ConfigReport& c) -> Json {
    if constexpr (std::is_same_v<S, synthesis::DesignArea>)
      return c.area ? json((*c.area).*member) : Json();
    else if constexpr (std::is_same_v<S, Totals>)
      return c.figures ? json(c.figures->totals.*member) : Json();
    else if constexpr (std::is_same_v<S, EnergyEstimate>)
      return c.figures ? json(c.figures->energy.*member) : Json();
    else
      return c.figures ? json(c.figures->derived.*member) : Json();
  };
}

const std::vector<Figure>& figures() {
  static const std::vector<Figure> f = {
      {"cycles", from(&Totals::totalCycles)},
      {"ideal_cycles", from(&Totals::idealCycles)},
      {"utilization", from(&Totals::utilization)},
      {"compute_cycles", from(&Totals::computeCycles)},
      {"stall_dma_cycles", from(&Totals::stallDmaCycles)},
      {"stall_dependency_cycles", from(&Totals::stallDependencyCycles)},
      {"stall_host_cycles", from(&Totals::stallHostCycles)},
      {"stall_other_cycles", from(&Totals::stallOtherCycles)},
      {"macs", from(&Totals::macs)},
      {"dram_read_bytes", from(&Totals::dramReadBytes)},
      {"dram_write_bytes", from(&Totals::dramWriteBytes)},
      {"td_macs_skipped", from(&Totals::tdMacsSkipped)},
      {"boveda_bytes_saved", from(&Totals::bovedaBytesSaved)},
      {"energy_pj", from(&EnergyEstimate::totalPj)},
      {"energy_per_inference_uj", from(&Derived::energyPerInferenceUj)},
      {"latency_s", from(&Derived::latencySeconds)},
      {"inferences_per_s", from(&Derived::inferencesPerSecond)},
      {"power_w", from(&Derived::powerWatts)},
      {"inferences_per_joule", from(&Derived::inferencesPerJoule)},
      {"area_transistors", from(&synthesis::DesignArea::transistors)},
      {"logic_transistors", from(&synthesis::DesignArea::logicTransistors)},
      {"sram_transistors", from(&synthesis::DesignArea::sramTransistors)},
      {"cells", from(&synthesis::DesignArea::cells)},
      {"inferences_per_s_per_mtransistor", from(&Derived::inferencesPerSecondPerMTransistor)},
  };
  return f;
}

// The metric pairs of the fronts: (column of the flag, x, y).
const std::vector<std::array<const char*, 3>>& fronts() {
  static const std::vector<std::array<const char*, 3>> f = {
      {"pareto_cycles_area", "area_transistors", "cycles"},
      {"pareto_energy_area", "area_transistors", "energy_pj"},
      {"pareto_cycles_energy", "energy_pj", "cycles"},
  };
  return f;
}

// A config value as JSON: integers and booleans typed (the schema's canonical text).
Json typedValue(const std::string& text) {
  if (text == "true" || text == "false")
    return text == "true";
  bool digits = !text.empty() && text.size() < 18;
  for (size_t i = 0; i < text.size(); ++i)
    digits = digits && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                        (i == 0 && text[i] == '-' && text.size() > 1));
  return digits ? Json(std::stoll(text)) : Json(text);
}

} // namespace

std::vector<bool> paretoFront(const std::vector<std::pair<double, double>>& xy) {
  std::vector<bool> front(xy.size(), true);
  for (size_t i = 0; i < xy.size(); ++i)
    for (size_t j = 0; j < xy.size() && front[i]; ++j) {
      const bool noWorse = xy[j].first <= xy[i].first && xy[j].second <= xy[i].second;
      const bool better = xy[j].first < xy[i].first || xy[j].second < xy[i].second;
      if (j != i && noWorse && better)
        front[i] = false;
    }
  return front;
}

const std::vector<std::string>& sweepFigureColumns() {
  static const std::vector<std::string> c = [] {
    std::vector<std::string> out = {"config", "config_hash"};
    for (const Figure& f : figures())
      out.push_back(f.column);
    for (const auto& f : fronts())
      out.push_back(f[0]);
    out.insert(out.end(), {"wall_seconds", "report", "log", "message"});
    return out;
  }();
  return c;
}

Json sweepRows(const std::vector<SweepPointResult>& points, const std::vector<std::string>& keys) {
  Json rows = Json::array();
  for (const SweepPointResult& p : points) {
    for (const SweepModelResult& m : p.models) {
      Json r;
      r["point"] = p.index;
      r["id"] = p.id;
      r["model"] = m.name;
      r["status"] = p.status == "ok" ? m.status : p.status;
      for (const std::string& k : keys) {
        r[k] = Json();
        for (const auto& [key, value] : p.values)
          if (key == k)
            r[k] = typedValue(value);
      }
      r["config"] = p.configName;
      r["config_hash"] = p.configHash;
      for (const Figure& f : figures())
        r[f.column] = m.status == "ok" && m.config ? f.value(*m.config) : Json();
      for (const auto& f : fronts())
        r[f[0]] = Json();
      r["wall_seconds"] = p.wallSeconds;
      r["report"] = m.report;
      r["log"] = p.log;
      r["message"] = !m.message.empty() ? m.message : p.message;
      rows.push_back(r);
    }
  }
  // Fronts per model, over the rows that have both figures.
  std::map<std::string, std::vector<size_t>> byModel;
  for (size_t i = 0; i < rows.size(); ++i)
    byModel[rows[i]["model"].get<std::string>()].push_back(i);
  for (const auto& f : fronts())
    for (const auto& [model, idx] : byModel) {
      std::vector<size_t> have;
      std::vector<std::pair<double, double>> xy;
      for (size_t i : idx) {
        const Json& x = rows[i][f[1]];
        const Json& y = rows[i][f[2]];
        if (rows[i]["status"] == "ok" && x.is_number() && y.is_number()) {
          have.push_back(i);
          xy.emplace_back(x.get<double>(), y.get<double>());
        }
      }
      const std::vector<bool> on = paretoFront(xy);
      for (size_t k = 0; k < have.size(); ++k)
        rows[have[k]][f[0]] = bool(on[k]);
    }
  return rows;
}

std::string sweepCsv(const Json& rows, const std::vector<std::string>& keys) {
  std::vector<std::string> columns = {"point", "id", "model", "status"};
  columns.insert(columns.end(), keys.begin(), keys.end());
  columns.insert(columns.end(), sweepFigureColumns().begin(), sweepFigureColumns().end());
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i)
    out += (i ? "," : "") + csvCell(Json(columns[i]));
  out += "\n";
  for (const Json& r : rows) {
    for (size_t i = 0; i < columns.size(); ++i)
      out += (i ? "," : "") + csvCell(r.value(columns[i], Json()));
    out += "\n";
  }
  return out;
}

} // namespace by::eval
