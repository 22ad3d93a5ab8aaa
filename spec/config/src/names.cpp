#include "config/names.h"

#include "support/errors.h"
#include "support/install.h"

#include <algorithm>

namespace by::config {

namespace fs = std::filesystem;

fs::path shippedConfigDir() {
  return support::dataDir() / "configs";
}

std::vector<std::string> shippedConfigNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(shippedConfigDir(), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".yaml")
      names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string resolveConfigArg(const std::string& text) {
  if (text.empty() || fs::exists(text) || text.find('/') != std::string::npos ||
      text.find('.') != std::string::npos)
    return text;
  const fs::path shipped = shippedConfigDir() / (text + ".yaml");
  if (fs::exists(shipped))
    return shipped.string();
  std::string names;
  for (const std::string& n : shippedConfigNames())
    names += (names.empty() ? "" : ", ") + n;
  throw support::InputError("config '" + text + "' is neither a file nor a shipped config (" +
                            (names.empty() ? "none" : names) + " in " +
                            shippedConfigDir().string() +
                            "); a config of the tests goes by its path");
}

} // namespace by::config
