// The adapter's sources (model_adapter.cpp and the headers it includes), compiled into
// Brickyard by the build (cmake/EmbedFiles.cmake) so that `brickyard sim` can build model
// libraries without the source tree, and so that changing them changes the cache key.
#pragma once

#include <vector>

namespace by::rtlmodel {

struct EmbeddedFile {
  const char* path; // relative to the build's source directory, e.g. "axi/axi_types.h"
  const char* text;
};

const std::vector<EmbeddedFile>& adapterSources();

} // namespace by::rtlmodel
