// The end of a tool's output or log, for error messages ("yosys failed ...; the end of its
// log: ...").
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace by::support {

/// The last `lines` lines of `text`, without the newlines that end it (nor a leading one).
std::string lastLines(std::string_view text, size_t lines);

/// The last `lines` lines of a text file, each ending in a newline; empty when the file is
/// missing or empty.
std::string tailOfFile(const std::filesystem::path& path, size_t lines);

} // namespace by::support
