// The software side of an output: the C headers and the linker fragment a program for one
// config is built against. `brickyard gen` writes them next to the RTL; the compiler builds
// the driver against them without generating any RTL.
#pragma once

#include "config/config.h"

#include <string>
#include <vector>

namespace by::contract {

/// One file of a generated output, as text.
struct OutputFile {
  std::string path; // relative to the output directory, e.g. "include/brickyard_params.h"
  std::string text;
};

/// The generator identification written into every file header ("brickyard X.Y.Z").
std::string generatorName();

/// One row of the table of software files (software_files.cpp).
struct SoftwareFile {
  const char* key;  // its name in manifest.json "files"
  const char* path; // relative to the output directory
  std::string (*render)(const config::Config& config, const std::string& generator);
};

/// Every software file, in the order `brickyard gen` writes them: include/brickyard_params.h,
/// include/gemmini_params.h, include/brickyard_isa.h, include/brickyard_soc.h and
/// sw/brickyard_soc.ld.
const std::vector<SoftwareFile>& softwareFileTable();

/// The table's files rendered for `config`; deterministic.
std::vector<OutputFile> softwareFiles(const config::Config& config, const std::string& generator);

} // namespace by::contract
