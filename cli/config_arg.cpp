#include "config_arg.h"

#include "command.h"

#include <filesystem>

namespace by::cli {

std::string resolveConfigArg(const std::string& text) {
  namespace fs = std::filesystem;
  if (text.empty() || fs::exists(text) || text.find('/') != std::string::npos ||
      text.find('.') != std::string::npos)
    return text;
  for (const char* dir : {"configs", "testbenches/configs"}) {
    const fs::path p = fs::path(BY_SOURCE_DIR) / dir / (text + ".yaml");
    if (fs::exists(p))
      return p.string();
  }
  throw UsageError("config '" + text + "' is neither a file nor a config name in " +
                   std::string(BY_SOURCE_DIR) + "/configs or testbenches/configs");
}

} // namespace by::cli
