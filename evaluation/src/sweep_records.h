// The records a sweep writes into its output folder and reads back, by type: the plan
// (points.json), a point's result (points/<id>/result.json) and the Slurm submissions
// (slurm/jobs.json). to_json and from_json are the one place their keys are spelled.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace by::eval::sweep {

using Json = nlohmann::ordered_json;

/// A model's eval in a point: the folder of its report and the `brickyard eval` arguments.
struct PlannedEval {
  std::string name, dir;
  std::vector<std::string> args; // without the executable and -j
};

/// A point of points.json.
struct PlannedPoint {
  size_t index = 0;
  std::string id, label;
  bool valid = true;
  std::vector<std::pair<std::string, std::string>> values; // swept key -> the point's value
  std::string message;                                     // why it is invalid
  std::string key;                                         // empty when invalid
  std::string config, configName, configHash;              // valid points
  std::vector<PlannedEval> models;                         // valid points
};

/// points.json: what every back end runs.
struct SweepPlanRecord {
  std::string generator, name, spec, base;
  std::vector<std::string> keys;
  int evalJobs = 0; // eval -j inside a point; 0: the Slurm task's CPUs, else 1
  std::vector<PlannedPoint> points;
};

/// A model's outcome in a point's result.
struct ModelOutcome {
  std::string name;
  int exit = 0;
  std::optional<std::string> report; // its eval report.json (relative), absent when none
  std::string status, message;
};

/// points/<id>/result.json: the point is finished when this belongs to its key and is ok.
struct PointRecord {
  std::string key;
  size_t index = 0;
  std::string id, status, host, finished;
  double wallSeconds = 0;
  std::optional<std::string> slurmJob; // "JOB_TASK" when it ran as a Slurm task
  std::vector<ModelOutcome> models;
};

/// A submission of slurm/jobs.json.
struct SlurmSubmission {
  std::string job, script;
  std::vector<size_t> points;
  std::string submitted;
};

/// slurm/jobs.json: the submissions and the tasks' last known states (point -> state).
struct SlurmJobsRecord {
  std::vector<SlurmSubmission> submissions;
  std::map<size_t, std::string> states;
};

void to_json(Json& j, const PlannedEval& e);
void from_json(const Json& j, PlannedEval& e);
void to_json(Json& j, const PlannedPoint& p);
void from_json(const Json& j, PlannedPoint& p);
void to_json(Json& j, const SweepPlanRecord& p);
void from_json(const Json& j, SweepPlanRecord& p);
void to_json(Json& j, const ModelOutcome& m);
void from_json(const Json& j, ModelOutcome& m);
void to_json(Json& j, const PointRecord& r);
void from_json(const Json& j, PointRecord& r);
void to_json(Json& j, const SlurmSubmission& s);
void from_json(const Json& j, SlurmSubmission& s);
void to_json(Json& j, const SlurmJobsRecord& r);
void from_json(const Json& j, SlurmJobsRecord& r);

} // namespace by::eval::sweep
