#include "compiler/files.h"

#include "compiler/error.h"
#include "support/files.h"

namespace by::compiler {

std::string readFile(const std::string& path) {
  try {
    return support::readFile(path);
  } catch (const support::FileError& e) {
    throw CompileError(e.what());
  }
}

void writeFileAtomic(const std::string& path, const std::string& bytes) {
  try {
    support::writeFileAtomically(path, bytes);
  } catch (const support::FileError& e) {
    throw CompileError(e.what());
  }
}

} // namespace by::compiler
