// The simulator cache: per-config model libraries (the Verilated by_accelerator and the
// adapter of model_abi.h in one shared object), built on first use and reused afterwards.
//
//   <cache>/sim/<config name>-<config hash>-<key>[-fst]/   one entry, complete or absent
//       libby_rtl_model.so    the model library
//       rtl/, include/, manifest.json    the generated sources it was built from
//       src/                 the adapter sources
//       build.json           what was built, with which tools, how long it took
//       build.log            Verilator's and the compiler's output
//   <cache>/sim/<entry>.lock           held while the entry is being built
//   <cache>/sim/<entry>.failed.log     the log of the last failed build, if any
//   (<cache>: support::cacheRoot, the --cache-dir of the command or its default)
//
// The config hash is that of the config with its `soc` section at the defaults: the RTL does
// not depend on it, so DRAM or clock sweeps reuse one build. The key hashes everything the
// library is built from: the generated RTL, the adapter sources, the Verilator and compiler
// flags, the ABI version and whether tracing is compiled in. An entry is built in a staging
// directory and renamed into place when complete, under a lock (support/cache.h, the find-or-make
// of every cache), so concurrent first runs build it once and an interrupted or failed build
// leaves no entry behind.
#pragma once

#include "config/config.h"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace by::rtlmodel {

/// Building a model failed (tool missing, Verilator or compiler error). One line plus, for
/// tool errors, the tail of the build log.
class BuildError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct CacheOptions {
  std::filesystem::path cacheDir; // empty: support::cacheRoot()'s default
  bool trace = false;             // the variant with FST tracing compiled in
  bool quiet = false;             // no progress messages on stderr
};

struct CachedModel {
  std::filesystem::path entry;   // the cache entry directory
  std::filesystem::path library; // entry / libby_rtl_model.so
  bool built = false;            // built by this call; false: found in the cache
  double buildSeconds = 0;       // when built
};

/// The entry name for `config` ("<name>-<hash>-<key>[-fst]"), without building anything.
std::string cacheEntryName(const config::Config& config, bool trace);

/// The model library for `config`, from the cache or built into it. Throws BuildError.
CachedModel findOrBuildModel(const config::Config& config, const CacheOptions& options);

} // namespace by::rtlmodel
