// `brickyard gen`: everything written for one config, staged and committed atomically.
#pragma once

#include "config/config.h"

#include <filesystem>
#include <string>
#include <vector>

namespace by::emit {

/// One file of a generated output, as text.
struct OutputFile {
  std::string path; // relative to the output directory, e.g. "rtl/by_mesh.sv"
  std::string text;
};

struct GenerateResult {
  std::vector<std::string> files; // relative to the output directory
  std::string top;
  std::string configHash;
};

/// The generator identification written into every file header ("brickyard X.Y.Z").
std::string generatorName();

/// Everything `brickyard gen` writes for `config` (RTL, filelist, headers, manifest), in
/// memory; deterministic. `top` and `configHash` receive the top module and the config hash.
std::vector<OutputFile> renderOutputs(const config::Config& config,
                                      GenerateResult* result = nullptr);

/// Generates RTL, filelist, headers and manifest into `outDir` (replacing a previous
/// Brickyard output there, never anything else). Throws std::runtime_error on failure,
/// leaving `outDir` as it was.
GenerateResult generateOutputs(const config::Config& config, const std::filesystem::path& outDir);

} // namespace by::emit
