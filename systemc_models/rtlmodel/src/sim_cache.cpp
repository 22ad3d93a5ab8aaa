#include "rtlmodel/sim_cache.h"

#include "config/schema.h"
#include "embedded_sources.h"
#include "emit/generate.h"
#include "rtlmodel/model_abi.h"
#include "support/cache.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/process.h"
#include "support/tail.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

namespace by::rtlmodel {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLibraryName = "libby_rtl_model.so";
constexpr const char* kBuildInfo = "build.json";

/// The compiler Verilator's makefile uses: the one Brickyard was built with, unless
/// BRICKYARD_CXX says otherwise (the libraries are plain C++17 with a C interface).
std::string cxxCompiler() {
  if (const char* cxx = std::getenv("BRICKYARD_CXX"); cxx && *cxx)
    return cxx;
  return !process::find(BY_BUILD_CXX).empty() ? BY_BUILD_CXX : "c++";
}

std::string verilatorProgram() {
  const char* v = std::getenv("BRICKYARD_VERILATOR");
  return v && *v ? v : "verilator";
}

int buildJobs() {
  if (const char* j = std::getenv("BRICKYARD_BUILD_JOBS"); j && std::atoi(j) > 0)
    return std::atoi(j);
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Verilator options that shape the library (paths and job counts are added when building).
std::vector<std::string> verilatorFlags(bool trace) {
  std::vector<std::string> flags = {
      "--cc", "--exe", "--build", "-O3", "--x-assign", "fast", "--x-initial", "fast", "--prefix",
      "Vby_accelerator", "--top-module", "by_accelerator",
      // Position-independent objects for the shared library; only the API symbol is exported,
      // and -Bsymbolic keeps the library's Verilator runtime its own.
      "-CFLAGS", "-std=c++17 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden", "-LDFLAGS",
      "-shared -Wl,-Bsymbolic",
      // The adapter's headers, relative to obj/ where make runs (see build()).
      "-CFLAGS", "-I../src",
      // Verilator's makefile compiles the model with -Os by default; -O2 simulates faster.
      "-MAKEFLAGS", "OPT_FAST=-O2 OPT_GLOBAL=-O2"};
  if (trace)
    flags.push_back("--trace-fst");
  return flags;
}

/// The config the library is built from: the caller's, with the soc section at its defaults.
config::Config hardwareConfig(const config::Config& config) {
  config::Config hw = config;
  for (const config::FieldSpec& f : config::schemaFields())
    if (f.key.rfind("soc.", 0) == 0 && f.defaultValue)
      f.set(hw, *f.defaultValue);
  return hw;
}

struct Plan {
  std::string name; // entry name
  std::string configHash;
  std::string key;
  std::vector<emit::OutputFile> outputs; // the generated sources
  std::vector<std::string> flags;
};

Plan makePlan(const config::Config& config, bool trace) {
  Plan plan;
  emit::GenerateResult generated;
  plan.outputs = emit::renderOutputs(hardwareConfig(config), &generated);
  plan.configHash = generated.configHash;
  plan.flags = verilatorFlags(trace);
  // Everything that goes into the library, in a fixed order.
  support::Fnv1a h;
  h.add("abi " + std::to_string(kAbiVersion) + "\n");
  for (const std::string& f : plan.flags)
    h.add("flag " + f + "\n");
  for (const EmbeddedFile& f : adapterSources())
    h.add(std::string("source ") + f.path + "\n" + f.text);
  for (const emit::OutputFile& f : plan.outputs)
    if (f.path.rfind("rtl/", 0) == 0)
      h.add("rtl " + f.path + "\n" + f.text);
  plan.key = h.hex();
  plan.name = config.name + "-" + plan.configHash + "-" + plan.key + (trace ? "-fst" : "");
  return plan;
}

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  support::writeFileAtomically(path, text);
}

void progress(const CacheOptions& options, const std::string& message) {
  if (!options.quiet)
    std::fprintf(stderr, "brickyard sim: %s\n", message.c_str());
}

/// Builds the entry in `staging`; throws BuildError (the log is in staging/build.log).
void build(const Plan& plan, const config::Config& config, const fs::path& staging, bool trace) {
  for (const emit::OutputFile& f : plan.outputs)
    writeFile(staging / f.path, f.text);
  for (const EmbeddedFile& f : adapterSources())
    writeFile(staging / "src" / f.path, f.text);
  const fs::path log = staging / "build.log";
  const std::string verilator = verilatorProgram();
  if (process::find(verilator).empty())
    throw BuildError("'" + verilator +
                     "' not found: building the RTL simulator needs Verilator (Debian package "
                     "verilator; run scripts/setup.sh)");
  const std::string cxx = cxxCompiler();
  std::vector<std::string> argv = {verilator};
  argv.insert(argv.end(), plan.flags.begin(), plan.flags.end());
  // Paths are relative to the staging directory, so that command lines do not depend on where
  // the entry is built and ccache can reuse objects across entries.
  argv.insert(argv.end(), {"-F", "rtl/filelist.f", "src/model_adapter.cpp", "-Mdir", "obj", "-o",
                           kLibraryName, "-j", std::to_string(buildJobs())});
  std::vector<std::string> env = {"CXX=" + cxx};
  if (!std::getenv("OBJCACHE") && !process::find("ccache").empty())
    env.push_back("OBJCACHE=ccache");
  {
    std::ofstream(log) << "$";
    std::ofstream out(log, std::ios::app);
    for (const std::string& a : argv)
      out << " '" << a << "'";
    out << "\n";
  }
  const auto start = std::chrono::steady_clock::now();
  process::Options options;
  options.cwd = staging;
  options.env = env;
  options.output = process::Output::AppendToLog;
  options.log = log;
  const int status = process::run(argv, options).status;
  if (status != 0 || !fs::exists(staging / "obj" / kLibraryName))
    throw BuildError("Verilator build of config '" + config.name + "' failed (exit status " +
                     std::to_string(status) + ")");
  fs::rename(staging / "obj" / kLibraryName, staging / kLibraryName);
  fs::remove_all(staging / "obj"); // objects are not needed to run (ccache keeps them)
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::ordered_json info;
  info["config"] = config.name;
  info["config_hash"] = plan.configHash;
  info["key"] = plan.key;
  info["trace"] = trace;
  info["abi_version"] = kAbiVersion;
  info["verilator"] = verilator;
  info["cxx"] = cxx;
  info["flags"] = plan.flags;
  info["build_seconds"] = seconds;
  info["built_by_pid"] = static_cast<long>(getpid());
  writeFile(staging / kBuildInfo, info.dump(2) + "\n");
}

} // namespace

