// Pieces shared by the Boveda compressor and decompressor generators: the parameter list,
// the derived sizes of a group, and the rank (prefix popcount) of a zero bitmap.
#pragma once

#include "hw/generators.h"

namespace by::hw::boveda {

/// Declares ElemWidth, GroupSize, HeaderBits, ContainerBits, ZeroAware and StreamWidth.
void declareParams(vlog::Module& m, const BovedaHwParams& p);

/// Port width of a value count 0..GroupSize.
inline const char* kCountType = "$clog2(GroupSize+1)";

/// Local parameters both directions use: CountWidth, WBits (a width code 0..ElemWidth),
/// BitmapBits, PayloadBits, MaxGroupBits (the largest encoded group), GroupLenWidth, PosWidth (a
/// bit position inside a container) and BufBits (the bit buffer: one group plus one word).
void declareGroupLocals(vlog::Body& b, int bufWords);

/// `rank` (GroupSize fields of CountWidth bits): field i = number of ones of `bitmap` below
/// bit i; `ones` = all ones of `bitmap`. Cost: GroupSize small adders in a chain.
void rankLogic(vlog::Body& b, const std::string& bitmap, const std::string& rank,
               const std::string& ones);

} // namespace by::hw::boveda
