#include "onnx_proto.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace by::compiler::onnxio {

int64_t Const::numel() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

bool Const::isInteger() const {
  return dataType != onnx::TensorProto_DataType_FLOAT &&
         dataType != onnx::TensorProto_DataType_DOUBLE &&
         dataType != onnx::TensorProto_DataType_FLOAT16;
}

namespace {

template <typename T> void appendRaw(const std::string& raw, std::vector<double>& out) {
  if (raw.size() % sizeof(T) != 0)
    throw std::runtime_error("raw_data of " + std::to_string(raw.size()) +
                             " bytes is not a whole number of elements");
  const size_t n = raw.size() / sizeof(T);
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out.push_back(double(v));
  }
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const int exp = (h >> 10) & 31;
  uint32_t mant = h & 1023;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 1024) == 0);
      bits = sign | uint32_t(127 - 15 - e) << 23 | (mant & 1023) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | uint32_t(exp - 15 + 127) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace

void inlineExternalData(onnx::ModelProto& model, const std::string& dir) {
  for (onnx::TensorProto& t : *model.mutable_graph()->mutable_initializer()) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL)
      continue;
    std::string location;
    int64_t offset = 0, length = -1;
    for (const onnx::StringStringEntryProto& kv : t.external_data()) {
      if (kv.key() == "location")
        location = kv.value();
      else if (kv.key() == "offset")
        offset = std::stoll(kv.value());
      else if (kv.key() == "length")
        length = std::stoll(kv.value());
    }
    const std::string what = "tensor '" + t.name() + "' stores its data in an external file";
    if (location.empty() || std::filesystem::path(location).is_absolute())
      throw std::runtime_error(what + " but names no location relative to the model");
    const std::filesystem::path file = std::filesystem::path(dir) / location;
    std::ifstream f(file, std::ios::binary | std::ios::ate);
    if (!f)
      throw std::runtime_error(what + ", '" + file.string() + "', which cannot be opened");
    const int64_t size = int64_t(f.tellg());
    if (length < 0)
      length = size - offset;
    if (offset < 0 || length < 0 || offset + length > size)
      throw std::runtime_error(what + ", '" + file.string() + "', of " + std::to_string(size) +
                               " bytes; it names bytes " + std::to_string(offset) + ".." +
                               std::to_string(offset + length));
    std::string data(size_t(length), '\0');
    f.seekg(offset);
    if (!f.read(data.data(), length))
      throw std::runtime_error(what + ", '" + file.string() + "', which cannot be read");
    t.set_raw_data(std::move(data));
    t.clear_external_data();
    t.set_data_location(onnx::TensorProto::DEFAULT);
  }
}

Const readTensor(const onnx::TensorProto& t) {
  using TP = onnx::TensorProto;
  Const c;
  c.dims.assign(t.dims().begin(), t.dims().end());
  c.dataType = t.data_type();
  if (t.data_location() == TP::EXTERNAL)
    throw std::runtime_error("tensor '" + t.name() +
                             "' stores its data in an external file, which is not supported "
                             "(save the model with all tensors inside it)");
  const std::string& raw = t.raw_data();
  const bool hasRaw = t.has_raw_data();
  switch (t.data_type()) {
  case TP::FLOAT:
    if (hasRaw)
      appendRaw<float>(raw, c.values);
    else
      c.values.assign(t.float_data().begin(), t.float_data().end());
    break;
  case TP::DOUBLE:
    if (hasRaw)
      appendRaw<double>(raw, c.values);
    else
      c.values.assign(t.double_data().begin(), t.double_data().end());
    break;
  case TP::FLOAT16:
    if (hasRaw) {
      std::vector<double> bits;
      appendRaw<uint16_t>(raw, bits);
      for (double b : bits)
        c.values.push_back(halfToFloat(uint16_t(b)));
    } else {
      for (int32_t b : t.int32_data())
        c.values.push_back(halfToFloat(uint16_t(b)));
    }
    break;
  case TP::INT8:
    if (hasRaw)
      appendRaw<int8_t>(raw, c.values);
    else
      for (int32_t v : t.int32_data())
        c.values.push_back(int8_t(v));
    break;
  case TP::UINT8:
    if (hasRaw)
      appendRaw<uint8_t>(raw, c.values);
    else
      for (int32_t v : t.int32_data())
        c.values.push_back(uint8_t(v));
    break;
  case TP::INT16:
  case TP::UINT16:
  case TP::BOOL:
  case TP::INT32:
    if (hasRaw) {
      if (t.data_type() == TP::INT16)
        appendRaw<int16_t>(raw, c.values);
      else if (t.data_type() == TP::UINT16)
        appendRaw<uint16_t>(raw, c.values);
      else if (t.data_type() == TP::BOOL)
        appendRaw<uint8_t>(raw, c.values);
      else
        appendRaw<int32_t>(raw, c.values);
    } else {
      c.values.assign(t.int32_data().begin(), t.int32_data().end());
    }
    break;
  case TP::INT64:
    if (hasRaw)
      appendRaw<int64_t>(raw, c.values);
    else
      c.values.assign(t.int64_data().begin(), t.int64_data().end());
    break;
  default:
    throw std::runtime_error("tensor '" + t.name() + "' has data type " +
                             TP::DataType_Name(TP::DataType(t.data_type())) +
                             ", which the compiler does not read");
  }
  if (int64_t(c.values.size()) != c.numel())
    throw std::runtime_error("tensor '" + t.name() + "' has " + std::to_string(c.values.size()) +
                             " values for dims " + dimsString(c.dims) + " (" +
                             std::to_string(c.numel()) + "); the file may be truncated");
  return c;
}

const onnx::AttributeProto* findAttr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t attrInt(const onnx::NodeProto& n, const std::string& name, int64_t dflt) {
  const auto* a = findAttr(n, name);
  return a ? a->i() : dflt;
}

float attrFloat(const onnx::NodeProto& n, const std::string& name, float dflt) {
  const auto* a = findAttr(n, name);
  return a ? a->f() : dflt;
}

std::string attrString(const onnx::NodeProto& n, const std::string& name, const std::string& dflt) {
  const auto* a = findAttr(n, name);
  return a ? a->s() : dflt;
}

std::vector<int64_t> attrInts(const onnx::NodeProto& n, const std::string& name,
                              const std::vector<int64_t>& dflt) {
  const auto* a = findAttr(n, name);
  return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : dflt;
}

bool staticShape(const onnx::ValueInfoProto& v, std::vector<int64_t>& dims, std::string* symbolic) {
  dims.clear();
  if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
    return false;
  for (const auto& d : v.type().tensor_type().shape().dim()) {
    if (!d.has_dim_value()) {
      if (symbolic)
        *symbolic = d.has_dim_param() ? d.dim_param() : "?";
      return false;
    }
    dims.push_back(d.dim_value());
  }
  return true;
}

std::string dimsString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

} // namespace by::compiler::onnxio
