#include "compiler/npy.h"

#include "compiler/error.h"
#include "compiler/files.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace by::compiler {
namespace {

/// The value of `key` in the header dict, up to the next top-level comma or brace.
std::string headerField(const std::string& h, const std::string& key) {
  const size_t k = h.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t p = h.find(':', k);
  if (p == std::string::npos)
    return "";
  ++p;
  while (p < h.size() && h[p] == ' ')
    ++p;
  size_t e = p;
  if (h[p] == '(') {
    e = h.find(')', p);
    return e == std::string::npos ? "" : h.substr(p, e - p + 1);
  }
  while (e < h.size() && h[e] != ',' && h[e] != '}')
    ++e;
  return h.substr(p, e - p);
}

template <typename T> void readValues(const char* data, int64_t n, std::vector<double>& out) {
  out.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, data + i * int64_t(sizeof(T)), sizeof(T));
    out[size_t(i)] = double(v);
  }
}

std::string header(const std::string& descr, const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "");
  s += ")";
  std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + s + ", }";
  // Magic (6) + version (2) + length (2) + header + newline, padded to 64 bytes.
  const size_t total = 10 + h.size() + 1;
  h += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(h.size() & 0xff);
  out += char(h.size() >> 8);
  return out + h;
}

} // namespace

int64_t NpyArray::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

NpyArray readNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw CompileError(path + ": cannot open the file");
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string b = ss.str();
  if (b.size() < 10 || b.compare(0, 6, "\x93NUMPY") != 0)
    throw CompileError(path + ": not a .npy file (no NUMPY magic)");
  const int major = uint8_t(b[6]);
  size_t hlen, hstart;
  if (major == 1) {
    hlen = uint8_t(b[8]) | size_t(uint8_t(b[9])) << 8;
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12)
      throw CompileError(path + ": truncated .npy header");
    hlen = uint8_t(b[8]) | size_t(uint8_t(b[9])) << 8 | size_t(uint8_t(b[10])) << 16 |
           size_t(uint8_t(b[11])) << 24;
    hstart = 12;
  } else {
    throw CompileError(path + ": .npy format version " + std::to_string(major) +
                       " is not supported");
  }
  if (b.size() < hstart + hlen)
    throw CompileError(path + ": truncated .npy header");
  const std::string h = b.substr(hstart, hlen);
  NpyArray a;
  std::string descr = headerField(h, "descr");
  if (descr.size() < 2)
    throw CompileError(path + ": .npy header has no dtype");
  descr = descr.substr(1, descr.size() - 2); // strip quotes
  if (headerField(h, "fortran_order").find("True") != std::string::npos)
    throw CompileError(path + ": Fortran-order arrays are not supported (save a C-order array)");
  if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '|'))
    a.dtype = descr.substr(1);
  else
    throw CompileError(path + ": dtype '" + descr +
                       "' is not supported (little-endian float32/64, int8, uint8, int32, int64)");
  const std::string shape = headerField(h, "shape");
  for (size_t p = 1; p < shape.size();) {
    while (p < shape.size() && (shape[p] == ' ' || shape[p] == ','))
      ++p;
    if (p >= shape.size() || shape[p] == ')')
      break;
    size_t e = p;
    while (e < shape.size() && isdigit(uint8_t(shape[e])))
      ++e;
    if (e == p)
      throw CompileError(path + ": cannot read the shape " + shape);
    a.shape.push_back(std::stoll(shape.substr(p, e - p)));
    p = e;
  }
  const char* data = b.data() + hstart + hlen;
  const int64_t avail = int64_t(b.size() - hstart - hlen);
  const int64_t n = a.numel();
  int size = 0;
  if (a.dtype == "f4" || a.dtype == "i4")
    size = 4;
  else if (a.dtype == "f8" || a.dtype == "i8")
    size = 8;
  else if (a.dtype == "i1" || a.dtype == "u1")
    size = 1;
  else
    throw CompileError(path + ": dtype '" + descr +
                       "' is not supported (float32/64, int8, uint8, int32, int64)");
  if (avail < n * size)
    throw CompileError(path + ": truncated data (" + std::to_string(avail) + " bytes for " +
                       std::to_string(n) + " elements of " + std::to_string(size) + ")");
  if (a.dtype == "f4")
    readValues<float>(data, n, a.values);
  else if (a.dtype == "f8")
    readValues<double>(data, n, a.values);
  else if (a.dtype == "i4")
    readValues<int32_t>(data, n, a.values);
  else if (a.dtype == "i8")
    readValues<int64_t>(data, n, a.values);
  else if (a.dtype == "i1")
    readValues<int8_t>(data, n, a.values);
  else
    readValues<uint8_t>(data, n, a.values);
  return a;
}

void writeNpyFloat(const std::string& path, const std::vector<int64_t>& shape,
                   const std::vector<float>& values) {
  std::string out = header("<f4", shape);
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  writeFileAtomic(path, out);
}

void writeNpyInt8(const std::string& path, const std::vector<int64_t>& shape,
                  const std::vector<int8_t>& values) {
  std::string out = header("|i1", shape);
  out.append(reinterpret_cast<const char*>(values.data()), values.size());
  writeFileAtomic(path, out);
}

} // namespace by::compiler
