// Rules that involve more than one key (the per-key type and range checks are in the loader).
#pragma once

#include "config/config.h"

#include <functional>
#include <string>

namespace by::config {

/// Calls `fail(key, message)` (which must throw) for the first violated rule.
void validateAcrossKeys(
    const Config& config,
    const std::function<void(const std::string& key, const std::string& message)>& fail);

} // namespace by::config
