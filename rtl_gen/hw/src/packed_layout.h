// Named fields packed into one bit vector: the operation words that travel between the
// decoder, the reservation station and the controllers. One layout object is used by the
// packing and the unpacking side, so the two can never disagree.
#pragma once

#include "vlog/ir.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace by::hw {

class PackedLayout {
public:
  struct Field {
    std::string name;
    int width;
    int lsb;
    std::string doc;
  };

  PackedLayout& field(const std::string& name, int width, const std::string& doc = "");
  int width() const { return width_; }
  const Field& at(const std::string& name) const;
  const std::vector<Field>& fields() const { return fields_; }
  bool has(const std::string& name) const;

  /// "vec[hi:lo]" for a field (or "vec[lo]" for one bit).
  std::string slice(const std::string& vec, const std::string& name) const;
  /// "{a, b, c}" with the value expressions of every field, MSB first; fields missing from
  /// `values` are packed as zero.
  std::string pack(const std::map<std::string, std::string>& values) const;
  /// Declares `<prefix><field>` signals for every field (or only `only`) and assigns them from
  /// `vec`.
  void unpack(vlog::Body& body, const std::string& vec, const std::string& prefix,
              const std::vector<std::string>& only = {}) const;
  /// A comment listing the layout (field: bits), for the module that defines it.
  std::string describe() const;

private:
  std::vector<Field> fields_;
  int width_ = 0;
};

} // namespace by::hw
