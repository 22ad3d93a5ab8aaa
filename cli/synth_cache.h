// The synthesis cache of `brickyard synth` (docs/area.md, "Per-module synthesis"):
//
//   <cache>/synth/<module>-<key>/   one synthesized module, complete or absent:
//       input.il, synth.ys           what Yosys read (the module and its children's stubs)
//       stat.json, srams.txt         its cell statistics and SRAM macro cells
//       yosys.log, run.json          the log; module, key, Yosys version, seconds
//   <cache>/synth/<module>-<key>.lock    held while the entry is made
//   <cache>/synth/plans/<key>.json  the modules (and their keys) an RTL elaborates into
//
// As in the simulator cache, an entry is made in a staging directory and renamed into place
// under a lock, so concurrent runs make it once and an interrupted run leaves nothing behind.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace by::cli {

/// FNV-1a, 64 bits, as 16 hex digits: the cache keys.
class KeyHash {
public:
  KeyHash& add(const std::string& text);
  std::string hex() const;

private:
  unsigned long long h_ = 14695981039346656037ull;
};

class SynthCache {
public:
  explicit SynthCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path entry(const std::string& name) const { return dir_ / name; }
  /// The entry exists (its run.json is written last, and the entry renamed into place).
  bool complete(const std::string& name) const;

  /// Makes entry `name` unless it exists: `make` fills a staging directory, which is renamed
  /// into place. Another process making the same entry is waited for. Returns true when this
  /// call made it. Exceptions from `make` propagate; the staging directory is removed.
  bool findOrMake(const std::string& name,
                  const std::function<void(const std::filesystem::path& staging)>& make) const;

private:
  std::filesystem::path dir_;
};

} // namespace by::cli
