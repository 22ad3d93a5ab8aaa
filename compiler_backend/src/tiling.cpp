#include "tiling.h"

#include <algorithm>

namespace by::compiler {
namespace {
int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}
} // namespace

int64_t matmulDramBytes(const HwFacts& hw, const by_matmul_shape_t& s, const by_matmul_plan_t& p,
                        bool bias) {
  if (p.transposed) { // the transpose's moves: B^T as A, A^T as B
    by_matmul_shape_t t;
    by_matmul_plan_t tp = p;
    by_plan_matmul_transposed(&s, &t);
    tp.transposed = 0;
    return matmulDramBytes(hw, t, tp, bias);
  }
  size_t aReads = 0, bReads = 0;
  by_plan_matmul_reads(&hw.planner, &s, &p, &aReads, &bReads);
  const int64_t I = int64_t(s.I), J = int64_t(s.J), K = int64_t(s.K);
  // A D move broadcasts one DRAM row (stride 0): one per DIM rows of C, or per loop where
  // LOOP_WS moves all its I tiles' rows at once (docs/isa.md "LOOP_WS").
  const int64_t iBlocks = ceilDiv(I, hw.dim);
  const int64_t biasRows =
      p.loop ? ceilDiv(iBlocks, int64_t(std::max<size_t>(p.tile_i, 1))) : iBlocks;
  const int64_t accBytes = int64_t(hw.planner.acc_bytes);
  return I * K * int64_t(aReads) + K * J * int64_t(bReads) + I * J +
         (bias ? biasRows * J * accBytes : 0);
}

int64_t convPathDramBytes(const HwFacts& hw, const by_conv_shape_t& s, const by_conv_plan_t& p,
                          int64_t* weightLoads) {
  *weightLoads = 0;
  if (p.path == BY_CONV_LOOP) {
    by_conv_traffic_t t;
    by_plan_conv_loop_traffic(&hw.planner, &s, &p, &t);
    *weightLoads = int64_t(t.weight_loads);
    return int64_t(t.input + t.weights + t.bias + t.output);
  }
  if (p.path != BY_CONV_MATMUL)
    return 0;
  // The matmul the driver runs (driver/src/plan_conv.c matmul_tiles, conv.c conv_as_matmul).
  by_matmul_shape_t m = {};
  m.I = s.batch * s.in_rows * s.in_cols, m.K = s.in_ch, m.J = s.out_ch;
  m.dataflow = hw.planner.dataflow_ws;
  m.tile_i = p.tile_rows, m.tile_j = p.tile_och, m.tile_k = p.tile_k;
  by_matmul_plan_t mp;
  if (by_plan_matmul(&hw.planner, &m, &mp) != BY_OK)
    return 0;
  size_t aReads = 0, bReads = 0;
  by_plan_matmul_reads(&hw.planner, &m, &mp, &aReads, &bReads);
  *weightLoads = int64_t(bReads);
  return matmulDramBytes(hw, m, mp, s.bias != 0);
}

