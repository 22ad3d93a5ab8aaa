// The compiler's file access: support/files.h with the compiler's error policy. A file the user
// named that cannot be read, or an output that cannot be written, is rejected input: a
// CompileError (exit 2) naming the file.
#pragma once

#include <string>

namespace by::compiler {

std::string readFile(const std::string& path); // throws CompileError if unreadable
/// support::writeFileAtomically; throws CompileError if the file cannot be written.
void writeFileAtomic(const std::string& path, const std::string& bytes);

} // namespace by::compiler
