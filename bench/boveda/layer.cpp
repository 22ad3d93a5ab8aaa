// A memory-bound layer with and without Boveda on the Verilated whole accelerator
// (docs/boveda.md, "Measured"): the fully connected layer fc1 of the network that
// bench/boveda/train_int8_net.py trains, C (16 x 256) = A (16 x 512, post-ReLU int8
// activations of 16 images) x W (512 x 256 int8 weights). Every weight is used by 16 rows
// only, so the layer is bound by the weight traffic. Both programs move A and W as tiles of
// DIM rows x MAX_BLOCK_LEN*DIM columns (the plain one with MVIN, the other with compressed
// MVINs of the same tiles compressed on the host by the reference codec), compute the same
// weight-stationary sequence and write C uncompressed; every result is checked against a CPU
// reference.
//
// The DRAM (the test AXI memory, fixed latency soc.dram.latency_cycles) is run at the bus
// width per cycle (the config's soc.dram.bytes_per_cycle; latency-bound) and at 8 and 4 bytes
// per cycle (bandwidth-bound), answering ready reads in any order (a random one; the test
// memory's default) or in order (oldest first). The compressed moves run with the pointer
// table in tile order (W tile (k, j) after (k, j-1): consecutive moves of one column use
// every fourth entry) and in move order (consecutive moves, consecutive entries). Prints
// cycles per setting and the DMA bytes read (which do not depend on the DRAM's timing).
//
//   bench_boveda_layer DIR       (DIR: the tensors of train_int8_net.py)
#include "accel_system.h"
#include "boveda/codec.h"
#include "funcmodel/encode.h"
#include "funcmodel/params.h"
#include "golden/arith.h"
#include "rtl_config.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace by;
namespace fm = by::funcmodel;

namespace {

std::vector<int8_t> load(const std::string& path, size_t n) {
  std::vector<int8_t> v(n);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n));
  if (!in)
    throw std::runtime_error(path + ": missing or short (run train_int8_net.py first)");
  return v;
}

struct Result {
  uint64_t cycles = 0, readBytes = 0, compressedBytes = 0;
  long mismatches = 0;
};

/// How the DRAM answers: bytes per cycle (0: one bus beat per cycle) and answer order.
struct Dram {
  int bytesPerCycle = 0;
  bool inOrder = false;
};

