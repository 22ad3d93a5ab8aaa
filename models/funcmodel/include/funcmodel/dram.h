// The DRAM seen by the functional model's DMA: byte-addressed reads and writes that fail
// outside memory (the model turns a failure into DMA_ERROR, like an AXI error response).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace by::funcmodel {

class DramPort {
public:
  virtual ~DramPort() = default;
  /// Reads n bytes at addr into dst; false (and no defined dst contents) outside memory.
  virtual bool read(uint64_t addr, uint8_t* dst, size_t n) = 0;
  /// Writes n bytes from src at addr; false (and nothing written) outside memory.
  virtual bool write(uint64_t addr, const uint8_t* src, size_t n) = 0;
};

/// A flat memory of `size` bytes starting at `base`.
class DramImage : public DramPort {
public:
  DramImage(uint64_t base, size_t size) : base_(base), bytes_(size, 0) {}

  bool read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool write(uint64_t addr, const uint8_t* src, size_t n) override;

  uint64_t base() const { return base_; }
  size_t size() const { return bytes_.size(); }
  /// True when [addr, addr + n) lies inside the image.
  bool contains(uint64_t addr, size_t n) const;
  /// The byte at addr (must be inside the image).
  uint8_t& at(uint64_t addr);
  uint8_t at(uint64_t addr) const;
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
  uint64_t base_;
  std::vector<uint8_t> bytes_;
};

} // namespace by::funcmodel
