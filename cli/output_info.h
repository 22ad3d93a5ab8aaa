// Reading back what `brickyard gen` wrote (lint and synth operate on a generated directory).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace by::cli {

struct GeneratedOutput {
  std::filesystem::path dir;
  std::filesystem::path rtlDir;
  std::string top;
  std::string configName;
  std::vector<std::string> rtlFiles; // in filelist order, relative to rtlDir
};

/// Throws UsageError when `dir` is not a directory written by `brickyard gen`.
GeneratedOutput readGeneratedOutput(const std::string& dir);

} // namespace by::cli
