// Whole files in and out. Every file Brickyard writes for others to read (reports, cache
// entries, records, generated sources) is written atomically: into a temporary next to the
// target, renamed over it when complete, so a reader sees the old file or the new one, never
// half of one. A directory of outputs is staged the same way (StagedDirectory).
#pragma once

#include "support/errors.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace by::support {

/// A file could not be read or written: "PATH: cannot open the file: REASON",
/// "cannot write PATH: REASON".
class FileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The file's bytes. Throws FileError.
std::string readFile(const std::filesystem::path& path);

/// Writes `content` to `path` atomically (a temporary in the same directory, then rename),
/// creating missing parent directories (a user's `--out results/y.npy`). Throws FileError.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

/// The user asked for an output location Brickyard must not replace.
class OutputRefused : public InputError {
public:
  using InputError::InputError;
};

/// An output directory written as a whole: files go into a staging directory next to the
/// target, and commit() puts it in the target's place, so a failed run leaves an existing output
/// untouched. Destroyed uncommitted, the staging directory is removed.
class StagedDirectory {
public:
  /// Refuses (OutputRefused) a target that exists and is neither empty nor a previous
  /// Brickyard output (one holding a manifest.json written by Brickyard).
  explicit StagedDirectory(std::filesystem::path target);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Writes a file at a path relative to the output directory (parents are created).
  void write(const std::filesystem::path& relative, std::string_view content);
  /// Replaces the target with the staged directory.
  void commit();

  const std::filesystem::path& stagingPath() const { return staging_; }

private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

/// Files written into a staging directory next to `dir` and moved into `dir` by commit(), all
/// of them after all were written; the other files of `dir` stay (`brickyard compile -o OUT`).
/// Destroyed uncommitted, the staging directory is removed and `dir` is as it was.
class StagedFiles {
public:
  explicit StagedFiles(std::filesystem::path dir);
  ~StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  const std::filesystem::path& stagingPath() const { return staging_; }
  /// Moves every file of the staging directory into `dir` (created if missing).
  void commit();

private:
  std::filesystem::path dir_;
  std::filesystem::path staging_;
};

/// True when `dir` holds a manifest.json produced by Brickyard.
bool isBrickyardOutput(const std::filesystem::path& dir);

/// A name unique to this process and thread, for temporaries ("<pid>-<thread>").
std::string uniqueSuffix();

} // namespace by::support
