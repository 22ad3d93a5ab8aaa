// `brickyard gen`: everything written for one config, staged and committed atomically.
#pragma once

#include "config/config.h"
#include "contract/software_files.h"

#include <filesystem>
#include <string>
#include <vector>

namespace by::emit {

using contract::OutputFile;

struct GenerateResult {
  std::vector<std::string> files; // relative to the output directory
  std::string top;
  std::string configHash;
};

/// Everything `brickyard gen` writes for `config` (RTL, filelist, and the headers, linker
/// fragment and manifest of contract/), in memory; deterministic. `top` and `configHash`
/// receive the top module and the config hash.
std::vector<OutputFile> renderOutputs(const config::Config& config,
                                      GenerateResult* result = nullptr);

/// Generates RTL, filelist, headers and manifest into `outDir` (replacing a previous
/// Brickyard output there, never anything else). Throws std::runtime_error on failure,
/// leaving `outDir` as it was.
GenerateResult generateOutputs(const config::Config& config, const std::filesystem::path& outDir);

} // namespace by::emit
