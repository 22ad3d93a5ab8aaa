#include "synthesis/report.h"

#include "hw/generators.h"

#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

namespace by::synthesis {

using nlohmann::json;
using nlohmann::ordered_json;

std::string readableModuleName(const std::string& name) {
  if (name.rfind("$paramod", 0) != 0)
    return !name.empty() && name[0] == '\\' ? name.substr(1) : name;
  // $paramod\base\A=s32'0101\B=...  or  $paramod$hash\base
  std::vector<std::string> parts;
  std::string cur;
  for (char c : name) {
    if (c == '\\') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  if (parts.size() < 2)
    return name;
  if (parts[0].size() > 9) // "$paramod$<hash>": parameters folded into a hash
    return parts[1] + " [" + parts[0].substr(9, 8) + "]";
  std::string base = parts[1];
  std::string params;
  for (size_t i = 2; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    size_t eq = p.find('='), tick = p.find('\'');
    std::string value = p.substr(eq + 1);
    if (tick != std::string::npos && tick + 1 < p.size()) {
      std::string bits = p.substr(tick + 1);
      bool isSigned = p[eq + 1] == 's';
      long long v = 0;
      for (char b : bits)
        v = (v << 1) | (b == '1');
      if (isSigned && !bits.empty() && bits[0] == '1' && bits.size() < 64)
        v -= 1LL << bits.size();
      value = std::to_string(v);
    }
    params += (params.empty() ? "" : ", ") + p.substr(0, eq) + "=" + value;
  }
  return params.empty() ? base : base + " (" + params + ")";
}

json parseYosysStat(std::istream& in) {
  std::string line, text;
  while (std::getline(in, line)) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || std::string("\"{}[]").find(line[first]) != std::string::npos)
      text += line + "\n";
  }
  return json::parse(text);
}

long long cellTransistors(const std::string& type) {
  // Static CMOS transistor counts of Yosys' internal gate cells (the same costs as Yosys'
  // `stat -tech cmos`), extended with flip-flops, which Yosys leaves unpriced: a master-slave
  // D flip-flop is 24 transistors, an asynchronous reset/set adds 4, a synchronous reset 6,
  // a load enable (a 2:1 mux in front) 12. See docs/area.md.
  static const std::map<std::string, long long> gates = {
      {"$_NOT_", 2},  {"$_BUF_", 4},   {"$_NAND_", 4},   {"$_NOR_", 4},
      {"$_AND_", 6},  {"$_OR_", 6},    {"$_ANDNOT_", 6}, {"$_ORNOT_", 6},
      {"$_XOR_", 12}, {"$_XNOR_", 12}, {"$_MUX_", 12},   {"$_NMUX_", 10},
      {"$_AOI3_", 6}, {"$_OAI3_", 6},  {"$_AOI4_", 8},   {"$_OAI4_", 8}};
  auto it = gates.find(type);
  if (it != gates.end())
    return it->second;
  auto startsWith = [&](const char* p) { return type.rfind(p, 0) == 0; };
  if (startsWith("$_DFF_") || startsWith("$_DFFE_") || startsWith("$_SDFF") ||
      startsWith("$_DFFSR")) {
    long long t = 24;
    const std::string flags = type.substr(type.find('_', 2) + 1); // e.g. "PN0P_"
    const bool enable = startsWith("$_DFFE_") || startsWith("$_SDFFE") || startsWith("$_SDFFCE");
    const bool syncReset = startsWith("$_SDFF");
    const bool asyncReset = !syncReset && flags.size() >= 3 && (flags[2] == '0' || flags[2] == '1');
    if (enable)
      t += 12;
    if (syncReset)
      t += 6;
    if (asyncReset || startsWith("$_DFFSR"))
      t += 4;
    return t;
  }
  return -1; // not modelled
}

std::map<std::string, std::vector<SramMacro>> parseSramDump(std::istream& dump) {
  std::map<std::string, std::vector<SramMacro>> out;
  std::string line, module;
  SramMacro* cell = nullptr;
  while (std::getline(dump, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "module") {
      words >> module;
      cell = nullptr;
    } else if (word == "cell") {
      std::string type;
      words >> type;
      if (!type.empty() && type[0] == '\\')
        type = type.substr(1);
      out[module].push_back(SramMacro{type, 0, 0});
      cell = &out[module].back();
    } else if (word == "parameter" && cell) {
      std::string name, value;
      while (words >> name && name == "signed") {
      }
      words >> value;
      if (name == "\\Depth")
        cell->depth = std::stoll(value);
      else if (name == "\\Width")
        cell->width = std::stoll(value);
    } else if (word == "end") {
      cell = nullptr;
    }
  }
  return out;
}

long long sramTransistors(const SramMacro& m) {
  // A 6T bit cell (single port) or an 8T cell with a decoupled read port (dual port); per
  // port, each row has a decoder and wordline driver (~12) and each column a precharge, sense
  // amplifier and write driver (~30).
  const bool dual = m.type == hw::names::kSramDp;
  const long long ports = dual ? 2 : 1;
  return m.depth * m.width * (dual ? 8 : 6) + ports * (m.depth * 12 + m.width * 30);
}

