// Turns Yosys `stat -json -tech cmos` output into Brickyard's per-module area report.
#pragma once

#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::synthesis {

/// Yosys names parameterised modules "$paramod\base\P=s32'0...0101"; this returns
/// "base (P=5)", and plain names without their leading backslash.
std::string readableModuleName(const std::string& yosysName);

/// The JSON document of Yosys `stat -json` output. Yosys 0.23 interleaves its "design
/// hierarchy" listing into it; only the lines that belong to the JSON are kept.
nlohmann::json parseYosysStat(std::istream& in);

/// Estimated transistors of one Yosys gate-level cell type; -1 when not modelled.
long long cellTransistors(const std::string& type);

/// One behavioural SRAM instance that synthesis keeps as a macro (a black box).
struct SramMacro {
  std::string type; // by_sram_sp or by_sram_dp
  long long depth = 0, width = 0;
};

/// SRAM macros per parent module (keyed by Yosys module name), parsed from the output of
/// Yosys `dump -m */t:by_sram_*` after synthesis.
std::map<std::string, std::vector<SramMacro>> parseSramDump(std::istream& dump);

/// Estimated transistors of one SRAM macro: bit cells plus row and column periphery
/// (docs/area.md, "SRAM macros").
long long sramTransistors(const SramMacro& macro);

/// The design's totals, synth.json's "design" section: what eval reads back (by type) as a
/// config's area. Transistors = logic + SRAM macros (docs/area.md).
struct DesignArea {
  long long cells = 0, transistors = 0, sramBits = 0, sramTransistors = 0, logicTransistors = 0;
};

// For nlohmann::json and ordered_json alike (keys in this order where the order is kept).
template <class Json> void to_json(Json& j, const DesignArea& a) {
  j = Json{{"cells", a.cells},
           {"transistors", a.transistors},
           {"sram_bits", a.sramBits},
           {"sram_transistors", a.sramTransistors},
           {"logic_transistors", a.logicTransistors}};
}

template <class Json> void from_json(const Json& j, DesignArea& a) {
  a.cells = j.at("cells").template get<long long>();
  a.transistors = j.at("transistors").template get<long long>();
  a.sramBits = j.at("sram_bits").template get<long long>();
  a.sramTransistors = j.at("sram_transistors").template get<long long>();
  a.logicTransistors = j.at("logic_transistors").template get<long long>();
}

/// Report: per module its own cells and transistor estimate, its instance count in the top's
/// hierarchy and its hierarchical totals; plus the design total.
nlohmann::ordered_json buildSynthReport(const nlohmann::json& yosysStat, const std::string& top,
                                        const std::map<std::string, std::vector<SramMacro>>& srams);

std::string synthReportText(const nlohmann::ordered_json& report);

} // namespace by::synthesis
