// Where the running Brickyard is, and the files installed with it. The layout is the same in
// the build tree and in an installed prefix, so a build and an installation find their files
// alike, and neither needs the source tree:
//
//   <prefix>/bin/brickyard
//   <prefix>/share/brickyard/configs/*.yaml    the shipped configs (brickyard --config NAME)
#pragma once

#include <filesystem>

namespace by::support {

/// This process' executable (/proc/self/exe): what eval and sweep run their children with.
std::filesystem::path executablePath();

/// <prefix>/share/brickyard, where <prefix>/bin holds the executable.
std::filesystem::path dataDir();

} // namespace by::support
