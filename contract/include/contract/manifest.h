// manifest.json: the config echo, derived sizes, the mesh's port widths, the module list and
// the files of an output, with the config hash.
#pragma once

#include "config/config.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace by::contract {

/// What the RTL of an output adds to its manifest (rtl_gen/emit describes what it wrote).
struct RtlSummary {
  struct Module {
    std::string name;
    std::string file; // relative to the output directory
    std::vector<std::string> instantiates;
  };
  std::string top;
  std::vector<Module> modules; // dependency order
  std::string filelist;        // relative to the output directory
};

nlohmann::ordered_json buildManifest(const config::Config& config, const RtlSummary& rtl,
                                     const std::string& generator);

/// The config echo alone (typed values, schema order).
nlohmann::ordered_json configJson(const config::Config& config);

} // namespace by::contract
