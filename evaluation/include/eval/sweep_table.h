// The table of `brickyard sweep`: one row per point and model, with the point's overridden
// config keys as columns and the totals of the point's `brickyard eval` report; Pareto fronts
// (cycles vs area, energy vs area, and cycles vs energy) marked per model.
#pragma once

#include "eval/report.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace by::eval {

struct SweepModelResult {
  std::string name;
  std::string status;  // ok, failed, missing (the point did not get to it)
  std::string message; // why not ok
  std::string report;  // the eval report.json (relative to the sweep's output folder)
  std::optional<ConfigReport> config; // configs[0] of that report
};

struct SweepPointResult {
  size_t index = 0;
  std::string id;      // p00, p01, ...
  std::string status;  // ok, failed, missing (never ran or no result), invalid
  std::string message; // why not ok
  std::string configName, configHash;
  std::vector<std::pair<std::string, std::string>> values; // swept key -> the point's value
  std::vector<SweepModelResult> models;
  double wallSeconds = 0;
  std::string log; // relative to the output folder
};

/// Indices of the points of `xy` (both minimised) that no other point dominates (no worse in
/// both, better in one). Ties: equal points are all on the front. O(n^2), n is small.
std::vector<bool> paretoFront(const std::vector<std::pair<double, double>>& xy);

/// The fixed columns of a row, after `point`, `id`, `model`, `status` and the swept keys.
const std::vector<std::string>& sweepFigureColumns();

/// The rows (one per point and model, points in order) with their Pareto flags.
Json sweepRows(const std::vector<SweepPointResult>& points, const std::vector<std::string>& keys);

/// results.csv from the rows.
std::string sweepCsv(const Json& rows, const std::vector<std::string>& keys);

} // namespace by::eval
