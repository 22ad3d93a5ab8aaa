// Errors that say whose fault a failure is. Brickyard's commands exit with 2 when the user's
// input was rejected (a bad option, config, model or output location) and with 1 when a tool
// or the design failed; a library says which by the type it throws.
#pragma once

#include <stdexcept>

namespace by::support {

/// The user's input was rejected: the command prints the message and exits with 2.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace by::support
