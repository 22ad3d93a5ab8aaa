// The tail of a build log, for error messages (the builds themselves run through
// process/process.h).
#pragma once

#include <filesystem>
#include <string>

namespace by::rtlmodel {

/// The last `lines` lines of a text file.
std::string tailOfFile(const std::filesystem::path& path, int lines);

} // namespace by::rtlmodel
