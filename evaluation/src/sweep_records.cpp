#include "sweep_records.h"

namespace by::eval::sweep {

void to_json(Json& j, const PlannedEval& e) {
  j = {{"name", e.name}, {"dir", e.dir}, {"args", e.args}};
}

void from_json(const Json& j, PlannedEval& e) {
  e.name = j.at("name").get<std::string>();
  e.dir = j.at("dir").get<std::string>();
  e.args = j.at("args").get<std::vector<std::string>>();
}

void to_json(Json& j, const PlannedPoint& p) {
  j = {{"index", p.index}, {"id", p.id}, {"label", p.label}, {"valid", p.valid}};
  Json values = Json::object();
  for (const auto& [k, v] : p.values)
    values[k] = v;
  j["values"] = values;
  if (!p.valid) {
    j["message"] = p.message;
    j["key"] = "";
    return;
  }
  j["key"] = p.key;
  j["config"] = p.config;
  j["config_name"] = p.configName;
  j["config_hash"] = p.configHash;
  j["models"] = p.models;
}

void from_json(const Json& j, PlannedPoint& p) {
  p.index = j.at("index").get<size_t>();
  p.id = j.at("id").get<std::string>();
  p.label = j.at("label").get<std::string>();
  p.valid = j.at("valid").get<bool>();
  p.values.clear();
  for (const auto& [k, v] : j.at("values").items())
    p.values.emplace_back(k, v.get<std::string>());
  p.message = j.value("message", "");
  p.key = j.at("key").get<std::string>();
  p.config = j.value("config", "");
  p.configName = j.value("config_name", "");
  p.configHash = j.value("config_hash", "");
  p.models = j.contains("models") ? j.at("models").get<std::vector<PlannedEval>>()
                                  : std::vector<PlannedEval>();
}

void to_json(Json& j, const SweepPlanRecord& p) {
  j = {{"generator", p.generator}, {"name", p.name},          {"spec", p.spec},    {"base", p.base},
       {"keys", p.keys},           {"eval_jobs", p.evalJobs}, {"points", p.points}};
}

void from_json(const Json& j, SweepPlanRecord& p) {
  p.generator = j.at("generator").get<std::string>();
  p.name = j.at("name").get<std::string>();
  p.spec = j.at("spec").get<std::string>();
  p.base = j.at("base").get<std::string>();
  p.keys = j.at("keys").get<std::vector<std::string>>();
  p.evalJobs = j.at("eval_jobs").get<int>();
  p.points = j.at("points").get<std::vector<PlannedPoint>>();
}

void to_json(Json& j, const ModelOutcome& m) {
  j = {{"name", m.name},
       {"exit", m.exit},
       {"report", m.report ? Json(*m.report) : Json()},
       {"status", m.status},
       {"message", m.message}};
}

void from_json(const Json& j, ModelOutcome& m) {
  m.name = j.at("name").get<std::string>();
  m.exit = j.at("exit").get<int>();
  m.report =
      j.at("report").is_string() ? std::optional(j.at("report").get<std::string>()) : std::nullopt;
  m.status = j.at("status").get<std::string>();
  m.message = j.at("message").get<std::string>();
}

void to_json(Json& j, const PointRecord& r) {
  j = {{"key", r.key},
       {"index", r.index},
       {"id", r.id},
       {"status", r.status},
       {"host", r.host},
       {"finished", r.finished},
       {"wall_seconds", r.wallSeconds}};
  if (r.slurmJob)
    j["slurm_job"] = *r.slurmJob;
  j["models"] = r.models;
}

void from_json(const Json& j, PointRecord& r) {
  r.key = j.at("key").get<std::string>();
  r.index = j.at("index").get<size_t>();
  r.id = j.at("id").get<std::string>();
  r.status = j.at("status").get<std::string>();
  r.host = j.at("host").get<std::string>();
  r.finished = j.at("finished").get<std::string>();
  r.wallSeconds = j.at("wall_seconds").get<double>();
  r.slurmJob =
      j.contains("slurm_job") ? std::optional(j.at("slurm_job").get<std::string>()) : std::nullopt;
  r.models = j.at("models").get<std::vector<ModelOutcome>>();
}

void to_json(Json& j, const SlurmSubmission& s) {
  j = {{"job", s.job}, {"script", s.script}, {"points", s.points}, {"submitted", s.submitted}};
}

void from_json(const Json& j, SlurmSubmission& s) {
  s.job = j.at("job").get<std::string>();
  s.script = j.at("script").get<std::string>();
  s.points = j.at("points").get<std::vector<size_t>>();
  s.submitted = j.at("submitted").get<std::string>();
}

void to_json(Json& j, const SlurmJobsRecord& r) {
  j = {{"submissions", r.submissions}};
  Json states = Json::object();
  for (const auto& [p, s] : r.states)
    states[std::to_string(p)] = s;
  j["states"] = states;
}

void from_json(const Json& j, SlurmJobsRecord& r) {
  r.submissions = j.at("submissions").get<std::vector<SlurmSubmission>>();
  r.states.clear();
  if (j.contains("states"))
    for (const auto& [p, s] : j.at("states").items())
      r.states[std::stoul(p)] = s.get<std::string>();
}

} // namespace by::eval::sweep
