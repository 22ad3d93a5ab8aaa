#include "funcmodel/dram.h"

#include <cstring>
#include <stdexcept>

namespace by::funcmodel {

bool DramImage::contains(uint64_t addr, size_t n) const {
  // Written to avoid overflow for addresses near 2^64.
  return addr >= base_ && addr - base_ <= bytes_.size() && n <= bytes_.size() - (addr - base_);
}

bool DramImage::read(uint64_t addr, uint8_t* dst, size_t n) {
  if (!contains(addr, n))
    return false;
  if (n != 0)
    std::memcpy(dst, bytes_.data() + (addr - base_), n);
  return true;
}

bool DramImage::write(uint64_t addr, const uint8_t* src, size_t n) {
  if (!contains(addr, n))
    return false;
  if (n != 0)
    std::memcpy(bytes_.data() + (addr - base_), src, n);
  return true;
}

uint8_t& DramImage::at(uint64_t addr) {
  if (!contains(addr, 1))
    throw std::out_of_range("DramImage::at: address outside the image");
  return bytes_[addr - base_];
}

uint8_t DramImage::at(uint64_t addr) const {
  return const_cast<DramImage*>(this)->at(addr);
}

} // namespace by::funcmodel
