#include "support/install.h"

namespace by::support {

namespace fs = std::filesystem;

fs::path executablePath() {
  return fs::read_symlink("/proc/self/exe");
}

fs::path dataDir() {
  return executablePath().parent_path().parent_path() / "share" / "brickyard";
}

} // namespace by::support
