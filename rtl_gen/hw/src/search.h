// Index searches shared by the generators (free slots, completed entries, free IDs).
#pragma once

#include "vlog/ir.h"

#include <string>

namespace by::hw {

/// The lowest (or, with `highest`, the highest) index i < count for which `cond` (an expression
/// of the loop variable i) holds: declares and drives `any` and `index` (`width` bits, a width
/// expression) in an always_comb block.
void firstIndex(vlog::Body& b, const std::string& count, const std::string& cond,
                const std::string& any, const std::string& index, const std::string& width,
                bool highest = false);

} // namespace by::hw
