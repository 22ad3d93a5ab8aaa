// How to drive the mesh to compute a matrix product, in beats. This is the contract the
// execute controller follows (docs/architecture.md, "Mesh protocol"):
//
//  WS  preload: dim beats with prop p; beat j carries in its d field, for every column c,
//      the lanes weights of PE row dim-1-j (the preload chain is a shift register, so the
//      first beat ends in the bottom row). compute: one beat per row of A with prop !p, the
//      lanes-wide slices of A's row on a, the bias row on b; its result beat is C's row.
//  OS  preload: dim beats with prop p; beat j carries D row dim-1-j on d. compute: one beat
//      per reduction step with prop !p: A's column slice on a, B's row slice on b. drain:
//      dim beats with prop p and the output shift on the first beat; result beat j is C row
//      dim-1-j. A drain may carry the next preload (d) and the next compute overlaps it.
#pragma once

#include "golden/matmul.h"
#include "golden/mesh_model.h"

#include <vector>

namespace by::test {

using golden::Matrix;
using golden::MeshBeat;
using golden::MeshResult;

/// W is (dim*lanes) x dim.
std::vector<MeshBeat> wsPreloadBeats(const hw::ArrayParams& p, const Matrix& w, bool prop);
/// A is M x (dim*lanes), D is M x dim.
std::vector<MeshBeat> wsComputeBeats(const hw::ArrayParams& p, const Matrix& a, const Matrix& d,
                                     bool prop);
/// D is dim x dim.
std::vector<MeshBeat> osPreloadBeats(const hw::ArrayParams& p, const Matrix& d, bool prop);
/// A is dim x (steps*lanes), B is (steps*lanes) x dim.
std::vector<MeshBeat> osComputeBeats(const hw::ArrayParams& p, const Matrix& a, const Matrix& b,
                                     bool prop);
/// dim beats draining the previous OS results with `shift`.
std::vector<MeshBeat> osDrainBeats(const hw::ArrayParams& p, bool prop, unsigned shift);

/// Rows of C from `count` result beats starting at `first` (bottom-up when `reversed`).
Matrix resultRows(const hw::ArrayParams& p, const std::vector<MeshResult>& results, size_t first,
                  int count, bool reversed);

/// Uniform random matrix with entries in [lo, hi].
template <class Rng> Matrix randomMatrix(Rng& rng, int rows, int cols, int64_t lo, int64_t hi);

} // namespace by::test

#include "mesh_protocol_impl.h"
