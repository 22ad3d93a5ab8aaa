// Turns Yosys `stat -json -tech cmos` output into Brickyard's per-module area report.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace by::cli {

/// Yosys names parameterised modules "$paramod\base\P=s32'0...0101"; this returns
/// "base (P=5)", and plain names without their leading backslash.
std::string readableModuleName(const std::string& yosysName);

/// Estimated transistors of one Yosys gate-level cell type; -1 when not modelled.
long long cellTransistors(const std::string& type);

/// Report: per module its own cells and transistor estimate, its instance count in the top's
/// hierarchy and its hierarchical totals; plus the design total.
nlohmann::ordered_json buildSynthReport(const nlohmann::json& yosysStat, const std::string& top);

std::string synthReportText(const nlohmann::ordered_json& report);

} // namespace by::cli
