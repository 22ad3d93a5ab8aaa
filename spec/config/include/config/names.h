// Config names: `--config tiny` (and --configs, a sweep's base) names a shipped config, one of
// configs/*.yaml, which the build copies to <build>/share/brickyard/configs and `cmake
// --install` to <prefix>/share/brickyard/configs, next to the brickyard that reads them
// (support/install.h). Configs that exist only for tests (testbenches/configs) go by their path.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace by::config {

/// The folder of the shipped configs of this brickyard.
std::filesystem::path shippedConfigDir();

/// The names of the shipped configs, sorted.
std::vector<std::string> shippedConfigNames();

/// The file to load for a --config argument: `text` itself when it is an existing file or not a
/// plain name (it has a '/' or a '.'), else the shipped config of that name. Throws
/// support::InputError for a name that is no shipped config (listing them).
std::string resolveConfigArg(const std::string& text);

} // namespace by::config
