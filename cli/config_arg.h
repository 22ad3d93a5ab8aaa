// A --config argument: a YAML path, or the name of a shipped or test config ("tiny",
// "td8") looked up in configs/ and testbenches/configs/ of the source tree.
#pragma once

#include <string>

namespace by::cli {

/// The path to load for `text`; `text` itself when it names an existing file or is not a
/// plain name. Throws UsageError for a name that matches no config.
std::string resolveConfigArg(const std::string& text);

} // namespace by::cli
