// Beat-level reference model of the PE and the mesh.
//
// The mesh skews every beat so that all its fields meet at every PE, and data only moves
// right and down; so the mesh is equivalent to applying each beat to every PE in row-major
// order (a wavefront), PE by PE, with each PE's state updated once per valid beat. This
// model does exactly that, with no notion of cycles, skew, tiles or pipeline registers: the
// RTL must produce, for each valid input beat, the result beat this model computes.
#pragma once

#include "golden/bitvec.h"
#include "hwspec/array_params.h"

#include <vector>

namespace by::golden {

/// The inputs of one PE for one beat (widths from ArrayParams).
struct PeInputs {
  BitVec a; // aWidth: lanes elements
  BitVec b; // bWidth
  BitVec d; // dWidth
  bool valid = false;
  bool prop = false;
  bool ws = true; // dataflow: weight-stationary (Gemmini 1) or output-stationary (0)
  unsigned shift = 0;
};

struct PeOutputs {
  BitVec b; // bWidth: WS partial sum or OS operands passed down
  BitVec c; // dWidth: preload chain passed down
};

class PeModel {
public:
  explicit PeModel(const hw::ArrayParams& params);
  PeOutputs step(const PeInputs& in);

  const BitVec& c1() const { return c1_; }
  const BitVec& c2() const { return c2_; }

private:
  hw::ArrayParams p_;
  BitVec c1_, c2_;
  bool lastProp_ = false;
};

/// One beat at the mesh boundary: a per PE row, b and d per PE column.
struct MeshBeat {
  bool valid = false;
  bool prop = false;
  bool ws = true; // ignored (fixed) when the hardware supports one dataflow only
  unsigned shift = 0;
  BitVec a; // dim * aWidth
  BitVec b; // dim * bWidth
  BitVec d; // dim * dWidth
};

struct MeshResult {
  bool valid = false;
  BitVec result; // dim * outputWidth: WS partial sums or OS results, per PE column
};

class MeshModel {
public:
  explicit MeshModel(const hw::ArrayParams& params);

  /// A valid, zero-filled beat of the right widths.
  MeshBeat zeroBeat() const;
  /// Applies one beat and returns the result beat the mesh emits for it.
  MeshResult step(const MeshBeat& beat);

  const hw::ArrayParams& params() const { return p_; }

private:
  hw::ArrayParams p_;
  std::vector<PeModel> pes_; // row-major, dim x dim
};

} // namespace by::golden
