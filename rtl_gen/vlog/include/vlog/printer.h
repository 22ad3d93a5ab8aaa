// Prints the IR as SystemVerilog text in the project's style (lowRISC conventions: ANSI ports,
// two-space indent, aligned declarations, named generate blocks). Printing never mutates the IR.
#pragma once

#include "vlog/ir.h"

#include <string>

namespace by::vlog {

struct FileHeader {
  std::string generator;  // e.g. "brickyard 0.1.0"
  std::string configName; // config that produced the file
  std::string configHash;
};

/// Checks names (SystemVerilog keywords, duplicates, style suffixes) and throws
/// std::logic_error naming the module and the offending identifier: a generator bug.
void checkNames(const Module& module);

std::string printModule(const Module& module, const FileHeader& header);

} // namespace by::vlog
