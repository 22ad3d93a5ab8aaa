// File helpers: whole-file reads, atomic writes (a temporary next to the target renamed over
// it, so that a failure never leaves a half-written file), content hashes.
#pragma once

#include <cstdint>
#include <string>

namespace by::compiler {

std::string readFile(const std::string& path); // throws CompileError if unreadable
void writeFileAtomic(const std::string& path, const std::string& bytes);
/// FNV-1a 64-bit of bytes, as 16 hex digits.
std::string hashHex(const std::string& bytes);

} // namespace by::compiler