/// How a run moves the tiles.
enum class Moves { Plain, TileOrder, MoveOrder };

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const config::Config cfg = test::builtConfig();
  const fm::ModelParams p = fm::ModelParams::from(cfg);
  const int dim = p.dim, M = 16, K = 512, N = 256;
  const std::string dir = argv[1];
  const std::vector<int8_t> A = load(dir + "/fc1_in.act.i8", size_t(M) * K);
  const std::vector<int8_t> W = load(dir + "/fc1.weight.i8", size_t(K) * N);
  const int wide = p.maxBlockLen * dim; // columns per move
  const int mb = M / dim, kb = K / dim, nb = N / dim;
  const int spBankRows = p.spRows / static_cast<int>(cfg.memory.scratchpad.banks);

  // DRAM: A, W and C row-major; the compressed tiles' streams and pointer entries.
  const uint64_t base = 0x80000000ull, aAddr = base, wAddr = aAddr + uint64_t(M) * K,
                 cAddr = wAddr + uint64_t(K) * N, table = cAddr + uint64_t(M) * N,
                 stream = table + 0x10000, end = stream + 2 * uint64_t(K) * N;
  // Tiles in move order: A tile (i, kg) = rows i*dim.., columns kg*dim..+wide; W tile (k, jg).
  struct Tile {
    uint64_t plainAddr, rowBytes;
    int rows, cols;
    std::vector<int16_t> values;
  };
  std::vector<Tile> tiles;
  auto tile = [&](const std::vector<int8_t>& m, int cols, uint64_t addr, int r0, int c0, int r,
                  int c) {
    Tile t{addr + uint64_t(r0) * cols + c0, uint64_t(cols), r, c, {}};
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j)
        t.values.push_back(m[size_t(r0 + i) * cols + c0 + j]);
    tiles.push_back(t);
    return tiles.size() - 1;
  };
  std::vector<size_t> aTile(size_t(mb) * kb), wTile(size_t(kb) * nb);
  for (int i = 0; i < mb; ++i)
    for (int kg = 0; kg < kb; kg += p.maxBlockLen)
      aTile[size_t(i) * kb + kg] =
          tile(A, K, aAddr, i * dim, kg * dim, dim, std::min(wide, K - kg * dim));
  for (int k = 0; k < kb; ++k)
    for (int jg = 0; jg < nb; jg += p.maxBlockLen)
      wTile[size_t(k) * nb + jg] =
          tile(W, N, wAddr, k * dim, jg * dim, dim, std::min(wide, N - jg * dim));

  // The pointer-table entry of each tile: tile order, or the order in which the program
  // moves the tiles (the loop below).
  std::vector<size_t> inMoveOrder(tiles.size());
  {
    size_t n = 0;
    for (int j = 0; j < nb; ++j)
      for (int k = 0; k < kb; ++k) {
        if (j == 0 && k % p.maxBlockLen == 0)
          for (int i = 0; i < mb; ++i)
            inMoveOrder[aTile[size_t(i) * kb + k]] = n++;
        if (j % p.maxBlockLen == 0)
          inMoveOrder[wTile[size_t(k) * nb + j]] = n++;
      }
    if (n != tiles.size())
      throw std::logic_error("move order does not cover every tile");
  }

  auto run = [&](Moves moves, const Dram& dram) {
    const bool compressed = moves != Moves::Plain;
    auto entry = [&](size_t t) { return moves == Moves::MoveOrder ? inMoveOrder[t] : t; };
    test::SystemOptions so;
    so.memBase = base;
    so.memSize = (end - base + 0xfff) / 0x1000 * 0x1000;
    so.stress = false;
    so.fixedLatency = static_cast<int>(cfg.soc.dram.latencyCycles);
    so.bytesPerCycle = dram.bytesPerCycle;
    so.oldestFirst = dram.inOrder;
    test::AccelSystem sys(cfg, so);
    for (size_t i = 0; i < A.size(); ++i)
      sys.memory().write8(aAddr + i, static_cast<uint8_t>(A[i]));
    for (size_t i = 0; i < W.size(); ++i)
      sys.memory().write8(wAddr + i, static_cast<uint8_t>(W[i]));
    uint64_t streamBytes = 0;
    uint32_t next = 0;
    for (size_t t = 0; t < tiles.size(); ++t) {
      boveda::BovedaParams f = p.bovedaFormat;
      f.blockValues = static_cast<int>(tiles[t].values.size());
      const auto c = boveda::compress(f, tiles[t].values);
      const auto bytes = c.bytes();
      for (size_t b = 0; b < bytes.size(); ++b)
        sys.memory().write8(stream + uint64_t(next) * (f.containerBits / 8) + b, bytes[b]);
      for (int b = 0; b < 4; ++b) {
        sys.memory().write8(table + 8 * entry(t) + b, static_cast<uint8_t>(next >> (8 * b)));
        sys.memory().write8(table + 8 * entry(t) + 4 + b,
                            static_cast<uint8_t>(uint32_t(c.numContainers()) >> (8 * b)));
      }
      next += static_cast<uint32_t>(c.numContainers());
      streamBytes += bytes.size();
    }
    (void)streamBytes;
    const uint32_t d = static_cast<uint32_t>(dim);
    const auto spA = [&](int i, int k) { return fm::spAddr(uint32_t((i * kb + k) * dim)); };
    const auto spW = [&](int k, int j) {
      return fm::spAddr(uint32_t(spBankRows + (k * nb + j) * dim));
    };
    fm::Program prog;
    fm::ConfigExArgs ex;
    ex.dataflow = 1;
    prog.push_back(fm::configEx(ex));
    fm::ConfigStArgs st;
    st.stride = static_cast<uint32_t>(N);
    st.accScaleBits = fm::floatBits(1.0f / 256);
    prog.push_back(fm::configSt(st));
    for (int ch = 0; ch < 2; ++ch) {
      fm::ConfigLdArgs ld;
      ld.channel = ch;
      ld.blockStride = d;
      ld.stride = compressed ? stream : uint64_t(ch == 0 ? K : N);
      ld.compressed = compressed;
      prog.push_back(fm::configLd(ld));
    }
    auto move = [&](int channel, size_t t, uint32_t local) {
      prog.push_back(fm::mvin(channel, compressed ? table + 8 * entry(t) : tiles[t].plainAddr,
                              local, uint32_t(tiles[t].rows), uint32_t(tiles[t].cols)));
    };
    const uint32_t garbage = hw::isa::kGarbageAddr;
    for (int j = 0; j < nb; ++j) {
      for (int k = 0; k < kb; ++k) {
        if (j == 0 && k % p.maxBlockLen == 0)
          for (int i = 0; i < mb; ++i)
            move(0, aTile[size_t(i) * kb + k], spA(i, k));
        if (j % p.maxBlockLen == 0)
          move(1, wTile[size_t(k) * nb + j], spW(k, j));
        for (int i = 0; i < mb; ++i) {
          const fm::Operand c{fm::accAddr(uint32_t(j * M + i * dim), k > 0), d, d};
          prog.push_back(fm::preload({i == 0 ? spW(k, j) : garbage, d, d}, c));
          prog.push_back(fm::compute(i == 0, {spA(i, k), d, d}, {garbage, d, d}));
        }
      }
      for (int i = 0; i < mb; ++i)
        prog.push_back(fm::mvout(cAddr + uint64_t(i) * dim * N + uint64_t(j) * dim,
                                 fm::accAddr(uint32_t(j * M + i * dim)), d, d));
    }
    for (const fm::Instruction& instr : prog)
      sys.issue(instr);
    const uint64_t c0 = sys.cycle();
    if (!sys.drain())
      throw std::runtime_error(sys.hangReport());
    Result r;
    r.cycles = sys.cycle() - c0;
    r.readBytes = sys.readCounter("DMA_READ_BYTES");
    r.compressedBytes = sys.readCounter("COMPRESSED_BYTES");
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int64_t acc = 0;
        for (int k = 0; k < K; ++k)
          acc += int64_t{A[size_t(i) * K + k]} * W[size_t(k) * N + j];
        const int64_t want = golden::saturate(
            golden::accScale(golden::wrap(acc, p.accWidth), 1.0f / 256, p.accWidth), p.inputWidth);
        if (static_cast<int8_t>(sys.memory().read8(cAddr + uint64_t(i) * N + j)) != want)
          ++r.mismatches;
      }
    if (!sys.protocolClean())
      throw std::runtime_error(sys.protocolReport());
    sys.finish();
    return r;
  };

  const int busBytes = static_cast<int>(cfg.dma.busWidth / 8);
  const std::vector<Dram> drams = {{0, false}, {0, true},  {8, false},
                                   {8, true},  {4, false}, {4, true}};
  const Moves kinds[3] = {Moves::Plain, Moves::TileOrder, Moves::MoveOrder};
  std::vector<std::array<Result, 3>> results;
  long mismatches = 0;
  for (const Dram& d : drams) {
    std::array<Result, 3> r;
    for (int k = 0; k < 3; ++k) {
      r[size_t(k)] = run(kinds[k], d);
      mismatches += r[size_t(k)].mismatches;
      if (!results.empty() && r[size_t(k)].readBytes != results[0][size_t(k)].readBytes)
        std::printf("note: DMA bytes read differ between DRAM settings\n");
    }
    results.push_back(r);
  }
  auto pct = [](uint64_t a, uint64_t b) { return 100.0 * (double(a) / double(b) - 1.0); };
  std::printf("fc1 layer (%dx%dx%d int8, WS) on %s, DRAM latency %d cycles, %zu moves of up to "
              "%dx%d; every result %s the CPU reference\n",
              M, K, N, BY_CONFIG_NAME, static_cast<int>(cfg.soc.dram.latencyCycles), tiles.size(),
              dim, wide, mismatches ? "does NOT match" : "matches");
  std::printf("| DRAM bytes/cycle | DRAM answers | plain MVIN | Boveda, table in tile order | "
              "Boveda, table in move order |\n");
  std::printf("|---|---|---|---|---|\n");
  for (size_t i = 0; i < drams.size(); ++i) {
    const auto& r = results[i];
    std::printf("| %d | %s | %llu | %llu (%+.1f%%) | %llu (%+.1f%%) |\n",
                drams[i].bytesPerCycle ? drams[i].bytesPerCycle : busBytes,
                drams[i].inOrder ? "in order" : "any order",
                static_cast<unsigned long long>(r[0].cycles),
                static_cast<unsigned long long>(r[1].cycles), pct(r[1].cycles, r[0].cycles),
                static_cast<unsigned long long>(r[2].cycles), pct(r[2].cycles, r[0].cycles));
  }
  const auto& r0 = results[0];
  std::printf("DMA bytes read: plain %llu; Boveda %llu (tile order) and %llu (move order), of "
              "which %llu containers (%+.1f%% and %+.1f%%)\n",
              static_cast<unsigned long long>(r0[0].readBytes),
              static_cast<unsigned long long>(r0[1].readBytes),
              static_cast<unsigned long long>(r0[2].readBytes),
              static_cast<unsigned long long>(r0[1].compressedBytes),
              pct(r0[1].readBytes, r0[0].readBytes), pct(r0[2].readBytes, r0[0].readBytes));
  return mismatches ? 1 : 0;
}
