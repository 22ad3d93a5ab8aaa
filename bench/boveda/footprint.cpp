// Boveda footprint of real tensors (docs/boveda.md, "Measured"): reads the int8 tensors that
// bench/boveda/train_int8_net.py dumped and compresses each one as an accelerator moves it,
// in blocks of one DIM x DIM tile (row-major within the tile; edge tiles are smaller), with
// the reference codec. Prints, per tensor and per kind, the size relative to the raw tensor
// for several formats, and the zero-compression baseline (a bitmap per tile plus the non-zero
// bytes, padded to the same containers). Pointer entries (8 bytes per block, docs/isa.md)
// are included.
//
//   bench_boveda_footprint DIR [DIM]       (DIM default 16)
#include "boveda/codec.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace by;

namespace {

struct Tensor {
  std::string name, kind;
  int rows = 0, cols = 0;
  std::vector<int8_t> values;
};

struct Format {
  std::string label;
  int group, container;
  bool zeroAware;
};

constexpr int kEntryBits = 64;

/// Bits of the tensor compressed tile by tile: stream plus one pointer entry per tile.
uint64_t bovedaBits(const Tensor& t, int dim, const Format& f) {
  uint64_t bits = 0;
  for (int r0 = 0; r0 < t.rows; r0 += dim)
    for (int c0 = 0; c0 < t.cols; c0 += dim) {
      std::vector<int8_t> tile;
      for (int r = r0; r < std::min(t.rows, r0 + dim); ++r)
        for (int c = c0; c < std::min(t.cols, c0 + dim); ++c)
          tile.push_back(t.values[static_cast<size_t>(r) * t.cols + c]);
      boveda::BovedaParams p;
      p.groupSize = f.group;
      p.headerBits = 4;
      p.containerBits = f.container;
      p.zeroAware = f.zeroAware;
      p.blockValues = static_cast<int>(tile.size());
      bits += boveda::measure(p, tile).streamBits() + kEntryBits;
    }
  return bits;
}

/// Zero compression alone: per tile a bitmap and the non-zero bytes, padded to containers.
uint64_t zeroCompression(const Tensor& t, int dim, int container) {
  uint64_t bits = 0;
  for (int r0 = 0; r0 < t.rows; r0 += dim)
    for (int c0 = 0; c0 < t.cols; c0 += dim) {
      uint64_t n = 0, nz = 0;
      for (int r = r0; r < std::min(t.rows, r0 + dim); ++r)
        for (int c = c0; c < std::min(t.cols, c0 + dim); ++c) {
          ++n;
          nz += t.values[static_cast<size_t>(r) * t.cols + c] != 0;
        }
      const uint64_t raw = n + 8 * nz;
      bits += (raw + container - 1) / container * container + kEntryBits;
    }
  return bits;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [DIM]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const int dim = argc > 2 ? std::stoi(argv[2]) : 16;
  std::ifstream list(dir + "/tensors.txt");
  if (!list) {
    std::fprintf(stderr, "%s/tensors.txt: cannot read (run train_int8_net.py first)\n",
                 dir.c_str());
    return 2;
  }
  std::vector<Tensor> tensors;
  for (std::string line; std::getline(list, line);) {
    std::istringstream in(line);
    Tensor t;
    if (!(in >> t.name >> t.kind >> t.rows >> t.cols))
      continue;
    t.values.resize(static_cast<size_t>(t.rows) * t.cols);
    std::ifstream data(dir + "/" + t.name + ".i8", std::ios::binary);
    data.read(reinterpret_cast<char*>(t.values.data()),
              static_cast<std::streamsize>(t.values.size()));
    if (!data) {
      std::fprintf(stderr, "%s/%s.i8: short or missing\n", dir.c_str(), t.name.c_str());
      return 2;
    }
    tensors.push_back(t);
  }
  const std::vector<Format> formats = {
      {"G8 C64", 8, 64, false},     {"G16 C64", 16, 64, false}, {"G16 C128", 16, 128, false},
      {"G16 C512", 16, 512, false}, {"G8 C64 ZA", 8, 64, true}, {"G16 C128 ZA", 16, 128, true}};
  std::printf("Compressed size / raw size (lower is better), blocks of %dx%d values, 4-bit "
              "headers, 8-byte pointer entries included.\n\n",
              dim, dim);
  std::printf("| tensor | kind | values | zeros |");
  for (const Format& f : formats)
    std::printf(" %s |", f.label.c_str());
  std::printf(" zero compr. C64 |\n|---|---|---|---|");
  for (size_t i = 0; i <= formats.size(); ++i)
    std::printf("---|");
  std::printf("\n");
  std::map<std::string, std::vector<uint64_t>> byKind; // raw, formats..., zero
  for (const Tensor& t : tensors) {
    uint64_t zeros = 0;
    for (int8_t v : t.values)
      zeros += v == 0;
    const uint64_t raw = 8 * t.values.size();
    std::vector<uint64_t>& k = byKind[t.kind];
    k.resize(formats.size() + 2, 0);
    k[0] += raw;
    std::printf("| %s | %s | %zu | %.0f%% |", t.name.c_str(), t.kind.c_str(), t.values.size(),
                100.0 * double(zeros) / double(t.values.size()));
    for (size_t i = 0; i < formats.size(); ++i) {
      const uint64_t b = bovedaBits(t, dim, formats[i]);
      k[i + 1] += b;
      std::printf(" %.3f |", double(b) / double(raw));
    }
    const uint64_t z = zeroCompression(t, dim, 64);
    k.back() += z;
    std::printf(" %.3f |\n", double(z) / double(raw));
  }
  for (const auto& [kind, k] : byKind) {
    std::printf("| **all %ss** | | | |", kind.c_str());
    for (size_t i = 0; i < formats.size(); ++i)
      std::printf(" **%.3f** |", double(k[i + 1]) / double(k[0]));
    std::printf(" **%.3f** |\n", double(k.back()) / double(k[0]));
  }

  // On-chip form (docs/boveda.md, "On-chip form"): a tile resident in the scratchpad takes
  // whole containers (container = a whole number of DIM x 8-bit rows; the pointer entry stays
  // with the host), so the effective capacity gain is raw bits / container bits.
  const int rowBits = dim * 8;
  std::printf("\nOn-chip form: scratchpad capacity gain (raw / resident container bits, "
              "DIM %d, %d-bit rows, no pointer entries).\n\n",
              dim, rowBits);
  const std::vector<Format> onChip = {
      {"G8", 8, 0, false}, {"G16", 16, 0, false}, {"G8 ZA", 8, 0, true}, {"G16 ZA", 16, 0, true}};
  std::printf("| kind | container |");
  for (const Format& f : onChip)
    std::printf(" %s |", f.label.c_str());
  std::printf("\n|---|---|---|---|---|---|\n");
  for (const int container : {rowBits, 2 * rowBits}) {
    if (container < 64)
      continue;
    std::map<std::string, std::vector<uint64_t>> kinds; // raw, then one per format
    for (const Tensor& t : tensors) {
      std::vector<uint64_t>& k = kinds[t.kind];
      k.resize(onChip.size() + 1, 0);
      k[0] += 8 * t.values.size();
      const uint64_t entries = kEntryBits * static_cast<uint64_t>(((t.rows + dim - 1) / dim) *
                                                                  ((t.cols + dim - 1) / dim));
      for (size_t i = 0; i < onChip.size(); ++i)
        k[1 + i] +=
            bovedaBits(t, dim, {"", onChip[i].group, container, onChip[i].zeroAware}) - entries;
    }
    for (const auto& [kind, k] : kinds) {
      std::printf("| %ss | %d |", kind.c_str(), container);
      for (size_t i = 0; i < onChip.size(); ++i)
        std::printf(" %.2fx |", double(k[0]) / double(k[1 + i]));
      std::printf("\n");
    }
  }
  return 0;
}
