#include "compiler/files.h"

#include "compiler/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace by::compiler {

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw CompileError(path + ": cannot open the file: " + std::strerror(errno));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void writeFileAtomic(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      throw CompileError("cannot write " + path + ": " + std::strerror(errno));
    f.write(bytes.data(), std::streamsize(bytes.size()));
    if (!f.flush()) {
      std::remove(tmp.c_str());
      throw CompileError("cannot write " + path + ": " + std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw CompileError("cannot write " + path + ": " + std::strerror(e));
  }
}

std::string hashHex(const std::string& bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

} // namespace by::compiler
