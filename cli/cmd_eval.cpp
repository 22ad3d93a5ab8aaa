// brickyard eval: one model on several configs, side by side (docs/evaluation.md). Every
// config's run is a `brickyard run --report` child process (SystemC elaborates once per
// process), its area a `brickyard gen` + `brickyard synth` pair; both cached by what goes into
// them. The report (report.json, layers.csv, report.md, plots) is built in a staging
// directory and moved into place at the end.
#include "brickyard_version.h"
#include "command.h"
#include "compiler/compile.h"
#include "compiler/emit_c.h"
#include "compiler/error.h"
#include "compiler/files.h"
#include "compiler/npy.h"
#include "compiler/onnx_import.h"
#include "compiler/passes.h"
#include "config/loader.h"
#include "config/names.h"
#include "config/schema.h"
#include "emit/generate.h"
#include "eval/energy.h"
#include "eval/report.h"
#include "support/cache.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/json.h"
#include "support/process.h"
#include "support/tail.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>
#include <unistd.h>

namespace by::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Bumped when what a cached run or area entry holds changes meaning.
const char* const kCacheFormat = "eval-cache-1";

struct Inputs {
  std::string model, modelHash, inputPath, inputHash, inputDescription, accelModel, hal, cacheDir;
  std::vector<std::string> calibArgs; // passed to `brickyard run` as they are
  std::string maxCycles;              // --max-cycles of every run, or empty
  int batch = 1;
  fs::path root; // the cache root
  fs::path self; // this executable
};

/// One unit of work: a config's run, its Boveda baseline (weights uncompressed) or its area.
struct Job {
  enum Kind { Run, Baseline, Area };
  Job(Kind k, size_t c) : kind(k), config(c) {}
  Kind kind;
  size_t config;
  // Results.
  bool ok = false, cached = false;
  std::string status, message;
  double seconds = 0;
  nlohmann::json result;
};

const char* kindName(Job::Kind k) {
  return k == Job::Run ? "run" : k == Job::Baseline ? "run without Boveda weights" : "area";
}

std::string tail(const std::string& text, size_t lines) {
  return support::lastLines(text, lines);
}

nlohmann::json readJson(const fs::path& p) {
  return support::readJson(p);
}

class Evaluator {
public:
  Evaluator(const Inputs& in, const std::vector<config::Config>& configs,
            const std::vector<std::string>& hardware, const std::vector<std::string>& sources)
      : in_(in), configs_(configs), hardware_(hardware), sources_(sources) {}

  void execute(Job& job) const {
    const auto start = Clock::now();
    if (job.kind == Job::Area)
      area(job);
    else
      run(job);
    job.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }

private:
  const Inputs& in_;
  const std::vector<config::Config>& configs_;
  const std::vector<std::string>& hardware_; // hash of each config's generated files
  const std::vector<std::string>& sources_;  // the config files

