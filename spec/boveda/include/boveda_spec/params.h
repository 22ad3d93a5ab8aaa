// Parameters of the Boveda codec (docs/boveda.md). One struct describes the bit format for
// every party that must agree on it: the C++ reference codec, the generated RTL
// compressor/decompressor and the compiler that pre-compresses weights.
#pragma once

#include <string>

namespace by::config {
struct BovedaConfig;
}

namespace by::boveda {

struct BovedaParams {
  int elementBits = 8;     // signed two's-complement element width: 8 or 16
  int groupSize = 16;      // values per group (power of two, 2..64); one width per group
  int headerBits = 4;      // width field per group (2..6); must hold every width 0..elementBits
  int containerBits = 512; // container ("brick"), power of two 64..4096; blocks start on one
  int blockValues = 64;    // values per randomly accessible block (>= 1)
  int pointerBits = 32;    // width of one pointer-table entry (a container index), 1..32
  bool zeroAware = false;  // per-group zero bitmap; only non-zero values are stored
  bool sameWidthShortcut = false; // 1-bit "same width as the previous group" flag per group

  /// Throws std::invalid_argument naming the offending parameter and what is allowed.
  void validate() const;
  /// One line such as "w8 g16 h4 c512 b64 p32 za=0 same=0", for test output and reports.
  std::string describe() const;

  /// Largest encoding of one group (flag + header + bitmap + full-width payload): what a
  /// hardware unpacker's window must hold beyond one container.
  int maxGroupBits() const;

  /// Smallest width header that encodes every group width 0..elementBits.
  static int minHeaderBits(int elementBits);
};

/// Parameters of a validated YAML config (compression.boveda) for elements of `inputWidth`
/// bits (types.input_width) and blocks of `blockValues` values (e.g. DIM for one scratchpad
/// row). The config has no key for the same-width shortcut or the pointer width, so these
/// keep their defaults (off, 32 bits). `onChip` and `enabled` do not change the bit format.
/// Throws std::invalid_argument if the combination is not encodable (e.g. header_bits 4
/// with 16-bit elements).
BovedaParams paramsFromConfig(const config::BovedaConfig& cfg, int inputWidth, int blockValues);

} // namespace by::boveda
