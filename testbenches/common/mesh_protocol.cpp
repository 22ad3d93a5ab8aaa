#include "mesh_protocol.h"

#include <stdexcept>

namespace by::test {

namespace {

MeshBeat emptyBeat(const hw::ArrayParams& p, bool prop, bool ws) {
  MeshBeat beat;
  beat.valid = true;
  beat.prop = prop;
  beat.ws = ws;
  beat.a = golden::BitVec(p.dim * p.aWidth());
  beat.b = golden::BitVec(p.dim * p.bWidth());
  beat.d = golden::BitVec(p.dim * p.dWidth());
  return beat;
}

void require(bool ok, const char* what) {
  if (!ok)
    throw std::invalid_argument(what);
}

} // namespace

std::vector<MeshBeat> wsPreloadBeats(const hw::ArrayParams& p, const Matrix& w, bool prop) {
  require(w.rows == p.dim * p.lanes && w.cols == p.dim,
          "wsPreloadBeats: W must be dim*lanes x dim");
  std::vector<MeshBeat> beats;
  for (int j = 0; j < p.dim; ++j) {
    MeshBeat beat = emptyBeat(p, prop, true);
    const int peRow = p.dim - 1 - j;
    for (int c = 0; c < p.dim; ++c)
      for (int l = 0; l < p.lanes; ++l)
        beat.d.set(c * p.dWidth() + l * p.inputWidth, p.inputWidth,
                   static_cast<uint64_t>(w.at(peRow * p.lanes + l, c)));
    beats.push_back(beat);
  }
  return beats;
}

std::vector<MeshBeat> wsComputeBeats(const hw::ArrayParams& p, const Matrix& a, const Matrix& d,
                                     bool prop) {
  require(a.cols == p.dim * p.lanes && d.rows == a.rows && d.cols == p.dim,
          "wsComputeBeats: A must be M x dim*lanes and D M x dim");
  std::vector<MeshBeat> beats;
  for (int i = 0; i < a.rows; ++i) {
    MeshBeat beat = emptyBeat(p, prop, true);
    for (int r = 0; r < p.dim; ++r)
      for (int l = 0; l < p.lanes; ++l)
        beat.a.set(r * p.aWidth() + l * p.inputWidth, p.inputWidth,
                   static_cast<uint64_t>(a.at(i, r * p.lanes + l)));
    for (int c = 0; c < p.dim; ++c)
      beat.b.set(c * p.bWidth(), p.outputWidth, static_cast<uint64_t>(d.at(i, c)));
    beats.push_back(beat);
  }
  return beats;
}

std::vector<MeshBeat> osPreloadBeats(const hw::ArrayParams& p, const Matrix& d, bool prop) {
  require(d.rows == p.dim && d.cols == p.dim, "osPreloadBeats: D must be dim x dim");
  std::vector<MeshBeat> beats;
  for (int j = 0; j < p.dim; ++j) {
    MeshBeat beat = emptyBeat(p, prop, false);
    for (int c = 0; c < p.dim; ++c)
      beat.d.set(c * p.dWidth(), p.outputWidth, static_cast<uint64_t>(d.at(p.dim - 1 - j, c)));
    beats.push_back(beat);
  }
  return beats;
}

std::vector<MeshBeat> osComputeBeats(const hw::ArrayParams& p, const Matrix& a, const Matrix& b,
                                     bool prop) {
  require(a.rows == p.dim && b.cols == p.dim && a.cols == b.rows && a.cols % p.lanes == 0,
          "osComputeBeats: A must be dim x K, B K x dim, K a multiple of lanes");
  std::vector<MeshBeat> beats;
  for (int t = 0; t < a.cols / p.lanes; ++t) {
    MeshBeat beat = emptyBeat(p, prop, false);
    for (int r = 0; r < p.dim; ++r)
      for (int l = 0; l < p.lanes; ++l)
        beat.a.set(r * p.aWidth() + l * p.inputWidth, p.inputWidth,
                   static_cast<uint64_t>(a.at(r, t * p.lanes + l)));
    for (int c = 0; c < p.dim; ++c)
      for (int l = 0; l < p.lanes; ++l)
        beat.b.set(c * p.bWidth() + l * p.inputWidth, p.inputWidth,
                   static_cast<uint64_t>(b.at(t * p.lanes + l, c)));
    beats.push_back(beat);
  }
  return beats;
}

std::vector<MeshBeat> osDrainBeats(const hw::ArrayParams& p, bool prop, unsigned shift) {
  std::vector<MeshBeat> beats;
  for (int j = 0; j < p.dim; ++j) {
    MeshBeat beat = emptyBeat(p, prop, false);
    beat.shift = j == 0 ? shift : 0; // only the first beat's shift is ever used
    beats.push_back(beat);
  }
  return beats;
}

Matrix resultRows(const hw::ArrayParams& p, const std::vector<MeshResult>& results, size_t first,
                  int count, bool reversed) {
  require(first + static_cast<size_t>(count) <= results.size(), "resultRows: too few results");
  Matrix c(count, p.dim);
  for (int j = 0; j < count; ++j) {
    const MeshResult& r = results[first + static_cast<size_t>(j)];
    const int row = reversed ? count - 1 - j : j;
    for (int col = 0; col < p.dim; ++col)
      c.at(row, col) = r.result.getSigned(col * p.outputWidth, p.outputWidth);
  }
  return c;
}

} // namespace by::test
