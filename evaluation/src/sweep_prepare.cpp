// Preparing a sweep: the spec, its base config, its models and every point's config checked
// before anything runs; then the plan (points.json) and the points' configs written.
#include "brickyard_version.h"
#include "compiler/compile.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "compiler/plan.h"
#include "config/loader.h"
#include "config/names.h"
#include "config/schema.h"
#include "support/errors.h"
#include "support/files.h"
#include "support/hash.h"
#include "sweep_plan.h"

#include <algorithm>
#include <map>

namespace by::eval::sweep {
namespace {

// Bumped when what a point's result depends on changes meaning.
const char* const kPointFormat = "sweep-point-1";

std::string pointId(size_t i, size_t n) {
  const size_t width = std::max<size_t>(2, std::to_string(n - 1).size());
  std::string s = std::to_string(i);
  return "p" + std::string(width - std::min(width, s.size()), '0') + s;
}

std::vector<ModelInfo> checkModels(const SweepSpec& spec) {
  std::vector<ModelInfo> out;
  for (size_t i = 0; i < spec.models.size(); ++i) {
    const SweepModel& m = spec.models[i];
    const std::string key = "models[" + std::to_string(i) + "]";
    auto reject = [&](const std::string& message) {
      throw config::ConfigError(m.pos.file, m.pos.line, m.pos.column, key,
                                "model " + m.name + ": " + message);
    };
    auto need = [&](const std::string& file, const std::string& what) {
      if (!fs::is_regular_file(file))
        reject(what + " " + file + ": no such file");
    };
    need(m.path, "model");
    ModelInfo info;
    try {
      const std::string bytes = compiler::readFile(m.path);
      info.hash = compiler::modelContentHash(bytes, m.path);
      info.graph = compiler::importOnnxBytes(bytes, m.path); // names the node and its op
      compiler::runPasses(info.graph);
      if (!m.input.empty()) {
        need(m.input, "input");
        bool isInt8 = false;
        compiler::readInputFile(m.input, info.graph.tensors[info.graph.input], &isInt8);
        info.inputHash = support::hashHex(compiler::readFile(m.input));
      }
      for (const std::string& c : m.calib) {
        need(c, "calibration file");
        info.calibHashes.push_back(support::hashHex(compiler::readFile(c)));
      }
    } catch (const compiler::CompileError& e) {
      reject(e.what()); // the node and its op, or the input file and its shape
    }
    out.push_back(std::move(info));
  }
  return out;
}

/// The config of every point, checked as `brickyard gen` checks a file, and against what
/// `brickyard eval` needs of it (int8 inputs, the models fit its DRAM).
void checkPoints(Prepared& pr) {
  const SweepSpec& spec = pr.spec;
  const config::Config base = config::loadConfigFile(pr.basePath); // its own FILE:LINE:COL
  std::map<std::string, size_t> seen; // canonical text without the name -> point
  const std::string nameStem = base.name.substr(0, 31);
  for (size_t i = 0; i < spec.points.size(); ++i) {
    const SweepPointSpec& ps = spec.points[i];
    PointPlan p;
    p.index = i;
    p.id = pointId(i, spec.points.size());
    p.label = describeOverrides(ps.overrides);
    // The config's name: the base's and a hash of the overrides, so that the same point in
    // another sweep (or reordered) is the same config and hits the same caches.
    std::string overrideText;
    for (const config::Override& o : ps.overrides)
      overrideText += o.key + "=" + o.value.scalar + "\n";
    const std::string name = nameStem + "-" + support::hashHex(overrideText).substr(0, 8);
    std::vector<config::Override> ovs = ps.overrides;
    config::YamlNode nameValue;
    nameValue.type = config::YamlNode::Type::Scalar;
    nameValue.scalar = name;
    nameValue.pos = spec.basePos;
    ovs.insert(ovs.begin(), config::Override{"name", spec.basePos, nameValue});
    const std::string head = "point " + p.id + " (" + p.label + "): ";
    config::Config c;
    try {
      c = config::loadConfigWithOverrides(pr.basePath, ovs);
      if (c.types.inputWidth != 8)
        throw config::ConfigError(ps.pos.file, ps.pos.line, ps.pos.column, "types.input_width",
                                  "the compiler quantizes to int8; expected 8");
      for (size_t m = 0; m < pr.models.size(); ++m) {
        try {
          compiler::checkFitsDram(pr.models[m].graph, c);
        } catch (const compiler::CompileError& e) {
          throw config::ConfigError(ps.pos.file, ps.pos.line, ps.pos.column, "soc.dram.size_mib",
                                    "model " + spec.models[m].name + ": " + e.what());
        }
      }
      std::string canonical = config::canonicalText(c);
      canonical = canonical.substr(canonical.find('\n') + 1); // without the name
      auto [it, fresh] = seen.emplace(canonical, i);
      if (!fresh)
        throw config::ConfigError(ps.pos.file, ps.pos.line, ps.pos.column, "",
                                  "the same config as point " + pr.points[it->second].id + " (" +
                                      pr.points[it->second].label + ")");
    } catch (const config::ConfigError& e) {
      p.valid = false;
      p.message = e.key().empty() ? e.message() : e.key() + ": " + e.message();
      pr.bad.push_back(e.file() + ":" + std::to_string(e.line()) + ":" +
                       std::to_string(e.column()) + ": error: " + head + p.message);
    }
    pr.points.push_back(p);
    pr.configs.push_back(c);
  }
}

/// The `brickyard eval` arguments of a point and model (without the executable and -j).
std::vector<std::string> evalArgs(const SweepSpec& spec, size_t m, const fs::path& config,
                                  const fs::path& dir, const std::string& cacheDir) {
  const SweepModel& model = spec.models[m];
  const SweepEvalOptions& e = spec.eval;
  std::vector<std::string> a = {"eval",       model.path, "--configs", config.string(), "-o",
                                dir.string(), "--model",  e.model,     "--hal",         e.hal};
  if (!e.area)
    a.push_back("--no-area");
  if (!model.input.empty())
    a.insert(a.end(), {"--input", model.input});
  else
    a.insert(a.end(), {"--seed", std::to_string(e.seed)});
  for (const std::string& c : model.calib)
    a.insert(a.end(), {"--calib", c});
  if (model.calib.empty() && e.calibRandom > 0)
    a.insert(a.end(), {"--calib-random", std::to_string(e.calibRandom)});
  if (e.maxCycles > 0)
    a.insert(a.end(), {"--max-cycles", std::to_string(e.maxCycles)});
  if (!cacheDir.empty())
    a.insert(a.end(), {"--cache-dir", cacheDir});
  return a;
}

/// The base config's file: a path (relative ones were made absolute by the spec reader) or a
/// shipped config's name.
std::string basePath(const SweepSpec& spec) {
  std::string path = spec.base;
  if (!fs::path(spec.base).is_absolute()) {
    try {
      path = config::resolveConfigArg(spec.base);
    } catch (const support::InputError& e) {
      throw config::ConfigError(spec.basePos.file, spec.basePos.line, spec.basePos.column, "base",
                                e.what());
    }
  }
  if (!fs::is_regular_file(path))
    throw config::ConfigError(spec.basePos.file, spec.basePos.line, spec.basePos.column, "base",
                              "no such config file: " + path);
  return fs::absolute(path).lexically_normal().string();
}

} // namespace

Prepared prepare(const SweepRequest& request) {
  Prepared pr;
  pr.spec = loadSweepSpec(request.spec); // ConfigError: FILE:LINE:COL, exit 2
  pr.basePath = basePath(pr.spec);
  pr.models = checkModels(pr.spec);
  checkPoints(pr);
  if (!request.cacheDir.empty())
    pr.spec.cacheDir = fs::absolute(request.cacheDir).string();
  return pr;
}

/// Writes points.json and every point's config.yaml, and fills in the points' keys.
namespace {

/// Writes the point's config.yaml (unless it is there already, the same), fills in its key and
/// its models' evals.
void planPoint(Prepared& pr, size_t i, const fs::path& out, const std::string& cacheDir,
               PlannedPoint& pp) {
  const SweepSpec& spec = pr.spec;
  const SweepEvalOptions& e = spec.eval;
  PointPlan& p = pr.points[i];
  const config::Config& c = pr.configs[i];
  const fs::path dir = pointDir(out, p.id);
  fs::create_directories(dir);
  const std::string yaml = config::configToYaml(
      c, "Generated by brickyard sweep: point " + p.id + " of sweep '" + spec.name + "' (" +
             spec.file + ")\nbase: " + pr.basePath + "\noverrides: " + p.label);
  const fs::path configPath = dir / "config.yaml";
  if (!fs::exists(configPath) || compiler::readFile(configPath.string()) != yaml)
    support::writeFileAtomically(configPath, yaml);
  // What the results depend on: the tool, the config, the models and inputs (by content)
  // and the evaluation options.
  std::string key = std::string(kPointFormat) + "|" + compiler::toolBuildId() + "|" +
                    config::canonicalText(c) + "|" + e.model + "|" + (e.area ? "area" : "") + "|" +
                    std::to_string(e.seed) + "|" + std::to_string(e.calibRandom) + "|" + e.hal +
                    "|" + std::to_string(e.maxCycles);
  for (size_t m = 0; m < spec.models.size(); ++m) {
    const ModelInfo& mi = pr.models[m];
    key += "|" + spec.models[m].name + ":" + mi.hash + ":" + mi.inputHash;
    for (const std::string& h : mi.calibHashes)
      key += ":" + h;
    const fs::path evalDir = fs::path("points") / p.id / spec.models[m].name;
    pp.models.push_back({spec.models[m].name, evalDir.string(),
                         evalArgs(spec, m, configPath, out / evalDir, cacheDir)});
  }
  p.key = support::hashHex(key);
  pp.key = p.key;
  pp.config = (fs::path("points") / p.id / "config.yaml").string();
  pp.configName = c.name;
  pp.configHash = config::configHash(c);
}

} // namespace

void writePlan(Prepared& pr, const fs::path& out, const std::string& cacheDir) {
  const SweepSpec& spec = pr.spec;
  SweepPlanRecord plan;
  plan.generator = std::string("brickyard sweep ") + BRICKYARD_VERSION;
  plan.name = spec.name;
  plan.spec = fs::absolute(spec.file).string();
  plan.base = pr.basePath;
  plan.keys = spec.keys;
  plan.evalJobs = spec.eval.jobs;
  for (size_t i = 0; i < pr.points.size(); ++i) {
    const PointPlan& p = pr.points[i];
    PlannedPoint pp;
    pp.index = p.index;
    pp.id = p.id;
    pp.label = p.label;
    pp.valid = p.valid;
    for (const std::string& k : spec.keys)
      if (const config::FieldSpec* f = config::findField(k); f && p.valid)
        pp.values.emplace_back(k, f->get(pr.configs[i]));
    if (p.valid)
      planPoint(pr, i, out, cacheDir, pp);
    else
      pp.message = p.message;
    plan.points.push_back(pp);
  }
  support::writeFileAtomically(out / "points.json", Json(plan).dump(2) + "\n");
}

} // namespace by::eval::sweep