std::string cacheEntryName(const config::Config& config, bool trace) {
  return makePlan(config, trace).name;
}

CachedModel findOrBuildModel(const config::Config& config, const CacheOptions& options) {
  const Plan plan = makePlan(config, options.trace);
  fs::path root;
  try {
    root = support::cacheRoot(options.cacheDir);
  } catch (const std::runtime_error& e) {
    throw BuildError(e.what());
  }
  // An entry is complete when its build.json, written last, is there.
  const support::DirectoryCache sim(root / "sim", kBuildInfo);
  CachedModel result;
  result.entry = sim.entry(plan.name);
  result.library = result.entry / kLibraryName;
  if (sim.complete(plan.name))
    return result;

  const fs::path failedLog = sim.dir() / (plan.name + ".failed.log");
  std::chrono::steady_clock::time_point start;
  auto make = [&](const fs::path& staging) {
    start = std::chrono::steady_clock::now();
    progress(options, "building the RTL simulator for config '" + config.name + "'" +
                          (options.trace ? " with FST tracing" : "") +
                          " (first use of this config; cached in " + result.entry.string() + ")");
    try {
      build(plan, config, staging, options.trace);
    } catch (const std::exception& e) {
      std::error_code ec;
      fs::rename(staging / "build.log", failedLog, ec);
      std::string message = e.what();
      if (fs::exists(failedLog))
        message += "; log: " + failedLog.string() + "\n" + support::tailOfFile(failedLog, 15);
      throw BuildError(message);
    }
  };
  auto waiting = [&] {
    progress(options,
             "waiting for another brickyard process that is building " + result.entry.string());
  };
  if (sim.findOrMake(plan.name, make, waiting) != support::Outcome::Made)
    return result; // the other process built it
  std::error_code ec;
  fs::remove(failedLog, ec);
  result.built = true;
  result.buildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char took[64];
  std::snprintf(took, sizeof took, "%.0f s", result.buildSeconds);
  progress(options, "built the RTL simulator for config '" + config.name + "' in " + took);
  return result;
}

} // namespace by::rtlmodel
