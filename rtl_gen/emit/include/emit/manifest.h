// manifest.json: the config echo, derived sizes, the module list and the config hash.
#pragma once

#include "config/config.h"
#include "hw/design.h"

#include <nlohmann/json.hpp>
#include <string>

namespace by::emit {

nlohmann::ordered_json buildManifest(const config::Config& config, const hw::GeneratedDesign& gen,
                                     const std::string& generator);

/// The config echo alone (typed values, schema order), also used by reports.
nlohmann::ordered_json configJson(const config::Config& config);

} // namespace by::emit
