#include "support/tail.h"

#include <fstream>
#include <sstream>

namespace by::support {

std::string lastLines(std::string_view text, size_t lines) {
  while (!text.empty() && text.back() == '\n')
    text.remove_suffix(1);
  size_t at = text.size();
  while (at > 0 && lines > 0)
    if (text[--at] == '\n')
      --lines;
  if (text.size() > at && text[at] == '\n')
    ++at;
  while (at < text.size() && text[at] == '\n')
    ++at;
  return std::string(text.substr(at));
}

std::string tailOfFile(const std::filesystem::path& path, size_t lines) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  const std::string tail = lastLines(s.str(), lines);
  return tail.empty() ? tail : tail + "\n";
}

} // namespace by::support
