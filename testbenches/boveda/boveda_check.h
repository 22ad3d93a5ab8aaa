// Test-side references for the Boveda codec, written independently of the codec's sources:
// a brute-force width, a bit-string to stream converter for hand-computed examples, and the
// round-trip check (decode everything, every block alone, compare with measure()).
#pragma once

#include "boveda/codec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace by::boveda::test {

/// Smallest w such that v fits w-bit two's complement (0 for 0), by trying every w.
int referenceWidth(int32_t v);

/// A stream written as '0'/'1' characters in stream order (bit 0 first; spaces ignored),
/// zero-extended to `totalBits`, as little-endian 32-bit words.
std::vector<uint32_t> wordsFromBits(const std::string& bits, uint64_t totalBits);

/// Compresses `values`, then checks: decompress() and decompressBlock() of every block give
/// the values back; stats equal measure() and the sizes of the words and pointers produced;
/// group counts and the width histogram equal those from referenceWidth(). Reports gtest
/// failures; returns the stats.
template <typename T>
CompressionStats checkRoundTrip(const BovedaParams& p, const std::vector<T>& values,
                                const std::string& what);

} // namespace by::boveda::test