  fs::path scratch(const std::string& name) const {
    const fs::path d = in_.root / "eval" / "tmp" / (name + "-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }

  std::vector<std::string> runArgv(const Job& job, const fs::path& report) const {
    std::vector<std::string> argv = {in_.self.string(),    "run",     in_.model,     "--config",
                                     sources_[job.config], "--input", in_.inputPath, "--model",
                                     in_.accelModel,       "--hal",   in_.hal,       "--report",
                                     report.string(),      "--quiet"};
    if (!in_.cacheDir.empty())
      argv.insert(argv.end(), {"--cache-dir", in_.cacheDir});
    argv.insert(argv.end(), in_.calibArgs.begin(), in_.calibArgs.end());
    // Not part of the cache key: a run that ends within the cap gives the same result.
    if (!in_.maxCycles.empty())
      argv.insert(argv.end(), {"--max-cycles", in_.maxCycles});
    if (job.kind == Job::Baseline)
      argv.push_back("--no-boveda-weights");
    return argv;
  }

  void run(Job& job) const {
    const config::Config& c = configs_[job.config];
    // The key: everything the run's result depends on. The counter list stands for the
    // hardware's event set, the tool's build id (its executable's hash) for the compiler, the
    // driver and the simulator.
    std::string counters;
    for (const std::string& r : compiler::statRegisters())
      counters += r + ",";
    std::string key = std::string(kCacheFormat) + "|" + compiler::toolBuildId() + "|" +
                      hardware_[job.config] + "|" + in_.modelHash + "|" + in_.inputHash + "|" +
                      in_.accelModel + "|" + in_.hal + "|" + counters +
                      (job.kind == Job::Baseline ? "|baseline" : "");
    for (const std::string& a : in_.calibArgs)
      key += "|" + a;
    const fs::path entry = in_.root / "eval" / "runs" /
                           (c.name + (job.kind == Job::Baseline ? "-baseline-" : "-") +
                            support::hashHex(key) + ".json");
    if (fs::exists(entry)) {
      try {
        const nlohmann::json j = readJson(entry);
        job.result = j.at("report");
        job.ok = true;
        job.cached = true;
        job.status = "ok";
        return;
      } catch (const std::exception&) {
        // An unreadable entry is run again (and replaced).
      }
    }
    const fs::path dir = scratch(c.name + (job.kind == Job::Baseline ? "-baseline" : "-run"));
    const fs::path report = dir / "report.json";
    process::Options po;
    po.output = process::Output::CaptureMerged;
    const process::Result r = process::run(runArgv(job, report), po);
    if (fs::exists(report)) {
      job.result = readJson(report);
      const bool exact = job.result.at("check").at("bit_exact").get<bool>();
      job.ok = r.status == 0 && exact;
      job.status = job.ok ? "ok" : "mismatch";
      if (!exact)
        job.message = tail(r.out, 3);
    } else {
      job.status = "failed";
      job.message =
          "brickyard run exited with " + std::to_string(r.status) + ": " + tail(r.out + r.err, 4);
    }
    if (job.ok) {
      fs::create_directories(entry.parent_path());
      support::writeFileAtomically(entry,
                                   nlohmann::json{{"key", key}, {"report", job.result}}.dump());
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  void area(Job& job) const {
    const config::Config& c = configs_[job.config];
    const std::string key =
        std::string(kCacheFormat) + "|" + compiler::toolVersion() + "|" + hardware_[job.config];
    const fs::path entry =
        in_.root / "eval" / "area" / (c.name + "-" + support::hashHex(key) + ".json");
    if (fs::exists(entry)) {
      try {
        job.result = readJson(entry).at("design");
        job.ok = job.cached = true;
        job.status = "ok";
        return;
      } catch (const std::exception&) {
      }
    }
    const fs::path dir = scratch(c.name + "-area");
    process::Options po;
    po.output = process::Output::CaptureMerged;
    process::Result r = process::run(
        {in_.self.string(), "gen", sources_[job.config], "-o", (dir / "gen").string()}, po);
    if (r.status == 0)
      r = process::run({in_.self.string(), "synth", (dir / "gen").string(), "-j", "1",
                        "--cache-dir", in_.root.string()},
                       po);
    const fs::path synth = dir / "gen" / "reports" / "synth.json";
    if (r.status == 0 && fs::exists(synth)) {
      job.result = readJson(synth).at("design");
      job.ok = true;
      job.status = "ok";
      fs::create_directories(entry.parent_path());
      support::writeFileAtomically(entry,
                                   nlohmann::json{{"key", key}, {"design", job.result}}.dump());
    } else {
      job.status = "failed";
      job.message = "area: brickyard gen/synth exited with " + std::to_string(r.status) + ": " +
                    tail(r.out + r.err, 4);
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

/// Runs the jobs `jobs` at a time: one line per finished job, and on a terminal a live line
/// naming what is running.
void runJobs(std::vector<Job>& jobs, const Evaluator& ev, const std::vector<config::Config>& cfgs,
             int parallel, bool quiet) {
  std::mutex m;
  size_t next = 0, done = 0;
  std::vector<size_t> running;
  const bool tty = !quiet && isatty(fileno(stderr));
  const auto start = Clock::now();
  auto label = [&](const Job& j) { return cfgs[j.config].name + " " + kindName(j.kind); };
  auto live = [&] { // with m held
    if (!tty)
      return;
    std::string line = "  running:";
    for (size_t r : running)
      line += " [" + label(jobs[r]) + "]";
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    char t[32];
    std::snprintf(t, sizeof t, " %.0f s", s);
    line += t;
    if (line.size() > 150)
      line = line.substr(0, 147) + "...";
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  };
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> g(m);
        if (next >= jobs.size())
          return;
        i = next++;
        running.push_back(i);
        live();
      }
      ev.execute(jobs[i]);
      std::lock_guard<std::mutex> g(m);
      running.erase(std::find(running.begin(), running.end(), i));
      ++done;
      if (quiet)
        continue;
      const Job& j = jobs[i];
      std::string what = j.status;
      if (j.ok && j.kind != Job::Area && j.result.contains("layers")) {
        uint64_t cycles = 0;
        for (const auto& l : j.result["layers"])
          cycles += l["cycles"].get<uint64_t>();
        what = std::to_string(cycles) + " cycles, bit-exact";
      } else if (j.ok && j.kind == Job::Area) {
        char t[64];
        std::snprintf(t, sizeof t, "%.3f M transistors", j.result.value("transistors", 0.0) / 1e6);
        what = t;
      }
      char head[64];
      std::snprintf(head, sizeof head, "[%zu/%zu] ", done, jobs.size());
      std::fprintf(stderr, "%s%s%s: %s (%s)\n", tty ? "\r\033[K" : "", head, label(j).c_str(),
                   what.c_str(),
                   j.cached ? "cached" : (std::to_string(int(j.seconds + 0.5)) + " s").c_str());
      if (!j.ok && !j.message.empty())
        std::fprintf(stderr, "    %s\n", j.message.c_str());
      live();
    }
  };
  std::atomic<bool> stop{false};
  std::thread ticker([&] {
    while (!stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      std::lock_guard<std::mutex> g(m);
      if (!stop && !running.empty())
        live();
    }
  });
  std::vector<std::thread> pool;
  for (int t = 0; t < parallel; ++t)
    pool.emplace_back(worker);
  for (std::thread& t : pool)
    t.join();
  stop = true;
  ticker.join();
  if (tty)
    std::fprintf(stderr, "\r\033[K");
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = text.find(',', at);
    const std::string item =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (item.empty())
      throw UsageError("--configs '" + text + "': an empty config name");
    out.push_back(item);
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  return out;
}

int positiveNumber(const std::string& option, const std::string& text, int fallback) {
  if (text.empty())
    return fallback;
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || v < 1 || v > 1 << 20)
    throw UsageError(option + " '" + text + "': expected a positive whole number");
  return int(v);
}

uint64_t seedNumber(const std::string& text) {
  bool digits = !text.empty() && text.size() <= 19;
  for (char ch : text)
    digits &= ch >= '0' && ch <= '9';
  if (!digits)
    throw UsageError("--seed '" + text + "': expected a whole number");
  return std::stoull(text);
}

} // namespace

int runEval(const std::vector<std::string>& args) {
  std::string model, configsText, input, outDir, jobsText, accelModel = "rtl", cacheDir, seedText,
                                                           hal = "rocc", calibRandom, maxCycles;
  std::vector<std::string> calibFiles;
  bool noArea = false, quiet = false;
  ArgParser p(
      "eval",
      "MODEL.onnx --configs A,B,... -o REPORT_DIR [--input X.npy] [-j N] [--model rtl|func] "
      "[--no-area]",
      "Compiles and runs the model on every config (brickyard run: the RTL co-simulation by\n"
      "default), checks each output bit for bit against the int8 reference, synthesizes each\n"
      "config for its area (brickyard synth, cached per module) and writes REPORT_DIR:\n"
      "report.json, layers.csv (one row per layer and config), report.md and PNG plots\n"
      "(matplotlib): cycles split by cause, utilization, DRAM and SRAM traffic, TensorDash and\n"
      "Boveda figures, an energy estimate from a per-event table, area, throughput, perf/W,\n"
      "perf/area, speedup and energy ratio against the first config (docs/evaluation.md).\n"
      "\n"
      "Configs are names (tiny, td8, ...) or YAML paths. Without --input the input is random\n"
      "normal(0,1), seeded by --seed (printed and recorded). Runs are cached by config hash,\n"
      "model hash, input and tool build under --cache-dir/eval, $BRICKYARD_CACHE_DIR/eval or\n"
      "~/.cache/brickyard/eval: a rerun runs only what changed. REPORT_DIR is replaced as a\n"
      "whole at the end (an existing directory only if it is a previous Brickyard output).\n"
      "\n"
      "exit codes: 0 every config bit-exact, 1 a config failed or mismatched (the others are\n"
      "still reported), 2 input rejected (nothing run, REPORT_DIR untouched)");
  p.positional("MODEL.onnx", "the ONNX model (float or pre-quantized)", &model);
  p.option("--configs", "A,B,...", "configs to compare, the first is the baseline (required)",
           &configsText);
  p.option("-o", "REPORT_DIR", "where the report goes (required)", &outDir);
  p.option("--input", "X.npy", "the input tensor (default: random, see --seed)", &input);
  p.option("--seed", "N", "seed of the random input (default 1)", &seedText);
  p.option("--model", "rtl|func", "accelerator model: RTL co-simulation (default) or functional",
           &accelModel);
  p.option("-j", "N", "runs at a time (default: the number of cores)", &jobsText);
  p.flag("--no-area", "skip synthesis (no area, no perf/area)", &noArea);
  p.option("--hal", "rocc|mmio", "how the programs send commands (default rocc)", &hal);
  p.multiOption("--calib", "FILE.npy", "calibration samples (as brickyard run); repeatable",
                &calibFiles);
  p.option("--calib-random", "N", "calibrate on N random samples (as brickyard run)", &calibRandom);
  p.option("--max-cycles", "N", "stop a run after N simulated cycles (it fails); default: no cap",
           &maxCycles);
  p.option("--cache-dir", "DIR", "the cache (runs, areas, simulators, programs)", &cacheDir);
  p.flag("--quiet", "no progress lines", &quiet);
  if (!p.parse(args))
    return kExitOk;
  if (configsText.empty())
    throw UsageError("missing --configs A,B,...");
  if (outDir.empty())
    throw UsageError("missing -o REPORT_DIR");
  if (accelModel != "rtl" && accelModel != "func")
    throw UsageError("--model " + accelModel + ": expected rtl or func");
  if (hal != "rocc" && hal != "mmio")
    throw UsageError("--hal " + hal + ": expected rocc or mmio");
  if (!input.empty() && !seedText.empty())
    throw UsageError("--seed sets the random input; it does not go with --input");
  const int parallel =
      positiveNumber("-j", jobsText, int(std::max(1u, std::thread::hardware_concurrency())));
  Inputs in;
  in.accelModel = accelModel;
  in.hal = hal;
  if (!maxCycles.empty()) {
    bool digits =
        maxCycles.size() <= 18 && maxCycles.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoull(maxCycles) == 0)
      throw UsageError("--max-cycles '" + maxCycles + "': expected a positive whole number");
    in.maxCycles = std::to_string(std::stoull(maxCycles));
  }
  in.cacheDir = cacheDir.empty() ? "" : fs::absolute(cacheDir).string();
  if (!calibRandom.empty()) {
    if (!calibFiles.empty())
      throw UsageError("--calib-random and --calib exclude each other");
    positiveNumber("--calib-random", calibRandom, 1);
    in.calibArgs = {"--calib-random", calibRandom};
  }
  for (const std::string& f : calibFiles) {
    if (!fs::exists(f))
      throw UsageError("--calib " + f + ": no such file");
    in.calibArgs.insert(in.calibArgs.end(), {"--calib", fs::absolute(f).string()});
  }

  // Everything is checked before anything runs: configs, model, input, output.
  std::vector<config::Config> configs;
  std::vector<std::string> hashes, hardware, sources;
  for (const std::string& item : splitList(configsText)) {
    const std::string path = config::resolveConfigArg(item);
    configs.push_back(config::loadConfigFile(path)); // ConfigError: FILE:LINE:COL, exit 2
    for (size_t i = 0; i + 1 < configs.size(); ++i)
      if (configs[i].name == configs.back().name)
        throw UsageError("--configs: '" + configs.back().name + "' is listed twice");
    if (configs.back().types.inputWidth != 8)
      throw UsageError("config '" + configs.back().name + "' has " +
                       std::to_string(configs.back().types.inputWidth) +
                       "-bit inputs; the compiler quantizes to int8");
    hashes.push_back(config::configHash(configs.back()));
    // What the hardware is, beyond the config: the generated RTL and headers (a generator
    // change invalidates the cached runs and areas of every config it touches).
    std::string generated;
    for (const emit::OutputFile& f : emit::renderOutputs(configs.back()))
      generated += f.path + "\n" + f.text;
    hardware.push_back(support::hashHex(generated));
    sources.push_back(fs::absolute(path).string());
  }
  in.model = fs::absolute(model).string();
  const std::string modelBytes = compiler::readFile(model);
  in.modelHash = support::hashHex(modelBytes);
  compiler::Graph g = compiler::importOnnxBytes(modelBytes, model); // CompileError: node, op
  compiler::runPasses(g);
  for (const config::Config& c : configs)
    compiler::checkFitsDram(g, c);
  const compiler::Tensor& inT = g.tensors[g.input];
  in.batch = inT.shape.n;
  in.root = support::cacheRoot(in.cacheDir);
  if (!input.empty()) {
    bool isInt8 = false;
    compiler::readInputFile(input, inT, &isInt8); // CompileError naming the file
    in.inputPath = fs::absolute(input).string();
    in.inputHash = support::hashHex(compiler::readFile(input));
    in.inputDescription = input;
  } else {
    const uint64_t seed = seedText.empty() ? 1 : seedNumber(seedText);
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(size_t(inT.shape.elems()));
    for (float& v : x)
      v = normal(rng);
    const std::string name = "random-" + in.modelHash + "-seed" + std::to_string(seed) + ".npy";
    const fs::path path = in.root / "eval" / "inputs" / name;
    fs::create_directories(path.parent_path());
    if (!fs::exists(path)) {
      const fs::path tmp = path.string() + ".tmp" + std::to_string(getpid());
      compiler::writeNpyFloat(tmp.string(), inT.onnxShape, x);
      fs::rename(tmp, path);
    }
    in.inputPath = path.string();
    in.inputHash = support::hashHex(compiler::readFile(in.inputPath));
    in.inputDescription = "random normal(0,1), seed " + std::to_string(seed);
    if (!quiet)
      std::fprintf(stderr, "brickyard eval: random input, seed %llu (%s)\n",
                   static_cast<unsigned long long>(seed), in.inputPath.c_str());
  }
  support::StagedDirectory out(outDir); // OutputRefused: exit 2
  in.self = fs::read_symlink("/proc/self/exe");

  std::vector<Job> jobs;
  for (size_t i = 0; i < configs.size(); ++i) {
    jobs.emplace_back(Job::Run, i);
    if (configs[i].boveda.enabled)
      jobs.emplace_back(Job::Baseline, i);
  }
  if (!noArea)
    for (size_t i = 0; i < configs.size(); ++i)
      jobs.emplace_back(Job::Area, i);
  if (!quiet)
    std::fprintf(stderr, "brickyard eval: %s on %zu configs (%s model): %zu jobs, %d at a time\n",
                 model.c_str(), configs.size(), accelModel.c_str(), jobs.size(), parallel);
  const Evaluator ev(in, configs, hardware, sources);
  const auto start = Clock::now();
  runJobs(jobs, ev, configs, parallel, quiet);

  // The report.
  eval::Json report;
  report["generator"] = std::string("brickyard eval ") + BRICKYARD_VERSION;
  report["version"] = compiler::toolVersion();
  report["model"] = {{"path", model},
                     {"hash", in.modelHash},
                     {"batch", in.batch},
                     {"input_shape", inT.onnxShape},
                     {"layers", g.layers.size()}};
  report["input"] = {{"description", in.inputDescription}, {"hash", in.inputHash}};
  if (input.empty())
    report["input"]["seed"] = seedText.empty() ? uint64_t(1) : seedNumber(seedText);
  report["accelerator_model"] = accelModel;
  eval::Json cfgs = eval::Json::array();
  bool allOk = true;
  size_t cachedRuns = 0, runJobsCount = 0;
  for (size_t i = 0; i < configs.size(); ++i) {
    eval::ConfigRun r;
    r.config = configs[i];
    r.source = sources[i];
    r.configHash = hashes[i];
    r.model = accelModel;
    r.batch = in.batch;
    for (const Job& j : jobs) {
      if (j.config != i)
        continue;
      if (j.kind == Job::Run) {
        ++runJobsCount;
        cachedRuns += j.cached;
        r.ok = j.ok;
        r.status = j.status;
        r.message = j.message;
        r.cached = j.cached;
        r.wallSeconds = j.seconds;
        r.run = j.result;
      } else if (j.kind == Job::Baseline) {
        ++runJobsCount;
        cachedRuns += j.cached;
        if (j.ok)
          r.baseline = j.result;
        else {
          r.ok = false;
          r.status = "failed";
          r.message += (r.message.empty() ? "" : "; ") + std::string("baseline: ") + j.message;
        }
      } else if (j.ok) {
        r.area = j.result;
      } else {
        r.ok = false;
        r.status = "failed";
        r.message += (r.message.empty() ? "" : "; ") + j.message;
      }
    }
    allOk &= r.ok;
    cfgs.push_back(eval::evaluateConfig(r));
  }
  eval::compareToFirst(cfgs);
  report["configs"] = cfgs;
  eval::Json table = eval::Json::array();
  for (const eval::EnergyEntry& e : eval::energyTable())
    table.push_back({{"key", e.key},
                     {"pj", e.picojoules},
                     {"unit", e.unit},
                     {"source", e.source},
                     {"note", e.note}});
  report["energy_table"] = table;
  report["wall_seconds"] = std::chrono::duration<double>(Clock::now() - start).count();

  out.write("manifest.json",
            eval::Json{{"generator", report["generator"]},
                       {"command", "eval"},
                       {"files",
                        {"report.json", "layers.csv", "report.md", "utilization.png", "cycles.png",
                         "energy.png", "speedup.png", "dram_traffic.png"}}}
                    .dump(2) +
                "\n");
  out.write("report.json", report.dump(2) + "\n");
  out.write("layers.csv", eval::layersCsv(report));
  out.write("report.md", eval::reportMarkdown(report));
  if (input.empty())
    fs::copy_file(in.inputPath, out.stagingPath() / "input.npy");
  // The plots: a small matplotlib script of the source tree, run on the staged report.
  const fs::path script = fs::path(BY_SOURCE_DIR) / "scripts" / "eval_plots.py";
  // Debian's interpreter, where python3-matplotlib installs (another python3 may come first
  // on PATH, e.g. a virtual environment without it).
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  process::require(python, "python3-matplotlib");
  process::Options po;
  po.output = process::Output::CaptureMerged;
  const process::Result plots =
      process::run({python, script.string(), out.stagingPath().string()}, po);
  if (plots.status != 0)
    throw std::runtime_error("the plots failed (" + script.string() + "): " + tail(plots.out, 6));
  out.commit();
  if (!quiet)
    std::fprintf(stderr,
                 "brickyard eval: %zu of %zu runs cached; wrote %s (report.md, "
                 "report.json, layers.csv, plots) in %.1f s\n",
                 cachedRuns, runJobsCount, outDir.c_str(), report["wall_seconds"].get<double>());
  for (const eval::Json& c : report["configs"]) {
    std::printf("%-16s %-9s", c["name"].get<std::string>().c_str(),
                c["status"].get<std::string>().c_str());
    if (c.contains("totals"))
      std::printf(" %12lld cycles  util %5.1f%%  %10.4g uJ/inference  speedup %.3fx  energy %.3fx",
                  static_cast<long long>(c["totals"]["total_cycles"].get<int64_t>()),
                  100 * c["totals"]["utilization"].get<double>(),
                  c["derived"]["energy_per_inference_uj"].get<double>(),
                  c["derived"]["speedup_vs_first"].get<double>(),
                  c["derived"]["energy_ratio_vs_first"].get<double>());
    std::printf("\n");
  }
  return allOk ? kExitOk : kExitFailure;
}

} // namespace by::cli
