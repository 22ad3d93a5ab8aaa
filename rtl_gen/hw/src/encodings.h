// Encodings that travel between the controllers inside operation words and on ports, each
// defined once here. Every module that uses one declares it as a typedef enum (declareEnum),
// so the RTL names values (OpLoad, StorePool, ...) instead of writing 2'dN.
#pragma once

#include "vlog/ir.h"

#include <string>
#include <utility>
#include <vector>

namespace by::hw {

struct Encoding {
  std::string type;                                        // the enum type's name, e.g. op_kind_e
  int width;                                               // bits
  std::vector<std::pair<std::string, std::string>> values; // (name, meaning), numbered 0, 1, ...

  /// The code of value `name` (its index); throws std::logic_error for an unknown name.
  int code(const std::string& name) const;
};

/// The kind of an operation in the reservation station: OpLoad, OpStore, OpExec.
const Encoding& opKindEncoding();
/// An MVOUT's walk (the store op word's `mode`): StoreRows, StorePool, StoreStrided.
const Encoding& storeModeEncoding();
/// A load operation's channel (the funct an error reports): ChMvin, ChMvin2, ChMvin3,
/// ChDecompress.
const Encoding& loadChannelEncoding();

/// Declares `typedef enum logic [w-1:0] {...} <type>;` in the module body.
void declareEnum(vlog::Body& b, const Encoding& e);

} // namespace by::hw
