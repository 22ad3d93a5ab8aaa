// Atomic output directories: files are written into a staging directory next to the target
// and the target is replaced only when everything has been written, so a failed run leaves
// an existing output untouched.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace by::emit {

/// The user asked for an output location Brickyard must not replace.
class OutputRefused : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class StagedDirectory {
public:
  /// Refuses (OutputRefused) a target that exists and is neither empty nor a previous
  /// Brickyard output (one holding a manifest.json written by Brickyard).
  explicit StagedDirectory(std::filesystem::path target);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Writes a file at a path relative to the output directory (parents are created).
  void write(const std::filesystem::path& relative, const std::string& content);
  /// Replaces the target with the staged directory.
  void commit();

  const std::filesystem::path& stagingPath() const { return staging_; }

private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

/// Writes one file atomically (temporary file in the same directory, then rename).
void writeFileAtomically(const std::filesystem::path& path, const std::string& content);

/// True when `dir` holds a manifest.json produced by Brickyard.
bool isBrickyardOutput(const std::filesystem::path& dir);

} // namespace by::emit
