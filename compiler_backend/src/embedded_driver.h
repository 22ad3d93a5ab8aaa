// The driver and bare-metal runtime sources (driver/src, driver/include, driver/runtime),
// compiled into Brickyard by the build (cmake/EmbedFiles.cmake) so that `brickyard compile`
// builds programs without the source tree, and so that changing them changes the cache key.
#pragma once

#include <vector>

namespace by::compiler {

struct EmbeddedFile {
  const char* path; // relative to driver/, e.g. "src/conv.c", "runtime/brickyard.ld"
  const char* text;
};

const std::vector<EmbeddedFile>& driverSources();

} // namespace by::compiler
