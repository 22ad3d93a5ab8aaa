#include "boveda_spec/params.h"

#include "config/config.h"

#include <sstream>
#include <stdexcept>

namespace by::boveda {

namespace {

// Ranges of the format; the group, header and container ranges equal those of the YAML
// schema (compression.boveda.*) so that every valid config is a valid codec.
constexpr int kMinGroupSize = 2, kMaxGroupSize = 64;
constexpr int kMinHeaderBits = 2, kMaxHeaderBits = 6;
constexpr int kMinContainerBits = 64, kMaxContainerBits = 4096;
constexpr int kMaxBlockValues = 1 << 24;
constexpr int kMaxPointerBits = 32;

bool isPowerOfTwo(int v) {
  return v > 0 && (v & (v - 1)) == 0;
}

[[noreturn]] void reject(const std::string& what, int value, const std::string& allowed) {
  throw std::invalid_argument("boveda: " + what + " = " + std::to_string(value) + " is invalid; " +
                              allowed);
}

} // namespace

int BovedaParams::minHeaderBits(int elementBits) {
  // Widths 0..elementBits are elementBits+1 codes.
  int bits = 0;
  while ((1 << bits) < elementBits + 1)
    ++bits;
  return bits;
}

int BovedaParams::maxGroupBits() const {
  return (sameWidthShortcut ? 1 : 0) + headerBits + (zeroAware ? groupSize : 0) +
         groupSize * elementBits;
}

void BovedaParams::validate() const {
  if (elementBits != 8 && elementBits != 16)
    reject("element width (types.input_width)", elementBits, "expected 8 or 16");
  if (groupSize < kMinGroupSize || groupSize > kMaxGroupSize || !isPowerOfTwo(groupSize))
    reject("compression.boveda.group_size", groupSize, "expected a power of two in 2..64");
  if (headerBits < kMinHeaderBits || headerBits > kMaxHeaderBits)
    reject("compression.boveda.header_bits", headerBits, "expected 2..6");
  const int need = minHeaderBits(elementBits);
  if (headerBits < need)
    reject("compression.boveda.header_bits", headerBits,
           "a " + std::to_string(headerBits) + "-bit header cannot encode every group width 0.." +
               std::to_string(elementBits) + " of " + std::to_string(elementBits) +
               "-bit elements; expected at least " + std::to_string(need));
  if (containerBits < kMinContainerBits || containerBits > kMaxContainerBits ||
      !isPowerOfTwo(containerBits))
    reject("compression.boveda.container_bits", containerBits,
           "expected a power of two in 64..4096");
  if (blockValues < 1 || blockValues > kMaxBlockValues)
    reject("block size (values per block)", blockValues,
           "expected 1.." + std::to_string(kMaxBlockValues));
  if (pointerBits < 1 || pointerBits > kMaxPointerBits)
    reject("pointer width (bits per block pointer)", pointerBits, "expected 1..32");
}

std::string BovedaParams::describe() const {
  std::ostringstream s;
  s << "w" << elementBits << " g" << groupSize << " h" << headerBits << " c" << containerBits
    << " b" << blockValues << " p" << pointerBits << " za=" << zeroAware
    << " same=" << sameWidthShortcut;
  return s.str();
}

BovedaParams paramsFromConfig(const config::BovedaConfig& cfg, int inputWidth, int blockValues) {
  BovedaParams p;
  p.elementBits = inputWidth;
  p.groupSize = cfg.groupSize;
  p.headerBits = cfg.headerBits;
  p.containerBits = cfg.containerBits;
  p.blockValues = blockValues;
  p.zeroAware = cfg.zeroAware;
  p.validate();
  return p;
}

} // namespace by::boveda