ordered_json buildSynthReport(const json& stat, const std::string& top,
                              const std::map<std::string, std::vector<SramMacro>>& srams) {
  const json& modules = stat.at("modules");
  // Own logic per module (cells that are not submodule instances; SRAM macros are priced from
  // their parameters).
  struct Info {
    long long ownCells = 0, ownTransistors = 0, unmodelledCells = 0, sramBits = 0,
              sramTransistors = 0;
    std::map<std::string, long long> children;
    std::map<std::string, long long> cellTypes;
  };
  std::map<std::string, Info> info;
  for (auto it = modules.begin(); it != modules.end(); ++it) {
    Info& i = info[it.key()];
    auto macros = srams.find(it.key());
    if (macros != srams.end())
      for (const SramMacro& m : macros->second) {
        i.sramBits += m.depth * m.width;
        i.sramTransistors += sramTransistors(m);
        i.ownTransistors += sramTransistors(m);
      }
    for (auto c = it.value().at("num_cells_by_type").begin();
         c != it.value().at("num_cells_by_type").end(); ++c) {
      const std::string plain = c.key()[0] == '\\' ? c.key().substr(1) : c.key();
      if (plain == hw::names::kSramSp || plain == hw::names::kSramDp) {
        i.cellTypes[plain] += c.value().get<long long>();
      } else if (modules.contains(c.key())) {
        i.children[c.key()] += c.value().get<long long>();
      } else if (modules.contains("\\" + c.key())) { // Yosys drops the '\' of plain names here
        i.children["\\" + c.key()] += c.value().get<long long>();
      } else {
        const long long n = c.value().get<long long>();
        i.ownCells += n;
        i.cellTypes[c.key()] += n;
        const long long t = cellTransistors(c.key());
        if (t < 0)
          i.unmodelledCells += n;
        else
          i.ownTransistors += n * t;
      }
    }
  }
  // Hierarchical totals and instance counts below the top.
  struct Total {
    long long cells = 0, transistors = 0, sramBits = 0, sramTransistors = 0;
  };
  std::map<std::string, Total> totals;
  std::function<Total(const std::string&)> total = [&](const std::string& m) {
    auto found = totals.find(m);
    if (found != totals.end())
      return found->second;
    Total t{info[m].ownCells, info[m].ownTransistors, info[m].sramBits, info[m].sramTransistors};
    for (const auto& [child, n] : info[m].children) {
      const Total ct = total(child);
      t.cells += n * ct.cells;
      t.transistors += n * ct.transistors;
      t.sramBits += n * ct.sramBits;
      t.sramTransistors += n * ct.sramTransistors;
    }
    totals[m] = t;
    return t;
  };
  std::map<std::string, long long> instances;
  std::string topKey = "\\" + top;
  std::function<void(const std::string&, long long)> count = [&](const std::string& m,
                                                                 long long n) {
    instances[m] += n;
    for (const auto& [child, k] : info[m].children)
      count(child, n * k);
  };
  if (info.count(topKey))
    count(topKey, 1);

  ordered_json report;
  report["top"] = top;
  report["area_model"] =
      "Yosys generic gates and SRAM macros; transistor estimate per docs/area.md";
  ordered_json list = ordered_json::array();
  for (const auto& [name, i] : info) {
    const Total t = total(name);
    list.push_back({{"module", readableModuleName(name)},
                    {"yosys_name", name},
                    {"instances", instances.count(name) ? instances[name] : 0},
                    {"own_cells", i.ownCells},
                    {"own_transistors", i.ownTransistors},
                    {"own_sram_bits", i.sramBits},
                    {"total_cells", t.cells},
                    {"total_transistors", t.transistors},
                    {"total_sram_bits", t.sramBits},
                    {"unmodelled_cells", i.unmodelledCells},
                    {"cell_types", i.cellTypes}});
  }
  report["modules"] = list;
  const Total t = info.count(topKey) ? total(topKey) : Total{};
  // The SRAM macros' share is reported apart: logic overheads are compared without it.
  report["design"] = DesignArea{t.cells, t.transistors, t.sramBits, t.sramTransistors,
                                t.transistors - t.sramTransistors};
  return report;
}

std::string synthReportText(const ordered_json& report) {
  std::ostringstream os;
  char line[256];
  os << "Synthesis report for top " << report.at("top").get<std::string>() << " ("
     << report.at("area_model").get<std::string>() << ")\n\n";
  std::snprintf(line, sizeof line, "%-56s %9s %10s %12s %12s %14s\n", "module", "instances",
                "own cells", "own transist", "total cells", "total transist");
  os << line;
  for (const auto& m : report.at("modules")) {
    std::snprintf(line, sizeof line, "%-56s %9lld %10lld %12lld %12lld %14lld\n",
                  m.at("module").get<std::string>().substr(0, 56).c_str(),
                  m.at("instances").get<long long>(), m.at("own_cells").get<long long>(),
                  m.at("own_transistors").get<long long>(), m.at("total_cells").get<long long>(),
                  m.at("total_transistors").get<long long>());
    os << line;
  }
  const DesignArea design = report.at("design").get<DesignArea>();
  os << "\ndesign total: " << design.cells << " cells, " << design.sramBits << " SRAM bits, "
     << design.transistors << " transistors (estimate: " << design.logicTransistors << " logic, "
     << design.sramTransistors << " SRAM macros)\n";
  if (report.contains("synthesis")) {
    const auto& s = report.at("synthesis");
    const double seconds = report.value("yosys_seconds", 0.0);
    if (s.at("flow") == "per-module")
      std::snprintf(line, sizeof line,
                    "synthesis: per module, %lld modules (%lld from the cache, %lld synthesized, "
                    "%lld at a time) in %.1f s\n",
                    s.at("modules").get<long long>(), s.at("cached").get<long long>(),
                    s.at("synthesized").get<long long>(), s.at("parallel").get<long long>(),
                    seconds);
    else
      std::snprintf(line, sizeof line, "synthesis: the whole design in one Yosys run, %.1f s\n",
                    seconds);
    os << line;
  }
  return os.str();
}

} // namespace by::synthesis
