// brickyard sweep: a grid or list of config overrides times a set of models (docs/evaluation.md,
// "Sweeps"). Every point is validated before anything runs; each point then runs as
// `brickyard eval` (one per model) inside a `brickyard sweep --run-point` process, on this
// machine (--local) or as a Slurm job array (--slurm). A point is finished when its result
// record is written (atomically), so an interrupted sweep resumes where it stopped. The table
// (results.csv, results.json) and the Pareto plots are written from the records at the end.
#include "brickyard_version.h"
#include "command.h"
#include "compiler/compile.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "compiler/plan.h"
#include "config/loader.h"
#include "config/names.h"
#include "config/schema.h"
#include "eval/sweep_spec.h"
#include "eval/sweep_table.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/json.h"
#include "support/process.h"
#include "sweep_plan.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

namespace by::cli {
namespace {

using namespace sweep;
using eval::SweepSpec;

// Bumped when what a point's result depends on changes meaning.
const char* const kPointFormat = "sweep-point-1";

struct ModelInfo {
  std::string hash, inputHash;
  std::vector<std::string> calibHashes;
  compiler::Graph graph;
};

std::string pointId(size_t i, size_t n) {
  const size_t width = std::max<size_t>(2, std::to_string(n - 1).size());
  std::string s = std::to_string(i);
  return "p" + std::string(width - std::min(width, s.size()), '0') + s;
}

int positive(const std::string& option, const std::string& text, int fallback, int max) {
  if (text.empty())
    return fallback;
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || v < 1 || v > max)
    throw UsageError(option + " '" + text + "': expected a whole number from 1 to " +
                     std::to_string(max));
  return int(v);
}

/// Everything about the spec that is checked before anything runs.
struct Prepared {
  SweepSpec spec;
  std::string basePath;
  std::vector<ModelInfo> models;
  std::vector<PointPlan> points;
  std::vector<config::Config> configs; // per point (default-constructed when invalid)
  std::vector<std::string> bad;        // one line per rejected point
};

std::vector<ModelInfo> checkModels(const SweepSpec& spec) {
  std::vector<ModelInfo> out;
  for (size_t i = 0; i < spec.models.size(); ++i) {
    const eval::SweepModel& m = spec.models[i];
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
      info.hash = support::hashHex(bytes);
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
    const eval::SweepPointSpec& ps = spec.points[i];
    PointPlan p;
    p.index = i;
    p.id = pointId(i, spec.points.size());
    p.label = eval::describeOverrides(ps.overrides);
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
  const eval::SweepModel& model = spec.models[m];
  const eval::SweepEvalOptions& e = spec.eval;
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

/// Writes points.json and every point's config.yaml, and fills in the points' keys.
void writePlan(Prepared& pr, const fs::path& out, const std::string& cacheDir) {
  const SweepSpec& spec = pr.spec;
  const eval::SweepEvalOptions& e = spec.eval;
  Json points = Json::array();
  for (size_t i = 0; i < pr.points.size(); ++i) {
    PointPlan& p = pr.points[i];
    Json j;
    j["index"] = p.index;
    j["id"] = p.id;
    j["label"] = p.label;
    j["valid"] = p.valid;
    Json values = Json::object();
    for (const std::string& k : spec.keys)
      if (const config::FieldSpec* f = config::findField(k); f && p.valid)
        values[k] = f->get(pr.configs[i]);
    j["values"] = values;
    if (!p.valid) {
      j["message"] = p.message;
      j["key"] = "";
      points.push_back(j);
      continue;
    }
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
                      config::canonicalText(c) + "|" + e.model + "|" + (e.area ? "area" : "") +
                      "|" + std::to_string(e.seed) + "|" + std::to_string(e.calibRandom) + "|" +
                      e.hal + "|" + std::to_string(e.maxCycles);
    Json models = Json::array();
    for (size_t m = 0; m < spec.models.size(); ++m) {
      const ModelInfo& mi = pr.models[m];
      key += "|" + spec.models[m].name + ":" + mi.hash + ":" + mi.inputHash;
      for (const std::string& h : mi.calibHashes)
        key += ":" + h;
      const fs::path evalDir = fs::path("points") / p.id / spec.models[m].name;
      models.push_back({{"name", spec.models[m].name},
                        {"dir", evalDir.string()},
                        {"args", evalArgs(spec, m, configPath, out / evalDir, cacheDir)}});
    }
    p.key = support::hashHex(key);
    j["key"] = p.key;
    j["config"] = (fs::path("points") / p.id / "config.yaml").string();
    j["config_name"] = c.name;
    j["config_hash"] = config::configHash(c);
    j["models"] = models;
    points.push_back(j);
  }
  Json plan;
  plan["generator"] = std::string("brickyard sweep ") + BRICKYARD_VERSION;
  plan["name"] = spec.name;
  plan["spec"] = fs::absolute(spec.file).string();
  plan["base"] = pr.basePath;
  plan["keys"] = spec.keys;
  plan["eval_jobs"] = e.jobs;
  plan["points"] = points;
  support::writeFileAtomically(out / "points.json", plan.dump(2) + "\n");
}

Json readJson(const fs::path& p) {
  return support::readJson<Json>(p);
}

/// The table from the result records: results.json, results.csv, the plots. Returns the
/// points as the table sees them.
std::vector<eval::SweepPointResult> collect(const Prepared& pr, const fs::path& out, bool quiet) {
  const SweepSpec& spec = pr.spec;
  const Json plan = readJson(out / "points.json");
  std::vector<eval::SweepPointResult> results;
  for (size_t i = 0; i < pr.points.size(); ++i) {
    const PointPlan& p = pr.points[i];
    const Json& pj = plan["points"][i];
    eval::SweepPointResult r;
    r.index = p.index;
    r.id = p.id;
    r.log = p.valid ? fs::relative(logPath(out, p.id), out).string() : "";
    for (const std::string& k : spec.keys)
      if (pj["values"].contains(k))
        r.values.emplace_back(k, pj["values"][k].get<std::string>());
    r.configName = pj.value("config_name", "");
    r.configHash = pj.value("config_hash", "");
    const Json rec = p.valid ? readResult(out, p) : Json();
    if (!p.valid) {
      r.status = "invalid";
      r.message = p.message;
    } else if (rec.is_null()) {
      r.status = "missing";
      r.message = "no result";
    } else {
      r.status = rec.value("status", "failed");
      r.wallSeconds = rec.value("wall_seconds", 0.0);
    }
    for (size_t m = 0; m < spec.models.size(); ++m) {
      eval::SweepModelResult mr;
      mr.name = spec.models[m].name;
      mr.status = "missing";
      if (!rec.is_null())
        for (const Json& e : rec["models"])
          if (e.value("name", "") == mr.name) {
            mr.status = e.value("status", "failed");
            mr.message = e.value("message", "");
            mr.report = e["report"].is_string() ? e["report"].get<std::string>() : "";
          }
      if (!mr.report.empty() && fs::exists(out / mr.report)) {
        try {
          mr.config = Json(readJson(out / mr.report).at("configs").at(0));
        } catch (const std::exception&) {
          mr.status = "failed";
          mr.message = "unreadable report " + mr.report;
        }
      } else if (mr.status == "ok") {
        mr.status = "missing";
        mr.message = "the report " + mr.report + " is gone";
      }
      r.models.push_back(mr);
    }
    results.push_back(r);
  }
  const Json rows = eval::sweepRows(results, spec.keys);
  Json report;
  report["generator"] = std::string("brickyard sweep ") + BRICKYARD_VERSION;
  report["name"] = spec.name;
  report["spec"] = fs::absolute(spec.file).string();
  report["base"] = pr.basePath;
  report["keys"] = spec.keys;
  report["eval"] = {{"model", spec.eval.model},
                    {"area", spec.eval.area},
                    {"seed", spec.eval.seed},
                    {"hal", spec.eval.hal}};
  Json models = Json::array();
  for (const eval::SweepModel& m : spec.models)
    models.push_back({{"name", m.name}, {"path", m.path}, {"input", m.input}});
  report["models"] = models;
  Json pts = Json::array();
  for (const eval::SweepPointResult& r : results) {
    Json values = Json::object();
    for (const auto& [k, v] : r.values)
      values[k] = v;
    pts.push_back({{"point", r.index},
                   {"id", r.id},
                   {"status", r.status},
                   {"overrides", pr.points[r.index].label},
                   {"values", values},
                   {"config", r.configName},
                   {"log", r.log},
                   {"message", r.message}});
  }
  report["points"] = pts;
  report["rows"] = rows;
  support::writeFileAtomically(out / "results.json", report.dump(2) + "\n");
  support::writeFileAtomically(out / "results.csv", eval::sweepCsv(rows, spec.keys));

  const fs::path script = fs::path(BY_SOURCE_DIR) / "scripts" / "sweep_plots.py";
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  process::require(python, "python3-matplotlib");
  process::Options po;
  po.output = process::Output::CaptureMerged;
  const process::Result plots =
      process::run({python, script.string(), (out / "results.json").string(), out.string()}, po);
  if (plots.status != 0)
    throw std::runtime_error("the plots failed (" + script.string() + "): " + plots.out);
  if (!quiet && !plots.out.empty())
    std::fprintf(stderr, "%s", plots.out.c_str());
  return results;
}

std::string human(const Json& v) {
  if (!v.is_number())
    return "-";
  const double d = v.get<double>();
  char b[32];
  if (d >= 1e9)
    std::snprintf(b, sizeof b, "%.2fG", d / 1e9);
  else if (d >= 1e6)
    std::snprintf(b, sizeof b, "%.2fM", d / 1e6);
  else if (d >= 1e4)
    std::snprintf(b, sizeof b, "%.1fk", d / 1e3);
  else
    std::snprintf(b, sizeof b, "%.4g", d);
  return b;
}

int runPointCommand(const std::vector<std::string>& args) {
  std::string index, outDir;
  ArgParser p("sweep", "--run-point N -o OUT_DIR",
              "Runs point N of a prepared sweep (what a Slurm task or a --local worker runs):\n"
              "brickyard eval of the point's config on each model, then the point's result\n"
              "record. A point that already has its result is not run again.");
  p.option("--run-point", "N", "the point's index", &index);
  p.option("-o", "OUT_DIR", "the sweep's output folder", &outDir);
  if (!p.parse(args))
    return kExitOk;
  if (outDir.empty())
    throw UsageError("missing -o OUT_DIR");
  if (index.empty() || index.size() > 7 ||
      index.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError("--run-point '" + index + "': expected a point index (0, 1, ...)");
  return sweep::runPoint(fs::absolute(outDir), size_t(std::stoul(index)));
}

} // namespace

int runSweep(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--run-point") != args.end())
    return runPointCommand(args);
  std::string specPath, outDir, jobsText, partition, time, cpusText, account, pollText, cacheDir;
  bool local = false, slurm = false, noWait = false, skipInvalid = false, quiet = false;
  ArgParser p(
      "sweep",
      "SPEC.yaml [-o OUT_DIR] (--local [-j N] | --slurm [--partition P] [--time T] "
      "[--cpus-per-task C])",
      "Evaluates a grid or list of config overrides on a base config, times a set of models\n"
      "(docs/evaluation.md, \"Sweeps\"). Every point is checked first, as brickyard gen checks\n"
      "a config and brickyard eval its input: a bad point or model is reported (one line per\n"
      "point, naming the key, at its place in the spec) and nothing runs. Each point runs as\n"
      "brickyard eval on each model; its result is recorded when it finishes, so a rerun of\n"
      "an interrupted or partly failed sweep runs only the points without a result.\n"
      "\n"
      "--local runs -j points at a time on this machine; --slurm submits one Slurm job array\n"
      "(one task per point, the batch script kept in OUT_DIR/slurm/), waits for it and lists\n"
      "the failed tasks with their logs; a rerun submits only the points without a result.\n"
      "OUT_DIR gets results.csv and results.json (one row per point and model: the point's\n"
      "config values, cycles, utilization, energy, area, throughput, perf/area, perf/W) and\n"
      "Pareto plots (PNG) with the front marked.\n"
      "\n"
      "exit codes: 0 every point ran bit-exact (or, with --no-wait, the tasks are submitted),\n"
      "1 a point failed or has no result (the others still ran), 2 input rejected (nothing run)");
  p.positional("SPEC.yaml", "the sweep spec", &specPath);
  p.option("-o", "OUT_DIR", "output folder (default: out/sweep-NAME)", &outDir);
  p.flag("--local", "run on this machine", &local);
  p.option("-j", "N", "--local: points at a time (default: the number of cores)", &jobsText);
  p.flag("--slurm", "run as a Slurm job array (sbatch) and wait for it", &slurm);
  p.option("--partition", "P", "--slurm: the partition (default: the spec's, else Slurm's)",
           &partition);
  p.option("--time", "T", "--slurm: time limit per task, e.g. 01:00:00", &time);
  p.option("--cpus-per-task", "C", "--slurm: CPUs per task (eval -j inside a point)", &cpusText);
  p.option("--account", "A", "--slurm: the account to charge", &account);
  p.option("--poll", "SECONDS", "--slurm: squeue interval (default: the spec's, else 10)",
           &pollText);
  p.flag("--no-wait", "--slurm: submit and return; a rerun waits and collects", &noWait);
  p.flag("--skip-invalid", "run the valid points, list the invalid ones (else exit 2)",
         &skipInvalid);
  p.option("--cache-dir", "DIR",
           "the cache of eval (default: the spec's cache_dir, else "
           "brickyard's)",
           &cacheDir);
  p.flag("--quiet", "no progress lines", &quiet);
  if (!p.parse(args))
    return kExitOk;
  if (local == slurm)
    throw UsageError("choose a backend: --local or --slurm");
  if (!local && !jobsText.empty())
    throw UsageError("-j goes with --local (Slurm runs its tasks as the cluster allows)");
  if (local && (!partition.empty() || !time.empty() || !cpusText.empty() || !account.empty() ||
                !pollText.empty() || noWait))
    throw UsageError("--partition, --time, --cpus-per-task, --account, --poll and --no-wait go "
                     "with --slurm");
  const int parallel =
      positive("-j", jobsText, int(std::max(1u, std::thread::hardware_concurrency())), 1024);

  Prepared pr;
  pr.spec = eval::loadSweepSpec(specPath); // ConfigError: FILE:LINE:COL, exit 2
  SweepSpec& spec = pr.spec;
  if (fs::path(spec.base).is_absolute()) {
    pr.basePath = spec.base;
  } else {
    try {
      pr.basePath = config::resolveConfigArg(spec.base);
    } catch (const support::InputError& e) {
      throw config::ConfigError(spec.basePos.file, spec.basePos.line, spec.basePos.column, "base",
                                e.what());
    }
  }
  if (!fs::is_regular_file(pr.basePath))
    throw config::ConfigError(spec.basePos.file, spec.basePos.line, spec.basePos.column, "base",
                              "no such config file: " + pr.basePath);
  pr.basePath = fs::absolute(pr.basePath).lexically_normal().string();
  pr.models = checkModels(spec);
  checkPoints(pr);
  size_t validCount = 0;
  for (const PointPlan& pt : pr.points)
    validCount += pt.valid;
  if (!pr.bad.empty() && (!skipInvalid || validCount == 0)) {
    for (const std::string& line : pr.bad)
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fprintf(stderr, "brickyard sweep: error: %zu of %zu points rejected; nothing was run%s\n",
                 pr.bad.size(), pr.points.size(),
                 skipInvalid ? "" : " (--skip-invalid runs the others)");
    return kExitRejected;
  }
  if (!cacheDir.empty())
    spec.cacheDir = fs::absolute(cacheDir).string();

  const fs::path out = fs::absolute(outDir.empty() ? "out/sweep-" + spec.name : outDir);
  if (fs::exists(out) &&
      (!fs::is_directory(out) || (!fs::is_empty(out) && !fs::exists(out / "points.json"))))
    throw support::OutputRefused(out.string() + " exists and is not a sweep output folder (no "
                                                "points.json); choose another -o");
  fs::create_directories(out);
  support::writeFileAtomically(
      out / "manifest.json",
      Json{{"generator", std::string("brickyard sweep ") + BRICKYARD_VERSION},
           {"command", "sweep"},
           {"files",
            {"points.json", "spec.yaml", "results.json", "results.csv", "pareto_cycles_area.png",
             "pareto_energy_area.png", "pareto_cycles_energy.png", "points/", "slurm/"}}}
              .dump(2) +
          "\n");
  support::writeFileAtomically(out / "spec.yaml", compiler::readFile(specPath));
  writePlan(pr, out, spec.cacheDir);

  std::vector<PointPlan> pending;
  size_t done = 0;
  for (const PointPlan& pt : pr.points) {
    if (!pt.valid)
      continue;
    if (finished(out, pt))
      ++done;
    else
      pending.push_back(pt);
  }
  if (!quiet) {
    for (const std::string& line : pr.bad)
      std::fprintf(stderr, "%s (skipped)\n", line.c_str());
    std::fprintf(stderr,
                 "brickyard sweep: '%s': %zu points x %zu models (%s model%s), %zu already "
                 "finished, %zu to run %s; output %s\n",
                 spec.name.c_str(), validCount, spec.models.size(), spec.eval.model.c_str(),
                 spec.eval.area ? ", area" : "", done, pending.size(),
                 local ? ("on this machine, " + std::to_string(parallel) + " at a time").c_str()
                       : "on Slurm",
                 out.c_str());
  }
  RunOptions ro;
  ro.quiet = quiet;
  ro.self = fs::read_symlink("/proc/self/exe");
  const auto start = std::chrono::steady_clock::now();
  bool waited = true;
  if (local && !pending.empty()) {
    runLocal(out, pending, parallel, ro);
  } else if (slurm) {
    SlurmOptions so;
    so.partition = partition.empty() ? spec.slurm.partition : partition;
    so.time = time.empty() ? spec.slurm.time : time;
    so.account = account.empty() ? spec.slurm.account : account;
    so.cpusPerTask = positive("--cpus-per-task", cpusText, spec.slurm.cpusPerTask, 1024);
    so.sbatchOptions = spec.slurm.sbatchOptions;
    so.setup = spec.slurm.setup;
    so.pollSeconds = positive("--poll", pollText, spec.slurm.pollSeconds, 3600);
    so.wait = !noWait;
    if (!pending.empty())
      waited = runSlurm(out, spec.name, pending, so, ro);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!waited)
    return kExitOk; // --no-wait: submitted; a rerun waits and collects

  const std::vector<eval::SweepPointResult> results = collect(pr, out, quiet);
  size_t ok = 0;
  std::vector<const eval::SweepPointResult*> failed;
  for (const eval::SweepPointResult& r : results) {
    if (r.status == "ok")
      ++ok;
    else if (r.status != "invalid")
      failed.push_back(&r);
  }
  // The table for people: a line per point and model.
  for (const eval::SweepPointResult& r : results)
    for (const eval::SweepModelResult& m : r.models) {
      std::printf("%-5s %-8s %-10s", r.id.c_str(),
                  r.status == "ok" ? m.status.c_str() : r.status.c_str(), m.name.c_str());
      if (!m.config.is_null() && m.config.contains("totals"))
        std::printf(
            " %9s cycles  util %5.1f%%  %9s pJ  area %9s  %s",
            human(m.config["totals"]["total_cycles"]).c_str(),
            100 * m.config["totals"].value("utilization", 0.0),
            human(m.config["energy"]["total_pj"]).c_str(),
            human(m.config["area"].is_object() ? m.config["area"]["transistors"] : Json()).c_str(),
            pr.points[r.index].label.c_str());
      else
        std::printf(" %s", pr.points[r.index].label.c_str());
      std::printf("\n");
    }
  if (!failed.empty()) {
    std::map<size_t, SlurmTaskInfo> tasks;
    for (const auto& [pt, t] : slurmTasks(out))
      tasks[pt] = t;
    std::fprintf(stderr, "brickyard sweep: %zu point%s failed or %s no result:\n", failed.size(),
                 failed.size() == 1 ? "" : "s", failed.size() == 1 ? "has" : "have");
    for (const eval::SweepPointResult* r : failed) {
      std::string why = r->message;
      for (const eval::SweepModelResult& m : r->models)
        if (m.status != "ok" && !m.message.empty())
          why += (why.empty() ? "" : "; ") + m.name + ": " + m.message;
      std::fprintf(stderr, "  %s (%s): %s; log %s", r->id.c_str(),
                   pr.points[r->index].label.c_str(), why.c_str(),
                   (out / logPath(out, r->id).lexically_relative(out)).c_str());
      if (slurm && tasks.count(r->index))
        std::fprintf(stderr, "; Slurm task %s %s, log %s", tasks[r->index].job.c_str(),
                     tasks[r->index].state.c_str(), tasks[r->index].log.c_str());
      std::fprintf(stderr, "\n");
    }
    std::fprintf(stderr, "  rerun the same command to run only these points again\n");
  }
  if (!quiet)
    std::fprintf(stderr,
                 "brickyard sweep: %zu of %zu points ok (%zu run now in %.0f s); wrote %s "
                 "(results.csv, results.json, plots)\n",
                 ok, validCount, pending.size(), seconds, out.c_str());
  return failed.empty() ? kExitOk : kExitFailure;
}

} // namespace by::cli