ConvTiles chooseConvTiles(const HwFacts& hw, const Shape& in, const Window& w, int outCh,
                          bool depthwise, const FusedPool& pool, int64_t nGroup) {
  const int64_t orows = w.outH(in.h), ocols = w.outW(in.w);
  const int64_t psize = pool.present() ? pool.size : 1, pstride = pool.present() ? pool.stride : 1;
  const int64_t ppad = pool.present() ? pool.pad : 0;
  const int64_t prows = pool.present() ? (orows + 2 * ppad - psize) / pstride + 1 : orows;
  const int64_t taps = int64_t(w.kh) * w.kw, cblocks = ceilDiv(in.c, hw.dim);
  const int64_t kblocks = depthwise ? taps : taps * cblocks;
  const int64_t nblocks = depthwise ? 1 : ceilDiv(outCh, hw.dim);
  auto convRows = [&](int64_t rows) { return std::min((rows - 1) * pstride + psize, orows); };
  const by_conv_shape_t shape = convShape(hw, in, w, outCh, depthwise, pool);
  by_conv_geom_t geom;
  by_plan_conv_geom(&hw.planner, &shape, &geom);
  auto fits = [&](int64_t rows, int64_t tn, int64_t tk) {
    return by_plan_conv_tiles_fit(&hw.planner, &shape, &geom, size_t(rows), size_t(tn),
                                  size_t(tk)) != 0;
  };
  ConvTiles best;
  int64_t bestVolume = 0;
  for (int64_t tn = 1; tn <= nblocks; ++tn)
    for (int64_t tk = 1; tk <= kblocks; ++tk) {
      if ((tn % nGroup != 0 && tn != nblocks) || !fits(1, tn, tk))
        continue;
      int64_t lo = 1, hi = prows; // the most rows that fit (fits is monotone in rows)
      while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (fits(mid, tn, tk))
          lo = mid;
        else
          hi = mid - 1;
      }
      const int64_t rows = lo;
      const int64_t bands = in.n * ceilDiv(prows, rows);
      const int64_t ntiles = ceilDiv(nblocks, tn), passes = depthwise ? cblocks : 1;
      const int64_t bandRows = convRows(rows), bandPixels = bandRows * ocols;
      const int64_t mt = ceilDiv(bandPixels, hw.dim), ktiles = ceilDiv(kblocks, tk);
      const int64_t aBytes = bands * passes * ntiles * bandPixels * taps *
                             (depthwise ? std::min<int64_t>(hw.dim, in.c) : in.c);
      const int64_t wBytes =
          bands * (depthwise ? cblocks * taps * hw.dim * hw.dim : taps * in.c * outCh);
      const int64_t biasBytes = bands * bandPixels * outCh * 4;
      const int64_t outBytes = in.n * prows *
                               (pool.present() ? (ocols + 2 * ppad - psize) / pstride + 1 : ocols) *
                               outCh;
      const int64_t bytes = aBytes + wBytes + biasBytes + outBytes;
      // Commands (driver/src/conv.c conv_tile, tile.c compute_ws): per band, pass and
      // out-channel tile: bias moves, then per K tile the weight moves, one gather per tap
      // (a move per run of pixels in one output row) and a pair per (m, k, n) block; mvouts.
      const int64_t tapsPerTile = depthwise ? tk : std::min(taps, ceilDiv(tk, cblocks) + 1);
      const int64_t perTile =
          tn + ktiles * (tk * ceilDiv(tn, hw.maxBlockLen) + tapsPerTile * (mt + bandRows)) + tn;
      const int64_t moves = bands * passes * ntiles * perTile;
      const int64_t pairs = bands * passes * ntiles * mt * kblocks * tn;
      const double cycles = std::max({double(pairs) * hw.dim, double(bytes) / hw.dramBytesPerCycle,
                                      moves * hw.moveCycles + pairs * hw.pairCycles});
      const int64_t volume = rows * tn * tk;
      if (best.rows == 0 || cycles < best.cycles ||
          (cycles == best.cycles &&
           (bytes < best.bytes || (bytes == best.bytes && volume > bestVolume)))) {
        best = ConvTiles{rows, tn, tk, bytes, bands, moves, pairs, cycles};
        bestVolume = volume;
      }
    }
  return best;
}

double im2colIssueCycles(const HwFacts& hw, const Shape& in, const Window& w) {
  const int64_t oh = w.outH(in.h), ow = w.outW(in.w);
  int64_t pieces = 0;
  for (int64_t oy = 0; oy < oh; ++oy)
    for (int ky = 0; ky < w.kh; ++ky) {
      const int64_t iy = oy * w.strideH + int64_t(ky) * w.dilH - w.padT;
      for (int kx = 0; kx < w.kw; ++kx) {
        const int64_t dx = int64_t(kx) * w.dilW; // the tap's column in the window
        if (iy < 0 || iy >= in.h) {
          ++pieces; // a zero row
          continue;
        }
        // Columns before the image, inside it, after it (driver/src/layers.c by_im2col).
        const int64_t xlo = w.padL > dx ? (w.padL - dx + w.strideW - 1) / w.strideW : 0;
        const int64_t last = in.w - 1 + w.padL - dx;
        const int64_t xhi = last < 0 ? 0 : std::min<int64_t>(ow, last / w.strideW + 1);
        pieces += (xlo > 0) + (xhi > xlo) + (ow > xhi);
      }
    }
  // A piece wider than a scratchpad row moves DIM pixels per command pair.
  const int64_t perPiece = in.c <= hw.dim * hw.lanes ? 1 : ceilDiv(ow, hw.dim);
  return double(in.n * pieces * perPiece * 2) * hw.moveCycles;
}

} // namespace by::compiler
