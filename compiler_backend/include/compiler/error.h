// Errors of the compiler backend. A CompileError is the user's input rejected (a malformed or
// unsupported model, a bad option or input file): one line, exit code 2 at the command line.
// Anything else thrown is an internal error.
#pragma once

#include <stdexcept>
#include <string>

namespace by::compiler {

class CompileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// "node 'NAME' (OP): what" — the form every per-node error takes.
inline CompileError nodeError(const std::string& node, const std::string& op,
                              const std::string& what) {
  return CompileError("node '" + node + "' (" + op + "): " + what);
}

} // namespace by::compiler
