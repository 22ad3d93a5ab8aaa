#include "packed_layout.h"

#include <algorithm>
#include <stdexcept>

namespace by::hw {

PackedLayout& PackedLayout::field(const std::string& name, int width, const std::string& doc) {
  if (width <= 0)
    throw std::logic_error("PackedLayout: field " + name + " has no bits");
  fields_.push_back({name, width, width_, doc});
  width_ += width;
  return *this;
}

bool PackedLayout::has(const std::string& name) const {
  for (const Field& f : fields_)
    if (f.name == name)
      return true;
  return false;
}

const PackedLayout::Field& PackedLayout::at(const std::string& name) const {
  for (const Field& f : fields_)
    if (f.name == name)
      return f;
  throw std::logic_error("PackedLayout: no field " + name);
}

std::string PackedLayout::slice(const std::string& vec, const std::string& name) const {
  const Field& f = at(name);
  if (f.width == 1)
    return vec + "[" + std::to_string(f.lsb) + "]";
  return vec + "[" + std::to_string(f.lsb + f.width - 1) + ":" + std::to_string(f.lsb) + "]";
}

std::string PackedLayout::pack(const std::map<std::string, std::string>& values) const {
  for (const auto& [name, value] : values)
    (void)at(name); // a typo in a field name is a generator bug
  std::string out = "{";
  for (size_t i = fields_.size(); i-- > 0;) {
    const Field& f = fields_[i];
    auto it = values.find(f.name);
    out += it != values.end() ? it->second : std::to_string(f.width) + "'(0)";
    out += i ? ", " : "}";
  }
  return out;
}

void PackedLayout::unpack(vlog::Body& body, const std::string& vec, const std::string& prefix,
                          const std::vector<std::string>& only) const {
  auto wanted = [&](const Field& f) {
    return only.empty() || std::find(only.begin(), only.end(), f.name) != only.end();
  };
  for (const std::string& name : only)
    (void)at(name);
  for (const Field& f : fields_)
    if (wanted(f))
      body.logic(prefix + f.name, vlog::Type::bits(f.width), f.doc);
  for (const Field& f : fields_)
    if (wanted(f))
      body.assign(prefix + f.name, slice(vec, f.name));
}

std::string PackedLayout::describe() const {
  std::string out;
  for (const Field& f : fields_)
    out += (out.empty() ? "" : ", ") + f.name + " [" + std::to_string(f.lsb + f.width - 1) + ":" +
           std::to_string(f.lsb) + "]";
  return out;
}

} // namespace by::hw
