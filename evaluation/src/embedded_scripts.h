// The plot scripts, compiled into Brickyard by the build (cmake/EmbedFiles.cmake): an installed
// brickyard draws its plots without the source tree.
#pragma once

#include <vector>

namespace by::eval {

struct EmbeddedFile {
  const char* path; // the script's name, e.g. "eval_plots.py"
  const char* text;
};

const std::vector<EmbeddedFile>& plotScripts();

} // namespace by::eval
