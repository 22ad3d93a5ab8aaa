#include "process.h"

#include <fstream>
#include <vector>

namespace by::rtlmodel {

std::string tailOfFile(const std::filesystem::path& path, int lines) {
  std::ifstream in(path);
  std::vector<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    kept.push_back(line);
    if (static_cast<int>(kept.size()) > lines)
      kept.erase(kept.begin());
  }
  std::string text;
  for (const std::string& line : kept)
    text += line + "\n";
  return text;
}

} // namespace by::rtlmodel
