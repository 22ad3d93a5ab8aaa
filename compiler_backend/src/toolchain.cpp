#include "compiler/toolchain.h"

#include "compiler/files.h"
#include "config/schema.h"
#include "contract/software_files.h"
#include "embedded_driver.h"
#include "support/cache.h"
#include "support/hash.h"
#include "support/process.h"
#include "support/tail.h"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace by::compiler {
namespace fs = std::filesystem;

namespace {

const char* kGcc = "riscv64-unknown-elf-gcc";
const char* kAr = "riscv64-unknown-elf-ar";

/// cmake/riscv64-toolchain.cmake: RV64IMAFDC, lp64d, DRAM beyond +-2 GiB, picolibc.
std::vector<std::string> archFlags() {
  return {"-march=rv64imafdc",      "-mabi=lp64d",         "-mcmodel=medany",
          "--specs=picolibc.specs", "-ffunction-sections", "-fdata-sections"};
}

std::string gccProgram() {
  const char* p = std::getenv("BRICKYARD_RISCV_GCC");
  return p && *p ? p : kGcc;
}

void run(const std::vector<std::string>& argv, const fs::path& cwd, const fs::path& log) {
  process::Options options;
  options.cwd = cwd;
  options.output = process::Output::AppendToLog;
  options.log = log;
  const int rc = process::run(argv, options).status;
  if (rc != 0) {
    std::string cmd;
    for (const auto& a : argv)
      cmd += (cmd.empty() ? "" : " ") + a;
    throw ToolchainError("'" + cmd + "' failed (exit " + std::to_string(rc) + "):\n" +
                         support::tailOfFile(log, 30));
  }
}

void writeText(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  writeFileAtomic(p.string(), text);
}

/// Builds the driver library into `dir` (a staging directory of the cache): its headers and
/// sources, the objects, libby_driver.a, and `done` last. Debug information names `entry`, where
/// the build ends up.
void buildDriver(const fs::path& dir, const fs::path& entry,
                 const std::vector<std::pair<std::string, std::string>>& headers,
                 const std::string& halDefine) {
  for (const auto& [p, t] : headers)
    writeText(dir / p, t);
  for (const auto& f : driverSources())
    writeText(dir / "driver" / f.path, f.text);
  const fs::path log = dir / "build.log";
  std::vector<std::string> objects;
  auto compile = [&](const std::string& src, const std::vector<std::string>& extra) {
    const std::string obj = fs::path(src).filename().string() + ".o";
    std::vector<std::string> argv = {gccProgram()};
    for (const auto& a : archFlags())
      argv.push_back(a);
    argv.insert(argv.end(),
                {"-O2", "-g", "-ffile-prefix-map=" + dir.string() + "=" + entry.string(), "-Wall",
                 "-Wextra", "-Werror", halDefine, "-I" + (dir / "include").string(),
                 "-I" + (dir / "driver/include").string(),
                 "-I" + (dir / "driver/runtime/include").string()});
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), {"-c", (dir / "driver" / src).string(), "-o", obj});
    run(argv, dir, log);
    objects.push_back(obj);
  };
  for (const auto& f : driverSources()) {
    const std::string p = f.path;
    if (p.rfind("src/", 0) == 0 && p.size() > 2 && p.substr(p.size() - 2) == ".c")
      compile(p, {"-std=c99", "-ffreestanding"});
    else if (p.rfind("runtime/src/", 0) == 0)
      compile(p, {});
  }
  std::vector<std::string> ar = {kAr, "rcs", "libby_driver.a"};
  ar.insert(ar.end(), objects.begin(), objects.end());
  run(ar, dir, log);
  writeText(dir / "done", "ok\n");
}

} // namespace

const char* halName(Hal hal) {
  return hal == Hal::Rocc ? "rocc" : "mmio";
}

DriverBuild driverBuild(const config::Config& config, Hal hal, const std::string& cacheDir) {
  if (process::find(gccProgram()).empty())
    throw ToolchainError(std::string(kGcc) + " is not installed (Debian packages "
                                             "gcc-riscv64-unknown-elf and "
                                             "picolibc-riscv64-unknown-elf; scripts/setup.sh)");
  // Everything the library depends on goes into its key: the headers (include/*) and the
  // linker fragment, which programs find next to them (-L include).
  std::vector<std::pair<std::string, std::string>> headers;
  for (contract::OutputFile& f : contract::softwareFiles(config, contract::generatorName())) {
    const std::string name = fs::path(f.path).filename().string();
    headers.push_back({"include/" + name, std::move(f.text)});
  }
  std::string keyText = std::string("hal ") + halName(hal) + "\n";
  for (const auto& a : archFlags())
    keyText += a + "\n";
  for (const auto& f : driverSources())
    keyText += std::string(f.path) + "\n" + f.text;
  for (const auto& [p, t] : headers)
    keyText += p + "\n" + t;
  // Entries sit in the cache folder itself; `done` marks one complete (entries made before the
  // support cache were built in place and have it too).
  const support::DirectoryCache cache(support::cacheRoot(cacheDir), "done");
  const std::string name = "driver-" + config.name + "-" + config::configHash(config) + "-" +
                           halName(hal) + "-" + support::hashHex(keyText);
  DriverBuild b;
  b.dir = cache.entry(name);
  b.include = b.dir / "include";
  b.library = b.dir / "libby_driver.a";
  b.halDefine = std::string("-DBY_HAL_") + (hal == Hal::Rocc ? "ROCC" : "MMIO");
  cache.findOrMake(
      name, [&](const fs::path& staging) { buildDriver(staging, b.dir, headers, b.halDefine); });
  return b;
}

void linkProgram(const DriverBuild& d, const fs::path& workDir,
                 const std::vector<std::string>& sources, const fs::path& elf) {
  std::vector<std::string> argv = {gccProgram()};
  for (const auto& a : archFlags())
    argv.push_back(a);
  argv.insert(argv.end(), {"-O2", "-g", "-std=c99", "-Wall", "-Wextra", d.halDefine,
                           "-I" + d.include.string(), "-I" + (d.dir / "driver/include").string(),
                           "-I" + (d.dir / "driver/runtime/include").string(), "-nostartfiles",
                           "-T" + (d.dir / "driver/runtime/brickyard.ld").string(),
                           "-L" + d.include.string(), "-Wl,--gc-sections",
                           // The runtime's objects are all needed (crt0, console, exit).
                           "-Wl,--whole-archive", d.library.string(), "-Wl,--no-whole-archive"});
  argv.insert(argv.end(), sources.begin(), sources.end());
  argv.insert(argv.end(), {"-o", elf.string()});
  const fs::path log = workDir / "link.log";
  fs::remove(log);
  run(argv, workDir, log);
  fs::remove(log);
}

} // namespace by::compiler
