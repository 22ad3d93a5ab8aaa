// The caches and their one find-or-make. Every cache of Brickyard keeps its entries the same way:
//
//   <folder>/<name>             the entry, a file or a directory, complete or absent
//   <folder>/<name>.lock        held while the entry is made (support/file_lock.h)
//   <folder>/.<name>.make-<id>  the staging path it is made in, renamed to <name> when complete
//
// so that processes (and threads) that want the same entry make it once, the others wait for it,
// and an interrupted or failed make leaves no entry behind. What differs between caches is only
// when an entry is usable (it exists; it carries the right key; it recorded a success) and how
// it is made. The caches (docs/architecture.md, "Caches"): the simulators (sim/), the synthesized
// modules (synth/), the driver builds (driver-*/) and programs (programs/), eval's runs and areas
// (eval/runs, eval/area), and a sweep's point records (OUT_DIR/points/<id>/result.json).
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace by::support {

/// The cache folder: `given` if not empty, else $BRICKYARD_CACHE_DIR, else
/// $XDG_CACHE_HOME/brickyard, else $HOME/.cache/brickyard. Throws std::runtime_error when none
/// of them is set.
std::filesystem::path cacheRoot(const std::filesystem::path& given = {});

enum class Outcome {
  Found,   // usable as it was (or made by another process while this one waited)
  Made,    // made by this call
  NotKept, // made, but `make` said there was nothing worth keeping (e.g. a failed run)
};

struct Maker {
  /// Whether what is at `entry` (which may not exist) can be used as it is. Asked before
  /// taking the lock and again once it is held.
  std::function<bool(const std::filesystem::path& entry)> usable;
  /// Writes the entry at `staging`, a path next to it that does not exist yet (its folder does).
  /// Returns false when there is nothing to keep. An exception leaves no entry and propagates.
  std::function<bool(const std::filesystem::path& staging)> make;
  /// Called once when another holder of the lock is making the entry (may be empty).
  std::function<void()> waiting;
};

/// The entry at `entry`, from the cache or made into it.
Outcome findOrMake(const std::filesystem::path& entry, const Maker& maker);

/// A cache whose entries are directories, usable when their marker file exists (the file a
/// make writes last).
class DirectoryCache {
public:
  DirectoryCache(std::filesystem::path dir, std::string marker)
      : dir_(std::move(dir)), marker_(std::move(marker)) {}

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path entry(const std::string& name) const { return dir_ / name; }
  bool complete(const std::string& name) const;

  /// Entry `name`: found, or made by `make` into a fresh staging directory.
  Outcome findOrMake(const std::string& name,
                     const std::function<void(const std::filesystem::path& staging)>& make,
                     const std::function<void()>& waiting = {}) const;

private:
  std::filesystem::path dir_;
  std::string marker_;
};

} // namespace by::support
